// Two elementwise branches over 13 rows concatenated in one group (as
// horizontal fusion forms them): the branches' merged nest writes the
// concatenation directly. Before, its second result was written to a
// tensor of its own and copied into the concat (on the GPU path, by the
// host).
func.func @model(%x: tensor<13x32xf32>, %y: tensor<13x32xf32>) -> tensor<26x32xf32> {
  %r = fuse.group ins(%x, %y : tensor<13x32xf32>, tensor<13x32xf32>) -> (tensor<26x32xf32>) {
  ^bb0(%a: tensor<13x32xf32>, %b: tensor<13x32xf32>):
    %ea = tosa.exp %a : (tensor<13x32xf32>) -> tensor<13x32xf32>
    %eb = tosa.tanh %b : (tensor<13x32xf32>) -> tensor<13x32xf32>
    %c = tosa.concat %ea, %eb {axis = 0 : i32} : (tensor<13x32xf32>, tensor<13x32xf32>) -> tensor<26x32xf32>
    fuse.yield %c : tensor<26x32xf32>
  }
  return %r : tensor<26x32xf32>
}
