//===- fuse-opt.cpp - The FuseDialect optimizer driver --------------------===//
//
// `mlir-opt` with every upstream dialect, pass and extension, plus the fuse
// dialect, its passes and pipelines (`--fuse-ops`, `--fuse-lower-to-cpu`).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/InitAllPasses.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::fuse::test {
void registerTestPasses();
} // namespace mlir::fuse::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::fuse::registerAllFusePasses();
  mlir::fuse::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary needs the LLVM IR translation interfaces.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::fuse::FuseDialect>();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "FuseDialect optimizer driver\n", registry));
}
