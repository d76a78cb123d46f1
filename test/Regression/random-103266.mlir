// Found by utils/fuse-random-test (seed 103266: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<7x8x1xf32>) -> (tensor<1x8x1xf32>, tensor<7x16x1xf32>, tensor<7x1x1xf32>) {
    %v1 = "tosa.const"() <{values = dense<[[[-0.019], [0.634], [0.984], [0.534], [-0.425], [0.464], [-0.411], [-0.907]]]> : tensor<1x8x1xf32>}> : () -> tensor<1x8x1xf32>
    %v2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v3 = tosa.mul %arg0, %v1, %v2 : (tensor<7x8x1xf32>, tensor<1x8x1xf32>, tensor<1xi8>) -> tensor<7x8x1xf32>
    %v4 = tosa.maximum %arg0, %v3 : (tensor<7x8x1xf32>, tensor<7x8x1xf32>) -> tensor<7x8x1xf32>
    %v5 = "tosa.const"() <{values = dense<[[[-0.273]], [[0.061]], [[-0.147]], [[-0.396]], [[-0.084]], [[0.447]], [[-0.060]]]> : tensor<7x1x1xf32>}> : () -> tensor<7x1x1xf32>
    %v6 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v7 = tosa.matmul %v4, %v5, %v6, %v6 : (tensor<7x8x1xf32>, tensor<7x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<7x8x1xf32>
    %v8 = tosa.add %v3, %v4 : (tensor<7x8x1xf32>, tensor<7x8x1xf32>) -> tensor<7x8x1xf32>
    %v9 = tosa.abs %v7 : (tensor<7x8x1xf32>) -> tensor<7x8x1xf32>
    %v10 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %v11 = tosa.add %v9, %v10 : (tensor<7x8x1xf32>, tensor<1x1x1xf32>) -> tensor<7x8x1xf32>
    %v12 = tosa.reciprocal %v11 : (tensor<7x8x1xf32>) -> tensor<7x8x1xf32>
    %v13 = tosa.greater %v12, %v9 : (tensor<7x8x1xf32>, tensor<7x8x1xf32>) -> tensor<7x8x1xi1>
    %v14 = "tosa.const"() <{values = dense<[[[-0.523], [-0.465], [0.400], [0.669], [-0.714], [-0.713], [-0.900], [-0.233]]]> : tensor<1x8x1xf32>}> : () -> tensor<1x8x1xf32>
    %v15 = tosa.select %v13, %v12, %v14 : (tensor<7x8x1xi1>, tensor<7x8x1xf32>, tensor<1x8x1xf32>) -> tensor<7x8x1xf32>
    %v16 = tosa.reduce_sum %v9 {axis = 0 : i32} : (tensor<7x8x1xf32>) -> tensor<1x8x1xf32>
    %v17 = tosa.concat %v15, %v11 {axis = 1 : i32} : (tensor<7x8x1xf32>, tensor<7x8x1xf32>) -> tensor<7x16x1xf32>
    %v18 = tosa.transpose %v15 {perms = array<i32: 2, 1, 0>} : (tensor<7x8x1xf32>) -> tensor<1x8x7xf32>
    %v19 = "tosa.const"() <{values = dense<[[[0.082], [-0.333], [-0.677], [0.704], [-0.418], [-0.168], [0.756], [0.693], [-0.491], [-0.340], [0.593], [0.234], [0.381], [-0.837], [-0.232], [-0.825]]]> : tensor<1x16x1xf32>}> : () -> tensor<1x16x1xf32>
    %v20 = tosa.minimum %v17, %v19 : (tensor<7x16x1xf32>, tensor<1x16x1xf32>) -> tensor<7x16x1xf32>
    %v21 = tosa.reduce_max %v9 {axis = 2 : i32} : (tensor<7x8x1xf32>) -> tensor<7x8x1xf32>
    %v22 = tosa.reduce_min %v20 {axis = 2 : i32} : (tensor<7x16x1xf32>) -> tensor<7x16x1xf32>
    %v23 = tosa.reduce_sum %v18 {axis = 2 : i32} : (tensor<1x8x7xf32>) -> tensor<1x8x1xf32>
    %v24 = tosa.greater %v20, %v17 : (tensor<7x16x1xf32>, tensor<7x16x1xf32>) -> tensor<7x16x1xi1>
    %v25 = "tosa.const"() <{values = dense<[[[-0.380], [-0.498], [-0.756], [-0.748], [-0.973], [0.603], [-0.066], [-0.393], [-0.740], [-0.076], [0.934], [0.252], [-0.978], [-0.473], [-0.367], [0.294]]]> : tensor<1x16x1xf32>}> : () -> tensor<1x16x1xf32>
    %v26 = tosa.select %v24, %v20, %v25 : (tensor<7x16x1xi1>, tensor<7x16x1xf32>, tensor<1x16x1xf32>) -> tensor<7x16x1xf32>
    %v27 = tosa.tanh %v26 : (tensor<7x16x1xf32>) -> tensor<7x16x1xf32>
    %v28 = tosa.exp %v27 : (tensor<7x16x1xf32>) -> tensor<7x16x1xf32>
    %v29 = tosa.reduce_max %v7 {axis = 1 : i32} : (tensor<7x8x1xf32>) -> tensor<7x1x1xf32>
    return %v23, %v28, %v29 : tensor<1x8x1xf32>, tensor<7x16x1xf32>, tensor<7x1x1xf32>
}
