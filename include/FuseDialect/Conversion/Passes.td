//===- Passes.td - fuse dialect conversion passes ----------*- tablegen -*-===//

#ifndef FUSEDIALECT_CONVERSION_PASSES_TD
#define FUSEDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseInlineGroupsPass : Pass<"fuse-inline-groups"> {
  let summary = "Dissolve `fuse.group` ops into their parent block";
  let description = [{
    Replaces every `fuse.group` by its body: body arguments become the group's
    inputs and the group's results become the yielded values; inputs and
    results read or written through a permutation (index changes) get a
    `tosa.transpose`. This is the CPU lowering of a group used by
    `--fuse-lower-to-cpu`: it keeps the program's meaning exactly and lets
    the upstream TOSA/linalg lowering run on the result. When a group holds
    several tile loops (`scf.forall`, from `--fuse-tile-groups`), each gets
    the attribute `fuse.group_nest` (the group's index), so that the GPU
    lowering can launch the independent ones as one kernel.

    ```mlir
    %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
      fuse.yield %0 : tensor<4xf32>
    }
    ```

    becomes

    ```mlir
    %r = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def FuseTileGroupsPass : Pass<"fuse-tile-groups"> {
  let summary = "Make each fuse.group one loop nest: tile its root, fuse the rest";
  let description = [{
    Lowers each group's body to linalg-on-tensors and tiles the ops that
    compute its results with `scf.forall` over their outer parallel loops
    (a tile is as many contiguous rows as fit `min-tile-elements` results;
    unit loops are not tiled; rows stay whole when a reduction is fused in;
    a group smaller than one tile is split in as few tiles as possible),
    fusing every producer into the loop nest with the upstream
    TilingInterface tile-and-fuse driver. A 1x1 convolution with unit
    strides and dilations becomes a contraction over channels (filter
    collapsed to F x C) first. With `contraction-tile`, a matmul
    root (or an epilogue over a matmul's result; a convolution with output
    channels counts as a matmul of its pixels by its filters, a depthwise
    one does not) is tiled in squares of its two innermost parallel loops
    instead, the side halved down to 32 while
    there are fewer than `contraction-tiles` tiles; when one side has no
    good divisor (and partial tiles are off), the other widens (up to four
    sides) as far as enough tiles remain. A range with no divisor of more than half the wanted
    tile (197 tokens) is tiled by the wanted tile with a partial last tile
    (`partial-tiles`); the nest is then peeled into one over the whole
    tiles and one over the last tile, each of static shapes and writing its
    own box of the results. Producers whose values the group
    also returns, over the root's own iteration space or as the input of a
    pool whose windows tile it exactly, are yielded from the loop nest; a
    result another result reads row-wise is computed in that result's nest;
    sibling roots over one result space share one tile shape (the smallest
    per dimension), and independent nests over the same tiles are merged (a
    merged nest whose results are parts of one concat writes the concat
    itself); inside
    a tile, elementwise chains become one loop body (a producer the consumer
    broadcasts stays apart, computed once; a reduction fed by an elementwise
    op is generalized so the op fuses into it; a producer of a few
    add/sub/mul ops is recomputed in each of its readers). Views between ops
    are moved out
    by expanding the ops' loops (broadcast scalars become payload scalars,
    output-only unit dimensions are dropped, reductions read through a view
    are generalized; a unit-dim view of a contraction's result is folded
    into it, and a contraction whose result is viewed is generalized so
    that the view folds into its loops; slices move up through views).
    A result that is pure data movement over a concatenation (a channel
    shuffle: concat, view, transpose, view, slice) is cut into pieces, each
    a strided box of the result that one source fills (a copy, or the
    source computing just that box), so that no nest reads the whole
    concatenation another wrote; a result moved out of the group's inputs
    alone becomes copy nests too. A root of one tile still gets a loop (of
    one iteration, mapped to `#gpu.block<linear_dim_*>` so that
    canonicalization keeps it): the group stays one nest, one block on a
    GPU, instead of ops outside any nest. A group with a dynamic or
    zero-sized tensor is left untiled with a remark. Index changes of the group
    become transposes in the body first, so that the loop nest reads and
    writes through them. The result is one kernel per group: only the
    group's inputs and results are whole tensors, everything else is
    computed per tile. With `report-nests`, a group that still needs more
    than one loop nest gets a remark saying how many of its nests read
    another's results (those cannot share a launch; the others are merged
    by `fuse-merge-group-launches` and `fuse-merge-group-nests`).
  }];
  let options = [
    Option<"minTileElements", "min-tile-elements", "int64_t",
           /*default=*/"256",
           "A tile holds at most this many results (whole rows when a row "
           "is larger)">,
    Option<"reportNests", "report-nests", "bool", /*default=*/"false",
           "Remark on groups that need more than one loop nest">,
    Option<"contractionTile", "contraction-tile", "int64_t",
           /*default=*/"0",
           "Tile a contraction root (matmul) in squares of at most this side "
           "over its two innermost parallel loops (0: rows like other ops; "
           "the GPU lowering uses 64)">,
    Option<"contractionTiles", "contraction-tiles", "int64_t",
           /*default=*/"1",
           "With contraction-tile: halve the side (down to 32) while a "
           "contraction has fewer tiles than this (the GPU lowering asks "
           "for 132, one block per SM of an H100/H200)">,
    Option<"partialTiles", "partial-tiles", "bool", /*default=*/"true",
           "Tile a range without a divisor of more than half the wanted tile "
           "(197 tokens) by the wanted tile, the last one partial and peeled "
           "into a nest of its own; off: by its largest divisor">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numNests", "nests", "Loop nests the groups lower to">
  ];
}

def FuseVectorizeTilesPass : Pass<"fuse-vectorize-tiles"> {
  let summary = "Vectorize the structured ops inside each group's tile loop";
  let description = [{
    Runs after `--fuse-tile-groups`, on linalg-on-tensors. Every structured
    op inside a group's `scf.forall` tile whose shapes are static, that is
    not a convolution or contraction, and whose iteration space holds at
    most `max-vector-elements` points becomes vector ops (upstream
    `linalg::vectorize`): one `vector.transfer_read` per input tile, the
    payload on whole vectors, one `vector.transfer_write`. The transfers
    between vectorized ops then fold away, so a tile's intermediates are
    vector registers, not tile buffers. Boundary tiles with dynamic sizes
    stay scalar loops.

    Float matmuls and other contractions (option `contractions`) are cut
    into register blocks of up to 4 x 32 results, reduction loops
    innermost: each step is a vector rank-1 update of the block's
    accumulators, which are loop-carried vectors. Convolutions are cut the
    same way (4 output columns x up to 32 channels, window loops
    innermost); the block's unit loops are dropped, so a step reads plain
    slices of input and filter, or a strided slice for a strided window.
    Multiply and add stay separate and each result sums in the scalar
    loop's order.

    An op over more points than that (a softmax or LayerNorm row) is first
    strip-mined: an `scf.for` nest over static chunks of at most
    `chunk-elements` points (the innermost loop takes the largest divisor
    of its range that fits; rows whose innermost chunk would be shorter
    than 4 stay scalar), each chunk one vector op. A running result carried
    from chunk to chunk (a reduction's accumulator) becomes a loop-carried
    vector.

    Values do not change unless `reassociate` is set. Reductions become
    `vector.multi_reduction`, which the CPU pipeline lowers to ordered
    (sequential) reductions, and a strip-mined reduction folds each chunk
    into the running result in order: the summation order of a scalar
    loop. A reduction whose result does not depend on the order
    (`maximumf`/`minimumf`, integer min/max/and/or/xor, and integer add and
    mul without no-overflow flags; not ops using `linalg.index`) is
    strip-mined with one partial result per lane
    of the chunk, combined once after the loop (upstream partial-reduction
    tiling): the loop body is then plain elementwise vector code. With
    `reassociate`, float sums and products are strip-mined that way too:
    the rounding changes (a chunk-wide set of interleaved partial sums,
    usually closer to the exact sum than one sequential sum).
  }];
  let options = [
    Option<"maxVectorElements", "max-vector-elements", "int64_t",
           /*default=*/"512",
           "Largest iteration space (product of loop sizes) vectorized as "
           "one op">,
    Option<"chunkElements", "chunk-elements", "int64_t", /*default=*/"32",
           "Points per vector chunk of a strip-mined op (0 or 1: larger "
           "ops stay scalar)">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"false",
           "Strip-mine float add and mul reductions with per-lane partial "
           "results (changes their rounding)">,
    Option<"vectorizeContractions", "contractions", "bool",
           /*default=*/"true",
           "Cut float matmuls, other contractions and convolutions into "
           "register blocks of vector multiply-adds">
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
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

def FuseApproximateMathPass : Pass<"fuse-approximate-math"> {
  let summary = "Replace f32 transcendental functions by polynomial approximations";
  let description = [{
    Rewrites `math.exp`, `math.expm1`, `math.log1p`, `math.erf` and
    `math.tanh` on f32 scalars and vectors into the polynomial
    approximations of upstream MLIR
    (`populateMathPolynomialApproximationPatterns`): arithmetic, `fma` and
    bit operations only. A vector of them is then SIMD code instead of one
    libm call per lane, which is what bounds a CPU softmax, LayerNorm+GELU
    or sigmoid.

    Values change: the approximations are not correctly rounded. Against
    glibc's libm, over all 2^32 f32 bit patterns, the largest error is 6
    ulp for exp and expm1, 5 for erf and tanh and 2 for log1p, special
    values (zeros, infinities, NaN, overflow and underflow thresholds)
    included (`test/Integration/approximate-math.mlir` samples every
    65521st pattern and those values, and fails if the error grows).
    exp flushes results below 2^-126 (subnormals) to zero. `log` and
    `log2` are left to libm: their approximations are wrong by up to 5% on
    subnormal arguments. `--fuse-lower-to-cpu=approximate-math=false`
    keeps every libm call.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def FuseInsertChainsToBufferPass : Pass<"fuse-insert-chains-to-buffer"> {
  let summary = "Write long chains of tensor.insert_slice into one buffer";
  let description = [{
    A concat of many parts lowers to a chain of `tensor.insert_slice` ops,
    each inserting into the result of the previous one, and one-shot
    bufferization's analysis is cubic or worse in the length of such a chain
    (llvm/llvm-project#81959: 125 parts 17 s, 250 parts 5 min). A chain of
    at least `min-length` inserts whose regions are static and pairwise
    disjoint becomes one buffer written in place: the destination is a
    `memref.alloc` (a copy of it when it is not a `tensor.empty`), each part
    is `bufferization.materialize_in_destination` into its subview, a read
    of a part's region before its insert (the destination the part's loop
    nest writes into) is `bufferization.to_tensor` of that subview, and the
    chain's result is `to_tensor` of the buffer. Bufferization then decides
    each part on its own (linear), writing in place as before.

    ```mlir
    %1 = tensor.insert_slice %a into %0[0, 0] [1, 8] [1, 1]
    %2 = tensor.insert_slice %b into %1[1, 0] [1, 8] [1, 1]
    ```

    becomes

    ```mlir
    %buf = memref.alloc() : memref<2x8xf32>
    %s0 = memref.subview %buf[0, 0] [1, 8] [1, 1]
    bufferization.materialize_in_destination %a in restrict writable %s0
    %s1 = memref.subview %buf[1, 0] [1, 8] [1, 1]
    bufferization.materialize_in_destination %b in restrict writable %s1
    %2 = bufferization.to_tensor %buf restrict writable
    ```
  }];
  let options = [
    Option<"minLength", "min-length", "int64_t", /*default=*/"32",
           "Shortest chain rewritten (shorter ones bufferize quickly)">
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FuseClampIndicesPass : Pass<"fuse-clamp-indices"> {
  let summary = "Keep run-time gather and scatter indices inside their buffers";
  let description = [{
    TOSA leaves an index outside `[0, K)` of `tosa.gather` and `tosa.scatter`
    unpredictable, and their lowering reads or writes outside the buffer.
    Indices that are not constants within range are clamped to `[0, K - 1]`
    first (`tosa.clamp`), so that a bad index reads or writes the nearest
    row instead: defined behaviour, never an access outside a buffer (ONNX
    says an index out of range is an error; the importer refuses constant
    ones). Clamps this pass added are recognized: running it again changes
    nothing.
  }];
}

def FuseCopiesToLinalgPass : Pass<"fuse-copies-to-linalg"> {
  let summary = "Turn memref.copy into linalg.copy";
  let description = [{
    Bufferization copies with `memref.copy`, which lowers to a call into the
    C runner utilities (`memrefCopy`). Inside GPU kernels there is no such
    function; as `linalg.copy` the copy becomes loops like every other
    structured op (`--fuse-lower-to-nvvm` runs this before
    `convert-linalg-to-loops`).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
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
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
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

def FuseMergeGroupNestsPass : Pass<"fuse-merge-group-nests"> {
  let summary = "Run the independent tile loops of one group as one loop nest";
  let description = [{
    The CPU counterpart of `fuse-merge-group-launches`, run by
    `--fuse-lower-to-cpu` after bufferization. Two consecutive `scf.forall`
    tile loops on buffers that carry the same `fuse.group_nest` mark (the
    tile loops of one group, from `fuse-inline-groups`), have static
    bounds and touch disjoint buffers or disjoint strided parts of one
    (the same analysis as for launches) become one loop over the tiles of both. Each iteration runs the first
    loop's body for the first loop's tiles and the second's for the rest.
    The bodies' static temporaries move before the branch, so that buffer
    loop hoisting still allocates them once. With `parallel=true` the group
    is then one OpenMP loop instead of one per nest.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark on each tile loop that could not merge with the "
           "previous one of its group, saying why">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
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

#endif // FUSEDIALECT_CONVERSION_PASSES_TD
