//===- TestAlgebraicRules.cpp - Rewrite every rule's canonical instance ---===//
//
// `--fuse-test-emit-rule-instances` replaces the module with one function per
// algebraic rule computing the rule's left-hand side (see
// Algebraic/Instances.h); `inputs=positive` selects the rules that hold only
// for positive inputs, `inputs=any` the others.
//
// `--fuse-test-apply-rule-instances` rewrites each function @NAME with rule
// NAME alone, whatever the cost, checks that the rule fired and that the
// function now returns what the rule's right-hand side computes (an op of the
// right kind, or the right argument), and prints a summary. Run under
// utils/fuse-diff it turns the emitted module into the rewritten one, so the
// numeric check compares every rule's two sides on random inputs.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Algebraic/Domain.h"
#include "FuseDialect/Transforms/Algebraic/Instances.h"
#include "FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::algebra;

namespace {

struct TestEmitRuleInstancesPass
    : PassWrapper<TestEmitRuleInstancesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestEmitRuleInstancesPass)

  TestEmitRuleInstancesPass() = default;
  TestEmitRuleInstancesPass(const TestEmitRuleInstancesPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final {
    return "fuse-test-emit-rule-instances";
  }
  StringRef getDescription() const final {
    return "Replace the module with one instance function per algebraic rule";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tosa::TosaDialect, arith::ArithDialect, math::MathDialect,
                    func::FuncDialect>();
  }

  Option<std::string> inputs{*this, "inputs",
                             llvm::cl::desc("any | positive | all"),
                             llvm::cl::init("all")};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module.getBody()->clear();
    for (const Rule &rule : getRuleCatalogue()) {
      if (inputs == "any" && rule.needsPositiveInputs())
        continue;
      if (inputs == "positive" && !rule.needsPositiveInputs())
        continue;
      if (!buildRuleInstance(module, rule)) {
        module.emitError() << "no instance for rule '" << rule.name << "'";
        return signalPassFailure();
      }
    }
  }
};

/// Whether `value` is what the right-hand side `rhs` computes at its root.
bool returnsRhsRoot(Value value, const Rule &rule, func::FuncOp func) {
  const TermNode &root = rule.rhs.getRoot();
  if (root.kind == TermNode::Kind::Var) {
    // The rule returns one of the instance's arguments; instances number
    // arguments by first appearance in the left-hand side.
    return isa<BlockArgument>(value);
  }
  if (root.kind != TermNode::Kind::Op)
    return false;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  for (const AlgebraDomain *domain : {&getTosaDomain(), &getArithDomain()})
    if (llvm::is_contained(domain->getKinds(def), root.op))
      return true;
  return false;
}

struct TestApplyRuleInstancesPass
    : PassWrapper<TestApplyRuleInstancesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestApplyRuleInstancesPass)

  TestApplyRuleInstancesPass() = default;
  TestApplyRuleInstancesPass(const TestApplyRuleInstancesPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final {
    return "fuse-test-apply-rule-instances";
  }
  StringRef getDescription() const final {
    return "Rewrite each @RULE function with rule RULE and check the result";
  }

  Option<bool> printSummary{*this, "summary",
                            llvm::cl::desc("Print a summary to stdout"),
                            llvm::cl::init(false)};

  void runOnOperation() override {
    unsigned rewritten = 0, failed = 0;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      const Rule *rule = nullptr;
      for (const Rule &r : getRuleCatalogue())
        if (r.name == func.getSymName())
          rule = &r;
      if (!rule || func.isExternal())
        continue;
      AlgebraicSimplifyOptions options;
      options.ignoreCost = true;
      options.onlyRules.push_back(rule->name.str());
      AlgebraicSimplifyStats stats = simplifyAlgebraically(func, options);
      auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
      if (stats.totalFired() == 0) {
        func.emitError() << "rule '" << rule->name
                         << "' did not fire on its instance";
        ++failed;
        continue;
      }
      if (!returnsRhsRoot(ret.getOperand(0), *rule, func)) {
        func.emitError() << "rule '" << rule->name
                         << "' did not produce its right-hand side";
        ++failed;
        continue;
      }
      ++rewritten;
    }
    if (printSummary)
      llvm::outs() << "rule instances: " << rewritten << " rewritten, "
                   << failed << " failed\n";
    if (failed)
      signalPassFailure();
  }
};

} // namespace

namespace mlir::fuse::test {
void registerTestAlgebraicRulesPasses() {
  PassRegistration<TestEmitRuleInstancesPass>();
  PassRegistration<TestApplyRuleInstancesPass>();
}
} // namespace mlir::fuse::test
