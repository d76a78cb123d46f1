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
#include "FuseDialect/PipelineRegistration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECOPIESTOLINALGPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// The largest `vector-bytes`: a 1-D vector of 1 KB is 16 AVX-512
/// registers already.
constexpr int64_t kMaxVectorBytes = 1024;

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

/// The first dim of the longest static run of innermost dims of `type`
/// that is contiguous (unit innermost stride, each stride the product of
/// the sizes inside it), or `type`'s rank where there is none.
int64_t getContiguousRunStart(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  int64_t rank = type.getRank(), start = rank, stride = 1;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return rank;
  while (start > 0 && !type.isDynamicDim(start - 1) &&
         strides[start - 1] == stride) {
    --start;
    stride *= type.getDimSize(start);
  }
  return start;
}

/// Rewrites `copy` as loops over its outer dims around vector transfers of
/// up to `vectorBytes` along the innermost dims that are contiguous and
/// static in both (ranked) buffers, collapsed into one run. Fails, leaving
/// the copy, on other element types than whole-byte integers and floats
/// and where that run has no power-of-two divisor of at least 4 elements.
LogicalResult copyInVectors(RewriterBase &rewriter, memref::CopyOp copy,
                            int64_t vectorBytes) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!source || !target || !source.getElementType().isIntOrFloat() ||
      source.getElementTypeBitWidth() % 8 != 0)
    return failure();
  int64_t maxLanes = vectorBytes * 8 / source.getElementTypeBitWidth();
  int64_t rank = source.getRank();
  int64_t start =
      std::max(getContiguousRunStart(source), getContiguousRunStart(target));
  if (start == rank)
    return failure();
  int64_t run = 1;
  for (int64_t d = start; d < rank; ++d)
    run *= source.getDimSize(d);
  int64_t lanes = 1;
  while (lanes * 2 <= maxLanes && run % (lanes * 2) == 0)
    lanes *= 2;
  if (lanes < 4)
    return failure();

  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < start; ++d)
    groups.push_back({d});
  groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(start, rank)));
  Value from = copy.getSource(), to = copy.getTarget();
  if (rank - start > 1) {
    from = memref::CollapseShapeOp::create(rewriter, loc, from, groups);
    to = memref::CollapseShapeOp::create(rewriter, loc, to, groups);
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lbs(start + 1, zero), ubs, steps(start, one);
  for (int64_t d = 0; d < start; ++d)
    ubs.push_back(rewriter.createOrFold<memref::DimOp>(loc, from, d));
  ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, run));
  steps.push_back(arith::ConstantIndexOp::create(rewriter, loc, lanes));
  auto vectorType = VectorType::get({lanes}, source.getElementType());
  Value padding = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(source.getElementType()));
  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps,
                     [&](OpBuilder &b, Location loc, ValueRange ivs) {
                       SmallVector<bool> inBounds = {true};
                       Value part = vector::TransferReadOp::create(
                           b, loc, vectorType, from, ivs, padding, inBounds);
                       vector::TransferWriteOp::create(b, loc, part, to, ivs,
                                                       inBounds);
                     });
  rewriter.eraseOp(copy);
  return success();
}

struct FuseCopiesToLinalgPass final
    : fuse::impl::FuseCopiesToLinalgPassBase<FuseCopiesToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(fuse::checkPassOptionRange(getOperation(), getArgument(),
                                          "vector-bytes", vectorBytes, 0,
                                          kMaxVectorBytes)))
      return signalPassFailure();
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!stridedOnly || isStridedCopy(copy))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      if (vectorBytes > 0 &&
          succeeded(copyInVectors(rewriter, copy, vectorBytes)))
        continue;
      rewriter.setInsertionPoint(copy);
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};

} // namespace
