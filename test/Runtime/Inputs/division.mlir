// Integer divisions whose divisor comes from an input: tosa.intdiv with
// broadcasting, and arith remainder and unsigned division on tensors.
func.func @model(%a: tensor<2x4xi32>, %b: tensor<1x4xi32>, %s: tensor<4xi64>, %t: tensor<4xi64>) -> (tensor<2x4xi32>, tensor<4xi64>, tensor<4xi64>) {
  %q = tosa.intdiv %a, %b : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %r = arith.remsi %s, %t : tensor<4xi64>
  %u = arith.divui %s, %t : tensor<4xi64>
  return %q, %r, %u : tensor<2x4xi32>, tensor<4xi64>, tensor<4xi64>
}
