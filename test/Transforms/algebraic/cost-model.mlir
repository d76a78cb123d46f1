// The cost model decides: rewrites apply only when they lower the price of
// the program, shared work is respected, and strict mode, integer types,
// dynamic shapes and quantized ops keep the IR unchanged.
//
// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify{strict=true}))" | FileCheck %s --check-prefix=STRICT
// RUN: fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify{report=true}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not fuse-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify{only=no_such_rule}))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADRULE
// BADRULE: error: unknown algebraic rule 'no_such_rule'
// RUN: %fuse-diff %s --entry shared_product,strict_mode,integers_untouched,quantized_untouched,broadcast_factor,enabler_not_needed,enabler_applied,batchnorm_chain -p "--pass-pipeline=builtin.module(func.func(fuse-algebraic-simplify))" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 10 outputs

// a*b is also returned: factoring would keep it alive and save nothing.
// CHECK-LABEL: func.func @shared_product
//       CHECK:   %[[AB:.+]] = tosa.mul %arg0, %arg1
//       CHECK:   %[[AC:.+]] = tosa.mul %arg0, %arg2
//       CHECK:   %[[S:.+]] = tosa.add %[[AB]], %[[AC]]
//       CHECK:   return %[[S]], %[[AB]]
// REPORT: @shared_product: fired 0
func.func @shared_product(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<64xf32>, tensor<64xf32>, tensor<1xi8>) -> tensor<64xf32>
  %1 = tosa.mul %a, %c, %shift : (tensor<64xf32>, tensor<64xf32>, tensor<1xi8>) -> tensor<64xf32>
  %2 = tosa.add %0, %1 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %2, %0 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Reassociation is off under strict; exact rules still apply.
// CHECK-LABEL: func.func @strict_mode
//       CHECK:   tosa.add %arg1, %arg2
//   CHECK-NOT:   tosa.negate
// (Each STRICT line follows the previous one and the label of the next
// function bounds the NOT: without strict=true the factored form fails.)
// STRICT-LABEL: func.func @strict_mode
//  STRICT-NEXT:   "tosa.const"
//  STRICT-NEXT:   %[[AB:.+]] = tosa.mul %arg0, %arg1
//  STRICT-NEXT:   %[[AC:.+]] = tosa.mul %arg0, %arg2
//  STRICT-NEXT:   %[[S:.+]] = tosa.add %[[AB]], %[[AC]]
//   STRICT-NOT:   tosa.negate
//  STRICT-NEXT:   return %[[S]], %arg0
// STRICT-LABEL: func.func @integers_untouched
// REPORT: @strict_mode: fired 2 (associative 1, distributive 1, commutative 0)
func.func @strict_mode(%a: tensor<64xf32>, %b: tensor<64xf32>, %c: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.mul %a, %b, %shift : (tensor<64xf32>, tensor<64xf32>, tensor<1xi8>) -> tensor<64xf32>
  %1 = tosa.mul %a, %c, %shift : (tensor<64xf32>, tensor<64xf32>, tensor<1xi8>) -> tensor<64xf32>
  %2 = tosa.add %0, %1 : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %n = tosa.negate %a, %zp, %zp : (tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64xf32>
  %nn = tosa.negate %n, %zp, %zp : (tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<64xf32>
  return %2, %nn : tensor<64xf32>, tensor<64xf32>
}

// -----

// Integer arithmetic wraps; the float rules do not apply to it.
// CHECK-LABEL: func.func @integers_untouched
//       CHECK:   tosa.mul %arg0, %arg1
//       CHECK:   tosa.mul %arg0, %arg2
//       CHECK:   tosa.add
func.func @integers_untouched(%a: tensor<64xi32>, %b: tensor<64xi32>, %c: tensor<64xi32>) -> tensor<64xi32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<64xi32>, tensor<64xi32>, tensor<1xi8>) -> tensor<64xi32>
  %1 = tosa.mul %a, %c, %shift : (tensor<64xi32>, tensor<64xi32>, tensor<1xi8>) -> tensor<64xi32>
  %2 = tosa.add %0, %1 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  return %2 : tensor<64xi32>
}

// -----

// Dynamic shapes are left alone.
// CHECK-LABEL: func.func @dynamic_untouched
//       CHECK:   tosa.mul %arg0, %arg1
//       CHECK:   tosa.mul %arg0, %arg2
//       CHECK:   tosa.add
func.func @dynamic_untouched(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<?xf32>, tensor<?xf32>, tensor<1xi8>) -> tensor<?xf32>
  %1 = tosa.mul %a, %c, %shift : (tensor<?xf32>, tensor<?xf32>, tensor<1xi8>) -> tensor<?xf32>
  %2 = tosa.add %0, %1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// A multiplication with a non-zero shift is quantized arithmetic: untouched.
// CHECK-LABEL: func.func @quantized_untouched
//       CHECK:   tosa.mul %arg0, %arg1
//       CHECK:   tosa.mul %arg0, %arg2
//       CHECK:   tosa.add
func.func @quantized_untouched(%a: tensor<64xi32>, %b: tensor<64xi32>, %c: tensor<64xi32>) -> tensor<64xi32> {
  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<64xi32>, tensor<64xi32>, tensor<1xi8>) -> tensor<64xi32>
  %1 = tosa.mul %a, %c, %shift : (tensor<64xi32>, tensor<64xi32>, tensor<1xi8>) -> tensor<64xi32>
  %2 = tosa.add %0, %1 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  return %2 : tensor<64xi32>
}

// -----

// Broadcasting: a*b + a*c with b and c broadcast over a still factors, and
// the add now runs on the small tensors.
// CHECK-LABEL: func.func @broadcast_factor
//       CHECK:   %[[S:.+]] = tosa.add %arg1, %arg2 : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
//       CHECK:   tosa.mul %arg0, %[[S]]
func.func @broadcast_factor(%a: tensor<32x64xf32>, %b: tensor<1x64xf32>, %c: tensor<1x64xf32>) -> tensor<32x64xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %shift : (tensor<32x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<32x64xf32>
  %1 = tosa.mul %a, %c, %shift : (tensor<32x64xf32>, tensor<1x64xf32>, tensor<1xi8>) -> tensor<32x64xf32>
  %2 = tosa.add %0, %1 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}

// -----

// Commutative enablers: exp(transpose(a)) alone stays (moving the transpose
// saves nothing) ...
// CHECK-LABEL: func.func @enabler_not_needed
//       CHECK:   %[[T:.+]] = tosa.transpose %arg0
//       CHECK:   tosa.exp %[[T]]
func.func @enabler_not_needed(%a: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %t = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %e = tosa.exp %t : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %e : tensor<16x8xf32>
}

// -----

// ... but when moving it lets two transposes merge, it is applied.
// CHECK-LABEL: func.func @enabler_applied
//       CHECK:   %[[E:.+]] = tosa.exp %arg0
//       CHECK:   %[[S:.+]] = tosa.add %[[E]], %arg1 : (tensor<8x16xf32>, tensor<8x16xf32>)
//       CHECK:   %[[T:.+]] = tosa.transpose %[[S]]
//       CHECK:   return %[[T]]
// REPORT: @enabler_applied: fired 2 (associative 0, distributive 0, commutative 2)
func.func @enabler_applied(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %ta = tosa.transpose %a {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %tb = tosa.transpose %b {perms = array<i32: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %e = tosa.exp %ta : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %s = tosa.add %e, %tb : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

// -----

// Inference BatchNorm with per-channel constants: the chain of constant
// scales and shifts folds into one multiply-add (constants computed at
// compile time).
// CHECK-LABEL: func.func @batchnorm_chain
//       CHECK:   %[[SCALE:.+]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.999990e+00, 0.249999687, -1.999960e+00]]]]>
//       CHECK:   %[[M:.+]] = tosa.mul %arg0, %[[SCALE]]
//       CHECK:   %[[SHIFT:.+]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}-0.899994969, 0.44999969, 4.299920e+00]]]]>
//       CHECK:   %[[A:.+]] = tosa.add %[[M]], %[[SHIFT]]
//       CHECK:   return %[[A]]
// REPORT: @batchnorm_chain: fired 2 (associative 1, distributive 1, commutative 0); folded 2
func.func @batchnorm_chain(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mean = "tosa.const"() <{values = dense<[[[[0.5, -1.0, 2.0]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %var = "tosa.const"() <{values = dense<[[[[1.0, 4.0, 0.25]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %gamma = "tosa.const"() <{values = dense<[[[[2.0, 0.5, -1.0]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %beta = "tosa.const"() <{values = dense<[[[[0.1, 0.2, 0.3]]]]> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %ve = tosa.add %var, %eps : (tensor<1x1x1x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x3xf32>
  %inv = tosa.rsqrt %ve : (tensor<1x1x1x3xf32>) -> tensor<1x1x1x3xf32>
  %c = tosa.sub %x, %mean : (tensor<1x4x4x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x4x4x3xf32>
  %n = tosa.mul %c, %inv, %shift : (tensor<1x4x4x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x4x4x3xf32>
  %s = tosa.mul %n, %gamma, %shift : (tensor<1x4x4x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x4x4x3xf32>
  %y = tosa.add %s, %beta : (tensor<1x4x4x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}
