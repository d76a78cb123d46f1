//===- ClampIndices.cpp - Gather and scatter indices inside their buffers -===//
//
// `--fuse-clamp-indices` (docs in Passes.td). For each tosa.gather
// (values N x K x C, indices N x W) and tosa.scatter (values_in N x K x C,
// indices N x W, input N x W x C): unless the indices are a constant within
// [0, K) or already clamped to within it, they are replaced by
// `tosa.clamp(indices, 0, K - 1)`. The lowering then never reads or writes
// outside `values`, whatever the indices at run time.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECLAMPINDICESPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether `indices` are known to lie in [0, rows).
bool isWithin(Value indices, int64_t rows) {
  DenseIntElementsAttr constant;
  if (matchPattern(indices, m_Constant(&constant)))
    return llvm::all_of(constant.getValues<APInt>(), [&](const APInt &v) {
      return !v.isNegative() && v.getSExtValue() < rows;
    });
  auto clamp = indices.getDefiningOp<tosa::ClampOp>();
  if (!clamp)
    return false;
  auto lo = dyn_cast<IntegerAttr>(clamp.getMinValAttr());
  auto hi = dyn_cast<IntegerAttr>(clamp.getMaxValAttr());
  return lo && hi && lo.getInt() >= 0 && hi.getInt() < rows;
}

/// Clamps the indices operand `operand` of a gather or scatter reading
/// `rows` rows, unless they are known to be within them.
void clampIndices(RewriterBase &rewriter, OpOperand &operand, int64_t rows) {
  Value indices = operand.get();
  auto type = dyn_cast<RankedTensorType>(indices.getType());
  auto element = type ? dyn_cast<IntegerType>(type.getElementType()) : nullptr;
  if (!element || ShapedType::isDynamic(rows) || rows < 1 ||
      isWithin(indices, rows))
    return;
  Operation *user = operand.getOwner();
  rewriter.setInsertionPoint(user);
  Value clamped = tosa::ClampOp::create(
      rewriter, user->getLoc(), type, indices,
      rewriter.getIntegerAttr(element, 0),
      rewriter.getIntegerAttr(element, rows - 1),
      tosa::NanPropagationModeAttr::get(rewriter.getContext(),
                                        tosa::NanPropagationMode::PROPAGATE));
  rewriter.modifyOpInPlace(user, [&] { operand.set(clamped); });
}

/// K, the rows `values` (N x K x C) has.
int64_t getRows(Value values) {
  auto type = dyn_cast<RankedTensorType>(values.getType());
  return type && type.getRank() == 3 ? type.getDimSize(1)
                                     : ShapedType::kDynamic;
}

struct FuseClampIndicesPass final
    : fuse::impl::FuseClampIndicesPassBase<FuseClampIndicesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (auto gather = dyn_cast<tosa::GatherOp>(op))
        clampIndices(rewriter, gather.getIndicesMutable(),
                     getRows(gather.getValues()));
      else if (auto scatter = dyn_cast<tosa::ScatterOp>(op))
        clampIndices(rewriter, scatter.getIndicesMutable(),
                     getRows(scatter.getValuesIn()));
    });
  }
};

} // namespace
