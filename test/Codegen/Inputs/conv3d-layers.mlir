// R3D-18's 3-D convolutions at two of its stages' shapes (64 channels on
// 16x56x56, 512 on 2x7x7), each with its bias and ReLU: with 9 loops and
// the filter transposed to D x H x W x C x F, their kernels read global
// memory one thread a point and spilled up to 152 bytes at 64 registers.
func.func @model(%x: tensor<1x16x56x56x64xf32>, %y: tensor<1x2x7x7x512xf32>) -> (tensor<1x16x56x56x64xf32>, tensor<1x2x7x7x512xf32>) {
  %w1 = "tosa.const"() <{values = dense<0.01> : tensor<64x3x3x3x64xf32>}> : () -> tensor<64x3x3x3x64xf32>
  %b1 = "tosa.const"() <{values = dense<0.5> : tensor<64xf32>}> : () -> tensor<64xf32>
  %w2 = "tosa.const"() <{values = dense<0.01> : tensor<512x3x3x3x512xf32>}> : () -> tensor<512x3x3x3x512xf32>
  %b2 = "tosa.const"() <{values = dense<0.5> : tensor<512xf32>}> : () -> tensor<512xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv3d %x, %w1, %b1, %z, %z {acc_type = f32, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x16x56x56x64xf32>, tensor<64x3x3x3x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x56x56x64xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x56x56x64xf32>) -> tensor<1x16x56x56x64xf32>
  %c2 = tosa.conv3d %y, %w2, %b2, %z, %z {acc_type = f32, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x2x7x7x512xf32>, tensor<512x3x3x3x512xf32>, tensor<512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x7x7x512xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x2x7x7x512xf32>) -> tensor<1x2x7x7x512xf32>
  return %r1, %r2 : tensor<1x16x56x56x64xf32>, tensor<1x2x7x7x512xf32>
}
