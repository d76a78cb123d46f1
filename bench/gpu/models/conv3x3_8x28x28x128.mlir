// A ResNet stage-2 3x3 convolution (batch 8, 28x28 pixels, 128 -> 128
// channels, padded) with bias and ReLU: compute-bound (1.85 GFLOP), for the
// GPU bench's implicit-GEMM convolution kernel (output pixels x filters
// register-tiled, the image and filter staged per window point and chunk
// of channels; `<name>_noigemm` is the same without it).
func.func @model(%x: tensor<8x28x28x128xf32>, %w: tensor<128x3x3x128xf32>, %b: tensor<128xf32>) -> tensor<8x28x28x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<8x28x28x128xf32>, tensor<128x3x3x128xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x28x28x128xf32>
  %r = tosa.clamp %c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<8x28x28x128xf32>) -> tensor<8x28x28x128xf32>
  return %r : tensor<8x28x28x128xf32>
}
