// A 2048x2048x2048 f32 matmul with a bias and ReLU6 epilogue (one group):
// compute-bound, for the GPU bench's matmul kernel (square tiles, operands
// staged in shared memory; no tensor cores yet).
func.func @model(%a: tensor<1x2048x2048xf32>, %b: tensor<1x2048x2048xf32>, %bias: tensor<1x1x2048xf32>) -> tensor<1x2048x2048xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %za, %zb : (tensor<1x2048x2048xf32>, tensor<1x2048x2048xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2048x2048xf32>
  %s = tosa.add %m, %bias : (tensor<1x2048x2048xf32>, tensor<1x1x2048xf32>) -> tensor<1x2048x2048xf32>
  %c = tosa.clamp %s {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf32>
  return %c : tensor<1x2048x2048xf32>
}
