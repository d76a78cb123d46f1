// A 96x40 by 40x64 matmul whose second operand arrives transposed (64x40,
// a linear layer's weight), with a bias and tanh: on the GPU path the
// staged second operand's rows run along the reduction (padded in shared
// memory), 48x64 tiles leave some threads without a micro-tile, and the
// 40-step reduction is staged in chunks of 20.
func.func @model(%a: tensor<1x96x40xf32>, %w: tensor<1x64x40xf32>, %bias: tensor<1x1x64xf32>) -> tensor<1x96x64xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %wt = tosa.transpose %w {perms = array<i32: 0, 2, 1>} : (tensor<1x64x40xf32>) -> tensor<1x40x64xf32>
  %m = tosa.matmul %a, %wt, %za, %zb : (tensor<1x96x40xf32>, tensor<1x40x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x96x64xf32>
  %s = tosa.add %m, %bias : (tensor<1x96x64xf32>, tensor<1x1x64xf32>) -> tensor<1x96x64xf32>
  %t = tosa.tanh %s : (tensor<1x96x64xf32>) -> tensor<1x96x64xf32>
  return %t : tensor<1x96x64xf32>
}
