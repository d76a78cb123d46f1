//===- NestInserts.h - A nest writes the tensor its results go into -*- C++
//-*-===//
//
// A group's loop nest whose results are parts of a larger tensor (the
// branches of a concat, the pieces of a split channel shuffle, the whole
// and last tiles of a peeled nest) writes each result into a destination
// of its own, which is then inserted into the larger tensor. Bufferization
// writes the first such insert in place (empty-tensor elimination), but not
// an insert into a value the nest's own results build, which becomes a copy
// (on the GPU path, a copy on the host). Folding the inserts into the nest
// makes its shared output the larger tensor, each result's tiles written
// at their place in it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CONVERSION_NESTINSERTS_H
#define FUSEDIALECT_LIB_CONVERSION_NESTINSERTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {

/// When every result of `loop` is inserted once into one chain of inserts
/// (each insert's destination the previous one's result, used by nothing
/// else) at static, pairwise disjoint boxes, and each result's destination
/// is an empty tensor: replaces `loop` by a loop with the chain's first
/// destination as its one shared output, each result's slices composed
/// with its insert's box. The chain's other inserts are applied to the new
/// loop's result. Returns the new loop.
FailureOr<scf::ForallOp> foldInsertsIntoNest(RewriterBase &rewriter,
                                             scf::ForallOp loop);

/// A result of `loop` whose only reader is a `tensor.collapse_shape` (a
/// patch grid flattened to tokens) is written collapsed: each tile's insert
/// into the shared output becomes an insert of the collapsed tile at its
/// place in the collapsed tensor, so that the view no longer stands between
/// the nest and the tensor its result goes into. Applies when the result's
/// destination is an empty tensor, the shared output is only written (by
/// inserts of full rank, unit strides), and every tile is contiguous in
/// each collapsed group of dimensions (units before one dimension, the rest
/// whole). Returns whether a result was folded.
bool foldCollapsesIntoNest(RewriterBase &rewriter, scf::ForallOp loop);

/// The inserts of the group body `block` whose source is not computed in
/// it (a constant or a block argument, possibly through views: a concat's
/// constant class token, an input part) become a `linalg.copy` into the
/// destination's box, to be tiled as a nest of its own. Otherwise
/// bufferization copies them outside every nest (on the GPU path, a copy on
/// the host into memory the kernels use). Returns the copies.
SmallVector<Operation *> makeCopiesOfUncomputedParts(RewriterBase &rewriter,
                                                     Block &block);

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CONVERSION_NESTINSERTS_H
