//===- Pipelines.cpp - The fuse-ops pipeline ------------------------------===//

#include "FuseDialect/Transforms/Pipelines.h"

#include "FuseDialect/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::buildFuseOpsPipeline(OpPassManager &pm,
                                      const FuseOpsOptions &options) {
  (void)options;
  // 1. Classify every op by mapping type; every later stage reads it.
  pm.addPass(createFuseAnnotateMappingPass());
}

void mlir::fuse::registerFuseOpsPipeline() {
  PassPipelineRegistration<FuseOpsOptions>(
      "fuse-ops",
      "The whole fusion pipeline: annotate mapping types (then, as they land: "
      "simplify, plan, form fuse.group kernels, propagate layouts)",
      buildFuseOpsPipeline);
}
