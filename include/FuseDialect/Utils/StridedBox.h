//===- StridedBox.h - Static strided boxes of tensors and buffers -*- C++ -*-===//
//
// The one box type of the project: which elements of a tensor or buffer a
// static slice or view reads or writes. Concat parts written in place, the
// nests of one group merged into one loop or launch, and long insert chains
// all ask whether two boxes overlap.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_STRIDEDBOX_H
#define FUSEDIALECT_UTILS_STRIDEDBOX_H

#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

namespace mlir::fuse {

/// A static strided box of a tensor or buffer: per dimension, the first
/// index, the number of indices and the step between them.
struct StridedBox {
  SmallVector<int64_t> offsets, sizes, strides;
};

/// Whether two boxes of one tensor or buffer share no element: along some
/// dimension their indices differ (disjoint ranges, or steps that never
/// meet).
bool areDisjoint(const StridedBox &a, const StridedBox &b);

/// The box of its larger tensor that `slice` (an extract or insert slice)
/// reads or writes, when its offsets, sizes and strides are constants and
/// it keeps every dimension (not rank-reducing).
std::optional<StridedBox> getStaticBox(OffsetSizeAndStrideOpInterface slice);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_STRIDEDBOX_H
