// Found by utils/fuse-random-test (seed 101536: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<4x1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<5xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x3xf32>, tensor<1x1x2xf32>) {
    %v2_s = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v2 = tosa.reshape %arg1, %v2_s : (tensor<1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
    %v11 = "tosa.const"() <{values = dense<[[[0.259, -0.457, -0.320]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
    %v12 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v13 = tosa.matmul %v2, %v11, %v12, %v12 : (tensor<1x1x1xf32>, tensor<1x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
    %v17 = tosa.tanh %v13 : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %v18_s = tosa.const_shape {values = dense<[1, 3, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v18 = tosa.reshape %v17, %v18_s : (tensor<1x1x3xf32>, !tosa.shape<4>) -> tensor<1x3x1x1xf32>
    %v21 = tosa.sigmoid %v18 : (tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
    %v22_s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %v22 = tosa.reshape %v18, %v22_s : (tensor<1x3x1x1xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %v23 = "tosa.const"() <{values = dense<[[[-0.431, 0.160], [0.006, 0.178], [-0.254, -0.078]]]> : tensor<1x3x2xf32>}> : () -> tensor<1x3x2xf32>
    %v24 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v25 = tosa.matmul %v13, %v23, %v24, %v24 : (tensor<1x1x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
    return %v21, %v22, %v25 : tensor<1x3x1x1xf32>, tensor<1x3xf32>, tensor<1x1x2xf32>
}
