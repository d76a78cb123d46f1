// Found by utils/fuse-random-test (seed 102593: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<8x7x6x1xf32>) -> (tensor<1x1x3x1xf32>, tensor<8x6x3x1xf32>, tensor<6x3x1x1xf32>) {
    %v2_b = tosa.const_shape {values = dense<[1, 6, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v2_z = tosa.const_shape {values = dense<[1, 1, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v2 = tosa.slice %arg0, %v2_b, %v2_z : (tensor<8x7x6x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x4x1xf32>
    %v6 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v7 = tosa.avg_pool2d %arg0, %v6, %v6 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<8x7x6x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x6x3x1xf32>
    %v8 = "tosa.const"() <{values = dense<[[[[0.008], [-0.321], [-0.202]], [[0.887], [0.840], [-0.811]], [[0.833], [0.594], [0.522]], [[0.211], [0.631], [0.045]], [[-0.445], [-0.746], [-0.145]], [[-0.660], [-0.546], [0.699]]]]> : tensor<1x6x3x1xf32>}> : () -> tensor<1x6x3x1xf32>
    %v9 = tosa.sub %v7, %v8 : (tensor<8x6x3x1xf32>, tensor<1x6x3x1xf32>) -> tensor<8x6x3x1xf32>
    %v10_b = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v10_z = tosa.const_shape {values = dense<[1, 1, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v10 = tosa.slice %v2, %v10_b, %v10_z : (tensor<1x1x4x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x3x1xf32>
    %v11 = tosa.minimum %v9, %v7 : (tensor<8x6x3x1xf32>, tensor<8x6x3x1xf32>) -> tensor<8x6x3x1xf32>
    %v12 = tosa.transpose %v7 {perms = array<i32: 1, 2, 0, 3>} : (tensor<8x6x3x1xf32>) -> tensor<6x3x8x1xf32>
    %v15 = tosa.reduce_min %v12 {axis = 2 : i32} : (tensor<6x3x8x1xf32>) -> tensor<6x3x1x1xf32>
    return %v10, %v11, %v15 : tensor<1x1x3x1xf32>, tensor<8x6x3x1xf32>, tensor<6x3x1x1xf32>
}
