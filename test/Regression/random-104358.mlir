// Found by utils/fuse-random-test (seed 104358: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<5xf32>, %arg1: tensor<4x2x7x5xf32>, %arg2: tensor<1x1x5xf32>) -> (tensor<1x1x5xf32>, tensor<2x1x5xf32>, tensor<1x1x2xf32>, tensor<1x1x5xf32>) {
    %v1 = tosa.abs %arg2 : (tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
    %v4 = tosa.reciprocal %v1 : (tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
    %v5 = tosa.greater %arg2, %arg2 : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x1x5xi1>
    %v6 = "tosa.const"() <{values = dense<[[[-0.818, -0.897, -0.499, 0.249, 0.360]]]> : tensor<1x1x5xf32>}> : () -> tensor<1x1x5xf32>
    %v7 = tosa.select %v5, %arg2, %v6 : (tensor<1x1x5xi1>, tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
    %v8 = tosa.minimum %v4, %v7 : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
    %v9 = tosa.concat %v4, %v6 {axis = 0 : i32} : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<2x1x5xf32>
    %v10 = "tosa.const"() <{values = dense<[[[0.158, -0.274], [-0.483, -0.283], [0.476, 0.215], [0.100, 0.450], [0.431, -0.456]]]> : tensor<1x5x2xf32>}> : () -> tensor<1x5x2xf32>
    %v11 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v12 = tosa.matmul %v4, %v10, %v11, %v11 : (tensor<1x1x5xf32>, tensor<1x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
    return %v8, %v9, %v12, %v4 : tensor<1x1x5xf32>, tensor<2x1x5xf32>, tensor<1x1x2xf32>, tensor<1x1x5xf32>
}
