//===- Memory.cpp - Where a tile's temporaries live -----------------------===//
//
// Which tile bodies a block can share among its threads, and where each
// temporary lives: shared memory when its size has a static bound that
// fits, else a per-block slice of device scratch.
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

int64_t elementBytes(MemRefType type) {
  return llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// The value of the index `value` with the values in `env` (the tile loop's
/// induction variables) known, by folding its pure producers.
static std::optional<int64_t> evaluate(Value value, DenseMap<Value, int64_t> &env) {
  if (auto known = env.find(value); known != env.end())
    return known->second;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def))
    return std::nullopt;
  Builder b(value.getContext());
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> v = getConstantIntValue(operand);
    if (!v && operand.getType().isIndex())
      v = evaluate(operand, env);
    if (!v)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*v));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) ||
      results.size() != def->getNumResults())
    return std::nullopt;
  OpFoldResult result = results[cast<OpResult>(value).getResultNumber()];
  std::optional<int64_t> v =
      isa<Value>(result) ? evaluate(cast<Value>(result), env)
                         : getConstantIntValue(result);
  if (v)
    env[value] = *v;
  return v;
}

/// The largest value `size` takes in any tile of `loop`: a constant bound if
/// the value-bounds analysis finds one, else the maximum over every tile
/// (sizes of padded windows at the borders are maxima and minima the
/// analysis does not bound).
static FailureOr<int64_t> boundSize(Value size, scf::ForallOp loop) {
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, size, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(bound))
    return bound;
  std::optional<StaticBounds> bounds = getStaticBounds(loop);
  if (!bounds)
    return failure();
  ArrayRef<int64_t> lbs = bounds->lbs, ubs = bounds->ubs,
                    steps = bounds->steps;
  SmallVector<int64_t> point(lbs);
  int64_t largest = 0;
  for (int64_t visited = 0; visited < (1 << 16); ++visited) {
    DenseMap<Value, int64_t> env;
    for (auto [iv, v] : llvm::zip(loop.getInductionVars(), point))
      env[iv] = v;
    std::optional<int64_t> v = evaluate(size, env);
    if (!v)
      return failure();
    largest = std::max(largest, *v);
    // Next tile, last loop fastest.
    int d = static_cast<int>(point.size()) - 1;
    for (; d >= 0; --d) {
      point[d] += steps[d];
      if (point[d] < ubs[d])
        break;
      point[d] = lbs[d];
    }
    if (d < 0)
      return largest;
  }
  return failure();
}

/// Bytes a temporary of a tile of `loop` takes at most.
static FailureOr<int64_t> boundBytes(memref::AllocOp alloc, scf::ForallOp loop) {
  MemRefType type = alloc.getType();
  int64_t elements = 1;
  unsigned dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> bound =
          boundSize(alloc.getDynamicSizes()[dynamic++], loop);
      if (failed(bound) || *bound < 0)
        return failure();
      size = *bound;
    }
    elements *= size;
  }
  return elements * elementBytes(type);
}

bool isDistributable(Region &region, scf::ForallOp loop,
                     DenseMap<Operation *, int64_t> &tempBytes) {
  for (Operation &op : region.getOps()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (!linalgOp.hasPureBufferSemantics())
        return false;
      // Each parallel point writes its own output elements (threads take
      // distinct points): every output index uses every parallel loop but
      // unit ones (a batch of one that only the inputs index).
      SmallVector<unsigned> parallel;
      linalgOp.getParallelDims(parallel);
      SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
      for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
        AffineMap map = linalgOp.getMatchingIndexingMap(&init);
        if (!map.isProjectedPermutation() ||
            llvm::any_of(parallel, [&](unsigned d) {
              return ranges[d] != 1 && !map.isFunctionOfDim(d);
            }))
          return false;
      }
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (!isDistributable(ifOp.getThenRegion(), loop, tempBytes) ||
          !isDistributable(ifOp.getElseRegion(), loop, tempBytes))
        return false;
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat())
        return false;
      FailureOr<int64_t> bytes = boundBytes(alloc, loop);
      if (failed(bytes))
        return false;
      tempBytes[alloc] = *bytes;
      continue;
    }
    if (isa<memref::DeallocOp, scf::YieldOp, scf::InParallelOp>(op))
      continue;
    if (op.getNumRegions() != 0)
      return false;
    // Pure ops and reads run redundantly on every thread.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (isMemoryEffectFree(&op) ||
        (effects && effects.onlyHasEffect<MemoryEffects::Read>()))
      continue;
    return false;
  }
  return true;
}

/// The value that changes memory space with the operand of `use`: the
/// result of a view of it, the base buffer of its metadata, or the result
/// of the branch that yields it; null for any other use.
static Value getMovedValue(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::CastOp, memref::ExtractStridedMetadataOp>(user))
    return user->getResult(0);
  if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp()))
    return user->getParentOp()->getResult(use.getOperandNumber());
  return Value();
}

bool canChangeMemorySpace(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<linalg::LinalgOp, memref::LoadOp, memref::StoreOp,
            memref::DeallocOp>(user))
      continue;
    Value moved = getMovedValue(use);
    if (!moved ||
        (isa<scf::YieldOp>(user) && !value.getDefiningOp<memref::AllocOp>()) ||
        !canChangeMemorySpace(moved))
      return false;
  }
  return true;
}

void propagateMemorySpace(Value value, Attribute space) {
  for (OpOperand &use : value.getUses()) {
    Value moved = getMovedValue(use);
    if (!moved)
      continue;
    auto type = cast<MemRefType>(moved.getType());
    if (type.getMemorySpace() == space)
      continue; // the other branch's temporary moved it already
    moved.setType(MemRefType::Builder(type).setMemorySpace(space));
    propagateMemorySpace(moved, space);
  }
}

SmallVector<memref::AllocOp> getSharedUnit(memref::AllocOp alloc) {
  SmallVector<memref::AllocOp> unit = {alloc};
  for (OpOperand &use : alloc->getUses()) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    auto ifOp = yield ? dyn_cast<scf::IfOp>(yield->getParentOp()) : nullptr;
    if (!ifOp)
      continue;
    // Defined in the branch that yields it, so it is not alive while the
    // other branch runs.
    if (alloc->getBlock() != yield->getBlock())
      return {};
    Block *other = yield->getBlock() == ifOp.thenBlock() ? ifOp.elseBlock()
                                                         : ifOp.thenBlock();
    if (!other)
      return {};
    Value partner = other->getTerminator()->getOperand(use.getOperandNumber());
    auto partnerAlloc = partner.getDefiningOp<memref::AllocOp>();
    auto isYield = [](Operation *user) { return isa<scf::YieldOp>(user); };
    if (!partnerAlloc || partnerAlloc.getType() != alloc.getType() ||
        partnerAlloc->getBlock() != other ||
        llvm::count_if(partnerAlloc->getUsers(), isYield) != 1 ||
        llvm::count_if(alloc->getUsers(), isYield) != 1)
      return {};
    unit.push_back(partnerAlloc);
  }
  return unit;
}

} // namespace mlir::fuse::distribute
