// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-fold-conv-affine))" | FileCheck %s
// RUN: %fuse-diff %s --entry conv_bn,depthwise_scale,matmul_scale,conv_two_users,spatial_scale -p "--pass-pipeline=builtin.module(func.func(fuse-fold-conv-affine))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 6 outputs

// Conv + per-channel scale + per-channel shift + ReLU: the scale and shift
// move into the weights and bias; ReLU stays as the epilogue.
// CHECK-LABEL: func.func @conv_bn
//   CHECK-DAG:   %[[W:.+]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}2.000000e+00, -1.000000e+00]]], {{\[\[\[}}3.000000e+00, 1.500000e+00]]]]> : tensor<2x1x1x2xf32>}>
//   CHECK-DAG:   %[[B:.+]] = "tosa.const"() <{values = dense<[1.500000e+00, 3.500000e+00]> : tensor<2xf32>}>
//       CHECK:   %[[C:.+]] = tosa.conv2d %arg0, %[[W]], %[[B]]
//   CHECK-NOT:   tosa.mul
//   CHECK-NOT:   tosa.add
//       CHECK:   tosa.clamp %[[C]]
func.func @conv_bn(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0, -0.5]]], [[[1.0, 0.5]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<[0.5, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %t = "tosa.const"() <{values = dense<[[[[0.5, 0.5]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %m = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  %a = tosa.add %m, %t : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %r : tensor<1x4x4x2xf32>
}

// -----

// Depthwise: output channel c * M + m.
// CHECK-LABEL: func.func @depthwise_scale
//       CHECK:   tosa.depthwise_conv2d
//   CHECK-NOT:   tosa.mul
func.func @depthwise_scale(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x4xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1x1x2x2xf32>}> : () -> tensor<1x1x2x2xf32>
  %b = "tosa.const"() <{values = dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[1.0, 2.0, 3.0, 4.0]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  %m = tosa.mul %c, %s, %shift : (tensor<1x4x4x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4x4xf32>
  return %m : tensor<1x4x4x4xf32>
}

// -----

// A matmul with constant weights absorbs a column scale.
// CHECK-LABEL: func.func @matmul_scale
//       CHECK:   tosa.matmul
//   CHECK-NOT:   tosa.mul
func.func @matmul_scale(%x: tensor<1x4x3xf32>) -> tensor<1x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>}> : () -> tensor<1x3x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[0.5, -2.0]]]> : tensor<1x1x2xf32>}> : () -> tensor<1x1x2xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
  %y = tosa.mul %m, %s, %shift : (tensor<1x4x2xf32>, tensor<1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x2xf32>
  return %y : tensor<1x4x2xf32>
}

// -----

// Not folded: the conv has another user.
// CHECK-LABEL: func.func @conv_two_users
//       CHECK:   tosa.conv2d
//       CHECK:   tosa.mul
func.func @conv_two_users(%x: tensor<1x4x4x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[2.0, 3.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %m = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  return %m, %c : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}

// -----

// Not folded: the scale varies along a spatial axis, not the channel.
// CHECK-LABEL: func.func @spatial_scale
//       CHECK:   tosa.conv2d
//       CHECK:   tosa.mul
func.func @spatial_scale(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[2.0]], [[3.0]], [[4.0]], [[5.0]]]]> : tensor<1x4x1x1xf32>}> : () -> tensor<1x4x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %m = tosa.mul %c, %s, %shift : (tensor<1x4x4x2xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x4x2xf32>
  return %m : tensor<1x4x4x2xf32>
}
