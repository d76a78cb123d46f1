// An input written in place by bufferization unless it is read-only: a
// scatter into the input.
func.func @model(%x: tensor<1x8x4xf32>, %i: tensor<1x2xi32>, %v: tensor<1x2x4xf32>) -> tensor<1x8x4xf32> {
  %y = tosa.scatter %x, %i, %v : (tensor<1x8x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x8x4xf32>
  return %y : tensor<1x8x4xf32>
}
