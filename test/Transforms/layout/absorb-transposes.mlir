// RUN: fuse-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-absorb-transposes),canonicalize)" | FileCheck %s
// RUN: %fuse-diff %s -p "--pass-pipeline=builtin.module(func.func(fuse-absorb-transposes))" --entry attention,producer,two_readers,mixed_readers | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 6 outputs

// Multi-head attention core, 2 heads of 4: head split (reshape, transpose,
// reshape), K transposed for Q.K^T, head merge, output projection. Every
// transpose becomes an indexing map of a contraction; the reshapes become
// expand_shape views.
//   CHECK-DAG: #[[QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
//   CHECK-DAG: #[[KMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>
// CHECK-LABEL: func.func @attention
//       CHECK:   %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [1, 4, 2, 4]
//       CHECK:   %[[K:.*]] = tensor.expand_shape %arg1
//       CHECK:   linalg.generic {indexing_maps = [#[[QMAP]], #[[KMAP]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[Q]], %[[K]] : tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>)
//       CHECK:   tosa.exp
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
//   CHECK-NOT:   tosa.transpose
//   CHECK-NOT:   linalg.transpose
//       CHECK:   return
func.func @attention(%q: tensor<1x4x8xf32>, %k: tensor<1x4x8xf32>, %v: tensor<1x4x8xf32>, %w: tensor<1x8x8xf32>) -> tensor<1x4x8xf32> {
  %split = tosa.const_shape {values = dense<[1, 4, 2, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %heads = tosa.const_shape {values = dense<[2, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %unheads = tosa.const_shape {values = dense<[1, 2, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %merged = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q4 = tosa.reshape %q, %split : (tensor<1x4x8xf32>, !tosa.shape<4>) -> tensor<1x4x2x4xf32>
  %k4 = tosa.reshape %k, %split : (tensor<1x4x8xf32>, !tosa.shape<4>) -> tensor<1x4x2x4xf32>
  %v4 = tosa.reshape %v, %split : (tensor<1x4x8xf32>, !tosa.shape<4>) -> tensor<1x4x2x4xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
  %kt = tosa.transpose %k4 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
  %vt = tosa.transpose %v4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x4x2x4xf32>) -> tensor<1x2x4x4xf32>
  %q3 = tosa.reshape %qt, %heads : (tensor<1x2x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %k3 = tosa.reshape %kt, %heads : (tensor<1x2x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %v3 = tosa.reshape %vt, %heads : (tensor<1x2x4x4xf32>, !tosa.shape<3>) -> tensor<2x4x4xf32>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %e = tosa.exp %s : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %o = tosa.matmul %e, %v3, %zp, %zp : (tensor<2x4x4xf32>, tensor<2x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x4xf32>
  %o4 = tosa.reshape %o, %unheads : (tensor<2x4x4xf32>, !tosa.shape<4>) -> tensor<1x2x4x4xf32>
  %ot = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x2x4xf32>
  %o3 = tosa.reshape %ot, %merged : (tensor<1x4x2x4xf32>, !tosa.shape<3>) -> tensor<1x4x8xf32>
  %r = tosa.matmul %o3, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// A transpose of a reduction's result, read by nothing that can absorb it
// (the function result): folded into the reduction's output map instead.
//   CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
//   CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @producer
//       CHECK:   %[[X:.*]] = tensor.expand_shape %arg0
//       CHECK:   %[[R:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<3x5x1x7xf32>) outs(%{{.*}} : tensor<5x3x1xf32>)
//       CHECK:   return %[[R]] : tensor<5x3x1xf32>
//   CHECK-NOT:   transpose
func.func @producer(%x: tensor<3x5x7xf32>) -> tensor<5x3x1xf32> {
  %s = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<3x5x7xf32>) -> tensor<3x5x1xf32>
  %t = tosa.transpose %s {perms = array<i32: 1, 0, 2>} : (tensor<3x5x1xf32>) -> tensor<5x3x1xf32>
  return %t : tensor<5x3x1xf32>
}

// -----

// One transposed value read by two matmuls: each reads it through its map.
// CHECK-LABEL: func.func @two_readers
//   CHECK-NOT:   transpose
//       CHECK:   linalg.generic
//       CHECK:   linalg.generic
//   CHECK-NOT:   transpose
func.func @two_readers(%a: tensor<1x4x6xf32>, %b: tensor<1x4x5xf32>, %c: tensor<1x4x3xf32>) -> (tensor<1x6x5xf32>, tensor<1x6x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1>} : (tensor<1x4x6xf32>) -> tensor<1x6x4xf32>
  %m = tosa.matmul %t, %b, %zp, %zp : (tensor<1x6x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5xf32>
  %n = tosa.matmul %t, %c, %zp, %zp : (tensor<1x6x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x3xf32>
  return %m, %n : tensor<1x6x5xf32>, tensor<1x6x3xf32>
}

// -----

// Negative: the transposed argument is also returned, and nothing computes
// it: a copy is needed anyway, so the cluster stays in TOSA.
// CHECK-LABEL: func.func @mixed_readers
//       CHECK:   %[[T:.*]] = tosa.transpose
//       CHECK:   tosa.matmul %[[T]]
//       CHECK:   return %{{.*}}, %[[T]]
func.func @mixed_readers(%a: tensor<1x4x6xf32>, %b: tensor<1x4x5xf32>) -> (tensor<1x6x5xf32>, tensor<1x6x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1>} : (tensor<1x4x6xf32>) -> tensor<1x6x4xf32>
  %m = tosa.matmul %t, %b, %zp, %zp : (tensor<1x6x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5xf32>
  return %m, %t : tensor<1x6x5xf32>, tensor<1x6x4xf32>
}

// -----

// Negative: dynamic shapes and integer types are left alone.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   tosa.transpose
//       CHECK:   tosa.exp
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  %e = tosa.exp %t : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %e : tensor<4x?xf32>
}

// CHECK-LABEL: func.func @integer
//       CHECK:   tosa.transpose
//       CHECK:   tosa.add
func.func @integer(%x: tensor<3x4xi32>, %y: tensor<4x3xi32>) -> tensor<4x3xi32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<3x4xi32>) -> tensor<4x3xi32>
  %a = tosa.add %t, %y : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
  return %a : tensor<4x3xi32>
}
