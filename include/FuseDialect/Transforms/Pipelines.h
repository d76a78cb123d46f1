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
  PassOptions::Option<bool> simplify{
      *this, "simplify",
      llvm::cl::desc("Run cost-driven algebraic simplification"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Only algebraic rules that are exact under IEEE "
                     "arithmetic (no reassociation, no change of NaN/Inf)"),
      llvm::cl::init(false)};
};

/// Builds the fusion pipeline on a module:
///   1. annotate mapping types (`--fuse-annotate-mapping`),
///   2. algebraic simplification (`--fuse-algebraic-simplify`), then
///      annotate again the ops it created.
/// Planning, group formation and layout propagation are appended here as
/// they land; see docs/Architecture.md.
void buildFuseOpsPipeline(OpPassManager &pm, const FuseOpsOptions &options);

/// Registers `--fuse-ops` with the global pass-pipeline registry.
void registerFuseOpsPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_PIPELINES_H
