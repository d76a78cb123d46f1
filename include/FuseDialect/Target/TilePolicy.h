//===- TilePolicy.h - How groups are cut into tiles -------------*- C++ -*-===//
//
// Every tiling knob, with its one default per target: how fuse-tile-groups
// shapes a group's tiles (`TilePolicy`) and how fuse-vectorize-tiles cuts a
// tile into vector code (`VectorPolicy`). The pipelines' options start from
// `TilePolicy::forCpu` and `TilePolicy::forGpu`; the pass options of
// --fuse-tile-groups start from `TilePolicy{}`. "Where do I change tile
// sizes?": here.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TARGET_TILEPOLICY_H
#define FUSEDIALECT_TARGET_TILEPOLICY_H

#include "FuseDialect/Target/TargetDescription.h"

#include <algorithm>
#include <cstdint>

namespace mlir::fuse {

/// The side of the blocks the CPU lowering transposes in registers
/// (fuse-vectorize-tiles): upstream lowers a transpose of 16 x 16 32-bit
/// values as 64 shuffles (on AVX2 each row is two vectors), other sizes
/// element by element. The CPU's TilePolicy::transposeBlock.
inline constexpr int64_t kTransposeBlock = 16;

/// How a group's root is tiled (fuse-tile-groups).
struct TilePolicy {
  /// The smallest side `contractionTiles` halves a contraction tile to.
  static constexpr int64_t kMinContractionSide = 32;
  /// Threads per block of the GPU lowering (a tile is one block).
  static constexpr int64_t kGpuBlockSize = 256;
  /// Reduction elements a staged GPU contraction copies to shared memory
  /// per chunk (the largest divisor of its reduction up to this).
  static constexpr int64_t kGpuReductionChunk = 32;

  /// A tile holds at most this many results (whole rows when a row is
  /// larger). The pass alone defaults to small tiles, which its tests read
  /// easily; the pipelines choose per target.
  int64_t minTileElements = 256;
  /// Square tiles of at most this side over a contraction's two innermost
  /// parallel loops (0: rows, like every other op).
  int64_t contractionTile = 0;
  /// The side halves, down to kMinContractionSide, while a contraction has
  /// fewer tiles than this.
  int64_t contractionTiles = 1;
  /// A range without a good divisor is tiled with a partial last tile
  /// (peeled into a nest of its own) instead of by its best divisor.
  bool partialTiles = true;
  /// With contraction tiles, a convolution with output channels is tiled as
  /// a matmul of its output pixels by its filters (the GPU's implicit GEMM);
  /// false: it keeps rows.
  bool convolutionsAsMatmuls = true;
  /// Convolutions read their filters with the output channels contiguous,
  /// one vector load of the CPU's register blocks (F x ...: a strided
  /// gather per step): a 1x1 convolution, rewritten as a matmul, reads its
  /// filter as C x F, others as H x W x C x F; a constant filter permuted at
  /// compile time, another transposed at run time: in the tile that reads
  /// it where each tile reads its own filters, otherwise once per call in a
  /// nest of its own (tileRoot does not fuse it into tiles that share
  /// filters, which would each transpose them again).
  bool contiguousFilters = false;
  /// A contraction tile that takes its innermost M dimension whole and is
  /// still no wider than the side (a convolution's short output rows: 7
  /// pixels in ResNet-50's last stage, 64 in U-Net's) first takes more of
  /// the M dimension outside it (more output rows, which read the same
  /// filters), up to the side's area, and only then widens N. Every pixel
  /// of a tile reuses its filter slice, so on a CPU the rows are what keeps
  /// that slice in cache; a wider N only makes the slice larger. false: N
  /// widens (a GPU block's threads want points, which either side gives).
  bool widenRowsFirst = false;
  /// A group tiled in rows around a window (a depthwise convolution, a
  /// pool, a convolution not tiled as a matmul) has tiles of up to this
  /// many results, but at least kMinWindowTiles of them: each tile reads
  /// its window's halo rows again (a tile of one output row of a 3x3
  /// depthwise convolution reads three input rows, copied padded into the
  /// tile), so taller tiles read and copy less per result. 0: as other
  /// groups (minTileElements).
  int64_t windowTileElements = 0;
  /// Fewest tiles windowTileElements leaves a group (the cores' share).
  static constexpr int64_t kMinWindowTiles = 8;
  /// A group with a contraction whose tiles are rows of its result (its
  /// rows kept whole for a LayerNorm fused after it, or one of several
  /// roots: a QKV projection split into Q, K and V) streams the contraction's
  /// whole weight once per tile: tiles of up to this many results. 0: as
  /// other groups.
  int64_t weightRowTileElements = 0;
  /// Such a group whose rows all fit one tile stays one tile, its weight
  /// read once (GPT-2's 16 tokens); false: it is split in two like any
  /// small group, each half streaming the whole weight.
  bool oneWeightRowTile = false;
  /// A contraction (not a convolution) with more rows (M) than
  /// contractionTile tiles in squares this many times contractionTile a
  /// side. Each row of tiles reads all of B again: a constant B streamed
  /// from L3 or memory, a B computed at run time packed again tile by tile
  /// (on the CPU). Taller rows of tiles read it fewer times, and the
  /// reduction chunk (VectorPolicy::reductionChunk) keeps a wider tile's
  /// panel of B in L2. ViT-B/16's 197 tokens by its 3072 x 768 MLP weight
  /// (9.4 MB): 4 rows of tiles read it four times, 2 twice (the projection
  /// alone 5.96 -> 5.52 ms, the model 1.16x on one core and 1.13x on two,
  /// on a Xeon with 2 MB of L2; docs/Performance.md); with B an argument,
  /// 11.8 -> 10.4 ms (a tile of 5 rows had packed all of B again). A
  /// contraction of at most contractionTile rows is one row of tiles
  /// anyway, and a wider tile only makes each panel of B larger (GPT-2's
  /// 16 tokens, whose weights stream from memory: 0.94x at one thread).
  /// 1: contractionTile.
  int64_t wideSideFactor = 1;
  /// Elementwise readers of one contraction or window op's result are one
  /// multi-result root (mergeSiblingReaders), so that their nest computes
  /// the contraction once (DenseNet-121 on the CPU: 254 -> 61 ms). false on
  /// the GPU: a thread then keeps every reader's value in registers, and
  /// DenseNet's kernels spilled up to 968 bytes; each reader's nest
  /// recomputes the contraction there (the trade not yet timed on a GPU).
  bool mergeSiblingReaders = false;
  /// A weight of at least this many bytes (more than a core's L2) streams
  /// from L3 or memory once per tile of a group tiled in rows
  /// (weightRowTileElements): such a group takes tiles of up to
  /// kStreamedWeightTileFactor times as many results, in practice halves,
  /// one per core of two. ViT-B/16's MLP projection with its LayerNorm,
  /// 197 tokens by a 3072 x 768 weight (9.4 MB): two tiles of 99 and 98
  /// rows, not four of 53 and 38 (5.94 -> 4.88 ms on one core, 4.16 ->
  /// 2.53 on two, on a Xeon with 2 MB of L2). 0: never.
  int64_t streamedWeightBytes = 0;
  static constexpr int64_t kStreamedWeightTileFactor = 4;
  /// A group's result that other groups pad is written with the halo filled
  /// around it (PadInProducers.cpp), so that a convolution's or pool's tile
  /// reads its window there instead of copying it into a padded window of
  /// its own. false on the GPU: not yet timed there.
  bool padInProducers = false;
  /// An odd count of fewer than 32 contraction tiles, or a few where N was
  /// widened, halves N where the halves are whole register blocks, so that
  /// two cores share the tiles evenly (Inception-v3's 17 x 17 stage: 17
  /// one-row tiles of 192 filters, 9 to one core and 8 to the other, become
  /// 34 of 96). false on the GPU: its blocks are many, and the change is
  /// not yet timed there.
  bool halveOddTiles = false;
  /// A root that reads an input transposed (that input's rows run along
  /// another loop than its result's rows: an NCHW tensor written NHWC, a
  /// matrix transposed) is tiled along the loop of that input's rows first,
  /// whole up to kTransposeTileRows, else in whole blocks of this many
  /// (TileSizes.cpp, getTileSizes), so that its tiles move blocks of this
  /// many rows by as many columns, each row of a block a contiguous run,
  /// instead of a few values of each input row: a 1024 x 1024 transpose
  /// was tiled 4 output rows by 1024, which read 16 bytes of every input
  /// row and gathered them value by value. The CPU's is kTransposeBlock,
  /// the blocks fuse-vectorize-tiles transposes in registers (other values
  /// give tiles it cuts into its blocks and rests). 0: tiled as any other
  /// root (the GPU's: not yet timed there).
  int64_t transposeBlock = 0;
  /// The most rows of its input a transposing root's tile takes.
  static constexpr int64_t kTransposeTileRows = 64;

  /// The CPU lowering: tiles of rows large enough to amortize the loop
  /// overhead and small enough for a core's cache; a matmul in squares of
  /// 64 outputs a side, whose operands' slices (64 rows and columns by the
  /// whole reduction) stay in the core's L2 while the tile reuses them (in
  /// rows, every row streamed all of the weights: ViT's 768x3072 MLP
  /// weights, 9.4 MB, once per token). Convolutions with output channels
  /// too, as matmuls of pixels by filters (in rows, every row of ResNet-50's
  /// 7x7 stage streamed all of an 8 MB filter: its strided 1x1 convolution
  /// 150 -> 20 ms). A convolution's tile spans several short output rows
  /// (widenRowsFirst: 7 x 7 pixels by 64 filters there, not 7 by 256).
  /// Windows in tiles of up to 32768 results (a 56 x 56 x 144 depthwise
  /// convolution in 4-row tiles, not 28-pixel ones: 0.89 -> 0.51 ms), and
  /// contractions in rows in tiles of up to 65536 (256 KB of f32 results:
  /// GPT-2's LayerNorm-fused MLP projection in two tiles, not four that
  /// each streamed its 9.4 MB weight; 2.5 -> 2.0 ms alone); rows that fit
  /// one such tile are still split in two (not oneWeightRowTile: since a
  /// contraction with few rows of register blocks streams its weight in
  /// one run, two tiles of 8 of GPT-2's 16 tokens run 1.07x faster on one
  /// core than one tile, 1.39x on two; Inception-v3 1.13x, MobileNetV2
  /// 1.06x on two, unchanged on one). The same with `parallel`: the tiles, not
  /// the thread count, decide which contractions get register blocks (with
  /// fused multiply-adds), so equal tiles keep the values equal.
  static constexpr TilePolicy forCpu() {
    return TilePolicy{/*minTileElements=*/4096,
                      /*contractionTile=*/64,
                      /*contractionTiles=*/1,
                      /*partialTiles=*/true,
                      /*convolutionsAsMatmuls=*/true,
                      /*contiguousFilters=*/true,
                      /*widenRowsFirst=*/true,
                      /*windowTileElements=*/32768,
                      /*weightRowTileElements=*/65536,
                      /*oneWeightRowTile=*/false,
                      /*wideSideFactor=*/2,
                      /*mergeSiblingReaders=*/true,
                      /*streamedWeightBytes=*/int64_t(2) << 20,
                      /*padInProducers=*/true,
                      /*halveOddTiles=*/true,
                      /*transposeBlock=*/kTransposeBlock};
  }
  /// The GPU lowering: a tile is a block's work; contractions in 64x64
  /// squares, halved until every SM has a block.
  static constexpr TilePolicy forGpu(const GpuDescription &gpu = {}) {
    return TilePolicy{/*minTileElements=*/1024, /*contractionTile=*/64,
                      /*contractionTiles=*/gpu.numSMs, /*partialTiles=*/true,
                      /*convolutionsAsMatmuls=*/true,
                      /*contiguousFilters=*/false, /*widenRowsFirst=*/false,
                      /*windowTileElements=*/0, /*weightRowTileElements=*/0,
                      /*oneWeightRowTile=*/false};
  }
};

/// How a tile's ops become vector code on the CPU (fuse-vectorize-tiles).
struct VectorPolicy {
  /// Largest iteration space vectorized as one op.
  static constexpr int64_t kMaxVectorElements = 512;
  /// Points per vector chunk of a strip-mined op: two vector registers of
  /// f32 (AVX-512: 32).
  static constexpr int64_t kChunkElements = 2 * CpuDescription{}.vectorBytes / 4;
  /// A contraction's register block: rows by columns of accumulators,
  /// the columns two vector registers of f32, the rows a quarter of the
  /// registers, so that the accumulators take half of them and a row of
  /// the right operand, broadcasts and a remainder block fit the rest
  /// (AVX2: 4 x 16, 8 of 16 registers, with 4 x 32 the 16 accumulators
  /// spilled; AVX-512: 8 x 32, 16 of 32 registers: each vector of B serves
  /// twice the rows of 4 x 32, 0.63 loads per multiply-add instead of
  /// 0.75, and a 7 x 7 stage's 49 pixels block 7 x 32 instead of 7 x 16).
  /// Where the columns come in runs of 64 and the rows in fours, AVX-512
  /// blocks are 4 x 64 instead (RegisterBlocks.cpp, getBlockShape): the
  /// same 16 accumulators, 0.5 loads per multiply-add.
  static constexpr int64_t blockRows(const CpuDescription &cpu) {
    return cpu.vectorRegisters / 4;
  }
  static constexpr int64_t blockCols(const CpuDescription &cpu) {
    return 2 * cpu.vectorBytes / 4;
  }
  /// Reduction steps of one pass of a tile's register blocks over `columns`
  /// columns of results: the panels one row of blocks reads, blockRows x
  /// steps of A and steps x `columns` of B in f32, take at most half of
  /// the core's L2, so the panel of B stays there while the tile's other
  /// rows of blocks reuse it. A row of blocks sweeps all its tile's columns
  /// before the next row starts (the blocks' loops are the op's, rows
  /// outside columns), so `columns` is the tile's width, not a block's:
  /// a 3x3 convolution over 512 channels in tiles of 128 filters reads a
  /// 2.4 MB panel per row of blocks, which sized by one block's 32 columns
  /// (6553 steps with 2 MB, its whole reduction of 4608) came from L3 for
  /// every row: 47% of the FMA peak on a Xeon, 67% in chunks of 1536
  /// steps (docs/Performance.md). A reduction's chunk is its largest
  /// divisor up to this. Not L1: a block's panel of B is one contiguous
  /// run (packed constants, packed tiles) that the L2 prefetchers stream
  /// at the block's rate (a vector of B per block row of multiply-adds),
  /// while an L1-sized chunk (102 steps with 32 KB) made every block load
  /// and store its accumulators once per chunk and broke each stream into
  /// runs a panel apart: on Zen 4 (32 KB L1, 1 MB L2) ResNet-50 and
  /// Inception-v3 ran 7% and 4% faster with the chunks cut from L2.
  static constexpr int64_t reductionChunk(const CpuDescription &cpu,
                                          int64_t columns) {
    return std::max<int64_t>(
        1, cpu.l2Bytes / 2 /
               (4 * (blockRows(cpu) + std::max(columns, blockCols(cpu)))));
  }
};

} // namespace mlir::fuse

#endif // FUSEDIALECT_TARGET_TILEPOLICY_H
