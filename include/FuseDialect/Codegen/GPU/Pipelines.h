//===- Pipelines.h - The GPU lowering ---------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_CODEGEN_GPU_PIPELINES_H
#define FUSEDIALECT_CODEGEN_GPU_PIPELINES_H

#include "FuseDialect/Codegen/Common/Pipelines.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

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
      llvm::cl::desc("Threads per GPU block"),
      llvm::cl::init(TilePolicy::kGpuBlockSize)};
  PassOptions::Option<int64_t> kernelParameterBytes{
      *this, "kernel-parameter-bytes",
      llvm::cl::desc("The most bytes of parameters a kernel may take: a "
                     "launch over it passes views as their buffers and "
                     "buffers as base pointers (fuse-compact-kernel-"
                     "arguments); PTX ISA 8.0 allows 4352, 8.1 (features="
                     "+ptx81) 32764"),
      llvm::cl::init(GpuDescription::kMaxKernelParameterBytes)};
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
      llvm::cl::init(TilePolicy::forGpu().minTileElements)};
  PassOptions::Option<int64_t> contractionTile{
      *this, "contraction-tile",
      llvm::cl::desc("With distribute: a matmul's tile is a square of at most "
                     "this side, its operands staged in shared memory"),
      llvm::cl::init(TilePolicy::forGpu().contractionTile)};
  PassOptions::Option<int64_t> contractionTiles{
      *this, "contraction-tiles",
      llvm::cl::desc("With distribute: the tile side halves (down to 32) "
                     "while a matmul has fewer tiles than this (default: one "
                     "block per SM, GpuDescription::numSMs)"),
      llvm::cl::init(TilePolicy::forGpu().contractionTiles)};
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
/// gpu.binary for `chip` (docs in lib/Codegen/GPU/LowerToNVVM.cpp).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Registers `--fuse-lower-to-nvvm`.
void registerLowerToNVVMPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_GPU_PIPELINES_H
