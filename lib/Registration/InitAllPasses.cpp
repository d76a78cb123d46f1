//===- InitAllPasses.cpp - Register every fuse pass and pipeline ----------===//

#include "FuseDialect/InitAllPasses.h"

#include "FuseDialect/Codegen/Artifact/Passes.h"
#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/Codegen/CPU/Pipelines.h"
#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/Codegen/GPU/Pipelines.h"
#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Transforms/Pipelines.h"

void mlir::fuse::registerAllFusePasses() {
  registerFuseTransformsPasses();
  registerFuseCodegenCommonPasses();
  registerFuseCodegenCPUPasses();
  registerFuseCodegenGPUPasses();
  registerFuseCodegenArtifactPasses();
  registerFuseOpsPipeline();
  registerLowerToCPUPipeline();
  registerLowerToNVVMPipeline();
}
