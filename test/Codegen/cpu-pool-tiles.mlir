// A pool over disjoint windows (a 2 x 2 max pool of stride 2, VGG's)
// computes the convolution before it in its own loop nest. Its tiles are
// the convolution's as the convolution would take them alone (squares of
// pixels by filters, each tile reading its own filter slice), divided by
// the window: 4 x 4 pooled pixels by 64 filters here (@pooled), as the
// unpooled 8 x 8 convolution takes 8 x 8 by 64. Before, the pool took its
// own rows of all channels (2 pooled rows by 128 filters), and every tile
// read the whole filter: VGG-16's 14x14 512 -> 512 convolution under its
// pool, 9.2-11.3 ms against 8.3-8.5 without the pool. Where the
// convolution's tile is not whole windows (7 rows of 28 under a 2 x 2
// pool), it is rounded down to the largest whole tile of whole windows (4
// rows: 2 pooled rows of 14 by 64 filters; @odd_rows). The values are the
// unfused program's, bit for bit (EXACT, without fused multiply-adds).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry pooled,odd_rows -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// CHECK-LABEL: func.func @pooled
//       CHECK:   scf.forall ({{.*}}) = (0, 0, 0) to (4, 4, 128) step (4, 4, 64)
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} outs({{.*}} : tensor<1x8x8x64xf32>)
//       CHECK:     linalg.pooling_nhwc_max {{.*}} outs({{.*}} : tensor<1x4x4x64xf32>)
// CHECK-LABEL: func.func @odd_rows
//       CHECK:   scf.forall ({{.*}}) = (0, 0, 0) to (14, 14, 128) step (2, 14, 64)
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} outs({{.*}} : tensor<1x4x28x64xf32>)
//       CHECK:     linalg.pooling_nhwc_max {{.*}} outs({{.*}} : tensor<1x2x14x64xf32>)
// EXACT: fuse-diff: OK 2 outputs, 27136 values, max abs err 0
func.func @pooled(%x: tensor<1x8x8x16xf32>, %w: tensor<128x3x3x16xf32>, %b: tensor<128xf32>) -> tensor<1x4x4x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<128x3x3x16xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x128xf32>) -> tensor<1x8x8x128xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x128xf32>) -> tensor<1x4x4x128xf32>
  return %p : tensor<1x4x4x128xf32>
}

// -----

func.func @odd_rows(%x: tensor<1x28x28x16xf32>, %w: tensor<128x3x3x16xf32>, %b: tensor<128xf32>) -> tensor<1x14x14x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x28x28x16xf32>, tensor<128x3x3x16xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x28x28x128xf32>) -> tensor<1x14x14x128xf32>
  return %p : tensor<1x14x14x128xf32>
}
