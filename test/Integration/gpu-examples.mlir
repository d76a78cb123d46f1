// The example models lowered with --fuse-lower-to-nvvm and run on a GPU,
// compared with the unfused program on the CPU (utils/fuse-diff). Needs an
// NVIDIA GPU and lib/Runtime (feature cuda-gpu): skipped elsewhere, never
// faked.
// REQUIRES: cuda-gpu
//
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=CONV
// RUN: %fuse-diff %examples/mlp_gelu.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=MLP
// RUN: %fuse-diff %examples/inception_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=INCEPTION
// RUN: %fuse-diff %examples/resnet_bottleneck.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=RESNET
// RUN: %fuse-diff %examples/nchw_resnet_stage.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=NCHW
// RUN: %fuse-diff %examples/mha_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=MHA
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=TRANSFORMER
// Tensor cores (not checkable by the CPU emulation): the mixed-precision
// matmuls and convolution (f16/bf16 on mma.sync by default; tiles with rows
// and columns past the end, warps without a piece; the f16 accumulator
// rounded once instead of per step, hence the tolerance), and f32 matmuls,
// convolutions and a partial 197-row tile as TF32 (inputs cut to 10-bit
// mantissas):
// RUN: %fuse-diff %S/Inputs/mixed-precision.mlir -p "--fuse-ops" --rtol 5e-2 --atol 1e-1 --lower=--fuse-lower-to-nvvm --extra-libs %cuda_runtime | FileCheck %s --check-prefix=MIXED
// RUN: %fuse-diff %S/Inputs/gemm-bias-clamp.mlir -p "--fuse-ops" --rtol 1e-2 --atol 1e-2 --lower="--fuse-lower-to-nvvm=tf32=true" --extra-libs %cuda_runtime | FileCheck %s --check-prefix=TF32
// RUN: %fuse-diff %S/Inputs/conv3x3.mlir -p "--fuse-ops" --rtol 1e-2 --atol 1e-2 --lower="--fuse-lower-to-nvvm=tf32=true" --extra-libs %cuda_runtime | FileCheck %s --check-prefix=TF32
// RUN: %fuse-diff %fuse_src/bench/models/tokens197_mlp_gelu.mlir -p "--fuse-ops" --rtol 1e-2 --atol 1e-2 --lower="--fuse-lower-to-nvvm=tf32=true" --extra-libs %cuda_runtime | FileCheck %s --check-prefix=TF32
// MIXED: fuse-diff: OK 4 outputs
// TF32: fuse-diff: OK
//
// CONV: fuse-diff: OK 1 outputs, 4096 values
// MLP: fuse-diff: OK 1 outputs, 128 values
// INCEPTION: fuse-diff: OK 1 outputs, 1536 values
// RESNET: fuse-diff: OK 1 outputs, 1024 values
// NCHW: fuse-diff: OK 1 outputs, 288 values
// MHA: fuse-diff: OK 1 outputs, 256 values
// TRANSFORMER: fuse-diff: OK 1 outputs, 256 values
