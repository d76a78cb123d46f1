//===- TargetDescription.h - What the compiler knows of a target -*- C++ -*-===//
//
// Every hardware fact the fusion planner's cost model and the two code
// generators use is defined here, once: change a target's numbers in this
// file and every consumer follows. The planner prices a plan with
// `TargetDescription::flopsPerByte()`, `onChipBytes()` and `launchBytes()`;
// the GPU code generator (lib/Codegen/GPU) sizes blocks, shared memory,
// warps and register tiles from `GpuDescription`; the CPU code generator
// (lib/Codegen/CPU) sizes vectors from `CpuDescription`.
//
// The defaults describe the two targets the project is measured on: an
// NVIDIA H200 (sm_90) and one core of a Xeon with AVX-512.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TARGET_TARGETDESCRIPTION_H
#define FUSEDIALECT_TARGET_TARGETDESCRIPTION_H

#include <cstdint>

namespace mlir::fuse {

/// An NVIDIA GPU (defaults: H200, sm_90).
struct GpuDescription {
  /// Threads per warp: the unit of shuffles and of mma.sync.
  static constexpr int64_t kWarpSize = 32;
  /// The most threads one block has.
  static constexpr int64_t kMaxBlockThreads = 1024;
  /// Static shared memory a block may use without opting in (sm_90 allows
  /// more only through a launch attribute): what fuse-distribute-tiles
  /// allots and fuse-merge-group-launches keeps a merged launch within.
  static constexpr int64_t kSharedMemoryPerBlock = 48 * 1024;
  /// Shared memory the lowering of one `gpu.all_reduce` adds to its kernel.
  static constexpr int64_t kAllReduceSharedBytes = 128;
  /// Alignment of shared-memory buffers (16-byte vector accesses).
  static constexpr int64_t kSharedAlignment = 16;
  /// Alignment of each temporary in a kernel's device scratch buffer.
  static constexpr int64_t kScratchAlignment = 64;
  /// Bytes of one vector access of the elementwise code (ld/st.v4.f32).
  static constexpr int64_t kVectorBytes = 16;
  /// Accumulators one thread keeps in registers in a register-tiled
  /// contraction (more spill at the 64 registers 4 resident blocks leave).
  static constexpr int64_t kMaxAccumulators = 16;
  /// Blocks a kernel asks to keep resident per SM (`maxnreg` follows).
  static constexpr int64_t kMinBlocksPerSM = 4;
  /// Bytes of parameters a kernel may take (PTX ISA 8.0; 8.1 allows 32764).
  static constexpr int64_t kMaxKernelParameterBytes = 4352;

  /// Streaming multiprocessors.
  int64_t numSMs = 132;
  /// Shared memory (and L1) one SM has: what a fused kernel can keep on chip.
  int64_t sharedMemoryPerSM = 228 * 1024;
  /// HBM bandwidth, bytes per second.
  double bandwidth = 4.8e12;
  /// fp32 throughput, flops per second.
  double flopRate = 60e12;
  /// The cost of one kernel launch, seconds.
  double launchSeconds = 2.0e-6;
};

/// One CPU core (defaults: a Xeon with AVX-512).
struct CpuDescription {
  /// Bytes of one vector register (AVX-512: 64; AVX2: 32).
  int64_t vectorBytes = 64;
  /// Vector registers the compiler can allocate (AVX-512: 32; AVX2: 16).
  int64_t vectorRegisters = 32;
  /// Bytes of the core's private L2 cache (Sapphire Rapids: 2 MB).
  int64_t l2Bytes = 2 * 1024 * 1024;

  /// The compiling machine, from its CPU features (lib/Utils/HostCpu.cpp):
  /// what the JIT generates code for.
  static CpuDescription host();
};

/// The target a compilation prices and generates code for.
struct TargetDescription {
  GpuDescription gpu;
  CpuDescription cpu;

  /// What the planner prices for: flops one byte of memory traffic is worth
  /// (H200: 60 TFLOP/s over 4.8 TB/s = 12.5).
  double flopsPerByte() const { return gpu.flopRate / gpu.bandwidth; }
  /// Bytes a fused kernel can keep on chip.
  int64_t onChipBytes() const { return gpu.sharedMemoryPerSM; }
  /// One kernel launch, in bytes of memory traffic it is worth.
  double launchBytes() const { return gpu.launchSeconds * gpu.bandwidth; }
};

} // namespace mlir::fuse

#endif // FUSEDIALECT_TARGET_TARGETDESCRIPTION_H
