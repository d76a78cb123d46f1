//===- ReadOnlyArguments.cpp - A library's callers own their inputs -------===//
//
// `--fuse-read-only-arguments` (docs in Passes.td): every argument of every
// public func.func with a body is marked `bufferization.writable = false`
// unless it is marked already; one-shot bufferization then copies such an
// argument before any in-place write into it.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Artifact/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEREADONLYARGUMENTSPASS
#include "FuseDialect/Codegen/Artifact/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

struct ReadOnlyArguments
    : fuse::impl::FuseReadOnlyArgumentsPassBase<ReadOnlyArguments> {
  void runOnOperation() override {
    StringRef writable = bufferization::BufferizationDialect::kWritableAttrName;
    BoolAttr no = BoolAttr::get(&getContext(), false);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(func.getArgument(i).getType()) &&
            !func.getArgAttr(i, writable))
          func.setArgAttr(i, writable, no);
    }
  }
};

} // namespace
