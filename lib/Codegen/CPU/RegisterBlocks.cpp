//===- RegisterBlocks.cpp - Contractions and convolutions in registers ----===//
//
// Inside a tile, a float contraction (a matmul, a 1x1 convolution as one)
// or convolution is cut into register blocks: rows by two vector registers
// of results (VectorPolicy, from the host), the reduction loops innermost
// around loop-carried vector accumulators, each step one rank-1 update.
//
//   1. splitColumns: columns in whole vectors or powers of two below one;
//      splitRows: rows that no full block divides, whole blocks and the
//      rest; each piece with its own bias and epilogue (SplitPieces.cpp).
//   2. chunkReduction: the reduction in L2-sized chunks outside the blocks
//      (Goto's blocking of K), the chunk loops in the op's order.
//   3. peelLastChunk + fuseEpilogue: the last chunk's blocks (or the only
//      one's) take the tile's bias and elementwise epilogue, applied to the
//      accumulators before their one store.
//   4. cutRegisterBlock: the blocks, their unit loops dropped, each step a
//      plain elementwise op that fuse-vectorize-tiles vectorizes.
//
// Every result sums in the scalar loop's order (fma aside): the chunks carry
// partial sums through the result, the epilogue runs after the last.
//
//===----------------------------------------------------------------------===//

#include "RegisterBlocks.h"

#include "FuseDialect/Target/TilePolicy.h"
#include "FuseDialect/Utils/ContractionLoops.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::cpu;

namespace {

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
                                          bool half, bool strided) {
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
  auto loadsPerFma = [](int64_t r, int64_t v) {
    return double(r + v) / double(r * v);
  };
  // A full block over columns in whole runs of twice its vectors (64 or
  // more filters on AVX-512) takes half the rows by twice the vectors:
  // the same accumulators, fewer loads per multiply-add (4 x 4 vectors:
  // 0.5, 8 x 2: 0.63). ResNet-50's first stage, 56 pixels by 64 or 256
  // filters: 1.03x. Not where a vector of B is a gather (`strided`: a
  // run-time filter in TOSA's F x H x W x C order, each lane a whole
  // filter apart): LLVM builds a 64-lane gather through the stack, and a
  // 3x3 convolution over 64 channels ran 22 times slower (3.5 -> 79 ms).
  if (rows == blockRows && cols == blockCols && vector >= 4 && !half &&
      !strided && blockCols % vector == 0 && blockRows % 2 == 0 &&
      colRange % (2 * blockCols) == 0 && rowRange % (blockRows / 2) == 0 &&
      loadsPerFma(blockRows / 2, 2 * blockCols / vector) <
          loadsPerFma(blockRows, blockCols / vector))
    return {blockRows / 2, 2 * blockCols};
  if (rows >= blockRows || vector < 4)
    return {rows, cols};
  int64_t moreRows = getLargestDivisor(rowRange, 2 * blockRows, half);
  if (moreRows <= rows)
    return {rows, cols};
  if (cols <= vector)
    return {moreRows, cols};
  if (cols >= blockCols && loadsPerFma(moreRows, 1) < loadsPerFma(rows, 2))
    return {moreRows, vector};
  return {rows, cols};
}

/// Whether some input of `op` that loop `columns` indexes does not have it
/// as its innermost dimension: a register block's vector of that input is
/// then a gather of elements a row apart, not one contiguous run.
bool readsColumnsStrided(linalg::LinalgOp op, unsigned columns) {
  AffineExpr column = getAffineDimExpr(columns, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || !map.isFunctionOfDim(columns))
      continue;
    if (map.getResults().back() != column)
      return true;
  }
  return false;
}

/// The results of a convolution-like op's output past its unit dimensions
/// (a depthwise convolution's channels and columns, past its multiplier of
/// one): the innermost is its register blocks' columns, and getBlockLoops
/// takes their rows from the others.
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
/// dimension, and the M dimension nearest it; for a convolution, its
/// innermost result dimension of more than one point, and the nearest one
/// before it along which the columns' operand stays the same (the one
/// just before, but for a grouped convolution, whose filter changes along
/// its groups: its pixels). Rows are absent where there is no such loop (a
/// matrix-vector product with no M dimension); columns are absent where the
/// op cannot be blocked.
struct BlockLoops {
  std::optional<unsigned> rows, columns;
};
BlockLoops getBlockLoops(linalg::LinalgOp op, bool contraction) {
  BlockLoops loops;
  if (op.getNumDpsInits() != 1)
    return loops;
  if (contraction) {
    ContractionLoops mn = getContractionLoops(op, /*skipUnitLoops=*/false);
    loops.rows = mn.m;
    loops.columns = mn.n;
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
  if (!loops.columns || !loops.rows)
    return loops;
  // The rows are where the block reuses a vector of the columns' operand
  // (the filter): the nearest such result dimension. A grouped
  // convolution's results end in groups by their filters, and its filter
  // changes with the group: a block of groups loaded a filter vector per
  // multiply-add besides its broadcast input value; a block of pixels of
  // one group shares the vector across them.
  auto reusesAlong = [&](unsigned d) {
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      AffineMap map = op.getMatchingIndexingMap(input);
      return map.isFunctionOfDim(*loops.columns) && !map.isFunctionOfDim(d);
    });
  };
  std::optional<unsigned> rows = loops.rows;
  for (size_t fromBack = 3; rows && !reusesAlong(*rows); ++fromBack)
    rows = loopAt(fromBack);
  if (rows)
    loops.rows = rows;
  return loops;
}

/// `op` (a TilingInterface op) split along loop `dim` at `at`
/// (splitPieces), with its bias and epilogue where `withChain`.
SmallVector<linalg::LinalgOp> splitAt(RewriterBase &rewriter,
                                      linalg::LinalgOp op, unsigned dim,
                                      int64_t at, bool withChain) {
  SmallVector<linalg::GenericOp> epilogue;
  if (withChain)
    epilogue = getEpilogue(op);
  return splitPieces(rewriter, op, dim, at, epilogue);
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
                                           int64_t wide, bool withChain) {
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
    SmallVector<linalg::LinalgOp> split =
        splitAt(rewriter, op, *columns, head, withChain);
    pieces.push_back(split.front());
    // Not split, or only one piece left: block what there is.
    if (split.size() == 1)
      return pieces;
    op = split.back();
  }
}

/// A piece of an op cut for its register blocks, and the most rows its
/// blocks may take (getBlockShape's `blockRows`).
struct RowPiece {
  linalg::LinalgOp op;
  int64_t blockRows;
};

/// `op` split along its row loop when its rows have no divisor that fills
/// a block (getBlockShape takes fewer than half of `blockRows`) and there
/// are more than `blockRows` of them: a head of whole blocks of `blockRows`
/// rows and a tail of the rest. A rest of at most half of `blockRows` rows
/// joins the head's last block, and the tail is that one block of
/// `blockRows` + rest rows (its accumulators at most three quarters of the
/// vector registers: 2 x (8 + 4) of 32 on AVX-512, 2 x (4 + 2) of 16 on
/// AVX2); a larger rest is a piece of its own, blocked by its own
/// divisors. Inception-v3's 17 x 17 stage has rows of 17 pixels, which only
/// blocks of one row divide: 8 + 9 rows, the 8 in blocks of 4 x 64, the 9
/// as one block of 9 x 32 (0.61 loads per multiply-add), not 16 + 1, whose
/// one-pixel block by 128 filters loaded eight vectors of the filter from
/// L2 for eight multiply-adds (1/17 of the work, 17% of the time). Values
/// are unchanged: each result is computed by one piece, in the same order.
SmallVector<RowPiece> splitRows(RewriterBase &rewriter, linalg::LinalgOp op,
                                bool contraction, int64_t blockRows,
                                int64_t blockCols, bool withChain) {
  auto [rows, columns] = getBlockLoops(op, contraction);
  if (!rows || !columns || hasHalfFloats(op) ||
      !isa<TilingInterface>(op.getOperation()))
    return {{op, blockRows}};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t range = ranges[*rows];
  if (ShapedType::isDynamic(range) || ShapedType::isDynamic(ranges[*columns]) ||
      range <= blockRows)
    return {{op, blockRows}};
  int64_t blocked =
      getBlockShape(range, ranges[*columns], blockRows, blockCols,
                    /*half=*/false, readsColumnsStrided(op, *columns))
          .first;
  if (2 * blocked >= blockRows)
    return {{op, blockRows}};
  int64_t rest = range % blockRows;
  int64_t head = range / blockRows * blockRows;
  int64_t tailRows = blockRows;
  if (2 * rest <= blockRows) {
    head -= blockRows;
    tailRows += rest;
  }
  if (head == 0)
    return {{op, tailRows}};
  SmallVector<linalg::LinalgOp> split =
      splitAt(rewriter, op, *rows, head, withChain);
  SmallVector<RowPiece> pieces;
  for (auto [i, piece] : llvm::enumerate(split))
    pieces.push_back({piece, i + 1 == split.size() && split.size() > 1
                                 ? tailRows
                                 : blockRows});
  return pieces;
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
  auto [rows, cols] =
      getBlockShape(m ? ranges[*m] : 1, ranges[n], blockRows, blockCols, half,
                    readsColumnsStrided(op, n));
  sizes[n] = cols;
  if (sizes[n] < std::min<int64_t>(4, ranges[n]))
    return {};
  if (m)
    sizes[*m] = rows;
  for (unsigned i = 0; i < ranges.size(); ++i)
    if (!llvm::is_contained(dims->k, i))
      interchange.push_back(i);
  // Columns outside rows: the blocks of one panel of B (a chunk of the
  // reduction by the block's columns) run down all of the tile's rows
  // before the next panel, so the panel is read from memory once per
  // tile and then from L1 or L2, where rows outside columns streamed all
  // of B's chunk for every row of blocks: GPT-2's 8-token tiles read each
  // 9.4 MB weight twice from memory (the model 1.13x at one thread, 1.07x
  // at two), ViT's LayerNorm-fused 99-token tiles read each 768-column
  // chunk of B from L2 for each of 25 rows of blocks.
  if (m)
    std::swap(*llvm::find(interchange, n), *llvm::find(interchange, *m));
  llvm::append_range(interchange, dims->k);
  return sizes;
}

/// Register-block sizes of any other structured op whose reduction loops
/// should run innermost around a block of results (a convolution): its
/// block loops (getBlockLoops) by getBlockShape's columns and rows (a
/// single row when it has no row loop), every other loop by 1. Empty when these
/// are not plain loop indices.
SmallVector<int64_t> getWindowBlock(linalg::LinalgOp op, int64_t blockRows,
                                    int64_t blockCols,
                                    SmallVectorImpl<int64_t> &interchange) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto [rows, cols] = getBlockLoops(op, /*contraction=*/false);
  if (!cols)
    return {};
  SmallVector<int64_t> sizes(ranges.size(), 1);
  bool half = hasHalfFloats(op);
  // One output point (the last row splitRows leaves) is one row of columns.
  std::pair<int64_t, int64_t> shape =
      getBlockShape(rows ? ranges[*rows] : 1, ranges[*cols], blockRows,
                    blockCols, half, readsColumnsStrided(op, *cols));
  sizes[*cols] = shape.second;
  if (rows)
    sizes[*rows] = shape.first;
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
                               ArrayRef<int64_t> interchange,
                               SmallVectorImpl<scf::ForOp> *loops = nullptr) {
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
  if (loops)
    for (LoopLikeOpInterface loop : tiled->loops)
      loops->push_back(cast<scf::ForOp>(loop.getOperation()));
  return dyn_cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

/// `op`'s reduction loops cut into chunks of at most `chunk` steps, the
/// chunk loops outermost and in the op's order (Goto's blocking of the
/// reduction): each pass of the register blocks over the tile then reads a
/// panel of B (of the filter) of `chunk` rows, which stays in L2 while the
/// blocks of the tile's other rows reuse it, instead of the whole
/// reduction's panel, which would come from L3 or memory for every block
/// (VectorPolicy::reductionChunk sizes `chunk` from the host's L2; a 3x3
/// convolution over 1024 channels, 9216 steps of 64 columns, is 2.3 MB).
/// The innermost reduction loop takes its largest divisor that fits, the
/// loops outside it what is left of the chunk (that convolution with 3276
/// steps: one row of its window, 3072 steps, per chunk);
/// a loop whose largest such divisor is below a quarter of what is left
/// keeps the reduction whole. Each result still sums in the scalar loop's
/// order: a chunk carries on from the partial sum the last one left in the
/// result. Returns the op of one chunk (its loops, outermost first, in
/// `loops`), or `op` when its reduction fits in one.
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
  linalg::LinalgOp chunkOp =
      cutIntoBlocks(rewriter, op, sizes, /*interchange=*/{}, &loops);
  return chunkOp ? chunkOp : op;
}

/// The reduction chunk of `op`'s blocks: the option's, or the host's for
/// the columns each row of `op`'s blocks sweeps (its column loop's range).
int64_t getReductionChunk(linalg::LinalgOp op, bool contraction,
                          const RegisterBlockOptions &options) {
  if (options.reductionChunk > 0)
    return options.reductionChunk;
  std::optional<unsigned> columns = getBlockLoops(op, contraction).columns;
  int64_t range = columns ? op.getStaticLoopRanges()[*columns] : 0;
  return VectorPolicy::reductionChunk(options.cpu,
                                      ShapedType::isDynamic(range) ? 0 : range);
}

/// Rows of register blocks of contraction `op` with `blockRows` rows each:
/// how many blocks read each vector of B (1 for a matrix-vector product).
int64_t getRowsOfBlocks(linalg::LinalgOp op, int64_t blockRows) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || blockRows < 1)
    return std::numeric_limits<int64_t>::max();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t points = 1;
  for (unsigned m : dims->m) {
    if (ShapedType::isDynamic(ranges[m]) ||
        llvm::MulOverflow(points, ranges[m], points))
      return std::numeric_limits<int64_t>::max();
  }
  return llvm::divideCeil(points, blockRows);
}

/// A contraction with at most this many rows of register blocks keeps its
/// reduction whole (chunkReduction's chunks pay for themselves only when
/// many rows of blocks reuse a chunk's panel of B from L2): each block then
/// reads its panel of B as one contiguous stream (a constant's panels,
/// fuse-pack-constant-panels, are `K x v` runs), where chunks broke it
/// into runs of `chunk x v` floats a panel apart, which the prefetchers
/// restart for. A language model's few tokens stream its weights from
/// memory: GPT-2 at 16 tokens, 2 of 8-row blocks, two layers, one thread
/// 8.66 -> 6.05 ms (docs/Codegen.md). The sums keep their order: values
/// are unchanged.
constexpr int64_t kMaxRowsUnchunked = 2;

/// The bounds of `loop` when all three are constants and the step is
/// positive.
struct ConstantBounds {
  int64_t lower, upper, step;
};
std::optional<ConstantBounds> getConstantBounds(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  return ConstantBounds{*lower, *upper, *step};
}

/// Whether peelLastIteration can peel `loop`.
bool isPeelable(scf::ForOp loop) {
  std::optional<ConstantBounds> bounds = getConstantBounds(loop);
  return bounds && (bounds->upper - bounds->lower) % bounds->step == 0 &&
         (bounds->upper - bounds->lower) / bounds->step >= 2;
}

/// Peels the last iteration of `loop` (constant bounds, at least two
/// iterations, the step dividing the range) into a copy of its body after
/// it, which reads the loop's results as its iteration arguments; the
/// loop's other users read the copy's results. `map` maps the body to the
/// copy.
LogicalResult peelLastIteration(RewriterBase &rewriter, scf::ForOp loop,
                                IRMapping &map) {
  if (!isPeelable(loop))
    return failure();
  ConstantBounds bounds = *getConstantBounds(loop);
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value shortened = arith::ConstantIndexOp::create(
      rewriter, loc, bounds.upper - bounds.step);
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
  if (!llvm::all_of(loops, isPeelable))
    return {};
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

} // namespace

SmallVector<linalg::GenericOp> cpu::getEpilogue(linalg::LinalgOp op) {
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

namespace {

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

} // namespace

/// Copies the operand of contraction `op` that each of its register
/// blocks' rows reads whole (a matmul's B: indexed by N and K, not M) into
/// a contiguous tile-sized tensor before the contraction, when it is a
/// slice whose rows are not contiguous (a tile's 64 columns of a
/// 768 x 3072 weight: rows 12 KB apart, so every reduction step of every
/// block touched a new page and the same few L1 sets) and at least eight
/// rows of blocks reuse it. The copy is strip-mined and vectorized with
/// the other large ops; its tensor is the tile's temporary (allocated once
/// outside the tile loop). Returns the copy, or null.
linalg::LinalgOp cpu::packReusedOperand(RewriterBase &rewriter,
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

namespace {

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

} // namespace

/// A depthwise convolution with a channel multiplier of one
/// (`depthwise_conv_2d_nhwc_hwcm`, TOSA's lowering) as the plain depthwise
/// op on its filter and result with the unit multiplier collapsed away
/// (`depthwise_conv_2d_nhwc_hwc`): its register blocks (pixels by channels)
/// then read a row of channels of the filter and write rows of channels of
/// the result, contiguous vectors; with the trailing unit dimension, the
/// folded transfers had permutation maps that upstream lowers element by
/// element, and the accumulators were not hoisted. The same multiply-adds
/// in the same order. Returns the new op, or `op`.
linalg::LinalgOp cpu::dropUnitMultiplier(RewriterBase &rewriter,
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

namespace {

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
      std::optional<ConstantBounds> bounds = getConstantBounds(loop);
      if (!bounds || bounds->lower < 0 || bounds->upper <= bounds->lower)
        continue;
      int64_t last = bounds->lower + (bounds->upper - 1 - bounds->lower) /
                                         bounds->step * bounds->step;
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

} // namespace

void cpu::cutIntoRegisterBlocks(RewriterBase &rewriter, linalg::LinalgOp op,
                                bool contraction,
                                const RegisterBlockOptions &options,
                                SmallVectorImpl<linalg::LinalgOp> &blocks) {
  int64_t rows = options.rows, cols = options.cols;
  SmallVector<RowPiece> pieces;
  for (linalg::LinalgOp columns : splitColumns(
           rewriter, op, contraction, cols / 2, rows * cols, options.epilogues))
    llvm::append_range(pieces, splitRows(rewriter, columns, contraction, rows,
                                         cols, options.epilogues));
  for (auto [piece, pieceRows] : pieces) {
    // Only a chunked op with an epilogue has its last chunk peeled.
    bool epilogue = !getEpilogue(piece).empty();
    SmallVector<scf::ForOp> loops;
    linalg::LinalgOp chunk =
        contraction && getRowsOfBlocks(piece, pieceRows) <= kMaxRowsUnchunked
            ? piece
            : chunkReduction(rewriter, piece,
                             getReductionChunk(piece, contraction, options),
                             loops);
    SmallVector<int64_t> interchange;
    SmallVector<int64_t> sizes =
        contraction ? getRegisterBlock(chunk, pieceRows, cols, interchange)
                    : getWindowBlock(chunk, pieceRows, cols, interchange);
    if (sizes.empty())
      continue;
    SmallVector<linalg::LinalgOp> ops;
    // The blocks of each piece's last chunk take its epilogue (split with
    // it, splitPieces).
    if (options.epilogues && (loops.empty() || epilogue)) {
      linalg::LinalgOp last =
          loops.empty() ? chunk : peelLastChunk(rewriter, loops, chunk, ops);
      SmallVector<linalg::LinalgOp> blockOps;
      if (last)
        if (linalg::LinalgOp fused =
                fuseEpilogue(rewriter, last, sizes, interchange, blockOps))
          last = fused;
      ops.push_back(last ? last : chunk);
    } else {
      ops.push_back(chunk);
    }
    for (linalg::LinalgOp each : ops)
      if (linalg::LinalgOp block = cutRegisterBlock(rewriter, each, sizes,
                                                    interchange, options.fma))
        blocks.push_back(block);
  }
}

void cpu::populateRegisterBlockForwardingPatterns(RewritePatternSet &patterns) {
  patterns.add<ForwardWholeWrite, DropOverwrittenWrite,
               InBoundsFromLoops<vector::TransferReadOp>,
               InBoundsFromLoops<vector::TransferWriteOp>>(
      patterns.getContext());
}
