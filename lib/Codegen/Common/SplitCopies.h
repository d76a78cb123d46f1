//===- SplitCopies.h - A group's copy chains as pieces ----------*- C++ -*-===//
//
// A result of a group that is pure data movement over a concatenation (a
// ShuffleNet channel shuffle: concat, reshape, transpose, reshape, slice)
// needs the concatenation whole before the movement can start: one loop
// nest writes it, another reads it, and on a GPU they are two launches.
// Read backwards, the result is a few pieces, each a strided box of the
// result that one source fills through a permutation. Written as one copy
// per piece, the pieces are independent loop nests, and each source's
// producer is tiled into its piece's nest.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CONVERSION_SPLITCOPIES_H
#define FUSEDIALECT_LIB_CONVERSION_SPLITCOPIES_H

#include "FuseDialect/IR/FuseOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {

/// Rewrites each result of `group` (linalg-on-tensors body) that a chain of
/// views, slices, transposes and inserts computes from a concatenation as
/// the insertion of one copy per piece into an empty tensor. A result whose
/// chain has no insert below another data movement op, or that cannot be
/// cut into at most a few boxes with affine reads, is left as it is.
/// Returns how many results were rewritten.
unsigned splitCopyChains(RewriterBase &rewriter, GroupOp group);

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CONVERSION_SPLITCOPIES_H
