//===- Materialize.cpp - Turn a fusion plan into fuse.group ops -----------===//
//
// Each planned group becomes one `fuse.group` placed at its last member: its
// inputs are the values its members read from outside (constants are cloned
// into the body instead), its results the member values used outside. Uses
// that came before the group are then fixed by one topological sort of the
// block, which convexity guarantees exists.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Fusion/OpTraits.h"
#include "FuseDialect/Transforms/FusionPlanner.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fuse;

static bool isClonableConstant(Operation *op) {
  return op && op->hasTrait<OpTrait::ConstantLike>() &&
         op->getNumOperands() == 0 && op->getNumRegions() == 0;
}

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
    if (isClonableConstant(def))
      constants.insert(def);
    else
      inputs.insert(v);
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

SmallVector<GroupOp> mlir::fuse::materializeFusionPlan(func::FuncOp func,
                                                       const FusionPlan &plan) {
  SmallVector<GroupOp> groups;
  if (plan.groups.empty())
    return groups;
  Block &block = func.getBody().front();
  for (const PlannedGroup &planned : plan.groups)
    groups.push_back(materializeGroup(block, planned));
  // Members' results used before the group's position: reorder. Convex
  // groups keep the graph acyclic, so a topological order exists.
  bool sorted = sortTopologically(&block);
  (void)sorted;
  assert(sorted && "fusion plan created a cycle");
  // Constants that only fed grouped ops are dead now.
  SmallVector<Operation *> dead;
  for (Operation &op : block)
    if (isClonableConstant(&op) && op.use_empty())
      dead.push_back(&op);
  for (Operation *op : dead)
    op->erase();
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
