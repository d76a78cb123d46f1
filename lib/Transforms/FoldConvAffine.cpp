//===- FoldConvAffine.cpp - Fold BatchNorm into conv weights --------------===//
//
// Precondition (`getChannelConstant`, `getFoldableConv`): a float conv (or
// matmul) with constant weights and bias and zero zero points, used once, by
// a mul/add/sub whose other operand is a constant that varies only along the
// output channel. Transform: compute the new weights/bias at compile time and
// rebuild the producer; the mul/add/sub disappears.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Utils/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "fuse-fold-conv-affine"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFOLDCONVAFFINEPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Per-channel values of a constant that varies only along its last axis (a
/// splat gives `channels` equal values).
std::optional<SmallVector<double>> getChannelConstant(Value value,
                                                      int64_t channels) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  auto type = cast<ShapedType>(attr.getType());
  SmallVector<double> values(channels);
  if (attr.isSplat()) {
    double v = attr.getSplatValue<APFloat>().convertToDouble();
    std::fill(values.begin(), values.end(), v);
    return values;
  }
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.empty() || shape.back() != channels ||
      type.getNumElements() != channels)
    return std::nullopt;
  for (auto [i, v] : llvm::enumerate(attr.getValues<APFloat>()))
    values[i] = v.convertToDouble();
  return values;
}

DenseElementsAttr getFloatConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !isa<FloatType>(attr.getElementType()))
    return {};
  return attr;
}

/// Rebuilds `attr` with element i transformed by fn(i, value).
DenseElementsAttr mapElements(DenseElementsAttr attr,
                              function_ref<double(int64_t, double)> fn) {
  auto type = cast<ShapedType>(attr.getType());
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> out;
  out.reserve(type.getNumElements());
  int64_t i = 0;
  for (APFloat v : attr.getValues<APFloat>()) {
    APFloat r(fn(i++, v.convertToDouble()));
    bool losesInfo;
    r.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    out.push_back(r);
  }
  return DenseElementsAttr::get(type, out);
}

Value makeConst(PatternRewriter &rewriter, Location loc, DenseElementsAttr attr) {
  return tosa::ConstOp::create(rewriter, loc, attr.getType(), attr);
}

/// The conv-like producer of `value` whose weights can absorb a per-channel
/// affine map: the output channel of weight element i is `channelOf(i)`.
struct FoldableConv {
  Operation *op;
  int64_t channels;
  Value weight, bias;                            // bias: null for matmul
  std::function<int64_t(int64_t)> channelOfWeight;
};

std::optional<FoldableConv> getFoldableConv(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !op->hasOneUse())
    return std::nullopt;
  auto resultType = dyn_cast<RankedTensorType>(value.getType());
  if (!resultType || !resultType.hasStaticShape() || resultType.getRank() == 0 ||
      !isa<FloatType>(resultType.getElementType()))
    return std::nullopt;
  int64_t channels = resultType.getShape().back();
  if (auto conv = dyn_cast<tosa::Conv2DOp>(op)) {
    if (!isZeroSplatConstant(conv.getInputZp()) ||
        !isZeroSplatConstant(conv.getWeightZp()))
      return std::nullopt;
    DenseElementsAttr w = getFloatConstant(conv.getWeight());
    if (!w || !getFloatConstant(conv.getBias()))
      return std::nullopt;
    int64_t perChannel = cast<ShapedType>(w.getType()).getNumElements() / channels;
    return FoldableConv{op, channels, conv.getWeight(), conv.getBias(),
                        [perChannel](int64_t i) { return i / perChannel; }};
  }
  if (auto conv = dyn_cast<tosa::DepthwiseConv2DOp>(op)) {
    if (!isZeroSplatConstant(conv.getInputZp()) ||
        !isZeroSplatConstant(conv.getWeightZp()))
      return std::nullopt;
    DenseElementsAttr w = getFloatConstant(conv.getWeight());
    if (!w || !getFloatConstant(conv.getBias()))
      return std::nullopt;
    // Weights [KH, KW, C, M]: output channel c * M + m is the innermost pair.
    auto wType = cast<ShapedType>(w.getType());
    int64_t cm = wType.getDimSize(2) * wType.getDimSize(3);
    if (cm != channels)
      return std::nullopt;
    return FoldableConv{op, channels, conv.getWeight(), conv.getBias(),
                        [cm](int64_t i) { return i % cm; }};
  }
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
    if (!isZeroSplatConstant(matmul.getAZp()) ||
        !isZeroSplatConstant(matmul.getBZp()))
      return std::nullopt;
    if (!getFloatConstant(matmul.getB()))
      return std::nullopt;
    // B [N, K, C]: column c is the innermost index.
    return FoldableConv{op, channels, matmul.getB(), Value(),
                        [channels](int64_t i) { return i % channels; }};
  }
  return std::nullopt;
}

/// The bias as one value per output channel (TOSA allows a single value
/// broadcast to every channel), and a new bias constant from such values.
std::optional<SmallVector<double>> getBiasPerChannel(const FoldableConv &conv) {
  return getChannelConstant(conv.bias, conv.channels);
}

DenseElementsAttr makeBias(const FoldableConv &conv, ArrayRef<double> values) {
  auto type = RankedTensorType::get(
      {conv.channels},
      cast<ShapedType>(conv.bias.getType()).getElementType());
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<APFloat> out;
  for (double v : values) {
    APFloat r(v);
    bool losesInfo;
    r.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &losesInfo);
    out.push_back(r);
  }
  return DenseElementsAttr::get(type, out);
}

/// Rebuilds the conv with new weights and bias (same operands otherwise).
void replaceConv(PatternRewriter &rewriter, Operation *user,
                 const FoldableConv &conv, DenseElementsAttr weight,
                 DenseElementsAttr bias) {
  Location loc = conv.op->getLoc();
  rewriter.setInsertionPoint(conv.op);
  Operation *clone = rewriter.clone(*conv.op);
  for (OpOperand &operand : clone->getOpOperands()) {
    if (operand.get() == conv.weight && weight)
      operand.set(makeConst(rewriter, loc, weight));
    else if (conv.bias && operand.get() == conv.bias && bias)
      operand.set(makeConst(rewriter, loc, bias));
  }
  rewriter.replaceOp(user, clone->getResults());
  rewriter.eraseOp(conv.op);
}

/// mul(conv, s) -> conv with W * s, b * s.
struct FoldScale : OpRewritePattern<tosa::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    if (!isZeroSplatConstant(mul.getShift()))
      return rewriter.notifyMatchFailure(mul, "quantized multiplication");
    for (auto [convSide, scaleSide] :
         {std::pair{mul.getInput1(), mul.getInput2()},
          std::pair{mul.getInput2(), mul.getInput1()}}) {
      std::optional<FoldableConv> conv = getFoldableConv(convSide);
      if (!conv || convSide.getType() != mul.getType())
        continue;
      std::optional<SmallVector<double>> scale =
          getChannelConstant(scaleSide, conv->channels);
      if (!scale)
        continue;
      DenseElementsAttr w = mapElements(
          getFloatConstant(conv->weight), [&](int64_t i, double v) {
            return v * (*scale)[conv->channelOfWeight(i)];
          });
      DenseElementsAttr b;
      if (conv->bias) {
        std::optional<SmallVector<double>> bias = getBiasPerChannel(*conv);
        if (!bias)
          continue;
        for (auto [i, v] : llvm::enumerate(*bias))
          v *= (*scale)[i];
        b = makeBias(*conv, *bias);
      }
      replaceConv(rewriter, mul, *conv, w, b);
      return success();
    }
    return rewriter.notifyMatchFailure(mul, "no foldable conv and scale");
  }
};

/// add/sub(conv, t) -> conv with b ± t.
template <typename OpTy, int Sign>
struct FoldShift : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<FoldableConv> conv = getFoldableConv(op.getInput1());
    if (!conv || !conv->bias || op.getInput1().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "no foldable conv with a bias");
    std::optional<SmallVector<double>> shift =
        getChannelConstant(op.getInput2(), conv->channels);
    if (!shift)
      return rewriter.notifyMatchFailure(op, "not a per-channel constant");
    std::optional<SmallVector<double>> bias = getBiasPerChannel(*conv);
    if (!bias)
      return rewriter.notifyMatchFailure(op, "bias is not per channel");
    for (auto [i, v] : llvm::enumerate(*bias))
      v += Sign * (*shift)[i];
    replaceConv(rewriter, op, *conv, DenseElementsAttr(),
                makeBias(*conv, *bias));
    return success();
  }
};

struct FuseFoldConvAffinePass final
    : fuse::impl::FuseFoldConvAffinePassBase<FuseFoldConvAffinePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldScale, FoldShift<tosa::AddOp, 1>,
                 FoldShift<tosa::SubOp, -1>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
