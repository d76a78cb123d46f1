// Found by utils/fuse-random-test (seed 102480: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<2x1x1x4xf32>, %arg1: tensor<2x1x2x5xf32>) -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>) {
    %v1 = tosa.reduce_max %arg0 {axis = 3 : i32} : (tensor<2x1x1x4xf32>) -> tensor<2x1x1x1xf32>
    %v4 = tosa.reduce_min %v1 {axis = 0 : i32} : (tensor<2x1x1x1xf32>) -> tensor<1x1x1x1xf32>
    %v13 = tosa.transpose %v1 {perms = array<i32: 1, 3, 0, 2>} : (tensor<2x1x1x1xf32>) -> tensor<1x1x2x1xf32>
    %v16 = "tosa.const"() <{values = dense<0.158> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v17 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v18 = tosa.mul %v16, %v13, %v17 : (tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>, tensor<1xi8>) -> tensor<1x1x2x1xf32>
    %v21 = tosa.minimum %v18, %v13 : (tensor<1x1x2x1xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
    return %v4, %v16, %v21 : tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>
}
