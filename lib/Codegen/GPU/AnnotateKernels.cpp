//===- AnnotateKernels.cpp - What the NVVM backend reads on kernels -------===//
//
// fuse-annotate-kernels sets what the NVVM backend reads on the outlined
// kernels: 16-byte aligned shared buffers and the blocks to keep resident
// per SM.
//
//===----------------------------------------------------------------------===//

#include "Distribute/Distribute.h"
#include "FuseDialect/Codegen/GPU/Passes.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEANNOTATEKERNELSPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse::distribute;

namespace {

struct FuseAnnotateKernelsPass final
    : fuse::impl::FuseAnnotateKernelsPassBase<FuseAnnotateKernelsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      if (!func->hasAttr("nvvm.minctasm"))
        func->setAttr("nvvm.minctasm",
                      IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                       kMinBlocksPerSM));
      for (unsigned i = 0; i < func.getNumWorkgroupAttributions(); ++i)
        if (!func.getWorkgroupAttributionAttr(i, "llvm.align"))
          func.setWorkgroupAttributionAttr(
              i, "llvm.align",
              IntegerAttr::get(IntegerType::get(&getContext(), 64),
                               kVectorWidth * 4));
    });
  }
};

} // namespace
