//===- PeelTiles.h - Whole tiles and the partial one apart ------*- C++ -*-===//
//
// A loop whose range is not a multiple of its tile (197 tokens in tiles of
// 64) gets a partial last tile: upstream tiling sizes each tile
// `min(step, ub - iv)`, so every op of every tile has dynamic shapes, which
// neither the CPU vectorizer nor the GPU distribution takes. Peeling splits
// such a tile loop, one dimension at a time, into a loop over the whole
// tiles and a loop over the last tile; in each the tile sizes fold to
// constants again. Each loop computes its own box of the results (a static
// slice of the destination, inserted back), so later passes see nests that
// write disjoint parts of a buffer, which fuse-merge-group-launches makes one
// kernel again.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CONVERSION_PEELTILES_H
#define FUSEDIALECT_LIB_CONVERSION_PEELTILES_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace mlir::fuse {

/// Peels every dimension of `loop` whose last tile is partial. Returns the
/// loops that replace it (one per combination of whole and last tiles), or
/// `loop` alone when nothing is partial or a dimension cannot be peeled. A
/// dimension is peeled when it has constant bounds from 0 and a constant
/// step, every use of a shared output is a slice whose offset along one
/// dimension is exactly the induction variable and whose tiles stay within
/// their part (what upstream tiling makes), the other offsets independent
/// of it, and the results are not inserted into larger tensors other than
/// one each, from empty destinations. The new loops' bodies are simplified
/// with `canonicalization`.
SmallVector<scf::ForallOp>
peelPartialTiles(RewriterBase &rewriter, scf::ForallOp loop,
                 const FrozenRewritePatternSet &canonicalization);

/// Patterns that make a peeled tile's values static where canonicalization
/// leaves them dynamic: an `scf.if` result that each branch yields as a
/// `tensor.cast` from one static type (a padded window of a tile, the
/// branch for an empty window and the branch for a padded slice, both
/// static once the tile's size is) gets that type, cast after the `if`.
void populatePeeledTilePatterns(RewritePatternSet &patterns);

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CONVERSION_PEELTILES_H
