// Unusual element types and ranks, each fused and checked numerically
// against the unfused program: f16, bf16, i8 and i32 arithmetic, 0-d
// tensors, and size-1 dimensions everywhere.
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --entry f16_chain,bf16_chain,i32_arith,i8_arith,rank0,all_ones | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 6 outputs

// CHECK-LABEL: func.func @f16_chain
//       CHECK:   fuse.group
//       CHECK:     tosa.exp {{.*}}xf16>
func.func @f16_chain(%x: tensor<4x8xf16>, %y: tensor<1x8xf16>) -> tensor<4x8xf16> {
  %t = tosa.tanh %x : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %e = tosa.exp %t : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %a = tosa.add %e, %y : (tensor<4x8xf16>, tensor<1x8xf16>) -> tensor<4x8xf16>
  return %a : tensor<4x8xf16>
}

// -----

// CHECK-LABEL: func.func @bf16_chain
//       CHECK:   fuse.group
func.func @bf16_chain(%x: tensor<4x8xbf16>) -> tensor<4x1xbf16> {
  %t = tosa.sigmoid %x : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %s = tosa.reduce_max %t {axis = 1 : i32} : (tensor<4x8xbf16>) -> tensor<4x1xbf16>
  return %s : tensor<4x1xbf16>
}

// -----

// CHECK-LABEL: func.func @i32_arith
//       CHECK:   fuse.group
func.func @i32_arith(%x: tensor<3x5xi32>, %y: tensor<3x5xi32>) -> tensor<3x1xi32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %x, %y, %sh : (tensor<3x5xi32>, tensor<3x5xi32>, tensor<1xi8>) -> tensor<3x5xi32>
  %a = tosa.add %m, %x : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
  %r = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<3x5xi32>) -> tensor<3x1xi32>
  return %r : tensor<3x1xi32>
}

// -----

// CHECK-LABEL: func.func @i8_arith
func.func @i8_arith(%x: tensor<16xi8>, %y: tensor<16xi8>) -> tensor<16xi8> {
  %a = tosa.add %x, %y : (tensor<16xi8>, tensor<16xi8>) -> tensor<16xi8>
  %m = tosa.maximum %a, %x : (tensor<16xi8>, tensor<16xi8>) -> tensor<16xi8>
  return %m : tensor<16xi8>
}

// -----

// CHECK-LABEL: func.func @rank0
func.func @rank0(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %a = tosa.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %e = tosa.exp %a : (tensor<f32>) -> tensor<f32>
  %t = tosa.tanh %e : (tensor<f32>) -> tensor<f32>
  return %t : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @all_ones
func.func @all_ones(%x: tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32> {
  %r = tosa.reduce_sum %x {axis = 3 : i32} : (tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  %p = tosa.transpose %r {perms = array<i32: 4, 3, 2, 1, 0>} : (tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  %e = tosa.exp %p : (tensor<1x1x1x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  return %e : tensor<1x1x1x1x1xf32>
}
