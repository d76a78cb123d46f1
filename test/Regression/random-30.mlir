// Found by utils/fuse-random-test (seed 30: idempotence; an op moved below a concat that repeats a part computed it once per repeat, and CSE merged the copies only on the second run),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1x3x4x1x6xf32>, %arg1: tensor<2x1x7x1xf32>, %arg2: tensor<3x1x1x2x8xf32>) -> (tensor<6x2x16xf32>, tensor<8x4x5x6x6xf32>, tensor<6x6x4x8x5xf32>) {
    %v6 = tosa.concat %arg2, %arg2 {axis = 2 : i32} : (tensor<3x1x1x2x8xf32>, tensor<3x1x1x2x8xf32>) -> tensor<3x1x2x2x8xf32>
    %v9 = tosa.concat %v6, %v6 {axis = 1 : i32} : (tensor<3x1x2x2x8xf32>, tensor<3x1x2x2x8xf32>) -> tensor<3x2x2x2x8xf32>
    %v12 = tosa.tanh %v9 : (tensor<3x2x2x2x8xf32>) -> tensor<3x2x2x2x8xf32>
    %v14 = "tosa.const"() <{values = dense<0.323> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v15_p = tosa.const_shape {values = dense<[1, 2, 2, 2, 0, 2, 1, 2, 0, 0]> : tensor<10xindex>} : () -> !tosa.shape<10>
    %v15 = tosa.pad %v12, %v15_p, %v14 : (tensor<3x2x2x2x8xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<6x6x4x5x8xf32>
    %v16_s = tosa.const_shape {values = dense<[6, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v16 = tosa.reshape %v12, %v16_s : (tensor<3x2x2x2x8xf32>, !tosa.shape<3>) -> tensor<6x2x16xf32>
    %v17 = tosa.transpose %v15 {perms = array<i32: 4, 2, 3, 1, 0>} : (tensor<6x6x4x5x8xf32>) -> tensor<8x4x5x6x6xf32>
    %v19 = tosa.transpose %v17 {perms = array<i32: 3, 4, 1, 0, 2>} : (tensor<8x4x5x6x6xf32>) -> tensor<6x6x4x8x5xf32>
    return %v16, %v17, %v19 : tensor<6x2x16xf32>, tensor<8x4x5x6x6xf32>, tensor<6x6x4x8x5xf32>
}
