// Four kinds of result a compiled model hands back: a buffer the program
// allocates (%s), a row sum (%r), an input returned as it is (%a) and a
// constant (%c). The CPU lowering returns fresh copies of the last two
// (bufferization's function boundary), which the runtime frees; it would
// copy and not free a buffer that is an input or inside the library
// (Session.cpp). Three inputs, one of them int64, and an int64 result.
func.func @model(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %i: tensor<3xi64>)
    -> (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<3xi64>) {
  %s = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %r = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %c = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %j = tosa.add %i, %i : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %s, %r, %a, %c, %j : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>, tensor<4xf32>, tensor<3xi64>
}
