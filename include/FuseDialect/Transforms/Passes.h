//===- Passes.h - fuse dialect transformation passes ------------*- C++ -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_PASSES_H
#define FUSEDIALECT_TRANSFORMS_PASSES_H

#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

class FuseDialect;

#define GEN_PASS_DECL
#include "FuseDialect/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "FuseDialect/Transforms/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_PASSES_H
