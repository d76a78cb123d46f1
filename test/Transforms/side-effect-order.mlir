// Forming groups never reorders side effects: the print of exp(x) stays
// before the print of tanh(exp(x)), so exp and tanh are not grouped across
// the first print.
//
// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// CHECK: 1.64872
// CHECK-NEXT: 0.928682
// CHECK-NEXT: 1.64872
// CHECK-NEXT: 0.928682

func.func @get() -> tensor<4xf32> {
  %c = arith.constant dense<[0.5, 1.0, 1.5, 2.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func @main() {
  %i = arith.constant 0 : index
  %x = func.call @get() : () -> tensor<4xf32>
  %a = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %ea = tensor.extract %a[%i] : tensor<4xf32>
  vector.print %ea : f32
  %b = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %eb = tensor.extract %b[%i] : tensor<4xf32>
  vector.print %eb : f32
  func.call @late() : () -> ()
  return
}

// Both extracts before both prints: the group must not let the second print
// overtake the first.
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu | %run-cpu | FileCheck %s --check-prefix=LATE
// LATE: 1.64872
// LATE-NEXT: 0.928682
// LATE-NEXT: 1.64872
// LATE-NEXT: 0.928682
func.func @late() {
  %i = arith.constant 0 : index
  %x = func.call @get() : () -> tensor<4xf32>
  %a = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %ea = tensor.extract %a[%i] : tensor<4xf32>
  %b = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %eb = tensor.extract %b[%i] : tensor<4xf32>
  vector.print %ea : f32
  vector.print %eb : f32
  return
}
