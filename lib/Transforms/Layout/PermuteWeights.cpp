//===- PermuteWeights.cpp - Channel permutations into constant weights ----===//
//
// A contraction sums over its reduced dimension, so the order of that
// dimension does not matter as long as both operands agree on it. When one
// operand is data movement that permutes the reduced dimension (ShuffleNet's
// channel shuffle, `reshape -> transpose -> reshape`, before a 1x1
// convolution) and the other is a constant, the permutation moves into the
// constant at compile time, and the contraction reads the data unshuffled:
//
//   conv2d(shuffle(x), w)     -> conv2d(x, w')    w'[f, .., c] = w[f, .., q(c)]
//   matmul(shuffle(a), b)     -> matmul(a, b')    b'[k, n]     = b[q(k), n]
//
// where q is the inverse of the shuffle's permutation. The data movement is
// found by evaluating the chain of reshapes and transposes on element
// indices: the chain from x to the operand must be a view of x (x reshaped
// to the operand's shape, or a plain transpose of x) followed by one fixed
// permutation of the reduced dimension (the same for every other index).
// The view is kept (a reshape is free; the layout passes make a transpose
// an index change of the contraction); the shuffle goes. VGG's classifier
// reads NHWC features flattened in NCHW order (transpose, reshape): it now
// reads them flattened as they are, with its weight's rows permuted.
//
// Values are unchanged up to the order of the additions: the contraction
// adds the same products, in the order of the unshuffled channels.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "fuse-permute-weights"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPERMUTEWEIGHTSPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Elements of the tensors the index evaluation walks, at most.
constexpr int64_t kMaxElements = 1 << 22;

/// The reshapes and transposes that compute `value` from the first value
/// that is neither, in program order, and that value. Static shapes only;
/// each op of the chain read once (else the shuffle would still be computed
/// for its other readers, and they are usually not contractions: the
/// depthwise convolution beside ShuffleNet's downsampling 1x1 convolution).
std::optional<std::pair<Value, SmallVector<Operation *>>>
getDataMovement(Value value) {
  SmallVector<Operation *> chain;
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tosa::ReshapeOp, tosa::TransposeOp>(def) || !value.hasOneUse())
      break;
    auto type = dyn_cast<RankedTensorType>(def->getOperand(0).getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() > kMaxElements)
      return std::nullopt;
    chain.push_back(def);
    value = def->getOperand(0);
  }
  if (chain.empty())
    return std::nullopt;
  std::reverse(chain.begin(), chain.end());
  return std::make_pair(value, chain);
}

/// A view of a source (a transpose, or a reshape of the source itself)
/// followed by a permutation of one dimension.
struct Shuffle {
  Permutation perms;                ///< the transpose (identity: none)
  bool reshape = false;             ///< the source reshaped, not transposed
  SmallVector<int64_t> permutation; ///< operand index c reads c' = p[c]
};

/// Whether `chain` (from `source`) computes a view of `source` whose
/// dimension `axis` is then permuted, and which: the source reshaped to the
/// result's shape (VGG's NCHW flatten of NHWC data before its classifier),
/// or transposed to it (ShuffleNet's channel shuffle before an NHWC
/// convolution).
std::optional<Shuffle> matchShuffle(Value source, ArrayRef<Operation *> chain,
                                    int64_t axis) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto resultType =
      dyn_cast<RankedTensorType>(chain.back()->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape() ||
      resultType.getNumElements() != sourceType.getNumElements())
    return std::nullopt;
  // Where each element of the chain's result comes from (a flat index of
  // the source).
  SmallVector<int64_t> data(sourceType.getNumElements());
  std::iota(data.begin(), data.end(), 0);
  SmallVector<int64_t> shape = llvm::to_vector(sourceType.getShape());
  for (Operation *op : chain) {
    if (auto t = dyn_cast<tosa::TransposeOp>(op))
      data = permuteElements(ArrayRef<int64_t>(data), shape, getPermutation(t));
    shape = llvm::to_vector(
        cast<RankedTensorType>(op->getResult(0).getType()).getShape());
  }
  int64_t rank = sourceType.getRank();
  ArrayRef<int64_t> resultShape = resultType.getShape();
  Permutation perms = getIdentityPermutation(rank);
  // The source itself (reshaped if its shape differs), then every
  // transpose whose shape is the result's (a few: dimensions of one extent
  // are interchangeable).
  int64_t tried = 0;
  bool identity = true;
  do {
    bool reshape = false;
    if (identity) {
      reshape = sourceType.getShape() != resultShape;
      identity = false;
    } else if (rank != resultType.getRank() ||
               llvm::any_of(llvm::seq<int64_t>(0, rank), [&](int64_t d) {
                 return sourceType.getDimSize(perms[d]) != resultShape[d];
               })) {
      continue;
    }
    if (++tried > 24)
      break;
    SmallVector<int64_t> moved =
        permuteElements(ArrayRef<int64_t>(llvm::to_vector(llvm::seq<int64_t>(
                            0, sourceType.getNumElements()))),
                        sourceType.getShape(), perms);
    // The permutation from the first line along `axis`, then checked on
    // every element.
    SmallVector<int64_t> strides = computeStrides(resultShape);
    int64_t extent = resultShape[axis], stride = strides[axis];
    DenseMap<int64_t, int64_t> position;
    for (int64_t c = 0; c < extent; ++c)
      position[moved[c * stride]] = c;
    Shuffle shuffle{perms, reshape, SmallVector<int64_t>(extent)};
    bool ok = true;
    for (int64_t c = 0; c < extent && ok; ++c) {
      auto it = position.find(data[c * stride]);
      ok = it != position.end();
      if (ok)
        shuffle.permutation[c] = it->second;
    }
    for (int64_t n = 0, e = data.size(); n < e && ok; ++n) {
      int64_t c = (n / stride) % extent;
      ok = data[n] == moved[n + (shuffle.permutation[c] - c) * stride];
    }
    if (ok)
      return shuffle;
  } while (std::next_permutation(perms.begin(), perms.end()));
  return std::nullopt;
}

/// `values` with dimension `axis` reordered: index c of the result is index
/// q[c] of `values`.
DenseElementsAttr permuteAxis(DenseElementsAttr values, int64_t axis,
                              ArrayRef<int64_t> q) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  ArrayRef<char> raw = values.getRawData();
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  int64_t extent = type.getDimSize(axis), stride = strides[axis];
  // Whole rows of the dimensions after `axis` move together.
  int64_t row = stride * bytes;
  std::vector<char> data(raw.size());
  for (int64_t outer = 0, e = type.getNumElements() / (extent * stride);
       outer < e; ++outer)
    for (int64_t c = 0; c < extent; ++c)
      std::copy_n(raw.begin() + (outer * extent + q[c]) * row, row,
                  data.begin() + (outer * extent + c) * row);
  return DenseElementsAttr::getFromRawBuffer(type, data);
}

/// Rewrites `op`'s operand `index` (a shuffle along `axis`) to the shuffle's
/// source, transposed, and its constant operand `weightIndex` permuted
/// along `weightAxis`.
LogicalResult unshuffle(PatternRewriter &rewriter, Operation *op,
                        unsigned index, int64_t axis, unsigned weightIndex,
                        int64_t weightAxis) {
  DenseElementsAttr weights;
  if (!matchPattern(op->getOperand(weightIndex), m_Constant(&weights)) ||
      weights.isSplat())
    return failure();
  // (A quantized operand's constant holds its storage type: left alone.)
  auto weightType = cast<RankedTensorType>(weights.getType());
  if (weightType != op->getOperand(weightIndex).getType() ||
      !weightType.hasStaticShape() || weightType.getNumElements() == 0 ||
      weightType.getElementTypeBitWidth() % 8 != 0 ||
      !weightType.getElementType().isIntOrFloat())
    return failure();
  auto movement = getDataMovement(op->getOperand(index));
  if (!movement)
    return failure();
  auto [source, chain] = *movement;
  std::optional<Shuffle> shuffle = matchShuffle(source, chain, axis);
  // The identity permutation is a plain transpose: the layout passes' case.
  if (!shuffle ||
      llvm::equal(shuffle->permutation,
                  llvm::seq<int64_t>(0, shuffle->permutation.size())) ||
      weightType.getDimSize(weightAxis) !=
          static_cast<int64_t>(shuffle->permutation.size()))
    return failure();
  // Operand channel c reads source channel p[c]: the weight of source
  // channel c' is the operand's weight at q[c'] = p^-1[c'].
  SmallVector<int64_t> inverse(shuffle->permutation.size());
  for (auto [c, p] : llvm::enumerate(shuffle->permutation))
    inverse[p] = c;

  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Type type = op->getOperand(index).getType();
  Value input = source;
  if (shuffle->reshape)
    input = tosa::ReshapeOp::create(
        rewriter, loc, type, source,
        tosa::getTosaConstShape(rewriter, loc,
                                cast<RankedTensorType>(type).getShape()));
  else
    input = createTranspose(rewriter, loc, source, shuffle->perms);
  Value permuted = tosa::ConstOp::create(
      rewriter, loc, weightType, permuteAxis(weights, weightAxis, inverse));
  rewriter.modifyOpInPlace(op, [&] {
    op->setOperand(index, input);
    op->setOperand(weightIndex, permuted);
  });
  return success();
}

/// conv2d(shuffle(x), w): the input's channels (NHWC, last) against the
/// filter's (FHWC, last).
struct UnshuffleConvInput final : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    return unshuffle(rewriter, conv, /*index=*/0, /*axis=*/3,
                     /*weightIndex=*/1, /*weightAxis=*/3);
  }
};

/// matmul(shuffle(a), b) and matmul(a, shuffle(b)): K is A's last
/// dimension and B's middle one.
struct UnshuffleMatmulOperand final : OpRewritePattern<tosa::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MatMulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (succeeded(unshuffle(rewriter, matmul, 0, 2, 1, 1)))
      return success();
    return unshuffle(rewriter, matmul, 1, 1, 0, 2);
  }
};

struct FusePermuteWeightsPass final
    : fuse::impl::FusePermuteWeightsPassBase<FusePermuteWeightsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<UnshuffleConvInput, UnshuffleMatmulOperand>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
