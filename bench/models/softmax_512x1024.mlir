// Row softmax over a 512x1024 f32 tensor (2 MiB per intermediate), written
// out as TOSA: reduce_max, sub, exp, reduce_sum, reciprocal, mul.
func.func @model(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<512x1024xf32>) -> tensor<512x1xf32>
  %d = tosa.sub %x, %m : (tensor<512x1024xf32>, tensor<512x1xf32>) -> tensor<512x1024xf32>
  %e = tosa.exp %d : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<512x1024xf32>) -> tensor<512x1xf32>
  %r = tosa.reciprocal %s : (tensor<512x1xf32>) -> tensor<512x1xf32>
  %o = tosa.mul %e, %r, %sh : (tensor<512x1024xf32>, tensor<512x1xf32>, tensor<1xi8>) -> tensor<512x1024xf32>
  return %o : tensor<512x1024xf32>
}
