// A group that returns a value and also a view of it (ResNet's crop before
// a strided 1x1 downsample conv, Inception's padded copy before a pool)
// needs two loop nests: one writes the value, one the copy. The planner
// moves such a view into the one group that reads it, which reads the
// returned value through it: as many kernels, one result per producing
// group, the copy never written.
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --entry crop | FileCheck %s --check-prefix=NUM
// RUN: fuse-opt %s -split-input-file --fuse-ops | fuse-opt --fuse-tile-groups=report-nests=true -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=NESTS
// NUM: fuse-diff: OK 2 outputs
// NESTS-NOT: remark

// The residual block's output %r feeds the next 3x3 conv and, cropped to
// 7x7, the strided 1x1 conv: the crop joins the strided conv's group, the
// first group returns %r alone.
// CHECK-LABEL: func.func @crop
//       CHECK:   %[[R:.*]] = fuse.group {{.*}} -> (tensor<1x8x8x4xf32>)
//   CHECK-NOT:     tosa.slice
//       CHECK:     fuse.yield
//       CHECK:   fuse.group ins(%[[R]]
//       CHECK:     tosa.conv2d
//       CHECK:   fuse.group ins(%[[R]]
//       CHECK:     tosa.slice
//       CHECK:     tosa.conv2d {{.*}}stride = array<i64: 2, 2>
func.func @crop(%x: tensor<1x8x8x4xf32>, %skip: tensor<1x8x8x4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x4x4x8xf32>) {
  %w = "tosa.const"() <{values = dense<0.05> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %w1 = "tosa.const"() <{values = dense<0.03> : tensor<8x1x1x4xf32>}> : () -> tensor<8x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<4xf32>}> : () -> tensor<4xf32>
  %b8 = "tosa.const"() <{values = dense<0.2> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %s = tosa.add %c, %skip : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %next = tosa.conv2d %r, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[1, 7, 7, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %crop = tosa.slice %r, %start, %size : (tensor<1x8x8x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x7x4xf32>
  %down = tosa.conv2d %crop, %w1, %b8, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  return %next, %down : tensor<1x8x8x4xf32>, tensor<1x4x4x8xf32>
}
