// Found by utils/fuse-random-test through the emulated GPU lowering (seed
// 20039: a crash in upstream tiling, given a slice of a padded value that
// moved up through a view into the pad's padding), minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1x8x4x3xf32>, %arg1: tensor<1xf32>) -> (tensor<1x8x4x3xf32>, tensor<4x6x1xf32>, tensor<1x5x1x2xf32>) {
    %v1_b = tosa.const_shape {values = dense<[0, 6, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v1_z = tosa.const_shape {values = dense<[1, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v1 = tosa.slice %arg0, %v1_b, %v1_z : (tensor<1x8x4x3xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x2x1xf32>
    %v5 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v6 = "tosa.const"() <{values = dense<-0.049> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v7 = "tosa.const"() <{values = dense<-0.107> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v8 = tosa.conv2d %v1, %v6, %v7, %v5, %v5 {acc_type = f32, pad = array<i64: 0, 1, 1, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3x1xf32>
    %v9 = tosa.minimum %arg1, %v5 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v12 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v13 = "tosa.const"() <{values = dense<[[[[-0.157], [-0.049]], [[0.373], [0.025]]], [[[0.086], [0.029]], [[-0.104], [0.117]]]]> : tensor<2x2x2x1xf32>}> : () -> tensor<2x2x2x1xf32>
    %v14 = "tosa.const"() <{values = dense<[-0.038, 0.191]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %v15 = tosa.conv2d %v8, %v13, %v14, %v12, %v12 {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x3x1xf32>, tensor<2x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4x2xf32>
    %v16 = "tosa.const"() <{values = dense<-0.339> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v17_p = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %v17 = tosa.pad %v9, %v17_p, %v16 : (tensor<1xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<4xf32>
    %v18_s = tosa.const_shape {values = dense<[1, 2, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v18 = tosa.reshape %v17, %v18_s : (tensor<4xf32>, !tosa.shape<4>) -> tensor<1x2x1x2xf32>
    %v28_b = tosa.const_shape {values = dense<[0, 1, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v28_z = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v28 = tosa.slice %v18, %v28_b, %v28_z : (tensor<1x2x1x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
    %v38 = tosa.maximum %v15, %v28 : (tensor<1x3x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x3x4x2xf32>
    %v39_s = tosa.const_shape {values = dense<[4, 6, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v39 = tosa.reshape %v38, %v39_s : (tensor<1x3x4x2xf32>, !tosa.shape<3>) -> tensor<4x6x1xf32>
    %v40 = tosa.reduce_min %arg0 {axis = 2 : i32} : (tensor<1x8x4x3xf32>) -> tensor<1x8x1x3xf32>
    %v42 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v43 = "tosa.const"() <{values = dense<[[[[-0.460, 0.269, -0.228]], [[0.338, -0.111, -0.111]]], [[[-0.126, 0.116, 0.198]], [[0.237, 0.378, 0.296]]]]> : tensor<2x2x1x3xf32>}> : () -> tensor<2x2x1x3xf32>
    %v44 = "tosa.const"() <{values = dense<[0.112, -0.036]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %v45 = tosa.conv2d %v40, %v43, %v44, %v42, %v42 {acc_type = f32, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x8x1x3xf32>, tensor<2x2x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x1x2xf32>
    return %arg0, %v39, %v45 : tensor<1x8x4x3xf32>, tensor<4x6x1xf32>, tensor<1x5x1x2xf32>
}
