//===- FillHalos.cpp - Fill a padded buffer only outside its copied box ---===//
//
// On buffers:
//
//   %w = memref.alloc() : memref<1x10x114x32xf32>
//   linalg.map outs(%w) { linalg.yield %zero }          // 146 KB written
//   %box = memref.subview %w[0, %r, 1, 0] [1, %n, 112, 32] [1, 1, 1, 1]
//   linalg.copy ins(%src) outs(%box)                    // 115 KB again
//
// becomes fills of the box's complement, one slab per side per dimension
// (Halos.h). The slabs and the box partition the buffer, so every element
// ends with the value it had.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Passes.h"
#include "Halos.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFILLHALOSPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The value a fill of a whole buffer writes, or null: `linalg.fill`, or a
/// `linalg.map` with no inputs yielding a value defined above it.
Value getFillValue(Operation *op, Value &buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureBufferSemantics())
      return nullptr;
    buffer = fill.getOutputs().front();
    return fill.getInputs().front();
  }
  auto map = dyn_cast<linalg::MapOp>(op);
  if (!map || !map.hasPureBufferSemantics() || !map.getInputs().empty())
    return nullptr;
  auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
  Value value = yield.getOperand(0);
  if (map.getMapper().isAncestor(value.getParentRegion()))
    return nullptr;
  buffer = map.getInit();
  return value;
}

/// The copy after `fill` in its block into a unit-stride subview of
/// `buffer` from a source that is no view of `buffer`, with no op between
/// touching `buffer` but that subview; or null.
std::pair<Operation *, memref::SubViewOp> findCopyInto(Operation *fill,
                                                       Value buffer) {
  memref::SubViewOp box;
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(op);
        subview && subview.getSource() == buffer && !box) {
      box = subview;
      continue;
    }
    Value source, target;
    if (auto copy = dyn_cast<linalg::CopyOp>(op);
        copy && copy.hasPureBufferSemantics()) {
      source = copy.getInputs().front();
      target = copy.getOutputs().front();
    } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      source = copy.getSource();
      target = copy.getTarget();
    }
    if (box && target == box.getResult() &&
        memref::skipViewLikeOps(cast<MemrefValue>(source)) != buffer &&
        llvm::all_of(box.getStaticStrides(),
                     [](int64_t stride) { return stride == 1; }))
      return {op, box};
    // Anything else that may see the buffer ends the search.
    bool touches = llvm::any_of(op->getOperands(), [&](Value v) {
      return v == buffer || (box && v == box.getResult());
    });
    if (touches || op->getNumRegions() != 0)
      return {nullptr, {}};
  }
  return {nullptr, {}};
}

struct FuseFillHalosPass
    : public fuse::impl::FuseFillHalosPassBase<FuseFillHalosPass> {
  void runOnOperation() override {
    SmallVector<Operation *> fills;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::FillOp, linalg::MapOp>(op))
        fills.push_back(op);
    });
    for (Operation *fill : fills) {
      Value buffer;
      Value value = getFillValue(fill, buffer);
      if (!value || !buffer.getDefiningOp<memref::AllocOp>() ||
          !cast<MemRefType>(buffer.getType()).hasStaticShape())
        continue;
      auto type = cast<MemRefType>(buffer.getType());
      auto [copy, box] = findCopyInto(fill, buffer);
      if (!copy)
        continue;
      OpBuilder b(copy);
      Location loc = fill->getLoc();
      SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
      forEachHaloSlab(
          b, loc, type.getShape(), box.getMixedOffsets(), box.getMixedSizes(),
          [&](ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
            Value slab =
                memref::SubViewOp::create(b, loc, buffer, offsets, sizes, ones);
            linalg::FillOp::create(b, loc, value, slab);
          });
      fill->erase();
    }
  }
};

} // namespace

void mlir::fuse::forEachHaloSlab(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> extents,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
    function_ref<void(ArrayRef<OpFoldResult>, ArrayRef<OpFoldResult>)> slab) {
  int64_t rank = extents.size();
  AffineExpr d0, d1;
  bindDims(builder.getContext(), d0, d1);
  auto emit = [&](int64_t dim, OpFoldResult start, OpFoldResult size) {
    SmallVector<OpFoldResult> slabOffsets, slabSizes;
    for (int64_t i = 0; i < rank; ++i) {
      bool inBox = i < dim;
      slabOffsets.push_back(i == dim ? start
                            : inBox  ? offsets[i]
                                     : builder.getIndexAttr(0));
      slabSizes.push_back(i == dim ? size
                          : inBox  ? sizes[i]
                                   : builder.getIndexAttr(extents[i]));
    }
    slab(slabOffsets, slabSizes);
  };
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!isZeroInteger(offsets[dim]))
      emit(dim, builder.getIndexAttr(0), offsets[dim]);
    OpFoldResult end = affine::makeComposedFoldedAffineApply(
        builder, loc, d0 + d1, {offsets[dim], sizes[dim]});
    std::optional<int64_t> staticEnd = getConstantIntValue(end);
    if (staticEnd && *staticEnd == extents[dim])
      continue;
    OpFoldResult rest = affine::makeComposedFoldedAffineApply(
        builder, loc, extents[dim] - d0, {end});
    emit(dim, end, rest);
  }
}
