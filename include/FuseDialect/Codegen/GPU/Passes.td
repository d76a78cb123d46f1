//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//

#ifndef FUSEDIALECT_CODEGEN_GPU_PASSES_TD
#define FUSEDIALECT_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseDistributeTilesPass : Pass<"fuse-distribute-tiles"> {
  let summary = "Make each tile loop a GPU launch: a block per tile, its ops shared among the block's threads";
  let description = [{
    Run by `--fuse-lower-to-nvvm` on the bufferized tile loops of the groups
    (one `scf.forall` per group). Each loop becomes one `gpu.launch` with a
    block per tile. The tile's temporaries go to shared memory (workgroup
    attributions; static shapes, up to 48 KiB; the two temporaries the
    branches of a tiled pad yield share one buffer) or to a slice of a
    device scratch buffer per block (dynamic shapes bounded by the tile).
    Every structured op of the tile becomes a loop over its parallel points
    strided by the block size, so consecutive threads touch consecutive
    elements, followed by a `gpu.barrier` (elementwise ops on 16-byte
    vectors where the buffers' alignment allows; matmuls with their operand
    slices staged in shared memory). A staged matmul whose tile has two
    non-unit parallel loops is register-tiled: each thread keeps a micro-tile
    of up to 4x4 outputs in registers over the whole reduction, reading
    TM + TN staged elements per TM x TN multiply-adds; when its output is a
    temporary that a fill initializes and one elementwise op reads (bias,
    activation), the accumulators start from the fill value and the
    elementwise op is applied to them before the only store. A KxK
    convolution (NHWC image, FHWC filter) is register-tiled the same way as
    an implicit GEMM: output pixels by filters, its window loops outside
    the chunks of channels, each chunk staging the image's pixels at that
    window point and the filter's slice. A reduction
    whose parallel points
    would leave most threads idle (the rows of a softmax, LayerNorm or global
    pool tile) is split among the threads: each reduces a strided share from
    the combiner's neutral element and `gpu.all_reduce` (warp shuffles and
    shared memory) combines the shares. That reassociates the reduction:
    floating-point sums may differ from the sequential order in the last
    bits; `cooperative-reductions=false` keeps the sequential order.

    Tensor cores take a register-tiled contraction (a matmul, a 1x1
    convolution, a convolution as an implicit GEMM) whose body is exactly
    out + a * b on operands they read: f16 or bf16 with `tensor-cores=true`
    (the default), f32 as TF32 with `tf32=true` (off by default: it changes
    values). The tile is cut into 16x8 pieces (its rows and columns rounded
    up: a piece past the last row or column reads the last one and stores
    nothing there), at most 4 per warp, warp w taking pieces w, w + W, ...;
    each lane keeps its four f32 accumulators of each piece (the C fragment
    of `nvgpu.mma.sync`) in registers across every chunk and window point,
    and per chunk (a multiple of k steps) runs one mma.sync m16n8k`k` per
    k steps per piece (k = 16 for f16 and bf16, 8 for TF32), its fragments
    read from the staged slices. The results go out through the absorbed
    epilogue as for the scalar micro-tiles.

    Values: with f16 or bf16 operands the products are exact and summed in
    f32 by the tensor cores, in their own order and rounding (not a chain of
    IEEE round-to-nearest additions: the last bits of an f32 result may
    differ from the scalar loop's); an f16 or bf16 accumulator is summed in
    f32 and rounded once, at the end, instead of after every step: closer
    to the exact sum than the scalar loop, but not bit-equal to it.
    `tensor-cores=false`, or `fma=false`, keeps the scalar micro-tiles. With
    TF32 the tensor cores ignore the inputs' low 13 mantissa bits (relative
    error about 1e-3 per product; PyTorch's `allow_tf32` rounds them
    instead).

    With `stage-inputs=true` (the default), an input of the tile that a
    reduction and at least one other op of the tile read (the row of a
    softmax or LayerNorm: once per reduction, once more for the result) is
    copied to shared memory once by the whole block, with 16-byte loads
    where aligned, and the ops read it there: one pass over global memory
    instead of one per op. It takes the shared memory the temporaries, the
    staged matmuls and the split reductions leave; values are unchanged.

    With `fma=true` (the default, as nvcc's `--fmad`), a staged matmul's
    multiply and add may be fused into one `fma.rn` (`fastmath<contract>`):
    one rounding instead of two, so results differ from the separate IEEE
    operations in the last bits (each product-sum is the exact value
    rounded once; the error of a dot product is no larger). `fma=false`
    keeps every multiply and add rounded on its own, and so keeps
    contractions off tensor cores.

    A tile loop whose body holds other side effects or regions, or whose
    temporaries have no constant bound, is left as it is (the
    thread-per-tile mapping of `--fuse-lower-to-nvvm` takes it).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy::kGpuBlockSize",
           "Threads per block">,
    Option<"cooperativeReductions", "cooperative-reductions", "bool",
           /*default=*/"true",
           "Split reductions with few rows among the block's threads">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Register-tiled f32 matmuls and convolutions on tensor cores "
           "(mma.sync m16n8k8 TF32): inputs cut to TF32 (10-bit mantissa), "
           "not IEEE f32">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Register-tiled f16 and bf16 matmuls and convolutions on tensor "
           "cores (mma.sync m16n8k16: exact products summed in f32; an f16 "
           "or bf16 accumulator is rounded once, not once per step)">,
    Option<"fma", "fma", "bool", /*default=*/"true",
           "Let a staged matmul's multiply and add fuse into one fma "
           "(one rounding: differs from IEEE mul then add in the last bits)">,
    Option<"implicitGemm", "implicit-gemm", "bool", /*default=*/"true",
           "Register-tile convolutions with output channels as matmuls of "
           "output pixels by filters (false: a thread per output point, "
           "the filter read from global memory)">,
    Option<"stageInputs", "stage-inputs", "bool", /*default=*/"true",
           "Copy a tile's input that a reduction and other ops read (a "
           "softmax or LayerNorm row) to shared memory once">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def FuseAnnotateKernelsPass
    : Pass<"fuse-annotate-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Set the attributes of the kernels that the NVVM backend reads";
  let description = [{
    Run by `--fuse-lower-to-nvvm` after kernel outlining, on every kernel:
    * each workgroup attribution gets `llvm.align = 16`, so that the vector
      loads and stores of fuse-distribute-tiles (16 bytes, taken only where
      a buffer's address is a multiple of 16) take their vector path on
      shared memory too;
    * `nvvm.minctasm = 4` (`.minnctapersm`): with only `.maxntid` (the
      known block size) ptxas caps a 256-thread kernel at 40 registers and
      spills; at least 4 resident blocks leaves 64 registers a thread and
      half the SM's threads resident.
  }];
}

def FuseMergeGroupLaunchesPass : Pass<"fuse-merge-group-launches"> {
  let summary = "Launch the independent loop nests of one group as one kernel";
  let description = [{
    Runs in `--fuse-lower-to-nvvm` after `fuse-distribute-tiles`. A group
    whose results need different tile loops (the branches of a horizontally
    fused block: convolutions of one input with different channel counts or
    result layouts) lowers to one loop nest per result, and each nest to a
    `gpu.launch`. `fuse-inline-groups` marks such nests (the `scf.forall`
    tile loops of one group) with `fuse.group_nest`, and
    `fuse-distribute-tiles` puts the mark on their launches. Two consecutive
    launches of one group merge when:
    * both are plain one-dimensional launches of the same block size (no
      async tokens, clusters, dynamic shared memory);
    * neither writes a part of a buffer the other reads or writes. Buffers
      are traced through views to their allocation; the part is the static
      strided box of the view a launch takes from outside (the even and odd
      channels of a split channel shuffle are disjoint), or the whole
      buffer; function arguments count as one buffer (they may alias), of
      which only parts of one argument compare; an op of unknown effect, a
      buffer the body selects or
      computes (a branch's result) or a block or grid id read as an op
      (only the launch's block arguments are remapped) stops the merge;
    * their static shared memory fits in 48 KiB together;
    * the host ops between them can move: constants and allocations before
      the first, deallocations after the second.

    The merged launch runs the first launch's blocks and then the second's.
    Each block takes its own body through a branch on the block index. The
    branch is uniform within a block, so the bodies' barriers stay legal.
    Nests where one reads another's result (a grid-wide dependence) stay
    separate launches.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark on each launch that could not merge with the "
           "previous launch of its group, saying why">
  ];
  let statistics = [
    Statistic<"numMerged", "merged", "Launch pairs merged">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FuseGpuHostMemoryPass : Pass<"fuse-gpu-host-memory", "::mlir::ModuleOp"> {
  let summary = "Make the host buffers that GPU launches touch reachable from the device";
  let description = [{
    Run by `--fuse-lower-to-nvvm` after the loop nests became `gpu.launch`
    ops. In every host function (a buffer a kernel writes may be returned
    and freed by a caller), `memref.alloc` becomes `gpu.alloc host_shared`
    (managed memory) and `memref.dealloc` `gpu.dealloc`. A constant global
    a launch reads (weights) is read from a device copy returned by
    `func.call @fuse_device_constant_<element type>` (lib/Runtime copies
    each constant to device memory once per process), so kernels read
    weights from device memory, not across PCIe. Every other memref a
    launch reads or writes (function arguments, mutable globals) is
    registered with `gpu.host_register` before the launch (page-locked and
    mapped; the runtime skips memory that CUDA already maps).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FuseCompactKernelArgumentsPass : Pass<"fuse-compact-kernel-arguments"> {
  let summary = "Keep each GPU launch's kernel parameters within PTX's limit";
  let description = [{
    Run by `--fuse-lower-to-nvvm` on every `gpu.launch` just before kernel
    outlining, when each value the launch uses from above becomes a kernel
    parameter: a memref as its whole descriptor (two pointers, an offset, a
    size and a stride per dimension: 88 bytes at rank 4). PTX ISA 8.0
    allows 4352 bytes of parameters; a group reading every part of a
    DenseNet dense block's concatenation needed 9024. A launch over
    `max-bytes` is compacted, each step only while it is still over:
    1. the views it reads (subview, expand/collapse_shape, cast,
       reinterpret_cast, view) and the constants they use are sunk into
       it: each buffer is then one parameter however many views of it the
       launch reads;
    2. each memref with static sizes and strides, largest descriptor
       first, is passed as its base buffer (a 0-d memref: 24 bytes) and
       rebuilt inside with `memref.reinterpret_cast` (a dynamic offset
       passed as one index);
    3. a launch still over is an error at its location (at 24 bytes a
       buffer, more than 180 buffers).
    Launches within the limit are left as they are.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t",
           /*default=*/"::mlir::fuse::GpuDescription::kMaxKernelParameterBytes",
           "The most bytes of parameters a kernel may take (PTX ISA 8.0's "
           "limit; 8.1, features=+ptx81, allows 32764)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FuseLowerBF16MmaPass : Pass<"fuse-lower-bf16-mma"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    Rewrites `nvgpu.mma.sync` m16n8k16 on bf16 fragments (A
    `vector<4x2xbf16>`, B `vector<2x2xbf16>`) with an f32 accumulator into
    `nvvm.mma.sync` with `.bf16` multiplicands: each pair of elements
    bitcast to one i32 register, the result struct back into a
    `vector<2x2xf32>`. Upstream's `convert-nvgpu-to-nvvm` lowers the f16 and
    TF32 forms but fails on bf16 ones (it cannot deduce their PTX type);
    `--fuse-lower-to-nvvm` runs this pass just before it. Other
    `nvgpu.mma.sync` ops are left alone.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def FuseEmulateGpuFloatArithPass : Pass<"fuse-emulate-gpu-float-arith"> {
  let summary = "A GPU kernel's float arithmetic on the CPU, as its PTX computes it on any host";
  let description = [{
    For running a GPU kernel's code on the CPU (the tests' emulated
    launches, `--fuse-test-lower-to-cpu-via-gpu`) with the same bits on every
    x86 host:
    1. a `contract` multiply whose one use is a `contract` add or subtract
       becomes `math.fma` (PTX `fma.rn`, which NVPTX forms from such a
       pair); `contract` is dropped from every other float op, so that LLVM
       fuses nothing more on hosts that could;
    2. f16 and bf16 `+ - * /`, sqrt and fma round once to the nearest, as
       PTX's half instructions do: computed in f32 and rounded (exact for
       these), an fma exactly in f64 and rounded to f32 to odd, then to the
       half type. No half-precision arithmetic is left for the host's
       instructions (AVX512-FP16 or promotion) to decide.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def FuseLinearizeTileLoopsPass : Pass<"fuse-linearize-tile-loops"> {
  let summary = "Collapse each outermost scf.parallel into one dimension";
  let description = [{
    Run by `--fuse-lower-to-nvvm` before the tile loops are split into GPU
    blocks and threads: a group's tile loop has one dimension per tiled loop
    of its root, often with a unit outer dimension (batch 1); collapsed into
    one dimension, every block gets `block-size` busy threads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // FUSEDIALECT_CODEGEN_GPU_PASSES_TD
