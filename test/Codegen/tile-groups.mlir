// RUN: fuse-opt %s --split-input-file --fuse-tile-groups=report-nests=true -canonicalize -cse -verify-diagnostics | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-tile-groups" --entry softmax,conv_epilogue,index_changes,two_results,dependent_results,attention_scores,residual_and_norm,sibling_branches,squeeze_excitation,classifier,qkv_split,channel_shuffle,straddling_shuffle,concat_in_place,concat_branches | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 22 outputs

// A row softmax group becomes one loop nest over rows (a group smaller
// than one tile is split in as few tiles as possible: two of 8 rows): each
// tile reduces,
// exponentiates and normalizes its own row; no intermediate is a whole
// tensor any more.
// CHECK-LABEL: func.func @softmax
//       CHECK:   fuse.group
//       CHECK:     %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (16) step (8) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<16x32xf32>)
//       CHECK:       tensor.extract_slice %{{.*}}[%[[I]], 0] [8, 32] [1, 1]
//       CHECK:       linalg.reduce
//       CHECK:       math.exp
//       CHECK:       linalg.reduce
//       CHECK:       tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]], 0] [8, 32] [1, 1]
//   CHECK-NOT:     linalg.
//       CHECK:     fuse.yield %[[R]]
func.func @softmax(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = fuse.group ins(%x : tensor<16x32xf32>) -> (tensor<16x32xf32>) {
  ^bb0(%a: tensor<16x32xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.reduce_max %a {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %s = tosa.sub %a, %m : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
    %e = tosa.exp %s : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %inv = tosa.reciprocal %sum : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %o = tosa.mul %e, %inv, %sh : (tensor<16x32xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    fuse.yield %o : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

// -----

// Conv + bias + ReLU: the padded input, the conv and the ReLU are computed
// per output row inside the nest (unit loops fold away).
// CHECK-LABEL: func.func @conv_epilogue
//       CHECK:   fuse.group
//       CHECK:     scf.forall (%{{.*}}) = (0) to (6) step (3)
//       CHECK:       linalg.conv_2d_nhwc_fhwc
//       CHECK:       arith.maximumf
//   CHECK-NOT:     linalg.conv_2d_nhwc_fhwc
func.func @conv_epilogue(%x: tensor<1x6x6x3xf32>) -> tensor<1x6x6x4xf32> {
  %r = fuse.group ins(%x : tensor<1x6x6x3xf32>) -> (tensor<1x6x6x4xf32>) {
  ^bb0(%a: tensor<1x6x6x3xf32>):
    %w = "tosa.const"() <{values = dense<0.1> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
    %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3, -0.4]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
    %y = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
    fuse.yield %y : tensor<1x6x6x4xf32>
  }
  return %r : tensor<1x6x6x4xf32>
}

// -----

// Index changes are read and written through inside the nest: the input
// permutation becomes a transpose fused into each tile (a permuted read).
// CHECK-LABEL: func.func @index_changes
//       CHECK:   fuse.group ins(%arg0 : tensor<3x8xf32>) -> (tensor<3x8xf32>)
//   CHECK-NOT:   permutations
//       CHECK:     scf.forall
//       CHECK:       linalg.transpose
//       CHECK:       math.exp
func.func @index_changes(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %r = fuse.group ins(%x : tensor<3x8xf32>) -> (tensor<3x8xf32>) attributes {input_permutations = [array<i64: 1, 0>], result_permutations = [array<i64: 1, 0>]} {
  ^bb0(%a: tensor<8x3xf32>):
    %e = tosa.exp %a : (tensor<8x3xf32>) -> tensor<8x3xf32>
    fuse.yield %e : tensor<8x3xf32>
  }
  return %r : tensor<3x8xf32>
}

// -----

// Two results with no common root: one nest per root, then the two nests
// over the same tiles are merged into one (each result in its own buffer).
// CHECK-LABEL: func.func @two_results
//       CHECK:   scf.forall (%{{.*}}) = (0) to (4) step (2) shared_outs(%{{.*}} = %[[E0:.*]], %{{.*}} = %[[E1:.*]]) -> (tensor<4x8xf32>, tensor<4x8xf32>)
//       CHECK:     math.exp
//       CHECK:     math.tanh
//   CHECK-NOT:   scf.forall (
func.func @two_results(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r:2 = fuse.group ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %e = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = tosa.tanh %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
    fuse.yield %e, %t : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Negative: the second result reads the first: two nests, in order, and a
// remark.
// CHECK-LABEL: func.func @dependent_results
//       CHECK:   %[[A:.*]] = scf.forall
//       CHECK:   scf.forall {{.*}} {
//       CHECK:     tensor.extract_slice %[[A]]
func.func @dependent_results(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // expected-remark @+1 {{lowers to 2 loop nests, 1 reading another's results}}
  %r:2 = fuse.group ins(%x : tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>):
    %e = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = tosa.reduce_max %e {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %d = tosa.sub %e, %m : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    fuse.yield %e, %d : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Attention scores: Q·Kᵀ per (batch, head), then a softmax written on the
// view that merges batch and heads (as the layout stage leaves it). The
// scale is a broadcast scalar and 1/sum a row kept as 4x8x1; both are
// rewritten so that the view moves out and the whole group is one nest over
// (batch, head) tiles.
// CHECK-LABEL: func.func @attention_scores
//       CHECK:   fuse.group
//       CHECK:     scf.forall
//       CHECK:       linalg.generic {{.*}}"reduction"
//       CHECK:       math.exp
//   CHECK-NOT:     scf.forall (
//       CHECK:     fuse.yield
func.func @attention_scores(%q: tensor<2x8x2x8xf32>, %k: tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32> {
  %r = fuse.group ins(%q, %k : tensor<2x8x2x8xf32>, tensor<2x8x2x8xf32>) -> (tensor<2x2x8x8xf32>) {
  ^bb0(%a: tensor<2x8x2x8xf32>, %b: tensor<2x8x2x8xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %scale = "tosa.const"() <{values = dense<0.35> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x2x8x8xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x8x2x8xf32>, tensor<2x8x2x8xf32>) outs(%z : tensor<2x2x8x8xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %m = arith.mulf %x, %y : f32
      %n = arith.addf %acc, %m : f32
      linalg.yield %n : f32
    } -> tensor<2x2x8x8xf32>
    %v = tensor.collapse_shape %s [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
    %sc = tosa.mul %v, %scale, %sh : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
    %mx = tosa.reduce_max %sc {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
    %d = tosa.sub %sc, %mx : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
    %x = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %sum = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
    %rc = tosa.reciprocal %sum : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    %p = tosa.mul %x, %rc, %sh : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
    %o = tensor.expand_shape %p [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
    fuse.yield %o : tensor<2x2x8x8xf32>
  }
  return %r : tensor<2x2x8x8xf32>
}

// -----

// A residual sum returned and also layer-normalized (row reductions): one
// nest over rows computes both and yields the sum too.
// CHECK-LABEL: func.func @residual_and_norm
//       CHECK:   %[[N:.*]]:2 = scf.forall (%{{.*}}) = (0) to (8) step (4) shared_outs
//       CHECK:     linalg.reduce
//   CHECK-NOT:   scf.forall (
//       CHECK:   fuse.yield %[[N]]#{{[01]}}, %[[N]]#{{[01]}}
func.func @residual_and_norm(%x: tensor<8x32xf32>, %y: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %r:2 = fuse.group ins(%x, %y : tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  ^bb0(%a: tensor<8x32xf32>, %b: tensor<8x32xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %inv = "tosa.const"() <{values = dense<0.03125> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %s = tosa.add %a, %b : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %sum = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<8x32xf32>) -> tensor<8x1xf32>
    %mean = tosa.mul %sum, %inv, %sh : (tensor<8x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1xf32>
    %d = tosa.sub %s, %mean : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
    %sq = tosa.mul %d, %d, %sh : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<1xi8>) -> tensor<8x32xf32>
    %vs = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<8x32xf32>) -> tensor<8x1xf32>
    %var = tosa.mul %vs, %inv, %sh : (tensor<8x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x1xf32>
    %rs = tosa.rsqrt %var : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %n = tosa.mul %d, %rs, %sh : (tensor<8x32xf32>, tensor<8x1xf32>, tensor<1xi8>) -> tensor<8x32xf32>
    fuse.yield %s, %n : tensor<8x32xf32>, tensor<8x32xf32>
  }
  return %r#0, %r#1 : tensor<8x32xf32>, tensor<8x32xf32>
}

// -----

// Horizontally fused branches: one conv computes both branches' channels,
// one branch is returned as it is (16 channels), the other clamped (4
// channels). Alone, the wider root would take one row per tile and the
// narrower four; sibling roots share the smaller tile so that their nests
// merge: one nest over rows, writing both results.
// CHECK-LABEL: func.func @sibling_branches
//       CHECK:   scf.forall (%{{.*}}) in (16) shared_outs({{.*}}) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x4xf32>)
//   CHECK-NOT:   scf.forall (
func.func @sibling_branches(%x: tensor<1x16x16x4xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x4xf32>) {
  %r:2 = fuse.group ins(%x : tensor<1x16x16x4xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x4xf32>) {
  ^bb0(%a: tensor<1x16x16x4xf32>):
    %w = "tosa.const"() <{values = dense<0.125> : tensor<20x1x1x4xf32>}> : () -> tensor<20x1x1x4xf32>
    %bias = "tosa.const"() <{values = dense<0.5> : tensor<20xf32>}> : () -> tensor<20xf32>
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %bias, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x4xf32>, tensor<20x1x1x4xf32>, tensor<20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x20xf32>
    %s0 = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
    %n0 = tosa.const_shape {values = dense<[1, 16, 16, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %s1 = tosa.const_shape {values = dense<[0, 0, 0, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %n1 = tosa.const_shape {values = dense<[1, 16, 16, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %wide = tosa.slice %c, %s0, %n0 : (tensor<1x16x16x20xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x16x16x16xf32>
    %narrow = tosa.slice %c, %s1, %n1 : (tensor<1x16x16x20xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x16x16x4xf32>
    %relu = tosa.clamp %narrow {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x16x16x4xf32>) -> tensor<1x16x16x4xf32>
    fuse.yield %wide, %relu : tensor<1x16x16x16xf32>, tensor<1x16x16x4xf32>
  }
  return %r#0, %r#1 : tensor<1x16x16x16xf32>, tensor<1x16x16x4xf32>
}

// -----

// Squeeze-excitation as EfficientNet's export reaches the tiling (after
// layout propagation): the 1x1 conv's 1x1x1x32 result is squeezed
// (collapse) and unsqueezed in NCHW order (expand), read back into NHWC by
// the sigmoid (a shuffled indexing map), whose result scales the
// activation. The unit-dim reshapes fold into the sigmoid's indexing map
// (the squeezed dims read at 0), so the conv and sigmoid join the
// scaling's nest: one nest, no remark (two before). The 1x1 conv is a
// contraction over the channels (its splat filter a scalar of the body).
// CHECK-LABEL: func.func @squeeze_excitation
//       CHECK:   scf.forall (%{{.*}}) in (8)
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
//       CHECK:     linalg.generic
//       CHECK:     scf.forall.in_parallel
//   CHECK-NOT:   scf.forall (
//       CHECK:   return
func.func @squeeze_excitation(%x: tensor<1x8x8x32xf32>, %pooled: tensor<1x1x1x8xf32>) -> tensor<1x8x8x32xf32> {
  %r = fuse.group ins(%pooled, %x : tensor<1x1x1x8xf32>, tensor<1x8x8x32xf32>) -> (tensor<1x8x8x32xf32>) {
  ^bb0(%p: tensor<1x1x1x8xf32>, %a: tensor<1x8x8x32xf32>):
    %w = "tosa.const"() <{values = dense<0.125> : tensor<32x1x1x8xf32>}> : () -> tensor<32x1x1x8xf32>
    %bias = "tosa.const"() <{values = dense<0.25> : tensor<32xf32>}> : () -> tensor<32xf32>
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %one = arith.constant 1.0 : f32
    %empty = tensor.empty() : tensor<1x1x1x32xf32>
    %c = tosa.conv2d %p, %w, %bias, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x8xf32>, tensor<32x1x1x8xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x32xf32>
    %squeezed = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x1x1x32xf32> into tensor<1x32xf32>
    %nchw = tensor.expand_shape %squeezed [[0], [1, 2, 3]] output_shape [1, 32, 1, 1] : tensor<1x32xf32> into tensor<1x32x1x1xf32>
    %gate = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nchw : tensor<1x32x1x1xf32>) outs(%empty : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      %e = math.exp %n : f32
      %d = arith.addf %e, %one : f32
      %s = arith.divf %one, %d : f32
      linalg.yield %s : f32
    } -> tensor<1x1x1x32xf32>
    %scaled = tosa.mul %gate, %a, %shift : (tensor<1x1x1x32xf32>, tensor<1x8x8x32xf32>, tensor<1xi8>) -> tensor<1x8x8x32xf32>
    fuse.yield %scaled : tensor<1x8x8x32xf32>
  }
  return %r : tensor<1x8x8x32xf32>
}

// -----

// A classifier: matmul, the 1x1x10 result reshaped to 1x10, a bias added.
// The bias add is the matmul's epilogue up to the unit dim: its tiles
// compute their slice of the matmul (one nest; before, the add kept its
// row whole as if it followed a reduction, and the matmul got a nest of
// its own).
// CHECK-LABEL: func.func @classifier
//       CHECK:   scf.forall
//       CHECK:     linalg.batch_matmul
//       CHECK:     linalg.generic
//       CHECK:     scf.forall.in_parallel
//   CHECK-NOT:   scf.forall (
//       CHECK:   return
func.func @classifier(%x: tensor<1x1x64xf32>) -> tensor<1x10xf32> {
  %r = fuse.group ins(%x : tensor<1x1x64xf32>) -> (tensor<1x10xf32>) {
  ^bb0(%a: tensor<1x1x64xf32>):
    %w = "tosa.const"() <{values = dense<0.03125> : tensor<1x64x10xf32>}> : () -> tensor<1x64x10xf32>
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %bias = "tosa.const"() <{values = dense<[[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]]> : tensor<1x10xf32>}> : () -> tensor<1x10xf32>
    %shape = tosa.const_shape {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %m = tosa.matmul %a, %w, %z, %z : (tensor<1x1x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
    %flat = tosa.reshape %m, %shape : (tensor<1x1x10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
    %y = tosa.add %flat, %bias : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
    fuse.yield %y : tensor<1x10xf32>
  }
  return %r : tensor<1x10xf32>
}

// -----

// A 1x1 convolution whose input is larger than its output (valid: the
// named op reads the input at (h + 0, w + 0)) stays a convolution; a
// contraction would read the input at (h, w) and need equal sizes. Its
// same-size neighbour becomes a contraction over channels (two nests: the
// results' shapes differ).
// CHECK-LABEL: func.func @conv1x1_sizes
//   CHECK-DAG:   linalg.conv_2d_nhwc_fhwc {{.*}} ins({{.*}} : tensor<1x{{[0-9]+}}x4x4xf32>, tensor<16x1x1x4xf32>)
//   CHECK-DAG:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} tensor<16x4xf32>
//       CHECK:   return
func.func @conv1x1_sizes(%x: tensor<1x8x8x4xf32>, %f: tensor<16x1x1x4xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>) {
  // expected-remark @+1 {{lowers to 2 loop nests, 0 reading another's results}}
  %r:2 = fuse.group ins(%x, %f : tensor<1x8x8x4xf32>, tensor<16x1x1x4xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>) {
  ^bb0(%a: tensor<1x8x8x4xf32>, %b: tensor<16x1x1x4xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x4x4x16xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %b : tensor<1x8x8x4xf32>, tensor<16x1x1x4xf32>) outs(%fill : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    %e2 = tensor.empty() : tensor<1x8x8x16xf32>
    %fill2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    %d = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%a, %b : tensor<1x8x8x4xf32>, tensor<16x1x1x4xf32>) outs(%fill2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    fuse.yield %c, %d : tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>
  }
  return %r#0, %r#1 : tensor<1x4x4x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// A fused QKV projection (ViT, nn.MultiheadAttention): one matmul, its
// result viewed as tokens x 1 x 3E, sliced into Q, K and V, Q split into
// heads, transposed and scaled. The slices move up through the unit-dim
// view into the matmul (three matmuls over column blocks); Q's matmul is
// generalized and its head split folded into its loops. K and V share one
// nest, Q has its own, and neither reads the other's result: one kernel.
// CHECK-LABEL: func.func @qkv_split
//       CHECK:   fuse.group
//       CHECK:     %[[KV:.*]]:2 = scf.forall
//   CHECK-COUNT-2:   linalg.generic {{.*}}"reduction"
//       CHECK:     %[[Q:.*]] = scf.forall
//   CHECK-NOT:       %[[KV]]
//       CHECK:       linalg.generic {{.*}}"reduction"
//       CHECK:       arith.mulf %{{.*}}, %cst
//       CHECK:     fuse.yield %[[KV]]#0, %[[KV]]#1, %[[Q]]
func.func @qkv_split(%x: tensor<1x8x16xf32>, %wt: tensor<1x16x48xf32>) -> (tensor<8x1x16xf32>, tensor<8x1x16xf32>, tensor<2x8x8xf32>) {
  // expected-remark @+1 {{lowers to 2 loop nests, 0 reading another's results}}
  %r:3 = fuse.group ins(%x, %wt : tensor<1x8x16xf32>, tensor<1x16x48xf32>) -> (tensor<8x1x16xf32>, tensor<8x1x16xf32>, tensor<2x8x8xf32>) {
  ^bb0(%a: tensor<1x8x16xf32>, %w: tensor<1x16x48xf32>):
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %sc = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %mm = tosa.matmul %a, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x48xf32>
    %s3 = tosa.const_shape {values = dense<[8, 1, 48]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %rs = tosa.reshape %mm, %s3 : (tensor<1x8x48xf32>, !tosa.shape<3>) -> tensor<8x1x48xf32>
    %o0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %o1 = tosa.const_shape {values = dense<[0, 0, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %o2 = tosa.const_shape {values = dense<[0, 0, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %sz = tosa.const_shape {values = dense<[8, 1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %q = tosa.slice %rs, %o0, %sz : (tensor<8x1x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<8x1x16xf32>
    %k = tosa.slice %rs, %o1, %sz : (tensor<8x1x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<8x1x16xf32>
    %v = tosa.slice %rs, %o2, %sz : (tensor<8x1x48xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<8x1x16xf32>
    %hs = tosa.const_shape {values = dense<[8, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %qh = tosa.reshape %q, %hs : (tensor<8x1x16xf32>, !tosa.shape<3>) -> tensor<8x2x8xf32>
    %qt = tosa.transpose %qh {perms = array<i32: 1, 0, 2>} : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %qs = tosa.mul %qt, %sc, %sh : (tensor<2x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x8xf32>
    fuse.yield %k, %v, %qs : tensor<8x1x16xf32>, tensor<8x1x16xf32>, tensor<2x8x8xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<8x1x16xf32>, tensor<8x1x16xf32>, tensor<2x8x8xf32>
}

// -----

// A ShuffleNetV2 channel shuffle: the branch (exp here) concatenated after
// the passthrough half, viewed as 2 x 4 channels, transposed, viewed back
// and split in halves. Traced back from each half, the even channels are
// the passthrough's and the odd ones the branch's: each half is two
// stride-2 inserts, a copy of the passthrough and the branch computing
// only its half. Four nests, none reading another's result.
// CHECK-LABEL: func.func @channel_shuffle
//       CHECK:   %[[P0:.*]] = tensor.extract_slice %arg3[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
//       CHECK:   %[[C0:.*]] = scf.forall
//       CHECK:     tensor.extract_slice %[[P0]]
//       CHECK:     linalg.copy
//       CHECK:   %[[H0:.*]] = tensor.insert_slice %[[C0]] into %{{.*}}[0, 0, 0, 0] [1, 2, 2, 2] [1, 2, 1, 1]
//       CHECK:   %[[B0:.*]] = tensor.extract_slice %arg2[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
//       CHECK:   %[[E0:.*]] = scf.forall
//       CHECK:     tensor.extract_slice %[[B0]]
//       CHECK:     math.exp
//       CHECK:   %[[H0B:.*]] = tensor.insert_slice %[[E0]] into %[[H0]][0, 1, 0, 0] [1, 2, 2, 2] [1, 2, 1, 1]
//       CHECK:   tensor.extract_slice %arg3[0, 2, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
//       CHECK:   linalg.copy
//       CHECK:   tensor.extract_slice %arg2[0, 2, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1]
//       CHECK:   math.exp
//       CHECK:   %[[H1B:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 0, 0] [1, 2, 2, 2] [1, 2, 1, 1]
//       CHECK:   fuse.yield %[[H0B]], %[[H1B]]
func.func @channel_shuffle(%x: tensor<1x4x2x2xf32>, %p: tensor<1x8x2x2xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) {
  // expected-remark @+1 {{lowers to 4 loop nests, 0 reading another's results}}
  %r:2 = fuse.group ins(%x, %p : tensor<1x4x2x2xf32>, tensor<1x8x2x2xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) {
  ^bb0(%a: tensor<1x4x2x2xf32>, %b: tensor<1x8x2x2xf32>):
    %e = tosa.exp %a : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
    %cat = tensor.insert_slice %e into %b[0, 4, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1] : tensor<1x4x2x2xf32> into tensor<1x8x2x2xf32>
    %s5 = tosa.const_shape {values = dense<[1, 2, 4, 2, 2]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %r5 = tosa.reshape %cat, %s5 : (tensor<1x8x2x2xf32>, !tosa.shape<5>) -> tensor<1x2x4x2x2xf32>
    %t = tosa.transpose %r5 {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x4x2x2xf32>) -> tensor<1x4x2x2x2xf32>
    %s4 = tosa.const_shape {values = dense<[1, 8, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %r4 = tosa.reshape %t, %s4 : (tensor<1x4x2x2x2xf32>, !tosa.shape<4>) -> tensor<1x8x2x2xf32>
    %o0 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %o1 = tosa.const_shape {values = dense<[0, 4, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %sz = tosa.const_shape {values = dense<[1, 4, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %h0 = tosa.slice %r4, %o0, %sz : (tensor<1x8x2x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x2x2xf32>
    %h1 = tosa.slice %r4, %o1, %sz : (tensor<1x8x2x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x2x2xf32>
    fuse.yield %h0, %h1 : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>
  }
  return %r#0, %r#1 : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>
}

// -----

// Negative: the branch starts at channel 3, not at a row of the 2 x 4 view:
// a row mixes both sources, no piece is a copy. Left as it was (the
// shuffle reads the concatenation, two nests).
// CHECK-LABEL: func.func @straddling_shuffle
//       CHECK:   tensor.insert_slice %{{.*}} into %arg3[0, 3, 0, 0]
//       CHECK:   linalg.transpose
func.func @straddling_shuffle(%x: tensor<1x5x2x2xf32>, %p: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  // expected-remark @+1 {{lowers to 2 loop nests, 1 reading another's results}}
  %r = fuse.group ins(%x, %p : tensor<1x5x2x2xf32>, tensor<1x8x2x2xf32>) -> (tensor<1x8x2x2xf32>) {
  ^bb0(%a: tensor<1x5x2x2xf32>, %b: tensor<1x8x2x2xf32>):
    %e = tosa.exp %a : (tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32>
    %cat = tensor.insert_slice %e into %b[0, 3, 0, 0] [1, 5, 2, 2] [1, 1, 1, 1] : tensor<1x5x2x2xf32> into tensor<1x8x2x2xf32>
    %s5 = tosa.const_shape {values = dense<[1, 2, 4, 2, 2]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %r5 = tosa.reshape %cat, %s5 : (tensor<1x8x2x2xf32>, !tosa.shape<5>) -> tensor<1x2x4x2x2xf32>
    %t = tosa.transpose %r5 {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x4x2x2xf32>) -> tensor<1x4x2x2x2xf32>
    %s4 = tosa.const_shape {values = dense<[1, 8, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %r4 = tosa.reshape %t, %s4 : (tensor<1x4x2x2x2xf32>, !tosa.shape<4>) -> tensor<1x8x2x2xf32>
    fuse.yield %r4 : tensor<1x8x2x2xf32>
  }
  return %r : tensor<1x8x2x2xf32>
}

// -----

// A concat across groups: the group writes its input into a part of the
// destination another group filled, in place. The write becomes a copy
// nest (a kernel, not a host copy) of that part only, inserted into the
// destination; the destination's other parts are not copied.
// CHECK-LABEL: func.func @concat_in_place
//       CHECK:   fuse.group
//  CHECK-NEXT:   ^bb0(%[[A:.*]]: tensor<1x4x2x2xf32>, %[[B:.*]]: tensor<1x8x2x2xf32>):
//       CHECK:     %[[C:.*]] = scf.forall
//       CHECK:       tensor.extract_slice %[[A]]
//       CHECK:       linalg.copy
//       CHECK:     %[[R:.*]] = tensor.insert_slice %[[C]] into %[[B]][0, 4, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1]
//  CHECK-NEXT:     fuse.yield %[[R]]
//   CHECK-NOT:   linalg.copy
func.func @concat_in_place(%x: tensor<1x4x2x2xf32>, %p: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %r = fuse.group ins(%x, %p : tensor<1x4x2x2xf32>, tensor<1x8x2x2xf32>) -> (tensor<1x8x2x2xf32>) {
  ^bb0(%a: tensor<1x4x2x2xf32>, %b: tensor<1x8x2x2xf32>):
    %cat = tensor.insert_slice %a into %b[0, 4, 0, 0] [1, 4, 2, 2] [1, 1, 1, 1] : tensor<1x4x2x2xf32> into tensor<1x8x2x2xf32>
    fuse.yield %cat : tensor<1x8x2x2xf32>
  }
  return %r : tensor<1x8x2x2xf32>
}

// -----

// Two branches over the same tiles concatenated: their merged nest writes
// the concat itself (its results' inserts folded into the nest, each tile
// written at its place in the concat), not two tensors that bufferization
// would copy in (the second on the host, on the GPU path).
// CHECK-LABEL: func.func @concat_branches
//       CHECK:   fuse.group
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<32x32xf32>
//       CHECK:     %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (16) step (8) shared_outs(%[[O:.*]] = %[[E]]) -> (tensor<32x32xf32>)
//       CHECK:       math.exp
//       CHECK:       math.tanh
//       CHECK:       %[[J:.*]] = affine.apply #{{.*}}(%[[I]])
//       CHECK:       tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]], 0] [8, 32] [1, 1]
//       CHECK:       tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[J]], 0] [8, 32] [1, 1]
//   CHECK-NOT:     tensor.insert_slice
//       CHECK:     fuse.yield %[[R]]
func.func @concat_branches(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<32x32xf32> {
  %r = fuse.group ins(%x, %y : tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<32x32xf32>) {
  ^bb0(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>):
    %ea = tosa.exp %a : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %eb = tosa.tanh %b : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %c = tosa.concat %ea, %eb {axis = 0 : i32} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    fuse.yield %c : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}
