//===- VerifyInput.h - Bounds every pipeline relies on ------------*- C++ -*-===//
//
// The size bound `--fuse-verify-input` enforces at the start of every
// pipeline (lib/Transforms/VerifyInput.cpp), for passes run on their own
// that must enforce it too (fuse-tile-groups).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_VERIFYINPUT_H
#define FUSEDIALECT_TRANSFORMS_VERIFYINPUT_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::fuse {

/// The largest static shaped value the pipelines accept: 1 TiB.
inline constexpr int64_t kMaxShapedBytes = int64_t(1) << 40;

/// The byte size of `type`'s static part (dynamic dimensions count as 1),
/// or nullopt when it overflows 64 bits or a dimension is negative.
std::optional<int64_t> getCheckedByteSize(ShapedType type);

/// Fails, with an error at the op, if a result or block argument under
/// `root` has a static shaped type larger than kMaxShapedBytes.
LogicalResult verifyInputSizes(Operation *root);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_VERIFYINPUT_H
