// A ViT-like MLP layer on 197 tokens (a prime count: no row tile divides
// it): x[197x256] @ W[256x512] + b, then tanh-approximated GELU, in TOSA.
// Weights are arguments (the bench feeds 1/8 everywhere).
func.func @model(%x: tensor<1x197x256xf32>, %w: tensor<1x256x512xf32>, %b: tensor<1x1x512xf32>) -> tensor<1x197x512xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c0 = "tosa.const"() <{values = dense<0.044715> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c1 = "tosa.const"() <{values = dense<0.797884583> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x197x256xf32>, tensor<1x256x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x197x512xf32>
  %h = tosa.add %m, %b : (tensor<1x197x512xf32>, tensor<1x1x512xf32>) -> tensor<1x197x512xf32>
  %h2 = tosa.mul %h, %h, %sh : (tensor<1x197x512xf32>, tensor<1x197x512xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  %h3 = tosa.mul %h2, %h, %sh : (tensor<1x197x512xf32>, tensor<1x197x512xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  %k = tosa.mul %h3, %c0, %sh : (tensor<1x197x512xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  %s = tosa.add %h, %k : (tensor<1x197x512xf32>, tensor<1x197x512xf32>) -> tensor<1x197x512xf32>
  %u = tosa.mul %s, %c1, %sh : (tensor<1x197x512xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  %t = tosa.tanh %u : (tensor<1x197x512xf32>) -> tensor<1x197x512xf32>
  %p = tosa.add %t, %one : (tensor<1x197x512xf32>, tensor<1x1x1xf32>) -> tensor<1x197x512xf32>
  %q = tosa.mul %h, %p, %sh : (tensor<1x197x512xf32>, tensor<1x197x512xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  %o = tosa.mul %q, %half, %sh : (tensor<1x197x512xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x197x512xf32>
  return %o : tensor<1x197x512xf32>
}
