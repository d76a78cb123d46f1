// An op of a dialect --fuse-ops does not know is left in place; the ops
// around it still fuse, never across it.
//
// RUN: fuse-opt %s --fuse-ops -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @unknown_dialect
//       CHECK:   %[[G:.*]] = fuse.group
//       CHECK:     tosa.exp
//       CHECK:     tosa.tanh
//       CHECK:   %[[U:.*]] = "mystery.op"(%[[G]])
//       CHECK:   fuse.group ins(%[[U]]
//       CHECK:     tosa.sigmoid
func.func @unknown_dialect(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = tosa.tanh %e : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %u = "mystery.op"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.sigmoid %u : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = tosa.clamp %s {min_val = 0.0 : f32, max_val = 0.5 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

