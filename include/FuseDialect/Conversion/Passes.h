//===- Passes.h - fuse dialect conversion passes ----------------*- C++ -*-===//

#ifndef FUSEDIALECT_CONVERSION_PASSES_H
#define FUSEDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "FuseDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "FuseDialect/Conversion/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSEDIALECT_CONVERSION_PASSES_H
