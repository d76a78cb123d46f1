// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s
//
// The CPU lowering runs TOSA, linalg-on-tensors and fuse.group ops together.
// Expected values computed by hand:
//   g = exp(x - x) * 2 + y  = 2 + y             -> [3, 4, 5, 6]
//   l = linalg.add(g, y)                         -> [4, 6, 8, 10]
//   t = transpose(reshape(l, 2x2))               -> [[4, 8], [6, 10]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[0.5, -1.5, 2.0, 7.0]> : tensor<4xf32>
  %y = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %g = fuse.group ins(%x, %y : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %two = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %d = tosa.sub %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e = tosa.exp %d : (tensor<4xf32>) -> tensor<4xf32>
    %m = tosa.mul %e, %two, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
    %s = tosa.add %m, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %s : tensor<4xf32>
  }
  %init = tensor.empty() : tensor<4xf32>
  %l = linalg.add ins(%g, %y : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  %shape = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %l, %shape : (tensor<4xf32>, !tosa.shape<2>) -> tensor<2x2xf32>
  %t = tosa.transpose %r {perms = array<i32: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %t : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// CHECK:      rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
// CHECK-NEXT: {{\[}}[4,   8],
// CHECK-NEXT:  [6,   10]]
