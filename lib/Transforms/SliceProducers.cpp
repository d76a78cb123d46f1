//===- SliceProducers.cpp - Compute only the part of a result that is read ===//
//
// A classifier that reads one token of a transformer's output (ViT's class
// token: `gather(layernorm(x + mlp(x)), [0])`) computes every token and
// keeps one. This pass moves static slices towards the values they cut, so
// that the ops between compute only the part that is read:
//
//   slice(f(a, b))            -> f(slice(a), slice(b))       elementwise
//   slice(reduce(a, axis k))  -> reduce(slice(a))            k not cut
//   slice(matmul(a, b))       -> matmul(slice(a), slice(b))  rows, columns
//   slice(transpose(a))       -> transpose(slice(a))
//   slice(concat(a, b))       -> slice(b)                    box inside b
//
// A gather whose constant indices pick the same contiguous range in every
// batch is such a slice first. The slice moves only when every user of the
// op's result takes the same slice (else the op still computes the whole
// result for the others), and then all of them are replaced. Operands a
// dimension broadcasts (size 1 where the result has more) keep that
// dimension whole.
//
// The same boxes move an elementwise op below a concat that only it reads,
// so that each part is computed by its own producer's kernel and the concat
// becomes in-place writes (fuse-eliminate-concat):
//
//   f(concat(a, b), c)        -> concat(f(a, slice(c)), f(b, slice(c)))
//
// A part that is constant then folds: ViT's position embedding added to
// [class token; patches] is a constant row and an add in the patch
// convolution's epilogue. Slices of constants fold, and elementwise ops of
// constants fold as in fuse-algebraic-simplify.
//
// Every rewrite computes the same values: each element of the result is
// computed from the same elements by the same ops.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Algebraic/AlgebraicSimplify.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "fuse-slice-producers"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSESLICEPRODUCERSPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// A static box of a ranked tensor: first index and size per dimension.
struct Box {
  SmallVector<int64_t> start, size;
  bool operator==(const Box &other) const {
    return start == other.start && size == other.size;
  }
};

/// The box `slice` takes, when its start and size are constant shapes
/// inside its input's static shape (a size of -1: to the end) and its
/// result has that box's static type.
std::optional<Box> getBox(tosa::SliceOp slice) {
  auto type = dyn_cast<RankedTensorType>(slice.getInput1().getType());
  auto resultType = dyn_cast<RankedTensorType>(slice.getType());
  Box box;
  if (!type || !type.hasStaticShape() || type.getEncoding() || !resultType ||
      !tosa::getConstShapeValues(slice.getStart().getDefiningOp(), box.start) ||
      !tosa::getConstShapeValues(slice.getSize().getDefiningOp(), box.size) ||
      static_cast<int64_t>(box.start.size()) != type.getRank() ||
      static_cast<int64_t>(box.size.size()) != type.getRank())
    return std::nullopt;
  for (auto [start, size, dim] :
       llvm::zip(box.start, box.size, type.getShape())) {
    if (size == -1)
      size = dim - start;
    if (start < 0 || size <= 0 || start + size > dim)
      return std::nullopt;
  }
  if (resultType != RankedTensorType::get(box.size, type.getElementType()))
    return std::nullopt;
  return box;
}

/// The part of `concat` that `box` of its result lies in, and the box
/// there, if it lies in one.
std::optional<std::pair<Value, Box>> getPartBox(tosa::ConcatOp concat,
                                                Box box) {
  int64_t axis = concat.getAxis(), offset = 0;
  if (axis < 0 || axis >= static_cast<int64_t>(box.start.size()))
    return std::nullopt;
  for (Value part : concat.getInput1()) {
    auto partType = dyn_cast<RankedTensorType>(part.getType());
    if (!partType || !partType.hasStaticShape())
      return std::nullopt;
    int64_t size = partType.getDimSize(axis);
    if (box.start[axis] >= offset &&
        box.start[axis] + box.size[axis] <= offset + size) {
      box.start[axis] -= offset;
      return std::make_pair(part, box);
    }
    offset += size;
  }
  return std::nullopt;
}

/// `box` of `input`; a box inside one part of a concat is taken from that
/// part.
Value createSlice(PatternRewriter &rewriter, Location loc, Value input,
                  Box box) {
  auto type = cast<RankedTensorType>(input.getType());
  if (ArrayRef<int64_t>(box.size) == type.getShape())
    return input;
  if (auto concat = input.getDefiningOp<tosa::ConcatOp>())
    if (std::optional<std::pair<Value, Box>> part = getPartBox(concat, box))
      return createSlice(rewriter, loc, part->first, part->second);
  auto shape = [&](ArrayRef<int64_t> values) {
    return tosa::getTosaConstShape(rewriter, loc, values);
  };
  return tosa::SliceOp::create(
      rewriter, loc, RankedTensorType::get(box.size, type.getElementType()),
      input, shape(box.start), shape(box.size));
}

/// The box of operand `type` that an elementwise op reads for `box` of its
/// result (of shape `resultShape`): the same, but whole along dimensions
/// the operand broadcasts. Operands of another rank (tosa.mul's shift) are
/// not sliced.
std::optional<Box> getOperandBox(RankedTensorType type,
                                 ArrayRef<int64_t> resultShape,
                                 const Box &box) {
  if (type.getRank() != static_cast<int64_t>(resultShape.size()))
    return std::nullopt;
  Box operandBox = box;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (size == 1 && resultShape[d] != 1) {
      operandBox.start[d] = 0;
      operandBox.size[d] = 1;
    }
  return operandBox;
}

/// Whether `type` is a ranked tensor of static shape.
bool isStaticTensor(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

/// Whether `op` computes each element of its result from the same element
/// of each operand (up to broadcasting). tosa.mul, tosa.negate and
/// tosa.cast are elementwise too; their shift and zero points are rank-1
/// operands getOperandBox keeps whole.
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
         op->hasTrait<OpTrait::ResultsBroadcastableShape>() ||
         isa<tosa::MulOp, tosa::NegateOp, tosa::CastOp>(op);
}

/// Whether every user of `value` is a slice taking `box`.
bool allUsersTake(Value value, const Box &box) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    auto slice = dyn_cast<tosa::SliceOp>(user);
    std::optional<Box> other = slice ? getBox(slice) : std::nullopt;
    return other && *other == box;
  });
}

/// slice(op(...)) -> op(slice(...)) for the ops listed in the file header,
/// when every user of the op's result takes the same static slice.
struct SliceOfProducer final : OpRewritePattern<tosa::SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::SliceOp slice,
                                PatternRewriter &rewriter) const override {
    Value input = slice.getInput1();
    Operation *producer = input.getDefiningOp();
    if (!producer || !isa<tosa::TosaDialect>(producer->getDialect()) ||
        producer->getNumResults() != 1)
      return rewriter.notifyMatchFailure(slice, "not a TOSA producer");
    std::optional<Box> box = getBox(slice);
    if (!box)
      return rewriter.notifyMatchFailure(slice, "not a static slice");
    // (A box implies a static input.)
    auto type = cast<RankedTensorType>(input.getType());
    if (ArrayRef<int64_t>(box->size) == type.getShape() ||
        !allUsersTake(input, *box))
      return rewriter.notifyMatchFailure(slice, "not a single static slice");
    if (!llvm::all_of(producer->getOperandTypes(), isStaticTensor))
      return rewriter.notifyMatchFailure(slice, "dynamic operand");
    Location loc = producer->getLoc();
    rewriter.setInsertionPoint(producer);
    auto sliceType = RankedTensorType::get(box->size, type.getElementType());
    Operation *sliced = nullptr;

    if (isElementwise(producer)) {
      SmallVector<Value> operands;
      for (Value operand : producer->getOperands()) {
        std::optional<Box> operandBox = getOperandBox(
            cast<RankedTensorType>(operand.getType()), type.getShape(), *box);
        operands.push_back(
            operandBox ? createSlice(rewriter, loc, operand, *operandBox)
                       : operand);
      }
      OperationState state(loc, producer->getName(), operands, {sliceType},
                           producer->getAttrs());
      sliced = rewriter.create(state);
    } else if (isa<tosa::ReduceSumOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
                   tosa::ReduceProductOp, tosa::ReduceAllOp, tosa::ReduceAnyOp>(
                   producer)) {
      auto axis = producer->getAttrOfType<IntegerAttr>("axis");
      Value operand = producer->getOperand(0);
      auto operandType = cast<RankedTensorType>(operand.getType());
      if (!axis || axis.getInt() < 0 || axis.getInt() >= type.getRank())
        return rewriter.notifyMatchFailure(slice, "bad axis");
      Box operandBox = *box;
      operandBox.start[axis.getInt()] = 0;
      operandBox.size[axis.getInt()] = operandType.getDimSize(axis.getInt());
      OperationState state(loc, producer->getName(),
                           {createSlice(rewriter, loc, operand, operandBox)},
                           {sliceType}, producer->getAttrs());
      sliced = rewriter.create(state);
    } else if (auto matmul = dyn_cast<tosa::MatMulOp>(producer)) {
      // [B, M, K] x [B, K, N]: rows cut A, columns cut B, the batch both
      // (unless one broadcasts it).
      auto aType = cast<RankedTensorType>(matmul.getA().getType());
      auto bType = cast<RankedTensorType>(matmul.getB().getType());
      if (aType.getRank() != 3 || bType.getRank() != 3)
        return rewriter.notifyMatchFailure(slice, "not a 3-d matmul");
      Box aBox{{box->start[0], box->start[1], 0},
               {box->size[0], box->size[1], aType.getDimSize(2)}};
      Box bBox{{box->start[0], 0, box->start[2]},
               {box->size[0], bType.getDimSize(1), box->size[2]}};
      for (auto [operandBox, operandType] :
           {std::make_pair(&aBox, aType), std::make_pair(&bBox, bType)})
        if (operandType.getDimSize(0) == 1 && type.getDimSize(0) != 1) {
          operandBox->start[0] = 0;
          operandBox->size[0] = 1;
        }
      sliced = tosa::MatMulOp::create(
          rewriter, loc, sliceType,
          createSlice(rewriter, loc, matmul.getA(), aBox),
          createSlice(rewriter, loc, matmul.getB(), bBox), matmul.getAZp(),
          matmul.getBZp());
    } else if (auto transpose = dyn_cast<tosa::TransposeOp>(producer)) {
      ArrayRef<int32_t> perms = transpose.getPerms();
      Box operandBox = *box;
      for (auto [d, p] : llvm::enumerate(perms)) {
        operandBox.start[p] = box->start[d];
        operandBox.size[p] = box->size[d];
      }
      sliced = tosa::TransposeOp::create(
          rewriter, loc, sliceType,
          createSlice(rewriter, loc, transpose.getInput1(), operandBox),
          transpose.getPermsAttr());
    } else {
      return rewriter.notifyMatchFailure(slice, "producer not sliceable");
    }
    // Every user took this slice.
    for (Operation *user : llvm::to_vector(input.getUsers()))
      rewriter.replaceOp(user, sliced->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// gather(values, indices) -> slice(values) when the constant indices pick
/// the same contiguous range in every batch: [N, K, C] values, [N, W]
/// indices s, s + 1, ..., s + W - 1.
struct GatherAsSlice final : OpRewritePattern<tosa::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::GatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto values = dyn_cast<RankedTensorType>(gather.getValues().getType());
    auto result = dyn_cast<RankedTensorType>(gather.getType());
    DenseIntElementsAttr indices;
    if (!values || !result || !values.hasStaticShape() ||
        !result.hasStaticShape() || values.getRank() != 3 ||
        !matchPattern(gather.getIndices(), m_Constant(&indices)))
      return rewriter.notifyMatchFailure(gather, "not constant indices");
    int64_t batches = values.getDimSize(0), width = result.getDimSize(1);
    SmallVector<int64_t> flat =
        llvm::map_to_vector(indices.getValues<APInt>(),
                            [](const APInt &v) { return v.getSExtValue(); });
    if (flat.empty() || width == 0 ||
        static_cast<int64_t>(flat.size()) != batches * width)
      return rewriter.notifyMatchFailure(gather, "unexpected index shape");
    int64_t first = flat.front();
    for (int64_t n = 0; n < batches; ++n)
      for (int64_t w = 0; w < width; ++w)
        if (flat[n * width + w] != first + w)
          return rewriter.notifyMatchFailure(gather, "not a range");
    if (first < 0 || first + width > values.getDimSize(1))
      return rewriter.notifyMatchFailure(gather, "out of range");
    Box box{{0, first, 0}, {batches, width, values.getDimSize(2)}};
    rewriter.replaceOp(gather, createSlice(rewriter, gather.getLoc(),
                                           gather.getValues(), box));
    return success();
  }
};

/// f(concat(a, b), c) -> concat(f(a, slice(c)), f(b, slice(c))) for an
/// elementwise f that is the concat's only user (it may read it more than
/// once). Each part of the result is computed from the same elements by the
/// same op.
struct ElementwiseOfConcat final : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    auto concatType = dyn_cast<RankedTensorType>(concat.getType());
    if (!concatType || !concatType.hasStaticShape() ||
        concat.getInput1().size() < 2 || concat->getUsers().empty() ||
        !llvm::all_of(concat.getInput1().getTypes(), isStaticTensor))
      return rewriter.notifyMatchFailure(concat, "not a static concat");
    Operation *user = *concat->getUsers().begin();
    if (llvm::any_of(concat->getUsers(),
                     [&](Operation *other) { return other != user; }) ||
        !isElementwise(user) || user->getNumResults() != 1)
      return rewriter.notifyMatchFailure(concat, "not one elementwise user");
    auto type = dyn_cast<RankedTensorType>(user->getResult(0).getType());
    int64_t axis = concat.getAxis();
    if (!type || !type.hasStaticShape() || type.getEncoding() ||
        type.getRank() != concatType.getRank() ||
        type.getDimSize(axis) != concatType.getDimSize(axis) ||
        !llvm::all_of(user->getOperandTypes(), isStaticTensor))
      return rewriter.notifyMatchFailure(concat, "not a static result");

    Location loc = user->getLoc();
    rewriter.setInsertionPoint(user);
    SmallVector<Value> parts;
    // A part the concat repeats (concat(x, x)) is computed once when the
    // op reads the same values for both (no operand cut along the axis).
    DenseMap<std::pair<Value, int64_t>, SmallVector<Value>> created;
    int64_t offset = 0;
    for (Value input : concat.getInput1()) {
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(axis);
      Box box{SmallVector<int64_t>(type.getRank(), 0),
              llvm::to_vector(type.getShape())};
      box.start[axis] = offset;
      box.size[axis] = size;
      SmallVector<Value> operands;
      for (Value operand : user->getOperands()) {
        if (operand == concat.getResult()) {
          operands.push_back(input);
          continue;
        }
        std::optional<Box> operandBox = getOperandBox(
            cast<RankedTensorType>(operand.getType()), type.getShape(), box);
        operands.push_back(
            operandBox ? createSlice(rewriter, loc, operand, *operandBox)
                       : operand);
      }
      offset += size;
      bool repeated = false;
      for (Value part : created[{input, size}])
        if (Operation *op = part.getDefiningOp();
            llvm::equal(op->getOperands(), operands)) {
          parts.push_back(part);
          repeated = true;
          break;
        }
      if (repeated)
        continue;
      OperationState state(
          loc, user->getName(), operands,
          {RankedTensorType::get(box.size, type.getElementType())},
          user->getAttrs());
      parts.push_back(rewriter.create(state)->getResult(0));
      created[{input, size}].push_back(parts.back());
    }
    rewriter.replaceOpWithNewOp<tosa::ConcatOp>(user, type, parts, axis);
    return success();
  }
};

/// slice(constant) -> constant. Where the constant has other readers both
/// are kept, but no more than the slice is stored twice: --fuse-ops gives
/// every group its own copy of the constants it reads, and bufferization
/// stores equal constants once.
struct SliceOfConstant final : OpRewritePattern<tosa::SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::SliceOp slice,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr values;
    Value input = slice.getInput1();
    std::optional<Box> box = getBox(slice);
    if (!box || !matchPattern(input, m_Constant(&values)) || values.isSplat())
      return rewriter.notifyMatchFailure(slice, "not a dense constant");
    // Plain integers and floats (not quantized types, whose constants hold
    // their storage type); i1 elements are packed in bits, other widths
    // are whole bytes.
    auto type = cast<RankedTensorType>(input.getType());
    if (!type.getElementType().isIntOrFloat() || values.getType() != type ||
        type.getElementTypeBitWidth() % 8 != 0)
      return rewriter.notifyMatchFailure(slice, "not plain whole bytes");
    unsigned bitWidth = type.getElementTypeBitWidth();
    if (cast<RankedTensorType>(slice.getType()).getNumElements() > (1 << 22))
      return rewriter.notifyMatchFailure(slice, "too large");

    // Copy rows of the innermost dimension from the raw little-endian
    // buffer (row-major, no padding for whole-byte elements).
    ArrayRef<char> raw = values.getRawData();
    int64_t bytes = bitWidth / 8, rank = type.getRank();
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> strides = computeStrides(shape);
    auto resultType = cast<RankedTensorType>(slice.getType());
    std::vector<char> data;
    data.reserve(resultType.getNumElements() * bytes);
    int64_t rowSize = rank ? box->size[rank - 1] : 1;
    SmallVector<int64_t> index(std::max<int64_t>(rank - 1, 0), 0);
    for (int64_t row = 0, rows = resultType.getNumElements() / rowSize;
         row < rows; ++row) {
      int64_t offset = rank ? box->start[rank - 1] : 0;
      for (int64_t d = 0; d + 1 < rank; ++d)
        offset += (box->start[d] + index[d]) * strides[d];
      data.insert(data.end(), raw.begin() + offset * bytes,
                  raw.begin() + (offset + rowSize) * bytes);
      for (int64_t d = rank - 2; d >= 0; --d) {
        if (++index[d] < box->size[d])
          break;
        index[d] = 0;
      }
    }
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(
        slice, resultType,
        DenseElementsAttr::getFromRawBuffer(resultType, data));
    return success();
  }
};

/// slice(concat(a, b)) -> slice(b) when the box lies inside one part:
/// whatever else reads the concat (here, so that an elementwise op that then
/// reads it alone moves below it in the same run: idempotence).
struct SliceOfConcat final : OpRewritePattern<tosa::SliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::SliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto concat = slice.getInput1().getDefiningOp<tosa::ConcatOp>();
    std::optional<Box> box = getBox(slice);
    if (!concat || !box)
      return rewriter.notifyMatchFailure(slice,
                                         "not a static slice of a concat");
    std::optional<std::pair<Value, Box>> part = getPartBox(concat, *box);
    if (!part)
      return rewriter.notifyMatchFailure(slice, "not inside one part");
    rewriter.replaceOp(slice, createSlice(rewriter, slice.getLoc(), part->first,
                                          part->second));
    return success();
  }
};

struct FuseSliceProducersPass final
    : fuse::impl::FuseSliceProducersPassBase<FuseSliceProducersPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SliceOfProducer, SliceOfConcat, GatherAsSlice,
                 ElementwiseOfConcat, SliceOfConstant>(&getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Parts of constants computed with constants are constants, whose
    // slices fold in turn: until nothing folds (each round folds at least
    // one op, so this ends).
    do {
      if (failed(applyPatternsGreedily(getOperation(), frozen)))
        return signalPassFailure();
    } while (fuse::foldConstantElementwiseOps(getOperation()) > 0);
  }
};

} // namespace
