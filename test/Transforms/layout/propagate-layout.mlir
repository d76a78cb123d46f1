// RUN: fuse-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-propagate-layout))" | FileCheck %s
// RUN: %fuse-diff %s -p "--pass-pipeline=builtin.module(func.func(fuse-propagate-layout))" --entry residual,channel_reduction,two_layouts,to_argument,squeeze_excite,concat_and_pad,channel_shuffle | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 9 outputs

// An NCHW residual block: each conv wrapped in transposes, BatchNorm and ReLU
// in NCHW, the skip connection reading the NCHW argument. The whole region
// between the convs moves to NHWC: the BN constant is permuted at compile
// time, the skip reads the (shared) transposed argument, and one transpose
// is left on the argument and one on the result.
// CHECK-LABEL: func.func @residual
//  CHECK-SAME:     (%[[X:.*]]: tensor<1x4x5x5xf32>)
//   CHECK-DAG:   %[[BETA:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]]]]> : tensor<1x1x1x4xf32>}>
//   CHECK-DAG:   %[[T:.*]] = tosa.transpose %[[X]] {perms = array<i32: 0, 2, 3, 1>}
//       CHECK:   %[[C0:.*]] = tosa.conv2d %[[T]]
//       CHECK:   %[[B:.*]] = tosa.add %[[C0]], %[[BETA]] : (tensor<1x5x5x4xf32>, tensor<1x1x1x4xf32>)
//       CHECK:   %[[R:.*]] = tosa.clamp %[[B]]
//       CHECK:   %[[C1:.*]] = tosa.conv2d %[[R]]
//       CHECK:   %[[S:.*]] = tosa.add %[[C1]], %[[T]] : (tensor<1x5x5x4xf32>, tensor<1x5x5x4xf32>)
//       CHECK:   %[[Y:.*]] = tosa.transpose %[[S]] {perms = array<i32: 0, 3, 1, 2>}
//       CHECK:   return %[[Y]]
//   CHECK-NOT:   tosa.transpose
func.func @residual(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %w = "tosa.const"() <{values = dense<0.05> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %beta = "tosa.const"() <{values = dense<[[[[0.1]], [[0.2]], [[0.3]], [[0.4]]]]> : tensor<1x4x1x1xf32>}> : () -> tensor<1x4x1x1xf32>
  %t0 = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
  %c0 = tosa.conv2d %t0, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x5x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x4xf32>
  %u0 = tosa.transpose %c0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x5x5x4xf32>) -> tensor<1x4x5x5xf32>
  %bn = tosa.add %u0, %beta : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %r = tosa.clamp %bn {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %t1 = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
  %c1 = tosa.conv2d %t1, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x5x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x4xf32>
  %u1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x5x5x4xf32>) -> tensor<1x4x5x5xf32>
  %s = tosa.add %u1, %x : (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %s : tensor<1x4x5x5xf32>
}

// -----

// A reduction over the channel axis between two convs: the region moves to
// NHWC and the reduction's axis is renamed (1 -> 3), now innermost.
// CHECK-LABEL: func.func @channel_reduction
//       CHECK:   %[[C:.*]] = tosa.conv2d
//       CHECK:   %[[E:.*]] = tosa.exp %[[C]] : (tensor<1x3x3x4xf32>)
//       CHECK:   %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 3 : i32} : (tensor<1x3x3x4xf32>) -> tensor<1x3x3x1xf32>
//       CHECK:   %[[D:.*]] = tosa.mul %[[E]], %{{.*}}, %{{.*}} : (tensor<1x3x3x4xf32>, tensor<1x3x3x1xf32>, tensor<1xi8>)
//       CHECK:   tosa.conv2d %[[D]]
//   CHECK-NOT:   tosa.transpose
func.func @channel_reduction(%x: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  %u = tosa.transpose %c0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x4xf32>) -> tensor<1x4x3x3xf32>
  %e = tosa.exp %u : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<1x4x3x3xf32>) -> tensor<1x1x3x3xf32>
  %r = tosa.reciprocal %s : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %d = tosa.mul %e, %r, %shift : (tensor<1x4x3x3xf32>, tensor<1x1x3x3xf32>, tensor<1xi8>) -> tensor<1x4x3x3xf32>
  %t = tosa.transpose %d {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32>
  %c1 = tosa.conv2d %t, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %c1 : tensor<1x3x3x4xf32>
}

// -----

// Negative: one value computed by a conv and read in two layouts by two
// convs (NHWC and NWHC). Moving the ReLU to either layout needs a transpose
// in and still one out: nothing gains, nothing changes.
// CHECK-LABEL: func.func @two_layouts
//       CHECK:   %[[R:.*]] = tosa.clamp %{{.*}} {{.*}} : (tensor<1x4x6x5xf32>)
//       CHECK:   tosa.transpose %[[R]] {perms = array<i32: 0, 2, 3, 1>}
//       CHECK:   tosa.transpose %[[R]] {perms = array<i32: 0, 3, 2, 1>}
func.func @two_layouts(%x: tensor<1x4x6x5xf32>, %w2: tensor<5x1x1x5xf32>) -> (tensor<1x6x5x4xf32>, tensor<1x5x6x4xf32>) {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %b5 = "tosa.const"() <{values = dense<0.0> : tensor<5xf32>}> : () -> tensor<5xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c0 = tosa.conv2d %x, %w2, %b5, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x6x5xf32>, tensor<5x1x1x5xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6x5xf32>
  %r = tosa.clamp %c0 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x6x5xf32>) -> tensor<1x4x6x5xf32>
  %a = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x6x5x4xf32>
  %ca = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x5x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5x4xf32>
  %c = tosa.transpose %r {perms = array<i32: 0, 3, 2, 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x5x6x4xf32>
  %cc = tosa.conv2d %c, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x6x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6x4xf32>
  return %ca, %cc : tensor<1x6x5x4xf32>, tensor<1x5x6x4xf32>
}

// -----

// A transpose moved onto a function argument costs half (it becomes the
// first kernel's index change): the ReLU region takes NWHC, and one of its
// two transposes goes.
// CHECK-LABEL: func.func @to_argument
//       CHECK:   %[[T:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 2, 1>}
//       CHECK:   %[[R:.*]] = tosa.clamp %[[T]] {{.*}} : (tensor<1x5x6x4xf32>)
//       CHECK:   tosa.transpose %[[R]] {perms = array<i32: 0, 2, 1, 3>}
//       CHECK:   tosa.conv2d %[[R]]
func.func @to_argument(%x: tensor<1x4x6x5xf32>) -> (tensor<1x6x5x4xf32>, tensor<1x5x6x4xf32>) {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.clamp %x {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x6x5xf32>) -> tensor<1x4x6x5xf32>
  %a = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x6x5x4xf32>
  %ca = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x5x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5x4xf32>
  %c = tosa.transpose %r {perms = array<i32: 0, 3, 2, 1>} : (tensor<1x4x6x5xf32>) -> tensor<1x5x6x4xf32>
  %cc = tosa.conv2d %c, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x6x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6x4xf32>
  return %ca, %cc : tensor<1x6x5x4xf32>, tensor<1x5x6x4xf32>
}

// -----

// Negative: dynamic shapes are left alone.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>} : (tensor<?x3x3x4xf32>)
//       CHECK:   tosa.exp %{{.*}} : (tensor<?x4x3x3xf32>)
//       CHECK:   tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<?x4x3x3xf32>)
func.func @dynamic(%x: tensor<?x3x3x4xf32>) -> tensor<?x3x3x4xf32> {
  %u = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<?x3x3x4xf32>) -> tensor<?x4x3x3xf32>
  %e = tosa.exp %u : (tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
  %t = tosa.transpose %e {perms = array<i32: 0, 2, 3, 1>} : (tensor<?x4x3x3xf32>) -> tensor<?x3x3x4xf32>
  return %t : tensor<?x3x3x4xf32>
}

// -----

// A squeeze-and-excitation block as NCHW importers write it: the activation
// is flattened for the global pool (reshape to [N, C, H*W], reduce) and also
// scaled by the excitation in NCHW. The region settles in NHWC, which leaves
// a transpose at the flattening reshape; the reshape merges H and W, which
// are adjacent and in order in NHWC too, so the transpose moves past it and
// the next round cancels it: no transpose is left, and the pool reduces H*W
// of the NHWC activation.
// CHECK-LABEL: func.func @squeeze_excite
//   CHECK-NOT:   tosa.transpose
//       CHECK:   %[[ACT:.*]] = tosa.mul {{.*}} -> tensor<1x6x6x4xf32>
//       CHECK:   %[[FLAT:.*]] = tosa.reshape %[[ACT]], %{{.*}} -> tensor<1x36x4xf32>
//       CHECK:   tosa.reduce_sum %[[FLAT]] {axis = 1 : i32} : (tensor<1x36x4xf32>) -> tensor<1x1x4xf32>
//   CHECK-NOT:   tosa.transpose
//       CHECK:   return
func.func @squeeze_excite(%x: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x6x4xf32>) -> tensor<1x4x6x6xf32>
  %s = tosa.sigmoid %t : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m = tosa.mul %t, %s, %sh : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1xi8>) -> tensor<1x4x6x6xf32>
  %flat = tosa.const_shape {values = dense<[1, 4, 36]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %m, %flat : (tensor<1x4x6x6xf32>, !tosa.shape<3>) -> tensor<1x4x36xf32>
  %sum = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x4x36xf32>) -> tensor<1x4x1xf32>
  %back = tosa.const_shape {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %p = tosa.reshape %sum, %back : (tensor<1x4x1xf32>, !tosa.shape<4>) -> tensor<1x4x1x1xf32>
  %inv = "tosa.const"() <{values = dense<0.0277777780> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %avg = tosa.mul %p, %inv, %sh : (tensor<1x4x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x1xf32>
  %nhwc = tosa.transpose %avg {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x1x1xf32>) -> tensor<1x1x1x4xf32>
  %o = tosa.conv2d %nhwc, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x4xf32>
  %g = tosa.sigmoid %o : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %gn = tosa.transpose %g {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
  %scaled = tosa.mul %m, %gn, %sh : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x6x6xf32>
  %y = tosa.transpose %scaled {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
  %out = tosa.conv2d %y, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  return %out : tensor<1x6x6x4xf32>
}

// -----

// Merging C and H of an NCHW view of NHWC data is not a merge in NHWC (C
// and H are not adjacent there): the transpose stays before the reshape.
// CHECK-LABEL: func.func @no_commute
//       CHECK:   %[[T:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>}
//       CHECK:   tosa.reshape %[[T]]
func.func @no_commute(%x: tensor<1x2x3x4xf32>) -> tensor<1x8x3xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x3x4xf32>) -> tensor<1x4x2x3xf32>
  %shape = tosa.const_shape {values = dense<[1, 8, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %t, %shape : (tensor<1x4x2x3xf32>, !tosa.shape<3>) -> tensor<1x8x3xf32>
  return %r : tensor<1x8x3xf32>
}

// -----

// A reshape to rank 0 is left alone (no group per result dimension).
// CHECK-LABEL: func.func @to_scalar
//       CHECK:   tosa.reshape {{.*}} -> tensor<f32>
func.func @to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<1x1xf32>) -> tensor<1x1xf32>
  %shape = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %r = tosa.reshape %t, %shape : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// An Inception-style block in NCHW: two conv branches concatenated along
// the channels, and a pad (the average-pool branch's explicit padding)
// before a pool. Concats and pads are in the region: the concat's axis
// becomes 3 and the pad's amounts move with their dimensions, so the whole
// block stays NHWC and no transpose is left.
// CHECK-LABEL: func.func @concat_and_pad
//       CHECK:   %[[A:.*]] = tosa.conv2d
//       CHECK:   %[[B:.*]] = tosa.conv2d
//       CHECK:   %[[C:.*]] = tosa.concat %[[A]], %[[B]] {axis = 3 : i32} : (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x4xf32>
//       CHECK:   %[[S:.*]] = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}
//       CHECK:   %[[P:.*]] = tosa.pad %[[C]], %[[S]], %{{.*}} : (tensor<1x3x3x4xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x5x5x4xf32>
//       CHECK:   tosa.avg_pool2d %[[P]]
//   CHECK-NOT:   tosa.transpose
func.func @concat_and_pad(%x: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<2x1x1x4xf32>}> : () -> tensor<2x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<2x1x1x4xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %c1 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<2x1x1x4xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %u0 = tosa.transpose %c0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  %u1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  %cat = tosa.concat %u0, %u1 {axis = 1 : i32} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 0, 1, 1, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pv = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %cat, %padding, %pv : (tensor<1x4x3x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x4x5x5xf32>
  %t = tosa.transpose %p {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
  %a = tosa.avg_pool2d %t, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %a : tensor<1x3x3x4xf32>
}

// -----

// A ShuffleNet unit in NCHW: the two halves concatenated, the channel
// shuffle (reshape to 2 groups x 4 channels, swap, merge), then split into
// the halves of the next unit, one read by a convolution. The shuffle is
// done on the NHWC activation (its two innermost dims swapped), and the
// concat and the slices join the convolutions' NHWC regions: no transpose
// is left but the argument's and the result's.
// CHECK-LABEL: func.func @channel_shuffle
//       CHECK:   tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x3x3xf32>)
//       CHECK:   tosa.conv2d
//       CHECK:   %[[CAT:.*]] = tosa.concat %{{.*}}, %{{.*}} {axis = 3 : i32} : (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) -> tensor<1x3x3x8xf32>
//       CHECK:   %[[G:.*]] = tosa.reshape %[[CAT]], %{{.*}} : (tensor<1x3x3x8xf32>, !tosa.shape<5>) -> tensor<1x3x3x2x4xf32>
//       CHECK:   %[[SW:.*]] = tosa.transpose %[[G]] {perms = array<i32: 0, 1, 2, 4, 3>}
//       CHECK:   %[[SH:.*]] = tosa.reshape %[[SW]], %{{.*}} : (tensor<1x3x3x4x2xf32>, !tosa.shape<4>) -> tensor<1x3x3x8xf32>
//   CHECK-DAG:   tosa.slice %[[SH]], %{{.*}}, %{{.*}} : (tensor<1x3x3x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x4xf32>
//   CHECK-DAG:   tosa.slice %[[SH]], %{{.*}}, %{{.*}} : (tensor<1x3x3x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x3x3x4xf32>
//       CHECK:   tosa.conv2d
//       CHECK:   tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x8xf32>)
//   CHECK-NOT:   tosa.transpose
func.func @channel_shuffle(%x: tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.1, -0.2, 0.3, 0.4]]], [[[0.5, 0.6, -0.7, 0.8]]], [[[-0.9, 1.0, 1.1, 1.2]]], [[[1.3, 1.4, 1.5, -1.6]]]]> : tensor<4x1x1x4xf32>}> : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() <{values = dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %lo = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %hi = tosa.const_shape {values = dense<[0, 4, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %half = tosa.const_shape {values = dense<[1, 4, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %groups = tosa.const_shape {values = dense<[1, 2, 4, 3, 3]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %whole = tosa.const_shape {values = dense<[1, 8, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %a = tosa.slice %x, %lo, %half : (tensor<1x8x3x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %p = tosa.slice %x, %hi, %half : (tensor<1x8x3x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %t0 = tosa.transpose %p {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32>
  %c0 = tosa.conv2d %t0, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  %u0 = tosa.transpose %c0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x4xf32>) -> tensor<1x4x3x3xf32>
  %r0 = tosa.clamp %u0 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %cat = tosa.concat %a, %r0 {axis = 1 : i32} : (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  %g = tosa.reshape %cat, %groups : (tensor<1x8x3x3xf32>, !tosa.shape<5>) -> tensor<1x2x4x3x3xf32>
  %sw = tosa.transpose %g {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x4x3x3xf32>) -> tensor<1x4x2x3x3xf32>
  %sh = tosa.reshape %sw, %whole : (tensor<1x4x2x3x3xf32>, !tosa.shape<4>) -> tensor<1x8x3x3xf32>
  %a1 = tosa.slice %sh, %lo, %half : (tensor<1x8x3x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %p1 = tosa.slice %sh, %hi, %half : (tensor<1x8x3x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %t1 = tosa.transpose %p1 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x3x3xf32>) -> tensor<1x3x3x4xf32>
  %c1 = tosa.conv2d %t1, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  %u1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x4xf32>) -> tensor<1x4x3x3xf32>
  %out = tosa.concat %a1, %u1 {axis = 1 : i32} : (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %out : tensor<1x8x3x3xf32>
}
