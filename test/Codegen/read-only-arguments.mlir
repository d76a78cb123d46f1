// RUN: fuse-opt %s --fuse-read-only-arguments | FileCheck %s
// RUN: fuse-opt %s --fuse-read-only-arguments --fuse-read-only-arguments | FileCheck %s

// Public functions' tensor arguments become read-only; an annotation
// already there, scalars, private functions and declarations stay as
// they are.
// CHECK-LABEL: func.func @model(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = true}
// CHECK-SAME: %{{.*}}: f32)
func.func @model(%a: tensor<4xf32>, %b: tensor<4xf32> {bufferization.writable = true}, %s: f32) -> tensor<4xf32> {
  %0 = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %{{.*}}: tensor<4xf32>)
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK: func.func private @external(tensor<4xf32>)
func.func private @external(tensor<4xf32>)
