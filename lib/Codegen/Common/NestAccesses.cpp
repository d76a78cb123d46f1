//===- NestAccesses.cpp - Which loop nests may run as one -----------------===//

#include "FuseDialect/Codegen/Common/NestAccesses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::fuse;

/// The key all function arguments share.
static const char kFunctionArguments = 0;

/// A key for the buffer a memref value is a view of: the allocation's
/// value, the global's name, or one key for all function arguments (they
/// may alias each other).
static const void *getBufferKey(Value value) {
  while (true) {
    if (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
      value = view.getViewSource();
      continue;
    }
    break;
  }
  if (auto global = value.getDefiningOp<memref::GetGlobalOp>())
    return global.getNameAttr().getAsOpaquePointer();
  if (auto argument = dyn_cast<BlockArgument>(value))
    if (auto func =
            dyn_cast<FunctionOpInterface>(argument.getOwner()->getParentOp())) {
      // An argument the caller promises overlaps no other (a library's
      // output, fuse-results-to-out-params) is a buffer of its own; any
      // other may alias every other argument.
      if (argument.getOwner()->isEntryBlock() &&
          func.getArgAttr(argument.getArgNumber(),
                          LLVM::LLVMDialect::getNoAliasAttrName()))
        return argument.getAsOpaquePointer();
      return &kFunctionArguments;
    }
  return value.getAsOpaquePointer();
}

/// The box of `root` (a statically shaped buffer of identity layout) that
/// `value` views, when `value` is `root` through a chain of static subviews
/// with positive strides (rank-reducing ones too).
static std::optional<StridedBox> getBufferRegion(Value value, Value root) {
  SmallVector<memref::SubViewOp> chain;
  while (value != root) {
    auto subview = value.getDefiningOp<memref::SubViewOp>();
    if (!subview)
      return std::nullopt;
    chain.push_back(subview);
    value = subview.getSource();
  }
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  StridedBox region;
  region.sizes = llvm::to_vector(type.getShape());
  region.offsets.assign(type.getRank(), 0);
  region.strides.assign(type.getRank(), 1);
  // The buffer dims the current view's dims are.
  SmallVector<unsigned> dims =
      llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
  for (memref::SubViewOp subview : llvm::reverse(chain)) {
    if (ShapedType::isDynamicShape(subview.getStaticOffsets()) ||
        ShapedType::isDynamicShape(subview.getStaticSizes()) ||
        ShapedType::isDynamicShape(subview.getStaticStrides()) ||
        llvm::any_of(subview.getStaticStrides(),
                     [](int64_t stride) { return stride <= 0; }))
      return std::nullopt;
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<unsigned> kept;
    for (auto [i, dim] : llvm::enumerate(dims)) {
      region.offsets[dim] +=
          region.strides[dim] * subview.getStaticOffsets()[i];
      region.strides[dim] *= subview.getStaticStrides()[i];
      region.sizes[dim] = subview.getStaticSizes()[i];
      if (!dropped.test(i))
        kept.push_back(dim);
    }
    dims = std::move(kept);
  }
  return region;
}

/// The iteration argument of the `scf.for` that carries `value` (`value`
/// itself, or the argument tied to `value` as a result of the loop); null
/// when no `scf.for` carries it.
static BlockArgument getCarriedArgument(Value value) {
  if (auto loop = value.getDefiningOp<scf::ForOp>())
    return loop.getTiedLoopRegionIterArg(cast<OpResult>(value));
  auto argument = dyn_cast<BlockArgument>(value);
  auto loop = argument
                  ? dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp())
                  : scf::ForOp();
  if (!loop || !loop.getTiedLoopInit(argument))
    return {};
  return argument;
}

/// The buffers `value` may be a view of: through view-like ops, through
/// both branches of an `scf.if` and both operands of a select that yield
/// it (the padded window of a tile is one of two shared buffers), and
/// through the initial and yielded values of an `scf.for` it is carried by
/// (a buffer the loop updates in place).
static void getRoots(Value value, SmallVectorImpl<Value> &roots,
              llvm::SmallPtrSetImpl<Value> &visited) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  if (!visited.insert(value).second)
    return;
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    getRoots(select.getTrueValue(), roots, visited);
    getRoots(select.getFalseValue(), roots, visited);
    return;
  }
  if (auto branch = value.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(value).getResultNumber();
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!region->empty())
        getRoots(cast<scf::YieldOp>(region->front().getTerminator())
                     .getOperand(index),
                 roots, visited);
    return;
  }
  if (BlockArgument carried = getCarriedArgument(value)) {
    auto loop = cast<scf::ForOp>(carried.getOwner()->getParentOp());
    getRoots(loop.getTiedLoopInit(carried)->get(), roots, visited);
    getRoots(loop.getTiedLoopYieldedValue(carried)->get(), roots, visited);
    return;
  }
  roots.push_back(value);
}

/// Whether the loop-carried `argument` ends every iteration as it began:
/// the loop yields it back, directly or as the result of an inner loop
/// that does the same (a buffer updated in place).
static bool isUpdatedInPlace(BlockArgument argument) {
  auto loop = cast<scf::ForOp>(argument.getOwner()->getParentOp());
  Value yielded = loop.getTiedLoopYieldedValue(argument)->get();
  while (yielded != argument) {
    BlockArgument inner = yielded.getDefiningOp<scf::ForOp>()
                              ? getCarriedArgument(yielded)
                              : BlockArgument();
    if (!inner || !isUpdatedInPlace(inner))
      return false;
    yielded = cast<scf::ForOp>(inner.getOwner()->getParentOp())
                  .getTiedLoopInit(inner)
                  ->get();
  }
  return true;
}

/// The view from outside the body that an access through `value` goes
/// through: through views inside the body that stay within that view's
/// elements, and through loops that update a buffer in place (a tile's
/// register blocks written into its slice of the result).
static Value getOuterView(Value value, function_ref<bool(Value)> isInside) {
  while (isInside(value)) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<memref::SubViewOp, memref::CastOp,
                        memref::ExpandShapeOp, memref::CollapseShapeOp,
                        memref::TransposeOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    BlockArgument carried = getCarriedArgument(value);
    if (!carried || !isUpdatedInPlace(carried))
      break;
    value = cast<scf::ForOp>(carried.getOwner()->getParentOp())
                .getTiedLoopInit(carried)
                ->get();
  }
  return value;
}

bool mlir::fuse::getAccesses(Region &body, function_ref<bool(Value)> isOwn,
                 Accesses &accesses) {
  auto isInside = [&](Value value) {
    Region *region = value.getParentRegion();
    return region && body.isAncestor(region);
  };
  WalkResult result = body.walk([&](Operation *op) {
    // The block and grid ids and sizes are remapped as the body's block
    // arguments only: ops that read them from the hardware would see the
    // merged grid.
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::GlobalIdOp, gpu::ClusterIdOp,
            gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(
            op))
      return WalkResult::interrupt();
    // A block-wide reduction of values (its lowering's buffer is its own).
    if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op) || isMemoryEffectFree(op))
      return WalkResult::advance();
    // An op may have effects of its own besides its body's: a linalg.generic
    // on buffers reads its inputs and writes its outputs, and its region's
    // ops touch no memory. The walk visits the body; the op's own effects
    // are taken here. (Skipping every op with recursive effects lost those
    // reads: a nest reading what another writes was merged with it, and
    // their tiles raced under OpenMP and on the GPU.)
    auto interface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!interface)
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    interface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value value = effect.getValue();
      if (!value) {
        // Allocation scopes and the like: no buffer from outside.
        if (isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
          return WalkResult::interrupt();
        continue;
      }
      SmallVector<Value> roots;
      llvm::SmallPtrSet<Value, 4> visited;
      getRoots(value, roots, visited);
      Value outerView = getOuterView(value, isInside);
      std::optional<StridedBox> region;
      if (roots.size() == 1 && !isInside(outerView))
        region = getBufferRegion(outerView, roots.front());
      for (Value root : roots) {
        if (isInside(root) && !root.getDefiningOp<memref::GetGlobalOp>()) {
          if (isOwn(root))
            continue;
          // A buffer the body computes some other way (a transpose): which
          // one it is is not known.
          return WalkResult::interrupt();
        }
        const void *key = getBufferKey(root);
        bool write = !isa<MemoryEffects::Read>(effect.getEffect());
        accesses.list.push_back({key, root, region, write});
      }
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

bool mlir::fuse::isAllocation(Value value) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      value.getDefiningOp());
}

bool mlir::fuse::areIndependent(const Accesses &a, const Accesses &b) {
  for (const Access &x : a.list)
    for (const Access &y : b.list)
      if (x.key == y.key && (x.write || y.write) &&
          (x.root != y.root || !x.region || !y.region ||
           !areDisjoint(*x.region, *y.region)))
        return false;
  return true;
}

bool mlir::fuse::partitionBetween(Operation *first, Operation *second,
                      const Accesses &secondAccesses,
                      SmallVectorImpl<Operation *> &before,
                      SmallVectorImpl<Operation *> &after) {
  llvm::SmallPtrSet<Operation *, 8> late;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (isa<memref::DeallocOp, gpu::DeallocOp>(op)) {
      late.insert(op);
      continue;
    }
    // A wait whose token only a late op takes, or that waits on a late op.
    if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
      bool feedsLate = wait.getAsyncToken() &&
                       llvm::all_of(wait.getAsyncToken().getUsers(),
                                    [&](Operation *user) {
                                      return isa<gpu::DeallocOp>(user);
                                    }) &&
                       !wait.getAsyncToken().use_empty();
      bool waitsOnLate =
          llvm::any_of(wait.getAsyncDependencies(), [&](Value token) {
            return late.contains(token.getDefiningOp());
          });
      if (feedsLate || waitsOnLate) {
        late.insert(op);
        continue;
      }
    }
  }
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (late.contains(op)) {
      // A buffer the second launch still uses is not freed before it.
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            secondAccesses.touches(getBufferKey(operand)))
          return false;
      after.push_back(op);
      continue;
    }
    bool movable = isMemoryEffectFree(op) ||
                   isa<memref::AllocOp, gpu::AllocOp, gpu::WaitOp>(op);
    if (!movable || op->getNumRegions() != 0)
      return false;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && late.contains(def))
        return false;
    }
    before.push_back(op);
  }
  return true;
}
