//===- CopiesToLinalg.cpp - Buffer copies as loop nests --------------------===//
//
// Bufferization copies with `memref.copy`. Its LLVM lowering is a `memcpy`
// between contiguous buffers and otherwise a call to the C runner
// utilities' `memrefCopy`, which walks the elements one by one through
// their strides. Inside a GPU kernel there is no such function; on the CPU
// a convolution tile's padded window (a strided view) copied that way took
// 3-4x as long as the convolution. As `linalg.copy` the copy becomes a loop
// nest like every other structured op: on the GPU every copy
// (`--fuse-lower-to-nvvm`), on the CPU the ranked copies from or to a
// buffer that is not contiguous (`strided-only`, `--fuse-lower-to-cpu`),
// whose contiguous innermost loop LLVM vectorizes. Values are unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECOPIESTOLINALGPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether the LLVM lowering copies a `type` buffer with one memcpy: an
/// identity layout, or strides of a contiguous row-major buffer.
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}

/// Whether `copy` is one `strided-only` rewrites: ranked, of rank > 0, and
/// from or to a buffer that is not contiguous.
bool isStridedCopy(memref::CopyOp copy) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  return source && target && source.getRank() > 0 &&
         (!isContiguous(source) || !isContiguous(target));
}

struct FuseCopiesToLinalgPass final
    : fuse::impl::FuseCopiesToLinalgPassBase<FuseCopiesToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!stridedOnly || isStridedCopy(copy))
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
