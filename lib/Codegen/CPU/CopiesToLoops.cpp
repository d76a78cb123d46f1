//===- CopiesToLoops.cpp - Strided buffer copies as loop nests ------------===//
//
// Bufferization copies a tile's slice into a temporary with `memref.copy`:
// the padded window of a convolution tile (`tensor.pad` of an input slice),
// a concat part, a slice moved between views. Between contiguous buffers
// the LLVM lowering makes it one `memcpy`; between strided views, a call to
// the runtime's `memrefCopy`, which walks the elements one by one through
// their strides. On ResNet-like convolutions the padded windows' copies
// took 3-4x as long as the convolutions themselves. As `linalg.copy` the
// copy becomes a loop nest whose innermost, contiguous loop LLVM
// vectorizes. Values are unchanged (a copy).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECOPIESTOLOOPSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether the LLVM lowering turns a copy between `type`s into a memcpy:
/// an identity layout, or strides of a contiguous row-major buffer.
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}

struct FuseCopiesToLoopsPass final
    : fuse::impl::FuseCopiesToLoopsPassBase<FuseCopiesToLoopsPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && source.getRank() > 0 &&
          (!isContiguous(source) || !isContiguous(target)))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};

} // namespace
