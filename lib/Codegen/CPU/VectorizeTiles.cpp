//===- VectorizeTiles.cpp - Vector code inside each group's tiles ---------===//
//
// After `--fuse-tile-groups` a group is one `scf.forall` over tiles whose
// body is a short chain of structured ops on static tile shapes. Turning
// them into vector ops (upstream `linalg::vectorize`) and folding the
// transfers between them keeps a tile's intermediates in vector registers:
// the chain reads its inputs once and writes its results once, with SIMD
// arithmetic in between.
//
// An op whose iteration space is larger than `max-vector-elements` (a
// softmax or LayerNorm row of 1024 points) is first strip-mined: an
// `scf.for` nest over static chunks of at most `chunk-elements` points,
// innermost loop first, each chunk one vector op. A reduction loop that is
// cut into chunks keeps its summation order (each chunk folds into the
// running result in order) unless its combiner does not depend on the
// order (max, min, integer ops) or `reassociate` allows it: then each lane
// of the chunk accumulates its own partial result and the lanes are
// combined once at the end (upstream partial-reduction tiling), so the loop
// body is plain elementwise vector code. An op that reads its input
// transposed is cut into 16 x 16 blocks instead, each transposed in
// registers (shuffles), not gathered lane by lane; one whose result rows
// are shorter than 16 (an NCHW image's 3 channels moved innermost) into
// chunks of 16 input elements by the whole row, after splitting off the
// input columns past the last whole 16 (fuse-flatten-narrow-rows then
// writes each chunk as one flat vector).
//
// Contractions and convolutions are cut into register blocks (rows by two
// vector registers of f32 of the host) whose reduction (window) loops run
// innermost around loop-carried vector accumulators; each step is a rank-1
// update, one fused multiply-add with `fma` (RegisterBlocks.cpp: columns,
// reduction chunks, the epilogue on the accumulators). Before that, a matmul
// tile's B whose rows are not contiguous is copied into a contiguous tile
// (`pack`), and a depthwise convolution loses its unit channel multiplier, so
// that its blocks read rows of channels. Two lowering patterns keep a block's
// reads vector loads: a column of A splat row by row, a filter row
// broadcast to every pixel. Boundary tiles with dynamic sizes stay scalar.
//
//===----------------------------------------------------------------------===//

#include "RegisterBlocks.h"

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Target/TilePolicy.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEVECTORIZETILESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::cpu;

namespace {

/// A generic's unit parallel loops become its results' leading dims (each
/// result written through a view: the values and their order unchanged):
/// - loops no result indexes (a projection whose batch of one
///   fuse-tile-groups folded out of its result): the vectorizer expects
///   every parallel loop to index the outputs, and the maps stay projected
///   permutations (the op is still a contraction);
/// - a contraction's unit loops that its result indexes after or between
///   its other dims (ViT's fused Q, K and V projection writes a tile of
///   3 x 28 x 1 x 1 x 768): a register block drops its unit dims, so that
///   its accumulators were read through a map skipping them and written
///   through a transpose over them, a pair that the hoisting of the
///   accumulators out of the reduction loop does not match: every
///   reduction step loaded and stored them (28 GFLOP/s in ViT-B/16, where
///   the same contraction with its unit dims leading runs at 100).
void writeUnitLoopsFirst(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
      !llvm::all_of(op.getDpsInits(), [](Value init) {
        auto type = dyn_cast<RankedTensorType>(init.getType());
        return type && type.getRank() > 0;
      }))
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool contraction =
      linalg::isaContractionOpInterface(
          cast<linalg::LinalgOp>(op.getOperation())) &&
      llvm::all_of(op.getDpsInits(), [](Value init) {
        return cast<RankedTensorType>(init.getType()).hasStaticShape();
      });
  auto isUnitLoop = [&](unsigned d) {
    return ranges[d] == 1 && linalg::isParallelIterator(iterators[d]);
  };
  // Per result: the positions kept in place, and the views to and from its
  // new shape (a collapse dropping the moved dims, an expand adding the
  // leading ones).
  struct View {
    SmallVector<ReassociationIndices> dropMoved, addLeading;
    RankedTensorType kept, wider;
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<std::optional<View>> views;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto type = cast<RankedTensorType>(init.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&init);
    SmallVector<unsigned> keep;
    for (auto [i, result] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!(contraction && dim && isUnitLoop(dim.getPosition())))
        keep.push_back(i);
    }
    SmallVector<AffineExpr> results;
    for (unsigned d = 0; d < op.getNumLoops(); ++d)
      if (isUnitLoop(d) && llvm::none_of(keep, [&](unsigned i) {
            return map.getResult(i).isFunctionOfDim(d);
          }))
        results.push_back(rewriter.getAffineDimExpr(d));
    int64_t leading = results.size();
    for (unsigned i : keep)
      results.push_back(map.getResult(i));
    if (keep.empty() || results == llvm::to_vector(map.getResults())) {
      views.push_back(std::nullopt);
      continue;
    }
    View view;
    // Each moved dim joins the group of the kept dim before it (of the
    // first kept dim, before there is one).
    ReassociationIndices pending;
    for (unsigned i = 0, k = 0; i < map.getNumResults(); ++i) {
      bool kept = k < keep.size() && keep[k] == i;
      if (!kept) {
        if (view.dropMoved.empty())
          pending.push_back(i);
        else
          view.dropMoved.back().push_back(i);
        continue;
      }
      ++k;
      view.dropMoved.push_back(pending);
      view.dropMoved.back().push_back(i);
      pending.clear();
    }
    SmallVector<int64_t> keptShape, widerShape(leading, 1);
    for (unsigned i : keep)
      keptShape.push_back(type.getDimSize(i));
    llvm::append_range(widerShape, keptShape);
    view.kept = RankedTensorType::get(keptShape, type.getElementType(),
                                      type.getEncoding());
    view.wider = RankedTensorType::get(widerShape, type.getElementType(),
                                       type.getEncoding());
    view.addLeading.push_back(
        llvm::to_vector(llvm::seq<int64_t>(0, leading + 1)));
    for (int64_t d = 1; d < int64_t(keep.size()); ++d)
      view.addLeading.push_back({leading + d});
    maps[init.getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    views.push_back(std::move(view));
  }
  if (llvm::none_of(views, [](const auto &view) { return view.has_value(); }))
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inits;
  for (auto [init, view] : llvm::zip_equal(op.getDpsInits(), views)) {
    Value value = init;
    if (view && view->kept != value.getType())
      value = tensor::CollapseShapeOp::create(rewriter, loc, view->kept,
                                              value, view->dropMoved);
    if (view && view->wider != value.getType())
      value = tensor::ExpandShapeOp::create(rewriter, loc, view->wider, value,
                                            view->addLeading);
    inits.push_back(value);
  }
  auto wider = linalg::GenericOp::create(
      rewriter, loc, ValueRange(inits).getTypes(), op.getDpsInputs(), inits,
      maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), wider.getRegion(),
                              wider.getRegion().begin());
  SmallVector<Value> results;
  for (auto [result, original, view] :
       llvm::zip_equal(wider->getResults(), op->getResultTypes(), views)) {
    Value value = result;
    if (view && view->wider != view->kept)
      value = tensor::CollapseShapeOp::create(rewriter, loc, view->kept,
                                              value, view->addLeading);
    if (view && view->kept != original)
      value = tensor::ExpandShapeOp::create(rewriter, loc, original, value,
                                            view->dropMoved);
    results.push_back(value);
  }
  rewriter.replaceOp(op, results);
}

/// A generic that reads unit dims of an input at index 0 (what
/// fuse-tile-groups leaves where it folded a view into the op's maps: the
/// classifier of MobileNetV2 reads its 1 x 1280 x 1 x 1 input through
/// (d0, d1, d3, 0, 0)) reads them through a collapse of those dims instead,
/// when that makes the op a contraction: the maps are then projected
/// permutations again, and the op takes the register blocks (a matrix-vector
/// product's wide blocks) instead of a dot product per result walking a
/// column of the weight. Values are unchanged.
void readUnitDimsThroughCollapse(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(op))
    return;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inputs = op.getDpsInputs();
  SmallVector<Operation *> created;
  rewriter.setInsertionPoint(op);
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!type || !type.hasStaticShape())
      continue;
    auto isUnitZero = [&](unsigned i) {
      auto constant = dyn_cast<AffineConstantExpr>(map.getResult(i));
      return constant && constant.getValue() == 0 && type.getDimSize(i) == 1;
    };
    // Each dropped dim joins the group of the kept dim before it (the first
    // kept dim's group, before there is one).
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> kept;
    ReassociationIndices leading;
    for (unsigned i = 0; i < map.getNumResults(); ++i) {
      if (isUnitZero(i)) {
        if (groups.empty())
          leading.push_back(i);
        else
          groups.back().push_back(i);
        continue;
      }
      groups.push_back(leading);
      groups.back().push_back(i);
      leading.clear();
      kept.push_back(map.getResult(i));
    }
    if (kept.empty() || kept.size() == map.getNumResults())
      continue;
    Value collapsed = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(), operand->get(), groups);
    created.push_back(collapsed.getDefiningOp());
    inputs[operand->getOperandNumber()] = collapsed;
    maps[operand->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
  }
  if (created.empty())
    return;
  auto reading = linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  rewriter.cloneRegionBefore(op.getRegion(), reading.getRegion(),
                             reading.getRegion().begin());
  if (!linalg::isaContractionOpInterface(
          cast<linalg::LinalgOp>(reading.getOperation()))) {
    rewriter.eraseOp(reading);
    for (Operation *collapse : llvm::reverse(created))
      rewriter.eraseOp(collapse);
    return;
  }
  rewriter.replaceOp(op, reading->getResults());
}

} // namespace

/// Whether `op` is safe to vectorize and of a kind worth it: static shapes,
/// not a convolution or contraction, whole-byte integer or float elements.
bool cpu::isVectorizableKind(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return false;
  if (isa<linalg::ConvolutionOpInterface>(op.getOperation()) ||
      linalg::isaContractionOpInterface(op))
    return false;
  if (llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return false;
  // Whole-byte integer and float elements only. A memref of i1 stores a
  // byte per element, but an LLVM vector of i1 loads and stores packed
  // bits, so a vector transfer of i1 would read the wrong elements; index
  // and complex elements stay scalar too.
  for (Value operand : op->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return false;
  }
  return true;
}

namespace {

/// The op's number of iteration points, saturated (huge static ranges
/// must not wrap around to look small).
int64_t getNumPoints(linalg::LinalgOp op) {
  constexpr int64_t kSaturated = int64_t(1) << 40;
  int64_t points = 1;
  for (int64_t size : op.getStaticLoopRanges()) {
    if (size <= 0)
      return 0;
    points = size > kSaturated / points ? kSaturated : points * size;
  }
  return points;
}

/// An op on tensors of static shapes whose operands are all floats of at
/// least 16 bits.
bool isStaticFloatOp(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
         llvm::all_of(op->getOperandTypes(), [](Type type) {
           Type element = getElementTypeOrSelf(type);
           return isa<FloatType>(element) &&
                  element.getIntOrFloatBitWidth() >= 16;
         });
}

/// A contraction (matmul, batch matmul, or a generic one such as a 1x1
/// convolution rewritten by fuse-tile-groups) safe to vectorize once cut
/// into register blocks.
bool isContraction(linalg::LinalgOp op) {
  return isStaticFloatOp(op) && linalg::isaContractionOpInterface(op);
}

/// A convolution on floats, static shapes: a named one, or a generic
/// grouped one (channels in groups of output channels: a grouped
/// convolution whose constant filter fuse-tile-groups laid out for it).
bool isConvolution(linalg::LinalgOp op) {
  if (!isStaticFloatOp(op))
    return false;
  if (isa<linalg::ConvolutionOpInterface>(op.getOperation()))
    return true;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  return succeeded(dims) && !dims->depth.empty() &&
         !dims->outputChannel.empty() && !dims->inputChannel.empty();
}

/// Whether `op` is worth and safe to vectorize as one unrolled vector op.
bool isVectorizable(linalg::LinalgOp op, int64_t maxElements) {
  return isVectorizableKind(op) && getNumPoints(op) <= maxElements &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

} // namespace

/// Whether `op` computes on 16-bit floats (an operand, or a value of its
/// payload, f16 or bf16). The x86 backend of LLVM 22 cannot legalize some
/// such vectors of other lengths than powers of two (bf16 arithmetic on
/// 9, 17 or 33 lanes with AVX512-BF16: "Do not know how to soft promote
/// this operator's operand"), so their vectors keep power-of-two lengths.
bool cpu::hasHalfFloats(linalg::LinalgOp op) {
  auto isHalf = [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return isa<FloatType>(element) && element.getIntOrFloatBitWidth() == 16;
  };
  if (llvm::any_of(op->getOperandTypes(), isHalf))
    return true;
  WalkResult walk = op.getBlock()->walk([&](Operation *inner) {
    return llvm::any_of(inner->getResultTypes(), isHalf)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

namespace {

/// Whether the vectors of `op` (its static loop ranges) are safe to hand to
/// the backend: any length for most types, powers of two for 16-bit floats
/// (hasHalfFloats).
bool hasLegalVectorShape(linalg::LinalgOp op) {
  return !hasHalfFloats(op) ||
         llvm::all_of(op.getStaticLoopRanges(), [](int64_t range) {
           return range > 0 && llvm::isPowerOf2_64(range);
         });
}

/// Static chunk sizes that cut `op`'s iteration space into chunks of at most
/// `chunkElements` points: the innermost loop takes the largest divisor of
/// its range that fits, the next loop what is left of the budget, and so
/// on. Empty when the innermost chunk would be shorter than
/// `minInnerElements` (a prime row length): vectors that short do not pay
/// for the loop.
SmallVector<int64_t> getChunkSizes(linalg::LinalgOp op, int64_t chunkElements,
                                   int64_t minInnerElements) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> chunks(ranges.size(), 1);
  int64_t budget = chunkElements;
  // (Power-of-two chunks for 16-bit floats: hasLegalVectorShape.)
  bool powersOfTwo = hasHalfFloats(op);
  for (int64_t i = ranges.size() - 1; i >= 0 && budget > 1; --i) {
    int64_t chunk = getLargestDivisor(ranges[i], budget, powersOfTwo);
    chunks[i] = chunk;
    budget /= chunk;
  }
  if (chunks.empty() || std::min(chunks.back(), ranges.back()) <
                            std::min(minInnerElements, ranges.back()))
    return {};
  return chunks;
}

/// The loop of the innermost dimension of more than one element of `op`'s
/// first input (getTransposeLoops: read through a permutation up to unit
/// dimensions); none where every one is a unit.
static std::optional<unsigned> getInputRowLoop(linalg::LinalgOp op) {
  return getInnermostWideLoop(
      op.getMatchingIndexingMap(op.getDpsInputOperand(0)),
      op.getStaticLoopRanges());
}

/// The loops of an elementwise `op` that reads its one input transposed:
/// the loop of the input's innermost dimension of more than one element
/// (`read`) is not the innermost loop of more than one point (`inner`),
/// whose result it writes at the identity, with static ranges.
struct TransposeLoops {
  unsigned read, inner;
  SmallVector<int64_t> ranges;
};

/// `op`'s TransposeLoops where it is such a transpose of 32-bit values.
static std::optional<TransposeLoops> getTransposeLoops(linalg::LinalgOp op) {
  if (op.getNumLoops() < 2 || op.getNumLoops() != op.getNumParallelLoops() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  OpOperand *input = op.getDpsInputOperand(0);
  AffineMap map = op.getMatchingIndexingMap(input);
  Type element = getElementTypeOrSelf(input->get().getType());
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!isPermutationUpToUnits(map, ranges) || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() != 32 ||
      getElementTypeOrSelf(op.getDpsInits()[0].getType()) != element)
    return std::nullopt;
  std::optional<unsigned> read = getInputRowLoop(op);
  std::optional<unsigned> inner = getInnermostWideLoop(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)), ranges);
  if (!read || !inner || *read == *inner ||
      ShapedType::isDynamic(ranges[*read]) ||
      ShapedType::isDynamic(ranges[*inner]))
    return std::nullopt;
  return TransposeLoops{*read, *inner, ranges};
}

/// Whether the rows `op` writes are shorter than a block while it reads
/// at least a block along its input's rows: an image's few channels moved
/// innermost (a model's NCHW input to NHWC, fused into every tile of the
/// first convolution).
static bool isNarrowTranspose(const TransposeLoops &loops) {
  return loops.ranges[loops.inner] < kTransposeBlock &&
         loops.ranges[loops.read] >= kTransposeBlock;
}

/// Chunk sizes for a transposing `op` (getTransposeLoops), so that a chunk
/// reads contiguous rows of the input and transposes them in registers
/// (vector.transpose) instead of gathering every vector of its result lane
/// by lane (a run-time filter's transpose: about 1 ns a value):
/// - kTransposeBlock x kTransposeBlock over the two loops (the rest 1),
///   lowered as shuffles by isBlockTranspose's caller;
/// - for a narrow transpose (isNarrowTranspose), kTransposeBlock input
///   elements by the whole row it writes: that many contiguous elements of
///   each of the few input rows, written as one contiguous run (the
///   image's 16 pixels by 3 channels: 3 loads, 48 values stored).
/// Empty where `op` is no such transpose or the ranges do not divide
/// (splitAtWholeBlocks cuts the rests off first).
static SmallVector<int64_t> getTransposeChunkSizes(linalg::LinalgOp op) {
  constexpr int64_t lanes = kTransposeBlock;
  std::optional<TransposeLoops> loops = getTransposeLoops(op);
  if (!loops || loops->ranges[loops->read] % lanes != 0)
    return {};
  SmallVector<int64_t> chunks(loops->ranges.size(), 1);
  chunks[loops->read] = lanes;
  if (loops->ranges[loops->inner] % lanes == 0)
    chunks[loops->inner] = lanes;
  else if (isNarrowTranspose(*loops))
    chunks[loops->inner] = loops->ranges[loops->inner];
  else
    return {};
  return chunks;
}

/// `op` cut along `loop` after the last whole kTransposeBlock (upstream
/// `linalg::splitOp`): the part of whole blocks and the rest, or `op`
/// alone where the range has no rest or no whole block.
static SmallVector<linalg::LinalgOp, 2>
splitAfterWholeBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                      unsigned loop) {
  int64_t range = op.getStaticLoopRanges()[loop];
  if (ShapedType::isDynamic(range) || range < kTransposeBlock ||
      range % kTransposeBlock == 0)
    return {op};
  rewriter.setInsertionPoint(op);
  auto [blocks, rest] = linalg::splitOp(
      rewriter, cast<TilingInterface>(op.getOperation()), loop,
      rewriter.getIndexAttr(range / kTransposeBlock * kTransposeBlock));
  auto first = dyn_cast_if_present<linalg::LinalgOp>(
      blocks ? blocks.getOperation() : nullptr);
  auto second = dyn_cast_if_present<linalg::LinalgOp>(rest ? rest.getOperation()
                                                           : nullptr);
  if (!first || !second)
    return {op}; // not split (the split point is inside the range)
  return {first, second};
}

/// A transpose (getTransposeLoops) cut so that its first part has whole
/// kTransposeBlock blocks along the loop of its input's rows (a stride-2
/// convolution's tile reads 2n + 1 columns; a tile of 56 of an image's
/// rows) and, unless it is narrow, along its result's rows too (197
/// tokens: 192 and 5): getTransposeChunkSizes takes that part in blocks.
/// The rest along the result's rows, whole blocks of input rows by fewer
/// than a block, is a narrow transpose (isNarrowTranspose: chunks of a
/// block of each of its few input rows); the rest along the input's rows
/// is vectorized as any op.
/// `op` alone where it is no transpose or its ranges divide.
static SmallVector<linalg::LinalgOp> splitAtWholeBlocks(RewriterBase &rewriter,
                                                        linalg::LinalgOp op) {
  std::optional<TransposeLoops> loops = getTransposeLoops(op);
  if (!loops)
    return {op};
  SmallVector<linalg::LinalgOp> parts;
  for (linalg::LinalgOp part : splitAfterWholeBlocks(rewriter, op, loops->read))
    if (isNarrowTranspose(*loops))
      parts.push_back(part);
    else
      llvm::append_range(parts,
                         splitAfterWholeBlocks(rewriter, part, loops->inner));
  return parts;
}

/// The loops of transposing `op` (getTransposeChunkSizes) in order with the
/// loop of its input's innermost dimension last: its chunks then walk the
/// same kTransposeBlock input rows 64 bytes at a time, streams the
/// prefetchers follow, instead of jumping to the next rows each chunk (the
/// 9.4 MB filter of a 3x3 convolution over 512 channels transposed at run
/// time: 0.88 -> 0.6 ms, one thread). The writes take the strides instead,
/// which the store buffers absorb.
static SmallVector<int64_t> getReadOrder(linalg::LinalgOp op) {
  int64_t read = *getInputRowLoop(op);
  SmallVector<int64_t> order;
  for (int64_t d = 0, e = op.getNumLoops(); d < e; ++d)
    if (d != read)
      order.push_back(d);
  order.push_back(read);
  return order;
}

/// Whether `op` transposes a kTransposeBlock x kTransposeBlock block of
/// 32-bit values (its other dimensions units): upstream lowers it as 64
/// shuffles.
static bool isBlockTranspose(vector::TransposeOp op) {
  VectorType type = op.getSourceVectorType();
  SmallVector<int64_t> sizes;
  for (int64_t size : type.getShape())
    if (size != 1)
      sizes.push_back(size);
  return type.getElementType().isIntOrFloat() &&
         type.getElementType().getIntOrFloatBitWidth() == 32 &&
         sizes == SmallVector<int64_t>{kTransposeBlock, kTransposeBlock} &&
         !type.isScalable();
}

/// Whether each result of reduction `op` is the same whatever order its
/// combiner folds the elements in: float max/min and integer arithmetic;
/// float add and mul only when `reassociate` allows their rounding to
/// change.
bool isOrderFree(linalg::LinalgOp op, bool reassociate) {
  // Upstream partial-reduction tiling does not offset `linalg.index` in the
  // chunk op.
  if (op.hasIndexSemantics())
    return false;
  for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i) {
    SmallVector<Operation *, 4> combiners;
    if (!matchReduction(op.getRegionOutputArgs(), i, combiners) ||
        combiners.size() != 1)
      return false;
    Operation *combiner = combiners.front();
    // maxnumf/minnumf may return either zero of +0 and -0: left in order.
    if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxSIOp,
            arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp>(combiner))
      continue;
    // Wrapping integer sums and products: any order gives the same bits
    // (with no-overflow flags, a new order could overflow where the old
    // one did not).
    if (auto add = dyn_cast<arith::AddIOp>(combiner);
        add && add.getOverflowFlags() == arith::IntegerOverflowFlags::none)
      continue;
    if (auto mul = dyn_cast<arith::MulIOp>(combiner);
        mul && mul.getOverflowFlags() == arith::IntegerOverflowFlags::none)
      continue;
    if (reassociate && isa<arith::AddFOp, arith::MulFOp>(combiner))
      continue;
    return false;
  }
  return true;
}

/// Strip-mines `op` into an `scf.for` nest over chunks of `chunks` points
/// and appends the chunk ops (and the partial reductions' merges) to
/// `pieces`, the chunk loops in `interchange`'s order where it is given.
/// Parallel loops are cut first; reduction loops then either
/// keep their order (each chunk reduces into the running result) or, when
/// the order does not matter, accumulate per lane (partial reduction).
LogicalResult stripMine(RewriterBase &rewriter, linalg::LinalgOp op,
                        ArrayRef<int64_t> chunks, bool reassociate,
                        SmallVectorImpl<Operation *> &pieces,
                        ArrayRef<int64_t> interchange = {}) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto sizesFor = [&](bool reductions) {
    SmallVector<OpFoldResult> sizes;
    for (auto [iterator, chunk, range] :
         llvm::zip_equal(iterators, chunks, op.getStaticLoopRanges())) {
      bool isReduction = iterator == utils::IteratorType::reduction;
      sizes.push_back(rewriter.getIndexAttr(
          isReduction == reductions && chunk < range ? chunk : 0));
    }
    return sizes;
  };
  bool cutsReduction = llvm::any_of(
      llvm::zip_equal(iterators, chunks, op.getStaticLoopRanges()),
      [](auto loop) {
        return std::get<0>(loop) == utils::IteratorType::reduction &&
               std::get<1>(loop) < std::get<2>(loop);
      });
  bool partial = cutsReduction && isOrderFree(op, reassociate);

  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  if (partial) {
    // Parallel loops first, in their own loops; then the reduction loops of
    // the resulting chunk op with per-lane partial results.
    options.setTileSizes(sizesFor(/*reductions=*/false));
  } else {
    SmallVector<OpFoldResult> sizes = sizesFor(/*reductions=*/false);
    for (auto [size, reduction] : llvm::zip(sizes, sizesFor(true)))
      if (isConstantIntValue(size, 0))
        size = reduction;
    options.setTileSizes(sizes);
  }
  if (!interchange.empty())
    options.setInterchange(interchange);
  auto tilingOp = cast<TilingInterface>(op.getOperation());
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, tilingOp, options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  if (!partial) {
    llvm::append_range(pieces, tiled->tiledOps);
    return success();
  }

  // The chunk op of the parallel tiling (or `op` itself, when no parallel
  // loop was cut) now reduces whole rows: cut its reduction loops.
  auto chunk = cast<linalg::LinalgOp>(tiled->tiledOps.back());
  rewriter.setInsertionPoint(chunk);
  SmallVector<OpFoldResult> reductionSizes;
  for (auto [iterator, size, range] :
       llvm::zip_equal(iterators, chunks, chunk.getStaticLoopRanges()))
    reductionSizes.push_back(rewriter.getIndexAttr(
        iterator == utils::IteratorType::reduction && size < range ? size : 0));
  FailureOr<scf::SCFTilingResult> reduced = scf::tileReductionUsingScf(
      rewriter, cast<PartialReductionOpInterface>(chunk.getOperation()),
      reductionSizes);
  if (failed(reduced)) {
    // Leave the parallel chunks as they are; the chunk op stays scalar.
    return success();
  }
  rewriter.replaceOp(chunk, reduced->replacements);
  for (Value init : reduced->initialValues)
    if (Operation *fill = init.getDefiningOp())
      pieces.push_back(fill);
  llvm::append_range(pieces, reduced->tiledOps);
  llvm::append_range(pieces, reduced->mergeOps);
  return success();
}

/// insert_slice(transfer_write(%v, extract_slice(%t, S)), %t, S), where the
/// write covers the whole slice and the slice only drops leading unit
/// dimensions, is transfer_write(%v, %t) at S's offsets: a register block's
/// update of its accumulators then reads and writes `%t` itself, which
/// `hoistLoopInvariantSubsets` turns into a loop-carried vector.
struct FoldFullSliceWrite final : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    if (!write || write.getMask() ||
        !write.getPermutationMap().isMinorIdentity())
      return failure();
    auto extract = write.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    if (!extract || extract.getSource() != insert.getDest() ||
        !extract.isSameAs(insert, [](OpFoldResult a, OpFoldResult b) {
          return isEqualConstantIntOrValue(a, b);
        }))
      return failure();
    // The vector covers the whole (rank-reduced) slice from its origin.
    VectorType vectorType = write.getVectorType();
    RankedTensorType sliceType = insert.getSourceType();
    if (vectorType.getShape() !=
            sliceType.getShape().take_back(vectorType.getRank()) ||
        llvm::any_of(sliceType.getShape().drop_back(vectorType.getRank()),
                     [](int64_t size) { return size != 1; }) ||
        !llvm::all_of(write.getIndices(),
                      [](Value index) { return isZeroInteger(index); }) ||
        llvm::any_of(insert.getMixedStrides(), [](OpFoldResult stride) {
          return !isConstantIntValue(stride, 1);
        }))
      return failure();
    // The full-rank slice's sizes: its dropped dimensions must be leading
    // unit dimensions too, so the vector maps onto the destination's
    // innermost dimensions.
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    int64_t rank = sizes.size();
    int64_t leading = rank - vectorType.getRank();
    for (int64_t i = 0; i < rank; ++i)
      if (!isConstantIntValue(
              sizes[i], i < leading ? 1 : vectorType.getDimSize(i - leading)))
        return failure();
    SmallVector<Value> offsets = getValueOrCreateConstantIndexOp(
        rewriter, insert.getLoc(), insert.getMixedOffsets());
    SmallVector<bool> inBounds = write.getInBoundsValues();
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), offsets,
        ArrayRef<bool>(inBounds));
    return success();
  }
};

/// A read of a tensor through a map that skips unit dimensions between the
/// ones it reads (`(d0, .., d4) -> (d2, d4)` of a 1 x 1 x 14 x 1 x 16 block
/// of accumulators: a grouped convolution's pixels by the filters of one
/// group, with the group between them) reads the minor identity over them
/// instead, the skipped dimensions as unit dimensions of the vector,
/// shape-cast back. Upstream lowers the write of the same block that way
/// (broadcast and transpose into the unit dimensions); read and write then
/// match, and the accumulators become a loop-carried vector
/// (hoistLoopInvariantSubsets). Values are unchanged.
struct ReadThroughUnitDims final : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto tensor = dyn_cast<RankedTensorType>(read.getBase().getType());
    AffineMap map = read.getPermutationMap();
    VectorType type = read.getVectorType();
    if (!tensor || !tensor.hasStaticShape() || read.getMask() ||
        isa<vector::MaskingOpInterface>(read->getParentOp()) ||
        read.hasOutOfBoundsDim() || type.isScalable() ||
        map.isMinorIdentity() || map.getNumResults() == 0 ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return failure();
    SmallVector<unsigned> dims;
    for (AffineExpr result : map.getResults())
      dims.push_back(cast<AffineDimExpr>(result).getPosition());
    // Increasing, ending at the innermost dimension; what lies between
    // them unit dimensions of the tensor.
    int64_t rank = tensor.getRank();
    if (dims.back() != rank - 1 || !llvm::is_sorted(dims))
      return failure();
    SmallVector<int64_t> shape;
    for (int64_t d = dims.front(); d < rank; ++d) {
      auto position = llvm::find(dims, d);
      if (position != dims.end()) {
        shape.push_back(type.getDimSize(position - dims.begin()));
        continue;
      }
      if (tensor.getDimSize(d) != 1)
        return failure();
      shape.push_back(1);
    }
    auto wide = VectorType::get(shape, type.getElementType());
    SmallVector<bool> inBounds(shape.size(), true);
    Value whole = vector::TransferReadOp::create(
        rewriter, read.getLoc(), wide, read.getBase(), read.getIndices(),
        read.getPadding(), ArrayRef<bool>(inBounds));
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, type, whole);
    return success();
  }
};

/// A 2-D read that broadcasts a column of its source along the rows'
/// lanes (permutation map `(..., dR, ...) -> (dR, 0)`: a register block's
/// column of A, or a convolution block's input pixels, each times a row of
/// output channels) is one scalar per row, splat: upstream's lowering of
/// the transposed broadcast unrolls it into a lane-by-lane loop that loads
/// the same scalar once per lane. Values are unchanged.
struct SplatColumnRead final : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    AffineMap map = read.getPermutationMap();
    if (type.getRank() != 2 || type.isScalable() || read.getMask() ||
        !isa<RankedTensorType>(read.getBase().getType()) ||
        map.getNumResults() != 2 ||
        !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return failure();
    auto row = dyn_cast<AffineDimExpr>(map.getResult(0));
    auto broadcast = dyn_cast<AffineConstantExpr>(map.getResult(1));
    if (!row || !broadcast || broadcast.getValue() != 0)
      return failure();
    // Transposed back into rows, it is a broadcast row (BroadcastRowRead).
    if (read->hasOneUse() && isa<vector::TransposeOp>(*read->user_begin()))
      return failure();
    Location loc = read.getLoc();
    SmallVector<Value> indices(read.getIndices());
    Value base = indices[row.getPosition()];
    auto rowType = VectorType::get({type.getDimSize(1)}, type.getElementType());
    Value result = ub::PoisonOp::create(rewriter, loc, type);
    for (int64_t i = 0; i < type.getDimSize(0); ++i) {
      indices[row.getPosition()] =
          i == 0 ? base
                 : arith::AddIOp::create(
                       rewriter, loc, base,
                       arith::ConstantIndexOp::create(rewriter, loc, i));
      Value scalar =
          tensor::ExtractOp::create(rewriter, loc, read.getBase(), indices);
      Value splat = vector::BroadcastOp::create(rewriter, loc, rowType, scalar);
      result = vector::InsertOp::create(rewriter, loc, splat, result, i);
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// A transpose of a 2-D read that broadcasts a column of the source's
/// innermost (contiguous) dimension, transposed into rows, is that row read
/// once and broadcast: a depthwise convolution block's filter, one row of
/// channels for every pixel of the block, is one vector load (upstream's
/// lowering loads it element by element). Values are unchanged.
struct BroadcastRowRead final : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto read = transpose.getVector().getDefiningOp<vector::TransferReadOp>();
    if (!read || !read->hasOneUse() || read.getMask() ||
        read.getVectorType().getRank() != 2 ||
        transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
        !llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return failure();
    auto source = dyn_cast<RankedTensorType>(read.getBase().getType());
    AffineMap map = read.getPermutationMap();
    auto row = dyn_cast<AffineDimExpr>(map.getResult(0));
    auto broadcast = dyn_cast<AffineConstantExpr>(map.getResult(1));
    if (!source || !row || !broadcast || broadcast.getValue() != 0 ||
        row.getPosition() != source.getRank() - 1)
      return failure();
    VectorType type = transpose.getResultVectorType();
    auto rowType = VectorType::get({type.getDimSize(1)}, type.getElementType());
    Value line = vector::TransferReadOp::create(
        rewriter, read.getLoc(), rowType, read.getBase(), read.getIndices(),
        read.getPadding(), ArrayRef<bool>{true});
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(transpose, type, line);
    return success();
  }
};

/// A loop-carried vector that each iteration transposes, and whose next
/// value is the inverse transpose of what the iteration computed, is
/// carried transposed: one transpose before the loop and its inverse after
/// it. A reduction's per-lane partial sums, hoisted out of the tile they
/// are written to, were carried in that tile's layout (channels, then the
/// lanes of the reduced pixels) but added in the layout the input is read
/// in (pixels, then channels): each step of a global average pool
/// transposed its accumulator there and back (about 40 shuffles per vector
/// add on AVX-512; EfficientNet-B0's 112x112x32 pool read 6 GB/s). Nested
/// loops are carried transposed from the innermost out. The same values in
/// the same order.
struct CarryTransposed final : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!arg.hasOneUse())
        continue;
      auto in = dyn_cast<vector::TransposeOp>(*arg.getUsers().begin());
      auto out = yield.getOperand(i).getDefiningOp<vector::TransposeOp>();
      if (!in || !out ||
          out.getVector().getType() != in.getResult().getType())
        continue;
      ArrayRef<int64_t> p = in.getPermutation(), q = out.getPermutation();
      if (ArrayRef<int64_t>(invertPermutationVector(p)) != q)
        continue;
      Location loc = loop.getLoc();
      rewriter.setInsertionPoint(loop);
      Value init =
          vector::TransposeOp::create(rewriter, loc, loop.getInitArgs()[i], p);
      Type carried = in.getResult().getType();
      OpResult result = loop->getResult(i);
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getInitArgsMutable()[i].set(init);
        arg.setType(carried);
        result.setType(carried);
      });
      rewriter.modifyOpInPlace(
          yield, [&, i = i] { yield->setOperand(i, out.getVector()); });
      rewriter.replaceOp(in, arg);
      rewriter.setInsertionPointAfter(loop);
      auto back = vector::TransposeOp::create(rewriter, loc, result, q);
      rewriter.replaceAllUsesExcept(result, back, back);
      return success();
    }
    return failure();
  }
};

struct FuseVectorizeTilesPass final
    : fuse::impl::FuseVectorizeTilesPassBase<FuseVectorizeTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    // The bounds of --fuse-lower-to-cpu's options (LowerToCPU.cpp): the
    // block's area, rows x columns, must not overflow.
    if (maxVectorElements < 1 || chunkElements < 1 || blockRows < 0 ||
        blockRows > 64 || blockCols < 0 || blockCols > 1024 ||
        reductionChunk < 0 || l2Bytes < 0) {
      emitError(getOperation()->getLoc())
          << "fuse-vectorize-tiles: max-vector-elements and chunk-elements "
             "must be at least 1, block-rows in [0, 64], block-cols in "
             "[0, 1024], reduction-chunk and l2-bytes at least 0";
      return signalPassFailure();
    }
    CpuDescription host = CpuDescription::host();
    if (l2Bytes > 0)
      host.l2Bytes = l2Bytes;
    int64_t cols = blockCols == 0 ? VectorPolicy::blockCols(host)
                                  : int64_t(blockCols);
    int64_t rows =
        blockRows == 0 ? VectorPolicy::blockRows(host) : int64_t(blockRows);
    SmallVector<linalg::LinalgOp> candidates, large, contractions, convolutions;
    IRRewriter rewriter(&getContext());
    // The generics inside tiles, each normalized in turn (each replaces
    // the ops it rewrites, so the next walks again). Unit dims read at 0
    // first: the op they make a contraction (ViT's attention times V reads
    // its probabilities through (0, d1, d2, d4)) then has its unit loops
    // written first too; the other order left that op's accumulators
    // loaded and stored at every reduction step (37 GFLOP/s).
    for (auto normalize : {readUnitDimsThroughCollapse, writeUnitLoopsFirst}) {
      SmallVector<linalg::GenericOp> generics;
      getOperation()->walk([&](GroupOp group) {
        group.getBody().walk([&](linalg::GenericOp op) {
          if (op->getParentOfType<scf::ForallOp>())
            generics.push_back(op);
        });
      });
      for (linalg::GenericOp op : generics)
        normalize(rewriter, op);
    }
    if (vectorizeContractions && packOperands) {
      SmallVector<linalg::LinalgOp> packable;
      getOperation()->walk([&](GroupOp group) {
        group.getBody().walk([&](linalg::LinalgOp op) {
          if (op->getParentOfType<scf::ForallOp>() && isContraction(op))
            packable.push_back(op);
        });
      });
      for (linalg::LinalgOp op : packable)
        (void)packReusedOperand(rewriter, op, rows);
    }
    // Contractions and convolutions first: their register blocks take the
    // tile's epilogue into their loops, so the ops left to vectorize are
    // known only after that.
    if (vectorizeContractions) {
      getOperation()->walk([&](GroupOp group) {
        group.getBody().walk([&](linalg::LinalgOp op) {
          if (!op->getParentOfType<scf::ForallOp>() ||
              isVectorizable(op, maxVectorElements))
            return;
          if (isContraction(op))
            contractions.push_back(op);
          else if (isConvolution(op))
            convolutions.push_back(op);
        });
      });
    }
    llvm::DenseSet<Operation *> blocked;
    RegisterBlockOptions blockOptions;
    blockOptions.rows = rows;
    blockOptions.cols = cols;
    blockOptions.reductionChunk = reductionChunk;
    blockOptions.cpu = host;
    blockOptions.epilogues = fuseEpilogues;
    blockOptions.fma = fma;
    auto block = [&](linalg::LinalgOp op, bool contraction) {
      SmallVector<linalg::LinalgOp> blocks;
      cutIntoRegisterBlocks(rewriter, op, contraction, blockOptions, blocks);
      for (linalg::LinalgOp each : blocks) {
        candidates.push_back(each);
        blocked.insert(each.getOperation());
      }
    };
    for (linalg::LinalgOp op : contractions)
      block(op, /*contraction=*/true);
    for (linalg::LinalgOp op : convolutions)
      block(dropUnitMultiplier(rewriter, op), /*contraction=*/false);

    getOperation()->walk([&](GroupOp group) {
      group.getBody().walk([&](linalg::LinalgOp op) {
        if (!op->getParentOfType<scf::ForallOp>() ||
            blocked.contains(op.getOperation()))
          return;
        // A narrow transpose in chunks whatever its size, where a chunk is
        // a vector the pass may build.
        std::optional<TransposeLoops> transpose = getTransposeLoops(op);
        bool narrow = transpose && isNarrowTranspose(*transpose) &&
                      kTransposeBlock * transpose->ranges[transpose->inner] <=
                          maxVectorElements;
        if (chunkElements > 1 && isVectorizableKind(op) &&
            (narrow || getNumPoints(op) > maxVectorElements))
          large.push_back(op);
        else if (isVectorizable(op, maxVectorElements))
          candidates.push_back(op);
      });
    });
    SmallVector<linalg::LinalgOp> parts;
    for (linalg::LinalgOp op : large)
      llvm::append_range(parts, splitAtWholeBlocks(rewriter, op));
    for (linalg::LinalgOp op : parts) {
      SmallVector<int64_t> chunks = getTransposeChunkSizes(op), interchange;
      if (computeProduct(chunks) > maxVectorElements)
        chunks.clear(); // blocks larger than the vectors the pass builds
      if (chunks.empty() && isVectorizable(op, maxVectorElements)) {
        candidates.push_back(op); // a narrow transpose's rest, whole
        continue;
      }
      if (!chunks.empty())
        interchange = getReadOrder(op);
      else
        chunks = getChunkSizes(op, std::min(chunkElements, maxVectorElements),
                               /*minInnerElements=*/4);
      if (chunks.empty())
        continue;
      SmallVector<Operation *> pieces;
      if (failed(stripMine(rewriter, op, chunks, reassociate, pieces,
                           interchange)))
        continue; // left as it was: a scalar loop nest
      for (Operation *piece : pieces) {
        auto linalgOp = dyn_cast<linalg::LinalgOp>(piece);
        if (linalgOp && isVectorizable(linalgOp, maxVectorElements))
          candidates.push_back(linalgOp);
      }
    }
    if (candidates.empty())
      return;

    for (linalg::LinalgOp op : candidates) {
      if (!hasLegalVectorShape(op))
        continue; // left as it was: a scalar loop nest
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (failed(result))
        continue; // left as it was: a scalar loop nest
      rewriter.replaceOp(op, result->replacements);
    }

    // A transfer_write into a tile read back by the next op's transfer_read
    // forwards the vector; reads of slices read the sliced tensor; the
    // broadcasts and transposes the vectorizer emits sink into their users.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // A register block's step is vectorized as a multiply and a reduction
    // over its unit reduction dimension: an elementwise add (no fused
    // multiply-add, so the rounding is the scalar loop's).
    vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns,
                                                             &getContext());
    patterns.add<FoldFullSliceWrite, ReadThroughUnitDims>(&getContext());
    patterns.add<SplatColumnRead, BroadcastRowRead>(&getContext(),
                                                  /*benefit=*/2);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));

    // A chunk loop reads and writes its running results (a reduction's
    // accumulator, per lane or not) at the same place in every iteration:
    // they become vector loop-carried values, kept in registers.
    getOperation()->walk([&](scf::ForOp loop) {
      if (loop->getParentOfType<scf::ForallOp>())
        (void)hoistLoopInvariantSubsets(rewriter, loop);
    });
    // A block's accumulators, hoisted, start from the vector its fused
    // bias broadcast wrote and end in the write its epilogue reads: forward
    // both, so they never pass through the tile.
    RewritePatternSet forward(&getContext());
    vector::TransferReadOp::getCanonicalizationPatterns(forward,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(forward,
                                                         &getContext());
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(forward);
    scf::ForOp::getCanonicalizationPatterns(forward, &getContext());
    populateRegisterBlockForwardingPatterns(forward);
    forward.add<FoldFullSliceWrite, CarryTransposed>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(forward));

    // A transposing op's chunks (getTransposeChunkSizes) as shuffles of
    // 16 x 16 blocks now: once the transfers are unrolled into rows,
    // canonicalization folds a transpose of them into element moves.
    SmallVector<Operation *> blockTransposes;
    getOperation()->walk([&](vector::TransposeOp op) {
      if (isBlockTranspose(op))
        blockTransposes.push_back(op);
    });
    RewritePatternSet lowering(&getContext());
    vector::populateVectorTransposeLoweringPatterns(
        lowering, vector::VectorTransposeLowering::Shuffle16x16);
    (void)applyOpPatternsGreedily(blockTransposes, std::move(lowering));
  }
};

} // namespace
