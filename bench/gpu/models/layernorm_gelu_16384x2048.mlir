// LayerNorm (no affine) and x * sigmoid(1.702 x) on 16384x2048 f32 (128 MiB
// in, 128 MiB out): memory-bound, for the GPU bench's HBM bandwidth.
func.func @model(%x: tensor<16384x2048xf32>) -> tensor<16384x2048xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inv_n = "tosa.const"() <{values = dense<4.8828125e-04> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %k = "tosa.const"() <{values = dense<1.702> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<16384x2048xf32>) -> tensor<16384x1xf32>
  %mean = tosa.mul %sum, %inv_n, %sh : (tensor<16384x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16384x1xf32>
  %c = tosa.sub %x, %mean : (tensor<16384x2048xf32>, tensor<16384x1xf32>) -> tensor<16384x2048xf32>
  %sq = tosa.mul %c, %c, %sh : (tensor<16384x2048xf32>, tensor<16384x2048xf32>, tensor<1xi8>) -> tensor<16384x2048xf32>
  %vs = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<16384x2048xf32>) -> tensor<16384x1xf32>
  %var = tosa.mul %vs, %inv_n, %sh : (tensor<16384x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16384x1xf32>
  %ve = tosa.add %var, %eps : (tensor<16384x1xf32>, tensor<1x1xf32>) -> tensor<16384x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<16384x1xf32>) -> tensor<16384x1xf32>
  %n = tosa.mul %c, %rs, %sh : (tensor<16384x2048xf32>, tensor<16384x1xf32>, tensor<1xi8>) -> tensor<16384x2048xf32>
  %kn = tosa.mul %n, %k, %sh : (tensor<16384x2048xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<16384x2048xf32>
  %sg = tosa.sigmoid %kn : (tensor<16384x2048xf32>) -> tensor<16384x2048xf32>
  %o = tosa.mul %n, %sg, %sh : (tensor<16384x2048xf32>, tensor<16384x2048xf32>, tensor<1xi8>) -> tensor<16384x2048xf32>
  return %o : tensor<16384x2048xf32>
}
