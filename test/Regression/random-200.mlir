// Found by utils/fuse-random-test (seed 200: idempotence; a slice of a constant also read whole (a bias) folded only on the second run, once each group had its own copy of the constant),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<2xf32>) -> (tensor<2x1x1x15xf32>, tensor<2x2x2x5xf32>, tensor<5xf32>) {
    %v1 = "tosa.const"() <{values = dense<-0.123> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v5_s = tosa.const_shape {values = dense<[2, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %v5 = tosa.reshape %arg0, %v5_s : (tensor<2xf32>, !tosa.shape<4>) -> tensor<2x1x1x1xf32>
    %v11 = tosa.concat %arg0, %arg0, %v1 {axis = 0 : i32} : (tensor<2xf32>, tensor<2xf32>, tensor<1xf32>) -> tensor<5xf32>
    %v15 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v16 = "tosa.const"() <{values = dense<[[[[-0.313]]], [[[-0.085]]], [[[-0.276]]], [[[0.073]]], [[[0.095]]]]> : tensor<5x1x1x1xf32>}> : () -> tensor<5x1x1x1xf32>
    %v17 = "tosa.const"() <{values = dense<[-0.116, 0.176, -0.191, -0.024, -0.179]> : tensor<5xf32>}> : () -> tensor<5xf32>
    %v18 = tosa.conv2d %v5, %v16, %v17, %v15, %v15 {acc_type = f32, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x1x1x1xf32>, tensor<5x1x1x1xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x5xf32>
    %v23 = tosa.max_pool2d %v18 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x2x2x5xf32>) -> tensor<2x1x1x5xf32>
    %v27 = "tosa.const"() <{values = dense<[[[[-0.710, 0.614, 0.166, 0.378, 0.071]]], [[[-0.650, 0.074, -0.219, -0.076, 0.732]]]]> : tensor<2x1x1x5xf32>}> : () -> tensor<2x1x1x5xf32>
    %v30 = tosa.concat %v23, %v27, %v27 {axis = 3 : i32} : (tensor<2x1x1x5xf32>, tensor<2x1x1x5xf32>, tensor<2x1x1x5xf32>) -> tensor<2x1x1x15xf32>
    %v33 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v34 = tosa.mul %v11, %v17, %v33 : (tensor<5xf32>, tensor<5xf32>, tensor<1xi8>) -> tensor<5xf32>
    return %v30, %v18, %v34 : tensor<2x1x1x15xf32>, tensor<2x2x2x5xf32>, tensor<5xf32>
}
