// @main for cpu-plan-buffers.mlir: TOSA ops lowered one buffer each, the
// reverse of %b read while %c is written.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %b = tosa.mul %a, %a, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %rb = tosa.reverse %b {axis = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %c = tosa.sub %rb, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.sub %c, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %d : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
