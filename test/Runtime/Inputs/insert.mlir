// An input written in place by bufferization unless it is read-only: a
// slice inserted into the input, then a use of the result.
func.func @model(%x: tensor<8x4xf32>, %v: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %y = tensor.insert_slice %v into %x[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %z = tosa.abs %y : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}
