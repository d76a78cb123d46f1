// RUN: fuse-opt %s --fuse-approximate-math | FileCheck %s
// RUN: fuse-opt %s --fuse-approximate-math | FileCheck %s --check-prefix=NONE
// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s --check-prefix=VAL

// fuse-approximate-math rewrites the logistic sigmoid 1 / (1 + exp(-x)) as
// a whole: exp(-|x|) by an exp for non-positive arguments (one clamp, the
// power of two from the rounding fma's bits: no floor, no conversion), the
// reciprocal of 1 + e in (1, 2] by a quadratic and two Newton steps (fma),
// and e * r for negative x. No division is left. The bound on its error
// (4 ulp over all 2^32 inputs) is measured in
// test/Integration/approximate-math.mlir.

// CHECK-LABEL: func.func @sigmoid
// CHECK: math.absf
// CHECK: arith.cmpf uge
// CHECK: math.fma
// CHECK: arith.shli
// CHECK: math.fma
// CHECK: math.fma
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK: return
// NONE-LABEL: func.func @sigmoid
// NONE-NOT: arith.divf
// NONE-NOT: math.floor
// NONE-NOT: arith.fptosi
// NONE: return
func.func @sigmoid(%x: vector<16xf32>) -> vector<16xf32> {
  %one = arith.constant dense<1.0> : vector<16xf32>
  %n = arith.negf %x : vector<16xf32>
  %e = math.exp %n : vector<16xf32>
  %d = arith.addf %one, %e : vector<16xf32>
  %s = arith.divf %one, %d : vector<16xf32>
  return %s : vector<16xf32>
}

// Tensor code (before bufferization) is left as it is: upstream's
// approximations build scalar or vector constants, and a tensor exp became
// ops the verifier refused.
// CHECK-LABEL: func.func @on_tensors
// CHECK: math.exp {{.*}} : tensor<4xf32>
// CHECK: arith.divf {{.*}} : tensor<4xf32>
// CHECK: math.exp {{.*}} : tensor<?xf32>
// CHECK: return
func.func @on_tensors(%x: tensor<4xf32>, %y: tensor<?xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %n = arith.negf %x : tensor<4xf32>
  %e = math.exp %n : tensor<4xf32>
  %d = arith.addf %e, %one : tensor<4xf32>
  %s = arith.divf %one, %d : tensor<4xf32>
  %ey = math.exp %y : tensor<?xf32>
  return %s, %ey : tensor<4xf32>, tensor<?xf32>
}

// Not a sigmoid: the numerator is 2, the exponent is not negated, the type
// is f64. Their divisions stay.
// CHECK-LABEL: func.func @others
// CHECK-COUNT-3: arith.divf
// CHECK: return
func.func @others(%x: f32, %y: f64) -> (f32, f32, f64) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = arith.negf %x : f32
  %e = math.exp %n : f32
  %d = arith.addf %e, %one : f32
  %a = arith.divf %two, %d : f32
  %e2 = math.exp %x : f32
  %d2 = arith.addf %e2, %one : f32
  %b = arith.divf %one, %d2 : f32
  %one64 = arith.constant 1.0 : f64
  %n64 = arith.negf %y : f64
  %e64 = math.exp %n64 : f64
  %d64 = arith.addf %e64, %one64 : f64
  %c = arith.divf %one64, %d64 : f64
  return %a, %b, %c : f32, f32, f64
}

// Values at the edges: +-0, +-1, +-20, +-100, +-inf and NaN, against
// 1 / (1 + exp(-x)) (0.5, 0.731059, 0.268941, 1, 2.06115e-09, 1, 0 (the
// true value, 3.7e-44, is subnormal and flushed), 1, 0, NaN).
// VAL: ( 0.5, 0.5, 0.731059, 0.268941, 1, 2.06115e-09, 1, 0, 1, 0, {{-?}}nan )
func.func @main() {
  %x = arith.constant dense<[0.0, -0.0, 1.0, -1.0, 20.0, -20.0, 100.0, -100.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : vector<11xf32>
  %one = arith.constant dense<1.0> : vector<11xf32>
  %n = arith.negf %x : vector<11xf32>
  %e = math.exp %n : vector<11xf32>
  %d = arith.addf %e, %one : vector<11xf32>
  %s = arith.divf %one, %d : vector<11xf32>
  vector.print %s : vector<11xf32>
  return
}
