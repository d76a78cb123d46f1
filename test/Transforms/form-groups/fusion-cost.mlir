// Unit test of the analytical fusion cost model: every producer -> consumer
// edge priced on its own (see docs/CostModel.md for the formulas).
//
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-cost -o /dev/null | FileCheck %s

// Recomputation: a tile reads each matmul element 4 times. Small: the saved
// launch and round trip (2 x 256 B + 9.6 MB-equivalent) beat recomputing
// 3 x 64 elements x 32 flops / 12.5 flops per byte = 492 B.
// CHECK-LABEL: @tile_small
//       CHECK:   tosa.matmul -> tosa.tile: maybe fuse benefit=9600512 penalty=492 (maybe: saves 9600512 B, recomputes 492 B-equivalent (4.0 reads per element))
func.func @tile_small(%a: tensor<1x8x16xf32>, %b: tensor<1x16x8xf32>) -> tensor<1x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.tile %m, %mult : (tensor<1x8x8xf32>, !tosa.shape<3>) -> tensor<1x8x32xf32>
  return %t : tensor<1x8x32xf32>
}

// -----

// Reductions: a broadcast of a row reduction over the same rows keeps the
// reduced value on chip (no recomputation); a second reduction over the
// same rows as the group's joins the row-wise kernel (a never-cell a
// specialized kernel serves); reductions over other rows do not.
// CHECK-LABEL: @reductions
//       CHECK:   tosa.reduce_max -> tosa.sub: maybe fuse {{.*}} penalty=0 {{.*}}reduction kept on chip
//       CHECK:   tosa.sub -> tosa.reduce_sum: never fuse {{.*}}(reduction over the same rows as the group's)
//       CHECK:   tosa.reduce_max -> tosa.reduce_sum: never keep {{.*}}(lattice: never)
//       CHECK:   tosa.reduce_max -> tosa.reduce_min: never keep {{.*}}(lattice: never)
func.func @reductions(%x: tensor<4x32xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x1xf32>) {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %s = tosa.sub %x, %m : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
  %sum = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %m2 = tosa.reduce_sum %m {axis = 1 : i32} : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %other = tosa.reduce_min %m {axis = 0 : i32} : (tensor<4x1xf32>) -> tensor<1x1xf32>
  return %sum, %m2, %other : tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x1xf32>
}

// -----

// Attention scores: a contraction feeding a reduction along its last axis
// fuses when a row fits on chip (64 x 4 B x 32 rows <= 228 KiB), not when a
// row of 4096 does not.
// CHECK-LABEL: @scores
//       CHECK:   tosa.matmul -> tosa.reduce_max: never fuse {{.*}}(row reduction of a contraction, row fits on chip)
//       CHECK:   tosa.matmul -> tosa.reduce_max: never keep {{.*}}(lattice: never)
func.func @scores(%q: tensor<1x64x16xf32>, %k: tensor<1x16x64xf32>, %kl: tensor<1x16x4096xf32>) -> (tensor<1x64x1xf32>, tensor<1x64x1xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.matmul %q, %k, %zp, %zp : (tensor<1x64x16xf32>, tensor<1x16x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<1x64x64xf32>) -> tensor<1x64x1xf32>
  %sl = tosa.matmul %q, %kl, %zp, %zp : (tensor<1x64x16xf32>, tensor<1x16x4096xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x4096xf32>
  %ml = tosa.reduce_max %sl {axis = 2 : i32} : (tensor<1x64x4096xf32>) -> tensor<1x64x1xf32>
  return %m, %ml : tensor<1x64x1xf32>, tensor<1x64x1xf32>
}
