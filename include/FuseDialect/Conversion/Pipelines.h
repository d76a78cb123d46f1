//===- Pipelines.h - Lowering pipelines -------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CONVERSION_PIPELINES_H
#define FUSEDIALECT_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// Options of `--fuse-lower-to-cpu`.
struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {
  PassOptions::Option<bool> tileGroups{
      *this, "tile-groups",
      llvm::cl::desc("Lower each fuse.group as one tiled loop nest "
                     "(fuse-tile-groups); false dissolves the groups and "
                     "lowers op by op"),
      llvm::cl::init(true)};
};

/// Builds the CPU lowering of a module holding TOSA, linalg-on-tensors and
/// `fuse.group` ops down to the LLVM dialect, so that its `@main` runs under
/// `mlir-runner` with the MLIR C runner utilities:
///   1. one loop nest per group (fuse-tile-groups), then dissolve groups,
///   2. TOSA → linalg/arith/tensor, 3. bufferize with function boundaries,
///   per-tile temporaries hoisted out of the tile loops, 4. deallocate,
///   5. loop nests → scf.for, linalg → loops, 6. → LLVM.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const LowerToCPUOptions &options);

/// Registers `--fuse-lower-to-cpu`.
void registerLowerToCPUPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_CONVERSION_PIPELINES_H
