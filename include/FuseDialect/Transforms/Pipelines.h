//===- Pipelines.h - The fuse-ops pipeline ----------------------*- C++ -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_PIPELINES_H
#define FUSEDIALECT_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// Options of the whole fusion pipeline (`--fuse-ops`).
struct FuseOpsOptions : public PassPipelineOptions<FuseOpsOptions> {
  // Later stages (algebraic simplification, planning, layout) add their
  // options here.
};

/// Builds the fusion pipeline on a module:
///   1. annotate mapping types (`--fuse-annotate-mapping`).
/// Algebraic simplification, planning, group formation and layout
/// propagation are appended here as they land; see docs/Architecture.md.
void buildFuseOpsPipeline(OpPassManager &pm, const FuseOpsOptions &options);

/// Registers `--fuse-ops` with the global pass-pipeline registry.
void registerFuseOpsPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_PIPELINES_H
