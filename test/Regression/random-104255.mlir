// Found by utils/fuse-random-test (seed 104255: a tool error (invalid IR after tiling)),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1xf32>) -> (tensor<1x1x1x1x1xf32>, tensor<3x1x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1xf32>) {
    %v4 = "tosa.const"() <{values = dense<-0.217> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %v6 = tosa.mul %v4, %arg0, %v5 : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
    %v8_s = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %v8 = tosa.reshape %v6, %v8_s : (tensor<1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
    %v9_s = tosa.const_shape {values = dense<[1, 1, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %v9 = tosa.reshape %v6, %v9_s : (tensor<1xf32>, !tosa.shape<5>) -> tensor<1x1x1x1x1xf32>
    %v14 = "tosa.const"() <{values = dense<[[[-0.341, 0.128, 0.359]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
    %v15 = "tosa.const"() <{values = dense<0.000> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v16 = tosa.matmul %v8, %v14, %v15, %v15 : (tensor<1x1x1xf32>, tensor<1x1x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
    %v28 = "tosa.const"() <{values = dense<1.000> : tensor<1x1x1x1x1xf32>}> : () -> tensor<1x1x1x1x1xf32>
    %v33 = tosa.transpose %v16 {perms = array<i32: 2, 1, 0>} : (tensor<1x1x3xf32>) -> tensor<3x1x1xf32>
    return %v9, %v33, %v28, %v8 : tensor<1x1x1x1x1xf32>, tensor<3x1x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1xf32>
}
