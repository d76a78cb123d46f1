// Found by utils/fuse-random-test (seed 101671: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<8x5x4x1xf32>, %arg1: tensor<5x3xf32>) -> (tensor<1x1x1x2xf32>, tensor<160xf32>, tensor<1x1x1x1xf32>) {
    %v11 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v12 = tosa.mul %arg0, %arg0, %v11 : (tensor<8x5x4x1xf32>, tensor<8x5x4x1xf32>, tensor<1xi8>) -> tensor<8x5x4x1xf32>
    %v17_b = tosa.const_shape {values = dense<[7, 2, 3, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v17_z = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v17 = tosa.slice %v12, %v17_b, %v17_z : (tensor<8x5x4x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
    %v23 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v24 = "tosa.const"() <{values = dense<[[[[0.456], [0.243], [-0.481]], [[0.363], [0.313], [0.116]]], [[[0.103], [0.016], [0.020]], [[0.263], [0.101], [0.359]]]]> : tensor<2x2x3x1xf32>}> : () -> tensor<2x2x3x1xf32>
    %v25 = "tosa.const"() <{values = dense<[0.126, 0.124]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %v26 = tosa.conv2d %v17, %v24, %v25, %v23, %v23 {acc_type = f32, pad = array<i64: 1, 0, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x1xf32>, tensor<2x2x3x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x2xf32>
    %v27_s = tosa.const_shape {values = dense<[160]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v27 = tosa.reshape %arg0, %v27_s : (tensor<8x5x4x1xf32>, !tosa.shape<1>) -> tensor<160xf32>
    return %v26, %v27, %v17 : tensor<1x1x1x2xf32>, tensor<160xf32>, tensor<1x1x1x1xf32>
}
