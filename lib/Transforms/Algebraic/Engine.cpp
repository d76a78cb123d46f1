//===- Engine.cpp - Matching, pricing and applying algebraic rules --------===//
//
// The driver works in rounds:
//
//   1. collect every match of every enabled rule (`Matcher`),
//   2. price each one by building its right-hand side next to the root and
//      comparing the cost of what would die with the cost of what was built
//      (`Candidate::delta`), then erase what was built,
//   3. apply the profitable candidates, largest saving first, skipping those
//      that overlap an earlier rewrite of the round,
//   4. if nothing was profitable, try cost-neutral commutative rewrites one
//      at a time and keep one only if it exposes a profitable rewrite at the
//      ops it created (an enabler); otherwise undo it.
//
// Every profitable rewrite lowers the integer cost of the program, so the
// rounds terminate; `maxIterations` bounds them anyway.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h"

#include "FuseDialect/Transforms/Algebraic/Domain.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fuse-algebraic-simplify"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::algebra;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

namespace {

/// What a left-hand side bound while matching.
struct Bindings {
  SmallVector<std::pair<StringRef, Value>, 4> vars;
  /// The ops defining the bound variables (null for block arguments),
  /// recorded when matching so that overlap checks never touch a value
  /// whose op an earlier rewrite of the round erased.
  SmallVector<Operation *, 4> varDefs;
  SmallVector<std::pair<StringRef, Operation *>, 2> labels;
  /// Matched ops in pre-order (the root first); may repeat an op.
  SmallVector<Operation *, 6> ops;

  Value lookupVar(StringRef name) const {
    for (auto &[n, v] : vars)
      if (n == name)
        return v;
    return {};
  }
  Operation *lookupLabel(StringRef name) const {
    for (auto &[n, op] : labels)
      if (n == name)
        return op;
    return nullptr;
  }
};

/// Whether two values compute the same thing: the same value, or results of
/// equivalent side-effect-free ops on equivalent operands.
bool areEquivalent(Value a, Value b, unsigned depth = 4) {
  if (a == b)
    return true;
  if (depth == 0 || a.getType() != b.getType())
    return false;
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  if (!opA || !opB || opA->getNumRegions() || opB->getNumRegions() ||
      opA->getNumResults() != 1 || opB->getNumResults() != 1 ||
      !isMemoryEffectFree(opA) || !isMemoryEffectFree(opB))
    return false;
  return OperationEquivalence::isEquivalentTo(
      opA, opB,
      [&](Value x, Value y) { return success(areEquivalent(x, y, depth - 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

class Matcher {
public:
  /// `allowDense`: constant variables may bind non-splat constants. Only
  /// sound when the rule is made of elementwise ops and reductions, where a
  /// constant keeps its position relative to the indices (a reduction
  /// changing that position changes the result type, which the rewrite
  /// checks); a matmul would move it from the summed axis to the output.
  Matcher(const AlgebraDomain &domain, const algebra::Pattern &pattern,
          bool allowDense)
      : domain(domain), pattern(pattern), allowDense(allowDense) {}

  bool match(unsigned nodeIdx, Value value, Bindings &b) const {
    const TermNode &node = pattern.nodes[nodeIdx];
    switch (node.kind) {
    case TermNode::Kind::Var: {
      if (Value bound = b.lookupVar(node.name))
        return areEquivalent(bound, value);
      b.vars.push_back({node.name, value});
      b.varDefs.push_back(value.getDefiningOp());
      return true;
    }
    case TermNode::Kind::ConstVar: {
      if (!isConstant(value))
        return false;
      if (node.positive && !isPositiveConstant(value))
        return false;
      if (Value bound = b.lookupVar(node.name)) {
        if (areEquivalent(bound, value))
          return true;
        std::optional<double> x = domain.getSplatValue(bound);
        return x && x == domain.getSplatValue(value);
      }
      b.vars.push_back({node.name, value});
      b.varDefs.push_back(value.getDefiningOp());
      return true;
    }
    case TermNode::Kind::Literal: {
      std::optional<double> splat = domain.getSplatValue(value);
      return splat && *splat == node.literal;
    }
    case TermNode::Kind::Reuse:
      return false;
    case TermNode::Kind::Op:
      break;
    }
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumResults() != 1)
      return false;
    std::optional<SmallVector<Value, 3>> operands =
        domain.getTermOperands(op, node.op);
    if (!operands)
      return false;
    if (!node.name.empty()) {
      if (Operation *bound = b.lookupLabel(node.name)) {
        if (!domain.haveSameAttributes(bound, op))
          return false;
      } else {
        b.labels.push_back({node.name, op});
      }
    }
    b.ops.push_back(op);
    for (Operation *helper : domain.getHelperOps(op, node.op))
      b.ops.push_back(helper);
    Bindings saved = b;
    if (matchOperands(node, *operands, /*swap=*/false, b))
      return true;
    if (!isCommutative(node.op))
      return false;
    b = std::move(saved);
    return matchOperands(node, *operands, /*swap=*/true, b);
  }

private:
  bool isConstant(Value value) const {
    return domain.getSplatValue(value) ||
           (allowDense && static_cast<bool>(domain.getConstantElements(value)));
  }

  bool isPositiveConstant(Value value) const {
    if (std::optional<double> splat = domain.getSplatValue(value))
      return *splat > 0.0;
    DenseElementsAttr attr = domain.getConstantElements(value);
    return attr && llvm::all_of(attr.getValues<APFloat>(), [](APFloat v) {
             return v.convertToDouble() > 0.0;
           });
  }

  bool matchOperands(const TermNode &node, ArrayRef<Value> operands, bool swap,
                     Bindings &b) const {
    for (auto [i, operandNode] : llvm::enumerate(node.operands)) {
      unsigned idx = swap ? operands.size() - 1 - i : i;
      if (!match(operandNode, operands[idx], b))
        return false;
    }
    return true;
  }

  const AlgebraDomain &domain;
  const algebra::Pattern &pattern;
  bool allowDense;
};

/// Whether every operator of `rule` is elementwise or a reduction.
bool isIndexAligned(const Rule &rule) {
  for (const algebra::Pattern *p : {&rule.lhs, &rule.rhs})
    for (const TermNode &node : p->nodes)
      if (node.kind == TermNode::Kind::Op && !isElementwise(node.op) &&
          node.op != OpKind::ReduceSum && node.op != OpKind::ReduceProd &&
          node.op != OpKind::ReduceMax && node.op != OpKind::ReduceMin)
        return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Building right-hand sides
//===----------------------------------------------------------------------===//

/// Folds an elementwise op over float constants (splat or dense, with
/// broadcasting) at compile time. Returns null if an operand is not a
/// constant, the op does not fold, or the result would be too large.
Value foldConstants(const AlgebraDomain &domain, OpBuilder &builder,
                    Location loc, OpKind kind, ArrayRef<Value> operands,
                    SmallVectorImpl<Operation *> &created) {
  if (!isElementwise(kind) || operands.empty())
    return {};
  SmallVector<Type, 3> types;
  bool allSplat = true;
  for (Value v : operands) {
    if (!isa<FloatType>(getElementTypeOrSelf(v.getType())))
      return {};
    types.push_back(v.getType());
    if (!domain.getSplatValue(v)) {
      allSplat = false;
      if (!domain.getConstantElements(v))
        return {};
    }
  }
  Type type = domain.getFoldedType(types);
  if (!type)
    return {};
  if (allSplat) {
    SmallVector<double, 3> values;
    for (Value v : operands)
      values.push_back(*domain.getSplatValue(v));
    std::optional<double> result = evaluate(kind, values);
    if (!result)
      return {};
    return domain.buildConstant(builder, loc, *result, type, created);
  }
  auto resultType = dyn_cast<RankedTensorType>(type);
  if (!resultType || !resultType.hasStaticShape() ||
      resultType.getNumElements() > (1 << 22))
    return {};
  // Evaluate element by element; operands broadcast along size-1 dims.
  SmallVector<SmallVector<double>> values;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands) {
    DenseElementsAttr attr = domain.getConstantElements(v);
    auto shaped = cast<RankedTensorType>(v.getType());
    if (shaped.getRank() != resultType.getRank())
      return {};
    SmallVector<double> data;
    if (attr) {
      for (APFloat x : attr.getValues<APFloat>())
        data.push_back(x.convertToDouble());
    } else {
      data.assign(shaped.getNumElements(), *domain.getSplatValue(v));
    }
    values.push_back(std::move(data));
    shapes.push_back(shaped.getShape());
  }
  auto floatType = cast<FloatType>(resultType.getElementType());
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t rank = shape.size();
  SmallVector<APFloat> results;
  SmallVector<int64_t> index(rank, 0);
  SmallVector<double, 3> args(operands.size());
  for (int64_t linear = 0, e = resultType.getNumElements(); linear < e;
       ++linear) {
    for (auto [k, data] : llvm::enumerate(values)) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d)
        offset = offset * shapes[k][d] + (shapes[k][d] == 1 ? 0 : index[d]);
      args[k] = data[offset];
    }
    std::optional<double> r = evaluate(kind, args);
    if (!r)
      return {};
    APFloat value(*r);
    bool losesInfo;
    value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    results.push_back(value);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return domain.buildConstantFromAttr(
      builder, loc, DenseElementsAttr::get(resultType, results), created);
}

class RhsBuilder {
public:
  RhsBuilder(const AlgebraDomain &domain, const algebra::Pattern &pattern,
             const Bindings &bindings, OpBuilder &builder, Location loc)
      : domain(domain), pattern(pattern), bindings(bindings), builder(builder),
        loc(loc) {}

  Value build(SmallVectorImpl<Operation *> &created) {
    return buildNode(pattern.root, created);
  }

private:
  Value buildNode(unsigned idx, SmallVectorImpl<Operation *> &created) {
    const TermNode &node = pattern.nodes[idx];
    switch (node.kind) {
    case TermNode::Kind::Var:
    case TermNode::Kind::ConstVar:
      return bindings.lookupVar(node.name);
    case TermNode::Kind::Reuse: {
      Operation *op = bindings.lookupLabel(node.name);
      return op ? op->getResult(0) : Value();
    }
    case TermNode::Kind::Literal:
      return {}; // built by the parent, which knows the type
    case TermNode::Kind::Op:
      break;
    }
    SmallVector<Value, 3> operands(node.operands.size());
    Type siblingType;
    for (auto [i, operandIdx] : llvm::enumerate(node.operands)) {
      if (pattern.nodes[operandIdx].kind == TermNode::Kind::Literal)
        continue;
      operands[i] = buildNode(operandIdx, created);
      if (!operands[i])
        return {};
      // The predicate of a select does not decide the value type.
      if (!siblingType && !(node.op == OpKind::Select && i == 0))
        siblingType = operands[i].getType();
    }
    for (auto [i, operandIdx] : llvm::enumerate(node.operands)) {
      const TermNode &operand = pattern.nodes[operandIdx];
      if (operand.kind != TermNode::Kind::Literal)
        continue;
      if (!siblingType)
        return {};
      operands[i] = domain.buildConstant(builder, loc, operand.literal,
                                         domain.getLiteralType(siblingType),
                                         created);
      if (!operands[i])
        return {};
    }
    if (Value folded = tryFold(node.op, operands, created))
      return folded;
    Operation *attrSource = nullptr;
    if (!node.attrLabel.empty()) {
      attrSource = bindings.lookupLabel(node.attrLabel);
      if (!attrSource)
        return {};
    }
    return domain.build(builder, loc, node.op, operands, attrSource, created);
  }

  Value tryFold(OpKind kind, ArrayRef<Value> operands,
                SmallVectorImpl<Operation *> &created) {
    return foldConstants(domain, builder, loc, kind, operands, created);
  }

  const AlgebraDomain &domain;
  const algebra::Pattern &pattern;
  const Bindings &bindings;
  OpBuilder &builder;
  Location loc;
};

//===----------------------------------------------------------------------===//
// Candidates
//===----------------------------------------------------------------------===//

struct Candidate {
  const Rule *rule;
  const AlgebraDomain *domain;
  Operation *root;
  Bindings bindings;
  int64_t delta = 0; ///< weighted cost saved (positive is better)
  OpCost saved;
};

/// Which domain prices and rewrites `op`. The payloads of named linalg ops
/// are implied by the op name and never rewritten; only linalg.generic
/// payloads are.
const AlgebraDomain *getDomainFor(Operation *op) {
  if (!getTosaDomain().getKinds(op).empty())
    return &getTosaDomain();
  if (!getLinalgDomain().getKinds(op).empty())
    return &getLinalgDomain();
  Operation *parent = op->getParentOp();
  if (parent && isa<linalg::LinalgOp>(parent) && !isa<linalg::GenericOp>(parent))
    return nullptr;
  if (!getArithDomain().getKinds(op).empty())
    return &getArithDomain();
  return nullptr;
}

bool ruleFitsDomain(const Rule &rule, const AlgebraDomain &domain) {
  for (const algebra::Pattern *p : {&rule.lhs, &rule.rhs})
    for (const TermNode &node : p->nodes)
      if (node.kind == TermNode::Kind::Op && !domain.supports(node.op))
        return false;
  return true;
}

/// Rules by root kind, per domain.
class RuleIndex {
public:
  RuleIndex(const AlgebraicSimplifyOptions &options) {
    for (const Rule &rule : getRuleCatalogue()) {
      if (options.strict && !rule.isStrictSafe())
        continue;
      if (!options.onlyRules.empty() &&
          !llvm::is_contained(options.onlyRules, rule.name.str()))
        continue;
      for (const AlgebraDomain *domain :
           {&getTosaDomain(), &getArithDomain(), &getLinalgDomain()})
        if (ruleFitsDomain(rule, *domain))
          byRoot[{domain, rule.lhs.getRoot().op}].push_back(&rule);
    }
  }

  ArrayRef<const Rule *> lookup(const AlgebraDomain *domain, OpKind kind) const {
    auto it = byRoot.find({domain, kind});
    if (it == byRoot.end())
      return {};
    return it->second;
  }

private:
  std::map<std::pair<const AlgebraDomain *, OpKind>, SmallVector<const Rule *>>
      byRoot;
};

/// Element types and shapes the rules are written for: floats (integers for
/// integer-only rules) in statically shaped tensors or scalars.
bool rootTypeFits(const Rule &rule, Operation *root) {
  Type type = root->getResult(0).getType();
  if (auto shaped = dyn_cast<ShapedType>(type))
    if (!shaped.hasStaticShape())
      return false;
  Type element = getElementTypeOrSelf(type);
  if (rule.isIntegerOnly())
    return isa<IntegerType>(element) && !element.isInteger(1);
  return isa<FloatType>(element);
}

void collectMatchesAt(Operation *op, const RuleIndex &index,
                      std::vector<Candidate> &out) {
  if (op->getNumResults() != 1)
    return;
  const AlgebraDomain *domain = getDomainFor(op);
  if (!domain)
    return;
  for (OpKind kind : domain->getKinds(op)) {
    for (const Rule *rule : index.lookup(domain, kind)) {
      if (!rootTypeFits(*rule, op))
        continue;
      Bindings bindings;
      if (!Matcher(*domain, rule->lhs, isIndexAligned(*rule))
               .match(rule->lhs.root, op->getResult(0), bindings))
        continue;
      out.push_back(Candidate{rule, domain, op, std::move(bindings)});
    }
  }
}

/// The matched ops that die when the root is replaced: the root, and every
/// matched op all of whose users die.
SmallVector<Operation *> computeDyingOps(const Candidate &c) {
  SmallVector<Operation *> dying;
  llvm::SmallPtrSet<Operation *, 8> dyingSet;
  for (Operation *op : c.bindings.ops) {
    if (dyingSet.contains(op))
      continue;
    bool dies = op == c.root ||
                llvm::all_of(op->getUsers(), [&](Operation *user) {
                  return dyingSet.contains(user);
                });
    if (dies && isMemoryEffectFree(op)) {
      dying.push_back(op);
      dyingSet.insert(op);
    }
  }
  return dying;
}

OpCost priceOf(const AlgebraDomain &domain, ArrayRef<Operation *> ops) {
  OpCost cost;
  for (Operation *op : ops)
    cost += domain.getCost(op);
  return cost;
}

/// What a rewrite round did, for the next round: ops it erased (compared by
/// pointer, never dereferenced) and ops near its rewrites, the only places
/// where new matches can appear.
struct RoundLog {
  llvm::DenseSet<Operation *> erased;
  llvm::SetVector<Operation *> dirty;
};

/// The log of the round in progress on this thread (function passes run in
/// parallel, one function per thread).
thread_local RoundLog *currentLog = nullptr;

void eraseLogged(Operation *op) {
  if (currentLog)
    currentLog->erased.insert(op);
  op->erase();
}

/// Records the ops a rewrite may have given new matches: `seeds` and every
/// op up to four users above them (the deepest pattern has four levels).
void markDirty(ArrayRef<Operation *> seeds) {
  if (!currentLog)
    return;
  SmallVector<std::pair<Operation *, unsigned>> work;
  for (Operation *op : seeds)
    work.push_back({op, 0});
  while (!work.empty()) {
    auto [op, depth] = work.pop_back_val();
    if (!currentLog->dirty.insert(op) || depth == 4)
      continue;
    for (Operation *user : op->getUsers())
      work.push_back({user, depth + 1});
  }
}

void eraseCreated(SmallVectorImpl<Operation *> &created) {
  for (Operation *op : llvm::reverse(created))
    eraseLogged(op);
  created.clear();
}

/// The ops defining the operands of `ops` (their use counts change when
/// `ops` are erased or created).
SmallVector<Operation *> getProducers(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> producers;
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp())
        producers.push_back(def);
  return producers;
}

/// Builds the right-hand side of `c` before its root. Returns the new value,
/// or null (with nothing left behind) if it cannot be built or would change
/// the root's type.
Value buildReplacement(const Candidate &c,
                       SmallVectorImpl<Operation *> &created) {
  OpBuilder builder(c.root);
  RhsBuilder rhs(*c.domain, c.rule->rhs, c.bindings, builder, c.root->getLoc());
  Value value = rhs.build(created);
  if (!value || value.getType() != c.root->getResult(0).getType() ||
      value == c.root->getResult(0)) {
    eraseCreated(created);
    return {};
  }
  return value;
}

/// Prices `c` by building its replacement and throwing it away.
bool evaluate(Candidate &c) {
  SmallVector<Operation *> created;
  Value value = buildReplacement(c, created);
  if (!value)
    return false;
  // New ops keep alive whatever they use, including matched values.
  SmallVector<Operation *> dying = computeDyingOps(c);
  OpCost before = priceOf(*c.domain, dying);
  OpCost after = priceOf(*c.domain, created);
  c.saved = OpCost{before.flops - after.flops, before.bytes - after.bytes};
  c.delta = before.weighted() - after.weighted();
  eraseCreated(created);
  return true;
}

/// Applies `c`: replaces the root and erases what died.
bool apply(Candidate &c, AlgebraicSimplifyStats &stats) {
  SmallVector<Operation *> created;
  Value value = buildReplacement(c, created);
  if (!value)
    return false;
  SmallVector<Operation *> dying = computeDyingOps(c);
  SmallVector<Operation *> seeds = getProducers(dying);
  c.root->getResult(0).replaceAllUsesWith(value);
  for (Operation *op : dying)
    if (op->use_empty())
      eraseLogged(op);
  seeds.append(created.begin(), created.end());
  if (Operation *def = value.getDefiningOp())
    seeds.push_back(def);
  llvm::erase_if(seeds, [](Operation *op) {
    return currentLog && currentLog->erased.contains(op);
  });
  markDirty(seeds);
  stats.fired[static_cast<unsigned>(c.rule->family)]++;
  stats.firedPerRule[c.rule->name]++;
  stats.flopsSaved += c.saved.flops;
  stats.bytesSaved += c.saved.bytes;
  LLVM_DEBUG(llvm::dbgs() << "applied " << c.rule->name << " (saves "
                          << c.delta << ")\n");
  return true;
}

bool overlaps(const Candidate &c, const llvm::DenseSet<Operation *> &touched) {
  for (Operation *op : c.bindings.ops)
    if (touched.contains(op))
      return true;
  for (Operation *def : c.bindings.varDefs)
    if (def && touched.contains(def))
      return true;
  return false;
}

void markTouched(const Candidate &c, llvm::DenseSet<Operation *> &touched) {
  for (Operation *op : c.bindings.ops)
    touched.insert(op);
}

/// Applies cost-neutral commutative rewrites that enable a profitable one.
bool applyEnablers(std::vector<Candidate> &candidates,
                   const RuleIndex &index, AlgebraicSimplifyStats &stats) {
  // Every enabler that does not overlap one applied before it in this round.
  bool applied = false;
  llvm::DenseSet<Operation *> touched;
  for (Candidate &c : candidates) {
    if (c.delta != 0 || c.rule->family != RuleFamily::Commutative ||
        overlaps(c, touched))
      continue;
    SmallVector<Operation *> created;
    Value value = buildReplacement(c, created);
    if (!value)
      continue;
    Value old = c.root->getResult(0);
    old.replaceAllUsesWith(value);
    // Look for a profitable rewrite at the new ops and their users.
    std::vector<Candidate> follow;
    SetVector<Operation *> roots(created.begin(), created.end());
    for (Operation *user : value.getUsers())
      roots.insert(user);
    for (Operation *op : roots)
      collectMatchesAt(op, index, follow);
    bool enables = llvm::any_of(follow, [](Candidate &f) {
      return evaluate(f) && f.delta > 0;
    });
    if (!enables) {
      value.replaceAllUsesWith(old);
      eraseCreated(created);
      continue;
    }
    markTouched(c, touched);
    SmallVector<Operation *> dying = computeDyingOps(c);
    SmallVector<Operation *> seeds = getProducers(dying);
    for (Operation *op : dying)
      if (op->use_empty())
        eraseLogged(op);
    seeds.append(created.begin(), created.end());
    llvm::erase_if(seeds, [](Operation *op) {
      return currentLog && currentLog->erased.contains(op);
    });
    markDirty(seeds);
    stats.fired[static_cast<unsigned>(c.rule->family)]++;
    stats.firedPerRule[c.rule->name]++;
    applied = true;
  }
  return applied;
}

/// Erases constants and tensor.empty ops nothing uses (left by folding and
/// by rewrites).
void eraseDeadConstants(Operation *scope) {
  SmallVector<Operation *> dead;
  scope->walk([&](Operation *op) {
    if (op != scope && op->use_empty() &&
        (op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(op)))
      dead.push_back(op);
  });
  for (Operation *op : dead)
    op->erase();
}

/// Erases side-effect-free ops without users, to a fixpoint.
void eraseDeadOps(Operation *scope) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    scope->walk([&](Operation *op) {
      if (op != scope && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : dead) {
      op->erase();
      changed = true;
    }
  }
}

} // namespace

int64_t mlir::fuse::foldConstantElementwiseOps(Operation *scope) {
  int64_t folded = 0;
  SmallVector<Operation *> ops;
  scope->walk([&](Operation *op) { ops.push_back(op); });
  for (Operation *op : ops) {
    if (op == scope || op->getNumResults() != 1)
      continue;
    const AlgebraDomain *domain = getDomainFor(op);
    if (!domain)
      continue;
    SmallVector<OpKind, 2> kinds = domain->getKinds(op);
    if (kinds.empty())
      continue;
    std::optional<SmallVector<Value, 3>> operands =
        domain->getTermOperands(op, kinds.front());
    OpBuilder builder(op);
    SmallVector<Operation *> created;
    Value value = foldConstants(*domain, builder, op->getLoc(), kinds.front(),
                                *operands, created);
    if (!value || value.getType() != op->getResult(0).getType()) {
      eraseCreated(created);
      continue;
    }
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
    ++folded;
  }
  eraseDeadConstants(scope);
  return folded;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

AlgebraicSimplifyStats
mlir::fuse::simplifyAlgebraically(Operation *scope,
                                  const AlgebraicSimplifyOptions &options) {
  AlgebraicSimplifyStats stats;
  RuleIndex index(options);
  unsigned rounds = 0;
  // Dead ops would count as users and hide profitable rewrites.
  eraseDeadOps(scope);
  if (options.onlyRules.empty())
    stats.folded = foldConstantElementwiseOps(scope);
  // Rounds after a change look only at the ops near it (the previous round's
  // dirty set); when such a round finds nothing, one full scan decides
  // whether the fixpoint is reached.
  RoundLog previous;
  bool fullScan = true;
  while (rounds < options.maxIterations) {
    ++rounds;
    std::vector<Candidate> candidates;
    if (fullScan) {
      scope->walk([&](Operation *op) {
        if (op != scope)
          collectMatchesAt(op, index, candidates);
      });
    } else {
      for (Operation *op : previous.dirty)
        if (!previous.erased.contains(op))
          collectMatchesAt(op, index, candidates);
    }
    RoundLog log;
    currentLog = &log;
    // Price, then largest saving first (ties: program order).
    std::vector<Candidate> priced;
    for (Candidate &c : candidates)
      if (evaluate(c))
        priced.push_back(std::move(c));
    llvm::stable_sort(priced, [](const Candidate &a, const Candidate &b) {
      return a.delta > b.delta;
    });

    bool changed = false;
    llvm::DenseSet<Operation *> touched;
    for (Candidate &c : priced) {
      if (!options.ignoreCost && c.delta <= 0)
        break;
      if (overlaps(c, touched))
        continue;
      markTouched(c, touched);
      changed |= apply(c, stats);
    }
    if (!options.ignoreCost && !changed)
      changed = applyEnablers(priced, index, stats);
    currentLog = nullptr;
    if (options.ignoreCost)
      break;
    if (!changed) {
      // At the fixpoint, ops the rewrites left with only constant operands
      // (x - x became 0) fold, and the rules get another full scan.
      if (fullScan) {
        int64_t folded =
            options.onlyRules.empty() ? foldConstantElementwiseOps(scope) : 0;
        stats.folded += folded;
        if (!folded)
          break;
      }
      fullScan = true;
      continue;
    }
    fullScan = false;
    previous = std::move(log);
  }
  if (stats.totalFired())
    eraseDeadConstants(scope);
  stats.hitIterationLimit = !options.ignoreCost &&
                            rounds == options.maxIterations;
  stats.rounds = rounds;
  return stats;
}

OpCost mlir::fuse::computeAlgebraicCost(Operation *scope) {
  OpCost cost;
  scope->walk([&](Operation *op) {
    if (const AlgebraDomain *domain = getDomainFor(op))
      cost += domain->getCost(op);
  });
  return cost;
}
