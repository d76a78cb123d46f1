// A conv + ReLU the group returns, and the 2x2 max pool over it (windows
// that tile the input exactly): one loop nest computes both.
func.func @model(%x: tensor<1x16x16x8xf32>) -> (tensor<1x16x16x8xf32>, tensor<1x8x8x8xf32>) {
  %w = "tosa.const"() <{values = dense<0.05> : tensor<8x3x3x8xf32>}> : () -> tensor<8x3x3x8xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x8xf32>) -> tensor<1x8x8x8xf32>
  return %r, %p : tensor<1x16x16x8xf32>, tensor<1x8x8x8xf32>
}
