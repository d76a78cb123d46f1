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

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CONVERSION_NESTINSERTS_H
