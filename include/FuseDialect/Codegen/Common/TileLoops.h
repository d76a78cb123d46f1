//===- TileLoops.h - Helpers for a group's tile loops -----------*- C++ -*-===//
//
// A group's tile loop is an `scf.forall` with constant bounds. Its lowerings
// run its body at a linear tile index: a GPU block id
// (fuse-distribute-tiles), or one branch of a loop that runs the tiles of
// several nests (fuse-merge-group-nests).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_CODEGEN_COMMON_TILELOOPS_H
#define FUSEDIALECT_CODEGEN_COMMON_TILELOOPS_H

#include "FuseDialect/Utils/StridedBox.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

namespace mlir::fuse {

/// Whether `use` is a tile loop body's slice of a shared output: the source
/// of a `tensor.extract_slice` or the destination of a
/// `tensor.parallel_insert_slice`.
bool isSharedOutputSlice(OpOperand &use);

/// Replaces `slice` (such a slice of a shared output) by the same slice of
/// `output` at `offsets` with `strides`.
void replaceSharedOutputSlice(RewriterBase &rewriter,
                              OffsetSizeAndStrideOpInterface slice,
                              Value output, ArrayRef<OpFoldResult> offsets,
                              ArrayRef<OpFoldResult> strides);

/// The bounds of a tile loop, when they are constants.
struct StaticBounds {
  SmallVector<int64_t> lbs, ubs, steps;
};
std::optional<StaticBounds> getStaticBounds(scf::ForallOp loop);

/// The number of tiles along each dimension of `loop`: nothing if a bound is
/// not a constant or a dimension has no tile.
std::optional<SmallVector<int64_t>> getStaticTileCounts(scf::ForallOp loop);

/// The indices of `linear` in a row-major space of `sizes`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<Value> sizes);

/// Moves the body of `loop` (constant bounds, `counts` tiles per dimension)
/// before `point`, its induction variables those of the tile at row-major
/// index `linear`. The loop is left without a body, to be erased.
void inlineTileLoopBody(RewriterBase &rewriter, scf::ForallOp loop,
                        Value linear, ArrayRef<int64_t> counts,
                        Operation *point);

/// Marks a tile loop of one tile so that canonicalization keeps it: upstream
/// folds away a loop of one iteration unless it is mapped to processing
/// units, and the loop is its group's kernel (one block on a GPU), not ops
/// left outside any nest. The mark maps dimension i to
/// `#gpu.block<linear_dim_i>`: tiles to blocks, as fuse-distribute-tiles
/// lowers every tile loop; the CPU conversions ignore it.
void keepOneTileLoop(scf::ForallOp loop);

/// Whether `loop` is unmapped or carries exactly the mark of
/// keepOneTileLoop: a plain tile loop either way.
bool isPlainTileLoop(scf::ForallOp loop);

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_COMMON_TILELOOPS_H
