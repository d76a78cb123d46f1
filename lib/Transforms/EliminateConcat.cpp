//===- EliminateConcat.cpp - Concat as in-place inserts --------------------===//

#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "fuse-eliminate-concat"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEELIMINATECONCATPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Precondition: a concat of statically shaped tensors, each computed by an
/// op (not a function argument or a constant) whose kernel can do the
/// insert; otherwise the inserts would be copy kernels of their own and one
/// concat kernel is cheaper.
bool isEliminable(tosa::ConcatOp concat) {
  auto type = dyn_cast<RankedTensorType>(concat.getType());
  return type && type.hasStaticShape() &&
         llvm::all_of(concat.getInput1(), [](Value v) {
           auto t = dyn_cast<RankedTensorType>(v.getType());
           Operation *def = v.getDefiningOp();
           return t && t.hasStaticShape() && def &&
                  !def->hasTrait<OpTrait::ConstantLike>();
         });
}

/// Transform: tensor.empty + one tensor.insert_slice per operand.
Value rewriteConcat(RewriterBase &rewriter, tosa::ConcatOp concat) {
  auto type = cast<RankedTensorType>(concat.getType());
  int64_t axis = concat.getAxis();
  Location loc = concat.getLoc();
  rewriter.setInsertionPoint(concat);
  Value dest = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  int64_t offset = 0;
  for (Value input : concat.getInput1()) {
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(),
                                             rewriter.getIndexAttr(1));
    for (int64_t d : inputType.getShape())
      sizes.push_back(rewriter.getIndexAttr(d));
    offsets[axis] = rewriter.getIndexAttr(offset);
    dest = tensor::InsertSliceOp::create(rewriter, loc, input, dest, offsets,
                                         sizes, strides);
    offset += inputType.getDimSize(axis);
  }
  return dest;
}

struct FuseEliminateConcatPass final
    : fuse::impl::FuseEliminateConcatPassBase<FuseEliminateConcatPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<tosa::ConcatOp> concats;
    getOperation()->walk([&](tosa::ConcatOp concat) {
      if (isEliminable(concat))
        concats.push_back(concat);
    });
    IRRewriter rewriter(&getContext());
    for (tosa::ConcatOp concat : concats)
      rewriter.replaceOp(concat, rewriteConcat(rewriter, concat));
  }
};

} // namespace
