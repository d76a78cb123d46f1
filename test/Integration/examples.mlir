// Differential numeric checks on the bundled example models: each is run on
// the CPU unchanged (upstream mlir-opt lowering) and after `--fuse-ops`
// followed by `--fuse-lower-to-cpu`, with the same seeded random inputs.
//
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=CONV
// RUN: %fuse-diff %examples/mlp_gelu.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=MLP
// RUN: %fuse-diff %examples/mlp_gelu.mlir --seed 7 -p "--fuse-ops" | FileCheck %s --check-prefix=MLP
//
// CONV: fuse-diff: OK 1 outputs, 4096 values
// MLP: fuse-diff: OK 1 outputs, 128 values
