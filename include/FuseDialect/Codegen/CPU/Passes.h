//===- Passes.h - CPU code generation -------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CODEGEN_CPU_PASSES_H
#define FUSEDIALECT_CODEGEN_CPU_PASSES_H

#include "FuseDialect/Target/TilePolicy.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "FuseDialect/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "FuseDialect/Codegen/CPU/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_CPU_PASSES_H
