//===- TileGroups.h - fuse-tile-groups, shared parts -----------*- C++ -*-===//
//
// What the files of fuse-tile-groups share: the clean-ups that make a group's
// body tileable (TileCleanups.cpp), the choice of roots and tile sizes
// (TileSizes.cpp, after the TilePolicy of FuseDialect/Target/TilePolicy.h),
// and tiling a root with its producers fused (TileGroups.cpp, with the pass
// and the algorithm).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CODEGEN_COMMON_TILEGROUPS_H
#define FUSEDIALECT_LIB_CODEGEN_COMMON_TILEGROUPS_H

#include "FuseDialect/Codegen/Common/IndexChanges.h"
#include "FuseDialect/Target/TilePolicy.h"
#include "FuseDialect/Utils/PoolWindows.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/VerifyInput.h"
#include "NestInserts.h"
#include "PeelTiles.h"
#include "SplitCopies.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuse::tiling {

//===----------------------------------------------------------------------===//
// Making a group's body tileable (TileCleanups.cpp)
//===----------------------------------------------------------------------===//


/// TOSA in the body to linalg, tensor and arith.
LogicalResult lowerBodyToLinalg(GroupOp group);

/// Whether `op` is an elementwise generic of at most a few arithmetic ops
/// (no math functions, no division), cheap enough to compute again in each
/// of its readers.
bool isCheapToRecompute(Operation *op);

void cleanUpBody(GroupOp group);

/// 1x1 convolutions as contractions, after the reshape clean-up (whose
/// expansion patterns would move the filter's collapse back into the op);
/// with `contiguousFilters` their filter is read as C x F, and the other
/// convolutions' constant filters as H x W x C x F; without it, 3-D
/// convolutions read theirs as F x D x H x W x C (channels last, as the
/// GPU's staged convolutions need).
void convertOneByOneConvs(GroupOp group, bool contiguousFilters);

/// `transpose` of a weight rewritten to write rows padded by a cache line
/// where its rows are a multiple of 1 KB long (getRowPadding): the weight
/// padded with zeros along the dimension that becomes the rows, transposed,
/// and read through a slice that leaves the padding out. Values unchanged.
void padWeightTransposeRows(RewriterBase &rewriter,
                            linalg::TransposeOp transpose);

/// Elementwise generics over the whole result of one contraction or window
/// op (DenseNet: a layer's convolution normalized for each later layer of
/// its dense block) become one generic with a result each. Each would be a
/// root of its own nest, and each nest would recompute the producer: 24
/// times for the first convolution of a 24-layer block. The same payloads
/// on the same values: results are unchanged.
void mergeSiblingReaders(GroupOp group);

//===----------------------------------------------------------------------===//
// Roots and tile sizes (TileSizes.cpp)
//===----------------------------------------------------------------------===//

/// The ops whose tiles drive the loop nests: those computing the yielded
/// values, looking through the reshapes (views) and the inserts into a
/// concat's destination (written in place) that may follow them, in program
/// order. Values already computed by a loop nest are skipped.
SmallVector<TilingInterface> findRoots(GroupOp group);

/// The tile sizes of `root` in `group`. `onlyRoot`: the group's only root,
/// or one whose nest no other root's could merge with (TileGroups.cpp,
/// isAlone);
/// `alikeSiblings`: one of sibling roots with one result type (GPT-2's Q, K
/// and V projections of one input), which are tiled in squares of a
/// contraction's output as an only root is, where siblings of different
/// shapes are tiled in rows (their squares would not line up).
SmallVector<OpFoldResult> getRootTileSizes(OpBuilder &builder, GroupOp group,
                                           TilingInterface root,
                                           const TilePolicy &policy,
                                           bool onlyRoot,
                                           bool alikeSiblings = false);

/// One tile shape for sibling roots over the same result space (the
/// horizontally fused branches of a group, each computing its own channels;
/// a conv next to an elementwise op): per result dimension the smallest of
/// their tiles, so that their nests have the same tiles and merge into one.
/// Each root's leading loops must be its result's dimensions in order (the
/// rest, reductions, untiled); returns the tile sizes of the leading loops,
/// nothing when the roots do not line up.
std::optional<SmallVector<int64_t>>
getCommonTileSizes(OpBuilder &builder, GroupOp group,
                   ArrayRef<TilingInterface> roots, const TilePolicy &policy);

//===----------------------------------------------------------------------===//
// Tiling a root (TileGroups.cpp)
//===----------------------------------------------------------------------===//

/// Tiles `root` by `sizes` and fuses its producers into the loop nest; with
/// `transposeWeightsOnce` (where filters are read contiguous, the CPU) not
/// a transpose of a group input that an op with a reduction reads as its
/// weights (isWeightTranspose), which then gets a nest of its own.
LogicalResult tileRoot(RewriterBase &rewriter, GroupOp group,
                       TilingInterface root, ArrayRef<OpFoldResult> sizes,
                       bool transposeWeightsOnce);

/// A reduction whose input an elementwise op computes for it alone becomes
/// its generic form, which elementwise fusion (generic ops only) can then
/// fold that op into: a tile reduces `(x - mean)^2` as it computes it,
/// instead of writing the squares to a tile buffer and reading them back.
struct GeneralizeFusibleReduce final : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    bool fusible = llvm::any_of(op.getInputs(), [](Value input) {
      auto producer = input.getDefiningOp<linalg::GenericOp>();
      return producer && producer->hasOneUse() &&
             producer.getNumLoops() == producer.getNumParallelLoops();
    });
    if (!fusible)
      return rewriter.notifyMatchFailure(op, "no elementwise producer");
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

} // namespace mlir::fuse::tiling

#endif // FUSEDIALECT_LIB_CODEGEN_COMMON_TILEGROUPS_H
