//===- VectorizeTiles.cpp - Vector code inside each group's tiles ---------===//
//
// After `--fuse-tile-groups` a group is one `scf.forall` over tiles whose
// body is a short chain of structured ops on static tile shapes. Turning
// them into vector ops (upstream `linalg::vectorize`) and folding the
// transfers between them keeps a tile's intermediates in vector registers:
// the chain reads its inputs once and writes its results once, with SIMD
// arithmetic in between.
//
// Convolutions and contractions stay scalar (their vector forms need
// register tiling first, which this pass does not do); so do boundary tiles
// with dynamic sizes, and ops whose iteration space is larger than
// `max-vector-elements` (the vector code is fully unrolled).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseOps.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEVECTORIZETILESPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Whether `op` is worth and safe to vectorize as one unrolled vector op.
bool isVectorizable(linalg::LinalgOp op, int64_t maxElements) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return false;
  if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) ||
      linalg::isaContractionOpInterface(op))
    return false;
  int64_t points = 1;
  for (int64_t size : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size))
      return false;
    points *= size;
    if (points > maxElements)
      return false;
  }
  // Whole-byte integer and float elements only. A memref of i1 stores a
  // byte per element, but an LLVM vector of i1 loads and stores packed
  // bits, so a vector transfer of i1 would read the wrong elements; index
  // and complex elements stay scalar too.
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return false;
  }
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

struct FuseVectorizeTilesPass final
    : fuse::impl::FuseVectorizeTilesPassBase<FuseVectorizeTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](GroupOp group) {
      group.getBody().walk([&](linalg::LinalgOp op) {
        if (op->getParentOfType<scf::ForallOp>() &&
            isVectorizable(op, maxVectorElements))
          candidates.push_back(op);
      });
    });
    if (candidates.empty())
      return;

    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (failed(result))
        continue; // left as it was: a scalar loop nest
      rewriter.replaceOp(op, result->replacements);
    }

    // A transfer_write into a tile read back by the next op's transfer_read
    // forwards the vector; reads of slices read the sliced tensor; the
    // broadcasts and transposes the vectorizer emits sink into their users.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
