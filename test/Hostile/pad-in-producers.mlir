// Two pads of one group result whose halos, each within the 1 TiB bound
// every pipeline keeps, would add up past it in a shared padded buffer
// (2^30 - 24 columns on the left for one convolution, on the right for the
// other): fuse-tile-groups' pad-in-producers leaves both pads alone rather
// than build a 2 TiB tensor that no check saw.
// RUN: fuse-opt %s --fuse-ops --fuse-tile-groups=pad-in-producers=true | FileCheck %s

// CHECK-LABEL: func.func @halos_past_the_bound
// CHECK-NOT:     tensor<1x16x2147483616x16xf32>
// CHECK:         tensor.pad
// CHECK-NOT:     tensor<1x16x2147483616x16xf32>
// CHECK:         tensor.pad
// CHECK:         return
func.func @halos_past_the_bound(%x: tensor<1x16x16x8xf32>, %w1: tensor<16x1x1x8xf32>, %w2: tensor<16x1x1x16xf32>, %b: tensor<16xf32>) -> (tensor<1x16x1073741816x16xf32>, tensor<1x16x1073741816x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %l = tosa.conv2d %c, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 1073741800, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x1073741816x16xf32>
  %r = tosa.conv2d %c, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 1073741800>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x1073741816x16xf32>
  return %l, %r : tensor<1x16x1073741816x16xf32>, tensor<1x16x1073741816x16xf32>
}
