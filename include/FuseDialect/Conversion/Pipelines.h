//===- Pipelines.h - Lowering pipelines -------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CONVERSION_PIPELINES_H
#define FUSEDIALECT_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// Options of `--fuse-lower-to-cpu`.
struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {};

/// Builds the CPU lowering of a module holding TOSA, linalg-on-tensors and
/// `fuse.group` ops down to the LLVM dialect, so that its `@main` runs under
/// `mlir-runner` with the MLIR C runner utilities:
///   1. dissolve groups, 2. TOSA → linalg/arith/tensor, 3. bufferize with
///   function boundaries, 4. deallocate, 5. linalg → loops, 6. → LLVM.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const LowerToCPUOptions &options);

/// Registers `--fuse-lower-to-cpu`.
void registerLowerToCPUPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_CONVERSION_PIPELINES_H
