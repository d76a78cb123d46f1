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
// body is plain elementwise vector code.
//
// Contractions and convolutions are cut into register blocks (rows by two
// vector registers of f32 of the host) whose reduction (window) loops run
// innermost around loop-carried vector accumulators; each step is a rank-1
// update, one fused multiply-add with `fma`. Before that, a matmul tile's
// B whose rows are not contiguous is copied into a contiguous tile (`pack`),
// and a depthwise convolution loses its unit channel multiplier, so that
// its blocks read rows of channels. Two lowering patterns keep a block's
// reads vector loads: a column of A splat row by row, a filter row
// broadcast to every pixel. Boundary tiles with dynamic sizes stay scalar.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
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

namespace {

/// A generic with unit parallel loops that no output indexes (a projection
/// whose batch of one fuse-tile-groups folded out of its result) writes
/// its outputs through a view with those unit dims in front: the vectorizer
/// expects every parallel loop to index the outputs, and the maps stay
/// projected permutations (the op is still a contraction).
void writeUnitLoops(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() == 0 ||
      !llvm::all_of(op.getDpsInits(), [](Value init) {
        auto type = dyn_cast<RankedTensorType>(init.getType());
        return type && type.getRank() > 0;
      }))
    return;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineExpr> unwritten;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    bool written = llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
      return op.getMatchingIndexingMap(&init).isFunctionOfDim(d);
    });
    if (!written && ranges[d] == 1 &&
        op.getIteratorTypesArray()[d] == utils::IteratorType::parallel)
      unwritten.push_back(rewriter.getAffineDimExpr(d));
  }
  if (unwritten.empty())
    return;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> inits;
  SmallVector<SmallVector<ReassociationIndices>> reassociations;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto type = cast<RankedTensorType>(init.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&init);
    SmallVector<AffineExpr> results = unwritten;
    llvm::append_range(results, map.getResults());
    maps[init.getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    // The unit dims join the first dim's group.
    SmallVector<ReassociationIndices> groups;
    int64_t extra = unwritten.size();
    groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, extra + 1)));
    for (int64_t d = 1; d < type.getRank(); ++d)
      groups.push_back({extra + d});
    SmallVector<int64_t> shape(extra, 1);
    llvm::append_range(shape, type.getShape());
    inits.push_back(tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(shape, type.getElementType(), type.getEncoding()),
        init.get(), groups));
    reassociations.push_back(std::move(groups));
  }
  auto wider = linalg::GenericOp::create(
      rewriter, loc, ValueRange(inits).getTypes(), op.getDpsInputs(), inits,
      maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), wider.getRegion(),
                              wider.getRegion().begin());
  SmallVector<Value> results;
  for (auto [result, groups] :
       llvm::zip_equal(wider->getResults(), reassociations))
    results.push_back(
        tensor::CollapseShapeOp::create(rewriter, loc, result, groups));
  rewriter.replaceOp(op, results);
}

/// Whether `op` is safe to vectorize and of a kind worth it: static shapes,
/// not a convolution or contraction, whole-byte integer or float elements.
bool isVectorizableKind(linalg::LinalgOp op) {
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

/// A convolution on floats (named or generic), static shapes.
bool isConvolution(linalg::LinalgOp op) {
  return isStaticFloatOp(op) &&
         isa<linalg::ConvolutionOpInterface>(op.getOperation());
}

/// Whether `op` is worth and safe to vectorize as one unrolled vector op.
bool isVectorizable(linalg::LinalgOp op, int64_t maxElements) {
  return isVectorizableKind(op) && getNumPoints(op) <= maxElements &&
         succeeded(linalg::vectorizeOpPrecondition(op));
}

/// Whether `op` computes on 16-bit floats (an operand, or a value of its
/// payload, f16 or bf16). The x86 backend of LLVM 22 cannot legalize some
/// such vectors of other lengths than powers of two (bf16 arithmetic on
/// 9, 17 or 33 lanes with AVX512-BF16: "Do not know how to soft promote
/// this operator's operand"), so their vectors keep power-of-two lengths.
bool hasHalfFloats(linalg::LinalgOp op) {
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
/// `pieces`. Parallel loops are cut first; reduction loops then either
/// keep their order (each chunk reduces into the running result) or, when
/// the order does not matter, accumulate per lane (partial reduction).
LogicalResult stripMine(RewriterBase &rewriter, linalg::LinalgOp op,
                        ArrayRef<int64_t> chunks, bool reassociate,
                        SmallVectorImpl<Operation *> &pieces) {
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

/// Rows and columns of a register block over `rowRange` x `colRange`
/// results: the largest divisors up to `blockRows` and `blockCols` (two
/// vector registers), the columns in whole vectors where the range has
/// such a divisor (176 filters, 11 x 16: 16 columns, one AVX-512 register,
/// not 22, a register and a remainder per multiply-add). Rows without a
/// divisor that large (the 7 pixels of a row in ResNet's last stage, the 49
/// of a 1x1 convolution there) take up to twice the rows when a row of the
/// block is at most one vector, or trade the second vector for them when
/// that loads fewer values per multiply-add, (r + v) / (r * v) for r rows
/// by v vectors: 7 x one vector instead of 1 x two, so that each vector of
/// the filter (of B) serves seven rows instead of one. The accumulators
/// are never more than `blockRows` x two vectors.
std::pair<int64_t, int64_t> getBlockShape(int64_t rowRange, int64_t colRange,
                                          int64_t blockRows, int64_t blockCols,
                                          bool half) {
  int64_t rows = getLargestDivisor(rowRange, blockRows, half);
  int64_t cols = getLargestDivisor(colRange, blockCols, half);
  int64_t vector = blockCols / 2;
  if (vector >= 4 && cols % vector != 0)
    if (int64_t whole = getLargestDivisorOf(colRange, blockCols, vector))
      cols = whole;
  // A single row (a classifier's matrix-vector product, one pixel) has no
  // rows to share a vector of B: the block spends the accumulators of
  // blockRows rows on columns instead, in a power of two of vectors (a
  // vector of other lengths is built lane by lane, see splitColumns), so
  // that each reduction step reads one contiguous run of B. One vector per
  // block walked down a 1280 x 1000 weight 4000 bytes at a step.
  if (rowRange == 1 && vector >= 4 && !half) {
    for (int64_t wide = int64_t(llvm::bit_floor(
             uint64_t(std::min(colRange, blockRows * blockCols))));
         wide > cols && wide >= vector; wide /= 2)
      if (colRange % wide == 0)
        return {1, wide};
  }
  if (rows >= blockRows || vector < 4)
    return {rows, cols};
  auto loadsPerFma = [](int64_t r, int64_t v) {
    return double(r + v) / double(r * v);
  };
  int64_t moreRows = getLargestDivisor(rowRange, 2 * blockRows, half);
  if (moreRows <= rows)
    return {rows, cols};
  if (cols <= vector)
    return {moreRows, cols};
  if (cols >= blockCols && loadsPerFma(moreRows, 1) < loadsPerFma(rows, 2))
    return {moreRows, vector};
  return {rows, cols};
}

/// The results of a convolution-like op's output past its unit dimensions
/// (a depthwise convolution's channels and columns, past its multiplier of
/// one): the innermost two are its register blocks' columns and rows.
SmallVector<AffineExpr> getWindowResults(linalg::LinalgOp op) {
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<AffineExpr> results;
  llvm::copy_if(output.getResults(), std::back_inserter(results),
                [&](AffineExpr result) {
                  auto dim = dyn_cast<AffineDimExpr>(result);
                  return !dim || ranges[dim.getPosition()] != 1;
                });
  return results;
}

/// The loops of `op`'s register-block rows and columns (the vector lanes):
/// for a contraction, the result's innermost dimension when it is an N
/// dimension, and the M dimension nearest it; for a convolution, its two
/// innermost result dimensions of more than one point. Rows are absent
/// where there is no such loop (a matrix-vector product with no M
/// dimension); columns are absent where the op cannot be blocked.
struct BlockLoops {
  std::optional<unsigned> rows, columns;
};
BlockLoops getBlockLoops(linalg::LinalgOp op, bool contraction) {
  BlockLoops loops;
  if (op.getNumDpsInits() != 1)
    return loops;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (contraction) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims) || output.getNumResults() == 0)
      return loops;
    auto innermost = dyn_cast<AffineDimExpr>(output.getResults().back());
    if (!innermost || !llvm::is_contained(dims->n, innermost.getPosition()))
      return loops;
    loops.columns = innermost.getPosition();
    for (AffineExpr result : llvm::reverse(output.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (dim && llvm::is_contained(dims->m, dim.getPosition())) {
        loops.rows = dim.getPosition();
        break;
      }
    }
    return loops;
  }
  SmallVector<AffineExpr> results = getWindowResults(op);
  auto loopAt = [&](size_t fromBack) -> std::optional<unsigned> {
    if (results.size() < fromBack)
      return std::nullopt;
    if (auto dim = dyn_cast<AffineDimExpr>(results[results.size() - fromBack]))
      return dim.getPosition();
    return std::nullopt;
  };
  loops.columns = loopAt(1);
  loops.rows = loopAt(2);
  return loops;
}

/// `op` split along its column loop into ops whose column ranges are whole
/// `vector`s of lanes or, below one vector, powers of two: 24 filters
/// become 16 + 8, 116 become 112 + 4, 58 become 48 + 8 + 2 (upstream
/// `linalg::splitOp`, static slices of the operands and results). LLVM's
/// x86 backend widens a vector of another length (24 lanes) to the next
/// legal one and then builds a register block's broadcasts and
/// accumulators lane by lane through the stack: a 1x1 convolution to 24
/// filters ran 20 times slower than one to 32. Values are unchanged: each
/// result is computed by one piece, in the same order. An op of a single
/// row (getBlockShape) is split into whole multiples of `wide` lanes and
/// powers of two below (250 columns: 128 + 64 + 32 + 16 + 8 + 2), so that
/// each piece is a block of a power of two of vectors.
SmallVector<linalg::LinalgOp> splitColumns(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
                                           bool contraction, int64_t vector,
                                           int64_t wide) {
  SmallVector<linalg::LinalgOp> pieces;
  auto [rows, columns] = getBlockLoops(op, contraction);
  if (!columns || vector < 2 || !isa<TilingInterface>(op.getOperation())) {
    pieces.push_back(op);
    return pieces;
  }
  bool singleRow = (!rows || op.getStaticLoopRanges()[*rows] == 1) &&
                   !hasHalfFloats(op);
  wide = int64_t(llvm::bit_floor(uint64_t(std::max(wide, vector))));
  while (true) {
    int64_t range = op.getStaticLoopRanges()[*columns];
    if (ShapedType::isDynamic(range) || range <= 0) {
      pieces.push_back(op);
      return pieces;
    }
    int64_t head;
    if (singleRow && range >= wide)
      head = range / wide * wide;
    else if (singleRow || range < vector)
      head = int64_t(llvm::bit_floor(uint64_t(range)));
    else
      head = range / vector * vector;
    if (head == range) {
      pieces.push_back(op);
      return pieces;
    }
    rewriter.setInsertionPoint(op);
    auto [first, second] =
        linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                        *columns, rewriter.getIndexAttr(head));
    auto firstOp = dyn_cast_or_null<linalg::LinalgOp>(first.getOperation());
    auto secondOp = dyn_cast_or_null<linalg::LinalgOp>(second.getOperation());
    if (!firstOp || !secondOp) {
      // Not split, or only one piece left: block what there is.
      pieces.push_back(firstOp ? firstOp : secondOp ? secondOp : op);
      return pieces;
    }
    pieces.push_back(firstOp);
    op = secondOp;
  }
}

/// Register-block sizes of a contraction's loops: the output's innermost
/// dimension (an N dimension, contiguous in the result) by the columns of
/// getBlockShape, the innermost other M dimension by its rows, every other
/// loop by 1 (a K step is one rank-1 update). Empty when the result's innermost dimension is not
/// an N dimension or has no divisor of at least 4. `interchange` puts the
/// reduction loops innermost, so that a block's accumulators stay in
/// registers across them.
SmallVector<int64_t> getRegisterBlock(linalg::LinalgOp op, int64_t blockRows,
                                      int64_t blockCols,
                                      SmallVectorImpl<int64_t> &interchange) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || op.getNumDpsInits() != 1)
    return {};
  auto [m, columns] = getBlockLoops(op, /*contraction=*/true);
  if (!columns)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 1);
  unsigned n = *columns;
  bool half = hasHalfFloats(op);
  auto [rows, cols] = getBlockShape(m ? ranges[*m] : 1, ranges[n], blockRows,
                                    blockCols, half);
  sizes[n] = cols;
  if (sizes[n] < std::min<int64_t>(4, ranges[n]))
    return {};
  if (m)
    sizes[*m] = rows;
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (!llvm::is_contained(dims->k, i))
      interchange.push_back(i);
  llvm::append_range(interchange, dims->k);
  return sizes;
}

/// Register-block sizes of any other structured op whose reduction loops
/// should run innermost around a block of results (a convolution): the
/// result's innermost dimension of more than one point and the one before
/// by getBlockShape's columns and rows, every other loop by 1.
/// Empty when these are not plain loop indices.
SmallVector<int64_t> getWindowBlock(linalg::LinalgOp op, int64_t blockRows,
                                    int64_t blockCols,
                                    SmallVectorImpl<int64_t> &interchange) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto [rows, cols] = getBlockLoops(op, /*contraction=*/false);
  if (!cols || !rows)
    return {};
  SmallVector<int64_t> sizes(ranges.size(), 1);
  bool half = hasHalfFloats(op);
  std::tie(sizes[*rows], sizes[*cols]) = getBlockShape(
      ranges[*rows], ranges[*cols], blockRows, blockCols, half);
  if (sizes[*cols] < std::min<int64_t>(4, ranges[*cols]))
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel)
      interchange.push_back(i);
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (iterators[i] == utils::IteratorType::reduction)
      interchange.push_back(i);
  return sizes;
}

/// Tiles `op` by `sizes` (0 where a size is the whole range) into scf.for
/// loops in `interchange` order and returns the tile op.
linalg::LinalgOp cutIntoBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                               ArrayRef<int64_t> sizes,
                               ArrayRef<int64_t> interchange) {
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  SmallVector<OpFoldResult> tileSizes;
  for (auto [size, range] : llvm::zip(sizes, op.getStaticLoopRanges()))
    tileSizes.push_back(rewriter.getIndexAttr(size == range ? 0 : size));
  options.setTileSizes(tileSizes);
  options.setInterchange(interchange);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return {};
  rewriter.replaceOp(op, tiled->replacements);
  return dyn_cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// `op`'s reduction loops cut into chunks of at most `chunk` steps, the
/// chunk loops outermost and in the op's order (Goto's blocking of the
/// reduction): each pass of the register blocks over the tile then reads a
/// panel of B (of the filter) of `chunk` rows, which stays in L1 while the
/// blocks of the tile's other rows reuse it, instead of the whole
/// reduction's panel, which came from L2 for every block (a 1024-step
/// GEMM's panel of 32 columns is 128 KB; a 3x3 convolution's over 512
/// channels 590 KB). The innermost reduction loop takes its largest divisor
/// that fits, the loops outside it what is left of the chunk (a 3x3
/// convolution over 64 channels: one window tap of 64 channels per chunk);
/// a loop whose largest such divisor is below a quarter of what is left
/// keeps the reduction whole. Each result still sums in the scalar loop's order: a chunk carries on
/// from the partial sum the last one left in the result. Returns the op of
/// one chunk, or `op` when its reduction fits in one.
linalg::LinalgOp chunkReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                                int64_t chunk,
                                SmallVectorImpl<scf::ForOp> &loops) {
  if (op.getNumDpsInits() != 1 || !isa<TilingInterface>(op.getOperation()))
    return op;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  int64_t left = chunk;
  bool cut = false;
  for (int64_t i = int64_t(ranges.size()) - 1; i >= 0; --i) {
    if (iterators[i] != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(ranges[i]))
      return op;
    int64_t size = cut ? 1 : getLargestDivisor(ranges[i], left);
    // A range with no divisor near the chunk (197 tokens, a prime) stays
    // whole: chunks of a step or two would load and store the
    // accumulators at every step.
    if (!cut && size != ranges[i] && 4 * size < left)
      return op;
    if (size != ranges[i]) {
      cut = true;
      sizes[i] = size;
    }
    left = std::max<int64_t>(left / size, 1);
  }
  if (!cut)
    return op;
  rewriter.setInsertionPoint(op);
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return op;
  rewriter.replaceOp(op, tiled->replacements);
  for (LoopLikeOpInterface loop : tiled->loops)
    loops.push_back(cast<scf::ForOp>(loop.getOperation()));
  return cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// Peels the last iteration of `loop` (constant bounds, at least two
/// iterations, the step dividing the range) into a copy of its body after
/// it, which reads the loop's results as its iteration arguments; the
/// loop's other users read the copy's results. `map` maps the body to the
/// copy.
LogicalResult peelLastIteration(RewriterBase &rewriter, scf::ForOp loop,
                                IRMapping &map) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0 ||
      (*upper - *lower) % *step != 0 || (*upper - *lower) / *step < 2)
    return failure();
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value shortened = arith::ConstantIndexOp::create(rewriter, loc,
                                                   *upper - *step);
  rewriter.setInsertionPointAfter(loop);
  map.map(loop.getInductionVar(), shortened);
  for (auto [arg, result] :
       llvm::zip(loop.getRegionIterArgs(), loop.getResults()))
    map.map(arg, result);
  llvm::SmallPtrSet<Operation *, 16> copy;
  for (Operation &op : loop.getBody()->without_terminator())
    copy.insert(rewriter.clone(op, map));
  for (auto [result, yielded] :
       llvm::zip(loop.getResults(),
                 loop.getBody()->getTerminator()->getOperands())) {
    Value last = map.lookupOrDefault(yielded);
    rewriter.replaceUsesWithIf(result, last, [&](OpOperand &use) {
      for (Operation *owner = use.getOwner(); owner;
           owner = owner->getParentOp())
        if (copy.contains(owner))
          return false;
      return true;
    });
  }
  rewriter.modifyOpInPlace(
      loop, [&] { loop.getUpperBoundMutable().assign(shortened); });
  return success();
}

/// The op of the last chunk of a reduction cut by chunkReduction (`op`
/// inside `loops`, outermost first), peeled out of the loops: the
/// epilogue can then be fused into its register blocks, the other chunks
/// staying in the loops. Appends the ops left in the loops to `others`.
/// Returns null, the loops unchanged, where they cannot be peeled.
linalg::LinalgOp peelLastChunk(RewriterBase &rewriter,
                               ArrayRef<scf::ForOp> loops, linalg::LinalgOp op,
                               SmallVectorImpl<linalg::LinalgOp> &others) {
  for (scf::ForOp loop : loops) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lower || !upper || !step || *step <= 0 ||
        (*upper - *lower) % *step != 0 || (*upper - *lower) / *step < 2)
      return {};
  }
  SmallVector<Operation *> current(llvm::map_range(
      loops, [](scf::ForOp loop) { return loop.getOperation(); }));
  Operation *inner = op.getOperation();
  for (size_t i = 0; i < current.size(); ++i) {
    IRMapping map;
    if (failed(peelLastIteration(rewriter, cast<scf::ForOp>(current[i]),
                                 map)))
      return {};
    others.push_back(cast<linalg::LinalgOp>(inner));
    inner = map.lookup(inner);
    for (size_t j = i + 1; j < current.size(); ++j)
      current[j] = map.lookup(current[j]);
  }
  // The last chunk writes the whole result: tiling left it a full slice
  // of the value the loops carried, which folds away.
  for (OpOperand &use : llvm::make_early_inc_range(inner->getUses())) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
    if (insert && insert.getSource() == use.get() &&
        insert.getSourceType() == insert.getDestType() &&
        llvm::all_of(insert.getMixedOffsets(), isZeroInteger) &&
        llvm::all_of(insert.getMixedStrides(), isOneInteger))
      rewriter.replaceOp(insert, insert.getSource());
  }
  return cast<linalg::LinalgOp>(inner);
}

/// The elementwise ops that consume `op`'s result one after another inside
/// its tile (a bias, an activation, a residual add): each the only user of
/// the last, all its loops parallel, reading that value and writing its
/// result through identity maps of the same shape. Empty if there are none.
SmallVector<linalg::GenericOp> getEpilogue(linalg::LinalgOp op) {
  SmallVector<linalg::GenericOp> chain;
  if (op->getNumResults() != 1)
    return chain;
  Value value = op->getResult(0);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return chain;
  while (value.hasOneUse()) {
    OpOperand &use = *value.getUses().begin();
    auto next = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!next || next->getBlock() != op->getBlock() || !next.isDpsInput(&use) ||
        next.getNumDpsInits() != 1 || next->getNumResults() != 1 ||
        next.getNumParallelLoops() != next.getNumLoops() ||
        !next.getMatchingIndexingMap(&use).isIdentity() ||
        !next.getMatchingIndexingMap(next.getDpsInitOperand(0)).isIdentity() ||
        !isVectorizableKind(next))
      break;
    auto nextType = dyn_cast<RankedTensorType>(next->getResult(0).getType());
    if (!nextType || nextType.getShape() != type.getShape())
      break;
    chain.push_back(next);
    value = next->getResult(0);
  }
  return chain;
}

/// Contraction or convolution `op` computed block by block with its
/// epilogue: the last op of getEpilogue is tiled by `op`'s register block
/// (`sizes`, loops in `interchange` order) and `op`, the ops between and
/// the producer of `op`'s initial values (the bias broadcast) are fused into
/// the block loops (upstream `tileConsumerAndFuseProducersUsingSCF`). Each
/// block then starts its accumulators from the bias and applies the
/// activation (the residual add) to them before its one store, where the
/// tile had been written three times and read twice: by the broadcast, by
/// the blocks and by the epilogue, each a pass over the tile. Returns the
/// block's `op` (its reduction whole) and appends the block's other ops to
/// `blockOps`, or null where there is no epilogue or it cannot be fused.
linalg::LinalgOp fuseEpilogue(RewriterBase &rewriter, linalg::LinalgOp op,
                              ArrayRef<int64_t> sizes,
                              ArrayRef<int64_t> interchange,
                              SmallVectorImpl<linalg::LinalgOp> &blockOps) {
  if (op.getNumDpsInits() != 1)
    return {};
  SmallVector<linalg::GenericOp> chain = getEpilogue(op);
  llvm::SmallPtrSet<Operation *, 8> fusable;
  fusable.insert(op.getOperation());
  for (linalg::GenericOp next : chain)
    fusable.insert(next.getOperation());
  Operation *init = op.getDpsInitOperand(0)->get().getDefiningOp();
  if (isa_and_nonnull<linalg::LinalgOp>(init) &&
      init->getBlock() == op->getBlock() && init->hasOneUse())
    fusable.insert(init);
  // Nothing to take in: no epilogue, the accumulators start from a value
  // computed elsewhere.
  if (fusable.size() == 1)
    return {};
  // The tiled op: the epilogue's last, whose loops are the result's
  // dimensions, or with no epilogue `op` itself, its reductions whole.
  Operation *consumer =
      chain.empty() ? op.getOperation() : chain.back().getOperation();
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> loopOfDim;
  SmallVector<OpFoldResult> tileSizes;
  if (chain.empty()) {
    for (auto [loop, range] : llvm::enumerate(ranges)) {
      loopOfDim.push_back(loop);
      bool whole = sizes[loop] == range ||
                   op.getIteratorTypesArray()[loop] ==
                       utils::IteratorType::reduction;
      tileSizes.push_back(rewriter.getIndexAttr(whole ? 0 : sizes[loop]));
    }
  } else {
    for (AffineExpr result : output.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim)
        return {};
      unsigned loop = dim.getPosition();
      loopOfDim.push_back(loop);
      tileSizes.push_back(rewriter.getIndexAttr(
          sizes[loop] == ranges[loop] ? 0 : sizes[loop]));
    }
  }
  SmallVector<int64_t> order;
  for (int64_t loop : interchange)
    for (auto [dim, of] : llvm::enumerate(loopOfDim))
      if (of == loop)
        order.push_back(dim);
  if (order.size() != loopOfDim.size())
    return {};
  scf::SCFTileAndFuseOptions options;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(tileSizes);
  tiling.setInterchange(order);
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (fusable.contains(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  auto tileable = dyn_cast<TilingInterface>(consumer);
  if (!tileable)
    return {};
  rewriter.setInsertionPoint(consumer);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, tileable, options);
  if (failed(fused))
    return {};
  linalg::LinalgOp block;
  for (Operation *tiled : fused->tiledAndFusedOps) {
    auto tiledOp = dyn_cast<linalg::LinalgOp>(tiled);
    if (!tiledOp)
      continue;
    if (tiledOp.getNumReductionLoops() > 0 && !block)
      block = tiledOp;
    else
      blockOps.push_back(tiledOp);
  }
  for (auto [original, replacement] : fused->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  // The untiled ops are dead now: the consumer's uses were replaced above.
  SmallVector<Operation *> dead(llvm::map_range(
      llvm::reverse(chain), [](linalg::GenericOp next) {
        return next.getOperation();
      }));
  dead.push_back(op.getOperation());
  if (fusable.contains(init))
    dead.push_back(init);
  for (Operation *original : dead)
    if (original->use_empty())
      rewriter.eraseOp(original);
  return block;
}

/// A strided window read `in[ow * s]` of a block (a strided convolution's
/// input once the block's unit loops are dropped) becomes a read of the
/// strided slice `in[0 : n : s]` at `ow`: the map is then a projected
/// permutation and the block vectorizes. Returns failure if no map needs it
/// or one cannot be rewritten this way.
LogicalResult unstrideInputs(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = maps[input->getOperandNumber()];
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !type.hasStaticShape())
      continue;
    SmallVector<AffineExpr> results(map.getResults());
    SmallVector<OpFoldResult> offsets, sizes, strides;
    bool strided = false;
    for (auto [dim, expr] : llvm::enumerate(results)) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(type.getDimSize(dim)));
      strides.push_back(rewriter.getIndexAttr(1));
      auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
      if (!mul || mul.getKind() != AffineExprKind::Mul)
        continue;
      auto loop = dyn_cast<AffineDimExpr>(mul.getLHS());
      auto stride = dyn_cast<AffineConstantExpr>(mul.getRHS());
      if (!loop || !stride || stride.getValue() <= 1)
        continue;
      int64_t count = ranges[loop.getPosition()];
      if ((count - 1) * stride.getValue() + 1 > type.getDimSize(dim))
        return failure();
      sizes.back() = rewriter.getIndexAttr(count);
      strides.back() = rewriter.getIndexAttr(stride.getValue());
      expr = loop;
      strided = true;
    }
    if (!strided)
      continue;
    rewriter.setInsertionPoint(op);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), input->get(), offsets, sizes, strides);
    rewriter.modifyOpInPlace(op, [&] { input->set(slice); });
    maps[input->getOperandNumber()] = AffineMap::get(
        map.getNumDims(), map.getNumSymbols(), results, op.getContext());
    changed = true;
  }
  if (!changed)
    return failure();
  rewriter.modifyOpInPlace(op, [&] {
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return success();
}

/// Copies the operand of contraction `op` that each of its register
/// blocks' rows reads whole (a matmul's B: indexed by N and K, not M) into
/// a contiguous tile-sized tensor before the contraction, when it is a
/// slice whose rows are not contiguous (a tile's 64 columns of a
/// 768 x 3072 weight: rows 12 KB apart, so every reduction step of every
/// block touched a new page and the same few L1 sets) and at least eight
/// rows of blocks reuse it. The copy is strip-mined and vectorized with
/// the other large ops; its tensor is the tile's temporary (allocated once
/// outside the tile loop). Returns the copy, or null.
linalg::LinalgOp packReusedOperand(RewriterBase &rewriter,
                                   linalg::LinalgOp op, int64_t blockRows) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->k.empty())
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = 1;
  for (unsigned m : dims->m)
    rows *= ranges[m];
  // A few rows of blocks do not pay for the copy (16 tokens of a
  // language model: the copy cost as much as a quarter of the FMAs).
  if (rows < 8 * blockRows)
    return {};
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (llvm::any_of(dims->m, [&](unsigned m) {
          return map.isFunctionOfDim(m);
        }))
      continue;
    auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride())
      continue;
    RankedTensorType sourceType = slice.getSourceType();
    RankedTensorType type = slice.getResultType();
    if (!sourceType.hasStaticShape() || !type.hasStaticShape() ||
        type.getRank() == 0 ||
        sourceType.getShape().back() == type.getShape().back())
      continue;
    rewriter.setInsertionPoint(op);
    Value empty = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                          type.getShape(),
                                          type.getElementType());
    auto copy =
        linalg::CopyOp::create(rewriter, op.getLoc(), input->get(), empty);
    rewriter.modifyOpInPlace(op, [&] { input->set(copy.getResult(0)); });
    return cast<linalg::LinalgOp>(copy.getOperation());
  }
  return {};
}

/// The block's step `out + a * b` as one fused multiply-add
/// `math.fma(a, b, out)` (a single rounding instead of two: the value
/// changes, within an ulp of the step). f32 and f64 only: a 16-bit float
/// fma is emulated in f32 with a second rounding.
void fuseMultiplyAdd(RewriterBase &rewriter, linalg::GenericOp op) {
  Block *body = op.getBody();
  for (auto [index, yielded] :
       llvm::enumerate(body->getTerminator()->getOperands())) {
    auto add = yielded.getDefiningOp<arith::AddFOp>();
    if (!add || !(add.getType().isF32() || add.getType().isF64()))
      continue;
    BlockArgument out = op.getRegionOutputArgs()[index];
    Value other = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
    auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
    if (!mul || !mul->hasOneUse())
      continue;
    rewriter.setInsertionPoint(add);
    rewriter.replaceOpWithNewOp<math::FmaOp>(add, mul.getLhs(), mul.getRhs(),
                                             out);
    rewriter.eraseOp(mul);
  }
}

/// A depthwise convolution with a channel multiplier of one
/// (`depthwise_conv_2d_nhwc_hwcm`, TOSA's lowering) as the plain depthwise
/// op on its filter and result with the unit multiplier collapsed away
/// (`depthwise_conv_2d_nhwc_hwc`): its register blocks (pixels by channels)
/// then read a row of channels of the filter and write rows of channels of
/// the result, contiguous vectors; with the trailing unit dimension, the
/// folded transfers had permutation maps that upstream lowers element by
/// element, and the accumulators were not hoisted. The same multiply-adds
/// in the same order. Returns the new op, or `op`.
linalg::LinalgOp dropUnitMultiplier(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  auto depthwise = dyn_cast<linalg::DepthwiseConv2DNhwcHwcmOp>(op.getOperation());
  if (!depthwise)
    return op;
  auto filterType = dyn_cast<RankedTensorType>(depthwise.getInputs()[1].getType());
  auto outputType = dyn_cast<RankedTensorType>(depthwise.getOutputs()[0].getType());
  if (!filterType || !outputType || filterType.getRank() != 4 ||
      outputType.getRank() != 5 || filterType.getDimSize(3) != 1 ||
      outputType.getDimSize(4) != 1)
    return op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<ReassociationIndices> filterGroups = {{0}, {1}, {2, 3}};
  SmallVector<ReassociationIndices> outputGroups = {{0}, {1}, {2}, {3, 4}};
  Value filter = tensor::CollapseShapeOp::create(
      rewriter, loc, depthwise.getInputs()[1], filterGroups);
  // A fill of the result (zeros, the bias added after) is made at the
  // plain shape, so that the register blocks can take it in (fuseEpilogue).
  Value init;
  auto fill = depthwise.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  if (fill && fill->hasOneUse()) {
    auto type = tensor::CollapseShapeOp::inferCollapsedType(outputType,
                                                            outputGroups);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    init = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
               .getResult(0);
  } else {
    init = tensor::CollapseShapeOp::create(
        rewriter, loc, depthwise.getOutputs()[0], outputGroups);
  }
  auto plain = linalg::DepthwiseConv2DNhwcHwcOp::create(
      rewriter, loc, TypeRange{init.getType()},
      ValueRange{depthwise.getInputs()[0], filter}, ValueRange{init},
      depthwise.getStrides(), depthwise.getDilations());
  Value result = tensor::ExpandShapeOp::create(
      rewriter, loc, outputType, plain.getResult(0), outputGroups);
  rewriter.replaceOp(op, result);
  // Readers that index the unit multiplier with a constant 0 (the bias and
  // activation after it) read the plain result: their maps are then
  // projected permutations, and they vectorize.
  for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
    auto reader = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!reader || !reader.isDpsInput(&use))
      continue;
    AffineMap map = reader.getMatchingIndexingMap(&use);
    auto zero = dyn_cast<AffineConstantExpr>(map.getResults().back());
    if (!zero || zero.getValue() != 0)
      continue;
    SmallVector<AffineMap> maps = reader.getIndexingMapsArray();
    maps[use.getOperandNumber()] = map.dropResult(map.getNumResults() - 1);
    rewriter.modifyOpInPlace(reader, [&] {
      use.set(plain.getResult(0));
      reader.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
  }
  // All readers rewired: the plain result is then the epilogue's alone.
  if (result.use_empty())
    rewriter.eraseOp(result.getDefiningOp());
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);
  return cast<linalg::LinalgOp>(plain.getOperation());
}

/// Cuts contraction or convolution `op` into register blocks by `sizes`
/// (reduction loops innermost, `interchange`), then drops the block's unit
/// loops: a reduction step, one point of the reduction loops, is then a
/// plain elementwise op on the block: a window read `in[oh + kh, ow + kw,
/// c]` with `oh`, `kh`, `kw` and `c` fixed per step becomes a slice of the
/// block's `ow` (a strided slice for a strided window), a matmul's step a
/// broadcast column of A times a row of B. With `fma` the step is one
/// fused multiply-add. Returns the block op if it can be vectorized; the
/// loop order and the summation order of each result are the scalar
/// loop's.
linalg::LinalgOp cutRegisterBlock(RewriterBase &rewriter, linalg::LinalgOp op,
                                  ArrayRef<int64_t> sizes,
                                  ArrayRef<int64_t> interchange, bool fma) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return {};
    generic = *generalized;
  }
  linalg::LinalgOp block = cutIntoBlocks(rewriter, generic, sizes, interchange);
  auto blockGeneric = dyn_cast_or_null<linalg::GenericOp>(block.getOperation());
  if (!blockGeneric)
    return {};
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  rewriter.setInsertionPoint(blockGeneric);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, blockGeneric, control);
  linalg::GenericOp result = blockGeneric;
  if (succeeded(dropped)) {
    rewriter.replaceOp(blockGeneric, dropped->replacements);
    result = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
  }
  (void)unstrideInputs(rewriter, result);
  if (failed(linalg::vectorizeOpPrecondition(result)) ||
      !llvm::all_of(result.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return {};
  if (fma && result.getNumReductionLoops() == 0)
    fuseMultiplyAdd(rewriter, result);
  return result;
}

/// transfer_read(transfer_write(%v, %t)), the write covering all of %t and
/// the read all of it past leading unit dimensions, both at zero offsets,
/// is shape_cast(%v): a register block's accumulators start from the
/// vector its fused bias broadcast wrote (upstream folds a read of a write
/// only at one rank).
struct ForwardWholeWrite final : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    if (!write || read.getMask() || write.getMask() ||
        read.hasOutOfBoundsDim() || write.hasOutOfBoundsDim() ||
        !read.getPermutationMap().isMinorIdentity() ||
        !write.getPermutationMap().isMinorIdentity())
      return failure();
    auto tensor = dyn_cast<RankedTensorType>(write.getBase().getType());
    VectorType written = write.getVectorType();
    VectorType wanted = read.getVectorType();
    if (!tensor || tensor.getShape() != written.getShape() ||
        written.getNumElements() != wanted.getNumElements() ||
        !llvm::all_of(llvm::concat<Value>(read.getIndices(),
                                          write.getIndices()),
                      [](Value index) { return isZeroInteger(index); }))
      return failure();
    ArrayRef<int64_t> shape = written.getShape();
    if (!llvm::equal(shape.take_back(wanted.getRank()), wanted.getShape()))
      return failure();
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, wanted,
                                                     write.getVector());
    return success();
  }
};

/// transfer_write(%v2, transfer_write(%v1, %t)) where the second write
/// covers all of %t is transfer_write(%v2, %t): a block with no epilogue
/// stores its accumulators over the bias it started from (upstream drops a
/// write overwritten only by one of the same vector type).
struct DropOverwrittenWrite final
    : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    auto earlier = write.getBase().getDefiningOp<vector::TransferWriteOp>();
    auto tensor = dyn_cast<RankedTensorType>(write.getBase().getType());
    if (!earlier || !tensor || !tensor.hasStaticShape() || write.getMask() ||
        write.hasOutOfBoundsDim() ||
        !write.getPermutationMap().isMinorIdentity() ||
        write.getVectorType().getNumElements() != tensor.getNumElements() ||
        !llvm::all_of(write.getIndices(),
                      [](Value index) { return isZeroInteger(index); }))
      return failure();
    rewriter.modifyOpInPlace(write, [&] {
      write.getBaseMutable().assign(earlier.getBase());
    });
    return success();
  }
};

/// A transfer whose index along a dimension is the induction variable of a
/// loop with constant bounds is in bounds there when the loop's last value
/// plus the vector's size fits the static dimension: a register block's
/// store at `(%row, %col)` in steps that divide the tile. The vectorizer
/// cannot see this, and an out-of-bounds store is lowered with a mask.
template <typename TransferOp>
struct InBoundsFromLoops final : OpRewritePattern<TransferOp> {
  using OpRewritePattern<TransferOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransferOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<ShapedType>(op.getBase().getType());
    if (!type || op.getMask())
      return failure();
    AffineMap map = op.getPermutationMap();
    SmallVector<bool> inBounds = op.getInBoundsValues();
    bool changed = false;
    for (auto [vectorDim, result] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(result);
      if (!dim || inBounds[vectorDim])
        continue;
      int64_t size = type.getDimSize(dim.getPosition());
      int64_t count = op.getVectorType().getDimSize(vectorDim);
      if (ShapedType::isDynamic(size))
        continue;
      auto iv = dyn_cast<BlockArgument>(op.getIndices()[dim.getPosition()]);
      auto loop = iv ? dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp())
                     : scf::ForOp();
      if (!loop || loop.getInductionVar() != iv)
        continue;
      std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lower || !upper || !step || *step <= 0 || *lower < 0 ||
          *upper <= *lower)
        continue;
      int64_t last = *lower + (*upper - 1 - *lower) / *step * *step;
      if (last + count > size)
        continue;
      inBounds[vectorDim] = true;
      changed = true;
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setInBoundsAttr(rewriter.getBoolArrayAttr(inBounds));
    });
    return success();
  }
};

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

struct FuseVectorizeTilesPass final
    : fuse::impl::FuseVectorizeTilesPassBase<FuseVectorizeTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    // The bounds of --fuse-lower-to-cpu's options (LowerToCPU.cpp): the
    // block's area, rows x columns, must not overflow.
    if (maxVectorElements < 1 || chunkElements < 1 || blockRows < 0 ||
        blockRows > 64 || blockCols < 0 || blockCols > 1024 ||
        reductionChunk < 0) {
      emitError(getOperation()->getLoc())
          << "fuse-vectorize-tiles: max-vector-elements and chunk-elements "
             "must be at least 1, block-rows in [0, 64], block-cols in "
             "[0, 1024], reduction-chunk at least 0";
      return signalPassFailure();
    }
    CpuDescription host = CpuDescription::host();
    int64_t cols = blockCols == 0 ? VectorPolicy::blockCols(host)
                                  : int64_t(blockCols);
    int64_t rows = blockRows == 0 ? VectorPolicy::blockRows(host)
                                  : int64_t(blockRows);
    int64_t steps = reductionChunk == 0 ? VectorPolicy::reductionChunk(host)
                                        : int64_t(reductionChunk);
    SmallVector<linalg::LinalgOp> candidates, large, contractions, convolutions;
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](GroupOp group) {
      group.getBody().walk([&](linalg::GenericOp op) {
        if (op->getParentOfType<scf::ForallOp>())
          generics.push_back(op);
      });
    });
    for (linalg::GenericOp op : generics)
      writeUnitLoops(rewriter, op);
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
    auto block = [&](linalg::LinalgOp op, bool contraction) {
      SmallVector<linalg::LinalgOp> pieces =
          splitColumns(rewriter, op, contraction, cols / 2, rows * cols);
      for (linalg::LinalgOp piece : pieces) {
        // Only a chunked op with an epilogue has its last chunk peeled.
        bool epilogue = !getEpilogue(piece).empty();
        SmallVector<scf::ForOp> loops;
        linalg::LinalgOp chunk = chunkReduction(rewriter, piece, steps, loops);
        SmallVector<int64_t> interchange;
        SmallVector<int64_t> sizes =
            contraction
                ? getRegisterBlock(chunk, rows, cols, interchange)
                : getWindowBlock(chunk, rows, cols, interchange);
        if (sizes.empty())
          continue;
        SmallVector<linalg::LinalgOp> ops;
        // One piece: the blocks of its last chunk take the epilogue.
        if (fuseEpilogues && pieces.size() == 1 && (loops.empty() || epilogue)) {
          linalg::LinalgOp last =
              loops.empty() ? chunk
                            : peelLastChunk(rewriter, loops, chunk, ops);
          SmallVector<linalg::LinalgOp> blockOps;
          if (last)
            if (linalg::LinalgOp fused =
                    fuseEpilogue(rewriter, last, sizes, interchange, blockOps))
              last = fused;
          ops.push_back(last ? last : chunk);
        } else {
          ops.push_back(chunk);
        }
        for (linalg::LinalgOp op : ops)
          if (linalg::LinalgOp block =
                  cutRegisterBlock(rewriter, op, sizes, interchange, fma)) {
            candidates.push_back(block);
            blocked.insert(block.getOperation());
          }
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
        if (isVectorizable(op, maxVectorElements))
          candidates.push_back(op);
        else if (chunkElements > 1 && isVectorizableKind(op) &&
                 getNumPoints(op) > maxVectorElements)
          large.push_back(op);
      });
    });
    for (linalg::LinalgOp op : large) {
      SmallVector<int64_t> chunks =
          getChunkSizes(op, std::min(chunkElements, maxVectorElements),
                        /*minInnerElements=*/4);
      if (chunks.empty())
        continue;
      SmallVector<Operation *> pieces;
      if (failed(stripMine(rewriter, op, chunks, reassociate, pieces)))
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
    patterns.add<FoldFullSliceWrite>(&getContext());
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
    forward.add<ForwardWholeWrite, DropOverwrittenWrite, FoldFullSliceWrite,
                InBoundsFromLoops<vector::TransferReadOp>,
                InBoundsFromLoops<vector::TransferWriteOp>>(&getContext());
    (void)applyPatternsGreedily(getOperation(), std::move(forward));
  }
};

} // namespace
