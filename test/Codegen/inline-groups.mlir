// RUN: fuse-opt %s -split-input-file --fuse-inline-groups | FileCheck %s

// CHECK-LABEL: func.func @inline
//  CHECK-SAME:   (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
//   CHECK-NOT:   fuse.group
//       CHECK:   %[[C:.+]] = arith.constant dense<2.000000e+00>
//       CHECK:   %[[S:.+]] = tosa.add %[[X]], %[[Y]]
//       CHECK:   %[[M:.+]] = tosa.sub %[[S]], %[[C]]
//       CHECK:   %[[E:.+]] = tosa.exp %[[M]]
//       CHECK:   return %[[E]], %[[S]]
func.func @inline(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group ins(%x, %y : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %c = arith.constant dense<2.0> : tensor<4xf32>
    %s = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %m = tosa.sub %s, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %m, %s : tensor<4xf32>, tensor<4xf32>
  }
  %e = tosa.exp %r#0 : (tensor<4xf32>) -> tensor<4xf32>
  return %e, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Groups in nested regions are dissolved too.
// CHECK-LABEL: func.func @nested_region
//   CHECK-NOT:   fuse.group
//       CHECK:   scf.if
//       CHECK:     tosa.exp
func.func @nested_region(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    %g = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
      fuse.yield %e : tensor<4xf32>
    }
    scf.yield %g : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Index changes become transposes on the CPU path.
// CHECK-LABEL: func.func @index_changes
//       CHECK:   %[[I:.+]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
//       CHECK:   %[[E:.+]] = tosa.exp %[[I]]
//       CHECK:   %[[O:.+]] = tosa.transpose %[[E]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
//       CHECK:   return %[[O]]
func.func @index_changes(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %r = fuse.group ins(%x : tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>)
      attributes {input_permutations = [array<i64: 0, 2, 3, 1>], result_permutations = [array<i64: 0, 3, 1, 2>]} {
  ^bb0(%a: tensor<1x4x4x2xf32>):
    %e = tosa.exp %a : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
    fuse.yield %e : tensor<1x4x4x2xf32>
  }
  return %r : tensor<1x2x4x4xf32>
}

// -----

// A yielded body argument stands for its input.
// CHECK-LABEL: func.func @yield_arg
//       CHECK:   %[[E:.+]] = tosa.exp %arg0
//       CHECK:   return %arg0, %[[E]]
func.func @yield_arg(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %a, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
