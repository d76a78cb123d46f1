// RUN: fuse-opt %s -split-input-file --fuse-annotate-mapping | FileCheck %s
//
// linalg ops are classified from iterator types and indexing maps only.

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
#c0 = affine_map<(d0, d1) -> (0, d1)>

// CHECK-LABEL: func.func @generic_identity
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<one_to_one>
func.func @generic_identity(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @generic_permutation
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<shuffle>
func.func @generic_permutation(%a: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#c0 = affine_map<(d0, d1) -> (0, d1)>
// A dropped dimension and a constant (size-1) index both broadcast; the most
// complex input wins over the identity one.
// CHECK-LABEL: func.func @generic_broadcast
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<one_to_many>
func.func @generic_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<1x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #c0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %c : tensor<4x8xf32>, tensor<1x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r, %r2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @generic_reduction
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<many_to_many>
func.func @generic_reduction(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An all-parallel op with a windowed (non projected-permutation) map.
#win = affine_map<(d0, d1) -> (d0 + d1)>
#out = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @generic_window
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<many_to_many>
func.func @generic_window(%a: tensor<12xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#win, #out], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<12xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// A payload that reads a captured tensor by computed index is a gather.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @generic_gather
//       CHECK:   linalg.generic
//  CHECK-SAME:     fuse.mapping = #fuse.mapping<one_to_many>
func.func @generic_gather(%idx: tensor<4xindex>, %table: tensor<16xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%idx : tensor<4xindex>) outs(%e : tensor<4xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %table[%i] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Named ops carry the same maps.
// CHECK-LABEL: func.func @named_ops
//       CHECK:   linalg.fill {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   linalg.matmul {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   linalg.transpose {{.*}}fuse.mapping = #fuse.mapping<shuffle>
//       CHECK:   linalg.broadcast {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   linalg.add {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   linalg.exp {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   linalg.reduce {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   linalg.conv_2d_nhwc_hwcf {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   linalg.pooling_nhwc_max {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
func.func @named_ops(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %v: tensor<16xf32>,
                     %img: tensor<1x6x6x3xf32>, %k: tensor<3x3x3x4xf32>, %w: tensor<2x2xf32>)
    -> (tensor<4x16xf32>, tensor<16x4xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<1x4x4x4xf32>, tensor<1x5x5x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %et = tensor.empty() : tensor<16x4xf32>
  %t = linalg.transpose ins(%m : tensor<4x16xf32>) outs(%et : tensor<16x4xf32>) permutation = [1, 0]
  %bc = linalg.broadcast ins(%v : tensor<16xf32>) outs(%e : tensor<4x16xf32>) dimensions = [0]
  %s = linalg.add ins(%m, %bc : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %x = linalg.exp ins(%s : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %er = tensor.empty() : tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x16xf32>) outs(%er : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %ec = tensor.empty() : tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%img, %k : tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%ec : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %ep = tensor.empty() : tensor<1x5x5x3xf32>
  %p = linalg.pooling_nhwc_max ins(%img, %w : tensor<1x6x6x3xf32>, tensor<2x2xf32>) outs(%ep : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  return %x, %t, %bc, %r, %c, %p : tensor<4x16xf32>, tensor<16x4xf32>, tensor<4x16xf32>, tensor<4xf32>, tensor<1x4x4x4xf32>, tensor<1x5x5x3xf32>
}

// -----

// Buffer semantics are out of scope: no annotation.
// CHECK-LABEL: func.func @memref_untouched
//   CHECK-NOT:   fuse.mapping
func.func @memref_untouched(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
