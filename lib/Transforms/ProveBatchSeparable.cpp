//===- ProveBatchSeparable.cpp - The batch separability check as a pass ---===//
//
// `--fuse-prove-batch-separable`: FuseDialect/Analysis/BatchSeparability.h
// on one function of the module, for fuse-compile's dynamic batch.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Analysis/BatchSeparability.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPROVEBATCHSEPARABLEPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct ProveBatchSeparablePass
    : public fuse::impl::FuseProveBatchSeparablePassBase<
          ProveBatchSeparablePass> {
  using Base::Base;

  void runOnOperation() override {
    auto func = getOperation().lookupSymbol<func::FuncOp>(funcName);
    if (!func || func.isExternal()) {
      getOperation().emitError("no function @") << funcName << " with a body";
      return signalPassFailure();
    }
    if (failed(proveBatchSeparable(func, args, batch)))
      signalPassFailure();
  }
};

} // namespace
