// A 197x48 by 48x768 matmul (197 rows, a prime, like ViT-B/16's tokens)
// with bias and tanh: no divisor of 197 makes a square tile, so the rows
// tile by 32 with a partial last tile of 5 rows (peeled into a nest of its
// own; both nests are one launch).
func.func @model(%a: tensor<1x197x48xf32>, %b: tensor<1x48x768xf32>, %bias: tensor<1x1x768xf32>) -> tensor<1x197x768xf32> {
  %za = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %za, %za : (tensor<1x197x48xf32>, tensor<1x48x768xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x768xf32>
  %s = tosa.add %m, %bias : (tensor<1x197x768xf32>, tensor<1x1x768xf32>) -> tensor<1x197x768xf32>
  %t = tosa.tanh %s : (tensor<1x197x768xf32>) -> tensor<1x197x768xf32>
  return %t : tensor<1x197x768xf32>
}
