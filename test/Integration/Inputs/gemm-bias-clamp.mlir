// A 256x512x384 matmul with a bias and clamp epilogue: square 32x32 tiles
// on the GPU path, both operands staged in shared memory in chunks of 32.
func.func @model(%a: tensor<1x256x512xf32>, %b: tensor<1x512x384xf32>, %bias: tensor<1x1x384xf32>) -> tensor<1x256x384xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %za, %zb : (tensor<1x256x512xf32>, tensor<1x512x384xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x384xf32>
  %s = tosa.add %m, %bias : (tensor<1x256x384xf32>, tensor<1x1x384xf32>) -> tensor<1x256x384xf32>
  %c = tosa.clamp %s {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x256x384xf32>) -> tensor<1x256x384xf32>
  return %c : tensor<1x256x384xf32>
}
