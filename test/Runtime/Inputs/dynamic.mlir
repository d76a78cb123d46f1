func.func @model(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = tosa.abs %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
