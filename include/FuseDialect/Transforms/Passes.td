//===- Passes.td - fuse dialect transformation passes ------*- tablegen -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_PASSES_TD
#define FUSEDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseAnnotateMappingPass : Pass<"fuse-annotate-mapping"> {
  let summary = "Attach the DNNFusion mapping type to every classified op";
  let description = [{
    Classifies every operation nested under the target op by how its input
    elements map to its output elements and records the result as the
    discardable attribute `fuse.mapping`. The classification is derived from
    the IR (see `FuseDialect/Analysis/MappingAnalysis.h` and
    `docs/MappingTypes.md`): linalg indexing maps and iterator types,
    elementwise traits and operand shapes, and the semantics of TOSA and
    tensor data-movement ops. Unknown ops, constants and ops with memory
    effects are left without an attribute and are never touched by the
    fusion pipeline. Existing annotations are recomputed.

    Before:

    ```mlir
    %0 = tosa.add %a, %b : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    %1 = tosa.transpose %0 {perms = array<i32: 1, 0>}
        : (tensor<2x8xf32>) -> tensor<8x2xf32>
    ```

    After:

    ```mlir
    %0 = tosa.add %a, %b {fuse.mapping = #fuse.mapping<one_to_many>}
        : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    %1 = tosa.transpose %0 {fuse.mapping = #fuse.mapping<shuffle>,
                            perms = array<i32: 1, 0>}
        : (tensor<2x8xf32>) -> tensor<8x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
  let statistics = [
    Statistic<"numOneToOne", "one-to-one", "Ops classified one-to-one">,
    Statistic<"numOneToMany", "one-to-many", "Ops classified one-to-many">,
    Statistic<"numManyToMany", "many-to-many", "Ops classified many-to-many">,
    Statistic<"numReorganize", "reorganize", "Ops classified reorganize">,
    Statistic<"numShuffle", "shuffle", "Ops classified shuffle">,
    Statistic<"numUnclassified", "unclassified",
              "Ops left without a mapping type">
  ];
}

def FuseProveBatchSeparablePass
    : Pass<"fuse-prove-batch-separable", "ModuleOp"> {
  let summary = "Prove that a model keeps the samples of a batch apart";
  let description = [{
    Succeeds, changing nothing, when the function `func` (linalg on tensors,
    with tensor and arith ops: lower TOSA first) at the batch size `batch`
    computes sample n of every result from sample n of the arguments
    `args` alone, the same way for every n; otherwise an error at the
    first op that mixes or tells samples apart (a reduction over the batch,
    a slice of it, a constant indexed by it, ...). Then the model compiled
    for one sample serves any batch size, one call per sample: fuse-compile
    uses it for ONNX inputs with a symbolic first dimension. The rules are
    in `lib/Analysis/BatchSeparability.cpp`.

    ```mlir
    // fuse-opt --fuse-prove-batch-separable="batch=3 args=0": refused
    %sum = linalg.reduce ins(%x : tensor<3x8xf32>) ... dimensions = [0]
    // error: reduces over the batch (loop dimension d0): samples would mix
    ```
  }];
  let options = [
    Option<"batch", "batch", "int64_t", /*default=*/"0",
           "The batch size of the function's batch arguments (at least 2)">,
    ListOption<"args", "args", "unsigned",
               "The arguments whose first dimension is the batch">,
    Option<"funcName", "func", "std::string", /*default=*/"\"model\"",
           "The function to prove it of">
  ];
}

def FuseVerifyInputPass : Pass<"fuse-verify-input"> {
  let summary = "Refuse input the pipelines cannot handle safely";
  let description = [{
    The first pass of `--fuse-ops` and of both lowerings: IR that parsed and
    verified can still make later passes (ours and upstream's) compute
    garbage or crash. Refused, each with an error at the op:
    * a shaped type whose element count or byte size overflows 64 bits or
      exceeds 2^40 bytes (every size computed downstream is then bounded);
    * an inherent attribute of the wrong kind that the op's parser let
      through (`tosa.clamp ... {nan_mode = "PROPAGATE"}` in the custom
      syntax stores a string where upstream's folders read an enum).
  }];
}

def FuseAlgebraicSimplifyPass : Pass<"fuse-algebraic-simplify"> {
  let summary = "Cost-driven algebraic simplification (associative, "
                "distributive and commutative rules)";
  let description = [{
    Rewrites TOSA ops and arith/math ops (linalg.generic payloads, or on
    tensors) with the rule catalogue of
    `include/FuseDialect/Transforms/Algebraic/Rules.def`
    (docs/AlgebraicRules.md lists every rule with its cost). A rewrite is
    applied only when it lowers the cost model's price of the program
    (flops with tensor sizes, plus memory traffic), most profitable first;
    intermediate values used elsewhere stay alive and count against the
    rewrite, so shared work is never duplicated for a false win.
    Cost-neutral commutative rewrites are applied only when they enable a
    profitable one. Constants combine at compile time.

    Rules that reassociate or distribute (results differ by rounding, and by
    more when operands differ greatly in magnitude: `(a + b) - b` is not `a`
    in f32 when `|b| >> |a|`) or can change NaN/Inf/signed-zero results are
    on by default, as DNNFusion applies them, and off under `strict=true`. Dynamic shapes, quantized ops (non-zero shifts or zero
    points) and ops of other dialects are left untouched.

    Example (`factor_mul_over_add`, `a * b + a * c -> a * (b + c)`):

    ```mlir
    %0 = tosa.mul %a, %b, %shift : (...) -> tensor<64xf32>
    %1 = tosa.mul %a, %c, %shift : (...) -> tensor<64xf32>
    %2 = tosa.add %0, %1 : (...) -> tensor<64xf32>
    ```

    becomes

    ```mlir
    %0 = tosa.add %b, %c : (...) -> tensor<64xf32>
    %1 = tosa.mul %a, %0, %shift : (...) -> tensor<64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Apply only rules that are exact under IEEE arithmetic">,
    ListOption<"onlyRules", "only", "std::string",
               "Apply only these rules (by name)">,
    Option<"ignoreCost", "ignore-cost", "bool", /*default=*/"false",
           "Testing: apply every match once, profitable or not">,
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"1000",
           "Upper bound on rewrite rounds">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print rules fired per family and cost saved to stderr">,
    Option<"rules", "rules", "bool", /*default=*/"true",
           "Apply the rules (false: only fold elementwise ops whose operands "
           "are all constants)">
  ];
  let statistics = [
    Statistic<"numAssociative", "associative", "Associative rules fired">,
    Statistic<"numDistributive", "distributive", "Distributive rules fired">,
    Statistic<"numCommutative", "commutative", "Commutative rules fired">,
    Statistic<"numFlopsSaved", "flops-saved", "Flops saved">
  ];
}

def FusePrintAlgebraicRulesPass : Pass<"fuse-print-algebraic-rules", "::mlir::ModuleOp"> {
  let summary = "Print the algebraic rule catalogue as Markdown";
  let description = [{
    Prints docs/AlgebraicRules.md to stdout: one row per rule with family,
    pattern, exactness and the cost of its canonical instance before and
    after the rewrite. The IR is not changed.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::func::FuncDialect"];
}

def FuseFormGroupsPass : Pass<"fuse-form-groups", "::mlir::ModuleOp"> {
  let summary = "Plan fusion by mapping type and form one fuse.group per kernel";
  let description = [{
    Runs the DNNFusion planner (FuseDialect/Transforms/Fusion/FusionPlanner.h) on the
    top-level block of every function: Many-to-Many anchors take their
    epilogues first, then One-to-One seeds with the smallest results grow
    through consumers, then producers; the mapping-type lattice
    decides the certain cells, the analytical `FusionCostModel` the uncertain
    ones (and the reductions that a row-wise kernel can chain), and a profile
    database (`profile=FILE`, JSON `{"producer(type)->consumer(type)": bool}`)
    overrides both. Groups stay convex (with every other group contracted to
    one op, so kernels never form a cycle), never require moving an op with
    side effects, and stay below `max-group-size` ops. Last, a view (slice,
    reshape, transpose, pad) that a group returns next to the value it
    views, read by one other group only, moves into that group, which reads
    the value through it: no copy is written and the producing group needs
    one loop nest (it moves only if its group then returns the viewed value
    anyway or that is no bigger than the view).

    Then every planned group becomes a `fuse.group` whose inputs are the
    values it reads from outside, whose results are the values used outside,
    and into which the constants it uses are cloned. Every classified op with
    static shapes ends up in exactly one group; ops with dynamic shapes,
    unclassified ops and existing groups are left as they are, so running
    the pass twice changes nothing.

    ```mlir
    %0 = tosa.conv2d %x, %w, %b, %zp, %zp {...}
    %1 = tosa.clamp %0 {...}
    ```

    becomes

    ```mlir
    %g = fuse.group ins(%x : tensor<...>) -> (tensor<...>)
        attributes {mapping = #fuse.mapping<many_to_many>} {
    ^bb0(%in: tensor<...>):
      %w = "tosa.const"() ...
      %0 = tosa.conv2d %in, %w, ...
      %1 = tosa.clamp %0 {...}
      fuse.yield %1 : tensor<...>
    }
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
  let options = [
    Option<"maxGroupSize", "max-group-size", "unsigned",
           /*default=*/"::mlir::fuse::FusionPlannerOptions::kDefaultMaxGroupSize",
           "Largest number of ops in one group">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "JSON profile database whose measured decisions override the "
           "cost model">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the plan to this file ('-' for stderr)">,
    Option<"dot", "dot", "std::string", /*default=*/"\"\"",
           "Write a Graphviz picture of the plan to this file">
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "fuse.group ops formed">,
    Statistic<"numOpsGrouped", "ops-grouped", "Ops placed in groups">
  ];
}

def FuseFoldConvAffinePass : Pass<"fuse-fold-conv-affine"> {
  let summary = "Fold per-channel scales and shifts into conv and matmul weights";
  let description = [{
    TensorRT-style vertical fusion of inference BatchNorm: after algebraic
    simplification a BatchNorm following a convolution is `conv * s + t`
    with constant per-output-channel `s` and `t`. This pass folds

    * `mul(conv2d(x, W, b), s)` into `conv2d(x, W * s, b * s)`,
    * `add(conv2d(x, W, b), t)` / `sub(..., t)` into `conv2d(x, W, b ± t)`,
    * the same for `depthwise_conv2d` (channel `c * M + m`) and
      `mul(matmul(x, W), s)` into `matmul(x, W * s)` (scales along columns),

    when the weights and bias are constants, `s`/`t` are constants that vary
    only along the output channel (shape `[1, ..., 1, C]` or a splat), and
    the convolution has no other user. The folded constants are computed
    once at compile time in f32: each output differs from the unfolded
    program by the rounding of one product per weight (see
    docs/CostModel.md for the measured error). Quantized convolutions
    (non-zero zero points, integer types) are left alone.
  }];
}

def FuseWinogradPass : Pass<"fuse-winograd"> {
  let summary = "3x3 convolutions of stride 1 by Winograd's F(2x2, 3x3): "
                "input transform, 16 GEMMs, output transform";
  let description = [{
    A `tosa.conv2d` of f32, 3x3, stride 1, dilation 1, padding up to 2, static
    shapes, a constant filter, zero zero points and at least
    `min-channels` (32) input and output channels, whose input is not the
    result of a contraction that stays direct (a 1x1 convolution and its
    ReLU: the planner would fuse it into the input transform's group and
    compute it again at every window overlap), becomes Winograd's minimal filtering F(2x2, 3x3) in
    TOSA ops: the padded input's 4 x 4 windows (slices of a view of row
    and column pairs) transformed by B^T d B (adds and subtracts), 16 1x1
    convolutions of the tile grid with the transformed filters G g G^T
    (computed at compile time in double, rounded once), and A^T M A (adds
    and subtracts) put back into rows and columns, sliced to the output's
    size, plus the bias. 2.25 times fewer multiplies; the GEMMs run at the
    1x1 convolutions' speed.

    Values change: the sums are regrouped and the transformed filter is
    rounded; an infinite input can give NaN where the direct sum gives
    infinity. Against a double-precision convolution the largest error
    measured on ResNet's and VGG's shapes is at or below the direct
    convolution's (docs/Performance.md). Off by default in `--fuse-ops`
    (`winograd=true`); the CPU library compiler turns it on.
  }];
  let options = [
    Option<"minChannels", "min-channels", "int64_t", /*default=*/"32",
           "Fewest input and output channels of a rewritten convolution "
           "(narrower GEMMs do not pay for the transforms)">
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def FuseHorizontalPass : Pass<"fuse-horizontal"> {
  let summary = "Merge same-input, same-kind convolutions and matmuls into one wider op";
  let description = [{
    TensorRT-style horizontal fusion: convolutions (`tosa.conv2d`) that read
    the same input with the same kernel size, stride, padding and dilation,
    and matmuls (`tosa.matmul`) that share their left operand, with constant
    weights (and biases) and zero zero-points, become one op whose output
    channels are the concatenation of theirs; each original result becomes a
    `tosa.slice` (a view) of the wide result. The 1x1 convolutions of an
    Inception block and the Q/K/V projections of attention are the typical
    cases. The weights are concatenated at compile time; results are exact.

    ```mlir
    %a = tosa.conv2d %x, %wa, %ba, ...   // 8 output channels
    %b = tosa.conv2d %x, %wb, %bb, ...   // 4 output channels
    ```

    becomes

    ```mlir
    %ab = tosa.conv2d %x, %wab, %bab, ... // 12 output channels
    %a = tosa.slice %ab, [0, 0, 0, 0], [1, H, W, 8]
    %b = tosa.slice %ab, [0, 0, 0, 8], [1, H, W, 4]
    ```
  }];
  let statistics = [
    Statistic<"numMerged", "merged", "Ops merged into wider ones">
  ];
}

def FusePermuteWeightsPass : Pass<"fuse-permute-weights"> {
  let summary = "Move a permutation of a contraction's reduced dimension "
                "into its constant operand";
  let description = [{
    A convolution whose input channels, or a matmul whose K dimension, are
    permuted by data movement (ShuffleNet's channel shuffle: reshape,
    transpose, reshape) while the other operand is a constant reads the
    data unpermuted, and the constant is permuted at compile time instead:
    `conv2d(shuffle(x), w)` becomes `conv2d(x, w')` with
    `w'[f, kh, kw, c] = w[f, kh, kw, q(c)]`, q the inverse permutation. The
    chain of reshapes and transposes is evaluated on element indices; it
    must be a view of its source (reshaped to the operand's shape, or
    transposed) followed by one fixed permutation of the reduced dimension,
    and nothing else may read it. The view stays (a reshape is free, a
    transpose becomes an index change for the layout passes): VGG's
    classifier reads its NHWC features flattened as they are instead of in
    NCHW order. The contraction adds the same products in another order
    (rounding may differ in the last bits).
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def FuseSliceProducersPass : Pass<"fuse-slice-producers"> {
  let summary = "Compute only the part of a result that a static slice reads";
  let description = [{
    Moves a static `tosa.slice` above the op that computes its input when
    every user of that result takes the same slice, so that the op
    computes only that part: an elementwise op on slices of its operands
    (broadcast dimensions whole), a reduction on a slice that keeps the
    reduced axis whole, a matmul on the rows of A and the columns of B it
    reads, a transpose on the permuted slice. A `tosa.gather` whose constant
    indices pick one contiguous range in every batch becomes such a slice.
    Repeated to a fixed point, a classifier that reads one token of a
    transformer's output (ViT's class token) computes its last LayerNorm,
    residual add and MLP matmul for that token only. Values are unchanged:
    each remaining element is computed from the same elements by the same
    ops.

    ```mlir
    %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x197x3072xf32>, ...) -> tensor<1x197x768xf32>
    %r = tosa.gather %m, %idx : (tensor<1x197x768xf32>, tensor<1x1xi32>) -> tensor<1x1x768xf32>
    ```

    becomes a slice of one row of `%x` and a 1x3072 by 3072x768 matmul.

    An elementwise op that is a concat's only reader moves below it, each
    part computed with its slice of the other operands:
    `f(concat(a, b), c)` becomes `concat(f(a, c0), f(b, c1))`, so that each
    part is computed by its producer's kernel and the concat becomes
    in-place writes. Slices of constants fold, and so do elementwise ops
    whose operands are all constants (as in fuse-algebraic-simplify): ViT's
    position embedding added to [class token; patches] becomes a constant
    row and an add in the patch convolution's epilogue.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def FuseEliminateConcatPass : Pass<"fuse-eliminate-concat"> {
  let summary = "Let concat producers write straight into their slice";
  let description = [{
    Rewrites a statically shaped `tosa.concat` whose operands are all
    computed by ops (not arguments or constants, whose inserts would be copy
    kernels of their own) into a `tensor.empty` destination and one
    `tensor.insert_slice` per operand. The fusion
    planner puts each insert into the kernel of the value it inserts, and the
    lowering (`eliminate-empty-tensors` before bufferization) makes that
    kernel write its result in place: no kernel copies data for the concat.

    ```mlir
    %c = tosa.concat %a, %b {axis = 3 : i32}
    ```

    becomes

    ```mlir
    %e = tensor.empty() : tensor<1x8x8x24xf32>
    %0 = tensor.insert_slice %a into %e[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1]
    %c = tensor.insert_slice %b into %0[0, 0, 0, 8] [1, 8, 8, 16] [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def FusePropagateLayoutPass : Pass<"fuse-propagate-layout", "::mlir::func::FuncOp"> {
  let summary = "Greedy global layout propagation between fixed-layout anchors";
  let description = [{
    Chooses one storage layout (a permutation) for each region of
    layout-agnostic ops (elementwise ops, casts, reductions) between the
    fixed-layout anchors (convolutions and matmuls, whose TOSA layouts
    NHWC/OHWI and [N,M,K]x[N,K,N'] are the ones their kernels want),
    function arguments and results, and unknown ops. The cost of a layout is
    the bytes its boundary transposes move; regions are rewritten greedily,
    the largest saving first, until no region gains. Transposes at the
    function boundary are counted at half: `--fuse-fold-boundary-transposes`
    turns them into kernel index changes. Constants inside a region are
    permuted at compile time; reductions get their axis renamed.

    Reshapes bound every region. A transpose left right before a reshape
    that only merges (or only splits) dimensions the transpose keeps
    adjacent and in order moves past it (`reshape(transpose(x))` becomes
    `transpose(reshape(x))`), and the regions are chosen again, until no
    transpose moves: the NCHW activation that an importer flattens for a
    global pool is then pooled in NHWC, and a squeeze-and-excitation block
    keeps no transpose.

    An NCHW ResNet block, where every conv is wrapped in transposes and the
    skip connection reads the NCHW block input, ends up with the BatchNorms,
    ReLUs and residual adds in NHWC and one transpose on the argument and one
    on the result:

    ```mlir
    %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>}   // once
    %c = tosa.conv2d %t, ...
    %b = tosa.add %c, %beta_nhwc ...                          // was NCHW
    %r = tosa.add %b, %t ...                                  // skip, NHWC
    %y = tosa.transpose %r {perms = array<i32: 0, 3, 1, 2>}   // once
    ```
  }];
  let statistics = [
    Statistic<"numRegions", "regions", "Regions stored in a new layout">
  ];
}

def FuseAbsorbTransposesPass : Pass<"fuse-absorb-transposes"> {
  let summary = "Fold transposes between contractions, reductions and "
                "elementwise ops into their indexing maps";
  let description = [{
    DNNFusion's data-movement elimination for transposes that cannot be
    moved away locally, typically multi-head attention: the head split
    (reshape, transpose, reshape), K transposed for Q.K^T, and the head
    merge. Each transpose (with the reshapes around it) is lifted to linalg
    together with the matmuls, elementwise ops and reductions next to it;
    reshapes become `tensor.expand_shape`/`collapse_shape` views and are
    propagated through the generics by expanding their loops; the transpose
    is then fused into its consumer's input map, or folded into its
    producer's output map. No copy remains.

    ```mlir
    %t = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} ...
    %k3 = tosa.reshape %t, ...
    %s = tosa.matmul %q3, %k3, %zp, %zp ...
    ```

    becomes one `linalg.generic` contraction that reads `%k4` through
    `(n, h, i, j, d) -> (n, j, h, d)`.

    A cluster is lifted only if every transpose in it can be absorbed (all
    its readers, through reshapes, are matmuls, elementwise ops or
    reductions; or its value is computed by a single-use one); other
    transposes, dynamic shapes and integer types are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numClusters", "clusters", "Layout clusters lifted">,
    Statistic<"numLeft", "left", "Permutation copies left after absorption">
  ];
}

def FuseFoldBoundaryTransposesPass : Pass<"fuse-fold-boundary-transposes"> {
  let summary = "Turn transposes at kernel boundaries into index changes";
  let description = [{
    A `tosa.transpose` that is the only reader of a `fuse.group` input
    becomes an input permutation of the group (the kernel reads the input
    through it); a `tosa.transpose` whose result is only yielded becomes a
    result permutation (the kernel writes through it). Either way the
    transpose op disappears and costs no memory traffic: DNNFusion's index
    change, applied at the boundary where a layout choice meets the
    function's declared layout (e.g. NCHW arguments around NHWC convs).
    A group that would only forward a permuted input to other groups does
    not: they read the input through the same index change.

    ```mlir
    %r = fuse.group ins(%x : tensor<1x8x16x16xf32>) -> (tensor<1x16x16x16xf32>) {
    ^bb0(%a: tensor<1x8x16x16xf32>):
      %t = tosa.transpose %a {perms = array<i32: 0, 2, 3, 1>} ...
      ...
    }
    ```

    becomes

    ```mlir
    %r = fuse.group ins(%x : tensor<1x8x16x16xf32>) -> (tensor<1x16x16x16xf32>)
        attributes {input_permutations = [array<i64: 0, 2, 3, 1>], ...} {
    ^bb0(%t: tensor<1x16x16x8xf32>):
      ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "Transposes turned into index changes">
  ];
}

#endif // FUSEDIALECT_TRANSFORMS_PASSES_TD
