// Found by utils/fuse-random-test (seed 100164: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<1x1x1x1x4xf32>, tensor<1x4x1x1x1xf32>) {
    %v6 = "tosa.const"() <{values = dense<[-0.662, 0.777, -0.497, 0.662]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %v9 = tosa.reduce_min %v6 {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
    %v12 = tosa.sub %v6, %v9 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    %v18_s = tosa.const_shape {values = dense<[1, 1, 1, 1, 4]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %v18 = tosa.reshape %v12, %v18_s : (tensor<4xf32>, !tosa.shape<5>) -> tensor<1x1x1x1x4xf32>
    %v20 = tosa.transpose %v18 {perms = array<i32: 3, 0, 4, 2, 1>} : (tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x1x1xf32>
    %v21 = tosa.floor %v20 : (tensor<1x1x4x1x1xf32>) -> tensor<1x1x4x1x1xf32>
    %v23 = tosa.transpose %v21 {perms = array<i32: 4, 2, 0, 1, 3>} : (tensor<1x1x4x1x1xf32>) -> tensor<1x4x1x1x1xf32>
    return %v12, %v18, %v23 : tensor<4xf32>, tensor<1x1x1x1x4xf32>, tensor<1x4x1x1x1xf32>
}
