// Found by utils/fuse-random-test (seed 102979: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<7x1x3x8xf32>) -> (tensor<1x3x1x6xf32>, tensor<1x3x1xf32>, tensor<1x1x1x3xf32>) {
    %v1_b = tosa.const_shape {values = dense<[5, 0, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v1_z = tosa.const_shape {values = dense<[1, 1, 1, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v1 = tosa.slice %arg0, %v1_b, %v1_z : (tensor<7x1x3x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x1x3xf32>
    %v3 = tosa.sigmoid %v1 : (tensor<1x1x1x3xf32>) -> tensor<1x1x1x3xf32>
    %v9_s = tosa.const_shape {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v9 = tosa.reshape %v3, %v9_s : (tensor<1x1x1x3xf32>, !tosa.shape<3>) -> tensor<1x3x1xf32>
    %v11 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v12 = "tosa.const"() <{values = dense<[[[[-0.186, -0.340], [0.356, 0.040], [-0.049, -0.026]], [[0.249, -0.234], [-0.025, -0.117], [-0.370, 0.432]]]]> : tensor<1x2x3x2xf32>}> : () -> tensor<1x2x3x2xf32>
    %v13 = "tosa.const"() <{values = dense<[0.113, -0.078, -0.135, 0.033, 0.131, -0.099]> : tensor<6xf32>}> : () -> tensor<6xf32>
    %v14 = tosa.depthwise_conv2d %v3, %v12, %v13, %v11, %v11 {acc_type = f32, pad = array<i64: 1, 1, 1, 0>, stride = array<i64: 1, 2>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x3xf32>, tensor<1x2x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x1x6xf32>
    return %v14, %v9, %v3 : tensor<1x3x1x6xf32>, tensor<1x3x1xf32>, tensor<1x1x1x3xf32>
}
