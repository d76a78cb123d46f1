// Found by utils/fuse-random-test (seed 78032: the CPU vectorizer rejected a
// reduction whose unit parallel loop no output indexed, left by folding a
// unit-dim view into it),
// minimized. Fused and unfused programs must agree, and a second
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1x3x8xf32>) -> (tensor<5x6x11xf32>, tensor<1x3x8xf32>, tensor<1x1x8xf32>) {
    %v13 = "tosa.const"() <{values = dense<[[[-0.472], [-0.490], [0.058], [0.174], [0.116], [-0.136], [-0.194], [-0.830]], [[0.870], [0.501], [-0.760], [0.475], [0.924], [-0.203], [-0.586], [0.214]], [[-0.205], [0.353], [-0.942], [0.828], [0.827], [0.803], [0.622], [0.670]]]> : tensor<3x8x1xf32>}> : () -> tensor<3x8x1xf32>
    %v17 = tosa.reduce_min %v13 {axis = 0 : i32} : (tensor<3x8x1xf32>) -> tensor<1x8x1xf32>
    %v20 = "tosa.const"() <{values = dense<0.399> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v21_p = tosa.const_shape {values = dense<[2, 2, 1, 2, 2, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
    %v21 = tosa.pad %arg0, %v21_p, %v20 : (tensor<1x3x8xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<5x6x11xf32>
    %v23 = tosa.transpose %v17 {perms = array<i32: 0, 2, 1>} : (tensor<1x8x1xf32>) -> tensor<1x1x8xf32>
    return %v21, %arg0, %v23 : tensor<5x6x11xf32>, tensor<1x3x8xf32>, tensor<1x1x8xf32>
}
