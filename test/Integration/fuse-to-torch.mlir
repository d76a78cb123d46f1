// REQUIRES: torch
// utils/fuse-to-torch writes the PyTorch program the GPU bench times for its
// eager and torch.compile columns: it must compute what the model computes.
// Checked on every example against our unfused CPU lowering, on the CPU.
// RUN: %python %S/Inputs/check_torch.py %fuse_opt %t %examples/conv_bn_relu.mlir %examples/inception_block.mlir %examples/mha_block.mlir %examples/mlp_gelu.mlir %examples/nchw_resnet_stage.mlir %examples/resnet_bottleneck.mlir %examples/transformer_block.mlir | FileCheck %s
// CHECK: conv_bn_relu: OK
// CHECK: inception_block: OK
// CHECK: mha_block: OK
// CHECK: mlp_gelu: OK
// CHECK: nchw_resnet_stage: OK
// CHECK: resnet_bottleneck: OK
// CHECK: transformer_block: OK
