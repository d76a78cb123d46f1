// The 2048x2048x2048 matmul of gemm_bias_relu6_2048 in mixed precision:
// f32 inputs cast to f16 in the group, f16 x f16 summed into f32 (tensor
// cores: mma.sync m16n8k16, on by default), bias and ReLU6 in f32. The
// bench builds it also with tensor-cores=false (_nocores) to time the
// scalar path on the same tiles.
func.func @model(%a: tensor<1x2048x2048xf32>, %b: tensor<1x2048x2048xf32>, %bias: tensor<1x1x2048xf32>) -> tensor<1x2048x2048xf32> {
  %a16 = tosa.cast %a : (tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf16>
  %b16 = tosa.cast %b : (tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf16>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %m = tosa.matmul %a16, %b16, %z, %z : (tensor<1x2048x2048xf16>, tensor<1x2048x2048xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2048x2048xf32>
  %s = tosa.add %m, %bias : (tensor<1x2048x2048xf32>, tensor<1x1x2048xf32>) -> tensor<1x2048x2048xf32>
  %c = tosa.clamp %s {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf32>
  return %c : tensor<1x2048x2048xf32>
}
