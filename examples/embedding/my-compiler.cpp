//===- my-compiler.cpp - An out-of-tree tool embedding FuseDialect --------===//
//
// What an MLIR-based compiler does to take FuseDialect's passes: register
// the fuse dialect and passes next to its own, then either run them from
// the command line (`my-compiler --fuse-ops model.mlir`, `--my-count-groups`)
// or build the pipeline in code (buildFuseOpsPipeline).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/InitAllPasses.h"
#include "FuseDialect/Transforms/Pipelines.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

using namespace mlir;

namespace {
/// The embedding compiler's own pass: reports how many kernels FuseDialect
/// planned (one per fuse.group) as a remark on the module.
struct CountGroupsPass
    : PassWrapper<CountGroupsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountGroupsPass)
  StringRef getArgument() const final { return "my-count-groups"; }
  StringRef getDescription() const final { return "Count fuse.group kernels"; }
  void runOnOperation() override {
    int64_t groups = 0;
    getOperation()->walk([&](fuse::GroupOp) { ++groups; });
    getOperation()->emitRemark() << "my-compiler: " << groups << " kernels";
  }
};
} // namespace

int main(int argc, char **argv) {
  registerAllPasses();
  fuse::registerAllFusePasses();
  PassRegistration<CountGroupsPass>();
  // The same pipeline, assembled in code, as this compiler's own flag.
  PassPipelineRegistration<>(
      "my-pipeline", "--fuse-ops with layout off, then count kernels",
      [](OpPassManager &pm) {
        fuse::FuseOpsOptions options;
        options.layout = false;
        fuse::buildFuseOpsPipeline(pm, options);
        pm.addPass(std::make_unique<CountGroupsPass>());
      });

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<fuse::FuseDialect>();
  return asMainReturnCode(
      MlirOptMain(argc, argv, "my-compiler (embeds FuseDialect)\n", registry));
}
