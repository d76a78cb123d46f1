// Found by utils/fuse-random-test (seed 1114: idempotence; upstream canonicalization after the last simplification folded x * 0 to a constant whose reader folded only on the second run),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<7x8x6x1xf32>, %arg1: tensor<6x6xf32>, %arg2: tensor<5x4x6xf32>) -> (tensor<1x4x3x1xf32>, tensor<1x1x245xf32>, tensor<7x4x3x1xf32>, tensor<12x6xf32>) {
    %v1 = "tosa.const"() <{values = dense<-0.099> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %v2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v3 = tosa.mul %arg1, %v1, %v2 : (tensor<6x6xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<6x6xf32>
    %v7 = tosa.concat %v3, %v3 {axis = 0 : i32} : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<12x6xf32>
    %v18 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v19 = tosa.avg_pool2d %arg0, %v18, %v18 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<7x8x6x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<7x7x5x1xf32>
    %v20 = tosa.sub %v7, %v7 : (tensor<12x6xf32>, tensor<12x6xf32>) -> tensor<12x6xf32>
    %v23 = "tosa.const"() <{values = dense<[[0.965, -0.763, -0.681, -0.913, 0.755, -0.745]]> : tensor<1x6xf32>}> : () -> tensor<1x6xf32>
    %v24 = tosa.sub %v23, %v20 : (tensor<1x6xf32>, tensor<12x6xf32>) -> tensor<12x6xf32>
    %v27 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v28 = tosa.avg_pool2d %arg0, %v27, %v27 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<7x8x6x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<7x4x3x1xf32>
    %v29_s = tosa.const_shape {values = dense<[5, 7, 1, 7, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %v29 = tosa.reshape %v19, %v29_s : (tensor<7x7x5x1xf32>, !tosa.shape<5>) -> tensor<5x7x1x7x1xf32>
    %v30 = tosa.reduce_min %v28 {axis = 0 : i32} : (tensor<7x4x3x1xf32>) -> tensor<1x4x3x1xf32>
    %v31_s = tosa.const_shape {values = dense<[1, 1, 245]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v31 = tosa.reshape %v29, %v31_s : (tensor<5x7x1x7x1xf32>, !tosa.shape<3>) -> tensor<1x1x245xf32>
    return %v30, %v31, %v28, %v24 : tensor<1x4x3x1xf32>, tensor<1x1x245xf32>, tensor<7x4x3x1xf32>, tensor<12x6xf32>
}
