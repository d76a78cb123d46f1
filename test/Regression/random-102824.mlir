// Found by utils/fuse-random-test (seed 102824: error; > tensor<5x7xf32>),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<7x1x7x5xf32>, %arg1: tensor<7x5x6x8x5xf32>) -> (tensor<2x2x1xf32>, tensor<16xf32>, tensor<5x7x3xf32>) {
    %v16_s = tosa.const_shape {values = dense<[5, 7, 240]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v16 = tosa.reshape %arg1, %v16_s : (tensor<7x5x6x8x5xf32>, !tosa.shape<3>) -> tensor<5x7x240xf32>
    %v19 = tosa.reduce_max %v16 {axis = 2 : i32} : (tensor<5x7x240xf32>) -> tensor<5x7x1xf32>
    %v20 = "tosa.const"() <{values = dense<[[[0.249, 0.339, -0.013]], [[0.460, -0.307, -0.206]], [[-0.164, -0.053, 0.229]], [[0.245, 0.158, -0.478]], [[-0.391, 0.445, 0.124]]]> : tensor<5x1x3xf32>}> : () -> tensor<5x1x3xf32>
    %v21 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v22 = tosa.matmul %v19, %v20, %v21, %v21 : (tensor<5x7x1xf32>, tensor<5x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5x7x3xf32>
    %v24 = tosa.greater %v19, %v19 : (tensor<5x7x1xf32>, tensor<5x7x1xf32>) -> tensor<5x7x1xi1>
    %v25 = "tosa.const"() <{values = dense<[[[-0.749], [-0.222], [-0.235], [-0.496], [0.790], [0.656], [0.126]]]> : tensor<1x7x1xf32>}> : () -> tensor<1x7x1xf32>
    %v26 = tosa.select %v24, %v19, %v25 : (tensor<5x7x1xi1>, tensor<5x7x1xf32>, tensor<1x7x1xf32>) -> tensor<5x7x1xf32>
    %v27_b = tosa.const_shape {values = dense<[0, 5, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v27_z = tosa.const_shape {values = dense<[2, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v27 = tosa.slice %v22, %v27_b, %v27_z : (tensor<5x7x3xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x1xf32>
    %v28 = tosa.sub %v19, %v26 : (tensor<5x7x1xf32>, tensor<5x7x1xf32>) -> tensor<5x7x1xf32>
    %v30_s = tosa.const_shape {values = dense<[35]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v30 = tosa.reshape %v28, %v30_s : (tensor<5x7x1xf32>, !tosa.shape<1>) -> tensor<35xf32>
    %v34_b = tosa.const_shape {values = dense<[9]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v34_z = tosa.const_shape {values = dense<[16]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v34 = tosa.slice %v30, %v34_b, %v34_z : (tensor<35xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<16xf32>
    %v35 = "tosa.const"() <{values = dense<[[[0.338, 0.497, -0.074]], [[-0.101, 0.261, -0.385]], [[0.278, 0.337, 0.438]], [[-0.045, 0.165, 0.074]], [[0.441, -0.301, -0.480]]]> : tensor<5x1x3xf32>}> : () -> tensor<5x1x3xf32>
    %v36 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v37 = tosa.matmul %v28, %v35, %v36, %v36 : (tensor<5x7x1xf32>, tensor<5x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5x7x3xf32>
    return %v27, %v34, %v37 : tensor<2x2x1xf32>, tensor<16xf32>, tensor<5x7x3xf32>
}
