// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-fold-boundary-transposes))" | FileCheck %s
// RUN: %fuse-diff %s --entry sink_to_result,shared_transpose -p "--pass-pipeline=builtin.module(func.func(fuse-fold-boundary-transposes))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 3 outputs

// The input transpose becomes an input permutation; the transpose in the
// middle moves past the add (the second input is then read through the
// inverse permutation) and the mul (the splat constant is re-shaped), then
// cancels against the final transpose: the body has no transpose left and
// the result needs no permutation.
// CHECK-LABEL: func.func @sink_to_result
//       CHECK:   fuse.group ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> (tensor<2x4x3xf32>) attributes {input_permutations = [array<i64: 0, 2, 1>, array<i64: 0, 2, 1>]} {
//       CHECK:   ^bb0(%[[A:.+]]: tensor<2x4x3xf32>, %[[B:.+]]: tensor<2x4x3xf32>):
//   CHECK-NOT:     tosa.transpose
//       CHECK:     %[[E:.+]] = tosa.exp %[[A]]
//       CHECK:     %[[S:.+]] = tosa.add %[[E]], %[[B]]
//   CHECK-NOT:     dense<5.000000e-01> : tensor<1x1x4xf32>
//       CHECK:     %[[C:.+]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x4x1xf32>}>
//       CHECK:     %[[M:.+]] = tosa.mul %[[S]], %[[C]]
//       CHECK:     fuse.yield %[[M]] : tensor<2x4x3xf32>
func.func @sink_to_result(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>) -> tensor<2x4x3xf32> {
  %r = fuse.group ins(%x, %y : tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> (tensor<2x4x3xf32>) {
  ^bb0(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32>):
    %t = tosa.transpose %a {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
    %e = tosa.exp %t : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
    %t2 = tosa.transpose %e {perms = array<i32: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
    %s = tosa.add %t2, %b : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x4xf32>}> : () -> tensor<1x1x4xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.mul %s, %half, %shift : (tensor<2x3x4xf32>, tensor<1x1x4xf32>, tensor<1xi8>) -> tensor<2x3x4xf32>
    %t3 = tosa.transpose %m {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
    fuse.yield %t3 : tensor<2x4x3xf32>
  }
  return %r : tensor<2x4x3xf32>
}

// -----

// A transpose whose input has another reader cannot become an input
// permutation (the kernel needs the input in both layouts); it sinks to the
// yield instead and becomes a result permutation.
// CHECK-LABEL: func.func @shared_transpose
//       CHECK:   fuse.group ins(%arg0 : tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) attributes {result_permutations = [array<i64: 1, 0>, array<i64>]} {
//   CHECK-NOT:     tosa.transpose
//       CHECK:     tosa.exp %{{.+}} : (tensor<2x3xf32>)
//       CHECK:     tosa.tanh
func.func @shared_transpose(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %r:2 = fuse.group ins(%x : tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  ^bb0(%a: tensor<2x3xf32>):
    %t = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %e = tosa.exp %t : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %f = tosa.tanh %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
    fuse.yield %e, %f : tensor<3x2xf32>, tensor<2x3xf32>
  }
  return %r#0, %r#1 : tensor<3x2xf32>, tensor<2x3xf32>
}
