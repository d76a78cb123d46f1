//===- Passes.h - fuse dialect conversion passes ----------------*- C++ -*-===//

#ifndef FUSEDIALECT_CONVERSION_PASSES_H
#define FUSEDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "FuseDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "FuseDialect/Conversion/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSEDIALECT_CONVERSION_PASSES_H
