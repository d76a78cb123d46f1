// tosa.cond_if lowers on the CPU path (tosa-to-scf first).
// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// CHECK: [3,   4]
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %p = arith.constant dense<true> : tensor<i1>
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = tosa.cond_if %p (%a = %x) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %two = "tosa.const"() <{values = dense<2.0> : tensor<2xf32>}> : () -> tensor<2xf32>
    %s = tosa.add %a, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %s : tensor<2xf32>
  } else {
  ^bb0(%a: tensor<2xf32>):
    tosa.yield %a : tensor<2xf32>
  }
  %u = tensor.cast %r : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
