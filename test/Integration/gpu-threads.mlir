// REQUIRES: gpu-emulator
// The GPU lowering's default kernels run on the CPU as the GPU runs them
// (fuse-test-emulate-gpu; test/lib/TestEmulateLaunches.cpp): every thread
// of a block a real thread, the blocks' threads meeting at gpu.barrier,
// sharing the block's shared memory, combining gpu.all_reduce, and the
// warps running mma.sync with PTX's fragment layouts (tensor cores on:
// f16 and bf16 matmuls and convolutions). Each is compared with the
// unfused program. Shared-memory accesses are checked for data races (two
// threads, one byte, one writing, no barrier between), and a barrier a
// thread never reaches is reported.
//
// DEFINE: %{emu} = %fuse-diff -p "--fuse-ops" --extra-libs %gpu_emulator_libs
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/conv_bn_relu.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/inception_block.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/mha_block.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/mlp_gelu.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/nchw_resnet_stage.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/resnet_bottleneck.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %examples/transformer_block.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %fuse_src/bench/models/softmax_512x1024.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %fuse_src/bench/models/layernorm_gelu_256x2048.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %fuse_src/bench/models/tokens197_mlp_gelu.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/gemm-bias-clamp.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/conv1x1.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/conv3x3.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/swin-window-attention.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/row-reductions.mlir | FileCheck %s
// CHECK: fuse-diff: OK
//
// gpu.all_reduce runs as the kernel runs it: upstream's lowering (the one
// convert-gpu-to-nvvm applies) into warp shuffles, a shared buffer and two
// barriers, each shuffle a warp-wide exchange among its member lanes.
// RUN: fuse-opt %S/Inputs/row-reductions.mlir --fuse-ops | fuse-opt --fuse-test-emulate-gpu --mlir-print-ir-before=fuse-test-emulate-launches --mlir-print-ir-after=fuse-test-emulate-launches -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHUFFLE
// SHUFFLE: gpu.all_reduce
// SHUFFLE: IR Dump After
// SHUFFLE-NOT: gpu.all_reduce
// SHUFFLE-COUNT-5: call @fuse_emu_warp_sync
// That lowering is right only for a power-of-two number of warps (its
// reducing lanes all store their total to one word, and with 3 or 5 warps
// some lanes' totals miss a warp): other block sizes reduce per thread,
// and match.
// RUN: %{emu} --lower=--fuse-test-emulate-gpu=block-size=96 %S/Inputs/row-reductions.mlir | FileCheck %s
// RUN: %{emu} --lower=--fuse-test-emulate-gpu=block-size=160 %S/Inputs/row-reductions.mlir | FileCheck %s
// RUN: fuse-opt %S/Inputs/row-reductions.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm=block-size=96 --mlir-print-ir-before=fuse-gpu-host-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-ALLREDUCE
// NO-ALLREDUCE: gpu.launch
// NO-ALLREDUCE-NOT: gpu.all_reduce
//
// The mixed-precision input: three matmuls and a convolution on tensor
// cores (mma.sync m16n8k16, f16 and bf16), within the f16/bf16 bound.
// RUN: %{emu} --lower=--fuse-test-emulate-gpu %S/Inputs/mixed-precision.mlir | FileCheck %s --check-prefix=MIXED
// RUN: fuse-opt %S/Inputs/mixed-precision.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-before=fuse-gpu-host-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=MMA
// MIXED: fuse-diff: OK 4 outputs
// MMA-COUNT-4: nvgpu.mma.sync
//
// Mutations the emulator must see. A wrong lane layout (rows g and g+8 of
// the A fragment swapped in the emulator, so that it and the kernels
// disagree on where fragment elements live):
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=mutate-fragment-rows=true %S/Inputs/mixed-precision.mlir | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: fuse-diff: MISMATCH
// A missing barrier (the second, third or fourth of each launch dropped):
// a race on shared memory, whatever the threads' timing.
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=drop-barrier=1 %S/Inputs/mixed-precision.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=drop-barrier=2 %S/Inputs/mixed-precision.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=drop-barrier=3 %S/Inputs/mixed-precision.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=drop-barrier=1 %fuse_src/bench/models/softmax_512x1024.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// The kernel's barrier between two rows' all_reduce (the fourth: after the
// initialization's and the first all_reduce's two), without which the next
// row's partials overwrite the buffer the last row's total is read from:
// RUN: not %{emu} --lower=--fuse-test-emulate-gpu=drop-barrier=3 %S/Inputs/row-reductions.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: fuse-gpu-emulator: data race on shared memory
//
// Random graphs through it: large ones (staged, register-tiled, on tensor
// cores) with f16/bf16 islands, and the default stream.
// RUN: env FUSE_DIFF_LOWER_CMD="%fuse_opt --fuse-test-emulate-gpu" %python %fuse_src/utils/fuse-random-test --large --mixed-precision --start 3000 --count 40 --jobs 2 --batch 5 --fuse-opt %fuse_opt --no-minimize --extra-libs %gpu_emulator_libs | FileCheck %s --check-prefix=RANDOM
// RUN: env FUSE_DIFF_LOWER_CMD="%fuse_opt --fuse-test-emulate-gpu" %python %fuse_src/utils/fuse-random-test --start 300 --count 60 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize --extra-libs %gpu_emulator_libs | FileCheck %s --check-prefix=RANDOM
// RANDOM: random graphs: {{[0-9]+}} compared, 0 failed
