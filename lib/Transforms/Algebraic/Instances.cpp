//===- Instances.cpp - Canonical instances of algebraic rules -------------===//

#include "FuseDialect/Transforms/Algebraic/Instances.h"

#include "FuseDialect/Transforms/Algebraic/Domain.h"
#include "FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::algebra;

namespace {

/// Values of the constant variables in instances: distinct, non-trivial
/// (scaled by 4 for integer rules: 3, 5, -2, 6).
double getConstVarValue(StringRef name, bool positive, bool integer) {
  double value = 0.3;
  if (positive)
    value = 1.5;
  else if (name == "k")
    value = 0.75;
  else if (name == "k1")
    value = 1.25;
  else if (name == "k2")
    value = -0.5;
  return integer ? std::round(value * 4) : value;
}

class InstanceBuilder {
public:
  InstanceBuilder(const Rule &rule, const AlgebraDomain &domain,
                  OpBuilder &builder, Location loc, Type valueType,
                  Type predicateType)
      : rule(rule), domain(domain), builder(builder), loc(loc),
        valueType(valueType), predicateType(predicateType) {}

  /// The argument types, in order of first appearance of each variable.
  SmallVector<Type> collectArguments() {
    collect(rule.lhs.root, /*isPredicate=*/false);
    return argTypes;
  }

  Value build(Block &entry) {
    for (auto [name, arg] : llvm::zip(argNames, entry.getArguments()))
      vars[name] = arg;
    SmallVector<Operation *> created;
    return buildNode(rule.lhs.root, valueType, created);
  }

private:
  void collect(unsigned idx, bool isPredicate) {
    const TermNode &node = rule.lhs.nodes[idx];
    if (node.kind == TermNode::Kind::Var) {
      if (!llvm::is_contained(argNames, node.name)) {
        argNames.push_back(node.name);
        argTypes.push_back(isPredicate ? predicateType : valueType);
      }
      return;
    }
    for (auto [i, operand] : llvm::enumerate(node.operands))
      collect(operand, node.kind == TermNode::Kind::Op &&
                           node.op == OpKind::Select && i == 0);
  }

  Value buildNode(unsigned idx, Type expected,
                  SmallVectorImpl<Operation *> &created) {
    const TermNode &node = rule.lhs.nodes[idx];
    switch (node.kind) {
    case TermNode::Kind::Var:
      return vars.lookup(node.name);
    case TermNode::Kind::ConstVar:
      return domain.buildConstant(builder, loc,
                                  getConstVarValue(node.name, node.positive,
                                                   rule.isIntegerOnly()),
                                  domain.getLiteralType(expected), created);
    case TermNode::Kind::Literal:
      return domain.buildConstant(builder, loc, node.literal,
                                  domain.getLiteralType(expected), created);
    case TermNode::Kind::Reuse:
      return {};
    case TermNode::Kind::Op:
      break;
    }
    SmallVector<Value, 3> operands;
    for (auto [i, operand] : llvm::enumerate(node.operands)) {
      bool isPredicate = node.op == OpKind::Select && i == 0;
      Value v = buildNode(operand, isPredicate ? predicateType : valueType,
                          created);
      if (!v)
        return {};
      operands.push_back(v);
    }
    return domain.build(builder, loc, node.op, operands, /*attrSource=*/nullptr,
                        created);
  }

  const Rule &rule;
  const AlgebraDomain &domain;
  OpBuilder &builder;
  Location loc;
  Type valueType, predicateType;
  SmallVector<std::string> argNames;
  SmallVector<Type> argTypes;
  llvm::StringMap<Value> vars;
};

/// Whether every operator of `rule` exists in `domain` (as a single op when
/// `native`).
bool fits(const Rule &rule, const AlgebraDomain &domain, bool native) {
  for (const algebra::Pattern *p : {&rule.lhs, &rule.rhs})
    for (const TermNode &node : p->nodes)
      if (node.kind == TermNode::Kind::Op &&
          !(native ? domain.isNative(node.op) : domain.supports(node.op)))
        return false;
  return true;
}

} // namespace

func::FuncOp mlir::fuse::algebra::buildRuleInstance(ModuleOp module,
                                                    const Rule &rule) {
  MLIRContext *ctx = module.getContext();
  const AlgebraDomain *domain = nullptr;
  // Prefer a domain where every operator is one op, TOSA first.
  for (bool native : {true, false}) {
    for (const AlgebraDomain *d : {&getTosaDomain(), &getArithDomain()})
      if (!domain && fits(rule, *d, native))
        domain = d;
  }
  if (!domain)
    return nullptr;
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module.getBody());
  Location loc = NameLoc::get(StringAttr::get(ctx, rule.name));
  Type element = rule.isIntegerOnly() ? Type(builder.getI32Type())
                                      : Type(builder.getF32Type());
  auto valueType = RankedTensorType::get({2, 4, 4}, element);
  auto predicateType = RankedTensorType::get({2, 4, 4}, builder.getI1Type());
  InstanceBuilder instance(rule, *domain, builder, loc, valueType,
                           predicateType);
  SmallVector<Type> args = instance.collectArguments();

  auto func = func::FuncOp::create(builder, loc, rule.name,
                                   builder.getFunctionType(args, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Value result = instance.build(*entry);
  if (!result) {
    func.erase();
    return nullptr;
  }
  func::ReturnOp::create(builder, loc, result);
  func.setFunctionType(builder.getFunctionType(args, {result.getType()}));
  return func;
}

void mlir::fuse::algebra::printRuleCatalogue(MLIRContext *context,
                                             llvm::raw_ostream &os) {
  ArrayRef<Rule> rules = getRuleCatalogue();
  unsigned counts[3] = {0, 0, 0};
  for (const Rule &rule : rules)
    counts[static_cast<unsigned>(rule.family)]++;

  os << "# Algebraic rules\n\n"
     << "<!-- Generated by `fuse-opt --fuse-print-algebraic-rules` from "
        "include/FuseDialect/Transforms/Algebraic/Rules.def. Do not edit; "
        "a lit test fails when this file is stale. -->\n\n"
     << "`--fuse-algebraic-simplify` (the first stage of `--fuse-ops`) "
        "applies these rules to TOSA, named linalg elementwise ops and arith/math (linalg.generic "
        "payloads, tensors), most profitable first, and only when the cost "
        "model says a rewrite lowers the cost. `strict` keeps only the exact "
        "rules.\n\n"
     << "Rules: " << rules.size() << " (associative " << counts[0]
     << ", distributive " << counts[1] << ", commutative " << counts[2]
     << ").\n\n"
     << "*Cost* is measured on the rule's canonical instance "
        "(operands `tensor<2x4x4xf32>`, integer rules `i32`), in the cost "
        "model's units: flops plus bytes moved / 4, before → after the "
        "rewrite. A commutative rule whose cost stays equal is an *enabler*: "
        "it is applied only when it exposes a profitable rewrite. *Test*: "
        "every rule is rewritten and checked structurally by "
        "`test/Transforms/algebraic/rule-instances.mlir` and numerically "
        "(random inputs, original vs. rewritten, on the CPU) by "
        "`test/Transforms/algebraic/rule-numerics.mlir`; rules marked with a "
        "file also have hand-written positive and negative tests there.\n\n"
     << "| family | rule | pattern | exactness | cost before → after | test |\n"
     << "|---|---|---|---|---|---|\n";
  for (const Rule &rule : rules) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(context));
    func::FuncOp func = buildRuleInstance(*module, rule);
    std::string cost = "n/a";
    if (func) {
      OpCost before = computeAlgebraicCost(func);
      AlgebraicSimplifyOptions options;
      options.ignoreCost = true;
      options.onlyRules.push_back(rule.name.str());
      simplifyAlgebraically(func, options);
      OpCost after = computeAlgebraicCost(func);
      cost = llvm::formatv("{0} → {1}", before.weighted(), after.weighted());
    }
    os << "| " << stringifyRuleFamily(rule.family) << " | `" << rule.name
       << "` | `" << rule.lhs.toInfix() << "` → `" << rule.rhs.toInfix(&rule.lhs)
       << "` | " << rule.describeExactness() << " | " << cost << " | "
       << "instance + numeric |\n";
  }
}
