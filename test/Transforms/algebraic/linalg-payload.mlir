// The rules also run on arith/math: inside linalg.generic payloads (priced
// per element times the loop trip count) and on tensors; and on named linalg
// elementwise ops (whose implied payloads are never rewritten).
//
// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s
// RUN: %fuse-diff %s --entry all -p "--pass-pipeline=builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 4 outputs

#id = affine_map<(d0, d1) -> (d0, d1)>

// x*y + x*z -> x*(y+z) and exp(a)*exp(b) -> exp(a+b) in a payload.
// CHECK-LABEL: func.func @payload
//       CHECK:   linalg.generic
//       CHECK:   ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[Z:.+]]: f32, %{{.+}}: f32):
//       CHECK:     %[[S:.+]] = arith.addf %[[Y]], %[[Z]] : f32
//       CHECK:     %[[M:.+]] = arith.mulf %[[X]], %[[S]] : f32
//       CHECK:     %[[A:.+]] = arith.addf %[[X]], %[[Y]] : f32
//       CHECK:     %[[E:.+]] = math.exp %[[A]] : f32
//   CHECK-NOT:     math.exp
//       CHECK:     %[[R:.+]] = arith.addf %[[M]], %[[E]] : f32
//       CHECK:     linalg.yield %[[R]]
func.func @payload(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.mulf %x, %z : f32
    %2 = arith.addf %0, %1 : f32
    %3 = math.exp %x : f32
    %4 = math.exp %y : f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.addf %2, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A chain of divisions by constants folds: (x / 2) / 4 -> x / 8.
// CHECK-LABEL: func.func @payload_constants
//       CHECK:   %[[C:.+]] = arith.constant 8.000000e+00 : f32
//       CHECK:   arith.divf %{{.+}}, %[[C]] : f32
//   CHECK-NOT:   arith.divf
func.func @payload_constants(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %c2 = arith.constant 2.0 : f32
  %c4 = arith.constant 4.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.divf %x, %c2 : f32
    %1 = arith.divf %0, %c4 : f32
    linalg.yield %1 : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// arith/math on tensors: abs(a) * abs(b) -> abs(a * b).
// CHECK-LABEL: func.func @tensors
//       CHECK:   %[[M:.+]] = arith.mulf %arg0, %arg1 : tensor<32xf32>
//       CHECK:   %[[A:.+]] = math.absf %[[M]] : tensor<32xf32>
//       CHECK:   return %[[A]]
func.func @tensors(%a: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<32xf32> {
  %0 = math.absf %a : tensor<32xf32>
  %1 = math.absf %b : tensor<32xf32>
  %2 = arith.mulf %0, %1 : tensor<32xf32>
  return %2 : tensor<32xf32>
}

// Named ops: a*b + a*c -> a*(b+c) with linalg.mul/linalg.add.
// CHECK-LABEL: func.func @named
//       CHECK:   %[[E1:.+]] = tensor.empty() : tensor<16xf32>
//       CHECK:   %[[S:.+]] = linalg.add ins(%arg1, %arg2 : tensor<16xf32>, tensor<16xf32>) outs(%[[E1]]
//       CHECK:   %[[E2:.+]] = tensor.empty() : tensor<16xf32>
//       CHECK:   %[[M:.+]] = linalg.mul ins(%arg0, %[[S]] : tensor<16xf32>, tensor<16xf32>) outs(%[[E2]]
//       CHECK:   return %[[M]]
func.func @named(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.mul ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.mul ins(%a, %c : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %2 = linalg.add ins(%0, %1 : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
