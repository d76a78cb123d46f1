//===- IndexChanges.h - A group's index changes as transposes ---*- C++ -*-===//
//
// A `fuse.group` may read an input or write a result through a permutation
// (`input_permutations`, `result_permutations`: transposes folded into the
// kernel boundary by fuse-fold-boundary-transposes). The code generators
// turn them back into transposes inside the body, where tiling fuses them
// into the kernel's index maps (fuse-tile-groups), or where they are plain
// ops once the group is dissolved (fuse-inline-groups). One function does it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_CODEGEN_COMMON_INDEXCHANGES_H
#define FUSEDIALECT_CODEGEN_COMMON_INDEXCHANGES_H

#include "FuseDialect/IR/FuseOps.h"

namespace mlir::fuse {

/// Moves `group`'s index changes into its body: each permuted input's block
/// argument takes the input's type and is transposed first thing, each
/// permuted result is transposed before the yield; the group is left with
/// no permutations. Nothing happens to a group without index changes.
void materializeIndexChanges(GroupOp group);

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_COMMON_INDEXCHANGES_H
