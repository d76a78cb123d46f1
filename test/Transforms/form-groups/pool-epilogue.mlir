// A pool whose windows tile its input exactly (stride = window, no padding)
// ends a conv's epilogue: each conv result is read by one window, so the
// group computes it once (VGG's conv, ReLU, 2x2/2 max pool: one kernel).
// Overlapping or padded windows would recompute conv results: the pool is a
// kernel of its own (the lattice's Many-to-Many → Many-to-Many "never").
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --entry disjoint,overlapping | FileCheck %s --check-prefix=NUM
// RUN: fuse-opt %s -split-input-file --fuse-ops | fuse-opt --fuse-tile-groups=report-nests=true -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=NESTS
// NUM: fuse-diff: OK 2 outputs
// NESTS-NOT: remark

// CHECK-LABEL: func.func @disjoint
//       CHECK:   fuse.group
//       CHECK:     tosa.conv2d
//       CHECK:     tosa.clamp
//       CHECK:     tosa.max_pool2d
//       CHECK:     fuse.yield
//   CHECK-NOT:   fuse.group
func.func @disjoint(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x6xf32> {
  %w = "tosa.const"() <{values = dense<0.05> : tensor<6x3x3x4xf32>}> : () -> tensor<6x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<6xf32>}> : () -> tensor<6xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x6xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x6xf32>) -> tensor<1x4x4x6xf32>
  return %p : tensor<1x4x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @overlapping
//       CHECK:   fuse.group
//       CHECK:     tosa.conv2d
//       CHECK:     tosa.clamp
//       CHECK:     fuse.yield
//       CHECK:   fuse.group
//       CHECK:     tosa.max_pool2d
func.func @overlapping(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x6xf32> {
  %w = "tosa.const"() <{values = dense<0.05> : tensor<6x3x3x4xf32>}> : () -> tensor<6x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<6xf32>}> : () -> tensor<6xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<6x3x3x4xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x6xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x6xf32>) -> tensor<1x4x4x6xf32>
  return %p : tensor<1x4x4x6xf32>
}
