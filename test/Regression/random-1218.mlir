// Found by utils/fuse-random-test with the emulated GPU lowering (seed 1218:
// a pad of a pad fused into a tile; the partial tile's scf.if yields a
// small allocation in one branch, which was promoted to a per-thread stack
// buffer while the merged value was still freed: an invalid free, heap
// corruption on a GPU), minimized.
// RUN: %fuse-diff %s -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s
// CHECK: fuse-diff: OK

func.func @model(%arg1: tensor<1x3x2x6x7xf32>) -> (tensor<5x9x4x8x12xf32>) {
    %v26 = "tosa.const"() <{values = dense<-0.004> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v27_p = tosa.const_shape {values = dense<[2, 0, 0, 2, 0, 1, 0, 2, 1, 2]> : tensor<10xindex>} : () -> !tosa.shape<10>
    %v27 = tosa.pad %arg1, %v27_p, %v26 : (tensor<1x3x2x6x7xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<3x5x3x8x10xf32>
    %v31 = "tosa.const"() <{values = dense<0.331> : tensor<1xf32>}> : () -> tensor<1xf32>
    %v32_p = tosa.const_shape {values = dense<[2, 0, 2, 2, 1, 0, 0, 0, 0, 2]> : tensor<10xindex>} : () -> !tosa.shape<10>
    %v32 = tosa.pad %v27, %v32_p, %v31 : (tensor<3x5x3x8x10xf32>, !tosa.shape<10>, tensor<1xf32>) -> tensor<5x9x4x8x12xf32>
    %v33 = tosa.abs %v32 : (tensor<5x9x4x8x12xf32>) -> tensor<5x9x4x8x12xf32>
    return %v33 : tensor<5x9x4x8x12xf32>
}
