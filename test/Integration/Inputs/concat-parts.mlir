// Concats whose parts are computed by kernels of their own, written in
// place by those kernels (no copy kernel per part):
// * @inception_a: Inception-v3's first block at 20x20 (1x1, 1x1 -> 5x5,
//   1x1 -> 3x3 -> 3x3 and average pool -> 1x1 branches, concatenated);
// * @skip: a U-Net encoder stage, whose ReLU output is max-pooled and also
//   a part of a concat (the skip connection).
func.func @inception_a(%x: tensor<1x20x20x192xf32>) -> tensor<1x20x20x256xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b1_w = "tosa.const"() <{values = dense<0.011> : tensor<64x1x1x192xf32>}> : () -> tensor<64x1x1x192xf32>
  %b1_b = "tosa.const"() <{values = dense<0.1> : tensor<64xf32>}> : () -> tensor<64xf32>
  %b1_c = tosa.conv2d %x, %b1_w, %b1_b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x192xf32>, tensor<64x1x1x192xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x64xf32>
  %b1 = tosa.clamp %b1_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x64xf32>) -> tensor<1x20x20x64xf32>
  %b2a_w = "tosa.const"() <{values = dense<0.012> : tensor<48x1x1x192xf32>}> : () -> tensor<48x1x1x192xf32>
  %b2a_b = "tosa.const"() <{values = dense<0.1> : tensor<48xf32>}> : () -> tensor<48xf32>
  %b2a_c = tosa.conv2d %x, %b2a_w, %b2a_b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x192xf32>, tensor<48x1x1x192xf32>, tensor<48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x48xf32>
  %b2a = tosa.clamp %b2a_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x48xf32>) -> tensor<1x20x20x48xf32>
  %b2_w = "tosa.const"() <{values = dense<0.013> : tensor<64x5x5x48xf32>}> : () -> tensor<64x5x5x48xf32>
  %b2_b = "tosa.const"() <{values = dense<0.1> : tensor<64xf32>}> : () -> tensor<64xf32>
  %b2_c = tosa.conv2d %b2a, %b2_w, %b2_b, %zp, %zp {acc_type = f32, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x48xf32>, tensor<64x5x5x48xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x64xf32>
  %b2 = tosa.clamp %b2_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x64xf32>) -> tensor<1x20x20x64xf32>
  %b3a_w = "tosa.const"() <{values = dense<0.014> : tensor<64x1x1x192xf32>}> : () -> tensor<64x1x1x192xf32>
  %b3a_b = "tosa.const"() <{values = dense<0.1> : tensor<64xf32>}> : () -> tensor<64xf32>
  %b3a_c = tosa.conv2d %x, %b3a_w, %b3a_b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x192xf32>, tensor<64x1x1x192xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x64xf32>
  %b3a = tosa.clamp %b3a_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x64xf32>) -> tensor<1x20x20x64xf32>
  %b3b_w = "tosa.const"() <{values = dense<0.015> : tensor<96x3x3x64xf32>}> : () -> tensor<96x3x3x64xf32>
  %b3b_b = "tosa.const"() <{values = dense<0.1> : tensor<96xf32>}> : () -> tensor<96xf32>
  %b3b_c = tosa.conv2d %b3a, %b3b_w, %b3b_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x64xf32>, tensor<96x3x3x64xf32>, tensor<96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x96xf32>
  %b3b = tosa.clamp %b3b_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x96xf32>) -> tensor<1x20x20x96xf32>
  %b3_w = "tosa.const"() <{values = dense<0.016> : tensor<96x3x3x96xf32>}> : () -> tensor<96x3x3x96xf32>
  %b3_b = "tosa.const"() <{values = dense<0.1> : tensor<96xf32>}> : () -> tensor<96xf32>
  %b3_c = tosa.conv2d %b3b, %b3_w, %b3_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x96xf32>, tensor<96x3x3x96xf32>, tensor<96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x96xf32>
  %b3 = tosa.clamp %b3_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x96xf32>) -> tensor<1x20x20x96xf32>
  %pool = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x20x20x192xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x192xf32>
  %b4_w = "tosa.const"() <{values = dense<0.017> : tensor<32x1x1x192xf32>}> : () -> tensor<32x1x1x192xf32>
  %b4_b = "tosa.const"() <{values = dense<0.1> : tensor<32xf32>}> : () -> tensor<32xf32>
  %b4_c = tosa.conv2d %pool, %b4_w, %b4_b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x192xf32>, tensor<32x1x1x192xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x32xf32>
  %b4 = tosa.clamp %b4_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x32xf32>) -> tensor<1x20x20x32xf32>
  %cat = tosa.concat %b1, %b2, %b3, %b4 {axis = 3 : i32} : (tensor<1x20x20x64xf32>, tensor<1x20x20x64xf32>, tensor<1x20x20x96xf32>, tensor<1x20x20x32xf32>) -> tensor<1x20x20x256xf32>
  return %cat : tensor<1x20x20x256xf32>
}

func.func @skip(%x: tensor<1x20x20x16xf32>) -> (tensor<1x10x10x16xf32>, tensor<1x20x20x32xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %e_w = "tosa.const"() <{values = dense<0.018> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %e_b = "tosa.const"() <{values = dense<0.1> : tensor<16xf32>}> : () -> tensor<16xf32>
  %e_c = tosa.conv2d %x, %e_w, %e_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x16xf32>
  %e = tosa.clamp %e_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x16xf32>) -> tensor<1x20x20x16xf32>
  %f_w = "tosa.const"() <{values = dense<0.019> : tensor<16x3x3x16xf32>}> : () -> tensor<16x3x3x16xf32>
  %f_b = "tosa.const"() <{values = dense<0.1> : tensor<16xf32>}> : () -> tensor<16xf32>
  %f_c = tosa.conv2d %x, %f_w, %f_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x20x20x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x20x20x16xf32>
  %f = tosa.clamp %f_c {max_val = 3.4e38 : f32, min_val = 0.0 : f32} : (tensor<1x20x20x16xf32>) -> tensor<1x20x20x16xf32>
  %p = tosa.max_pool2d %e {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x20x20x16xf32>) -> tensor<1x10x10x16xf32>
  %cat = tosa.concat %e, %f {axis = 3 : i32} : (tensor<1x20x20x16xf32>, tensor<1x20x20x16xf32>) -> tensor<1x20x20x32xf32>
  return %p, %cat : tensor<1x10x10x16xf32>, tensor<1x20x20x32xf32>
}
