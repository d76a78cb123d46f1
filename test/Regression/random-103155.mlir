// Found by utils/fuse-random-test (seed 103155: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1x7x5x7xf32>, %arg1: tensor<1x2x4x8xf32>) -> (tensor<4x4x7x9xf32>, tensor<4x2x7x9xf32>, tensor<4x1x6x9xf32>, tensor<1x1x5x7xf32>) {
    %v1_s = tosa.const_shape {values = dense<[245]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v1 = tosa.reshape %arg0, %v1_s : (tensor<1x7x5x7xf32>, !tosa.shape<1>) -> tensor<245xf32>
    %v2 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v3 = "tosa.const"() <{values = dense<[[[[-0.363, -0.383], [0.056, -0.241], [0.465, -0.499], [0.388, 0.177], [0.264, 0.039], [-0.249, -0.136], [-0.136, -0.105], [0.419, -0.390]], [[-0.166, -0.397], [-0.155, -0.341], [-0.086, -0.140], [-0.490, -0.228], [0.405, 0.211], [0.076, 0.202], [-0.407, 0.407], [0.493, -0.433]], [[-0.187, -0.464], [-0.354, -0.494], [0.120, 0.462], [-0.251, 0.444], [0.039, 0.340], [-0.387, -0.111], [-0.382, -0.327], [-0.053, -0.165]]], [[[0.336, -0.114], [0.063, 0.123], [-0.142, -0.456], [-0.438, 0.243], [0.067, -0.487], [-0.140, 0.268], [-0.201, 0.268], [0.390, 0.301]], [[0.351, -0.470], [-0.229, -0.390], [-0.499, -0.375], [-0.042, -0.146], [-0.484, -0.471], [-0.073, -0.283], [0.246, 0.069], [-0.432, 0.409]], [[0.289, -0.200], [0.446, 0.358], [-0.049, -0.021], [0.008, 0.243], [0.080, -0.313], [-0.382, -0.258], [-0.359, 0.106], [0.277, -0.309]]], [[[0.051, 0.134], [0.321, -0.269], [0.273, -0.363], [0.454, 0.090], [0.066, 0.018], [0.461, 0.103], [0.295, 0.439], [0.095, -0.153]], [[-0.067, 0.415], [0.123, 0.394], [0.098, -0.182], [-0.115, -0.095], [-0.486, 0.168], [-0.374, -0.457], [-0.146, 0.061], [-0.187, 0.087]], [[-0.316, -0.446], [-0.184, 0.250], [-0.378, -0.105], [-0.292, -0.401], [-0.487, -0.060], [0.500, -0.311], [-0.007, 0.002], [-0.347, 0.093]]]]> : tensor<3x3x8x2xf32>}> : () -> tensor<3x3x8x2xf32>
    %v4 = "tosa.const"() <{values = dense<[-0.140, -0.175, 0.019, 0.041, -0.168, 0.137, -0.138, -0.188, -0.002, -0.094, -0.184, -0.084, -0.176, 0.067, -0.133, -0.052]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %v5 = tosa.depthwise_conv2d %arg1, %v3, %v4, %v2, %v2 {acc_type = f32, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x4x8xf32>, tensor<3x3x8x2xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3x16xf32>
    %v6 = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<1x7x5x7xf32>) -> tensor<1x1x5x7xf32>
    %v7 = "tosa.const"() <{values = dense<[[[[0.108, -0.341, -0.427, 0.449, -0.805, 0.195, -0.722, -0.315, -0.172, -0.385, -0.037, 0.053, 0.096, -0.397, -0.885, -0.294]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
    %v8 = tosa.maximum %v7, %v5 : (tensor<1x1x1x16xf32>, tensor<1x1x3x16xf32>) -> tensor<1x1x3x16xf32>
    %v9_s = tosa.const_shape {values = dense<[2, 24, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v9 = tosa.reshape %v8, %v9_s : (tensor<1x1x3x16xf32>, !tosa.shape<3>) -> tensor<2x24x1xf32>
    %v10 = "tosa.const"() <{values = dense<[[[[0.709, 0.337, 0.301, 0.215, 0.919, 0.303, -0.331, 0.430, -0.966, -0.795, 0.589, -0.494, -0.462, 0.146, 0.556, 0.976]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
    %v11 = tosa.minimum %v10, %v5 : (tensor<1x1x1x16xf32>, tensor<1x1x3x16xf32>) -> tensor<1x1x3x16xf32>
    %v12 = "tosa.const"() <{values = dense<[[[[-0.255, 0.124, 0.247, 0.461, 0.780, 0.955, -0.204], [-0.156, 0.388, -0.777, 0.002, -0.220, 0.868, 0.932], [-0.489, -0.966, 0.666, -0.210, -0.599, 0.590, 0.665], [-0.126, -0.948, -0.385, 0.795, -0.669, -0.429, 0.450], [0.082, 0.122, -0.778, 0.458, -0.862, 0.943, -0.175]]]]> : tensor<1x1x5x7xf32>}> : () -> tensor<1x1x5x7xf32>
    %v13 = tosa.minimum %v6, %v12 : (tensor<1x1x5x7xf32>, tensor<1x1x5x7xf32>) -> tensor<1x1x5x7xf32>
    %v14 = tosa.sub %v11, %v8 : (tensor<1x1x3x16xf32>, tensor<1x1x3x16xf32>) -> tensor<1x1x3x16xf32>
    %v15 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v16 = "tosa.const"() <{values = dense<[[[[-0.010], [-0.021], [0.378], [0.197], [-0.088], [0.355], [-0.499], [0.274], [-0.469], [-0.011], [-0.421], [0.029], [0.090], [-0.097], [-0.136], [-0.099]]], [[[-0.209], [0.045], [0.235], [-0.213], [0.495], [0.391], [0.265], [0.473], [0.226], [0.096], [-0.017], [0.313], [0.342], [-0.341], [0.073], [0.266]]]]> : tensor<2x1x16x1xf32>}> : () -> tensor<2x1x16x1xf32>
    %v17 = "tosa.const"() <{values = dense<[-0.170, 0.177, 0.160, -0.106, 0.067, 0.124, -0.079, 0.074, 0.060, 0.039, -0.004, 0.074, -0.125, -0.113, 0.068, 0.079]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %v18 = tosa.depthwise_conv2d %v8, %v16, %v17, %v15, %v15 {acc_type = f32, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x3x16xf32>, tensor<2x1x16x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x16xf32>
    %v19 = "tosa.const"() <{values = dense<[[[-0.032]], [[-0.055]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
    %v20 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v21 = tosa.matmul %v9, %v19, %v20, %v20 : (tensor<2x24x1xf32>, tensor<2x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x24x1xf32>
    %v22 = "tosa.const"() <{values = dense<[[[[0.586, 0.845, 0.764, 0.187, -0.628, 0.478, 0.508], [-0.736, 0.713, 0.877, -0.992, -0.136, -0.992, 0.859], [-0.573, 0.853, -0.315, -0.343, 0.484, -0.888, 0.749], [-0.658, -0.365, -0.325, -0.349, -0.242, 0.546, -0.751], [-0.703, -0.873, 0.703, 0.660, -0.261, -0.587, -0.883]]]]> : tensor<1x1x5x7xf32>}> : () -> tensor<1x1x5x7xf32>
    %v23 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v24 = tosa.mul %v13, %v22, %v23 : (tensor<1x1x5x7xf32>, tensor<1x1x5x7xf32>, tensor<1xi8>) -> tensor<1x1x5x7xf32>
    %v25 = tosa.sub %v21, %v9 : (tensor<2x24x1xf32>, tensor<2x24x1xf32>) -> tensor<2x24x1xf32>
    %v26 = tosa.maximum %v22, %v24 : (tensor<1x1x5x7xf32>, tensor<1x1x5x7xf32>) -> tensor<1x1x5x7xf32>
    %v27 = tosa.transpose %v21 {perms = array<i32: 1, 0, 2>} : (tensor<2x24x1xf32>) -> tensor<24x2x1xf32>
    %v28_s = tosa.const_shape {values = dense<[1, 1, 2, 3, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %v28 = tosa.reshape %v11, %v28_s : (tensor<1x1x3x16xf32>, !tosa.shape<5>) -> tensor<1x1x2x3x8xf32>
    %v29 = "tosa.const"() <{values = dense<[[[[[-0.442, 0.785, 0.528, -0.231, -0.733, 0.567, 0.805, -0.065], [0.241, -0.603, 0.453, -0.086, 0.632, -0.283, 0.403, 0.354], [0.901, 0.857, 0.095, -0.323, 0.286, 0.311, -0.522, -0.337]]]]]> : tensor<1x1x1x3x8xf32>}> : () -> tensor<1x1x1x3x8xf32>
    %v30 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v31 = tosa.mul %v29, %v28, %v30 : (tensor<1x1x1x3x8xf32>, tensor<1x1x2x3x8xf32>, tensor<1xi8>) -> tensor<1x1x2x3x8xf32>
    %v32 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v33 = "tosa.const"() <{values = dense<[[[[-0.062, 0.456, 0.008, -0.484, -0.194, -0.352, -0.387]], [[-0.283, -0.395, 0.228, 0.145, -0.471, -0.116, -0.184]]], [[[-0.092, -0.484, 0.371, -0.202, -0.026, -0.194, 0.355]], [[-0.500, 0.094, 0.087, -0.456, -0.058, 0.226, 0.040]]], [[[-0.034, 0.081, 0.375, -0.347, -0.149, -0.076, 0.050]], [[0.175, 0.395, 0.138, -0.034, 0.341, -0.389, -0.221]]], [[[0.128, 0.394, 0.253, -0.307, -0.422, -0.479, -0.341]], [[-0.182, 0.030, 0.090, -0.317, -0.374, -0.474, 0.194]]], [[[-0.140, -0.207, 0.014, 0.448, 0.482, -0.140, -0.208]], [[-0.430, -0.394, -0.324, 0.360, -0.235, -0.340, 0.054]]]]> : tensor<5x2x1x7xf32>}> : () -> tensor<5x2x1x7xf32>
    %v34 = "tosa.const"() <{values = dense<[0.035, 0.095, 0.021, -0.173, -0.016]> : tensor<5xf32>}> : () -> tensor<5xf32>
    %v35 = tosa.conv2d %v24, %v33, %v34, %v32, %v32 {acc_type = f32, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x5x7xf32>, tensor<5x2x1x7xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x5x5xf32>
    %v36_s = tosa.const_shape {values = dense<[32, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %v36 = tosa.reshape %v18, %v36_s : (tensor<1x1x4x16xf32>, !tosa.shape<2>) -> tensor<32x2xf32>
    %v37 = "tosa.const"() <{values = dense<0.385> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v38_p = tosa.const_shape {values = dense<[2, 1, 0, 1, 1, 1, 2, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
    %v38 = tosa.pad %v13, %v38_p, %v37 : (tensor<1x1x5x7xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<4x2x7x9xf32>
    %v39 = tosa.concat %v38, %v38 {axis = 1 : i32} : (tensor<4x2x7x9xf32>, tensor<4x2x7x9xf32>) -> tensor<4x4x7x9xf32>
    %v40 = tosa.abs %v38 : (tensor<4x2x7x9xf32>) -> tensor<4x2x7x9xf32>
    %v41 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %v42 = tosa.add %v40, %v41 : (tensor<4x2x7x9xf32>, tensor<1x1x1x1xf32>) -> tensor<4x2x7x9xf32>
    %v43 = tosa.log %v42 : (tensor<4x2x7x9xf32>) -> tensor<4x2x7x9xf32>
    %v44 = tosa.max_pool2d %v40 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x2x7x9xf32>) -> tensor<4x1x6x9xf32>
    return %v39, %v43, %v44, %v13 : tensor<4x4x7x9xf32>, tensor<4x2x7x9xf32>, tensor<4x1x6x9xf32>, tensor<1x1x5x7xf32>
}
