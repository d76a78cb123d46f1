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

// -----

// A concat, a pad and an insert into a concat's destination place each
// element of their operand once in a larger result: one read per element,
// nothing recomputed however costly the producer (a 5x5 convolution, 800
// flops per element: priced as 3 reads per element before, the part of
// Inception-v3's concats that it computes was copied by a kernel of its
// own).
// CHECK-LABEL: @placed_once
//       CHECK:   tosa.conv2d -> tosa.concat: maybe fuse {{.*}} penalty=0 {{.*}}(1.0 reads per element)
//       CHECK:   tosa.conv2d -> tosa.pad: maybe fuse {{.*}} penalty=0 {{.*}}(1.0 reads per element)
//       CHECK:   tosa.conv2d -> tensor.insert_slice: maybe fuse {{.*}} penalty=0 {{.*}}(1.0 reads per element)
func.func @placed_once(%x: tensor<1x35x35x16xf32>, %y: tensor<1x35x35x32xf32>, %d: tensor<1x35x35x48xf32>) -> (tensor<1x35x35x48xf32>, tensor<1x37x37x16xf32>, tensor<1x35x35x48xf32>) {
  %w = "tosa.const"() <{values = dense<0.01> : tensor<16x5x5x16xf32>}> : () -> tensor<16x5x5x16xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x35x35x16xf32>, tensor<16x5x5x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x35x35x16xf32>
  %cat = tosa.concat %c, %y {axis = 3 : i32} : (tensor<1x35x35x16xf32>, tensor<1x35x35x32xf32>) -> tensor<1x35x35x48xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %p = tosa.pad %c, %padding, %zp : (tensor<1x35x35x16xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x37x37x16xf32>
  %i = tensor.insert_slice %c into %d[0, 0, 0, 0] [1, 35, 35, 16] [1, 1, 1, 1] : tensor<1x35x35x16xf32> into tensor<1x35x35x48xf32>
  return %cat, %p, %i : tensor<1x35x35x48xf32>, tensor<1x37x37x16xf32>, tensor<1x35x35x48xf32>
}
