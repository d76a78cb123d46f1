//===- Passes.td - CPU code generation passes --------------*- tablegen -*-===//

#ifndef FUSEDIALECT_CODEGEN_CPU_PASSES_TD
#define FUSEDIALECT_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusePackConstantTilesPass : Pass<"fuse-pack-constant-tiles"> {
  let summary = "Lay out each constant a group's tiles read in slices as "
                "one contiguous block per tile";
  let description = [{
    Runs after `--fuse-tile-groups`, before `--fuse-vectorize-tiles`. A
    constant (a convolution's filter permuted to H x W x C x F, a matmul's
    weight K x N) that the tiles of a group's `scf.forall` read as slices
    `[0:d0, ..., 0:dk, n : n + t]` at the tile's offset `n` of a loop of
    step `t` is rewritten at compile time as `T x d0 x ... x dk x t`, tile
    after tile, and each slice reads its tile's block: the `t` columns of
    every row of the tile, one contiguous run of memory instead of `d0 x
    ... x dk` runs of `t` elements a whole row apart.

    A CPU core streams such a block from memory with its prefetchers; rows
    of a 1024 x 2048 filter 8 KB apart, 256 bytes of each read per tile,
    each on a new page, came in at a few GB/s (ResNet-50's last 1x1
    projection: 12 ms with its weight out of cache, 6 in cache). It is the
    data tiling of IREE's `linalg.pack` and of mmt4d, at the granularity of
    our tiles: the register blocks inside a tile read its block as before.

    Only when every use of the constant is such a slice with the same `t`,
    at an induction variable of an `scf.forall` with lower bound 0 and step
    `t`, or at a constant multiple of `t`, except the slice of a partial
    last tile: fewer than `t` columns from a multiple of `t` to the last
    column (at a constant, or in a loop of one iteration), whose block is
    padded with zeros to `t`. Otherwise the columns past the last whole
    tile (row padding) are dropped. Values are unchanged: the same elements
    are read, from other addresses.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FusePackConstantPanelsPass : Pass<"fuse-pack-constant-panels"> {
  let summary = "Lay out each constant the register blocks read in vectors "
                "as panels, one contiguous run per block";
  let description = [{
    Runs after `--fuse-vectorize-tiles`. A register block reads its vector
    of B from a constant weight at every reduction step, `transfer_read
    %w[.., k, n]` with `n` a multiple of the vector's `v` lanes: runs of `v`
    elements a whole row of the weight apart (128 bytes every 3 KB down
    GPT-2's 3072 x 768 MLP projection, each on a new page). The constant is
    rewritten at compile time panel-major, `N/v x d0 x ... x K x v`, and
    each read indexes its panel `n / v`: a block's steps walk one
    contiguous run, which the prefetchers follow. It is the layout of
    `linalg.pack`'s B operand in IREE's data tiling (mmt4d), at the register
    block's width, where `--fuse-pack-constant-tiles` lays out the tile's
    block.

    Only when every use of the constant is such a read: in bounds,
    unmasked, a minor-identity map, a vector of `v` lanes along the
    innermost dimension (unit elsewhere), every read with the same `v`, at
    an innermost index known to be a multiple of `v` (a constant, an
    `scf.for` or `scf.forall` induction variable whose bounds and step are,
    and sums and products of those). The panel index goes after the leading
    dimensions no `scf.for` around the reads changes: a tile's block laid
    out by `--fuse-pack-constant-tiles`, `T x rows x t`, becomes `T x t/v x
    rows x v`. Constants of one row (a bias) keep their layout, which panels
    would not change. Values are unchanged: the same elements are read,
    from other addresses.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
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
    into register blocks of up to `block-rows` x `block-cols` results (by
    default a quarter of the host's vector registers x two of them:
    AVX2 4 x 16, AVX-512 8 x 32; a full block over columns in runs of
    twice its width takes half the rows by twice the columns where that
    loads fewer values per multiply-add: AVX-512 4 x 64),
    reduction loops innermost: each step is a vector rank-1 update of the
    block's accumulators, which are loop-carried vectors. Convolutions are
    cut the same way (output columns x up to `block-cols` channels, window
    loops innermost; a grouped convolution's output columns x the channels
    of one group, which share each filter row). The block's unit loops are dropped, so a step reads
    plain slices of its operands (a strided slice for a strided window).
    Each result sums in the scalar loop's order; multiply and add stay
    separate unless `fma` is set, which makes each f32/f64 step one fused
    multiply-add (one rounding instead of two: values change by at most
    an ulp per step). A reduction longer than `reduction-chunk` steps runs
    in chunks outside the blocks, each chunk's partial sums carried through
    the result (values unchanged), so that one pass of the blocks reads a
    panel of B that stays in L2. With `epilogues`, the tile's bias and the
    elementwise ops after the contraction are applied to the accumulators
    of the last chunk's blocks before their one store, also where the op
    is split into pieces that blocks divide (rows of 17 pixels as 16 + 1,
    24 filters as 16 + 8): bias and epilogue are split with it. A
    contraction that
    reads unit dims of an input at index 0 (a view folded into its maps)
    reads them through a collapse first, so that it is blocked as one.

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
           /*default=*/"::mlir::fuse::VectorPolicy::kMaxVectorElements",
           "Largest iteration space (product of loop sizes) vectorized as "
           "one op">,
    Option<"chunkElements", "chunk-elements", "int64_t",
           /*default=*/"::mlir::fuse::VectorPolicy::kChunkElements",
           "Points per vector chunk of a strip-mined op (0 or 1: larger "
           "ops stay scalar)">,
    Option<"reassociate", "reassociate", "bool", /*default=*/"false",
           "Strip-mine float add and mul reductions with per-lane partial "
           "results (changes their rounding)">,
    Option<"vectorizeContractions", "contractions", "bool",
           /*default=*/"true",
           "Cut float matmuls, other contractions and convolutions into "
           "register blocks of vector multiply-adds">,
    Option<"blockRows", "block-rows", "int64_t",
           /*default=*/"0",
           "Rows of a register block (the largest divisor up to this; 0: "
           "a quarter of the host's vector registers, AVX2 4, AVX-512 8)">,
    Option<"blockCols", "block-cols", "int64_t", /*default=*/"0",
           "Columns of a register block, contiguous in the result (the "
           "largest divisor up to this; 0: two vector registers of f32 of "
           "the host, AVX2 16, AVX-512 32)">,
    Option<"reductionChunk", "reduction-chunk", "int64_t",
           /*default=*/"0",
           "Reduction steps of one pass of a contraction's or convolution's "
           "register blocks over their tile (the chunk of its reduction "
           "loops whose operand panels stay in L2; 0: from the L2 of "
           "`l2-bytes` and the columns of the tile, a value at least the "
           "reduction's length keeps it whole)">,
    Option<"l2Bytes", "l2-bytes", "int64_t", /*default=*/"0",
           "Bytes of the core's L2 that the reduction chunks are sized for "
           "(0: the host's, from sysconf)">,
    Option<"fuseEpilogues", "epilogues", "bool", /*default=*/"true",
           "Fuse the elementwise ops after a contraction or convolution in "
           "its tile (bias, activation, residual add) into its register "
           "blocks, applied to the accumulators before their one store">,
    Option<"packOperands", "pack", "bool", /*default=*/"true",
           "Copy a contraction's operand that every row of register blocks "
           "reads (a matmul's B) into a contiguous tile first, when its rows "
           "are not contiguous">,
    Option<"fma", "fma", "bool", /*default=*/"false",
           "A register block's f32/f64 multiply-add steps as fused "
           "multiply-adds (one rounding instead of two)">
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
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

    The logistic sigmoid `1 / (1 + exp(-x))` (f32, as TOSA lowers it) is
    rewritten as a whole first, without its division (a 512-bit divide
    issues once every 10-16 cycles): `e = exp(-|x|)` by an exp for
    non-positive arguments (Cephes' polynomial, one clamp, the power of two
    from the rounding fma's bits), the reciprocal `r` of `1 + e` in (1, 2]
    by a quadratic and two Newton steps, and `x >= 0 ? r : e * r`. At most 4 ulp from the same expression with
    libm's exp and a true division, over all 2^32 inputs.

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

def FuseResultsToOutParamsPass
    : Pass<"fuse-results-to-out-params", "::mlir::ModuleOp"> {
  let summary = "Write each function's buffer results into buffers its "
                "caller passes, which overlap nothing else it reads or writes";
  let description = [{
    Run by `--fuse-lower-to-cpu` with `out-params=true` (what fuse-compile's
    libraries are built with), right after bufferization. Upstream's
    `promoteBufferResultsToOutParams` (static allocations hoisted into the
    caller, public functions too) makes each memref result an argument
    after the others: a result computed into a buffer of the function's
    own is computed into the caller's instead, any other (an input returned
    as it is) is copied there. Each new argument is then marked
    `llvm.noalias`: the caller passes buffers that share no byte with an
    input or with another output. The runtime makes it so (it gives an
    output that overlaps anything its own buffer and copies it after the
    call; `Session.cpp`), and so does the function's call of a callee
    converted here (a fresh allocation per result). With the mark,
    `fuse-merge-group-nests` tells a tile loop's writes into an output
    apart from another loop's reads of the inputs, so that the whole tiles
    and the peeled partial tile of a group that computes a result still
    run as one loop on all cores, and LLVM knows the stores into an output
    leave the inputs unchanged.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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

def FuseThreadTilesPass : Pass<"fuse-thread-tiles"> {
  let summary = "Run each tile loop on all cores where its work pays for "
                "the fork, in order on one core otherwise";
  let description = [{
    The last step of `--fuse-lower-to-cpu=parallel=true` before loops, after
    bufferization and `fuse-merge-group-nests`. Each `scf.forall` tile loop
    (without results) becomes either an `scf.parallel` loop, which
    `convert-scf-to-openmp` turns into an OpenMP worksharing loop over the
    cores, or an `scf.for` loop run by the calling thread, whose
    temporaries are then allocated once, before the loop (buffer loop
    hoisting), as in the serial lowering.

    A loop runs in parallel when it has at least two tiles and its work is
    at least `min-parallel-work`. Work is the larger of two static counts
    from the bufferized body. Instructions: a structured op counts its
    iteration space (its scalar loop), an op with a vector result one per
    512 bits of each 1-D vector it lowers to, any other op one, an `scf.for`
    with constant bounds its trip count times its body, an `scf.if` its
    larger branch, and the tile loop its tile count times its body. Memory:
    one instruction per 4 bytes of each buffer defined outside the loop
    that the body uses (views of one buffer once, at the largest view
    used), so that a nest of few instructions over much memory, such as a
    squeeze-and-excitation scaling `x * s[c]` over a 112x112x32 feature map
    (3.2 MB, 1.4 * 10^5 instructions), is shared too.

    A fork and join of libomp's two threads costs about 0.5 µs (measured on
    a 2-core Zen 4, threads waiting between regions), and a forked tile
    allocates its temporaries on the heap. The default, 2^16, keeps a nest
    on one thread below a few microseconds of work; measured there, two
    threads, against 2^18 by instructions alone: EfficientNet-B0 1.09x,
    ShuffleNetV2 1.07x, MobileNetV2 1.02x, examples/conv_bn_relu.mlir
    1.12x, the other examples unchanged (same code); one thread unchanged.

    Which tiles run on which core does not change any value: a tile's code
    is the same either way, and tiles write disjoint results.
  }];
  let options = [
    Option<"minParallelWork", "min-parallel-work", "int64_t",
           /*default=*/"1 << 16",
           "Instructions (estimated) below which a tile loop runs on the "
           "calling thread">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def FuseFlattenNarrowRowsPass
    : Pass<"fuse-flatten-narrow-rows", "::mlir::func::FuncOp"> {
  let summary = "Write a transposed vector of short rows as one flat "
                "vector, its transpose as one shuffle";
  let description = [{
    Runs on buffers, after bufferization and before the vector transfers
    are lowered. An unmasked, in-bounds, minor-identity
    `vector.transfer_write` to a memref of a `vector.transpose` result
    whose rows (the vector's innermost dimension) are shorter than 64
    bytes, of at most 64 elements, with at most two dimensions of more
    than one element (a narrow transpose's chunk from
    fuse-vectorize-tiles: 16 pixels of an NCHW image by its 3 channels),
    is written as one 1-D vector to a collapsed view of its buffer
    (upstream's flatten patterns: `memref.collapse_shape`,
    `vector.shape_cast`) where the rows it writes are contiguous in the
    buffer, and is left as it is otherwise. The transpose before such a
    write (two dimensions of more than one element) becomes one
    `vector.shuffle` of the flat vector (upstream's Shuffle1D lowering).
    Values are unchanged.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def FusePrefetchEpiloguesPass
    : Pass<"fuse-prefetch-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Prefetch what a register block's epilogue reads and "
                "writes before its reduction loop";
  let description = [{
    Runs on buffers, after bufferization and before the vector transfers
    are lowered. After a register block's reduction loop (an `scf.for`
    carrying vectors that multiplies vectors in its body), the block's
    epilogue reads what the group adds to the accumulators (a residual, a
    bias row) and stores the block: the first touch of those cache lines,
    with no work left to overlap their misses. For each in-bounds,
    minor-identity `vector.transfer_read` and `vector.transfer_write` after
    the loop in the same block (up to the next `scf.for`) whose buffer has
    a unit innermost stride, whose buffer is defined before the loop and
    whose indices are too or are computed after it, in its block, by pure
    ops from such values (cloned before the loop for the prefetches),
    unless a `vector.transfer_read` before the loop in
    that block reads the same buffer at the same indices (partial sums
    carried between reduction chunks, in the cache already), this pass
    issues one `memref.prefetch` per cache line
    of each of the transfer's rows before the loop (read or write), so
    the lines arrive while the block multiplies. At most `max-rows` rows
    per loop; a transfer of more than 1 MB is left alone. Values are
    unchanged.
  }];
  let options = [
    Option<"maxRows", "max-rows", "int64_t", /*default=*/"32",
           "Rows of transfers prefetched before one loop at most (0 to "
           "1024; others are refused)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def FusePrefetchStreamsPass
    : Pass<"fuse-prefetch-streams", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the operand a register block streams, a fixed "
                "number of bytes ahead";
  let description = [{
    Runs on buffers, after bufferization and before the vector transfers
    are lowered. In a register block's reduction loop (an `scf.for`
    carrying vectors that multiplies vectors in its body), the reads that
    are direct children of the loop's body, in-bounds, minor-identity
    `vector.transfer_read`s of a buffer with a unit innermost stride,
    whose indices are the induction variable or computed from it by pure
    ops in the body (the right operand's row of each step: a stream), get
    one `memref.prefetch` (read, locality 3) per cache line of each row,
    at the indices those reads have `distance` bytes of them later: the
    step `ceil(distance / bytes read a step)` steps ahead, the loop's last
    step at most. The hardware prefetchers alone keep too few lines in
    flight for a weight that does not stay in L2. A read whose step
    moves its address by a multiple of 4 KB (all its lines in the same L1
    sets: a column panel of a matrix whose rows are multiples of 1024
    floats) gets, instead, one prefetch per line of the same step of the
    next panel: its indices one step later of the nearest `scf.for`
    around the loop that moves its column and no other index, clamped
    into the buffer, where the panels of all such reads of the loop (their
    bytes over its constant trip count) are at most `max-panel-bytes`. No prefetches `distance` ahead
    in a loop of constant bounds whose streamed reads take at most
    `min-stream-bytes` in all, or of no more steps than the distance; a
    read of more than 1 MB is no stream. Values are unchanged.
  }];
  let options = [
    Option<"distance", "distance", "int64_t", /*default=*/"4096",
           "Bytes of the streamed reads ahead (1 to 1048576; others are "
           "refused)">,
    Option<"minStreamBytes", "min-stream-bytes", "int64_t",
           /*default=*/"16384",
           "A loop of constant bounds whose streamed reads take at most "
           "this many bytes in all gets no prefetches ahead: L1 keeps them for "
           "the next row of blocks (0 to 1048576; others are refused)">,
    Option<"maxPanelBytes", "max-panel-bytes", "int64_t",
           /*default=*/"262144",
           "Streams whose step moves by a multiple of 4 KB have the next "
           "panel's lines prefetched only where their panels (their bytes "
           "over the loop's constant trip count, all together) are at "
           "most this many bytes, so that L2 holds both (0 to 67108864; "
           "others are refused)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def FusePlanBuffersPass : Pass<"fuse-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Place a function's temporaries in one buffer, reusing the "
                "memory of those no longer live";
  let description = [{
    Runs after bufferization and deallocation, on buffers. The
    ownership-based deallocation frees each buffer at the end of the block
    that allocates it, so every temporary of a model lives until the
    function returns: each call allocates the sum of their sizes (36 MB for
    EfficientNet-B0) in fresh memory, which the allocator maps, the kernel
    zeroes and the caches see for the first time.

    This pass gives the function body's temporaries offsets in one buffer,
    the arena, allocated once per call and freed before the return: a
    temporary lives from its `memref.alloc` to the last operation of the
    body that uses it or a view of it, and two temporaries share bytes only
    if their lives do not overlap (greedy by size: the largest first, each
    at the lowest offset, aligned to 64 bytes or its own alignment, that no
    placed temporary live at the same time holds). Each `memref.alloc`
    becomes a `memref.view` of the arena and its `memref.dealloc`s go.

    Only `memref.alloc`s in the function's single block with a static
    shape, an identity layout, the default memory space, elements of whole
    bytes, at most 2^40 bytes and an alignment of at most 4096; only when
    no alias of the buffer (through view-like ops and the base buffer of
    `memref.extract_strided_metadata`) leaves the body's operations:
    returned or yielded, an operand of a non-view operation with memref
    results, of an unrealized cast or of
    `memref.extract_aligned_pointer_as_index`, or freed inside a nested
    region. A temporary's contents before its first write are
    undefined either way; values are unchanged.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // FUSEDIALECT_CODEGEN_CPU_PASSES_TD
