// Found by utils/fuse-random-test (seed 102791: a numeric mismatch),
// minimized. With the default (reassociating) rules x + (c - x) becomes c and
// floor amplifies the rounding difference; with strict=true they agree.
// --fuse-ops must change nothing.
// RUN: %fuse-diff %s -p "--fuse-ops=strict=true" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// CHECK: fuse-diff: OK

func.func @model(%arg0: tensor<1x1x2x4xf32>, %arg1: tensor<3xf32>) -> (tensor<1x1x1x3x1xf32>, tensor<9xf32>, tensor<3xf32>) {
    %v1 = "tosa.const"() <{values = dense<[-0.533, -0.267, 0.767]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %v2 = tosa.sub %v1, %arg1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %v3 = tosa.add %arg1, %v2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %v4 = tosa.sub %v1, %v3 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %v9 = tosa.floor %v4 : (tensor<3xf32>) -> tensor<3xf32>
    %v23 = "tosa.const"() <{values = dense<[[[[[0.737], [-0.666], [-0.673]]]]]> : tensor<1x1x1x3x1xf32>}> : () -> tensor<1x1x1x3x1xf32>
    %v26 = tosa.concat %v9, %v2, %v9 {axis = 0 : i32} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<9xf32>
    return %v23, %v26, %v9 : tensor<1x1x1x3x1xf32>, tensor<9xf32>, tensor<3xf32>
}
