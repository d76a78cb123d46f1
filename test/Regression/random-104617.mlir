// Found by utils/fuse-random-test (seed 104617: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<6x6x5x8xf32>, %arg1: tensor<1xf32>, %arg2: tensor<1x2x8xf32>) -> (tensor<3x4x4x4x3xf32>, tensor<1x29x6xf32>, tensor<1x1x1x1x1xf32>, tensor<3x3x4x4x4xf32>) {
    %v1_s = tosa.const_shape {values = dense<[3, 80, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v1 = tosa.reshape %arg0, %v1_s : (tensor<6x6x5x8xf32>, !tosa.shape<3>) -> tensor<3x80x6xf32>
    %v2 = "tosa.const"() <{values = dense<0.583> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v3 = tosa.minimum %v2, %arg1 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v4_m = tosa.const_shape {values = dense<[3, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v4 = tosa.tile %v1, %v4_m : (tensor<3x80x6xf32>, !tosa.shape<3>) -> tensor<9x80x18xf32>
    %v7_s = tosa.const_shape {values = dense<[1, 1, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %v7 = tosa.reshape %v3, %v7_s : (tensor<1xf32>, !tosa.shape<5>) -> tensor<1x1x1x1x1xf32>
    %v8 = "tosa.const"() <{values = dense<-0.295> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v9_p = tosa.const_shape {values = dense<[1, 1, 0, 2, 1, 2, 1, 2, 2, 1]> : tensor<10xindex>} : () -> !tosa.shape<10>
    %v9 = tosa.pad %v7, %v9_p, %v8 : (tensor<1x1x1x1x1xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<3x3x4x4x4xf32>
    %v14 = "tosa.const"() <{values = dense<[[[[[-0.054, -0.477, -0.953, 0.975], [-0.817, -0.577, -0.299, -0.979], [0.120, 0.069, 0.266, 1.000], [0.483, 0.037, -0.717, -0.553]], [[0.376, -0.633, 0.190, -0.001], [-0.158, 0.799, 0.998, 0.309], [-0.100, 0.888, 0.556, 0.781], [0.062, -0.985, -0.799, 0.563]], [[0.043, -0.803, 0.920, 0.119], [-0.123, 0.052, -0.192, 0.927], [-0.801, 0.648, -0.095, -0.935], [-0.653, 0.835, 0.630, -0.963]], [[0.846, 0.953, 0.006, -0.238], [0.220, -0.232, 0.054, -0.176], [0.030, -0.332, 0.171, -0.755], [-0.547, -0.467, 0.237, 0.463]]]]]> : tensor<1x1x4x4x4xf32>}> : () -> tensor<1x1x4x4x4xf32>
    %v15 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v16 = tosa.mul %v9, %v14, %v15 : (tensor<3x3x4x4x4xf32>, tensor<1x1x4x4x4xf32>, tensor<1xi8>) -> tensor<3x3x4x4x4xf32>
    %v25 = tosa.tanh %v16 : (tensor<3x3x4x4x4xf32>) -> tensor<3x3x4x4x4xf32>
    %v33 = tosa.transpose %v25 {perms = array<i32: 0, 3, 4, 2, 1>} : (tensor<3x3x4x4x4xf32>) -> tensor<3x4x4x4x3xf32>
    %v34_b = tosa.const_shape {values = dense<[2, 13, 11]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v34_z = tosa.const_shape {values = dense<[1, 29, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v34 = tosa.slice %v4, %v34_b, %v34_z : (tensor<9x80x18xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x29x6xf32>
    return %v33, %v34, %v7, %v16 : tensor<3x4x4x4x3xf32>, tensor<1x29x6xf32>, tensor<1x1x1x1x1xf32>, tensor<3x3x4x4x4xf32>
}
