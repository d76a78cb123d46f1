// DNNFusion's example rules, applied by the default cost model (no forcing)
// to TOSA graphs, and checked numerically against the unrewritten program.
//
// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s
// RUN: %fuse-diff %s --entry all --input-range 0.5,2 -p "--pass-pipeline=builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 9 outputs

// A*C + A*B -> A*(B+C)
// CHECK-LABEL: func.func @factor
//  CHECK-SAME:   (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[C:.+]]: tensor<8x16xf32>)
//       CHECK:   %[[S:.+]] = tosa.add %[[C]], %[[B]]
//       CHECK:   %[[M:.+]] = tosa.mul %[[A]], %[[S]]
//       CHECK:   return %[[M]]
func.func @factor(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %c, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %1 = tosa.mul %a, %b, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %2 = tosa.add %0, %1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// A + A*B -> A*(B+1)
// CHECK-LABEL: func.func @add_self_mul
//  CHECK-SAME:   (%[[A:.+]]: tensor<8x16xf32>, %[[B:.+]]: tensor<8x16xf32>)
//       CHECK:   %[[ONE:.+]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}>
//       CHECK:   %[[S:.+]] = tosa.add %[[B]], %[[ONE]]
//       CHECK:   %[[M:.+]] = tosa.mul %[[A]], %[[S]]
//       CHECK:   return %[[M]]
func.func @add_self_mul(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %1 = tosa.add %a, %0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// (A*sqrt(B)) * (sqrt(B)*C) -> A*B*C, with TOSA's sqrt spelled pow(x, 0.5).
// CHECK-LABEL: func.func @sqrt_pair
//   CHECK-NOT:   tosa.pow
//       CHECK:   %[[AB:.+]] = tosa.mul %arg0, %arg1
//       CHECK:   %[[ABC:.+]] = tosa.mul %[[AB]], %arg2
//       CHECK:   return %[[ABC]]
func.func @sqrt_pair(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s1 = tosa.pow %b, %half : (tensor<8x16xf32>, tensor<1x1xf32>) -> tensor<8x16xf32>
  %s2 = tosa.pow %b, %half : (tensor<8x16xf32>, tensor<1x1xf32>) -> tensor<8x16xf32>
  %0 = tosa.mul %a, %s1, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %1 = tosa.mul %s2, %c, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %2 = tosa.mul %0, %1, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// Recip(A) * Recip(A*B) -> Recip(A*A*B)
// CHECK-LABEL: func.func @recip_pair
//       CHECK:   %[[AA:.+]] = tosa.mul %arg0, %arg0
//       CHECK:   %[[AAB:.+]] = tosa.mul %[[AA]], %arg1
//       CHECK:   %[[R:.+]] = tosa.reciprocal %[[AAB]]
//       CHECK:   return %[[R]]
func.func @recip_pair(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ra = tosa.reciprocal %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %ab = tosa.mul %a, %b, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %rab = tosa.reciprocal %ab : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %0 = tosa.mul %ra, %rab, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Abs(A) * B * Abs(C) -> Abs(A*C) * B
// CHECK-LABEL: func.func @abs_chain
//       CHECK:   %[[AC:.+]] = tosa.mul %arg0, %arg2
//       CHECK:   %[[ABS:.+]] = tosa.abs %[[AC]]
//       CHECK:   %[[R:.+]] = tosa.mul %[[ABS]], %arg1
//       CHECK:   return %[[R]]
func.func @abs_chain(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %aa = tosa.abs %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %ac = tosa.abs %c : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %0 = tosa.mul %aa, %b, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %1 = tosa.mul %0, %ac, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// (A * ReduceSum(B)) * (ReduceSum(B) * C) -> A * Square(ReduceSum(B)) * C:
// the two reductions of B (not CSE'd) become one.
// CHECK-LABEL: func.func @reduce_sum_pair
//       CHECK:   %[[R:.+]] = tosa.reduce_sum %arg1
//   CHECK-NOT:   tosa.reduce_sum
//       CHECK:   %[[SQ:.+]] = tosa.mul %[[R]], %[[R]]
func.func @reduce_sum_pair(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r1 = tosa.reduce_sum %b {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %r2 = tosa.reduce_sum %b {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %0 = tosa.mul %a, %r1, %shift : (tensor<8x16xf32>, tensor<8x1xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %1 = tosa.mul %r2, %c, %shift : (tensor<8x1xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %2 = tosa.mul %0, %1, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// Square(A+B) - (A+B)*C -> (A+B) * (A+B-C)
// CHECK-LABEL: func.func @square_minus
//       CHECK:   %[[S:.+]] = tosa.add %arg0, %arg1
//       CHECK:   %[[D:.+]] = tosa.sub %[[S]], %arg2
//       CHECK:   %[[M:.+]] = tosa.mul %[[S]], %[[D]]
//       CHECK:   return %[[M]]
func.func @square_minus(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sq = tosa.mul %s, %s, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %sc = tosa.mul %s, %c, %shift : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<1xi8>) -> tensor<8x16xf32>
  %0 = tosa.sub %sq, %sc : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// ReduceProd(Exp(A)) -> Exp(ReduceSum(A))
// CHECK-LABEL: func.func @reduce_prod_exp
//       CHECK:   %[[R:.+]] = tosa.reduce_sum %arg0 {axis = 1 : i32}
//       CHECK:   %[[E:.+]] = tosa.exp %[[R]]
//       CHECK:   return %[[E]]
func.func @reduce_prod_exp(%a: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %e = tosa.exp %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = tosa.reduce_product %e {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}

// ReduceSum(BitShift(A)) -> BitShift(ReduceSum(A)), integers.
// CHECK-LABEL: func.func @reduce_sum_shift
//       CHECK:   %[[R:.+]] = tosa.reduce_sum %arg0 {axis = 1 : i32}
//       CHECK:   %[[S:.+]] = tosa.logical_left_shift %[[R]]
//       CHECK:   return %[[S]]
func.func @reduce_sum_shift(%a: tensor<8x16xi32>) -> tensor<8x1xi32> {
  %k = "tosa.const"() <{values = dense<2> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %s = tosa.logical_left_shift %a, %k : (tensor<8x16xi32>, tensor<1x1xi32>) -> tensor<8x16xi32>
  %r = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<8x16xi32>) -> tensor<8x1xi32>
  return %r : tensor<8x1xi32>
}
