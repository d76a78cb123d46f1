//===- ContractionLoops.h - A contraction's row and column loops -*- C++ -*-===//
//
// The one definition of which loops of a contraction are the rows and the
// columns of its result: what its tiles' squares cut (TileSizes.cpp) and
// what its register blocks span (RegisterBlocks.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_CONTRACTIONLOOPS_H
#define FUSEDIALECT_UTILS_CONTRACTIONLOOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::fuse {

/// A contraction's column loop `n` (vectors run along it) and row loop `m`.
struct ContractionLoops {
  std::optional<unsigned> m, n;
};

/// `n`: the loop of the innermost dimension of `op`'s one result, when it is
/// an N loop of the contraction (none otherwise, and then no `m` either);
/// `m`: the nearest M loop before it in the result (none for a
/// matrix-vector product). With `skipUnitLoops`, dimensions of one point
/// and non-loop results are passed over in both searches (a tile's view
/// with unit dims); without, the innermost result itself must be `n`.
ContractionLoops getContractionLoops(linalg::LinalgOp op, bool skipUnitLoops);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_CONTRACTIONLOOPS_H
