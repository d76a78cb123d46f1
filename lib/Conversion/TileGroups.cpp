//===- TileGroups.cpp - One loop nest per fuse.group ----------------------===//
//
// Makes each `fuse.group` one kernel: a single `scf.forall` loop nest over
// tiles of the group's root op, in which every other op of the group is
// fused (computed for the tile that needs it). Intermediates then live in
// per-tile temporaries instead of whole tensors; only the group's inputs and
// results touch memory.
//
// 1. Index changes: input and result permutations of the group become
//    transposes inside its body, so that tiling fuses them: the kernel reads
//    and writes through the permuted indices, no copy is made.
// 2. The body goes to linalg-on-tensors (upstream TOSA conversion patterns,
//    applied inside the group). What tile-and-fuse cannot fuse through is
//    cleared first: the unit-dim reshapes the lowering puts after reductions
//    are folded into their readers' indexing maps; a slice of a structured
//    op's result becomes that op computing the slice (slices move up
//    through views to reach it); reshapes between structured ops move out
//    by expanding the ops' loops (a contraction whose result is viewed is
//    generalized for this; a unit-dim view of one is folded into it). A
//    result that is data movement over a concatenation (a channel shuffle)
//    is cut into pieces that each copy or compute a strided box of it
//    (SplitCopies.h), so that no nest reads the concatenation whole.
// 3. The roots are the ops computing the group's results (through views and
//    the inserts of concats and pieces). Each, in program order, is tiled with
//    `scf.forall` over its parallel loops (upstream TilingInterface tile and
//    fuse), and its producers are fused greedily; producers the group also
//    returns are yielded from the nest. A root another root reads row-wise is
//    fused into that root's nest instead. Tile sizes: as many rows as fit
//    `min-tile-elements` results, the rest whole, so a tile is a set of
//    contiguous rows with their reductions; with a reduction fused in, rows
//    always stay whole (no recomputation). A range with no good divisor
//    (197 tokens) gets a partial last tile, and the nest is peeled into one
//    over the whole tiles and one over the last tile (PeelTiles.h), both of
//    static shapes. Independent nests over the same tiles are merged into
//    one; a merged nest whose results are parts of one concat writes the
//    concat (NestInserts.h).
// 4. Inside a tile, the copies of a producer that tile-and-fuse makes per
//    reader are merged (CSE), then chains of elementwise ops are fused into
//    one loop body (upstream elementwise fusion): their intermediates are
//    scalars.
// 5. A group that still needs more than one nest is reported with
//    `report-nests`, with how many of its nests read another's results
//    (through a view the expansion cannot move, a concat an elementwise op
//    reads): those need a grid-wide barrier, the others merge later.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Layout/Permutation.h"
#include "FuseDialect/Transforms/VerifyInput.h"
#include "NestInserts.h"
#include "PeelTiles.h"
#include "SplitCopies.h"
#include "TileLoops.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

#define DEBUG_TYPE "fuse-tile-groups"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETILEGROUPSPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Moves the group's index changes into its body as transposes.
void materializeIndexChanges(GroupOp group) {
  if (!group.hasIndexChanges())
    return;
  Block &body = group.getBodyBlock();
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    ArrayRef<int64_t> perm = group.getInputPermutation(i);
    if (perm.empty())
      continue;
    arg.setType(group.getInputs()[i].getType());
    Value transposed = createTranspose(builder, group.getLoc(), arg, perm);
    arg.replaceAllUsesExcept(transposed, transposed.getDefiningOp());
  }
  YieldOp yield = group.getYield();
  builder.setInsertionPoint(yield);
  for (OpOperand &operand : yield->getOpOperands()) {
    ArrayRef<int64_t> perm =
        group.getResultPermutation(operand.getOperandNumber());
    operand.set(createTranspose(builder, group.getLoc(), operand.get(), perm));
  }
  group.setInputPermutationsAttr(nullptr);
  group.setResultPermutationsAttr(nullptr);
}

/// TOSA in the body to linalg, tensor and arith.
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
std::optional<SmallVector<int64_t>>
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
bool hasLoopRanges(ArrayRef<AffineMap> maps) {
  return !maps.empty() &&
         inversePermutation(concatAffineMaps(maps, maps.front().getContext()));
}

/// Makes `operand` of `op` read `source` through `map` instead, unless a
/// loop would then have no range (it was a plain dim of that operand only).
LogicalResult readThrough(PatternRewriter &rewriter, linalg::GenericOp op,
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
  using OpRewritePattern::OpRewritePattern;
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
    SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {n, h, w, c}, ctx),
                                   AffineMap::get(5, 0, {f, c}, ctx),
                                   AffineMap::get(5, 0, {n, h, w, f}, ctx)};
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value filterMatrix = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(), op.getInputs()[1],
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, op->getResultTypes(),
        ValueRange{op.getInputs()[0], filterMatrix}, op.getOutputs(), maps,
        iterators, [](OpBuilder &b, Location loc, ValueRange args) {
          Value product = arith::MulFOp::create(b, loc, args[0], args[1]);
          linalg::YieldOp::create(
              b, loc, ValueRange{arith::AddFOp::create(b, loc, args[2],
                                                       product)});
        });
    return success();
  }
};

/// Whether `op` is an elementwise generic of at most a few arithmetic ops
/// (no math functions, no division), cheap enough to compute again in each
/// of its readers.
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

/// A reduction whose input an elementwise op computes for it alone becomes
/// its generic form, which elementwise fusion (generic ops only) can then
/// fold that op into: a tile reduces `(x - mean)^2` as it computes it,
/// instead of writing the squares to a tile buffer and reading them back.
struct GeneralizeFusibleReduce final : OpRewritePattern<linalg::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::ReduceOp op,
                                PatternRewriter &rewriter) const override {
    bool fusible = llvm::any_of(op.getInputs(), [](Value input) {
      auto producer = input.getDefiningOp<linalg::GenericOp>();
      return producer && producer->hasOneUse() &&
             producer.getNumLoops() == producer.getNumParallelLoops();
    });
    if (!fusible)
      return rewriter.notifyMatchFailure(op, "no elementwise producer");
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

// The next two patterns do, for the operands reshape expansion needs, what
// upstream's unit-dimension folding (linalg::dropUnitDims) does for whole
// ops; that one inserts reshapes, which the expansion patterns then undo in
// a loop (tried: unit dimensions multiplied until the iteration cap).

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

/// 1x1 convolutions as contractions, after the reshape clean-up (whose
/// expansion patterns would move the filter's collapse back into the op).
void convertOneByOneConvs(GroupOp group) {
  MLIRContext *ctx = group.getContext();
  RewritePatternSet patterns(ctx);
  patterns.add<OneByOneConvAsContraction>(ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(group.getBody(), std::move(patterns));
}

/// Whether `op` has no reduction, or reduces only the innermost dimensions
/// of each input (a row sum; not a column sum, not a matmul's right-hand
/// operand).
bool reducesInnermost(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return !isa<TilingInterface>(op);
  if (linalgOp.getNumReductionLoops() == 0)
    return true;
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    AffineMap map = linalgOp.getMatchingIndexingMap(input);
    bool seenParallel = false;
    for (AffineExpr expr : llvm::reverse(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return false;
      bool reduction =
          linalg::isReductionIterator(
              linalgOp.getIteratorTypesArray()[dim.getPosition()]);
      if (reduction && seenParallel)
        return false;
      seenParallel |= !reduction;
    }
  }
  return true;
}

/// Whether `op` is a pool whose windows tile its input exactly (stride =
/// window, no dilation, input extents a multiple of the window): its tiles
/// read disjoint parts of the input that together cover all of it, so the
/// input's producer can be computed in the pool's loop nest and yielded
/// from it, each element once (a conv's activation that the group also
/// returns, U-Net and VGG).
bool isExactDisjointPool(Operation *op) {
  auto check = [](auto pool) {
    auto input = dyn_cast<RankedTensorType>(pool.getInputs()[0].getType());
    auto window = dyn_cast<ShapedType>(pool.getInputs()[1].getType());
    auto output = dyn_cast<RankedTensorType>(pool.getOutputs()[0].getType());
    if (!input || !window || !output || !input.hasStaticShape() ||
        !window.hasStaticShape() || !output.hasStaticShape())
      return false;
    for (unsigned i = 0; i < 2; ++i) {
      int64_t k = window.getDimSize(i);
      if (pool.getStrides().template getValues<int64_t>()[i] != k ||
          pool.getDilations().template getValues<int64_t>()[i] != 1 ||
          input.getDimSize(i + 1) != output.getDimSize(i + 1) * k)
        return false;
    }
    return true;
  };
  if (auto pool = dyn_cast<linalg::PoolingNhwcMaxOp>(op))
    return check(pool);
  if (auto pool = dyn_cast<linalg::PoolingNhwcSumOp>(op))
    return check(pool);
  if (auto pool = dyn_cast<linalg::PoolingNhwcMinOp>(op))
    return check(pool);
  return false;
}

/// The ops whose tiles drive the loop nests: those computing the yielded
/// values, looking through the reshapes (views) and the inserts into a
/// concat's destination (written in place) that may follow them, in program
/// order. Values already computed by a loop nest are skipped.
SmallVector<TilingInterface> findRoots(GroupOp group) {
  SetVector<Operation *> roots;
  llvm::SmallPtrSet<Operation *, 16> visited;
  for (Value result : llvm::reverse(group.getYield().getValues())) {
    SmallVector<Value> values = {result};
    while (!values.empty()) {
      Value v = values.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (def && !visited.insert(def).second)
        continue;
      if (!def || def->getParentOp() != group)
        continue;
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
        values.push_back(def->getOperand(0));
      } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
        // Each insert of a chain into one destination (the pieces of a
        // concat or of a split copy chain).
        values.push_back(insert.getDest());
        values.push_back(insert.getSource());
      } else if (isa<TilingInterface>(def)) {
        roots.insert(def);
      }
    }
  }
  // A root another root reads (a residual sum returned and also normalized)
  // is fused into that root's nest and yielded from it, not tiled apart,
  // when the two are row-wise over the same tiles (same result type, every
  // reduction innermost) and every reader of it is fused into that nest or
  // reads the root's result (views after the nest). Otherwise each tile
  // would recompute it whole and all of them would write it, or a reader
  // outside the nest would be rewired to a value defined after it.
  llvm::SmallPtrSet<Operation *, 8> producers;
  Block &body = group.getBodyBlock();
  BackwardSliceOptions backward;
  backward.filter = [&](Operation *op) { return op->getParentOp() == group; };
  for (Operation *root : roots) {
    if (!reducesInnermost(root))
      continue;
    SetVector<Operation *> slice, afterRoot;
    (void)getBackwardSlice(root, &slice, backward);
    getForwardSlice(root, &afterRoot);
    for (Operation *other : roots) {
      if (other == root || !slice.contains(other) ||
          other->getResultTypes() != root->getResultTypes() ||
          !reducesInnermost(other))
        continue;
      SetVector<Operation *> readers;
      getForwardSlice(other, &readers);
      bool fusedWhole = llvm::all_of(readers, [&](Operation *op) {
        // A reader nested in a region counts as the op holding it.
        Operation *top = body.findAncestorOpInBlock(*op);
        if (!top || isa<YieldOp>(top) || top == root || afterRoot.contains(top))
          return true;
        // What tile-and-fuse cannot fuse through (a view) stays outside.
        return isa<TilingInterface>(top) && slice.contains(top) &&
               reducesInnermost(top);
      });
      if (fusedWhole)
        producers.insert(other);
    }
  }
  // A root that an exactly tiling pool root reads directly, and nothing
  // else in the group reads, is computed in the pool's nest and yielded
  // from it.
  for (Operation *root : roots) {
    if (!isExactDisjointPool(root))
      continue;
    Operation *input = root->getOperand(0).getDefiningOp();
    // Not a pad: the nest cannot yield its tiles (see tileRoot).
    if (!input || input == root || !roots.contains(input) ||
        input->getNumResults() != 1 || isa<tensor::PadOp>(input))
      continue;
    // (An insert of it into a concat's destination reads it whole from the
    // nest's result, as a yield does: U-Net's skip connections.)
    if (llvm::all_of(input->getUsers(), [&](Operation *user) {
          auto insert = dyn_cast<tensor::InsertSliceOp>(user);
          return user == root || isa<YieldOp>(user) ||
                 (insert && insert.getSource() == input->getResult(0));
        }))
      producers.insert(input);
  }
  // Earliest first: a later root may read an earlier one's results (through
  // the values the earlier nest yields), never the other way round.
  SmallVector<TilingInterface> result;
  for (Operation *op : roots)
    if (!producers.contains(op))
      result.push_back(cast<TilingInterface>(op));
  llvm::sort(result, [](TilingInterface a, TilingInterface b) {
    return a->isBeforeInBlock(b);
  });
  return result;
}

/// How tiles are shaped (the pass's options).
struct TilePolicy {
  int64_t minTileElements;
  /// Square tiles of at most this side over a contraction's two innermost
  /// parallel loops (0: rows, like every other op).
  int64_t contractionTile;
  /// The side halves, down to 32, while there are fewer tiles than this.
  int64_t contractionTiles;
  /// A range without a good divisor is tiled with a partial last tile
  /// (peeled into a nest of its own) instead of by its best divisor.
  bool partialTiles;
};

/// Tile sizes: the outer parallel loops are tiled by 1, outermost first,
/// until the loops inside hold at most `minTileElements` results; the last
/// loop tiled then takes as many iterations as fit (a divisor of its range,
/// or with `partialTiles` all that fit when no divisor is at least half of
/// that), the loops inside stay whole (a tile is a set of contiguous rows).
/// Unit loops and reductions are never tiled (a tile reduces its rows
/// completely), and with `keepRows` neither is the innermost parallel loop.
SmallVector<OpFoldResult> getTileSizes(OpBuilder &builder, TilingInterface op,
                                       const TilePolicy &policy, bool keepRows,
                                       bool contraction) {
  int64_t minTileElements = policy.minTileElements;
  SmallVector<utils::IteratorType> iterators = op.getLoopIteratorTypes();
  SmallVector<OpFoldResult> sizes(iterators.size(), builder.getIndexAttr(0));
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
  if (!linalgOp)
    return sizes;
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  // With a reduction fused in (softmax, LayerNorm before a matmul), a tile
  // smaller than a row would recompute the row's reduction per tile: the
  // innermost parallel loop stays whole.
  int innermost = -1;
  for (auto [i, it] : llvm::enumerate(iterators))
    if (it == utils::IteratorType::parallel)
      innermost = i;
  if (keepRows && innermost >= 0 && ranges[innermost] > 1)
    iterators[innermost] = utils::IteratorType::reduction;
  // Results per tile if nothing were tiled (the kept rows included).
  int64_t tileElements = 1;
  for (auto [i, it] : llvm::enumerate(op.getLoopIteratorTypes()))
    if (it == utils::IteratorType::parallel)
      tileElements *= ShapedType::isDynamic(ranges[i]) ? 1 : ranges[i];
  // The largest divisor of `range` at most `limit`: whole tiles.
  auto divisorAtMost = [](int64_t range, int64_t limit) {
    for (int64_t d = std::min(range, std::max<int64_t>(limit, 1)); d > 1; --d)
      if (range % d == 0)
        return d;
    return int64_t(1);
  };
  // A tile of at most `limit` iterations: whole tiles when a divisor is
  // more than half the limit; otherwise (197 tokens: 1) the limit itself,
  // and the last tile is partial (peelPartialTiles makes both kinds static).
  auto tileAtMost = [&](int64_t range, int64_t limit) {
    int64_t divisor = divisorAtMost(range, limit);
    limit = std::min(range, std::max<int64_t>(limit, 1));
    return !policy.partialTiles || 2 * divisor > limit ? divisor : limit;
  };
  // A contraction (matmul, batch matmul) reuses each operand along the
  // other's parallel loop: a square tile of the two innermost parallel loops
  // of the contraction (or of its epilogue, over the same iteration space;
  // the rest tiled by 1) lets a GPU block stage both operands' slices in
  // shared memory once for the whole tile (fuse-distribute-tiles).
  if (policy.contractionTile > 1 && !keepRows && contraction &&
      linalgOp.hasPureTensorSemantics() && !linalgOp.hasDynamicShape()) {
    SmallVector<unsigned> parallel;
    linalgOp.getParallelDims(parallel);
    if (parallel.size() >= 2) {
      unsigned m = parallel[parallel.size() - 2], n = parallel.back();
      // Larger tiles reuse each staged element more, smaller ones keep more
      // processors busy: the largest side that still gives enough tiles.
      auto numTiles = [&](int64_t mTile, int64_t nTile) {
        int64_t tiles = llvm::divideCeil(ranges[m], mTile) *
                        llvm::divideCeil(ranges[n], nTile);
        for (unsigned d : parallel)
          if (d != m && d != n)
            tiles *= ranges[d];
        return tiles;
      };
      int64_t side = policy.contractionTile;
      auto squareTiles = [&](int64_t side) {
        return numTiles(tileAtMost(ranges[m], side),
                        tileAtMost(ranges[n], side));
      };
      while (side / 2 >= 32 && squareTiles(side) < policy.contractionTiles)
        side /= 2;
      int64_t mTile = tileAtMost(ranges[m], side);
      int64_t nTile = tileAtMost(ranges[n], side);
      // A side without a good divisor (197 tokens tile by 1 without partial
      // tiles; 100 by 50) leaves a thin
      // tile whose few points would idle most of a block's threads: the
      // other side widens towards the square's area (at most four sides),
      // as far as enough tiles remain.
      bool widenN = mTile < side && nTile >= mTile;
      bool widenM = !widenN && nTile < side && mTile > nTile;
      if (widenN || widenM) {
        int64_t &thin = widenN ? mTile : nTile;
        int64_t &wide = widenN ? nTile : mTile;
        int64_t range = ranges[widenN ? n : m];
        for (int64_t limit = std::min(4 * side, side * side / thin);
             limit > wide; limit /= 2) {
          int64_t widened = tileAtMost(range, limit);
          if ((widenN ? numTiles(mTile, widened)
                      : numTiles(widened, nTile)) >= policy.contractionTiles) {
            wide = std::max(wide, widened);
            break;
          }
        }
      }
      for (unsigned d : parallel)
        sizes[d] = builder.getIndexAttr(ranges[d] == 1 ? 0 : 1);
      sizes[m] = builder.getIndexAttr(mTile);
      sizes[n] = builder.getIndexAttr(nTile);
      if (llvm::any_of(parallel, [&](unsigned d) {
            return ranges[d] > 1 &&
                   getConstantIntValue(sizes[d]) != ranges[d];
          }))
        return sizes;
    }
    // A single tile: split as any other small group.
    sizes.assign(iterators.size(), builder.getIndexAttr(0));
  }
  bool tiled = false;
  for (auto [i, it] : llvm::enumerate(iterators)) {
    // Unit loops stay untiled: a trip count of one adds a loop dimension
    // that makes otherwise equal nests unmergeable.
    if (it != utils::IteratorType::parallel || ShapedType::isDynamic(ranges[i]) ||
        ranges[i] == 1)
      continue;
    if (tileElements <= minTileElements)
      break;
    int64_t inner = tileElements / std::max<int64_t>(1, ranges[i]);
    // The last loop tiled takes as many of its iterations as fit, so that
    // a tile is several rows, not one (fewer, larger tiles: less halo
    // recomputed around convolutions, less per-tile overhead).
    int64_t size = inner <= minTileElements
                       ? tileAtMost(ranges[i], minTileElements / inner)
                       : 1;
    sizes[i] = builder.getIndexAttr(size);
    tileElements = inner * size;
    tiled |= ranges[i] > size;
  }
  // A group smaller than one tile still needs one loop nest: split its
  // first non-unit parallel loop, in as few tiles as possible (a
  // single-trip loop would fold away and leave one nest per op).
  if (!tiled)
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::parallel &&
          !ShapedType::isDynamic(ranges[i]) && ranges[i] > 1) {
        sizes[i] = builder.getIndexAttr(divisorAtMost(ranges[i], ranges[i] / 2));
        break;
      }
  return sizes;
}

/// Tiles `root` and fuses its producers into the loop nest.
/// The tile sizes of `root` in `group`.
SmallVector<OpFoldResult> getRootTileSizes(OpBuilder &builder, GroupOp group,
                                           TilingInterface root,
                                           const TilePolicy &policy,
                                           bool onlyRoot) {
  // Any reduction in the group other than the root's own (a conservative
  // stand-in for the ones fused into this nest).
  bool fusedReduction = false;
  // The root is a contraction, or an epilogue of one with the same shape
  // (a matmul followed by bias and activation). Only for a group's only
  // root: sibling nests merge only when their tiles are alike.
  bool contraction = false;
  // The same result space up to unit dims (a matmul's 1x1x1000 result
  // read as 1x1000 by its bias add), of any element type (an f16 matmul's
  // result cast to f32).
  auto nonUnitShape = [](Type type) {
    SmallVector<int64_t> shape;
    if (auto ranked = dyn_cast<RankedTensorType>(type))
      llvm::copy_if(ranked.getShape(), std::back_inserter(shape),
                    [](int64_t d) { return d != 1; });
    return shape;
  };
  // With square contraction tiles (the GPU path), a convolution with
  // output channels (not depthwise) is a matmul of its output pixels by its
  // filters (an implicit GEMM there). The CPU path keeps its rows.
  auto isMatmulLike = [&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      return true;
    if (policy.contractionTile <= 1 || !linalg::isaConvolutionOpInterface(op))
      return false;
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(op);
    return succeeded(dims) && !dims->outputChannel.empty() &&
           dims->depth.empty();
  };
  group.getBody().walk([&](linalg::LinalgOp op) {
    bool isContraction =
        isMatmulLike(op) && op->getNumResults() == 1 &&
        root->getNumResults() == 1 &&
        (op->getResult(0).getType() == root->getResult(0).getType() ||
         (cast<ShapedType>(op->getResult(0).getType()).hasStaticShape() &&
          cast<ShapedType>(root->getResult(0).getType()).hasStaticShape() &&
          nonUnitShape(op->getResult(0).getType()) ==
              nonUnitShape(root->getResult(0).getType())));
    contraction |= isContraction && onlyRoot;
    if (op.getOperation() != root.getOperation() &&
        op.getNumReductionLoops() > 0 && !isContraction)
      fusedReduction = true;
  });
  // Whole tiles only for a pool yielding its input's tiles (written at a
  // multiple of its own offsets, which peeling does not follow), and for
  // one of several roots that is a part of a concat (merged with its
  // siblings, the nest writes several boxes of the concat, which peeling
  // does not split).
  auto feedsInsert = [](Operation *op) {
    SmallVector<Value> values(op->getResults());
    while (!values.empty()) {
      for (OpOperand &use : values.pop_back_val().getUses()) {
        Operation *user = use.getOwner();
        if (isa<tensor::InsertSliceOp>(user) && use.getOperandNumber() == 0)
          return true;
        if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
          values.push_back(user->getResult(0));
      }
    }
    return false;
  };
  TilePolicy rootPolicy = policy;
  rootPolicy.partialTiles &=
      !isExactDisjointPool(root) && (onlyRoot || !feedsInsert(root));
  return getTileSizes(builder, root, rootPolicy, fusedReduction, contraction);
}

/// One tile shape for sibling roots over the same result space (the
/// horizontally fused branches of a group, each computing its own channels;
/// a conv next to an elementwise op): per result dimension the smallest of
/// their tiles, so that their nests have the same tiles and merge into one.
/// Each root's leading loops must be its result's dimensions in order (the
/// rest, reductions, untiled); returns the tile sizes of the leading loops,
/// nothing when the roots do not line up.
std::optional<SmallVector<int64_t>>
getCommonTileSizes(OpBuilder &builder, GroupOp group,
                   ArrayRef<TilingInterface> roots, const TilePolicy &policy) {
  if (roots.size() < 2)
    return std::nullopt;
  SmallVector<ArrayRef<int64_t>> shapes;
  SmallVector<SmallVector<int64_t>> sizes; // per result dimension, 0: whole
  for (TilingInterface root : roots) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(root.getOperation());
    if (!linalgOp || linalgOp.hasDynamicShape() ||
        linalgOp.getNumDpsInits() != 1)
      return std::nullopt;
    OpOperand *init = linalgOp.getDpsInitOperand(0);
    AffineMap out = linalgOp.getMatchingIndexingMap(init);
    auto type = cast<ShapedType>(init->get().getType());
    unsigned rank = type.getRank();
    if (out.getNumResults() != rank ||
        (!shapes.empty() && shapes.front().size() != rank))
      return std::nullopt;
    // Leading loops are the result's dimensions: d0..d(rank-1).
    for (unsigned d = 0; d < rank; ++d)
      if (out.getResult(d) != builder.getAffineDimExpr(d))
        return std::nullopt;
    shapes.push_back(type.getShape());
    sizes.emplace_back();
    for (auto [d, size] : llvm::enumerate(getRootTileSizes(
             builder, group, root, policy, /*onlyRoot=*/false))) {
      std::optional<int64_t> v = getConstantIntValue(size);
      if (!v || (d >= rank && *v != 0))
        return std::nullopt;
      if (d < rank)
        sizes.back().push_back(*v);
    }
  }
  SmallVector<int64_t> common;
  for (unsigned d = 0; d < shapes.front().size(); ++d) {
    if (llvm::all_of(sizes, [&](ArrayRef<int64_t> s) { return s[d] == 0; })) {
      common.push_back(0);
      continue;
    }
    // A dimension some root tiles: the same extent everywhere, the smallest
    // tile (divisors of one extent: so is the smallest).
    int64_t extent = shapes.front()[d];
    int64_t smallest = extent;
    for (auto [shape, s] : llvm::zip(shapes, sizes)) {
      // A root keeping a dimension whole (rows of a fused reduction) is not
      // split because a sibling would.
      if (shape[d] != extent || (s[d] == 0 && extent > 1))
        return std::nullopt;
      smallest = std::min(smallest, s[d]);
    }
    common.push_back(smallest == extent ? 0 : smallest);
  }
  return common;
}

/// Whether the tiles of `root` (tile sizes `sizes`) read disjoint parts of
/// `producer`: each parallel loop cut into several tiles indexes every
/// operand of `root` computed from `producer`. Not so for a matmul tiled
/// along N, whose tiles all read the same rows of A: a producer of A
/// yielded from the nest would be written by every tile.
bool readsDisjointTiles(OpBuilder &builder, TilingInterface root,
                        ArrayRef<OpFoldResult> sizes, Value producer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root.getOperation());
  if (!linalgOp)
    return true;
  SmallVector<Range> domain = root.getIterationDomain(builder);
  SmallVector<unsigned> cut;
  for (auto [d, type] : llvm::enumerate(root.getLoopIteratorTypes())) {
    std::optional<int64_t> size =
        d < sizes.size() ? getConstantIntValue(sizes[d]) : std::nullopt;
    std::optional<int64_t> extent = getConstantIntValue(domain[d].size);
    if (type == utils::IteratorType::parallel &&
        (!size || (*size != 0 && (!extent || *size < *extent))))
      cut.push_back(d);
  }
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) {
    return op->getBlock() == root->getBlock();
  };
  for (OpOperand *operand : linalgOp.getDpsInputOperands()) {
    SetVector<Operation *> slice;
    if (Operation *def = operand->get().getDefiningOp())
      (void)getBackwardSlice(def, &slice, options);
    if (operand->get() != producer && !slice.contains(producer.getDefiningOp()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(operand);
    if (llvm::any_of(cut, [&](unsigned d) { return !map.isFunctionOfDim(d); }))
      return false;
  }
  return true;
}

/// Tiles `root` by `sizes` and fuses its producers into the loop nest.
LogicalResult tileRoot(RewriterBase &rewriter, GroupOp group,
                       TilingInterface root, ArrayRef<OpFoldResult> sizes) {
  rewriter.setInsertionPoint(root);
  SmallVector<OpFoldResult> tileSizes(sizes);
  if (llvm::all_of(sizes,
                   [](OpFoldResult s) { return isConstantIntValue(s, 0); })) {
    // The root is one tile: a loop of one iteration over its first parallel
    // loop, so that the group is still one nest (one block on a GPU), not
    // ops outside any nest. Without a parallel loop: one sequential nest.
    SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
    auto parallel = llvm::find(iterators, utils::IteratorType::parallel);
    if (parallel == iterators.end())
      return success();
    unsigned d = parallel - iterators.begin();
    tileSizes[d] = root.getIterationDomain(rewriter)[d].size;
  }

  // What leaves the nest whole: the group's results and what is inserted
  // into a larger tensor (a concat's part).
  llvm::SmallPtrSet<Value, 8> yielded;
  for (Value v : group.getYield().getValues())
    yielded.insert(v);
  for (auto insert : group.getBodyBlock().getOps<tensor::InsertSliceOp>())
    yielded.insert(insert.getSource());
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(tileSizes);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool isDestination) -> std::optional<
                                  scf::SCFTileAndFuseOptions::ControlFnResult> {
        scf::SCFTileAndFuseOptions::ControlFnResult result;
        // A producer the group also returns is computed in the loop nest and
        // its tiles assembled into the returned value. Not a pad: its tile
        // has a dynamic type (upstream's bubbled-up pad), which the inserting
        // of its tile into the returned value does not accept; the pad is
        // then a root of its own.
        // And only a producer over the root's own iteration space (same
        // result type): a smaller one would be computed whole by every tile
        // and written by all of them.
        // Or the input of a pool whose tiles partition it.
        result.yieldProducerReplacement =
            yielded.contains(producer) &&
            !isa<tensor::PadOp>(producer.getOwner()) &&
            ((llvm::is_contained(root->getResultTypes(), producer.getType()) &&
              readsDisjointTiles(rewriter, root, tileSizes, producer)) ||
             (isExactDisjointPool(root) && root->getOperand(0) == producer));
        return result;
      });
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(tiled))
    return failure();
  for (LoopLikeOpInterface loop : tiled->loops)
    if (auto forall = dyn_cast<scf::ForallOp>(loop.getOperation()))
      keepOneTileLoop(forall);
  // Only uses the loop nest's results dominate: a reader placed before the
  // nest (another root's producer) keeps the original op, which a later
  // root (or the leftover pass) tiles on its own.
  DominanceInfo dominance(group);
  for (auto [original, replacement] : tiled->replacements) {
    Value value = replacement;
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return dominance.properlyDominates(value, use.getOwner());
    });
  }
  return success();
}

/// Two tile loops over the same tiles.
bool haveSameTiles(scf::ForallOp a, scf::ForallOp b) {
  auto same = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return a.getMappingAttr() == b.getMappingAttr() &&
         same(a.getMixedLowerBound(), b.getMixedLowerBound()) &&
         same(a.getMixedUpperBound(), b.getMixedUpperBound()) &&
         same(a.getMixedStep(), b.getMixedStep());
}

/// `later` reads nothing `earlier` computes, and nothing before `later`
/// reads `earlier`'s results but views of them (reshapes), which are
/// returned in `views` to be moved after the merged loop.
bool canMergeInto(scf::ForallOp earlier, scf::ForallOp later,
                  SmallVectorImpl<Operation *> &views) {
  SetVector<Operation *> slice;
  ForwardSliceOptions options;
  getForwardSlice(earlier.getOperation(), &slice, options);
  for (Operation *op : slice) {
    Operation *top = later->getBlock()->findAncestorOpInBlock(*op);
    if (top == earlier.getOperation()) // its own body
      continue;
    if (top == later.getOperation())
      return false;
    if (top && top->isBeforeInBlock(later)) {
      if (top != op ||
          !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
        return false;
      views.push_back(op);
    }
  }
  llvm::sort(views, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return true;
}

/// The merged loop writes each result into its own buffer: an empty
/// tensor `later` shares with `earlier` as a destination is duplicated. Any
/// other shared destination would be written twice: no merge.
LogicalResult separateInits(RewriterBase &rewriter, scf::ForallOp earlier,
                            scf::ForallOp later) {
  llvm::SmallPtrSet<Value, 4> taken(earlier.getOutputs().begin(),
                                    earlier.getOutputs().end());
  for (OpOperand &init : later.getOutputsMutable()) {
    if (!taken.contains(init.get()))
      continue;
    auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return failure();
  }
  for (OpOperand &init : later.getOutputsMutable()) {
    if (!taken.contains(init.get()))
      continue;
    rewriter.setInsertionPoint(later);
    Operation *copy = rewriter.clone(*init.get().getDefiningOp());
    rewriter.modifyOpInPlace(later, [&] { init.set(copy->getResult(0)); });
  }
  return success();
}

/// Merges the tile loops of independent roots over the same tiles (the
/// branches of a horizontally fused conv or matmul): one nest, one kernel.
void mergeSiblingNests(RewriterBase &rewriter, GroupOp group) {
  bool merged = true;
  size_t previous = SIZE_MAX;
  while (merged) {
    merged = false;
    SmallVector<scf::ForallOp> nests;
    for (Operation &op : group.getBodyBlock())
      if (auto forall = dyn_cast<scf::ForallOp>(op))
        nests.push_back(forall);
    // Each merge removes a nest; stop if one did not.
    if (nests.size() >= previous)
      break;
    previous = nests.size();
    for (unsigned i = 0; i < nests.size() && !merged; ++i)
      for (unsigned j = i + 1; j < nests.size() && !merged; ++j) {
        SmallVector<Operation *> views;
        if (haveSameTiles(nests[i], nests[j]) &&
            canMergeInto(nests[i], nests[j], views) &&
            succeeded(separateInits(rewriter, nests[i], nests[j]))) {
          scf::ForallOp fused =
              fuseIndependentSiblingForallLoops(nests[i], nests[j], rewriter);
          // Views of the first nest's results now follow the merged loop.
          Operation *after = fused;
          for (Operation *view : views) {
            rewriter.moveOpAfter(view, after);
            after = view;
          }
          merged = true;
        }
      }
  }
}

/// Tiles every root of the group, earliest first. A group whose results
/// share no root (e.g. horizontally fused branches) gets one nest per root,
/// each computing only the slice of the shared producers it reads (the
/// pass then merges independent nests over the same tiles).
LogicalResult tileGroup(RewriterBase &rewriter, GroupOp group,
                        const TilePolicy &policy) {
  // A root without a parallel loop stays as it is (one of one tile gets
  // a loop of one iteration, see tileRoot): `done` keeps it from being
  // found again.
  DenseSet<Operation *> done;
  SmallVector<TilingInterface> siblings = findRoots(group);
  std::optional<SmallVector<int64_t>> common =
      getCommonTileSizes(rewriter, group, siblings, policy);
  // Marked, not remembered by address: tiling erases roots, and a new op
  // may take an erased one's place.
  constexpr StringLiteral kSibling = "fuse.tile_sibling";
  if (common)
    for (TilingInterface root : siblings)
      root->setAttr(kSibling, rewriter.getUnitAttr());
  bool tiled = true;
  for (SmallVector<TilingInterface> roots = siblings; !roots.empty();
       llvm::erase_if(roots, [&](TilingInterface op) {
         return done.contains(op.getOperation()) || op->use_empty();
       })) {
    TilingInterface root = roots.front();
    done.insert(root);
    SmallVector<OpFoldResult> sizes;
    if (common && root->hasAttr(kSibling)) {
      for (int64_t size : *common)
        sizes.push_back(rewriter.getIndexAttr(size));
      sizes.resize(root.getLoopIteratorTypes().size(),
                   rewriter.getIndexAttr(0));
    } else {
      sizes = getRootTileSizes(rewriter, group, root, policy,
                               /*onlyRoot=*/roots.size() == 1 &&
                                   done.size() == 1);
    }
    if (failed(tileRoot(rewriter, group, root, sizes))) {
      tiled = false;
      break;
    }
    roots = findRoots(group);
  }
  group.getBody().walk([&](Operation *op) { op->removeAttr(kSibling); });
  return success(tiled);
}

/// Structured ops still outside any nest (read by a nest through a reshape
/// that did not move): each gets a nest of its own, last first so that its
/// producers fuse into it, rather than running as plain loops (on the host,
/// on the GPU path).
void tileLeftovers(RewriterBase &rewriter, GroupOp group,
                   const TilePolicy &policy) {
  SmallVector<TilingInterface> leftovers;
  for (Operation &op : group.getBodyBlock())
    if (auto tileable = dyn_cast<TilingInterface>(op))
      if (!isa<linalg::FillOp>(op) && !op.use_empty())
        leftovers.push_back(tileable);
  for (TilingInterface op : llvm::reverse(leftovers)) {
    if (op->use_empty())
      continue; // fused into a later one's nest
    (void)tileRoot(rewriter, group, op,
                   getRootTileSizes(rewriter, group, op, policy,
                                    /*onlyRoot=*/false));
  }
}

/// The ops of the body that are loop nests of their own (everything
/// computed outside the tiled loop nests but constants, empty tensors and
/// views), in order.
SmallVector<Operation *> getKernels(GroupOp group) {
  SmallVector<Operation *> kernels;
  for (Operation &op : group.getBodyBlock().without_terminator()) {
    if (isRematerializable(&op) ||
        isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
            tensor::ExtractSliceOp>(op))
      continue;
    if (isa<TilingInterface>(op) || op.getNumRegions() > 0)
      kernels.push_back(&op);
  }
  return kernels;
}

/// How many of `kernels` read another's results (through views and inserts,
/// or captured in their bodies): those need a grid-wide barrier before they
/// run, so they cannot share a launch with what they read. A nest's shared
/// outputs are where it writes, not what it reads (the peeled parts of a
/// nest each write their box of what the previous part wrote).
unsigned countDependentKernels(ArrayRef<Operation *> kernels) {
  llvm::SmallPtrSet<Operation *, 8> isKernel(kernels.begin(), kernels.end());
  unsigned dependent = 0;
  for (Operation *kernel : kernels) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(kernel->getRegions(), captured);
    SmallVector<Value> worklist;
    if (auto nest = dyn_cast<scf::ForallOp>(kernel)) {
      llvm::append_range(worklist, nest.getDynamicLowerBound());
      llvm::append_range(worklist, nest.getDynamicUpperBound());
      llvm::append_range(worklist, nest.getDynamicStep());
    } else {
      llvm::append_range(worklist, kernel->getOperands());
    }
    llvm::append_range(worklist, captured);
    llvm::SmallPtrSet<Operation *, 16> seen;
    bool reads = false;
    while (!worklist.empty() && !reads) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || def == kernel || !seen.insert(def).second)
        continue;
      if (isKernel.contains(def)) {
        reads = true;
        break;
      }
      llvm::append_range(worklist, def->getOperands());
    }
    dependent += reads;
  }
  return dependent;
}

struct FuseTileGroupsPass final
    : fuse::impl::FuseTileGroupsPassBase<FuseTileGroupsPass> {
  using Base::Base;

  /// Every canonicalization pattern, to make peeled tiles static.
  std::shared_ptr<FrozenRewritePatternSet> canonicalization;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    canonicalization =
        std::make_shared<FrozenRewritePatternSet>(std::move(patterns));
    return success();
  }

  void runOnOperation() override {
    if (minTileElements < 1 || contractionTile < 0 || contractionTiles < 1) {
      emitError(getOperation()->getLoc())
          << "fuse-tile-groups: min-tile-elements and contraction-tiles must "
             "be at least 1, contraction-tile at least 0";
      return signalPassFailure();
    }
    if (failed(verifyInputSizes(getOperation())))
      return signalPassFailure();
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    IRRewriter rewriter(&getContext());
    TilePolicy policy{minTileElements, contractionTile, contractionTiles,
                      partialTiles};
    for (GroupOp group : groups) {
      // Upstream tiling needs static, non-empty loop ranges: a group with a
      // dynamic or zero-sized tensor (not one --fuse-ops forms, but valid
      // input) is left to the op-by-op lowering.
      auto isTileable = [](Type t) {
        auto shaped = dyn_cast<RankedTensorType>(t);
        return !shaped ||
               (shaped.hasStaticShape() && shaped.getNumElements() != 0);
      };
      bool tileable = true;
      group.getBody().walk([&](Operation *op) {
        tileable &= llvm::all_of(op->getOperandTypes(), isTileable) &&
                    llvm::all_of(op->getResultTypes(), isTileable);
      });
      if (!tileable) {
        group.emitRemark("fuse-tile-groups: a dynamic or zero-sized tensor; "
                         "left untiled");
        continue;
      }
      materializeIndexChanges(group);
      if (failed(lowerBodyToLinalg(group))) {
        group.emitRemark("fuse-tile-groups: the body has ops with no linalg "
                         "lowering; left untiled");
        continue;
      }
      splitCopyChains(rewriter, group);
      cleanUpBody(group);
      convertOneByOneConvs(group);
      if (failed(tileGroup(rewriter, group, policy)))
        group.emitRemark("fuse-tile-groups: the root could not be tiled; "
                         "left untiled");
      // Tile-and-fuse recomputes a producer per reader; identical copies
      // merge before elementwise fusion would bury them in their readers.
      {
        DominanceInfo dominance(group);
        mlir::eliminateCommonSubExpressions(rewriter, dominance, group);
      }
      // After CSE, which would give merged nests one destination again.
      mergeSiblingNests(rewriter, group);
      // Parts of a concat that no nest computes are copied by nests too.
      (void)makeCopiesOfUncomputedParts(rewriter, group.getBodyBlock());
      tileLeftovers(rewriter, group, policy);
      // Results flattened after their nest are written flattened.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)foldCollapsesIntoNest(rewriter, nest);
      // Nests whose results are parts of a larger tensor write it.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)foldInsertsIntoNest(rewriter, nest);
      // Nests with a partial last tile: the whole tiles and the last one
      // each get a nest of their own, of static shapes.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)peelPartialTiles(rewriter, nest, *canonicalization);
      // A nest whose result only an insert reads runs right before it, so
      // that the tensor inserted into exists where the nest starts and
      // bufferization writes the nest's tiles there (else the result is
      // written apart and copied: a host copy on the GPU path).
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        if (nest->hasOneUse())
          if (auto insert =
                  dyn_cast<tensor::InsertSliceOp>(*nest->user_begin()))
            if (insert.getSource() == nest->getResult(0) &&
                insert->getBlock() == nest->getBlock())
              rewriter.moveOpBefore(nest, insert);
      // Dead producers go (their tiles now live in the loop nest); slices
      // of empty tensors become tile-sized empty tensors, so temporaries
      // are per tile.
      RewritePatternSet cleanup(&getContext());
      tensor::populateFoldTensorEmptyPatterns(cleanup);
      // Inside a tile, chains of elementwise ops become one loop body:
      // their intermediates are registers, not tile buffers. A producer
      // the consumer broadcasts stays apart: fused, it would be recomputed
      // for every element it is broadcast to (a softmax's 1/sum per
      // element instead of per row). A producer with several readers is
      // fused into each of them when it is a few arithmetic ops (LayerNorm's
      // `x - mean`, read by the variance and the normalization): recomputed
      // per reader, it needs no tile buffer, which on a GPU is a pass
      // through shared memory and a barrier.
      linalg::populateElementwiseOpsFusionPatterns(
          cleanup, [](OpOperand *fused) {
            Operation *producer = fused->get().getDefiningOp();
            auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
            return producer && consumer &&
                   consumer.getMatchingIndexingMap(fused).isPermutation() &&
                   (producer->hasOneUse() || isCheapToRecompute(producer));
          });
      cleanup.add<GeneralizeFusibleReduce>(&getContext());
      (void)applyPatternsGreedily(group.getBody(), std::move(cleanup));
      SmallVector<Operation *> kernels = getKernels(group);
      if (kernels.size() > 1 && reportNests)
        group.emitRemark() << "fuse-tile-groups: lowers to " << kernels.size()
                           << " loop nests, " << countDependentKernels(kernels)
                           << " reading another's results";
      numNests += kernels.size();
    }
  }
};

} // namespace
