// Found by utils/fuse-random-test (seed 101373: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<3x3x7x2xf32>) -> (tensor<1x4x1x1xf32>, tensor<1x3xf32>, tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) {
    %v7_b = tosa.const_shape {values = dense<[2, 0, 5, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v7_z = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v7 = tosa.slice %arg0, %v7_b, %v7_z : (tensor<3x3x7x2xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
    %v9 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v10 = tosa.add %v7, %v9 : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
    %v12 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v13 = tosa.mul %v10, %v7, %v12 : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1x1xf32>
    %v15 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v16 = tosa.add %v13, %v15 : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
    %v18 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v19 = "tosa.const"() <{values = dense<[[[[-0.184], [0.170]]]]> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
    %v20 = "tosa.const"() <{values = dense<-0.162> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v21 = tosa.conv2d %v16, %v19, %v20, %v18, %v18 {acc_type = f32, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x1xf32>
    %v22 = tosa.concat %v21, %v10 {axis = 1 : i32} : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x3x1x1xf32>
    %v26_s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %v26 = tosa.reshape %v22, %v26_s : (tensor<1x3x1x1xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
    %v27 = tosa.concat %v10, %v22 {axis = 1 : i32} : (tensor<1x1x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<1x4x1x1xf32>
    %v31 = "tosa.const"() <{values = dense<[[[[0.180]], [[0.043]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
    return %v27, %v26, %v31, %v13 : tensor<1x4x1x1xf32>, tensor<1x3xf32>, tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>
}
