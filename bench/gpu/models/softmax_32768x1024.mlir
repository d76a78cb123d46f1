// Row softmax over 32768x1024 f32 (128 MiB in, 128 MiB out): memory-bound,
// for the GPU bench's HBM bandwidth.
func.func @model(%x: tensor<32768x1024xf32>) -> tensor<32768x1024xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<32768x1024xf32>) -> tensor<32768x1xf32>
  %d = tosa.sub %x, %m : (tensor<32768x1024xf32>, tensor<32768x1xf32>) -> tensor<32768x1024xf32>
  %e = tosa.exp %d : (tensor<32768x1024xf32>) -> tensor<32768x1024xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<32768x1024xf32>) -> tensor<32768x1xf32>
  %r = tosa.reciprocal %s : (tensor<32768x1xf32>) -> tensor<32768x1xf32>
  %o = tosa.mul %e, %r, %sh : (tensor<32768x1024xf32>, tensor<32768x1xf32>, tensor<1xi8>) -> tensor<32768x1024xf32>
  return %o : tensor<32768x1024xf32>
}
