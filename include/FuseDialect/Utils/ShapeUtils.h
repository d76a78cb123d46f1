//===- ShapeUtils.h - Element counts, sizes and divisors --------*- C++ -*-===//
//
// The one definition of how many elements and bytes a value has, and of the
// divisor searches tiling makes; every library of the project asks these.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_SHAPEUTILS_H
#define FUSEDIALECT_UTILS_SHAPEUTILS_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace mlir::fuse {

/// Elements of a shaped type; 1 for scalars and for dynamic shapes (the
/// planner only plans static shapes; callers that may see dynamic ones must
/// not rely on the count).
int64_t getNumElements(Type type);
/// Bytes per element (of a shaped type, or of a scalar type); 4 for element
/// types that are not ints or floats (index); sub-byte types count 1.
int64_t getElementBytes(Type type);

/// The largest divisor of `range` that is at most `limit` (1 when `limit`
/// is below 1); with `powerOfTwo`, the largest power-of-two divisor.
int64_t getLargestDivisor(int64_t range, int64_t limit,
                          bool powerOfTwo = false);

/// The largest divisor of `range` that is at most `limit` and a multiple of
/// `multiple` (whole vectors of a row), or 0 when there is none.
int64_t getLargestDivisorOf(int64_t range, int64_t limit, int64_t multiple);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_SHAPEUTILS_H
