// Two NCHW conv blocks as an ONNX importer writes them: every conv wrapped in
// transposes, the residual add reading the NCHW argument. Global layout
// propagation moves the region between the convs (bias add, ReLU) and the
// residual add to NHWC (the bias constant is permuted at compile time);
// the last transpose back to NCHW is folded into the residual add's output
// map (fuse-absorb-transposes), so 1 of the 4 transposes is left before
// planning (in the report): the one on the function's argument, which
// becomes an index change of both kernels that read it. No transpose op
// remains.
//
// RUN: fuse-opt %s --fuse-ops="report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: fuse-opt %s --fuse-ops="layout=false report=-" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: fuse-opt %s --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
//
// REPORT-DAG: "transposes_after": 0
// REPORT-DAG: "transposes_at_planning": 1
// REPORT-DAG: "transposes_before": 4
// NOLAYOUT: "transposes_at_planning": 4
// NUM: fuse-diff: OK 1 outputs, 256 values
//
//       CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
//       CHECK: #[[NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func.func @model
//       CHECK:   %[[G0:.*]] = fuse.group ins(%arg0 : tensor<1x4x8x8xf32>) {{.*}}input_permutations = [array<i64: 0, 2, 3, 1>]
//       CHECK:   fuse.group ins(%[[G0]], %arg0 : tensor<1x8x8x4xf32>, tensor<1x4x8x8xf32>) {{.*}}input_permutations = [array<i64>, array<i64: 0, 2, 3, 1>]
//       CHECK:     %[[C:.*]] = tosa.conv2d {{.*}} -> tensor<1x8x8x4xf32>
//       CHECK:     linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[NCHW]]]{{.*}} ins(%[[C]], %{{.*}} : tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>)
//   CHECK-NOT:   tosa.transpose
func.func @model(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias = "tosa.const"() <{values = dense<[[[[0.1]], [[0.2]], [[0.3]], [[0.4]]]]> : tensor<1x4x1x1xf32>}> : () -> tensor<1x4x1x1xf32>
  %t0 = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c0 = tosa.conv2d %t0, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t1 = tosa.transpose %c0 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %a = tosa.add %t1, %bias : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %t2 = tosa.transpose %r {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
  %c1 = tosa.conv2d %t2, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %t3 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %y = tosa.add %t3, %x : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}
