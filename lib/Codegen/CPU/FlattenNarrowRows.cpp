//===- FlattenNarrowRows.cpp - Transposed short rows as one flat write ----===//
//
// On buffers, after bufferization and before the vector transfers are
// lowered. fuse-vectorize-tiles cuts a narrow transpose (a model's NCHW
// image moved to NHWC in every tile of its first convolution) into chunks
// of 16 pixels by the image's few channels: a `vector.transpose` of
// vector<...x3x...x16> to vector<...x16x3>, written as 16 rows of 3
// floats. Unrolled row by row, each 12-byte row costs two stores, and the
// transpose element moves. Where the rows lie end to end in the buffer,
// the write is one flat vector instead:
//
//   1. Writes taken: an unmasked, in-bounds, minor-identity
//      `vector.transfer_write` of a `vector.transpose` result to a memref,
//      whose rows (the vector's innermost dimension) are shorter than a
//      64-byte cache line, of at most kMaxElements elements in all, with
//      at most two dimensions of more than one element. (With more, the
//      flat shape cast of the transpose, lowered later, gave wrong values:
//      test/Regression/random-10.mlir; not root-caused.)
//   2. Each as a write of a 1-D vector to a collapsed view of its buffer
//      (upstream's flatten patterns: `memref.collapse_shape` and
//      `vector.shape_cast`), only where the rows it writes are contiguous
//      in the buffer; left as it is otherwise (a write into one part of a
//      wider concat's channels).
//   3. A transpose of two such dimensions, of at most kMaxElements,
//      whose every use is such a flat write's shape cast, as one
//      `vector.shuffle` of the flat vector (upstream's Shuffle1D
//      lowering): on AVX-512, 16 pixels by 3 channels are 3 loads, 6
//      two-source permutes and 3 stores.
//
// Values are unchanged: the same elements land at the same addresses.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFLATTENNARROWROWSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// A row narrower than this many bytes (a cache line; an AVX-512 register)
/// is a narrow row.
constexpr int64_t kRowBytes = 64;
/// The most elements of a flattened write: four AVX-512 registers of f32,
/// which LLVM shuffles with two-source permutes (beyond that, the shuffle
/// of a flat vector costs as much as moving its elements one by one).
constexpr int64_t kMaxElements = 64;

/// How many dimensions of `type` have more than one element (a transpose
/// of two such is one shuffle of the flat vector; of one, a shape cast).
int64_t getNumWideDimensions(VectorType type) {
  return llvm::count_if(type.getShape(),
                        [](int64_t size) { return size != 1; });
}

/// Whether `write` stores a transposed vector as narrow rows (step 1).
bool isNarrowTransposedWrite(vector::TransferWriteOp write) {
  VectorType vector = write.getVectorType();
  auto memref = dyn_cast<MemRefType>(write.getBase().getType());
  if (!memref || vector.getRank() < 2 || vector.isScalable() ||
      write.getMask() || write.hasOutOfBoundsDim() ||
      !write.getPermutationMap().isMinorIdentity() ||
      !write.getVector().getDefiningOp<vector::TransposeOp>() ||
      !vector.getElementType().isIntOrFloat() ||
      vector.getElementTypeBitWidth() % 8 != 0)
    return false;
  int64_t rowBytes =
      vector.getShape().back() * vector.getElementTypeBitWidth() / 8;
  return rowBytes < kRowBytes && vector.getNumElements() <= kMaxElements &&
         getNumWideDimensions(vector) <= 2;
}

struct FuseFlattenNarrowRowsPass final
    : fuse::impl::FuseFlattenNarrowRowsPassBase<FuseFlattenNarrowRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> writes;
    getOperation()->walk([&](vector::TransferWriteOp write) {
      if (isNarrowTransposedWrite(write))
        writes.push_back(write);
    });
    if (writes.empty())
      return;
    // Speed only: a write the driver leaves (it did not converge) stays a
    // correct write.
    RewritePatternSet flatten(&getContext());
    vector::populateFlattenVectorTransferPatterns(flatten);
    (void)applyOpPatternsGreedily(writes, std::move(flatten));

    // The transposes whose writes were flattened (found again: folding may
    // have replaced some while flattening): every use a shape cast that is
    // stored to a buffer, two dimensions of more than one element (which
    // Shuffle1D lowers as one shuffle).
    SmallVector<Operation *> flattened;
    getOperation()->walk([&](vector::TransposeOp transpose) {
      auto isFlatWrite = [](Operation *user) {
        auto write = dyn_cast<vector::TransferWriteOp>(user);
        return write && isa<MemRefType>(write.getBase().getType());
      };
      VectorType type = transpose.getResultVectorType();
      if (type.getNumElements() <= kMaxElements &&
          getNumWideDimensions(type) == 2 && !transpose->use_empty() &&
          llvm::all_of(transpose->getUsers(), [&](Operation *user) {
            return isa<vector::ShapeCastOp>(user) &&
                   llvm::all_of(user->getUsers(), isFlatWrite);
          }))
        flattened.push_back(transpose);
    });
    RewritePatternSet shuffles(&getContext());
    vector::populateVectorTransposeLoweringPatterns(
        shuffles, vector::VectorTransposeLowering::Shuffle1D);
    (void)applyOpPatternsGreedily(flattened, std::move(shuffles));
  }
};

} // namespace
