// Every kernel of every example model assembles for sm_90 (ptxas from the
// CUDA toolkit; skipped where there is none).
// REQUIRES: ptxas
//
// RUN: fuse-opt %examples/conv_bn_relu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.conv.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.conv.mlir %t.conv | FileCheck %s --check-prefix=ONE
// RUN: fuse-opt %examples/mha_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.mha.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.mha.mlir %t.mha | FileCheck %s
// RUN: fuse-opt %examples/inception_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.inception.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.inception.mlir %t.inception | FileCheck %s
// RUN: fuse-opt %examples/transformer_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.transformer.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.transformer.mlir %t.transformer | FileCheck %s
// RUN: fuse-opt %examples/nchw_resnet_stage.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.nchw.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.nchw.mlir %t.nchw | FileCheck %s
// RUN: fuse-opt %examples/mlp_gelu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm="format=bin" -o %t.bin.mlir
// RUN: FileCheck %s --check-prefix=BIN --input-file=%t.bin.mlir
//
// ONE: model_kernel registers {{[0-9]+}} spill-stores 0 spill-loads 0
// ONE-NOT: FAILED
// CHECK: registers
// CHECK-NOT: FAILED
// format=bin runs ptxas through the NVPTX target: a cubin, not PTX text.
// BIN: gpu.binary {{.*}}#gpu.object<#nvvm.target<chip = "sm_90"
// BIN-NOT: .target sm_90
