//===- TileSizes.cpp - Roots and tile sizes of a group --------------------===//
//
// Step 3 of fuse-tile-groups (TileGroups.cpp), its decisions: which ops
// drive the loop nests (the roots), and how their iteration spaces are cut
// into tiles under a TilePolicy (FuseDialect/Target/TilePolicy.h): rows up to
// `minTileElements` results, contractions in squares, one set of sizes
// shared by roots that can share a nest.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/VerifyInput.h"
#include "FuseDialect/Utils/ContractionLoops.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Utils/ShapeUtils.h"
#include "TileGroups.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;

namespace mlir::fuse::tiling {

/// Whether `op` has no reduction, or reduces only the innermost dimensions
/// of each input (a row sum; not a column sum, not a matmul's right-hand
/// operand).
static bool reducesInnermost(Operation *op) {
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

/// The op that pool `pool` computes in its own nest: the producer of its
/// input, when `pool` is a pool over disjoint windows
/// (isDisjointWindowPool) and nothing else in the group reads that
/// producer. Not a pad: the nest cannot yield its tiles (see tileRoot).
static Operation *getPoolNestProducer(Operation *pool) {
  if (!isDisjointWindowPool(pool))
    return nullptr;
  Operation *input = pool->getOperand(0).getDefiningOp();
  if (!input || input == pool || input->getParentOp() != pool->getParentOp() ||
      !isa<TilingInterface>(input) || input->getNumResults() != 1 ||
      isa<tensor::PadOp>(input))
    return nullptr;
  // (An insert of it into a concat's destination reads it whole from the
  // nest's result, as a yield does: U-Net's skip connections.)
  if (!llvm::all_of(input->getUsers(), [&](Operation *user) {
        auto insert = dyn_cast<tensor::InsertSliceOp>(user);
        return user == pool || isa<YieldOp>(user) ||
               (insert && insert.getSource() == input->getResult(0));
      }))
    return nullptr;
  return input;
}

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
  for (Operation *root : roots)
    if (Operation *input = getPoolNestProducer(root);
        input && roots.contains(input))
      producers.insert(input);
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

/// Whether a root is tiled in squares of its contraction's output (not in
/// rows): a contraction (or its epilogue) whose rows need not stay whole.
static bool wantsSquares(const TilePolicy &policy, bool keepRows,
                         bool contraction) {
  return policy.contractionTile > 1 && !keepRows && contraction;
}

/// The loops a contraction's squares cut: its result's innermost loop of
/// more than one point when that is an N loop, and the nearest M loop of
/// more than one point before it in the result. None for anything else (a
/// convolution as a matmul: its two innermost parallel loops).
static std::optional<std::pair<unsigned, unsigned>>
getContractionSquareLoops(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return std::nullopt;
  ContractionLoops loops = getContractionLoops(op, /*skipUnitLoops=*/true);
  if (!loops.m || !loops.n)
    return std::nullopt;
  return std::make_pair(*loops.m, *loops.n);
}

/// The (M, N) loops a root's squares cut: a contraction's
/// (getContractionSquareLoops), anything else's two innermost parallel
/// loops. None for fewer than two parallel loops.
static std::optional<std::pair<unsigned, unsigned>>
getSquareLoops(linalg::LinalgOp op) {
  if (std::optional<std::pair<unsigned, unsigned>> mn =
          getContractionSquareLoops(op))
    return mn;
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  if (parallel.size() < 2)
    return std::nullopt;
  return std::make_pair(parallel[parallel.size() - 2], parallel.back());
}

/// Bytes of what contraction `op` reads along its result's innermost
/// dimension N: every reduction step by every N (a convolution's filter, a
/// matmul's B); nullopt when a range is dynamic or the count overflows.
static std::optional<int64_t> getNSideBytes(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap result = op.getIndexingMapMatchingResult(op->getResult(0));
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (result.getNumResults() == 0 || !element.isIntOrFloat())
    return std::nullopt;
  auto n = dyn_cast<AffineDimExpr>(result.getResults().back());
  if (!n)
    return std::nullopt;
  int64_t count = int64_t(llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
  for (auto [i, range, iterator] : llvm::enumerate(ranges, iterators)) {
    if (iterator != utils::IteratorType::reduction && i != n.getPosition())
      continue;
    if (ShapedType::isDynamic(range) || llvm::MulOverflow(count, range, count))
      return std::nullopt;
  }
  return count;
}

/// An AVX-512 register of f32 (two of AVX2): N tiles of whole ones let the
/// register blocks be whole.
static constexpr int64_t kVector = 16;
/// A register block's width on AVX-512: two vectors.
static constexpr int64_t kBlockWidth = 2 * kVector;

/// Whether loop `i` of `op` indexes the innermost dimension of its only
/// result (the lanes of its vectors).
static bool isLanesLoop(linalg::LinalgOp op, unsigned i) {
  if (op.getNumDpsInits() != 1)
    return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return false;
  auto dim = dyn_cast<AffineDimExpr>(out.getResults().back());
  return dim && dim.getPosition() == i;
}

/// The loop along which `op` reads the rows of an input it transposes (and
/// the loop of its result's rows, `lanes`): an
/// input of 32-bit elements that every loop of more than one point indexes
/// once (unit dimensions may be read at 0), whose innermost dimension of
/// more than one element another loop indexes than the innermost such
/// dimension of `op`'s one result (an NCHW image written NHWC: the loop of
/// W). None for an op with a reduction, or whose inputs are read in its
/// result's order (up to unit dimensions: a pooled 1x1x1xC written
/// 1xCx1x1) or broadcast.
struct TransposedRows {
  unsigned read, lanes;
};
static std::optional<TransposedRows>
getTransposedReadLoop(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  std::optional<unsigned> lanes = getInnermostWideLoop(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)), ranges);
  if (!lanes)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Type element = getElementTypeOrSelf(input->get().getType());
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() != 32 ||
        !isPermutationUpToUnits(map, ranges))
      continue;
    std::optional<unsigned> row = getInnermostWideLoop(map, ranges);
    if (row && *row != *lanes)
      return TransposedRows{*row, *lanes};
  }
  return std::nullopt;
}

/// Tile sizes: the outer parallel loops are tiled by 1, outermost first,
/// until the loops inside hold at most `minTileElements` results; the last
/// loop tiled then takes as many iterations as fit (a divisor of its range,
/// or with `partialTiles` all that fit when no divisor is at least half of
/// that), the loops inside stay whole (a tile is a set of contiguous rows).
/// Unit loops and reductions are never tiled (a tile reduces its rows
/// completely), and with `keepRows` neither is the innermost parallel loop.
/// `outerRowsShareOperand`: the parallel loop outside a contraction's two
/// tiled ones is an M loop too (a convolution's output rows), which reads
/// the same slice of the N-side operand (widenRowsFirst); `streamedFilter`:
/// that operand (all of its reduction by all of N) has at least
/// streamedWeightBytes. A root that reads an input transposed
/// (getTransposedReadLoop) first takes a tile along the loop of that
/// input's rows of a multiple of `policy.transposeBlock`, up to
/// kTransposeTileRows (the whole range where it is no more), the other
/// loops then tiled as above around it.
static SmallVector<OpFoldResult>
getTileSizes(OpBuilder &builder, TilingInterface op, const TilePolicy &policy,
             bool keepRows, bool contraction, bool outerRowsShareOperand,
             bool streamedFilter, bool splitOneTile, bool splitInHalves) {
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
  // A tile of at most `limit` iterations: whole tiles when a divisor is
  // more than half the limit; otherwise (197 tokens: 1) the limit itself,
  // and the last tile is partial (peelPartialTiles makes both kinds static).
  auto tileAtMost = [&](int64_t range, int64_t limit) {
    int64_t divisor = getLargestDivisor(range, limit);
    limit = std::min(range, std::max<int64_t>(limit, 1));
    return !policy.partialTiles || 2 * divisor > limit ? divisor : limit;
  };
  // The same for a group tiled in rows, whose tiles are few and large: a
  // partial last tile takes the size from half the limit to the limit
  // whose tiles split best between two cores: the larger half of the tiles
  // (what a static schedule gives one core) holds the fewest iterations,
  // or within 1/16 of the fewest, the largest size (fewer tiles, less
  // overhead per iteration). The whole tiles and the partial one run as
  // one loop (fuse-merge-group-nests): ViT's 197 tokens in tiles of at most
  // 85 take 3 tiles of 53 and one of 38 (at most 106 rows per core; tiles
  // of 50 would give 100), not 85, 85 and 27 (170 rows on one core; 112
  // when the partial tile ran alone after the others).
  auto rowTileAtMost = [&](int64_t range, int64_t limit) {
    int64_t size = tileAtMost(range, limit);
    if (range % size == 0)
      return size;
    auto share = [&](int64_t candidate) {
      return std::min<int64_t>(range, llvm::divideCeil(range, 2 * candidate) *
                                          candidate);
    };
    int64_t fewest = range;
    for (int64_t candidate = size; 2 * candidate >= size; --candidate)
      fewest = std::min(fewest, share(candidate));
    int64_t candidate = size;
    while (16 * share(candidate) > 17 * fewest)
      --candidate;
    return candidate;
  };
  // A contraction (matmul, batch matmul) reuses each operand along the
  // other's parallel loop: a square tile of the two innermost parallel loops
  // of the contraction (or of its epilogue, over the same iteration space;
  // the rest tiled by 1) lets a GPU block stage both operands' slices in
  // shared memory once for the whole tile (fuse-distribute-tiles).
  if (wantsSquares(policy, keepRows, contraction) &&
      linalgOp.hasPureTensorSemantics() && !linalgOp.hasDynamicShape()) {
    SmallVector<unsigned> parallel;
    linalgOp.getParallelDims(parallel);
    // A contraction: its result's innermost N loop and the M loop nearest
    // it (ViT's fused Q, K and V projection, loops (l, j, e) written as
    // (j, l, e), squares l x e, not j x e).
    if (std::optional<std::pair<unsigned, unsigned>> mn =
            getSquareLoops(linalgOp)) {
      auto [m, n] = *mn;
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
      while (side / 2 >= TilePolicy::kMinContractionSide && squareTiles(side) < policy.contractionTiles)
        side /= 2;
      int64_t mTile = tileAtMost(ranges[m], side);
      int64_t nTile = tileAtMost(ranges[n], side);
      // A whole innermost M loop no wider than the side (7 to 64 pixels of
      // a convolution's output row) takes output rows too, the M loop
      // outside it: all of them where that is at most four sides' worth of
      // pixels, else the most that fit (a divisor of the rows, static like
      // the rest). Every pixel of the tile reuses its slice of the other
      // operand (the filter), where a wider N would only enlarge the slice:
      // a 3x3 convolution over 512 channels at 28x28, in tiles of one row
      // by 128 filters (N widened below), read its 2.4 MB slice of the
      // filter from L3 for every 28 pixels; in 7 rows by 64 filters, once
      // for 196 pixels (31.3 -> 24.0 ms on a Xeon, one thread). The window
      // of a tile of some of the rows is a static, padded box like that of
      // a one-row tile, and taller tiles copy fewer halo rows: U-Net's rows
      // of exactly one side (64 pixels), tiled one row by 64 filters, copied
      // three input rows per output row for each 64 filters (406 KB from L3
      // per tile over 512 channels); in 4 rows, six per four (a 3x3
      // convolution over 512 channels by 128 filters alone, one thread, on
      // a Xeon: 1.12x; 256 by 256 1.10x, 64 by 128 1.02x).
      //
      // Rows without such a divisor (Inception-v3's 17) take a partial last
      // tile where the whole filter is more than L2 keeps
      // (streamedWeightBytes): Mixed_6a's 3x3 convolution over 288 channels
      // by 384 filters (4 MB) in tiles of one 17-pixel row by 192 filters
      // read a 2 MB slice from L3 for every row; in 15 + 2 rows by 64
      // filters, twice in all (4.04 -> 2.71 ms on a Xeon, one thread). A
      // smaller filter stays in L2 across one-row tiles anyway, and the
      // partial tile's nest only costs (Inception's 1x7 convolutions).
      //
      // N then takes whole register blocks (kBlockWidth) where the filters
      // have such a divisor, else whole vectors, so that the register blocks
      // can: 160 filters in tiles of 32, not 40; 96 in tiles of 32, not 48,
      // whose blocks were one vector wide (7 x 16: 1.14 loads per
      // multiply-add against 7 x 32's 0.64; Inception-v3's 3x3 convolutions
      // to 96 filters at 35x35, 1.18 -> 0.94 ms, 70% -> 87% of the FMA
      // peak); without such a divisor (88 filters), N widens instead. With
      // all the rows, only while N is still cut: one tile of everything
      // would be tiled in rows like any small group.
      std::optional<unsigned> outer;
      int64_t outerTile = 1;
      if (policy.widenRowsFirst && outerRowsShareOperand &&
          parallel.size() >= 3 && m == parallel[parallel.size() - 2] &&
          n == parallel.back() && mTile == ranges[m] && mTile <= side) {
        unsigned candidate = parallel[parallel.size() - 3];
        int64_t vectorTile = getLargestDivisorOf(ranges[n], side, kBlockWidth);
        if (!vectorTile)
          vectorTile = getLargestDivisorOf(ranges[n], side, kVector);
        int64_t rowsLimit = 4 * side / mTile;
        int64_t rowsTile =
            streamedFilter ? tileAtMost(ranges[candidate], rowsLimit)
                           : getLargestDivisor(ranges[candidate], rowsLimit);
        if (rowsTile > 1 && vectorTile > 0 &&
            (rowsTile < ranges[candidate] || vectorTile < ranges[n]) &&
            numTiles(mTile, vectorTile) / rowsTile >= policy.contractionTiles) {
          outer = candidate;
          outerTile = rowsTile;
          nTile = vectorTile;
        }
      }
      // A side without a good divisor (197 tokens tile by 1 without partial
      // tiles; 100 by 50) leaves a thin
      // tile whose few points would idle most of a block's threads: the
      // other side widens towards the square's area (at most four sides),
      // as far as enough tiles remain.
      //
      // A widened N takes whole register blocks where its divisor is not
      // whole vectors, the last tile partial: a classifier's 1000 classes
      // in tiles of 256 (3 and one of 232), not 250. A tile of 250 columns
      // ran its one row as register blocks of 128, 64, 32, 16, 8 and 2
      // columns, each streaming a strided part of the tile's rows of the
      // weight (a row of 1000 bytes, not a multiple of a cache line), and
      // left the weight unpacked in panels; a 10240 x 1000 weight streamed
      // at 8 GB/s where one of 10240 x 1024 streams at 28.
      bool widenN = mTile < side && nTile >= mTile && !outer;
      bool widenM = !widenN && nTile < side && mTile > nTile;
      auto wholeBlocksAtMost = [&](int64_t range, int64_t limit) {
        int64_t size = tileAtMost(range, limit);
        if (!policy.partialTiles || size % kVector == 0 || range <= limit ||
            limit < kBlockWidth)
          return size;
        return limit / kBlockWidth * kBlockWidth;
      };
      if (widenN || widenM) {
        int64_t &thin = widenN ? mTile : nTile;
        int64_t &wide = widenN ? nTile : mTile;
        int64_t range = ranges[widenN ? n : m];
        for (int64_t limit = std::min(4 * side, side * side / thin);
             limit > wide; limit /= 2) {
          int64_t widened = widenN ? wholeBlocksAtMost(range, limit)
                                   : tileAtMost(range, limit);
          if ((widenN ? numTiles(mTile, widened)
                      : numTiles(widened, nTile)) >= policy.contractionTiles) {
            wide = std::max(wide, widened);
            break;
          }
        }
      }
      // A few tiles of an odd number (192 filters of 49 pixels in 3 tiles
      // of 64) leave one of two cores a tile more than the other, up to a
      // third of the nest idle: N takes the largest smaller divisor that
      // gives an even number of tiles, where one does, of two vectors
      // first (an AVX-512 register block's width: 6 tiles of 32, not 4 of
      // 48, whose blocks would be one vector wide), then of one. Each
      // output's reduction is the same in any N tile, so the values are
      // too; the tiles, not the thread count, decide. Not where N was
      // widened past the side above (its tiles are few on purpose: those
      // are halved below where the policy says so).
      auto tilesWith = [&](int64_t nSize) {
        int64_t tiles = numTiles(mTile, nSize);
        return tiles / outerTile;
      };
      constexpr int64_t kFewTiles = 8, kOddTiles = 32;
      int64_t nTiles = nTile > 0 ? tilesWith(nTile) : 0;
      if (nTile <= side && nTiles > 1 && nTiles < kFewTiles &&
          nTiles % 2 != 0 && ranges[n] % nTile == 0) {
        auto evenWith = [&](int64_t multiple) -> int64_t {
          for (int64_t d = (nTile - 1) / multiple * multiple; d >= multiple;
               d -= multiple)
            if (ranges[n] % d == 0 && tilesWith(d) % 2 == 0)
              return d;
          return 0;
        };
        int64_t even = evenWith(kBlockWidth);
        if (!even)
          even = evenWith(kVector);
        if (even)
          nTile = even;
      } else if (policy.halveOddTiles && nTiles > 1 && nTiles < kOddTiles &&
                 nTiles % 2 != 0 && ranges[n] % nTile == 0 &&
                 nTile % (2 * kBlockWidth) == 0) {
        // More tiles of an odd number, or a few where N was widened, still
        // leave a core idle for one of them: Inception-v3's 17 x 17 stage,
        // each 17-pixel row one tile of all of a convolution's 128 to 192
        // filters (N widened above), 1/17 of the nest at two threads;
        // GPT-2's 16-token projections to 768 columns in 3 tiles of 256, a
        // third. N halves where the halves are whole register blocks: 34
        // tiles of 96 filters (not 160 filters into 80, nor 32 into 16,
        // whose blocks would be partly or wholly one vector wide). Each
        // tile reads its input rows once more, from L2. Inception-v3 at two
        // threads: 1.02-1.03x.
        nTile /= 2;
      }
      for (unsigned d : parallel)
        sizes[d] = builder.getIndexAttr(ranges[d] == 1 ? 0 : 1);
      sizes[m] = builder.getIndexAttr(mTile);
      sizes[n] = builder.getIndexAttr(nTile);
      if (outer)
        sizes[*outer] = builder.getIndexAttr(outerTile);
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
  std::optional<TransposedRows> transposed =
      policy.transposeBlock > 0 && !contraction
          ? getTransposedReadLoop(linalgOp)
          : std::nullopt;
  if (transposed &&
      (iterators[transposed->read] != utils::IteratorType::parallel ||
       ShapedType::isDynamic(ranges[transposed->read]) ||
       ranges[transposed->read] < policy.transposeBlock))
    transposed.reset();
  // A transposing root's tile along the loops of rows (read and written):
  // the whole range up to `limit`; else the largest divisor of whole
  // blocks, or with partialTiles where that is under half the limit (112
  // of an image's rows: 16) the limit's whole blocks, the last tile
  // partial (64 and 48); 0 where there is no divisor of whole blocks and
  // no partial tiles (the loop is then tiled as any root's).
  auto blocksAtMost = [&](int64_t range, int64_t limit) -> int64_t {
    int64_t block = policy.transposeBlock;
    if (range <= limit)
      return range;
    int64_t size = getLargestDivisorOf(range, limit, block);
    if (policy.partialTiles && 2 * size < limit)
      return limit / block * block;
    return size;
  };
  if (transposed) {
    int64_t range = ranges[transposed->read];
    int64_t size = blocksAtMost(range, TilePolicy::kTransposeTileRows);
    if (size == 0) {
      transposed.reset();
    } else {
      tileElements = tileElements / range * size;
      if (size != range) {
        sizes[transposed->read] = builder.getIndexAttr(size);
        tiled = true;
      }
    }
  }
  for (auto [i, it] : llvm::enumerate(iterators)) {
    // Unit loops stay untiled: a trip count of one adds a loop dimension
    // that makes otherwise equal nests unmergeable.
    if (it != utils::IteratorType::parallel ||
        ShapedType::isDynamic(ranges[i]) || ranges[i] == 1 ||
        (transposed && i == transposed->read))
      continue;
    if (tileElements <= minTileElements)
      break;
    int64_t inner = tileElements / std::max<int64_t>(1, ranges[i]);
    // The last loop tiled takes as many of its iterations as fit, so that
    // a tile is several rows, not one (fewer, larger tiles: less halo
    // recomputed around convolutions, less per-tile overhead); a
    // transposing root's rows in whole blocks where it can.
    int64_t limit = minTileElements / std::max<int64_t>(1, inner);
    int64_t size = 1;
    if (inner <= minTileElements) {
      if (transposed && i == transposed->lanes &&
          limit >= policy.transposeBlock)
        size = blocksAtMost(ranges[i], limit);
      if (size <= 1)
        size = rowTileAtMost(ranges[i], limit);
    }
    sizes[i] = builder.getIndexAttr(size);
    tileElements = inner * size;
    tiled |= ranges[i] > size;
  }
  // A group smaller than one tile is still split, along its first non-unit
  // parallel loop in as few tiles as possible (work for two cores or
  // blocks), unless each tile would read something whole again
  // (`splitOneTile` false: a contraction's weight): then it is one tile
  // (tileRoot keeps its loop of one iteration).
  if (!tiled && splitOneTile)
    for (auto [i, it] : llvm::enumerate(iterators))
      if (it == utils::IteratorType::parallel &&
          !ShapedType::isDynamic(ranges[i]) && ranges[i] > 1) {
        // The largest divisor up to half; with `splitInHalves` (each tile
        // reads a weight whole), halves where that divisor is under half
        // of half (more than 4 tiles), the second partial: 197 tokens in
        // 99 + 98 rows, not 197 tiles of one that each streamed the weight
        // (3 roots, Q, K and V, still in 3 tiles of one, not 2 + 1).
        // On the loop of the result's innermost dimension (the lanes: a
        // classifier's 1000 classes after its pooling), a half that is not
        // whole vectors is rounded up to whole register blocks instead, the
        // second tile partial: 512 + 488, not 500 + 500, each of which ran
        // register blocks of 256, 128, 64, 32, 16 and 4 lanes, one pass down
        // the weight each.
        int64_t half = llvm::divideCeil(ranges[i], 2);
        int64_t divisor = getLargestDivisor(ranges[i], ranges[i] / 2);
        int64_t size = splitInHalves && 2 * divisor < half
                           ? rowTileAtMost(ranges[i], half)
                           : divisor;
        if (policy.partialTiles && isLanesLoop(linalgOp, i) &&
            size % kVector != 0 && half > kBlockWidth)
          size = llvm::alignTo(half, kBlockWidth);
        sizes[i] = builder.getIndexAttr(size);
        break;
      }
  return sizes;
}

/// Whether `op` has one result, which it writes at its leading loops in
/// order (its result's dimension i is its loop i).
static bool writesLeadingLoops(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return false;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (map.getNumResults() > map.getNumDims())
    return false;
  for (auto [i, result] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim || dim.getPosition() != i)
      return false;
  }
  return true;
}

/// The tiles of a pool over disjoint windows that computes its input's
/// producer in its nest (getPoolNestProducer): the producer's tiles as it
/// would take them as the root (a convolution's squares of pixels by
/// filters, its filter slice read once per tile), whole tiles, each
/// divided by the window along the pooled dimensions, rounded down to a
/// whole tile of whole windows. Without it the pool took its own tiles,
/// rows of all channels, each of which read the whole filter (VGG-16's
/// 14x14 512 -> 512 convolution under its pool: 7 tiles each reading the
/// 9.4 MB filter, 9.2-11.3 ms against 8.3-8.5 ms without the pool).
static std::optional<SmallVector<OpFoldResult>>
getPoolTileSizes(OpBuilder &builder, GroupOp group, TilingInterface pool,
                 const TilePolicy &policy, bool onlyRoot, bool alikeSiblings) {
  Operation *producer = getPoolNestProducer(pool);
  auto poolOp = dyn_cast<linalg::LinalgOp>(pool.getOperation());
  auto producerOp = dyn_cast_or_null<linalg::LinalgOp>(producer);
  if (!producerOp || !poolOp || !writesLeadingLoops(poolOp) ||
      !writesLeadingLoops(producerOp))
    return std::nullopt;
  auto input = cast<ShapedType>(producer->getResult(0).getType());
  auto output = cast<ShapedType>(pool->getResult(0).getType());
  TilePolicy wholeTiles = policy;
  wholeTiles.partialTiles = false;
  SmallVector<OpFoldResult> sizes =
      getRootTileSizes(builder, group, cast<TilingInterface>(producer),
                       wholeTiles, onlyRoot, alikeSiblings);
  // isDisjointWindowPool: static shapes, each input extent the output's
  // times the window.
  if (input.getRank() != output.getRank() ||
      sizes.size() < size_t(input.getRank()))
    return std::nullopt;
  // Dimension d of the pool's result and input is its loop d, as of the
  // producer's result (the named NHWC and NCHW pools; writesLeadingLoops).
  SmallVector<OpFoldResult> poolSizes;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (!size || output.getDimSize(d) < 1)
      return std::nullopt;
    // A dimension the producer does not tile, the pool does not either.
    if (*size == 0) {
      poolSizes.push_back(builder.getIndexAttr(0));
      continue;
    }
    int64_t window = input.getDimSize(d) / output.getDimSize(d);
    // The largest whole tile of whole windows up to the producer's (7 rows
    // of 28 under a 2 x 2 pool: 2 pooled rows, 4 rows).
    int64_t windows = *size / window;
    while (windows > 0 && output.getDimSize(d) % windows != 0)
      --windows;
    if (windows == 0)
      return std::nullopt;
    poolSizes.push_back(builder.getIndexAttr(windows));
  }
  poolSizes.resize(poolOp.getNumLoops(), builder.getIndexAttr(0));
  return poolSizes;
}

SmallVector<OpFoldResult> getRootTileSizes(OpBuilder &builder, GroupOp group,
                                           TilingInterface root,
                                           const TilePolicy &policy,
                                           bool onlyRoot, bool alikeSiblings) {
  if (std::optional<SmallVector<OpFoldResult>> sizes = getPoolTileSizes(
          builder, group, root, policy, onlyRoot, alikeSiblings))
    return *sizes;
  // Any reduction in the group other than the root's own (a conservative
  // stand-in for the ones fused into this nest).
  bool fusedReduction = false;
  // The root is a contraction, or an epilogue of one with the same shape
  // (a matmul followed by bias and activation). Only for a group's only
  // root, or siblings of one shape: sibling nests merge only when their
  // tiles are alike.
  bool contraction = false;
  bool squaresAllowed = onlyRoot || alikeSiblings;
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
  // With square contraction tiles and `convolutionsAsMatmuls` (both
  // lowerings), a convolution with output channels (not depthwise) is a
  // matmul of its output pixels by its filters (an implicit GEMM on the
  // GPU), so that a tile's filter slice stays in cache for all its pixels.
  auto isMatmulLike = [&](linalg::LinalgOp op) {
    if (linalg::isaContractionOpInterface(op))
      return true;
    if (policy.contractionTile <= 1 || !policy.convolutionsAsMatmuls ||
        !linalg::isaConvolutionOpInterface(op))
      return false;
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(op);
    return succeeded(dims) && !dims->outputChannel.empty() &&
           dims->depth.empty();
  };
  // Whether the root's parallel loop outside its last two is an M loop of
  // the contraction (a convolution's output rows, a 1x1 convolution's as a
  // matmul), not a batch: read by the image or A, not by the filter or B.
  // Positions of the result are the root's loops only where the root
  // writes its result with an identity map.
  bool outerRowsShareOperand = false;
  auto rootOp = dyn_cast<linalg::LinalgOp>(root.getOperation());
  // (A convolution or matmul root with no epilogue writes its result at
  // its leading loops, the reduction loops after: its map is no identity,
  // but the positions still name its loops. ResNet-50's strided 1x1
  // projection, 7 x 7 x 2048 with no activation, was tiled by one output
  // row, so its 8 MB filter streamed from memory once per row.)
  bool rootIdentity = rootOp && writesLeadingLoops(rootOp);
  auto isOuterRowM = [&](linalg::LinalgOp op) {
    auto type = cast<ShapedType>(op->getResult(0).getType());
    if (!rootIdentity ||
        op->getResult(0).getType() != root->getResult(0).getType() ||
        type.getRank() < 3 || op.getNumDpsInits() != 1)
      return false;
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    auto dim = dyn_cast<AffineDimExpr>(out.getResult(type.getRank() - 3));
    if (!dim)
      return false;
    if (linalg::isaContractionOpInterface(op)) {
      FailureOr<linalg::ContractionDimensions> dims =
          linalg::inferContractionDims(op);
      return succeeded(dims) && llvm::is_contained(dims->m, dim.getPosition());
    }
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(op);
    return succeeded(dims) &&
           llvm::is_contained(dims->outputImage, dim.getPosition());
  };
  // Whether a contraction of the group reads a constant (a weight, through
  // slices and views of it); whether an op of the group reads a window (a
  // convolution, depthwise or not, a pool); the largest such weight, in
  // bytes, as the contraction reads it.
  bool readsWeight = false, windowed = false, streamedFilter = false;
  int64_t weightBytes = 0;
  auto isWeight = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (def->hasTrait<OpTrait::ConstantLike>())
        return true;
      if (!isa<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
               tensor::CollapseShapeOp>(def))
        return false;
      v = def->getOperand(0);
    }
    return false;
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
    contraction |= isContraction && squaresAllowed;
    outerRowsShareOperand |= isContraction && squaresAllowed && isOuterRowM(op);
    if (isContraction && policy.streamedWeightBytes > 0)
      streamedFilter |=
          getNSideBytes(op).value_or(std::numeric_limits<int64_t>::max()) >=
          policy.streamedWeightBytes;
    if (isMatmulLike(op))
      for (Value input : op.getDpsInputs())
        if (isWeight(input)) {
          readsWeight = true;
          if (auto type = dyn_cast<ShapedType>(input.getType()))
            weightBytes =
                std::max(weightBytes, getCheckedByteSize(type).value_or(
                                          std::numeric_limits<int64_t>::max()));
        }
    windowed |= linalg::isaConvolutionOpInterface(op);
    // (A pool computing the root in its nest reads the root's tiles, not
    // the other way round: getPoolTileSizes.)
    if (op.getOperation() != root.getOperation() &&
        op.getNumReductionLoops() > 0 && !isContraction &&
        getPoolNestProducer(op) != root.getOperation())
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
  // A matmul with more rows than a side (see wideSideFactor).
  auto hasManyRows = [&] {
    std::optional<std::pair<unsigned, unsigned>> mn =
        rootOp ? getSquareLoops(rootOp) : std::nullopt;
    if (!mn)
      return false;
    int64_t rows = rootOp.getStaticLoopRanges()[mn->first];
    return ShapedType::isDynamic(rows) || rows > policy.contractionTile;
  };
  int64_t wideSide;
  if (contraction && !windowed && policy.wideSideFactor > 1 && hasManyRows() &&
      !llvm::MulOverflow(policy.contractionTile, policy.wideSideFactor,
                         wideSide))
    rootPolicy.contractionTile = wideSide;
  rootPolicy.partialTiles &=
      !isDisjointWindowPool(root) && (onlyRoot || !feedsInsert(root));
  // Tiles in rows that each read something whole again take more rows:
  // around a window, its halo; with a contraction not tiled in squares
  // (rows kept whole, several roots), its weight.
  // A group of such rows that fits one tile may stay one tile, its weight
  // read once (oneWeightRowTile).
  bool splitOneTile = true, splitInHalves = false;
  if (readsWeight && rootOp &&
      !wantsSquares(policy, fusedReduction, contraction)) {
    int64_t limit = policy.weightRowTileElements;
    if (policy.streamedWeightBytes > 0 &&
        weightBytes >= policy.streamedWeightBytes)
      if (llvm::MulOverflow(limit, TilePolicy::kStreamedWeightTileFactor,
                            limit))
        limit = std::numeric_limits<int64_t>::max();
    rootPolicy.minTileElements = std::max(rootPolicy.minTileElements, limit);
    splitOneTile = !policy.oneWeightRowTile;
    splitInHalves = rootPolicy.partialTiles;
  } else if (windowed && !contraction && rootOp) {
    int64_t results = 1;
    for (auto [range, it] : llvm::zip(rootOp.getStaticLoopRanges(),
                                      rootOp.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel && !ShapedType::isDynamic(range))
        results *= range;
    rootPolicy.minTileElements = std::max(
        rootPolicy.minTileElements,
        std::min(policy.windowTileElements,
                 results / TilePolicy::kMinWindowTiles));
  }
  return getTileSizes(builder, root, rootPolicy, fusedReduction, contraction,
                      outerRowsShareOperand, streamedFilter, splitOneTile,
                      splitInHalves);
}

static std::optional<SmallVector<int64_t>>
getCommonTileSizesUnder(OpBuilder &builder, GroupOp group,
                        ArrayRef<TilingInterface> roots,
                        const TilePolicy &policy, bool alike) {
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
             builder, group, root, policy, /*onlyRoot=*/false, alike))) {
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

std::optional<SmallVector<int64_t>>
getCommonTileSizes(OpBuilder &builder, GroupOp group,
                   ArrayRef<TilingInterface> roots, const TilePolicy &policy) {
  if (roots.size() < 2)
    return std::nullopt;
  // Roots of one result type tile their contractions in squares, which
  // then line up. Taken where that splits the columns (GPT-2's QKV: each
  // tile computes a block of columns of Q, K and V and reads those columns
  // of their weights, once; in rows, every tile read all three weights);
  // squares that split only rows would read the weights once per tile.
  if (llvm::all_of(roots, [&](TilingInterface root) {
        return root->getNumResults() == 1 &&
               root->getResult(0).getType() ==
                   roots.front()->getResult(0).getType();
      })) {
    std::optional<SmallVector<int64_t>> squares =
        getCommonTileSizesUnder(builder, group, roots, policy, /*alike=*/true);
    if (squares && !squares->empty() && squares->back() != 0)
      return squares;
  }
  // Siblings that are each one tile (oneWeightRowTile) are one tile
  // together. Where only some are, all take the tiles they would have
  // without it, so that they still share one nest (Inception-v3's three
  // 1x1 convolutions of one input: 48 filters fit one tile, 64 do not).
  std::optional<SmallVector<int64_t>> common =
      getCommonTileSizesUnder(builder, group, roots, policy, /*alike=*/false);
  if (!policy.oneWeightRowTile ||
      (common && llvm::all_of(*common, [](int64_t s) { return s == 0; })))
    return common;
  TilePolicy split = policy;
  split.oneWeightRowTile = false;
  return getCommonTileSizesUnder(builder, group, roots, split,
                                 /*alike=*/false);
}

} // namespace mlir::fuse::tiling
