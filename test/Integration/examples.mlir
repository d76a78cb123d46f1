// Differential numeric checks on the bundled example models: each is run on
// the CPU unchanged (upstream mlir-opt lowering) and after `--fuse-ops`
// (algebraic simplification, BatchNorm folding, horizontal fusion, concat
// elimination, fuse.group formation) followed by `--fuse-lower-to-cpu`,
// with the same seeded random inputs.
//
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=CONV
// RUN: %fuse-diff %examples/mlp_gelu.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=MLP
// RUN: %fuse-diff %examples/mlp_gelu.mlir --seed 7 -p "--fuse-ops" | FileCheck %s --check-prefix=MLP
// RUN: %fuse-diff %examples/inception_block.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=INCEPTION
// RUN: %fuse-diff %examples/resnet_bottleneck.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=RESNET
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=TRANSFORMER
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops=strict=true" | FileCheck %s --check-prefix=TRANSFORMER
//
// CONV: fuse-diff: OK 1 outputs, 4096 values
// MLP: fuse-diff: OK 1 outputs, 128 values
// INCEPTION: fuse-diff: OK 1 outputs, 1536 values
// RESNET: fuse-diff: OK 1 outputs, 1024 values
// TRANSFORMER: fuse-diff: OK 1 outputs, 256 values
