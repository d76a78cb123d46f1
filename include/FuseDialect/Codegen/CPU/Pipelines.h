//===- Pipelines.h - The CPU lowering ---------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CODEGEN_CPU_PIPELINES_H
#define FUSEDIALECT_CODEGEN_CPU_PIPELINES_H

#include "FuseDialect/Codegen/Common/Pipelines.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// Options of `--fuse-lower-to-cpu`.
struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {
  PassOptions::Option<bool> tileGroups{
      *this, "tile-groups",
      llvm::cl::desc("Lower each fuse.group as one tiled loop nest "
                     "(fuse-tile-groups); false dissolves the groups and "
                     "lowers op by op"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> minTileElements{
      *this, "min-tile-elements",
      llvm::cl::desc("fuse-tile-groups: outer loops are tiled until a tile "
                     "holds at most this many results"),
      llvm::cl::init(TilePolicy::forCpu().minTileElements)};
  PassOptions::Option<bool> partialTiles{
      *this, "partial-tiles", llvm::cl::desc(kPartialTilesHelp),
      llvm::cl::init(TilePolicy::forCpu().partialTiles)};
  PassOptions::Option<int64_t> contractionTile{
      *this, "contraction-tile",
      llvm::cl::desc("fuse-tile-groups: a contraction's tile is a square of "
                     "at most this side over its output (its operands' "
                     "slices then stay in cache); 0: rows like other ops"),
      llvm::cl::init(TilePolicy::forCpu().contractionTile)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the tiles of each loop nest on all cores (OpenMP: "
                     "link libomp when running; OMP_NUM_THREADS sets the "
                     "cores); values do not depend on the thread count. "
                     "false: one thread, no OpenMP"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("fuse-thread-tiles: instructions (estimated) below "
                     "which a tile loop runs on the calling thread"),
      llvm::cl::init(1 << 16)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize the elementwise ops and reductions inside "
                     "each tile (fuse-vectorize-tiles); values are unchanged "
                     "unless `reassociate` is set"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reassociate{
      *this, "reassociate",
      llvm::cl::desc("Vectorize float sums and products of long rows with "
                     "per-lane partial results (changes their rounding)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> blockRows{
      *this, "block-rows",
      llvm::cl::desc("fuse-vectorize-tiles: rows of a contraction's register "
                     "block (0: from the host's vector registers)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> blockCols{
      *this, "block-cols",
      llvm::cl::desc("fuse-vectorize-tiles: columns of a contraction's "
                     "register block (0: from the host's vector registers)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> reductionChunk{
      *this, "reduction-chunk",
      llvm::cl::desc("fuse-vectorize-tiles: reduction steps per pass of the "
                     "register blocks over their tile (0: from the L2 and "
                     "the tile's columns)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> l2Bytes{
      *this, "l2-bytes",
      llvm::cl::desc("fuse-vectorize-tiles: bytes of the core's L2 that the "
                     "reduction chunks are sized for (0: the host's)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> epilogues{
      *this, "epilogues",
      llvm::cl::desc("fuse-vectorize-tiles: apply the elementwise ops after "
                     "a contraction or convolution to its register blocks' "
                     "accumulators before they are stored"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> pack{
      *this, "pack",
      llvm::cl::desc("fuse-vectorize-tiles: copy the operand every row of a "
                     "contraction's register blocks reads (a matmul's B) into "
                     "a contiguous tile first"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> packConstantTiles{
      *this, "pack-constant-tiles",
      llvm::cl::desc("fuse-pack-constant-tiles: lay out each constant weight "
                     "the tiles read in slices as one contiguous block per "
                     "tile"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> packConstantPanels{
      *this, "pack-constant-panels",
      llvm::cl::desc("fuse-pack-constant-panels: lay out each constant weight "
                     "the register blocks read in vectors as one contiguous "
                     "panel per block"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fma{
      *this, "fma",
      llvm::cl::desc("Contractions and convolutions with fused multiply-adds "
                     "(one rounding per step instead of two)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("f32 exp, expm1, log1p, erf and tanh as polynomial "
                     "approximations (fuse-approximate-math; at most 6 ulp "
                     "from libm) instead of libm calls, and the sigmoid "
                     "1 / (1 + exp(-x)) without its division (4 ulp)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> padInProducers{
      *this, "pad-in-producers",
      llvm::cl::desc("fuse-tile-groups: a group's result that other groups "
                     "pad is written with its halo, read without a padded "
                     "window per tile"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fillHalos{
      *this, "fill-halos",
      llvm::cl::desc("fuse-fill-halos: a padded window filled only outside "
                     "the box its source is copied into"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("fuse-plan-buffers: a function's temporaries in one "
                     "buffer per call, their memory reused once they are "
                     "dead, instead of one allocation each live to the "
                     "return"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> outParams{
      *this, "out-params",
      llvm::cl::desc("Results written into buffers the caller passes after "
                     "the inputs (upstream buffer-results-to-out-params): "
                     "a result computed into a buffer of its own is "
                     "computed into the caller's, any other is copied "
                     "there; the functions return nothing"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> prefetchEpilogues{
      *this, "prefetch-epilogues",
      llvm::cl::desc("fuse-prefetch-epilogues: the cache lines a register "
                     "block's epilogue reads and writes prefetched before "
                     "its reduction loop"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> prefetchStreams{
      *this, "prefetch-streams",
      llvm::cl::desc("fuse-prefetch-streams: the right operand a register "
                     "block reads step by step prefetched 4 KB ahead"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Heap memory (memref.alloc, memref.dealloc) through "
                     "upstream's generic functions _mlir_memref_to_llvm_alloc "
                     "and _mlir_memref_to_llvm_free instead of malloc and "
                     "free: the runtime fuse-compile links defines them, and "
                     "keeps a thread's largest freed block for its next call "
                     "(lib/Runtime/Workspace.cpp). Code lowered so runs only "
                     "where they are defined"),
      llvm::cl::init(false)};

  /// Refuses values out of range, naming the option (through `error`).
  LogicalResult validate(function_ref<LogicalResult(const Twine &)> error) const;
};

/// Builds the CPU lowering of a module holding TOSA, linalg-on-tensors and
/// `fuse.group` ops down to the LLVM dialect, so that its `@main` runs under
/// `mlir-runner` with the MLIR C runner utilities:
///   1. one loop nest per group (fuse-tile-groups), vector code inside the
///   tiles (fuse-vectorize-tiles), then dissolve groups,
///   2. TOSA → linalg/arith/tensor, 3. bufferize with function boundaries,
///   per-tile temporaries hoisted out of the tile loops, 4. deallocate,
///   5. vectors to 1-D (ordered reductions), loop nests → scf.for,
///   linalg → loops, 6. → LLVM.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const LowerToCPUOptions &options);

/// The end of the CPU lowering: structured ops to loops (`parallel`: tile
/// loops to OpenMP), then the LLVM dialect (`runtimeAllocator`: heap memory
/// through upstream's generic allocation functions). Shared with the CPU
/// emulation of the GPU launches in the tests.
void buildLoopsToLLVMPipeline(OpPassManager &pm, bool parallel,
                              bool runtimeAllocator = false);

/// Registers `--fuse-lower-to-cpu`.
void registerLowerToCPUPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_CPU_PIPELINES_H
