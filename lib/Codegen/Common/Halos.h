//===- Halos.h - The slabs of a buffer outside a box ------------*- C++ -*-===//
//
// A padded buffer is its box (the unpadded values) and its halo. The halo is
// written as slabs, one per side per dimension: slab (d, low) covers
// [0, offset_d) in d, the box in the dimensions before d and everything in
// those after; slab (d, high) covers [offset_d + size_d, extent_d). The
// slabs and the box partition the buffer. Used where a padded window is
// filled around its copy (fuse-fill-halos) and where a group writes its
// result with the halo its reader's pad needs (PadInProducers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CODEGEN_COMMON_HALOS_H
#define FUSEDIALECT_LIB_CODEGEN_COMMON_HALOS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::fuse {

/// Calls `slab(offsets, sizes)` for each slab of a buffer of `extents`
/// (static) outside the box at `offsets` of `sizes`, in dimension order, low
/// side first. Slabs empty whatever the sizes (offset 0, or a box reaching
/// the end statically) are left out. Offsets and sizes may be values; what
/// is computed from them is built at `builder`'s insertion point.
void forEachHaloSlab(
    OpBuilder &builder, Location loc, ArrayRef<int64_t> extents,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
    function_ref<void(ArrayRef<OpFoldResult>, ArrayRef<OpFoldResult>)> slab);

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CODEGEN_COMMON_HALOS_H
