//===- RegisterBlocks.h - Contractions and convolutions in registers -*- C++ -*-===//
//
// What fuse-vectorize-tiles (VectorizeTiles.cpp) asks of the register
// blocks (RegisterBlocks.cpp), and the predicates the two share.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CODEGEN_CPU_REGISTERBLOCKS_H
#define FUSEDIALECT_LIB_CODEGEN_CPU_REGISTERBLOCKS_H

#include "FuseDialect/Target/TargetDescription.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse::cpu {

/// The shape of the blocks: fuse-vectorize-tiles' options, host defaults
/// resolved.
struct RegisterBlockOptions {
  /// Rows and columns (two vector registers of lanes) of a block.
  int64_t rows = 0, cols = 0;
  /// Reduction steps per pass of the blocks over the tile; 0: from `cpu`'s
  /// L2 and the columns of each op (VectorPolicy::reductionChunk).
  int64_t reductionChunk = 0;
  /// The core the blocks are for: its L2 sizes the reduction chunks.
  CpuDescription cpu;
  /// Fuse the tile's bias and elementwise epilogue into the blocks.
  bool epilogues = true;
  /// Each step one fused multiply-add.
  bool fma = false;
};

/// Cuts the float contraction or convolution `op` (static shapes, inside a
/// tile) into register blocks and appends the blocks' step ops, to be
/// vectorized, to `blocks`. Ops it cannot block are left as they are.
void cutIntoRegisterBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                           bool contraction,
                           const RegisterBlockOptions &options,
                           SmallVectorImpl<linalg::LinalgOp> &blocks);

/// Copies the operand of contraction `op` that every row of its blocks
/// reads (a matmul's B) into a contiguous tile when its rows are not
/// contiguous and enough rows of blocks reuse it. Returns the copy or null.
linalg::LinalgOp packReusedOperand(RewriterBase &rewriter, linalg::LinalgOp op,
                                   int64_t blockRows);

/// A depthwise convolution with a channel multiplier of one as the plain
/// depthwise op. Returns the new op, or `op`.
linalg::LinalgOp dropUnitMultiplier(RewriterBase &rewriter,
                                    linalg::LinalgOp op);

/// The elementwise ops that consume `op`'s result one after another inside
/// its tile (a bias, an activation, a residual add): each the only user of
/// the last, all its loops parallel, reading that value and writing its
/// result through identity maps of the same shape. Empty if there are none.
SmallVector<linalg::GenericOp> getEpilogue(linalg::LinalgOp op);

/// `op` (a TilingInterface op) split along loop `dim` at `at` (upstream
/// `linalg::splitOp`, static slices of the operands and results): both
/// pieces, or the one op there is when the split leaves fewer. With
/// `epilogue` (getEpilogue of `op`), the producer of `op`'s initial values
/// (the bias broadcast) and the epilogue are split with it, so that each
/// piece has its own (SplitPieces.cpp). Without an epilogue the producer
/// stays whole: the pieces are assembled into the value it wrote, and
/// split it would be written before that value is read, which
/// bufferization resolves with copies.
SmallVector<linalg::LinalgOp> splitPieces(RewriterBase &rewriter,
                                          linalg::LinalgOp op, unsigned dim,
                                          int64_t at,
                                          ArrayRef<linalg::GenericOp> epilogue);

/// After vectorization and hoisting: a block's accumulators start from the
/// vector its bias broadcast wrote, an overwritten write is dropped, and
/// stores at loop indices that stay inside the tile are in bounds.
void populateRegisterBlockForwardingPatterns(RewritePatternSet &patterns);

/// Defined in VectorizeTiles.cpp: static shapes and whole-byte elements,
/// not a contraction or convolution.
bool isVectorizableKind(linalg::LinalgOp op);
/// Defined in VectorizeTiles.cpp: an f16 or bf16 operand or payload value.
bool hasHalfFloats(linalg::LinalgOp op);

} // namespace mlir::fuse::cpu

#endif // FUSEDIALECT_LIB_CODEGEN_CPU_REGISTERBLOCKS_H
