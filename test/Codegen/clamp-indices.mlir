// RUN: fuse-opt %s -split-input-file --fuse-clamp-indices | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-clamp-indices --fuse-clamp-indices | FileCheck %s
// Run-time indices are clamped to the rows of `values`; a second run adds
// nothing; constant indices within range are left alone.

// CHECK-LABEL: func.func @gather
//  CHECK-SAME:   (%[[V:.*]]: tensor<1x4x8xf32>, %[[I:.*]]: tensor<1x2xi32>)
//       CHECK:   %[[C:.*]] = tosa.clamp %[[I]] {max_val = 3 : i32, min_val = 0 : i32}
//  CHECK-NEXT:   tosa.gather %[[V]], %[[C]]
//   CHECK-NOT:   tosa.clamp
func.func @gather(%v: tensor<1x4x8xf32>, %i: tensor<1x2xi32>) -> tensor<1x2x8xf32> {
  %0 = tosa.gather %v, %i : (tensor<1x4x8xf32>, tensor<1x2xi32>) -> tensor<1x2x8xf32>
  return %0 : tensor<1x2x8xf32>
}

// -----

// CHECK-LABEL: func.func @scatter
//       CHECK:   %[[C:.*]] = tosa.clamp %arg1 {max_val = 4 : i32, min_val = 0 : i32}
//  CHECK-NEXT:   tosa.scatter %arg0, %[[C]], %arg2
func.func @scatter(%v: tensor<1x5x8xf32>, %i: tensor<1x2xi32>, %x: tensor<1x2x8xf32>) -> tensor<1x5x8xf32> {
  %0 = tosa.scatter %v, %i, %x : (tensor<1x5x8xf32>, tensor<1x2xi32>, tensor<1x2x8xf32>) -> tensor<1x5x8xf32>
  return %0 : tensor<1x5x8xf32>
}

// -----

// CHECK-LABEL: func.func @constant_within
//   CHECK-NOT:   tosa.clamp
// CHECK-LABEL: func.func @constant_outside
//       CHECK:   tosa.clamp
func.func @constant_within(%v: tensor<1x4x8xf32>) -> tensor<1x2x8xf32> {
  %i = "tosa.const"() <{values = dense<[[3, 0]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  %0 = tosa.gather %v, %i : (tensor<1x4x8xf32>, tensor<1x2xi32>) -> tensor<1x2x8xf32>
  return %0 : tensor<1x2x8xf32>
}
func.func @constant_outside(%v: tensor<1x4x8xf32>) -> tensor<1x2x8xf32> {
  %i = "tosa.const"() <{values = dense<[[100, -100]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  %0 = tosa.gather %v, %i : (tensor<1x4x8xf32>, tensor<1x2xi32>) -> tensor<1x2x8xf32>
  return %0 : tensor<1x2x8xf32>
}
