// A batch of two 64x48 by 48x128 matmuls, returned as they are: 64x64
// tiles, one per batch and column block, with no epilogue (the
// accumulators start from the result's fill and are stored to it).
func.func @model(%a: tensor<2x64x48xf32>, %b: tensor<2x48x128xf32>) -> tensor<2x64x128xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zb = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %za, %zb : (tensor<2x64x48xf32>, tensor<2x48x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x64x128xf32>
  return %m : tensor<2x64x128xf32>
}
