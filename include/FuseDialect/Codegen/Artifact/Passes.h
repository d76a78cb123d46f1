//===- Passes.h - what a model library holds and promises -----*- C++ -*-===//

#ifndef FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_H
#define FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "FuseDialect/Codegen/Artifact/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "FuseDialect/Codegen/Artifact/Passes.h.inc"

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_ARTIFACT_PASSES_H
