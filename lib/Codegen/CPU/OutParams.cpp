//===- OutParams.cpp - Results written into the caller's buffers ----------===//
//
// `--fuse-results-to-out-params` (docs in Passes.td):
//
//   1. upstream's promoteBufferResultsToOutParams turns every memref result
//      of every function with a body into an argument after the others;
//   2. those arguments are marked `llvm.noalias`: the caller passes buffers
//      that overlap no other argument (the runtime's contract with the
//      library, and a fresh allocation at each converted call).
//
// The mark is what NestAccesses reads to keep a write into an output apart
// from reads of the inputs; without it every function argument may alias
// every other, and the nests of a group that computes a result never merge.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSERESULTSTOOUTPARAMSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

struct FuseResultsToOutParamsPass final
    : fuse::impl::FuseResultsToOutParamsPassBase<FuseResultsToOutParamsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The arguments each function had: the ones after them are its outputs.
    DenseMap<Operation *, unsigned> inputs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        inputs[func] = func.getNumArguments();
    bufferization::BufferResultsToOutParamsOpts options;
    options.hoistStaticAllocs = true;
    options.modifyPublicFunctions = true;
    if (failed(bufferization::promoteBufferResultsToOutParams(module, options)))
      return signalPassFailure();
    StringRef noAlias = LLVM::LLVMDialect::getNoAliasAttrName();
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      auto it = inputs.find(func);
      if (it == inputs.end())
        continue;
      for (unsigned i = it->second, e = func.getNumArguments(); i < e; ++i)
        if (isa<MemRefType>(func.getArgument(i).getType()))
          func.setArgAttr(i, noAlias, unit);
    }
  }
};

} // namespace
