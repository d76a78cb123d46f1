// Regressions found by the hostile-input hunt (each once crashed, failed to
// verify or changed results).
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s --entry bias_one_value,cancel_then_commute,mixed_result_types,zero_d,matmul_dense_scale -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 6 outputs

// A conv bias of one value applies to every channel: folding a per-channel
// scale must expand it.
// CHECK-LABEL: func.func @bias_one_value
//       CHECK:   "tosa.const"() <{values = dense<[1.000000e+00, -1.500000e+00, 0.000000e+00]> : tensor<3xf32>}>
func.func @bias_one_value(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.5, -1.0]]], [[[1.5, 2.0]]], [[[-0.25, 0.75]]]]> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %k = "tosa.const"() <{values = dense<[[[[2.0, -3.0, 0.0]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %m = tosa.mul %c, %k, %s : (tensor<1x4x4x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x4x4x3xf32>
  return %m : tensor<1x4x4x3xf32>
}

// -----

// A cancellation in one round, then a reduction commuted in the next (the
// second round once read a value the first had erased).
// CHECK-LABEL: func.func @cancel_then_commute
//       CHECK:   tosa.reduce_max %{{.+}} {axis = 1 : i32
//       CHECK:   tosa.exp
func.func @cancel_then_commute(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %s = tosa.add %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %d = tosa.sub %s, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = tosa.exp %d : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tosa.reduce_max %c {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----

// Matmuls sharing A but producing different element types are not merged.
// CHECK-LABEL: func.func @mixed_result_types
//       CHECK:   tosa.matmul {{.*}} -> tensor<1x2x2xf32>
//       CHECK:   tosa.matmul {{.*}} -> tensor<1x2x2xf16>
func.func @mixed_result_types(%a: tensor<1x2x3xf16>) -> (tensor<1x2x2xf32>, tensor<1x2x2xf16>) {
  %b1 = "tosa.const"() <{values = dense<[[[0.5, 1.0], [1.5, 2.0], [-1.0, 0.25]]]> : tensor<1x3x2xf16>}> : () -> tensor<1x3x2xf16>
  %b2 = "tosa.const"() <{values = dense<[[[0.5, -1.0], [1.0, 2.0], [-1.0, 0.5]]]> : tensor<1x3x2xf16>}> : () -> tensor<1x3x2xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b1, %zp, %zp : (tensor<1x2x3xf16>, tensor<1x3x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2xf32>
  %1 = tosa.matmul %a, %b2, %zp, %zp : (tensor<1x2x3xf16>, tensor<1x3x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2xf16>
  return %0, %1 : tensor<1x2x2xf32>, tensor<1x2x2xf16>
}

// -----

// 0-d tensors (once crashed BatchNorm folding).
// CHECK-LABEL: func.func @zero_d
//       CHECK:   fuse.group
//       CHECK:     tosa.exp
//       CHECK:     tosa.sub
func.func @zero_d(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = tosa.exp %a : (tensor<f32>) -> tensor<f32>
  %1 = tosa.sub %0, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// A dead user must not hide a profitable rewrite (and make a second run of
// --fuse-ops change the IR).
// CHECK-LABEL: func.func @dead_user
//       CHECK:   tosa.reduce_max %{{.+}} {axis = 1 : i32
//       CHECK:   tosa.sigmoid
//   CHECK-NOT:   tosa.add
func.func @dead_user(%a: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %g = tosa.sigmoid %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %dead = tosa.add %a, %g : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tosa.reduce_max %g {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  return %r : tensor<2x1xf32>
}

// -----

// A per-column constant scaling a matmul's left operand multiplies along the
// summed axis: it must not move to the result (only splats may).
// CHECK-LABEL: func.func @matmul_dense_scale
//       CHECK:   tosa.mul %{{.+}}, %{{.+}}, %{{.+}} : (tensor<1x4x4xf32>, tensor<1x1x4xf32>
//       CHECK:   tosa.matmul
func.func @matmul_dense_scale(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %k = "tosa.const"() <{values = dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>}> : () -> tensor<1x1x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %k, %s : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %1 = tosa.matmul %0, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %1 : tensor<1x4x4xf32>
}

// -----

// Max/min that ignore NaN are not instances of the rules' max/min.
// CHECK-LABEL: func.func @nan_ignore
//       CHECK:   tosa.maximum {{.*}}nan_mode = IGNORE
//       CHECK:   tosa.maximum {{.*}}nan_mode = IGNORE
func.func @nan_ignore(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c2 = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = tosa.maximum %a, %c1 {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.maximum %0, %c2 {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
