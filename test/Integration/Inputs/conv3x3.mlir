// Two 3x3 convolutions of one image (weights are arguments, so that
// fuse-diff draws them at random): 16 -> 32 channels, padded, with bias
// and ReLU6; and 16 -> 24 channels with stride 2, whose padded window has a
// size that depends on the tile (a dynamic shape inside the tile).
func.func @model(%x: tensor<1x12x12x16xf32>, %w: tensor<32x3x3x16xf32>, %b: tensor<32xf32>, %w2: tensor<24x3x3x16xf32>, %b2: tensor<24xf32>) -> (tensor<1x12x12x32xf32>, tensor<1x6x6x24xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x12x12x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x12x12x32xf32>
  %r = tosa.clamp %c {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x12x12x32xf32>) -> tensor<1x12x12x32xf32>
  %d = tosa.conv2d %x, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x12x12x16xf32>, tensor<24x3x3x16xf32>, tensor<24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x24xf32>
  return %r, %d : tensor<1x12x12x32xf32>, tensor<1x6x6x24xf32>
}
