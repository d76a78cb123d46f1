// Found by utils/fuse-random-test (seed 1028: "operand does not dominate this use" after tiling: a returned producer fused into another root's nest while a third root also read it),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<4x3x7x5xf32>, %arg1: tensor<6x3x1x1x1xf32>) -> (tensor<4x1x8x5xf32>, tensor<5x3x11x7xf32>, tensor<4x2x8x1xf32>) {
    %v1 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v2 = "tosa.const"() <{values = dense<[[[[0.229], [0.330], [-0.375], [-0.116], [0.025]]], [[[-0.383], [-0.322], [-0.044], [-0.231], [0.245]]], [[[0.246], [0.481], [-0.354], [-0.228], [-0.020]]]]> : tensor<3x1x5x1xf32>}> : () -> tensor<3x1x5x1xf32>
    %v3 = "tosa.const"() <{values = dense<[-0.127, -0.179, 0.188, -0.157, -0.192]> : tensor<5xf32>}> : () -> tensor<5xf32>
    %v4 = tosa.depthwise_conv2d %arg0, %v2, %v3, %v1, %v1 {acc_type = f32, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<4x3x7x5xf32>, tensor<3x1x5x1xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x8x5xf32>
    %v6 = tosa.abs %v4 : (tensor<4x1x8x5xf32>) -> tensor<4x1x8x5xf32>
    %v7 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v8 = tosa.add %v6, %v7 : (tensor<4x1x8x5xf32>, tensor<1x1x1x1xf32>) -> tensor<4x1x8x5xf32>
    %v23 = tosa.greater %v8, %v8 : (tensor<4x1x8x5xf32>, tensor<4x1x8x5xf32>) -> tensor<4x1x8x5xi1>
    %v24 = "tosa.const"() <{values = dense<[[[[-0.456, 0.683, -0.863, -0.353, -0.844], [0.759, -0.483, 0.965, 0.417, 0.940], [-0.041, -0.043, -0.694, 0.294, 0.118], [-0.452, -0.803, 0.391, -0.022, -0.301], [-0.173, -0.711, 0.566, 0.496, 0.271], [0.022, 0.786, 0.593, 0.807, -0.405], [-0.677, -0.352, 0.281, 0.162, -0.401], [0.379, 0.303, -0.118, -0.569, -0.332]]], [[[-0.708, -0.499, -0.661, 0.584, -0.569], [0.568, 0.124, -0.788, -0.843, -0.932], [0.325, 0.047, -0.188, 0.426, 0.418], [0.861, -0.803, -0.897, -0.299, 0.677], [0.241, -0.925, 0.725, 0.409, 0.467], [-0.695, 0.155, 0.892, 0.993, -0.922], [-0.039, 0.215, -0.244, -0.778, -0.030], [-0.877, 0.933, -0.559, 0.794, -0.179]]], [[[0.353, -0.101, 0.245, -0.637, 0.832], [-0.489, -0.855, -0.509, -0.079, 0.172], [0.246, 0.201, 0.876, 0.563, 0.114], [0.728, 0.203, -0.670, 0.749, 0.153], [-0.277, 0.400, 0.813, -0.849, 0.367], [-0.709, 0.262, -0.859, -0.673, -0.140], [-0.723, 0.667, 0.639, -0.010, 0.340], [-0.238, -0.034, -0.373, -0.407, -0.451]]], [[[-0.716, -0.318, 0.677, -0.299, 0.682], [0.591, 0.607, 0.719, -0.143, 0.601], [0.606, 0.603, 0.328, 0.340, 0.847], [0.376, -0.484, 0.610, -0.500, -0.880], [0.434, -0.647, 0.169, 0.307, -0.685], [-0.130, -0.241, -0.508, 0.031, -0.789], [-0.626, 0.980, -0.499, -0.810, -0.600], [0.741, 0.162, -0.864, 0.653, 0.166]]]]> : tensor<4x1x8x5xf32>}> : () -> tensor<4x1x8x5xf32>
    %v25 = tosa.select %v23, %v8, %v24 : (tensor<4x1x8x5xi1>, tensor<4x1x8x5xf32>, tensor<4x1x8x5xf32>) -> tensor<4x1x8x5xf32>
    %v26 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v27 = "tosa.const"() <{values = dense<[[[[0.488, -0.166, 0.184, 0.043, -0.473], [0.442, -0.202, 0.371, -0.451, -0.191]]], [[[-0.394, -0.152, 0.067, -0.099, -0.438], [-0.323, -0.133, 0.070, 0.295, 0.380]]], [[[0.272, -0.423, -0.109, 0.232, 0.286], [0.097, -0.132, -0.056, 0.300, -0.279]]], [[[0.356, 0.179, 0.421, -0.416, -0.436], [-0.134, -0.038, 0.247, -0.395, -0.068]]], [[[-0.446, 0.073, 0.364, -0.145, 0.452], [-0.127, -0.253, 0.485, -0.067, 0.023]]]]> : tensor<5x1x2x5xf32>}> : () -> tensor<5x1x2x5xf32>
    %v28 = "tosa.const"() <{values = dense<[-0.146, 0.053, -0.192, 0.068, 0.123]> : tensor<5xf32>}> : () -> tensor<5xf32>
    %v29 = tosa.conv2d %v8, %v27, %v28, %v26, %v26 {acc_type = f32, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<4x1x8x5xf32>, tensor<5x1x2x5xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x2x8x5xf32>
    %v30 = tosa.tanh %v25 : (tensor<4x1x8x5xf32>) -> tensor<4x1x8x5xf32>
    %v32 = "tosa.const"() <{values = dense<-0.169> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v33_p = tosa.const_shape {values = dense<[0, 1, 1, 1, 1, 2, 1, 1]> : tensor<8xindex>} : () -> !tosa.shape<8>
    %v33 = tosa.pad %v25, %v33_p, %v32 : (tensor<4x1x8x5xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<5x3x11x7xf32>
    %v34 = tosa.reduce_min %v29 {axis = 3 : i32} : (tensor<4x2x8x5xf32>) -> tensor<4x2x8x1xf32>
    return %v30, %v33, %v34 : tensor<4x1x8x5xf32>, tensor<5x3x11x7xf32>, tensor<4x2x8x1xf32>
}
