// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-permute-weights),canonicalize,cse)" | FileCheck %s
// RUN: %fuse-diff %s --entry channel_shuffle_conv,shuffled_k_matmul,shuffled_b_matmul,shared_shuffle,depthwise,not_a_shuffle,mixed,flatten_classifier -p "--pass-pipeline=builtin.module(func.func(fuse-permute-weights))" | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s --entry channel_shuffle_conv,shuffled_k_matmul,shuffled_b_matmul,shared_shuffle,depthwise,not_a_shuffle,mixed,flatten_classifier -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 9 outputs

// ShuffleNetV2's channel shuffle (2 groups of 4 channels, NCHW) before a
// 1x1 convolution (NHWC): the convolution reads x only transposed, and
// output channel c of the shuffle, source channel p(c) = (c mod 2) * 4 +
// c / 2, moves into the filter: w'[.., c'] = w[.., p^-1(c')], here
// [w0, w2, w4, w6, w1, w3, w5, w7].
// CHECK-LABEL: func.func @channel_shuffle_conv
//  CHECK-SAME: (%[[X:.*]]: tensor<1x8x3x3xf32>)
//       CHECK:   %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]]], {{\[\[\[}}1.000000e+01, 1.200000e+01, 1.400000e+01, 1.600000e+01, 1.100000e+01, 1.300000e+01, 1.500000e+01, 1.700000e+01]]]]> : tensor<2x1x1x8xf32>}>
//   CHECK-NOT:   tosa.reshape
//       CHECK:   %[[T:.*]] = tosa.transpose %[[X]] {perms = array<i32: 0, 2, 3, 1>}
//       CHECK:   tosa.conv2d %[[T]], %[[W]]
func.func @channel_shuffle_conv(%x: tensor<1x8x3x3xf32>) -> tensor<1x3x3x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]]], [[[10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0]]]]> : tensor<2x1x1x8xf32>}> : () -> tensor<2x1x1x8xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 2, 4, 3, 3]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s4 = tosa.const_shape {values = dense<[1, 8, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %x, %s5 : (tensor<1x8x3x3xf32>, !tosa.shape<5>) -> tensor<1x2x4x3x3xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x4x3x3xf32>) -> tensor<1x4x2x3x3xf32>
  %m = tosa.reshape %t, %s4 : (tensor<1x4x2x3x3xf32>, !tosa.shape<4>) -> tensor<1x8x3x3xf32>
  %n = tosa.transpose %m {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x3x3xf32>) -> tensor<1x3x3x8xf32>
  %c = tosa.conv2d %n, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x8xf32>, tensor<2x1x1x8xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  return %c : tensor<1x3x3x2xf32>
}

// A matmul whose K (6 = 2 x 3, the halves interleaved) is shuffled in A
// and constant in B: B's rows are permuted, A is read as it is (no
// transpose left).
// CHECK-LABEL: func.func @shuffled_k_matmul
//  CHECK-SAME: (%[[A:.*]]: tensor<1x2x6xf32>)
//       CHECK:   %[[B:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00], [8.000000e+00, 9.000000e+00], [2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00], [1.000000e+01, 1.100000e+01]]]> : tensor<1x6x2xf32>}>
//   CHECK-NOT:   tosa.reshape
//   CHECK-NOT:   tosa.transpose
//       CHECK:   tosa.matmul %[[A]], %[[B]]
func.func @shuffled_k_matmul(%a: tensor<1x2x6xf32>) -> tensor<1x2x2xf32> {
  %b = "tosa.const"() <{values = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]> : tensor<1x6x2xf32>}> : () -> tensor<1x6x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s4 = tosa.const_shape {values = dense<[1, 2, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[1, 2, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %a, %s4 : (tensor<1x2x6xf32>, !tosa.shape<4>) -> tensor<1x2x2x3xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x2x3xf32>) -> tensor<1x2x3x2xf32>
  %k = tosa.reshape %t, %s3 : (tensor<1x2x3x2xf32>, !tosa.shape<3>) -> tensor<1x2x6xf32>
  %m = tosa.matmul %k, %b, %zp, %zp : (tensor<1x2x6xf32>, tensor<1x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  return %m : tensor<1x2x2xf32>
}

// B's K shuffled, A constant: A's columns are permuted.
// CHECK-LABEL: func.func @shuffled_b_matmul
//  CHECK-SAME: (%[[B:.*]]: tensor<1x4x3xf32>)
//       CHECK:   %[[A:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0.000000e+00, 2.000000e+00, 1.000000e+00, 3.000000e+00]]]> : tensor<1x1x4xf32>}>
//       CHECK:   tosa.matmul %[[A]], %[[B]]
func.func @shuffled_b_matmul(%b: tensor<1x4x3xf32>) -> tensor<1x1x3xf32> {
  %a = "tosa.const"() <{values = dense<[[[0.0, 1.0, 2.0, 3.0]]]> : tensor<1x1x4xf32>}> : () -> tensor<1x1x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s4 = tosa.const_shape {values = dense<[1, 2, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %b, %s4 : (tensor<1x4x3xf32>, !tosa.shape<4>) -> tensor<1x2x2x3xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %k = tosa.reshape %t, %s3 : (tensor<1x2x2x3xf32>, !tosa.shape<3>) -> tensor<1x4x3xf32>
  %m = tosa.matmul %a, %k, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  return %m : tensor<1x1x3xf32>
}

// VGG's classifier: NHWC features flattened in NCHW order (a transpose
// then a reshape) before a matmul. The matmul reads the NHWC data
// flattened as it is (a view), and the weight's rows are permuted: row
// (h * 2 + w) * 3 + c of the new weight is row c * 4 + h * 2 + w of the old.
// CHECK-LABEL: func.func @flatten_classifier
//  CHECK-SAME: (%[[X:.*]]: tensor<1x2x2x3xf32>)
//       CHECK:   %[[B:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0.000000e+00], [4.000000e+00], [8.000000e+00], [1.000000e+00], [5.000000e+00], [9.000000e+00], [2.000000e+00], [6.000000e+00], [1.000000e+01], [3.000000e+00], [7.000000e+00], [1.100000e+01]]]> : tensor<1x12x1xf32>}>
//   CHECK-NOT:   tosa.transpose
//       CHECK:   %[[R:.*]] = tosa.reshape %[[X]]
//       CHECK:   tosa.matmul %[[R]], %[[B]]
func.func @flatten_classifier(%x: tensor<1x2x2x3xf32>) -> tensor<1x1x1xf32> {
  %b = "tosa.const"() <{values = dense<[[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0]]]> : tensor<1x12x1xf32>}> : () -> tensor<1x12x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[1, 1, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x3xf32>) -> tensor<1x3x2x2xf32>
  %r = tosa.reshape %t, %s : (tensor<1x3x2x2xf32>, !tosa.shape<3>) -> tensor<1x1x12xf32>
  %m = tosa.matmul %r, %b, %zp, %zp : (tensor<1x1x12xf32>, tensor<1x12x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1xf32>
  return %m : tensor<1x1x1xf32>
}

// Left alone: the shuffled tensor has another reader (the shuffle would
// still be computed for it); a depthwise convolution (its channels are not
// summed); a plain transpose (K in order: the layout passes' case); data
// movement that mixes K with another dimension (rows of 4 x 3 read as 2 x 6).
// CHECK-LABEL: func.func @shared_shuffle
//       CHECK:   tosa.transpose {{.*}} {perms = array<i32: 0, 2, 1>}
//       CHECK:   tosa.matmul
// CHECK-LABEL: func.func @depthwise
//       CHECK:   tosa.transpose {{.*}} {perms = array<i32: 0, 2, 1, 3, 4>}
//       CHECK:   tosa.depthwise_conv2d
// CHECK-LABEL: func.func @not_a_shuffle
//       CHECK:   tosa.transpose {{.*}} {perms = array<i32: 0, 2, 1>}
//       CHECK:   tosa.matmul
// CHECK-LABEL: func.func @mixed
//       CHECK:   %[[R:.*]] = tosa.reshape
//       CHECK:   tosa.matmul %[[R]]
func.func @shared_shuffle(%a: tensor<1x1x4xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x4xf32>) {
  %b = "tosa.const"() <{values = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]]> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s3 = tosa.const_shape {values = dense<[1, 2, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %a, %s3 : (tensor<1x1x4xf32>, !tosa.shape<3>) -> tensor<1x2x2xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1>} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  %k = tosa.reshape %t, %s : (tensor<1x2x2xf32>, !tosa.shape<3>) -> tensor<1x1x4xf32>
  %m = tosa.matmul %k, %b, %zp, %zp : (tensor<1x1x4xf32>, tensor<1x4x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
  return %m, %k : tensor<1x1x2xf32>, tensor<1x1x4xf32>
}
func.func @depthwise(%x: tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0], [2.0], [3.0], [4.0]]]]> : tensor<1x1x4x1xf32>}> : () -> tensor<1x1x4x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 2, 2, 3, 3]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s4 = tosa.const_shape {values = dense<[1, 4, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %x, %s5 : (tensor<1x4x3x3xf32>, !tosa.shape<5>) -> tensor<1x2x2x3x3xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %m = tosa.reshape %t, %s4 : (tensor<1x2x2x3x3xf32>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %n = tosa.transpose %m {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32>
  %c = tosa.depthwise_conv2d %n, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<1x1x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %c : tensor<1x3x3x4xf32>
}
func.func @not_a_shuffle(%a: tensor<1x2x3xf32>) -> tensor<1x3x2xf32> {
  %b = "tosa.const"() <{values = dense<[[[0.0, 1.0], [2.0, 3.0]]]> : tensor<1x2x2xf32>}> : () -> tensor<1x2x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t = tosa.transpose %a {perms = array<i32: 0, 2, 1>} : (tensor<1x2x3xf32>) -> tensor<1x3x2xf32>
  %m = tosa.matmul %t, %b, %zp, %zp : (tensor<1x3x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x2xf32>
  return %m : tensor<1x3x2xf32>
}
func.func @mixed(%a: tensor<1x4x3xf32>) -> tensor<1x2x1xf32> {
  %b = "tosa.const"() <{values = dense<[[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]]]> : tensor<1x6x1xf32>}> : () -> tensor<1x6x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.const_shape {values = dense<[1, 2, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %a, %s : (tensor<1x4x3xf32>, !tosa.shape<3>) -> tensor<1x2x6xf32>
  %m = tosa.matmul %r, %b, %zp, %zp : (tensor<1x2x6xf32>, tensor<1x6x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1xf32>
  return %m : tensor<1x2x1xf32>
}
