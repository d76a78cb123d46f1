// Found by utils/fuse-random-test (seed 102262: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<2x6x8xf32>) -> (tensor<2x6x1xf32>, tensor<84xf32>, tensor<4x7x3xf32>) {
    %v5 = "tosa.const"() <{values = dense<[[[-0.310, -0.184], [-0.236, 0.161], [-0.123, 0.122], [-0.279, -0.116], [-0.315, -0.362], [-0.322, 0.354], [-0.437, -0.310], [-0.327, -0.406]], [[-0.088, -0.168], [0.382, -0.202], [-0.123, 0.304], [-0.273, -0.342], [0.296, 0.377], [0.458, -0.260], [0.397, -0.240], [-0.317, 0.323]]]> : tensor<2x8x2xf32>}> : () -> tensor<2x8x2xf32>
    %v6 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v7 = tosa.matmul %arg2, %v5, %v6, %v6 : (tensor<2x6x8xf32>, tensor<2x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x2xf32>
    %v23 = "tosa.const"() <{values = dense<[[[-0.148], [-0.377]], [[-0.388], [0.009]]]> : tensor<2x2x1xf32>}> : () -> tensor<2x2x1xf32>
    %v24 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v25 = tosa.matmul %v7, %v23, %v24, %v24 : (tensor<2x6x2xf32>, tensor<2x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x1xf32>
    %v30 = "tosa.const"() <{values = dense<-0.370> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v31_p = tosa.const_shape {values = dense<[0, 2, 0, 1, 1, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %v31 = tosa.pad %v7, %v31_p, %v30 : (tensor<2x6x2xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<4x7x3xf32>
    %v32 = "tosa.const"() <{values = dense<[[[-0.497, 0.049, 0.425], [-0.399, 0.546, 0.097], [-0.809, 0.981, -0.681], [-0.204, 0.763, 0.192], [0.761, 0.077, 0.908], [0.024, 0.325, 0.739], [0.358, 0.681, -0.355]]]> : tensor<1x7x3xf32>}> : () -> tensor<1x7x3xf32>
    %v33 = tosa.add %v31, %v32 : (tensor<4x7x3xf32>, tensor<1x7x3xf32>) -> tensor<4x7x3xf32>
    %v34_s = tosa.const_shape {values = dense<[84]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %v34 = tosa.reshape %v31, %v34_s : (tensor<4x7x3xf32>, !tosa.shape<1>) -> tensor<84xf32>
    return %v25, %v34, %v33 : tensor<2x6x1xf32>, tensor<84xf32>, tensor<4x7x3xf32>
}
