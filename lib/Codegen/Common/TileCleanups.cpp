//===- TileCleanups.cpp - Making a group's body tileable ----------------===//
//
// Steps 1 and 2 of fuse-tile-groups (TileGroups.cpp): index changes become
// transposes inside the body, the body goes to linalg-on-tensors, and what
// tile-and-fuse cannot fuse through is cleared: unit-dim reshapes folded
// into their readers, slices moved to their producers, reshapes moved out by
// expanding loops, 1x1 convolutions as contractions, constant convolution
// filters permuted for the CPU (and 3-D ones' filters read channels last
// on the GPU), elementwise readers of one contraction
// merged into one op (each would otherwise be a root recomputing it).
//
//===----------------------------------------------------------------------===//

#include "TileGroups.h"

#include "FuseDialect/Utils/ShapeUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace mlir::fuse::tiling {

LogicalResult lowerBodyToLinalg(GroupOp group) {
  MLIRContext *ctx = group.getContext();
  TypeConverter converter;
  tosa::populateTosaTypeConversion(converter);
  RewritePatternSet patterns(ctx);
  tosa::populateTosaToLinalgNamedConversionPatterns(converter, &patterns, {});
  tosa::populateTosaToLinalgConversionPatterns(converter, &patterns);
  tosa::populateTosaToTensorConversionPatterns(converter, &patterns);
  tosa::populateTosaToArithConversionPatterns(&patterns);
  tosa::populateTosaRescaleToArithConversionPatterns(&patterns);
  ConversionTarget target(*ctx);
  target.addIllegalDialect<tosa::TosaDialect>();
  target.addLegalOp<tosa::ApplyScaleOp, tosa::ConstShapeOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addLegalOp<GroupOp, YieldOp>();
  SmallVector<Operation *> bodyOps;
  for (Operation &op : group.getBodyBlock().without_terminator())
    bodyOps.push_back(&op);
  return applyPartialConversion(bodyOps, target, std::move(patterns));
}

/// For a reshape between `expanded` (the shape with more dims) and the
/// collapsed shape, per reassociation group the one dim of the group that
/// is not a unit dim (its first when all are); nothing when a group has two
/// non-unit dims (the reshape then moves more than unit dims).
static std::optional<SmallVector<int64_t>>
getNonUnitDimPerGroup(ArrayRef<ReassociationIndices> groups,
                      ArrayRef<int64_t> expanded) {
  SmallVector<int64_t> kept;
  for (const ReassociationIndices &group : groups) {
    SmallVector<int64_t> nonUnit;
    for (int64_t d : group)
      if (expanded[d] != 1)
        nonUnit.push_back(d);
    if (nonUnit.size() > 1)
      return std::nullopt;
    kept.push_back(nonUnit.empty() ? group.front() : nonUnit.front());
  }
  return kept;
}

/// Whether every loop of an op with indexing maps `maps` is a plain dim of
/// some operand, so that the operand shapes give its range.
static bool hasLoopRanges(ArrayRef<AffineMap> maps) {
  return !maps.empty() &&
         inversePermutation(concatAffineMaps(maps, maps.front().getContext()));
}

/// Makes `operand` of `op` read `source` through `map` instead, unless a
/// loop would then have no range (it was a plain dim of that operand only).
static LogicalResult readThrough(PatternRewriter &rewriter, linalg::GenericOp op,
                          OpOperand *operand, Value source, AffineMap map) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[operand->getOperandNumber()] = map;
  if (!hasLoopRanges(maps))
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    operand->set(source);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return success();
}

/// generic(expand_shape(x)) where the expansion only inserts unit dims ->
/// generic(x) reading x through the map without those dims. TOSA keeps a
/// reduced axis as a size-1 dim and its lowering re-inserts it with an
/// expand_shape after each reduction; tiling cannot fuse through reshapes.
struct FoldUnitExpandIntoConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand)
        continue;
      std::optional<SmallVector<int64_t>> kept = getNonUnitDimPerGroup(
          expand.getReassociationIndices(), expand.getResultType().getShape());
      if (!kept)
        continue;
      // Per group, the expression of the dim kept.
      AffineMap map = op.getMatchingIndexingMap(operand);
      SmallVector<AffineExpr> exprs = llvm::map_to_vector(
          *kept, [&](int64_t d) { return map.getResult(d); });
      if (succeeded(readThrough(
              rewriter, op, operand, expand.getSrc(),
              AffineMap::get(map.getNumDims(), 0, exprs, op.getContext()))))
        return success();
    }
    return failure();
  }
};

/// generic(collapse_shape(x)) where the collapse only removes unit dims ->
/// generic(x) reading those dims at 0. ONNX exports squeeze the 1x1 spatial
/// dims of a squeeze-excitation branch (collapse) and unsqueeze them in
/// another order (expand, folded above): without this the branch's conv
/// cannot be fused through the view into its consumer's loop nest.
struct FoldUnitCollapseIntoConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse || !collapse.getSrcType().hasStaticShape())
        continue;
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      std::optional<SmallVector<int64_t>> kept = getNonUnitDimPerGroup(
          groups, collapse.getSrcType().getShape());
      if (!kept)
        continue;
      // The collapsed index goes to the dim kept; the others are read at 0.
      AffineMap map = op.getMatchingIndexingMap(operand);
      SmallVector<AffineExpr> exprs;
      for (auto [i, group] : llvm::enumerate(groups))
        for (int64_t d : group)
          exprs.push_back(d == (*kept)[i]
                              ? map.getResult(i)
                              : getAffineConstantExpr(0, op.getContext()));
      if (succeeded(readThrough(
              rewriter, op, operand, collapse.getSrc(),
              AffineMap::get(map.getNumDims(), 0, exprs, op.getContext()))))
        return success();
    }
    return failure();
  }
};

/// A slice of a tileable op's result (the branches of a horizontally fused
/// conv or matmul, a tosa.slice) becomes that op computing only the slice,
/// whichever other slices are taken: tiling can then fuse it into the
/// slice's readers.
struct SwapSliceWithProducer : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto producer = dyn_cast<OpResult>(slice.getSource());
    if (!producer || !isa<TilingInterface>(producer.getOwner()) ||
        !slice.hasUnitStride() ||
        slice.getSourceType().getRank() != slice.getType().getRank())
      return failure();
    // Static slices only: a pad's tile is computed with min/max of its
    // bounds, and a slice of that (of the padded value) is no tile upstream
    // tiling computes bounds for.
    if (!slice.getType().hasStaticShape() ||
        !llvm::all_of(slice.getMixedOffsets(), [](OpFoldResult offset) {
          return getConstantIntValue(offset).has_value();
        }))
      return failure();
    FailureOr<TilingResult> tiled =
        tensor::replaceExtractSliceWithTiledProducer(rewriter, slice,
                                                     producer);
    if (failed(tiled) || tiled->tiledValues.empty())
      return failure();
    rewriter.replaceOp(slice, tiled->tiledValues.front());
    return success();
  }
};

/// Clears what the lowering leaves in the way of tile-and-fuse: a named op
/// next to a view becomes its generic form, which the reshape-expansion
/// patterns (linalg.generic only) can move the view through. A reduction
/// read through a view: attention's softmax reads Q·Kᵀ through a view that
/// merges batch and heads. A contraction (matmul, batch matmul) whose
/// result is viewed: a fused QKV projection whose Q columns are split into
/// heads. Both must be expanded to join their loop nests.
struct GeneralizeReshapedNamedOp final
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    auto isView = [](Operation *other) {
      return isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          other);
    };
    bool reshapedReduce = isa<linalg::ReduceOp>(op.getOperation()) &&
                          llvm::any_of(op.getDpsInputs(), [&](Value input) {
                            return isView(input.getDefiningOp());
                          });
    bool reshapedContraction = !isa<linalg::GenericOp>(op.getOperation()) &&
                               linalg::isaContractionOpInterface(op) &&
                               op->getNumResults() == 1 &&
                               llvm::any_of(op->getUsers(), isView);
    if (!reshapedReduce && !reshapedContraction)
      return rewriter.notifyMatchFailure(op, "no named op next to a view");
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

/// collapse_shape(generic) where the collapse only removes unit dims and
/// the generic computes nothing else -> the generic writing the collapsed
/// shape directly (its unit loops stay, read by its inputs; the expansion
/// patterns need its maps to stay projected permutations). The reshape
/// between a projection and the view that splits its columns into heads
/// (1x197x768 -> 197x768) then no longer stands between the projection and
/// that view, which the expansion patterns fold into the projection's loops.
struct FoldUnitCollapseIntoProducer final
    : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!producer || producer->getNumResults() != 1 || !producer->hasOneUse() ||
        !collapse.getSrcType().hasStaticShape())
      return rewriter.notifyMatchFailure(collapse, "no single-use generic");
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    std::optional<SmallVector<int64_t>> kept =
        getNonUnitDimPerGroup(groups, collapse.getSrcType().getShape());
    if (!kept)
      return rewriter.notifyMatchFailure(collapse, "moves more than unit dims");
    OpOperand *init = producer.getDpsInitOperand(0);
    AffineMap outMap = producer.getMatchingIndexingMap(init);
    SmallVector<AffineExpr> exprs = llvm::map_to_vector(
        *kept, [&](int64_t d) { return outMap.getResult(d); });
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    maps[init->getOperandNumber()] =
        AffineMap::get(outMap.getNumDims(), 0, exprs, producer.getContext());
    // Every loop must keep a range the operand shapes give: a loop only the
    // dropped dims indexed must still be a plain dim of some input.
    if (!hasLoopRanges(maps))
      return rewriter.notifyMatchFailure(collapse, "unit loop only written");
    rewriter.setInsertionPoint(producer);
    Value collapsedInit = tensor::CollapseShapeOp::create(
        rewriter, collapse.getLoc(), init->get(), groups);
    auto smaller = linalg::GenericOp::create(
        rewriter, producer.getLoc(), TypeRange{collapse.getResultType()},
        producer.getDpsInputs(), ValueRange{collapsedInit}, maps,
        producer.getIteratorTypesArray());
    rewriter.inlineRegionBefore(producer.getRegion(), smaller.getRegion(),
                                smaller.getRegion().begin());
    rewriter.replaceOp(collapse, smaller->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

/// The payload of a convolution or contraction as a generic:
/// `out + in * filter`, multiply then add, as linalg's named ops compute it.
static void yieldMultiplyAdd(OpBuilder &b, Location loc, ValueRange args) {
  Value product = arith::MulFOp::create(b, loc, args[0], args[1]);
  linalg::YieldOp::create(
      b, loc, ValueRange{arith::AddFOp::create(b, loc, args[2], product)});
}

/// `value` (static) transposed by `permutation` at run time
/// (`linalg.transpose` into an empty tensor of the permuted shape).
static Value transposeAtRunTime(OpBuilder &builder, Location loc, Value value,
                                ArrayRef<int64_t> permutation) {
  RankedTensorType type =
      permuteType(cast<RankedTensorType>(value.getType()), permutation);
  Value empty = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                        type.getElementType());
  return linalg::TransposeOp::create(builder, loc, value, empty, permutation)
      ->getResult(0);
}

/// A 1x1 convolution with unit strides and dilations is a matmul over the
/// channels at every pixel: as a contraction (its filter collapsed to F x C,
/// which folds into a constant filter) it tiles as a matmul does (square
/// tiles of pixels by filters), and on a
/// GPU its operands are staged in shared memory and its outputs kept in
/// registers (fuse-distribute-tiles) instead of every output reading its
/// input channels and filter from global memory. The same multiply-adds in
/// the same order: values are unchanged.
struct OneByOneConvAsContraction final
    : OpRewritePattern<linalg::Conv2DNhwcFhwcOp> {
  OneByOneConvAsContraction(MLIRContext *ctx, bool contiguousFilters,
                            PatternBenefit benefit = 1)
      : OpRewritePattern(ctx, benefit), contiguousFilters(contiguousFilters) {}
  /// Read the filter as C x F (TilePolicy::contiguousFilters).
  bool contiguousFilters;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcOp op,
                                PatternRewriter &rewriter) const override {
    auto input = dyn_cast<RankedTensorType>(op.getInputs()[0].getType());
    auto filter = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    auto output = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    if (!input || !filter || !output || !filter.hasStaticShape() ||
        filter.getDimSize(1) != 1 || filter.getDimSize(2) != 1 ||
        !llvm::all_of(op.getStrides().getValues<int64_t>(),
                      [](int64_t s) { return s == 1; }) ||
        !llvm::all_of(op.getDilations().getValues<int64_t>(),
                      [](int64_t d) { return d == 1; }))
      return rewriter.notifyMatchFailure(op, "not a 1x1 unit-stride conv");
    // The named op reads the input at (h + 0, w + 0) and allows a larger
    // input; the contraction reads it at (h, w) and needs the same sizes.
    if (!input.hasStaticShape() || !output.hasStaticShape() ||
        input.getDimSize(1) != output.getDimSize(1) ||
        input.getDimSize(2) != output.getDimSize(2))
      return rewriter.notifyMatchFailure(op, "input and output pixels differ");
    Type element = output.getElementType();
    if (!isa<FloatType>(element) || input.getElementType() != element ||
        filter.getElementType() != element)
      return rewriter.notifyMatchFailure(op, "not one float type");
    MLIRContext *ctx = op.getContext();
    AffineExpr n, h, w, f, c;
    bindDims(ctx, n, h, w, f, c);
    // The filter as an F x C matrix, or with `contiguousFilters` as C x F
    // (K x N of a matmul: a row of output channels is contiguous, so a CPU
    // register block reads it as one vector; as F x C, a block's columns
    // were a strided gather per reduction step). A constant filter is
    // transposed here, at compile time; any other at run time, once per
    // call or once per tile (tileRoot). Its rows are not padded, unlike a
    // 3x3 filter's transposed once per call (padFilterTransposesOutsideNests
    // takes `conv_2d_nhwc_hwcf` readers only).
    Value filterMatrix;
    AffineMap filterMap = AffineMap::get(5, 0, {c, f}, ctx);
    DenseElementsAttr constant;
    if (contiguousFilters &&
        matchPattern(op.getInputs()[1], m_Constant(&constant))) {
      auto matrix = RankedTensorType::get(
          {filter.getDimSize(0), filter.getDimSize(3)}, element);
      filterMatrix = arith::ConstantOp::create(
          rewriter, op.getLoc(),
          permuteConstant(constant.reshape(matrix), ArrayRef<int64_t>{1, 0}));
    } else {
      filterMatrix = tensor::CollapseShapeOp::create(
          rewriter, op.getLoc(), op.getInputs()[1],
          ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
      if (contiguousFilters) {
        filterMatrix = transposeAtRunTime(rewriter, op.getLoc(), filterMatrix,
                                          ArrayRef<int64_t>{1, 0});
      } else {
        filterMap = AffineMap::get(5, 0, {f, c}, ctx);
      }
    }
    SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {n, h, w, c}, ctx),
                                   filterMap,
                                   AffineMap::get(5, 0, {n, h, w, f}, ctx)};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, op->getResultTypes(),
        ValueRange{op.getInputs()[0], filterMatrix}, op.getOutputs(), maps,
        iterators, yieldMultiplyAdd);
    return success();
  }
};

/// Bytes of padding after each row of `rowBytes` of a constant read a
/// vector at a time down its rows: one cache line where the rows are a
/// multiple of 1 KB apart. A core's L1 maps addresses 4 KB apart to the
/// same set, so rows 2 KB apart (512 f32 filters) all fall into 2 of its
/// 64 sets (and of L2's, 64 of 2048): a register block walking down them,
/// one vector per reduction step, misses every time. With a line more per
/// row they spread over every set.
static int64_t getRowPadding(int64_t rowBytes) {
  constexpr int64_t kCacheLine = 64, kAliasing = 1024;
  return rowBytes >= kAliasing && rowBytes % kAliasing == 0 ? kCacheLine : 0;
}

/// `attr` (row-major, innermost dimension the rows, not a splat, whole-byte
/// elements) with `pad` zero elements after each row: a new innermost size
/// of rows + pad.
static DenseElementsAttr padRows(DenseElementsAttr attr, int64_t pad) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t elementBytes = getElementBytes(type);
  int64_t rowBytes = type.getShape().back() * elementBytes;
  int64_t padBytes = pad * elementBytes;
  ArrayRef<char> raw = attr.getRawData();
  int64_t rows = type.getNumElements() / type.getShape().back();
  std::vector<char> data;
  data.reserve(rows * (rowBytes + padBytes));
  for (int64_t r = 0; r < rows; ++r) {
    data.insert(data.end(), raw.begin() + r * rowBytes,
                raw.begin() + (r + 1) * rowBytes);
    data.insert(data.end(), padBytes, 0);
  }
  SmallVector<int64_t> shape(type.getShape());
  shape.back() += pad;
  return DenseElementsAttr::getFromRawBuffer(type.clone(shape), data);
}

/// Elements of padding after each row of `rowElements` of `element`
/// (getRowPadding); none for elements not whole bytes.
static int64_t getRowPaddingElements(Type element, int64_t rowElements) {
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  int64_t bytes = getElementBytes(element);
  return getRowPadding(rowElements * bytes) / bytes;
}

/// The leading `type`-shaped slice of `value` (its rows without their
/// padding).
static Value sliceOffPadding(OpBuilder &builder, Location loc, Value value,
                             RankedTensorType type) {
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : type.getShape())
    sizes.push_back(builder.getIndexAttr(size));
  return tensor::ExtractSliceOp::create(builder, loc, type, value, offsets,
                                        sizes, strides);
}

/// Constant F x H x W x C filter `filter` permuted to H x W x C x F at
/// compile time, its rows padded.
static Value permuteFilterNow(OpBuilder &builder, Location loc,
                              DenseElementsAttr filter) {
  DenseElementsAttr permuted =
      permuteConstant(filter, ArrayRef<int64_t>{1, 2, 3, 0});
  auto type = cast<RankedTensorType>(permuted.getType());
  int64_t pad = permuted.isSplat() || !type.hasStaticShape()
                    ? 0
                    : getRowPaddingElements(type.getElementType(),
                                            type.getShape().back());
  if (pad == 0)
    return arith::ConstantOp::create(builder, loc, permuted);
  Value padded =
      arith::ConstantOp::create(builder, loc, padRows(permuted, pad));
  return sliceOffPadding(builder, loc, padded, type);
}

/// F x H x W x C filter `filter` (static) transposed to H x W x C x F at
/// run time. Its rows are padded only where tileRoot keeps the transpose out
/// of the nest (padWeightTransposeRows): a transpose computed per tile has
/// rows of the tile's width.
static Value transposeFilterAtRunTime(OpBuilder &builder, Location loc,
                                      Value filter) {
  return transposeAtRunTime(builder, loc, filter,
                            ArrayRef<int64_t>{1, 2, 3, 0});
}

void padWeightTransposeRows(RewriterBase &rewriter,
                            linalg::TransposeOp transpose) {
  auto type = cast<RankedTensorType>(transpose->getResult(0).getType());
  Type element = type.getElementType();
  if (!type.hasStaticShape() || type.getRank() == 0)
    return;
  int64_t pad = getRowPaddingElements(element, type.getShape().back());
  if (pad == 0)
    return;
  // The padded rows are the source's padded dimension transposed last.
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  Value source = transpose.getInput();
  auto sourceType = cast<RankedTensorType>(source.getType());
  Location loc = transpose.getLoc();
  rewriter.setInsertionPoint(transpose);
  SmallVector<OpFoldResult> low(sourceType.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> high(low);
  high[permutation.back()] = rewriter.getIndexAttr(pad);
  SmallVector<int64_t> paddedSource(sourceType.getShape());
  paddedSource[permutation.back()] += pad;
  Value zero = arith::ConstantOp::create(rewriter, loc, element,
                                         rewriter.getZeroAttr(element));
  Value padded = tensor::PadOp::create(
      rewriter, loc, RankedTensorType::get(paddedSource, element), source, low,
      high, zero);
  Value transposed = transposeAtRunTime(rewriter, loc, padded, permutation);
  rewriter.replaceOp(transpose,
                     sliceOffPadding(rewriter, loc, transposed, type));
}

/// A convolution reads its filter as H x W x C x F (`conv_2d_nhwc_hwcf`)
/// when `contiguousFilters` asks for it: a CPU register block's output
/// channels are then one vector load of the filter per reduction step
/// instead of a strided gather of F x H x W x C. A constant filter is
/// permuted at compile time; any other is transposed at run time
/// (`linalg.transpose`): once per call where tiles share filter columns,
/// tileRoot keeping the transpose out of the tile loops (3x3 56x56 64 -> 64
/// with its filter an argument: 27% of the FMA peak as a gather, 90%
/// transposed), its rows then padded like a constant's; once per tile where
/// each tile reads its own columns. A constant's rows of F a multiple of
/// 1 KB long get a cache line of padding (getRowPadding), read through a
/// slice that leaves it out. The same multiply-adds in the same order (both
/// ops reduce over kh, kw, c): values are unchanged.
struct FilterAsHwcf final : OpRewritePattern<linalg::Conv2DNhwcFhwcOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcOp op,
                                PatternRewriter &rewriter) const override {
    Value filter = op.getInputs()[1];
    DenseElementsAttr constant;
    Value hwcf;
    if (matchPattern(filter, m_Constant(&constant)) &&
        isa<RankedTensorType>(constant.getType())) {
      hwcf = permuteFilterNow(rewriter, op.getLoc(), constant);
    } else {
      auto type = dyn_cast<RankedTensorType>(filter.getType());
      if (!type || !type.hasStaticShape())
        return rewriter.notifyMatchFailure(op, "a dynamic filter");
      hwcf = transposeFilterAtRunTime(rewriter, op.getLoc(), filter);
    }
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, op->getResultTypes(), ValueRange{op.getInputs()[0], hwcf},
        op.getOutputs(), op.getStrides(), op.getDilations());
    return success();
  }
};

/// Whether `op`'s operands all have its result's element type, a float.
static bool hasOneFloatType(linalg::LinalgOp op) {
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  return isa<FloatType>(element) &&
         llvm::all_of(op->getOperandTypes(), [&](Type type) {
           return getElementTypeOrSelf(type) == element;
         });
}

/// Replaces convolution `op` (image, filter; one output) by a generic with
/// its loops, maps and multiply-add body but reading `filter` through
/// `filterMap`: the same multiply-adds in the same order.
static void replaceWithFilterRead(PatternRewriter &rewriter,
                                  linalg::LinalgOp op, Value filter,
                                  AffineMap filterMap) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[1] = filterMap;
  rewriter.replaceOpWithNewOp<linalg::GenericOp>(
      op, op->getResultTypes(), ValueRange{op.getDpsInputs()[0], filter},
      op.getDpsInits(), maps, op.getIteratorTypesArray(), yieldMultiplyAdd);
}

/// A grouped convolution whose filter is a constant reads it as
/// H x W x C x G x F (the filter permuted at compile time; no named op has
/// that layout, so a generic with the named op's loops, maps but the
/// filter's, and body) when `contiguousFilters` asks for it: a CPU register
/// block of groups by filters then reads its filter rows as one contiguous
/// run per reduction step instead of a gather of G x F values H x W x C
/// apart (ResNeXt-50's 3x3 convolutions: 9% of the FMA peak). The same
/// multiply-adds in the same order: values are unchanged.
struct ConstantGroupedFilterAsHwcgf final
    : OpRewritePattern<linalg::Conv2DNhwgcGfhwcOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwgcGfhwcOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr filter;
    if (!matchPattern(op.getInputs()[1], m_Constant(&filter)) ||
        !isa<RankedTensorType>(filter.getType()))
      return rewriter.notifyMatchFailure(op, "the filter is not a constant");
    if (!hasOneFloatType(op))
      return rewriter.notifyMatchFailure(op, "not one float type");
    MLIRContext *ctx = op.getContext();
    // Loops (n, oh, ow, g, f, kh, kw, c), as the named op has them.
    AffineExpr g = getAffineDimExpr(3, ctx), f = getAffineDimExpr(4, ctx),
               kh = getAffineDimExpr(5, ctx), kw = getAffineDimExpr(6, ctx),
               c = getAffineDimExpr(7, ctx);
    if (op.getIndexingMapsArray()[1] !=
        AffineMap::get(8, 0, {g, f, kh, kw, c}, ctx))
      return rewriter.notifyMatchFailure(op, "unexpected filter map");
    // [G, F, KH, KW, C] -> [KH, KW, C, G, F]
    Value hwcgf = arith::ConstantOp::create(
        rewriter, op.getLoc(),
        permuteConstant(filter, ArrayRef<int64_t>{2, 3, 4, 0, 1}));
    replaceWithFilterRead(rewriter, op, hwcgf,
                          AffineMap::get(8, 0, {kh, kw, c, g, f}, ctx));
    return success();
  }
};

/// A 3-D convolution reads its filter as F x D x H x W x C, TOSA's layout
/// (the input of the transpose TOSA's lowering writes to D x H x W x C x F,
/// or a constant permuted at compile time; no named op has that layout, so
/// a generic with the named op's loops, maps but the filter's, and body)
/// on the GPU, where `contiguousFilters` is off: both inputs then end in
/// the input channels, as a 2-D convolution's (`conv_2d_nhwc_fhwc`) do, so
/// that the kernel stages chunks of channels in shared memory and
/// register-tiles the output (fuse-distribute-tiles) instead of one thread
/// a point reading global memory (R3D-18's kernels spilled up to 164 bytes
/// that way). The same multiply-adds in the same order: values are
/// unchanged.
struct Conv3DFilterAsFdhwc final
    : OpRewritePattern<linalg::Conv3DNdhwcDhwcfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv3DNdhwcDhwcfOp op,
                                PatternRewriter &rewriter) const override {
    Value dhwcf = op.getInputs()[1];
    auto transpose = dhwcf.getDefiningOp<linalg::TransposeOp>();
    bool fromFdhwc = transpose && transpose.getPermutation() ==
                                      ArrayRef<int64_t>{1, 2, 3, 4, 0};
    DenseElementsAttr filter;
    if (!fromFdhwc && !(matchPattern(dhwcf, m_Constant(&filter)) &&
                        isa<RankedTensorType>(filter.getType())))
      return rewriter.notifyMatchFailure(
          op, "the filter is neither a constant nor transposed from F first");
    if (!hasOneFloatType(op))
      return rewriter.notifyMatchFailure(op, "not one float type");
    MLIRContext *ctx = op.getContext();
    // Loops (n, od, oh, ow, f, kd, kh, kw, c), as the named op has them.
    AffineExpr f = getAffineDimExpr(4, ctx), kd = getAffineDimExpr(5, ctx),
               kh = getAffineDimExpr(6, ctx), kw = getAffineDimExpr(7, ctx),
               c = getAffineDimExpr(8, ctx);
    if (op.getIndexingMapsArray()[1] !=
        AffineMap::get(9, 0, {kd, kh, kw, c, f}, ctx))
      return rewriter.notifyMatchFailure(op, "unexpected filter map");
    // [KD, KH, KW, C, F] -> [F, KD, KH, KW, C]
    Value fdhwc =
        fromFdhwc
            ? transpose.getInput()
            : arith::ConstantOp::create(
                  rewriter, op.getLoc(),
                  permuteConstant(filter, ArrayRef<int64_t>{4, 0, 1, 2, 3}))
                  .getResult();
    replaceWithFilterRead(rewriter, op, fdhwc,
                          AffineMap::get(9, 0, {f, kd, kh, kw, c}, ctx));
    return success();
  }
};

bool isCheapToRecompute(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumLoops() != generic.getNumParallelLoops() ||
      generic.getNumResults() != 1)
    return false;
  Block *body = generic.getBody();
  if (body->getOperations().size() > 3)
    return false;
  return llvm::all_of(body->without_terminator(), [](Operation &inner) {
    return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::NegFOp,
               arith::AddIOp, arith::SubIOp, arith::MulIOp>(inner);
  });
}

/// A generic input that is one broadcast element (a scalar constant of
/// shape 1x1x1 read at `(d0, d1, d2) -> (0, 0, 0)`) becomes a scalar the
/// payload uses directly. Its indexing map is no projected permutation, so
/// while it is an operand the reshape-expansion patterns cannot move views
/// through the op (attention's `Q·Kᵀ * scale` behind the view that merges
/// batch and heads).
struct ScalarizeBroadcastElement final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    OpOperand *scalar = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      AffineMap map = op.getMatchingIndexingMap(input);
      if (type && type.hasStaticShape() && type.getNumElements() == 1 &&
          map.getNumResults() > 0 &&
          llvm::all_of(map.getResults(), [](AffineExpr e) {
            return isa<AffineConstantExpr>(e);
          })) {
        scalar = input;
        break;
      }
    }
    if (!scalar)
      return rewriter.notifyMatchFailure(op, "no broadcast element operand");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(scalar->get().getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(type.getRank(), zero);
    Value element =
        tensor::ExtractOp::create(rewriter, loc, scalar->get(), indices);

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : op->getOpOperands()) {
      if (&operand == scalar)
        continue;
      if (op.isDpsInput(&operand))
        inputs.push_back(operand.get());
      maps.push_back(op.getMatchingIndexingMap(&operand));
    }
    auto replacement = linalg::GenericOp::create(
        rewriter, loc, op.getResultTypes(), inputs, op.getDpsInits(), maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), replacement.getRegion(),
                                replacement.getRegion().begin());
    Block &body = replacement.getRegion().front();
    unsigned argIndex = scalar->getOperandNumber();
    rewriter.replaceAllUsesWith(body.getArgument(argIndex), element);
    rewriter.modifyOpInPlace(replacement, [&] { body.eraseArgument(argIndex); });
    replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, replacement.getResults());
    return success();
  }
};

/// consumer(producer) where the consumer reads the producer's result at
/// constant index 0 along dimensions that only the producer's output has
/// (unit loops no input reads: a reciprocal of a row sum kept as 4x8x1)
/// -> the producer without those loops and dimensions (4x8), read by the
/// consumer without them. The consumer's map becomes a projected
/// permutation, so that reshape expansion can move views through it; no
/// reshape is created.
struct DropOutputOnlyUnitDims final : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *use : consumer.getDpsInputOperands()) {
      auto producer = use->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || producer->getNumResults() != 1 ||
          !producer->hasOneUse() || producer.hasIndexSemantics() ||
          producer.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() ==
              nullptr)
        continue;
      auto type = cast<RankedTensorType>(use->get().getType());
      AffineMap readMap = consumer.getMatchingIndexingMap(use);
      AffineMap outMap =
          producer.getMatchingIndexingMap(producer.getDpsInitOperand(0));
      SmallVector<int64_t> ranges = producer.getStaticLoopRanges();
      llvm::SmallBitVector droppedLoops(producer.getNumLoops());
      SmallVector<int64_t> droppedPositions;
      for (auto [i, expr] : llvm::enumerate(readMap.getResults())) {
        auto constant = dyn_cast<AffineConstantExpr>(expr);
        auto loop = dyn_cast<AffineDimExpr>(outMap.getResult(i));
        if (!constant || constant.getValue() != 0 || type.getDimSize(i) != 1 ||
            !loop || ranges[loop.getPosition()] != 1)
          continue;
        bool read = llvm::any_of(producer.getDpsInputOperands(),
                                 [&](OpOperand *input) {
          return producer.getMatchingIndexingMap(input).isFunctionOfDim(
              loop.getPosition());
        });
        if (read)
          continue;
        droppedLoops.set(loop.getPosition());
        droppedPositions.push_back(i);
      }
      if (droppedPositions.empty())
        continue;

      SmallVector<AffineMap> maps;
      for (OpOperand *input : producer.getDpsInputOperands())
        maps.push_back(
            compressDims(producer.getMatchingIndexingMap(input), droppedLoops));
      maps.push_back(
          compressDims(outMap.dropResults(droppedPositions), droppedLoops));
      SmallVector<utils::IteratorType> iterators;
      for (auto [i, it] : llvm::enumerate(producer.getIteratorTypesArray()))
        if (!droppedLoops.test(i))
          iterators.push_back(it);
      SmallVector<int64_t> shape;
      for (auto [i, size] : llvm::enumerate(type.getShape()))
        if (!llvm::is_contained(droppedPositions, static_cast<int64_t>(i)))
          shape.push_back(size);
      Location loc = producer.getLoc();
      rewriter.setInsertionPoint(producer);
      Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                           type.getElementType());
      auto smaller = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, producer.getDpsInputs(),
          ValueRange{init}, maps, iterators);
      rewriter.inlineRegionBefore(producer.getRegion(), smaller.getRegion(),
                                  smaller.getRegion().begin());
      SmallVector<AffineMap> consumerMaps = consumer.getIndexingMapsArray();
      consumerMaps[use->getOperandNumber()] =
          readMap.dropResults(droppedPositions);
      rewriter.modifyOpInPlace(consumer, [&] {
        use->set(smaller.getResult(0));
        consumer.setIndexingMapsAttr(
            rewriter.getAffineMapArrayAttr(consumerMaps));
      });
      rewriter.eraseOp(producer);
      return success();
    }
    return rewriter.notifyMatchFailure(consumer, "no output-only unit dims");
  }
};

void cleanUpBody(GroupOp group) {
  MLIRContext *ctx = group.getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<GeneralizeReshapedNamedOp, ScalarizeBroadcastElement,
               DropOutputOnlyUnitDims, FoldUnitCollapseIntoProducer>(ctx);
  patterns.add<FoldUnitExpandIntoConsumer, FoldUnitCollapseIntoConsumer>(ctx);
  patterns.add<SwapSliceWithProducer>(ctx);
  tensor::populateBubbleUpExtractSliceOpPatterns(patterns);
  tensor::populateBubbleUpExpandShapePatterns(patterns);
  // Reshapes between structured ops (views the graph or the layout stage
  // left) move out of the way by expanding the ops' loops.
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *) { return true; });
  tensor::populateFoldTensorEmptyPatterns(patterns);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.setMaxIterations(8);
  (void)applyPatternsGreedily(group.getBody(), std::move(patterns), config);
}

void convertOneByOneConvs(GroupOp group, bool contiguousFilters) {
  MLIRContext *ctx = group.getContext();
  if (contiguousFilters) {
    // A convolution's filter that is a slice of a constant (one of two
    // convolutions of one input merged side by side, split again after
    // the slices of their results bubbled up) becomes a constant of its
    // own, so that the patterns below permute it at compile time instead
    // of once per tile at run time (ResNet-50's first 1x1 convolutions,
    // 64 -> 64 + 256 filters: 22 GFLOP/s with a tile-wise transpose).
    RewritePatternSet folds(ctx);
    tensor::populateFoldConstantExtractSlicePatterns(
        folds, [](tensor::ExtractSliceOp slice) {
          return llvm::any_of(slice->getUsers(), [](Operation *user) {
            return isa<linalg::ConvolutionOpInterface>(user);
          });
        });
    (void)applyPatternsGreedily(group.getBody(), std::move(folds));
  }
  RewritePatternSet patterns(ctx);
  // The 1x1 convolutions first: as contractions they tile as matmuls.
  patterns.add<OneByOneConvAsContraction>(ctx, contiguousFilters,
                                          /*benefit=*/2);
  if (contiguousFilters)
    patterns.add<FilterAsHwcf, ConstantGroupedFilterAsHwcgf>(ctx);
  else
    patterns.add<Conv3DFilterAsFdhwc>(ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(group.getBody(), std::move(patterns));
}

/// An elementwise generic that `mergeSiblingReaders` may merge: all loops
/// parallel, one result at the identity map whose init (a tensor.empty) it
/// does not read, no op with effects in its payload, and a result of
/// `producer` among its inputs at the identity map.
static bool isMergeableReader(linalg::GenericOp op, Operation *producer) {
  if (op.getNumResults() != 1 || op.getNumLoops() != op.getNumParallelLoops() ||
      !op.hasPureTensorSemantics() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      !op.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return false;
  if (llvm::any_of(op.getBody()->without_terminator(), [](Operation &inner) {
        return !isMemoryEffectFree(&inner);
      }))
    return false;
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    return input->get().getDefiningOp() == producer &&
           op.getMatchingIndexingMap(input).isIdentity();
  });
}

/// `readers` as one generic with a result each, right after `producer`
/// (every input of theirs is defined before it or by it).
static linalg::GenericOp mergeReaders(RewriterBase &rewriter,
                                      Operation *producer,
                                      ArrayRef<linalg::GenericOp> readers) {
  rewriter.setInsertionPointAfter(producer);
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> maps;
  for (linalg::GenericOp reader : readers)
    for (OpOperand *in : reader.getDpsInputOperands()) {
      inputs.push_back(in->get());
      maps.push_back(reader.getMatchingIndexingMap(in));
    }
  for (linalg::GenericOp reader : readers) {
    auto type = cast<RankedTensorType>(reader->getResult(0).getType());
    inits.push_back(tensor::EmptyOp::create(
        rewriter, reader.getLoc(), type.getShape(), type.getElementType()));
    maps.push_back(reader.getMatchingIndexingMap(reader.getDpsInitOperand(0)));
  }
  auto merged = linalg::GenericOp::create(
      rewriter, producer->getLoc(), ValueRange(inits).getTypes(), inputs, inits,
      maps, linalg::GenericOp(readers.front()).getIteratorTypesArray());
  Block *block = rewriter.createBlock(&merged.getRegion());
  for (Value v : llvm::concat<Value>(inputs, inits))
    block->addArgument(getElementTypeOrSelf(v.getType()), v.getLoc());
  rewriter.setInsertionPointToStart(block);
  SmallVector<Value> yielded;
  unsigned nextInput = 0, nextInit = inputs.size();
  for (linalg::GenericOp reader : readers) {
    IRMapping mapping;
    Block *payload = reader.getBody();
    unsigned numInputs = reader.getNumDpsInputs();
    for (unsigned i = 0; i < numInputs; ++i)
      mapping.map(payload->getArgument(i), block->getArgument(nextInput++));
    mapping.map(payload->getArgument(numInputs),
                block->getArgument(nextInit++));
    for (Operation &inner : payload->without_terminator())
      rewriter.clone(inner, mapping);
    yielded.push_back(
        mapping.lookupOrDefault(payload->getTerminator()->getOperand(0)));
  }
  linalg::YieldOp::create(rewriter, merged.getLoc(), yielded);
  for (auto [reader, result] : llvm::zip(readers, merged->getResults()))
    rewriter.replaceOp(reader, result);
  return merged;
}

void mergeSiblingReaders(GroupOp group) {
  IRRewriter rewriter(group.getContext());
  Block &body = group.getBodyBlock();
  // The contractions and window ops first, then each merged generic (the
  // next level of a chain of elementwise ops, DenseNet's multiply, add and
  // ReLU per later layer, reads one result each of the level before) and
  // each lone elementwise reader.
  SmallVector<Operation *> worklist;
  for (Operation &op : body.without_terminator())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
        linalgOp && linalgOp.getNumReductionLoops() > 0)
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *producer = worklist.pop_back_val();
    SmallVector<linalg::GenericOp> readers;
    for (Operation *user : producer->getUsers()) {
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (generic && generic->getBlock() == &body &&
          !llvm::is_contained(readers, generic) &&
          isMergeableReader(generic, producer))
        readers.push_back(generic);
    }
    // One reader (an average pool's division, a bias) is the producer of
    // the next level.
    if (readers.size() == 1)
      worklist.push_back(readers.front());
    if (readers.size() < 2)
      continue;
    // Each input defined before the producer, or by it (constants, the
    // producer's results); the inits are new empties.
    auto available = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return !def || def->getBlock() != &body || def == producer ||
             def->isBeforeInBlock(producer);
    };
    if (!llvm::all_of(readers, [&](linalg::GenericOp reader) {
          return llvm::all_of(reader.getDpsInputOperands(), [&](OpOperand *in) {
            return available(in->get());
          });
        }))
      continue;
    worklist.push_back(mergeReaders(rewriter, producer, readers));
  }
}

} // namespace mlir::fuse::tiling
