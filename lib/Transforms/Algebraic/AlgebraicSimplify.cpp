//===- AlgebraicSimplify.cpp - The --fuse-algebraic-simplify pass ---------===//
//
// A thin pass over the engine in lib/Transforms/Algebraic (rules, domains,
// cost model, driver); see FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h"

#include "FuseDialect/Transforms/Algebraic/Instances.h"
#include "FuseDialect/Transforms/Passes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "fuse-algebraic-simplify"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEALGEBRAICSIMPLIFYPASS
#define GEN_PASS_DEF_FUSEPRINTALGEBRAICRULESPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FuseAlgebraicSimplifyPass final
    : fuse::impl::FuseAlgebraicSimplifyPassBase<FuseAlgebraicSimplifyPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxIterations < 1) {
      emitError(getOperation()->getLoc())
          << "fuse-algebraic-simplify: max-iterations must be at least 1";
      return signalPassFailure();
    }
    if (!rules) {
      (void)foldConstantElementwiseOps(getOperation());
      return;
    }
    AlgebraicSimplifyOptions options;
    options.strict = strict;
    options.ignoreCost = ignoreCost;
    options.maxIterations = maxIterations;
    for (const std::string &name : onlyRules)
      options.onlyRules.push_back(name);
    for (const std::string &name : onlyRules) {
      if (llvm::none_of(algebra::getRuleCatalogue(),
                        [&](const algebra::Rule &r) { return r.name == name; })) {
        getOperation()->emitError() << "unknown algebraic rule '" << name << "'";
        return signalPassFailure();
      }
    }

    algebra::OpCost before;
    if (report)
      before = computeAlgebraicCost(getOperation());
    AlgebraicSimplifyStats stats = simplifyAlgebraically(getOperation(), options);
    if (stats.hitIterationLimit)
      getOperation()->emitWarning()
          << "algebraic simplification stopped after "
          << static_cast<uint64_t>(maxIterations)
          << " rounds; raise max-iterations to apply the remaining rewrites";
    numAssociative += stats.fired[0];
    numDistributive += stats.fired[1];
    numCommutative += stats.fired[2];
    numFlopsSaved += stats.flopsSaved;
    if (!report)
      return;
    algebra::OpCost after = computeAlgebraicCost(getOperation());
    std::string name = "<op>";
    if (auto symbol = dyn_cast<SymbolOpInterface>(getOperation()))
      name = "@" + symbol.getName().str();
    llvm::errs() << "fuse-algebraic-simplify " << name << ": fired "
                 << stats.totalFired() << " (associative " << stats.fired[0]
                 << ", distributive " << stats.fired[1] << ", commutative "
 << stats.fired[2] << "); folded " << stats.folded
                 << "; flops " << before.flops << " -> "
                 << after.flops << "; bytes " << before.bytes << " -> "
                 << after.bytes << "; rounds " << stats.rounds << "\n";
    SmallVector<std::pair<StringRef, int64_t>> perRule;
    for (auto &entry : stats.firedPerRule)
      perRule.push_back({entry.getKey(), entry.getValue()});
    llvm::sort(perRule);
    for (auto &[rule, count] : perRule)
      llvm::errs() << "  " << rule << " x" << count << "\n";
  }
};

struct FusePrintAlgebraicRulesPass final
    : fuse::impl::FusePrintAlgebraicRulesPassBase<FusePrintAlgebraicRulesPass> {
  using Base::Base;

  void runOnOperation() override {
    algebra::printRuleCatalogue(&getContext(), llvm::outs());
    markAllAnalysesPreserved();
  }
};

} // namespace
