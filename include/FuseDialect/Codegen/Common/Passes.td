//===- Passes.td - target-neutral tiling passes ------------*- tablegen -*-===//

#ifndef FUSEDIALECT_CODEGEN_COMMON_PASSES_TD
#define FUSEDIALECT_CODEGEN_COMMON_PASSES_TD

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
    writes through them. With `pad-in-producers`, a pad of a group input
    that another group computes reads instead that result inserted into a
    tensor whose halo is filled once outside the groups (pads of one value
    with one padding value share it, with the largest halo), so that no
    tile copies a padded window. The result is one kernel per group: only the
    group's inputs and results are whole tensors, everything else is
    computed per tile. With `report-nests`, a group that still needs more
    than one loop nest gets a remark saying how many of its nests read
    another's results (those cannot share a launch; the others are merged
    by `fuse-merge-group-launches` and `fuse-merge-group-nests`).
  }];
  let options = [
    Option<"minTileElements", "min-tile-elements", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.minTileElements",
           "A tile holds at most this many results (whole rows when a row "
           "is larger)">,
    Option<"windowTileElements", "window-tile-elements", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.windowTileElements",
           "A group tiled in rows around a window (depthwise convolution, "
           "pool) has tiles of up to this many results, at least 8 of them "
           "(fewer halo rows read again per result; 0: min-tile-elements; "
           "the CPU lowering uses 32768)">,
    Option<"weightRowTileElements", "weight-row-tile-elements", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.weightRowTileElements",
           "A group whose contraction is tiled in rows (a LayerNorm fused "
           "after it, several roots) has tiles of up to this many results: "
           "each tile streams the whole weight (0: min-tile-elements; the "
           "CPU lowering uses 65536)">,
    Option<"streamedWeightBytes", "streamed-weight-bytes", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.streamedWeightBytes",
           "Such a group whose weight has at least this many bytes (more "
           "than a core's L2: it streams from L3 or memory once per tile) "
           "has tiles of up to four times weight-row-tile-elements results "
           "(0: never; the CPU lowering uses 2 MiB)">,
    Option<"oneWeightRowTile", "one-weight-row-tile", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.oneWeightRowTile",
           "Such a group whose rows fit one tile stays one tile, its weight "
           "read once (the CPU lowering); false: split in two like any "
           "small group">,
    Option<"wideSideFactor", "wide-side-factor",
           "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.wideSideFactor",
           "A contraction (not a convolution) with more rows than "
           "contraction-tile tiles in squares this many times contraction-"
           "tile a side, so that fewer rows of tiles read B again (1: "
           "contraction-tile; the CPU lowering uses 2)">,
    Option<"mergeSiblingReaders", "merge-sibling-readers", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.mergeSiblingReaders",
           "Elementwise readers of one contraction or window op's result "
           "as one multi-result root, which computes it once (the CPU's)">,
    Option<"reportNests", "report-nests", "bool", /*default=*/"false",
           "Remark on groups that need more than one loop nest">,
    Option<"contractionTile", "contraction-tile", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.contractionTile",
           "Tile a contraction root (matmul) in squares of at most this side "
           "over its two innermost parallel loops (0: rows like other ops; "
           "both lowerings use 64)">,
    Option<"contractionTiles", "contraction-tiles", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.contractionTiles",
           "With contraction-tile: halve the side (down to 32) while a "
           "contraction has fewer tiles than this (the GPU lowering asks "
           "for one block per SM, GpuDescription::numSMs)">,
    Option<"partialTiles", "partial-tiles", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.partialTiles",
           "Tile a range without a divisor of more than half the wanted tile "
           "(197 tokens) by the wanted tile, the last one partial and peeled "
           "into a nest of its own; off: by its largest divisor">,
    Option<"convolutionsAsMatmuls", "convolutions-as-matmuls", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.convolutionsAsMatmuls",
           "With contraction-tile: tile a convolution with output channels "
           "as a matmul of output pixels by filters, so that a tile's filter "
           "slice stays in cache for all its pixels (false: in rows)">,
    Option<"contiguousFilters", "contiguous-filters", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.contiguousFilters",
           "Read convolution filters with the output channels contiguous: a "
           "1x1 convolution's, as a matmul, as C x F, any other's as "
           "H x W x C x F (conv_2d_nhwc_hwcf); a constant filter permuted at "
           "compile time, one computed at run time transposed in the tile that "
           "reads it where each tile reads its own filters, otherwise once "
           "per call in a nest of its own (its rows padded like a constant's)">,
    Option<"widenRowsFirst", "widen-rows-first", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.widenRowsFirst",
           "With contraction-tile: a tile no wider than the side in M takes "
           "more of the M dimension outside its innermost one (a "
           "convolution's output rows) before it widens N">,
    Option<"padInProducers", "pad-in-producers", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.padInProducers",
           "A group's result that other groups pad (a convolution's or "
           "pool's window past the border) is written into a tensor with "
           "the halo already filled, which the pads' readers read instead "
           "of a padded window per tile (the CPU's)">,
    Option<"halveOddTiles", "halve-odd-tiles", "bool",
           /*default=*/"::mlir::fuse::TilePolicy{}.halveOddTiles",
           "An odd count of fewer than 32 contraction tiles (or a few where "
           "N was widened) halves N where the halves are whole register "
           "blocks, so that two cores share the tiles evenly (the CPU's)">,
    Option<"transposeBlock", "transpose-block", "int64_t",
           /*default=*/"::mlir::fuse::TilePolicy{}.transposeBlock",
           "A root that reads an input transposed is tiled along the loop "
           "of that input's rows first, whole up to 64, else in whole "
           "blocks of this many, so that a tile moves whole blocks of rows "
           "(the CPU's: 16, the blocks fuse-vectorize-tiles transposes in "
           "registers); 0: as any other root">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numNests", "nests", "Loop nests the groups lower to">,
    Statistic<"numPadsInProducers", "pads-in-producers",
              "Pads read from a result written with its halo">
  ];
}

def FuseInsertChainsToBufferPass : Pass<"fuse-insert-chains-to-buffer"> {
  let summary = "Prepare chains of tensor.insert_slice for bufferization: "
                "parts read through their chain, long chains as one buffer, "
                "chains inserted whole into a bigger tensor started there";
  let description = [{
    First, a part read after the chain of inserts it goes into (each
    inserting into the result of the previous one, at static boxes disjoint
    from the part's) is read from the chain's result: such a use of an
    insert's source becomes a `tensor.extract_slice` of the chain's last
    result at the part's box. Canonicalization folds those extracts to the
    part (the next group's nest reading the rows a peeled nest computed),
    and one-shot bufferization then sees the part read after the chain
    wrote the buffer it lives in, and computes it into a temporary copied
    in before its nest and out after it.

    Then, a concat of many parts lowers to a chain of `tensor.insert_slice` ops,
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

    Last, a shorter chain that starts from a `tensor.empty` and whose
    result is inserted whole into a bigger tensor (a padded buffer, which
    `pad-in-producers` makes before the chain's first group) starts from
    that tensor's box instead: the `tensor.empty` becomes a
    `tensor.extract_slice` of the outer destination at the box the outer
    insert writes, where that destination dominates it. Upstream's
    empty-tensor elimination takes the innermost insert first and leaves
    the first parts in the `tensor.empty`'s own buffer, which the outer
    insert then copies: a group's nest split at a partial tile, or a
    concat's parts written by several groups (U-Net's skip connections).
    Outermost inserts first; in a function's body only.
  }];
  let options = [
    Option<"minLength", "min-length", "int64_t", /*default=*/"32",
           "Shortest chain rewritten (shorter ones bufferize quickly)">
  ];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FuseCopiesToLinalgPass : Pass<"fuse-copies-to-linalg"> {
  let summary = "Turn memref.copy into linalg.copy (a loop nest)";
  let description = [{
    Bufferization copies with `memref.copy`, whose LLVM lowering is a
    `memcpy` between contiguous buffers and otherwise a call into the C
    runner utilities (`memrefCopy`, element by element through the
    strides). Inside GPU kernels there is no such function, and on the CPU
    it is slow: a convolution tile's padded window (a strided view) took
    3-4x as long to copy as to convolve. As `linalg.copy` the copy becomes
    loops like every other structured op. `--fuse-lower-to-nvvm` rewrites
    every copy (before `convert-linalg-to-loops`); `--fuse-lower-to-cpu`
    (`strided-only`) only ranked copies of rank > 0 whose source or target
    is not a contiguous row-major buffer.

    With `vector-bytes` (the CPU lowering: two of the host's vector
    registers), a rewritten copy whose innermost dims form a static run
    contiguous in both buffers (a padded window's rows) becomes `scf.for`
    loops over the other dims around 1-D `vector.transfer_read` /
    `vector.transfer_write` pairs along the run (collapsed with
    `memref.collapse_shape`), each of the largest power of two of elements
    up to `vector-bytes` that divides the run, at least 4; other copies
    become `linalg.copy`. LLVM would fully unroll a short innermost loop
    into scalar moves before vectorizing it. Values are unchanged.
  }];
  let options = [
    Option<"stridedOnly", "strided-only", "bool", /*default=*/"false",
           "Rewrite only copies from or to a buffer that is not contiguous "
           "(contiguous copies stay one memcpy)">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"0",
           "Copy contiguous innermost runs in vector transfers of up to "
           "this many bytes (0: every copy a linalg.copy; at most 1024, "
           "larger and negative values are refused)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
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

def FuseFillHalosPass : Pass<"fuse-fill-halos"> {
  let summary = "Fill a padded buffer only where the copy into it does not "
                "write";
  let description = [{
    Runs on buffers. A padded window (a convolution tile's input with its
    zero border, the bufferization of `tensor.pad`) is a new buffer filled
    with the padding value, then a copy of the source into a box of it:
    the fill writes every element and the copy writes most of them again
    (a depthwise convolution's 10 x 114 x 32 window: 146 KB filled, 115 KB
    of it copied over). Where a fill of a whole `memref.alloc` (a
    `linalg.fill` or a `linalg.map` yielding a value from outside) is
    followed in its block by a copy (`linalg.copy`, `memref.copy`) into a
    unit-stride `memref.subview` of that buffer from a source that is no
    view of it, with nothing between them touching the buffer, the fill is replaced by fills of the box's
    complement: for each dimension `d`, the slabs below and above the box
    in `d`, within the box in the dimensions before `d` and whole in those
    after (slabs that are empty for every size are not written). Every
    element ends with the value it had before; only the padding is
    written once.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // FUSEDIALECT_CODEGEN_COMMON_PASSES_TD
