// RUN: fuse-opt %s --fuse-ops | FileCheck %s
//
// `--fuse-ops` runs the whole pipeline; its first stage annotates every
// computation with its mapping type.

// The final transpose is folded into the ReLU's output map: the kernel
// writes NCHW directly.
//       CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
//       CHECK: #[[NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func.func @block
//       CHECK:   fuse.group {{.*}}mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.conv2d {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.add {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   linalg.generic {indexing_maps = [#[[ID]], #[[NCHW]]]{{.*}}outs(%{{.*}} : tensor<1x2x4x4xf32>)
//   CHECK-NOT:   tosa.transpose
func.func @block(%img: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %b: tensor<1x1x1x2xf32>) -> tensor<1x2x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %img, %w, %bias, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
      : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %a = tosa.add %c, %b : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
  return %t : tensor<1x2x4x4xf32>
}

