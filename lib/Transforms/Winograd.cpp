//===- Winograd.cpp - 3x3 convolutions by Winograd's F(2x2, 3x3) ----------===//
//
// A 3x3 convolution of stride 1 computes each 2 x 2 block of outputs from a
// 4 x 4 window of its input with 36 multiplies per channel pair; Winograd's
// minimal filtering algorithm F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms
// for Convolutional Neural Networks", 2016) needs 16:
//
//   Y = A^T [ (G g G^T) . (B^T d B) ] A        (. elementwise, summed over C)
//
//        | 1  0 -1  0 |        | 1    0    0  |
//  B^T = | 0  1  1  0 |    G = | 1/2  1/2  1/2|    A^T = | 1 1  1  0 |
//        | 0 -1  1  0 |        | 1/2 -1/2  1/2|          | 0 1 -1 -1 |
//        | 0  1  0 -1 |        | 0    0    1  |
//
// Written in TOSA ops the fusion pipeline already plans and the CPU code
// generator already runs near the peak:
//
//   1. The input is padded so that its tiles cover the output (2 * tiles +
//      2 rows and columns), viewed as row and column pairs, and its 16
//      window positions d_ij are slices of that view. B^T d B is adds and
//      subtracts of slices: 16 tensors V_p of N x tiles x tiles x C.
//   2. Each V_p is multiplied by its transformed filter U_p = (G g G^T)_p,
//      C x F, computed here in double and rounded once: a 1x1 convolution
//      of the tile grid, 16 of them, each a GEMM of tiles x C x F with a
//      constant right operand (2.25 times fewer multiplies than the 3x3).
//   3. A^T M A is adds and subtracts of the 16 results; the four outputs of
//      each tile are interleaved back into rows and columns (concats of
//      unit dimensions and a reshape), sliced to the output's size, and
//      the bias is added.
//
// The planner then puts step 1 in one group, each GEMM in its own, and
// fuses step 3 into them where it can (docs/Codegen.md, "Winograd").
//
// Taken: tosa.conv2d, f32, 3x3, stride 1, dilation 1, padding up to 2, static
// shapes, a constant filter, zero zero points, at least `min-channels` (32)
// input and output channels (narrower GEMMs do not pay for the transforms),
// whose input is not another contraction's result that stays direct (a 1x1
// convolution's: see runOnOperation).
//
// Values change: the sums are regrouped (the transforms add inputs before
// the multiplies, the filter's transform is rounded to f32), and an
// infinite input can give NaN where the direct sum gives infinity (inf -
// inf in a transform). The measured
// error against a double-precision convolution is at or below the direct
// convolution's on ResNet's and VGG's shapes (docs/Performance.md).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Utils/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEWINOGRADPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The most filter elements per output channel times output channels (F x
/// C) rewritten: the transformed filters are 16 F x C constants built in
/// memory (ResNet's and VGG's largest, 512 x 512, are 2^18).
constexpr int64_t kMaxFilterPairs = int64_t(1) << 24;

/// F(2x2, 3x3): outputs per tile side, window side, kernel side.
constexpr int64_t kOut = 2, kWindow = 4, kKernel = 3;
constexpr double kG[kWindow][kKernel] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};

/// The tile grid's shapes and the values the rewrite builds on.
struct WinogradConv {
  tosa::Conv2DOp conv;
  DenseElementsAttr filter; // F x 3 x 3 x C
  int64_t n, h, w, c, f;    // input N x H x W x C, F filters
  int64_t outH, outW;       // the convolution's output
  int64_t tilesH, tilesW;   // 2 x 2 output tiles covering it
  int64_t padTop, padLeft;
};

std::optional<WinogradConv> getWinogradConv(tosa::Conv2DOp conv,
                                            int64_t minChannels) {
  auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
  auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
  auto result = dyn_cast<RankedTensorType>(conv.getType());
  auto bias = dyn_cast<RankedTensorType>(conv.getBias().getType());
  if (!input || !weight || !result || !bias || !input.hasStaticShape() ||
      !weight.hasStaticShape() || !result.hasStaticShape() ||
      !bias.hasStaticShape() || bias.getRank() != 1)
    return std::nullopt;
  Type f32 = Float32Type::get(conv.getContext());
  if (input.getElementType() != f32 || weight.getElementType() != f32 ||
      result.getElementType() != f32 || bias.getElementType() != f32 ||
      conv.getAccType() != f32)
    return std::nullopt;
  if (weight.getDimSize(1) != kKernel || weight.getDimSize(2) != kKernel ||
      !llvm::all_of(conv.getStride(), [](int64_t s) { return s == 1; }) ||
      !llvm::all_of(conv.getDilation(), [](int64_t d) { return d == 1; }))
    return std::nullopt;
  if (!isZeroSplatConstant(conv.getInputZp()) ||
      !isZeroSplatConstant(conv.getWeightZp()))
    return std::nullopt;
  DenseElementsAttr filter;
  // A splat filter (every weight equal) is left direct: nothing to gain,
  // and its elements would be expanded in memory.
  if (!matchPattern(conv.getWeight(), m_Constant(&filter)) || filter.isSplat())
    return std::nullopt;

  WinogradConv w{conv, filter};
  w.n = input.getDimSize(0);
  w.h = input.getDimSize(1);
  w.w = input.getDimSize(2);
  w.c = input.getDimSize(3);
  w.f = weight.getDimSize(0);
  w.outH = result.getDimSize(1);
  w.outW = result.getDimSize(2);
  ArrayRef<int64_t> pad = conv.getPad(); // top, bottom, left, right
  // Shapes the verifier leaves unchecked agree (input and filter channels,
  // the result's batch and filters); no empty batch; padding at most the
  // kernel's reach, so that no sum below overflows.
  if (weight.getDimSize(3) != w.c || result.getDimSize(0) != w.n ||
      result.getDimSize(3) != w.f || w.n < 1 ||
      w.f > kMaxFilterPairs / std::max<int64_t>(w.c, 1))
    return std::nullopt;
  if (w.c < minChannels || w.f < minChannels || w.outH < kOut ||
      w.outW < kOut ||
      llvm::any_of(pad, [](int64_t p) { return p < 0 || p > kKernel - 1; }) ||
      w.outH != w.h + pad[0] + pad[1] - (kKernel - 1) ||
      w.outW != w.w + pad[2] + pad[3] - (kKernel - 1) ||
      (bias.getDimSize(0) != w.f && bias.getDimSize(0) != 1))
    return std::nullopt;
  w.tilesH = llvm::divideCeil(w.outH, kOut);
  w.tilesW = llvm::divideCeil(w.outW, kOut);
  w.padTop = pad[0];
  w.padLeft = pad[2];
  return w;
}

/// Builds the TOSA ops of the rewrite at one location.
struct Builder {
  OpBuilder &b;
  Location loc;

  RankedTensorType type(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getF32Type());
  }
  Value shape(ArrayRef<int64_t> values) {
    ImplicitLocOpBuilder builder(loc, b);
    return tosa::getTosaConstShape(builder, values);
  }
  Value reshape(Value x, ArrayRef<int64_t> to) {
    return tosa::ReshapeOp::create(b, loc, type(to), x, shape(to));
  }
  Value slice(Value x, ArrayRef<int64_t> start, ArrayRef<int64_t> size) {
    return tosa::SliceOp::create(b, loc, type(size), x, shape(start),
                                 shape(size));
  }
  Value add(Value x, Value y) {
    return tosa::AddOp::create(b, loc, x.getType(), x, y);
  }
  Value sub(Value x, Value y) {
    return tosa::SubOp::create(b, loc, x.getType(), x, y);
  }
  Value concat(ValueRange xs, int32_t axis, ArrayRef<int64_t> to) {
    return tosa::ConcatOp::create(b, loc, type(to), xs,
                                  b.getI32IntegerAttr(axis));
  }
  Value constant(ArrayRef<int64_t> shape, ArrayRef<float> values) {
    auto attr = DenseElementsAttr::get(type(shape), values);
    return tosa::ConstOp::create(b, loc, attr.getType(), attr);
  }
  /// B^T's rows applied to four values.
  SmallVector<Value, 4> inputTransform(ArrayRef<Value> d) {
    return {sub(d[0], d[2]), add(d[1], d[2]), sub(d[2], d[1]), sub(d[1], d[3])};
  }
  /// A^T's rows applied to four values.
  SmallVector<Value, 2> outputTransform(ArrayRef<Value> m) {
    return {add(add(m[0], m[1]), m[2]), sub(sub(m[1], m[2]), m[3])};
  }
};

/// U_p = (G g G^T)_p for window position p = 4 * row + column, as the
/// F x 1 x 1 x C filter of a 1x1 convolution; in double, rounded once.
SmallVector<SmallVector<float>> transformFilter(const WinogradConv &w) {
  auto g = w.filter.getValues<float>();
  auto at = [&](int64_t f, int64_t k, int64_t l, int64_t c) {
    return double(g[((f * kKernel + k) * kKernel + l) * w.c + c]);
  };
  SmallVector<SmallVector<float>> u(kWindow * kWindow,
                                    SmallVector<float>(w.f * w.c));
  for (int64_t f = 0; f < w.f; ++f)
    for (int64_t c = 0; c < w.c; ++c)
      for (int64_t row = 0; row < kWindow; ++row)
        for (int64_t col = 0; col < kWindow; ++col) {
          double sum = 0;
          for (int64_t k = 0; k < kKernel; ++k)
            for (int64_t l = 0; l < kKernel; ++l)
              sum += kG[row][k] * kG[col][l] * at(f, k, l, c);
          u[row * kWindow + col][f * w.c + c] = float(sum);
        }
  return u;
}

/// Replaces `w.conv` by steps 1-3 of the file comment.
void rewriteToWinograd(RewriterBase &rewriter, const WinogradConv &w) {
  tosa::Conv2DOp conv = w.conv;
  rewriter.setInsertionPoint(conv);
  Builder b{rewriter, conv.getLoc()};
  int64_t n = w.n, c = w.c, f = w.f, th = w.tilesH, tw = w.tilesW;

  // 1. Pad to 2 * tiles + 2 rows and columns (at least the convolution's
  //    own padding: the extra rows only reach outputs sliced off below),
  //    view as pairs, and take the window's rows, then its columns.
  int64_t rows = kOut * th + kKernel - 1, cols = kOut * tw + kKernel - 1;
  SmallVector<int64_t> padding = {
      0, 0, w.padTop, rows - w.h - w.padTop, w.padLeft, cols - w.w - w.padLeft,
      0, 0};
  Value zero = b.constant({1}, {0.0f});
  Value padded =
      tosa::PadOp::create(rewriter, b.loc, b.type({n, rows, cols, c}),
                          conv.getInput(), b.shape(padding), zero);
  Value pairs = b.reshape(padded, {n, rows / kOut, kOut, cols / kOut, kOut, c});
  SmallVector<Value> windowRows;
  for (int64_t i = 0; i < kWindow; ++i)
    windowRows.push_back(b.slice(pairs, {0, i / kOut, i % kOut, 0, 0, 0},
                                 {n, th, 1, cols / kOut, kOut, c}));
  SmallVector<Value> v; // V_p, p = 4 * row + column
  for (Value row : b.inputTransform(windowRows)) {
    SmallVector<Value> windowCols;
    for (int64_t j = 0; j < kWindow; ++j)
      windowCols.push_back(
          b.slice(row, {0, 0, 0, j / kOut, j % kOut, 0}, {n, th, 1, tw, 1, c}));
    for (Value col : b.inputTransform(windowCols))
      v.push_back(b.reshape(col, {n, th, tw, c}));
  }

  // 2. The 16 GEMMs, as 1x1 convolutions of the tile grid.
  SmallVector<SmallVector<float>> u = transformFilter(w);
  Value noBias = b.constant({f}, SmallVector<float>(f, 0.0f));
  SmallVector<Value> m;
  for (auto [vp, up] : llvm::zip_equal(v, u)) {
    Value filter = b.constant({f, 1, 1, c}, up);
    m.push_back(tosa::Conv2DOp::create(
        rewriter, b.loc, b.type({n, th, tw, f}), vp, filter, noBias,
        conv.getInputZp(), conv.getWeightZp(),
        rewriter.getDenseI64ArrayAttr({0, 0, 0, 0}),
        rewriter.getDenseI64ArrayAttr({1, 1}),
        rewriter.getDenseI64ArrayAttr({1, 1}), conv.getAccTypeAttr(),
        conv.getLocalBoundAttr()));
  }

  // 3. A^T M A: down the window's rows, then along its columns; each
  //    tile's 2 x 2 outputs back in place.
  SmallVector<SmallVector<Value>> byRow(kOut); // [a][column]
  for (int64_t col = 0; col < kWindow; ++col) {
    SmallVector<Value> column;
    for (int64_t row = 0; row < kWindow; ++row)
      column.push_back(m[row * kWindow + col]);
    for (auto [a, s] : llvm::enumerate(b.outputTransform(column)))
      byRow[a].push_back(s);
  }
  SmallVector<Value> outRows;
  for (ArrayRef<Value> s : byRow) {
    SmallVector<Value> outCols;
    for (Value y : b.outputTransform(s))
      outCols.push_back(b.reshape(y, {n, th, 1, tw, 1, f}));
    outRows.push_back(b.concat(outCols, 4, {n, th, 1, tw, kOut, f}));
  }
  Value tiles = b.concat(outRows, 2, {n, th, kOut, tw, kOut, f});
  Value result = b.reshape(tiles, {n, kOut * th, kOut * tw, f});
  if (kOut * th != w.outH || kOut * tw != w.outW)
    result = b.slice(result, {0, 0, 0, 0}, {n, w.outH, w.outW, f});
  int64_t biasSize =
      cast<RankedTensorType>(conv.getBias().getType()).getDimSize(0);
  result = b.add(result, b.reshape(conv.getBias(), {1, 1, 1, biasSize}));
  rewriter.replaceOp(conv, result);
}

/// The contraction whose result `value` is, through ops that keep its
/// elements in place and read nothing else computed (a ReLU, a bias, a pad):
/// null where there is none.
Operation *getContractionSource(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp,
            tosa::MatMulOp>(op))
      return op;
    if (!isa<tosa::ClampOp, tosa::AddOp, tosa::SubOp, tosa::MulOp, tosa::PadOp>(
            op))
      return nullptr;
    Value computed;
    for (Value operand : op->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) ||
          matchPattern(operand, m_Constant()))
        continue;
      if (computed)
        return nullptr; // two computed operands: a residual sum
      computed = operand;
    }
    if (!computed)
      return nullptr;
    value = computed;
  }
  return nullptr;
}

struct FuseWinogradPass final
    : fuse::impl::FuseWinogradPassBase<FuseWinogradPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minChannels < 1) {
      getOperation()->emitError("fuse-winograd: min-channels must be at "
                                "least 1, not ")
          << int64_t(minChannels);
      return signalPassFailure();
    }
    // Which convolutions to rewrite, decided on the graph as it is. The
    // input transform reads its input through overlapping 4 x 4 windows, as
    // a convolution does, but in ops (slices, adds) that the planner prices
    // one by one: where that input is another contraction's result (a
    // ResNet bottleneck's 1x1 convolution and its ReLU), the planner fuses
    // the contraction into the transform's group, whose tiles then compute
    // it again at every overlap (ResNet-50 at two threads 1.065x the time).
    // Such a convolution stays direct unless its input's contraction is
    // itself rewritten (VGG's and U-Net's chains of 3x3 convolutions).
    // Decided in program order, so that a producer's decision is known.
    SmallVector<WinogradConv> rewritten;
    llvm::SmallPtrSet<Operation *, 16> rewrittenOps;
    getOperation()->walk([&](tosa::Conv2DOp conv) {
      std::optional<WinogradConv> w = getWinogradConv(conv, minChannels);
      if (!w)
        return;
      Operation *source = getContractionSource(conv.getInput());
      if (!source || rewrittenOps.contains(source)) {
        rewritten.push_back(*w);
        rewrittenOps.insert(conv);
      }
    });
    IRRewriter rewriter(&getContext());
    for (const WinogradConv &w : rewritten)
      rewriteToWinograd(rewriter, w);
  }
};

} // namespace
