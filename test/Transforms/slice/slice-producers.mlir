// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-slice-producers),canonicalize,cse)" | FileCheck %s
// RUN: %fuse-diff %s --entry class_token,shared_result,different_slices,transposed,gather_not_a_range,matmul_columns,mixed_elementwise,batched_gather -p "--pass-pipeline=builtin.module(func.func(fuse-slice-producers))" --lower="--fuse-lower-to-cpu='reassociate=false approximate-math=false'" | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s --entry class_token,transposed -p "--fuse-ops" | FileCheck %s --check-prefix=NUM2
// NUM: fuse-diff: OK 10 outputs, {{.*}} max abs err 0, max rel err 0
// NUM2: fuse-diff: OK 2 outputs

// A classifier reading one token (ViT's class token): the gather of row 0
// is a slice, and the slice moves up through the LayerNorm-like ops, the
// residual add, the bias add and the matmul, down to the operands. The
// bias (broadcast along the tokens) is not sliced; the weight is read
// whole (all columns).
// CHECK-LABEL: func.func @class_token
//  CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<1x5x8xf32>, %[[W:[a-z0-9]+]]: tensor<1x8x6xf32>, %[[R:[a-z0-9]+]]: tensor<1x5x6xf32>, %[[B:[a-z0-9]+]]: tensor<1x1x6xf32>)
//   CHECK-NOT:   tosa.gather
//       CHECK:   %[[XS:[0-9]+]] = tosa.slice %[[X]], {{.*}} -> tensor<1x1x8xf32>
//       CHECK:   %[[M:[0-9]+]] = tosa.matmul %[[XS]], %[[W]], {{.*}} -> tensor<1x1x6xf32>
//       CHECK:   %[[A:[0-9]+]] = tosa.add %[[M]], %[[B]] : (tensor<1x1x6xf32>, tensor<1x1x6xf32>)
//       CHECK:   %[[RS:[0-9]+]] = tosa.slice %[[R]], {{.*}} -> tensor<1x1x6xf32>
//       CHECK:   %[[S:[0-9]+]] = tosa.add %[[A]], %[[RS]]
//       CHECK:   tosa.reduce_sum %[[S]] {axis = 2 : i32} : (tensor<1x1x6xf32>) -> tensor<1x1x1xf32>
//   CHECK-NOT:   tensor<1x5x6xf32>)
//       CHECK:   return {{.*}} : tensor<1x1x6xf32>
func.func @class_token(%x: tensor<1x5x8xf32>, %w: tensor<1x8x6xf32>, %r: tensor<1x5x6xf32>, %b: tensor<1x1x6xf32>) -> tensor<1x1x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %idx = "tosa.const"() <{values = dense<[[0]]> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x5x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  %a = tosa.add %m, %b : (tensor<1x5x6xf32>, tensor<1x1x6xf32>) -> tensor<1x5x6xf32>
  %s = tosa.add %a, %r : (tensor<1x5x6xf32>, tensor<1x5x6xf32>) -> tensor<1x5x6xf32>
  %sum = tosa.reduce_sum %s {axis = 2 : i32} : (tensor<1x5x6xf32>) -> tensor<1x5x1xf32>
  %d = tosa.sub %s, %sum : (tensor<1x5x6xf32>, tensor<1x5x1xf32>) -> tensor<1x5x6xf32>
  %q = tosa.mul %d, %d, %sh : (tensor<1x5x6xf32>, tensor<1x5x6xf32>, tensor<1xi8>) -> tensor<1x5x6xf32>
  %v = tosa.reduce_sum %q {axis = 2 : i32} : (tensor<1x5x6xf32>) -> tensor<1x5x1xf32>
  %n = tosa.mul %d, %v, %sh : (tensor<1x5x6xf32>, tensor<1x5x1xf32>, tensor<1xi8>) -> tensor<1x5x6xf32>
  %g = tosa.gather %n, %idx : (tensor<1x5x6xf32>, tensor<1x1xi32>) -> tensor<1x1x6xf32>
  return %g : tensor<1x1x6xf32>
}

// The exp's whole result is also returned: it stays whole, and the slice
// stays below it.
// CHECK-LABEL: func.func @shared_result
//       CHECK:   %[[E:[0-9]+]] = tosa.exp %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
//       CHECK:   tosa.slice %[[E]]
func.func @shared_result(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<1x8xf32>) {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %start = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %e, %start, %size : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xf32>
  return %e, %s : tensor<4x8xf32>, tensor<1x8xf32>
}

// Two users take different slices: the add computes both.
// CHECK-LABEL: func.func @different_slices
//       CHECK:   tosa.add %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @different_slices(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %a = tosa.add %x, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s0 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s1 = tosa.const_shape {values = dense<[3, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a0 = tosa.slice %a, %s0, %size : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xf32>
  %a1 = tosa.slice %a, %s1, %size : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xf32>
  return %a0, %a1 : tensor<1x8xf32>, tensor<1x8xf32>
}

// A slice of a transpose is a transpose of the permuted slice: rows 1..2
// of the 8x4 transpose are columns 1..2 of the 4x8 input.
// CHECK-LABEL: func.func @transposed
//       CHECK:   %[[S:[0-9]+]] = tosa.slice %{{.*}} : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x2xf32>
//       CHECK:   tosa.transpose %[[S]] {perms = array<i32: 1, 0>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
func.func @transposed(%x: tensor<4x8xf32>) -> tensor<2x4xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %start = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %t, %start, %size : (tensor<8x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// Indices that are not one contiguous range stay a gather.
// CHECK-LABEL: func.func @gather_not_a_range
//       CHECK:   tosa.gather
func.func @gather_not_a_range(%x: tensor<1x5x6xf32>) -> tensor<1x2x6xf32> {
  %idx = "tosa.const"() <{values = dense<[[0, 2]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  %g = tosa.gather %x, %idx : (tensor<1x5x6xf32>, tensor<1x2xi32>) -> tensor<1x2x6xf32>
  return %g : tensor<1x2x6xf32>
}

// The columns of a matmul cut B only.
// CHECK-LABEL: func.func @matmul_columns
//       CHECK:   %[[W:[0-9]+]] = tosa.slice %{{.*}} : (tensor<1x8x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x8x2xf32>
//       CHECK:   tosa.matmul %{{.*}}, %[[W]], {{.*}} -> tensor<1x5x2xf32>
func.func @matmul_columns(%x: tensor<1x5x8xf32>, %w: tensor<1x8x6xf32>) -> tensor<1x5x2xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x5x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 5, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.slice %m, %start, %size : (tensor<1x5x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x5x2xf32>
  return %s : tensor<1x5x2xf32>
}

// Elementwise ops of other result types and operand counts: a comparison
// (i1), a select, a negate (its zero points stay whole), a cast; and a
// reduction along the first axis, which the slice keeps whole.
// CHECK-LABEL: func.func @mixed_elementwise
//   CHECK-DAG:   tosa.slice %{{.*}} : (tensor<4x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x2xf32>
//   CHECK-DAG:   tosa.reduce_max %{{.*}} {axis = 0 : i32} : (tensor<4x2xf32>) -> tensor<1x2xf32>
//   CHECK-DAG:   tosa.greater %{{.*}} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xi1>
//   CHECK-DAG:   tosa.negate %{{.*}} : (tensor<1x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2xf32>
//       CHECK:   tosa.select %{{.*}} : (tensor<1x2xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
//       CHECK:   tosa.cast %{{.*}} : (tensor<1x2xf32>) -> tensor<1x2xi32>
//   CHECK-NOT:   tensor<1x8x
func.func @mixed_elementwise(%x: tensor<4x8xf32>, %y: tensor<1x8xf32>) -> tensor<1x2xi32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.reduce_max %x {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %g = tosa.greater %m, %y : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xi1>
  %n = tosa.negate %y, %zp, %zp : (tensor<1x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8xf32>
  %s = tosa.select %g, %m, %n : (tensor<1x8xi1>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = tosa.cast %s : (tensor<1x8xf32>) -> tensor<1x8xi32>
  %start = tosa.const_shape {values = dense<[0, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.slice %c, %start, %size : (tensor<1x8xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xi32>
  return %r : tensor<1x2xi32>
}

// A gather of the same range (rows 1..2, i64 indices) in both batches is a
// slice of both batches; the exp above it then computes those rows only.
// CHECK-LABEL: func.func @batched_gather
//   CHECK-NOT:   tosa.gather
//       CHECK:   %[[S:[0-9]+]] = tosa.slice %{{.*}} : (tensor<2x5x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x3xf32>
//       CHECK:   tosa.exp %[[S]] : (tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
func.func @batched_gather(%x: tensor<2x5x3xf32>) -> tensor<2x2x3xf32> {
  %idx = "tosa.const"() <{values = dense<[[1, 2], [1, 2]]> : tensor<2x2xi64>}> : () -> tensor<2x2xi64>
  %e = tosa.exp %x : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %g = tosa.gather %e, %idx : (tensor<2x5x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
  return %g : tensor<2x2x3xf32>
}
