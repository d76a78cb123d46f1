// RUN: fuse-opt %s -split-input-file --canonicalize | FileCheck %s

// Unused results are dropped together with what the body computed for them.
// CHECK-LABEL: func.func @unused_result
//       CHECK:   %[[R:.+]] = fuse.group ins(%{{.+}} : tensor<4xf32>) -> (tensor<4xf32>) {
//   CHECK-NOT:     tosa.exp
//       CHECK:     %[[T:.+]] = tosa.tanh
//       CHECK:     fuse.yield %[[T]] : tensor<4xf32>
//       CHECK:   return %[[R]]
func.func @unused_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    %t = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %e, %t : tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// A group none of whose results is used is erased (it is Pure).
// CHECK-LABEL: func.func @dead_group
//   CHECK-NOT:   fuse.group
//       CHECK:   return %arg0
func.func @dead_group(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  return %x : tensor<4xf32>
}

// -----

// Duplicate inputs are merged, unused inputs dropped, constants sunk.
// CHECK-LABEL: func.func @simplify_inputs
//  CHECK-SAME:   (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
//       CHECK:   fuse.group ins(%[[X]] : tensor<4xf32>) -> (tensor<4xf32>) {
//       CHECK:   ^bb0(%[[A:.+]]: tensor<4xf32>):
//       CHECK:     %[[C:.+]] = arith.constant dense<2.000000e+00>
//       CHECK:     %[[S:.+]] = tosa.add %[[A]], %[[A]]
//       CHECK:     tosa.add %[[S]], %[[C]]
func.func @simplify_inputs(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %r = fuse.group ins(%x, %y, %x, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %unused: tensor<4xf32>, %a2: tensor<4xf32>, %k: tensor<4xf32>):
    %s = tosa.add %a, %a2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = tosa.add %s, %k : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A result that only forwards an input is replaced by that input.
// CHECK-LABEL: func.func @forward_input
//  CHECK-SAME:   (%[[X:.+]]: tensor<4xf32>)
//       CHECK:   %[[R:.+]] = fuse.group
//       CHECK:   return %[[X]], %[[R]]
func.func @forward_input(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %a, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
