// REQUIRES: onnx
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_models.py %t
// RUN: %fuse-import %t/block.onnx -o %t/block.mlir
// RUN: FileCheck %s < %t/block.mlir
// RUN: %fuse-diff %t/block.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: fuse-opt --fuse-ops %t/block.mlir | FileCheck %s --check-prefix=FUSED
// RUN: not %fuse-import %t/bad.onnx -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not test -e %t/bad.mlir
// RUN: %fuse-import %t/mod.onnx -o %t/mod.mlir
// RUN: FileCheck %s --check-prefix=MOD < %t/mod.mlir
// RUN: not %fuse-import %t/mod_runtime.onnx -o %t/mod_runtime.mlir 2>&1 | FileCheck %s --check-prefix=MODRT
// RUN: not %fuse-import %t/einsum_diagonal.onnx -o %t/refused.mlir 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not %fuse-import %t/scatter_out_of_range.onnx -o %t/refused.mlir 2>&1 | FileCheck %s --check-prefix=SCATTER
// RUN: not %fuse-import %t/dropout_training.onnx -o %t/refused.mlir 2>&1 | FileCheck %s --check-prefix=DROPOUT
// RUN: not %fuse-import %t/conv3d_grouped.onnx -o %t/refused.mlir 2>&1 | FileCheck %s --check-prefix=CONV3D
// RUN: not test -e %t/refused.mlir
// Grouped convolutions (3x3, strided with asymmetric pads, dilated, 1x1),
// 1-D convolutions (plain, strided and dilated, grouped), 1-D max and
// average pools, Einsum (batched, constant operand, ellipsis, an axis summed
// alone, implicit output, transpose), Slice with steps on run-time values
// (padded, negative), and Swin's export idioms (training-mode Dropout of
// ratio 0 and its mask, ScatterND and Expand of constants), 3-D convolutions
// (padded, strided, dilated, 1x1x1) against direct
// numpy implementations of ONNX's ops.
// RUN: %fuse-onnx-node-tests --data %t/node | FileCheck %s --check-prefix=GROUPED
// A pool whose windows are single elements (kernel and strides 1, no pads)
// imports as its input: no pool op.
// RUN: %fuse-import %t/node/test_averagepool2d_identity/model.onnx -o %t/identity.mlir
// RUN: FileCheck %s --check-prefix=IDENTITY < %t/identity.mlir
// RUN: %fuse-import %t/node/test_maxpool2d_identity/model.onnx -o %t/identity.mlir
// RUN: FileCheck %s --check-prefix=IDENTITY < %t/identity.mlir

// The NCHW graph keeps its interface; convolutions and pools run in NHWC
// between transposes; BN is a per-channel multiply-add; the grouped conv is
// one op (linalg's, on the input viewed as [N, H, W, groups, channels per
// group] and padded; its bias added before the result is viewed back), not
// a conv per group; Gemm's transB is done on the weights.
// CHECK-LABEL: func.func @model(%arg0: tensor<1x3x8x8xf32>, %arg1: tensor<2x4x4xf32>) -> (tensor<1x10xf32>, tensor<2x12xf32>)
//       CHECK:   tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
//       CHECK:   tosa.conv2d {{.*}}pad = array<i64: 1, 1, 1, 1>{{.*}} -> tensor<1x8x8x8xf32>
//       CHECK:   tosa.transpose {{.*}}perms = array<i32: 0, 3, 1, 2>
//       CHECK:   tosa.mul {{.*}} -> tensor<1x8x8x8xf32>
//       CHECK:   tosa.add {{.*}} -> tensor<1x8x8x8xf32>
//       CHECK:   tosa.clamp {{.*}}min_val = 0.0 : f32
//       CHECK:   tosa.max_pool2d {{.*}}kernel = array<i64: 2, 2>{{.*}} -> tensor<1x4x4x8xf32>
//       CHECK:   tosa.reshape {{.*}} -> tensor<1x4x4x4x2xf32>
//       CHECK:   tosa.pad {{.*}} -> tensor<1x6x6x4x2xf32>
//   CHECK-NOT:   tosa.conv2d
//       CHECK:   linalg.conv_2d_nhwgc_gfhwc {{.*}}strides = dense<[1, 1]>{{.*}} ins({{.*}} : tensor<1x6x6x4x2xf32>, tensor<4x2x3x3x2xf32>) outs({{.*}} : tensor<1x4x4x4x2xf32>)
//   CHECK-NOT:   tosa.concat
//       CHECK:   tosa.add {{.*}} -> tensor<1x4x4x4x2xf32>
//       CHECK:   tosa.reshape {{.*}} -> tensor<1x4x4x8xf32>
//       CHECK:   tosa.reduce_sum
//       CHECK:   tosa.matmul {{.*}}: (tensor<1x1x8xf32>, tensor<1x8x10xf32>
//       CHECK:   tosa.reduce_max {{.*}}axis = 1
//       CHECK:   tosa.exp
//       CHECK:   tosa.reciprocal
//       CHECK:   tosa.matmul {{.*}}: (tensor<1x2x16xf32>, tensor<1x16x12xf32>
//       CHECK:   tosa.rsqrt
//       CHECK:   tosa.erf
//       CHECK:   return

// Fused and unfused agree on random inputs.
// NUM: fuse-diff: OK 2 outputs

// After fusion no transpose of any kind is left (layout propagation).
// FUSED-LABEL: func.func @model
//   FUSED-NOT:   tosa.transpose
//   FUSED-NOT:   linalg.transpose
//       FUSED:   return

// GROUPED: onnx node tests: 24 of the 24 using supported ops pass, 0 fail, 0 refused

// IDENTITY-LABEL: func.func @model(%arg0: tensor<1x5x7x7xf32>) -> (tensor<1x5x7x7xf32>)
//   IDENTITY-NOT:   pool2d
//       IDENTITY:   return %arg0 : tensor<1x5x7x7xf32>

// Refused, naming the node, writing nothing.
// DIAG: error: node 'diag' (Einsum): repeated subscripts in 'ii' (diagonals) are not supported
// SCATTER: error: node 'scatter' (ScatterND): an index is out of range for the data's shape (4, 4)
// DROPOUT: error: node 'dropout' (Dropout): training-mode Dropout is only supported with a constant ratio of 0
// CONV3D: error: node 'conv3d' (Conv): grouped 3-D convolutions are not supported

// ERR: fuse-import: {{.*}}bad.onnx: error: node 'the_topk' (TopK): unsupported operator

// Mod of constants folds at import (an int64 Reshape target with the
// divisor's sign, a float with fmod=1); of run-time values it is refused.
// MOD-LABEL: func.func @model(%arg0: tensor<3xf32>) -> (tensor<1x3xf32>)
//       MOD:   tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>}
//       MOD:   tosa.reshape %arg0{{.*}} -> tensor<1x3xf32>
//       MOD:   dense<-1.5> : tensor<1xf32>
//       MOD:   tosa.add
// MODRT: fuse-import: {{.*}}mod_runtime.onnx: error: node 'runtime_mod' (Mod): Mod is supported only on constants (folded at import)

