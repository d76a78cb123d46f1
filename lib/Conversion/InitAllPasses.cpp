//===- InitAllPasses.cpp - Register every fuse pass and pipeline ----------===//

#include "FuseDialect/InitAllPasses.h"

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/Conversion/Pipelines.h"
#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Transforms/Pipelines.h"

void mlir::fuse::registerAllFusePasses() {
  registerFuseTransformsPasses();
  registerFuseConversionPasses();
  registerFuseOpsPipeline();
  registerLowerToCPUPipeline();
  registerLowerToNVVMPipeline();
}
