//===- Constants.h - Questions about constant operands ----------*- C++ -*-===//
//
// What the passes that rewrite TOSA convolutions and matmuls ask of their
// constant operands (zero points).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_CONSTANTS_H
#define FUSEDIALECT_UTILS_CONSTANTS_H

#include "mlir/IR/Value.h"

namespace mlir::fuse {

/// Whether `value` is a constant whose every element is zero, float or
/// integer (a TOSA zero point of an unquantized op).
bool isZeroSplatConstant(Value value);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_CONSTANTS_H
