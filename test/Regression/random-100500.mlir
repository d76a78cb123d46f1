// Found by utils/fuse-random-test (seed 100500: a second --fuse-ops changed the IR),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<2x1x2x3xf32>, %arg1: tensor<8x8x1x7x8xf32>, %arg2: tensor<3xf32>) -> (tensor<8x8x1x7x8xf32>, tensor<8x7x8x1x8xf32>, tensor<4x7x2x8xf32>) {
    %v6 = tosa.reduce_max %arg1 {axis = 1 : i32} : (tensor<8x8x1x7x8xf32>) -> tensor<8x1x1x7x8xf32>
    %v8 = tosa.transpose %v6 {perms = array<i32: 1, 2, 4, 0, 3>} : (tensor<8x1x1x7x8xf32>) -> tensor<1x1x8x8x7xf32>
    %v11 = tosa.transpose %arg1 {perms = array<i32: 0, 3, 1, 2, 4>} : (tensor<8x8x1x7x8xf32>) -> tensor<8x7x8x1x8xf32>
    %v12_s = tosa.const_shape {values = dense<[4, 7, 8, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v12 = tosa.reshape %v8, %v12_s : (tensor<1x1x8x8x7xf32>, !tosa.shape<4>) -> tensor<4x7x8x2xf32>
    %v13 = tosa.transpose %v12 {perms = array<i32: 0, 1, 3, 2>} : (tensor<4x7x8x2xf32>) -> tensor<4x7x2x8xf32>
    return %arg1, %v11, %v13 : tensor<8x8x1x7x8xf32>, tensor<8x7x8x1x8xf32>, tensor<4x7x2x8xf32>
}
