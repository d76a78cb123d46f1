// The layout stages on whole models: an NCHW ResNet stage (8 transposes
// around 4 convs, BatchNorms in NCHW, residual adds reading NCHW values) and
// a multi-head attention block (head split and merge, K^T). After
// --fuse-ops no transpose op is left in either (tosa.transpose, or a
// linalg copy through a permutation); the fused programs match the unfused
// ones on the CPU; running --fuse-ops again changes nothing.
//
// RUN: fuse-opt %examples/nchw_resnet_stage.mlir --fuse-ops -o %t.resnet.mlir
// RUN: FileCheck %s --check-prefix=RESNET --input-file=%t.resnet.mlir
// RUN: fuse-opt %t.resnet.mlir --fuse-ops | diff %t.resnet.mlir -
// RUN: %fuse-diff %examples/nchw_resnet_stage.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM-RESNET
//
// RUN: fuse-opt %examples/mha_block.mlir --fuse-ops -o %t.mha.mlir
// RUN: FileCheck %s --check-prefix=MHA --input-file=%t.mha.mlir
// RUN: fuse-opt %t.mha.mlir --fuse-ops | diff %t.mha.mlir -
// RUN: %fuse-diff %examples/mha_block.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM-MHA
// RUN: %fuse-diff %examples/mha_block.mlir -p "--fuse-ops" --seed 3 | FileCheck %s --check-prefix=NUM-MHA
//
// Four kernels, one per conv; the argument is read through an index change
// by the first kernel and by the residual add's; every BatchNorm is folded
// into its conv (no tosa.mul or tosa.sub left).
// RESNET-LABEL: func.func @model
//       RESNET:   fuse.group ins(%arg0 : tensor<1x8x6x6xf32>) {{.*}}input_permutations = [array<i64: 0, 2, 3, 1>]
//   RESNET-NOT:   transpose
//   RESNET-NOT:   tosa.mul
//   RESNET-NOT:   tosa.sub
//       RESNET:   fuse.group
//       RESNET:   fuse.group
//       RESNET:   fuse.group
//   RESNET-NOT:   fuse.group
//   RESNET-NOT:   transpose
//       RESNET:   return
// NUM-RESNET: fuse-diff: OK 1 outputs, 288 values
//
// Four kernels: LayerNorm-free attention needs the QKV projections, Q.K^T
// with the softmax, P.V, and the output projection with the residual.
// MHA-LABEL: func.func @model
//   MHA-NOT:   transpose
//       MHA:   fuse.group
//       MHA:   fuse.group
//       MHA:   fuse.group
//       MHA:   fuse.group
//   MHA-NOT:   fuse.group
//   MHA-NOT:   transpose
//       MHA:   return
// NUM-MHA: fuse-diff: OK 1 outputs, 256 values
