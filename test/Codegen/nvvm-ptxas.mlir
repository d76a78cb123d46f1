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
// RUN: fuse-opt %examples/resnet_bottleneck.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.resnet.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.resnet.mlir %t.resnet | FileCheck %s
// RUN: fuse-opt %examples/mlp_gelu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.mlp.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.mlp.mlir %t.mlp | FileCheck %s
// 3-D convolutions (video models) stage channel chunks like 2-D ones
// (the filter read as F x D x H x W x C): no spills.
// RUN: fuse-opt %S/Inputs/conv3d-layers.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.conv3d.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.conv3d.mlir %t.conv3d | FileCheck %s
// Groups made one kernel by moving slices and views into the QKV
// projection, and by splitting the channel shuffle's copy chain.
// RUN: fuse-opt %S/../Integration/Inputs/qkv-heads.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.heads.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.heads.mlir %t.heads | FileCheck %s
// RUN: fuse-opt %S/../Integration/Inputs/channel-shuffle.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.shuffle.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.shuffle.mlir %t.shuffle | FileCheck %s
// The GPU bench's own models: memory-bound softmax and LayerNorm+GELU, and
// a 2048^3 matmul with its epilogue (operands staged in shared memory).
// RUN: fuse-opt %fuse_src/bench/gpu/models/softmax_32768x1024.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.softmax.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.softmax.mlir %t.softmax | FileCheck %s --check-prefix=ONE
// The launches' constants are sunk into the kernels before outlining: the
// index arithmetic divides by known constants (shifts), not by kernel
// parameters (64-bit divisions), and the kernel takes only its two buffers (7 values each).
// RUN: FileCheck %s --check-prefix=SUNK --input-file=%t.softmax/model_kernel.ptx
// RUN: fuse-opt %fuse_src/bench/gpu/models/layernorm_gelu_16384x2048.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.ln.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.ln.mlir %t.ln | FileCheck %s --check-prefix=ONE
// RUN: fuse-opt %fuse_src/bench/gpu/models/gemm_bias_relu6_2048.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.gemm.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.gemm.mlir %t.gemm | FileCheck %s --check-prefix=ONE
// With tf32=true the matmul's chunks run on tensor cores.
// RUN: fuse-opt %fuse_src/bench/gpu/models/gemm_bias_relu6_2048.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm="tf32=true" -o %t.tf32.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.tf32.mlir %t.tf32 | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t.tf32/model_kernel.ptx
// 197 tokens: whole 32x32 tiles and 5-row last tiles, one kernel; with
// tf32=true the whole tiles run on tensor cores.
// RUN: fuse-opt %fuse_src/bench/models/tokens197_mlp_gelu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.t197.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.t197.mlir %t.t197 | FileCheck %s --check-prefix=ONE
// RUN: fuse-opt %fuse_src/bench/models/tokens197_mlp_gelu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm="tf32=true" -o %t.t197tf32.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.t197tf32.mlir %t.t197tf32 | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t.t197tf32/model_kernel.ptx
// Mixed precision: the f16 and bf16 matmuls (into f32, and into f16)
// run on tensor cores by default, m16n8k16 with f32 accumulators (bf16
// through fuse-lower-bf16-mma); tensor-cores=false keeps them off.
// RUN: fuse-opt %S/../Integration/Inputs/mixed-precision.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.mixed.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.mixed.mlir %t.mixed | FileCheck %s
// RUN: cat %t.mixed/*.ptx | FileCheck %s --check-prefix=MIXED
// RUN: fuse-opt %S/../Integration/Inputs/mixed-precision.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm=tensor-cores=false -o %t.mixed-off.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.mixed-off.mlir %t.mixed-off | FileCheck %s
// RUN: cat %t.mixed-off/*.ptx | FileCheck %s --check-prefix=MIXED-OFF
// A dense block of 24 layers, each layer's output written in place into
// every later concatenation (DenseNet-121's pattern): 5 of its kernels took
// more than PTX's 4352 bytes of parameters before fuse-compact-kernel-
// arguments; now every one assembles.
// RUN: %python %S/Inputs/gen_dense_block.py 24 > %t.dense.in.mlir
// RUN: fuse-opt %t.dense.in.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm -o %t.dense.mlir
// RUN: %fuse-extract-ptx --ptxas %ptxas %t.dense.mlir %t.dense | FileCheck %s
// RUN: fuse-opt %examples/mlp_gelu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm="format=bin" -o %t.bin.mlir
// RUN: FileCheck %s --check-prefix=BIN --input-file=%t.bin.mlir
//
// SUNK-NOT: {{div|rem}}.u{{32|64}}
// SUNK: .param .u64 model_kernel_param_13
// SUNK-NOT: model_kernel_param_14
// SUNK-NOT: {{div|rem}}.u{{32|64}}
// ONE: model_kernel registers {{[0-9]+}} spill-stores 0 spill-loads 0
// ONE-NOT: FAILED
// No kernel spills (nvvm.minctasm leaves ptxas 64 registers a thread).
// CHECK-NOT: spill-stores {{[1-9]}}
// CHECK: registers {{[0-9]+}} spill-stores 0 spill-loads 0
// CHECK-NOT: spill-stores {{[1-9]}}
// CHECK-NOT: FAILED
// format=bin runs ptxas through the NVPTX target: a cubin, not PTX text.
// BIN: gpu.binary {{.*}}#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// BIN-NOT: .target sm_90
// TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// MIXED-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// MIXED-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MIXED-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// MIXED-OFF-NOT: mma.sync
