//===- Pipelines.h - Lowering pipelines -------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CONVERSION_PIPELINES_H
#define FUSEDIALECT_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

struct FuseVectorizeTilesPassOptions;

/// The `partial-tiles` option both lowerings have.
inline constexpr const char *kPartialTilesHelp =
    "fuse-tile-groups: a range without a divisor of more than half the "
    "wanted tile is tiled by the wanted tile, the partial last tile peeled "
    "into a nest of its own (false: by the largest divisor)";

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
      llvm::cl::init(4096)};
  PassOptions::Option<bool> partialTiles{*this, "partial-tiles",
                                         llvm::cl::desc(kPartialTilesHelp),
                                         llvm::cl::init(true)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the tiles of each loop nest on all cores (OpenMP; "
                     "link libomp when running)"),
      llvm::cl::init(false)};
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
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("f32 exp, expm1, log1p, erf and tanh as polynomial "
                     "approximations (fuse-approximate-math; at most 6 ulp "
                     "from libm) instead of libm calls"),
      llvm::cl::init(true)};

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

/// The stages both lowerings share: each group one loop nest
/// (fuse-tile-groups, unless `tileGroups` is false), groups dissolved, TOSA
/// to linalg/arith/tensor, one-shot bufferization with identity layouts at
/// function boundaries (concat destinations written in place). With
/// `vectorize`, the elementwise ops and reductions inside each tile become
/// vector ops first (fuse-vectorize-tiles with those options; the CPU
/// pipeline lowers them).
void buildGroupsToBufferizedLoopNests(
    OpPassManager &pm, bool tileGroups, int64_t minTileElements,
    const FuseVectorizeTilesPassOptions *vectorize = nullptr,
    int64_t contractionTile = 0, int64_t contractionTiles = 1,
    bool partialTiles = true);

/// The end of the CPU lowering: structured ops to loops (`parallel`: tile
/// loops to OpenMP), then the LLVM dialect. Shared with the CPU emulation of
/// the GPU launches in the tests.
void buildLoopsToLLVMPipeline(OpPassManager &pm, bool parallel);

/// Registers `--fuse-lower-to-cpu`.
void registerLowerToCPUPipeline();

/// Options of `--fuse-lower-to-nvvm`.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA chip the kernels are built for"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features (e.g. +ptx80)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel binary format: isa (PTX text; needs no GPU or "
                     "CUDA), bin (cubin, needs ptxas), fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("NVVM optimization level (3: at 2 some conv kernels "
                     "spill a few bytes at the 64 registers nvvm.minctasm "
                     "leaves them)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit: libdevice for math functions, ptxas for "
                     "format=bin/fatbin"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<int> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per GPU block"), llvm::cl::init(256)};
  PassOptions::Option<bool> distribute{
      *this, "distribute",
      llvm::cl::desc("One block per tile, the tile's ops shared among its "
                     "threads (fuse-distribute-tiles); false: one thread per "
                     "output element or row"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> tileElements{
      *this, "tile-elements",
      llvm::cl::desc("With distribute: results per tile (block), rows of a "
                     "reduction kept whole"),
      llvm::cl::init(1024)};
  PassOptions::Option<int64_t> contractionTile{
      *this, "contraction-tile",
      llvm::cl::desc("With distribute: a matmul's tile is a square of at most "
                     "this side, its operands staged in shared memory"),
      llvm::cl::init(64)};
  PassOptions::Option<int64_t> contractionTiles{
      *this, "contraction-tiles",
      llvm::cl::desc("With distribute: the tile side halves (down to 32) "
                     "while a matmul has fewer tiles than this (132: one "
                     "block per SM of an H100/H200)"),
      llvm::cl::init(132)};
  PassOptions::Option<bool> partialTiles{*this, "partial-tiles",
                                         llvm::cl::desc(kPartialTilesHelp),
                                         llvm::cl::init(true)};
  PassOptions::Option<bool> cooperativeReductions{
      *this, "cooperative-reductions",
      llvm::cl::desc("With distribute: split reductions over few rows among "
                     "a block's threads (reassociates floating-point sums)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("With distribute: f32 matmul and convolution tiles on "
                     "tensor cores (mma.sync TF32: inputs cut to a 10-bit "
                     "mantissa; changes values, off by default)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("With distribute: f16 and bf16 matmul and convolution "
                     "tiles on tensor cores (mma.sync m16n8k16, sums in f32; "
                     "an f16/bf16 accumulator is rounded once at the end "
                     "instead of once per step)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fma{
      *this, "fma",
      llvm::cl::desc("With distribute: a matmul's multiply and add may fuse "
                     "into one fma (one rounding; differs from IEEE mul "
                     "then add in the last bits; on by default, as nvcc; "
                     "false also keeps matmuls off tensor cores)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> implicitGemm{
      *this, "implicit-gemm",
      llvm::cl::desc("With distribute: register-tile convolutions with "
                     "output channels as matmuls of output pixels by filters"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> stageInputs{
      *this, "stage-inputs",
      llvm::cl::desc("With distribute: copy a tile's input that a reduction "
                     "and other ops read (a softmax or LayerNorm row) to "
                     "shared memory once, instead of reading it from global "
                     "memory once per op"),
      llvm::cl::init(true)};

  /// Refuses values out of range and chips, features and formats the
  /// toolchain does not know, naming the option (through `error`).
  LogicalResult validate(function_ref<LogicalResult(const Twine &)> error) const;
};

/// Steps 1-3 of the GPU lowering: groups to bufferized loop nests, each nest
/// one `gpu.launch` (host memory not yet made reachable from the device).
/// Shared with the CPU emulation of the launches in the tests, which runs a
/// block as one thread and so passes `tensorCores = false`: no warp-wide
/// mma.sync then, whatever `options` say.
void buildGroupsToGpuLaunches(OpPassManager &pm,
                              const LowerToNVVMOptions &options,
                              bool tensorCores = true);

/// Builds the GPU lowering: one gpu.launch_func per group, kernels in a
/// gpu.binary for `chip` (docs in lib/Conversion/LowerToNVVM.cpp).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Registers `--fuse-lower-to-nvvm`.
void registerLowerToNVVMPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_CONVERSION_PIPELINES_H
