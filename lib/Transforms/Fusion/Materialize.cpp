//===- Materialize.cpp - Turn a fusion plan into fuse.group ops -----------===//
//
// Each planned group becomes one `fuse.group` placed at its last member: its
// inputs are the values its members read from outside (constants and empty
// tensors are cloned into the body instead), its results the member values used outside. Uses
// that came before the group are then fixed by one stable topological
// schedule of the block that keeps ops with side effects in their original
// order; the planner guarantees one exists (groups are convex with every
// other group contracted, and only side-effect-free ops need to move).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <queue>

using namespace mlir;
using namespace mlir::fuse;

static GroupOp materializeGroup(Block &block, const PlannedGroup &planned) {
  llvm::SmallPtrSet<Operation *, 16> members(planned.ops.begin(),
                                              planned.ops.end());
  auto isMember = [&](Operation *op) {
    Operation *ancestor = block.findAncestorOpInBlock(*op);
    return ancestor && members.contains(ancestor);
  };

  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> constants;
  auto noteOperand = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && members.contains(def))
      return;
    if (isRematerializable(def)) {
      constants.insert(def);
    } else if (isFreeInitializer(def)) {
      for (Value operand : def->getOperands())
        constants.insert(operand.getDefiningOp());
      constants.insert(def);
    } else {
      inputs.insert(v);
    }
  };
  for (Operation *op : planned.ops) {
    for (Value v : op->getOperands())
      noteOperand(v);
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value v : above)
      noteOperand(v);
  }

  SmallVector<Value> outputs;
  for (Operation *op : planned.ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !isMember(user); }))
        outputs.push_back(result);

  SmallVector<Location> locs;
  for (Operation *op : planned.ops)
    locs.push_back(op->getLoc());
  MLIRContext *ctx = block.getParentOp()->getContext();
  OpBuilder builder(planned.ops.back());
  SmallVector<Type> resultTypes;
  for (Value v : outputs)
    resultTypes.push_back(v.getType());
  GroupOp group = GroupOp::createWithEmptyBody(
      builder, FusedLoc::get(ctx, locs), resultTypes, inputs.getArrayRef());
  group.setMappingAttr(MappingTypeAttr::get(ctx, planned.type));

  IRMapping mapping;
  Block &body = group.getBodyBlock();
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, arg);
  OpBuilder inner = OpBuilder::atBlockEnd(&body);
  for (Operation *constant : constants)
    inner.clone(*constant, mapping);
  for (Operation *op : planned.ops)
    inner.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(mapping.lookup(v));
  YieldOp::create(inner, group.getLoc(), yielded);

  for (auto [output, result] : llvm::zip(outputs, group.getResults()))
    output.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !isMember(use.getOwner());
    });
  for (Operation *op : llvm::reverse(planned.ops))
    op->erase();
  return group;
}

/// Reorders `block` (its terminator stays last) so that every op comes after
/// what it reads, keeping the original order wherever possible and always
/// among ops with side effects. Fails, changing nothing, on a cycle.
static LogicalResult scheduleStably(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  SmallVector<SmallVector<unsigned>> successors(ops.size());
  SmallVector<unsigned> pending(ops.size(), 0);
  auto addEdge = [&](unsigned from, unsigned to) {
    successors[from].push_back(to);
    ++pending[to];
  };
  std::optional<unsigned> lastEffect;
  for (auto [i, op] : llvm::enumerate(ops)) {
    SmallVector<Value> reads(op->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    reads.append(above.begin(), above.end());
    llvm::SmallDenseSet<unsigned> deps;
    for (Value v : reads)
      if (Operation *def = v.getDefiningOp())
        if (Operation *ancestor = block.findAncestorOpInBlock(*def);
            ancestor && ancestor != op && position.count(ancestor))
          deps.insert(position[ancestor]);
    if (!isMemoryEffectFree(op)) {
      if (lastEffect)
        deps.insert(*lastEffect);
      lastEffect = i;
    }
    for (unsigned d : deps)
      addEdge(d, i);
  }
  // Kahn's algorithm, earliest original position first.
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned i = 0; i < ops.size(); ++i)
    if (pending[i] == 0)
      ready.push(i);
  SmallVector<Operation *> schedule;
  while (!ready.empty()) {
    unsigned i = ready.top();
    ready.pop();
    schedule.push_back(ops[i]);
    for (unsigned s : successors[i])
      if (--pending[s] == 0)
        ready.push(s);
  }
  if (schedule.size() != ops.size())
    return failure();
  Operation *terminator = block.mightHaveTerminator() ? block.getTerminator()
                                                     : nullptr;
  for (Operation *op : schedule) {
    if (terminator)
      op->moveBefore(terminator);
    else
      op->moveBefore(&block, block.end());
  }
  return success();
}

FailureOr<SmallVector<GroupOp>>
mlir::fuse::materializeFusionPlan(func::FuncOp func, const FusionPlan &plan) {
  SmallVector<GroupOp> groups;
  if (plan.groups.empty())
    return groups;
  Block &block = func.getBody().front();
  for (const PlannedGroup &planned : plan.groups)
    groups.push_back(materializeGroup(block, planned));
  // Members' results used before the group's position: reorder.
  if (failed(scheduleStably(block)))
    return func.emitError()
           << "fusion plan has a cycle between kernels (planner bug); "
              "the function is left in an invalid state";
  // Constants, empty tensors and fills that only fed grouped ops are dead.
  // Reverse order: a fill goes before the empty tensor it fills.
  SmallVector<Operation *> dead;
  for (Operation &op : llvm::reverse(block))
    if ((isRematerializable(&op) || isFreeInitializer(&op)) &&
        op.use_empty())
      dead.push_back(&op);
  for (Operation *op : dead) {
    bool unused = op->use_empty();
    if (unused)
      op->erase();
  }
  return groups;
}

int64_t mlir::fuse::getSavedIntermediateBytes(GroupOp group) {
  llvm::SmallPtrSet<Value, 8> yielded;
  for (Value v : group.getYield().getValues())
    yielded.insert(v);
  int64_t bytes = 0;
  for (Operation &op : group.getBodyBlock().without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value result : op.getResults())
      if (!yielded.contains(result) && !result.use_empty() &&
          isa<ShapedType>(result.getType()))
        bytes += getNumElements(result.getType()) *
                 getElementBytes(result.getType());
  }
  return bytes;
}
