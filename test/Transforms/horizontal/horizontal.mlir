// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-horizontal))" | FileCheck %s
// RUN: %fuse-diff %s --entry inception_1x1,qkv,different_kernels -p "--pass-pipeline=builtin.module(func.func(fuse-horizontal))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 7 outputs

// Two 1x1 convs on the same input become one with 4 + 2 output channels;
// the originals are slices of it.
// CHECK-LABEL: func.func @inception_1x1
//       CHECK:   %[[W:.+]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<6x1x1x3xf32>}>
//       CHECK:   %[[B:.+]] = "tosa.const"() <{values = dense<[1.000000e-01, 1.000000e-01, 1.000000e-01, 1.000000e-01, 2.000000e-01, 2.000000e-01]> : tensor<6xf32>}>
//       CHECK:   %[[C:.+]] = tosa.conv2d %arg0, %[[W]], %[[B]]{{.*}} -> tensor<1x4x4x6xf32>
//       CHECK:   %[[S0:.+]] = tosa.const_shape {values = dense<0> : tensor<4xindex>}
//       CHECK:   %[[A:.+]] = tosa.slice %[[C]], %[[S0]], %{{.+}} : (tensor<1x4x4x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x4x4xf32>
//       CHECK:   %[[S4:.+]] = tosa.const_shape {values = dense<[0, 0, 0, 4]> : tensor<4xindex>}
//       CHECK:   %[[BB:.+]] = tosa.slice %[[C]], %[[S4]], %{{.+}} -> tensor<1x4x4x2xf32>
//   CHECK-NOT:   tosa.conv2d
//       CHECK:   return %[[A]], %[[BB]]
func.func @inception_1x1(%x: tensor<1x4x4x3xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x2xf32>) {
  %wa = "tosa.const"() <{values = dense<0.5> : tensor<4x1x1x3xf32>}> : () -> tensor<4x1x1x3xf32>
  %ba = "tosa.const"() <{values = dense<0.1> : tensor<4xf32>}> : () -> tensor<4xf32>
  %wb = "tosa.const"() <{values = dense<-0.25> : tensor<2x1x1x3xf32>}> : () -> tensor<2x1x1x3xf32>
  %bb = "tosa.const"() <{values = dense<0.2> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.conv2d %x, %wa, %ba, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<4x1x1x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4xf32>
  %b = tosa.conv2d %x, %wb, %bb, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %a, %b : tensor<1x4x4x4xf32>, tensor<1x4x4x2xf32>
}

// -----

// Q, K, V projections of one input: one matmul with 3 x 8 columns.
// CHECK-LABEL: func.func @qkv
//       CHECK:   tosa.matmul %arg0, %{{.+}} -> tensor<1x4x24xf32>
//   CHECK-NOT:   tosa.matmul
//       CHECK:   tosa.slice
//       CHECK:   tosa.slice
//       CHECK:   tosa.slice
func.func @qkv(%x: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %wq = "tosa.const"() <{values = dense<0.1> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %wk = "tosa.const"() <{values = dense<0.2> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %wv = "tosa.const"() <{values = dense<-0.3> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %k = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %v = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  return %q, %k, %v : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// -----

// Different kernel sizes, or a non-constant weight: nothing to merge.
// CHECK-LABEL: func.func @different_kernels
//       CHECK:   tosa.conv2d
//       CHECK:   tosa.conv2d
//   CHECK-NOT:   tosa.slice
func.func @different_kernels(%x: tensor<1x4x4x3xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %w1 = "tosa.const"() <{values = dense<0.5> : tensor<2x1x1x3xf32>}> : () -> tensor<2x1x1x3xf32>
  %w3 = "tosa.const"() <{values = dense<0.5> : tensor<2x3x3x3xf32>}> : () -> tensor<2x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %c = tosa.conv2d %x, %w3, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %a, %c : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}
