// Each group's tiles as an OpenMP worksharing loop
// (--fuse-lower-to-cpu, parallel by default; min-parallel-work=0 forks every
// nest of two tiles or more), run with LLVM's OpenMP runtime and
// compared with the unfused program.
// REQUIRES: libomp
//
// RUN: fuse-opt %examples/conv_bn_relu.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=min-parallel-work=0 | FileCheck %s --check-prefix=IR
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=min-parallel-work=0 --extra-libs %libomp | FileCheck %s --check-prefix=CONV
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=min-parallel-work=0 --extra-libs %libomp | FileCheck %s --check-prefix=TRANSFORMER
// RUN: %fuse-diff %examples/inception_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=min-parallel-work=0 --extra-libs %libomp | FileCheck %s --check-prefix=INCEPTION
//
// One parallel region for the one group.
// (The OpenMP dialect becomes runtime calls when translated to LLVM IR.)
// IR-COUNT-1: omp.parallel
// IR-NOT: omp.parallel
// IR: omp.wsloop
//
// The default lowering is the parallel one, with nests too small to pay for
// a fork on the calling thread (fuse-thread-tiles): the 256x2048 LayerNorm
// bench model's one nest forks, the transformer block's seven nests are all
// small. With min-parallel-work=0 every nest of two tiles or more forks;
// with 40000, one of the Inception block's four (their estimates are some
// 3000, 10^4, 3 * 10^4 and 6 * 10^4).
// RUN: fuse-opt %fuse_src/bench/models/layernorm_gelu_256x2048.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-COUNT-1: omp.parallel
// DEFAULT-NOT: omp.parallel
// RUN: fuse-opt %examples/inception_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=min-parallel-work=40000 | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %examples/transformer_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu | FileCheck %s --check-prefix=SMALL
// SMALL-NOT: omp.parallel
// RUN: fuse-opt %examples/transformer_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=min-parallel-work=0 | FileCheck %s --check-prefix=SMALL-ALL
// SMALL-ALL: omp.parallel
// RUN: fuse-opt %examples/transformer_block.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=parallel=false | FileCheck %s --check-prefix=SERIAL
// SERIAL-NOT: omp.
//
// Some nests forked, some not, against the one-thread lowering:
// RUN: %fuse-diff -p "--fuse-ops" --ref-lower=--fuse-lower-to-cpu=parallel=false --lower=--fuse-lower-to-cpu=min-parallel-work=40000 --extra-libs %libomp --repeat 3 --rtol 0 --atol 0 --threads 2 %examples/inception_block.mlir | FileCheck %s --check-prefix=EXACT
//
// The OpenMP lowering with every tile loop on the cores
// (min-parallel-work=0) against the one-thread lowering of the same fused
// program (parallel=false: no OpenMP), value for value (printed to 6
// significant digits; --rtol 0 --atol 0), at 2 and 4 threads, three runs
// each: every example, the bench models and a Swin-T window attention (its
// QKV projection lowered as one nest writing Q, K and V into parts of one
// buffer and a nest scaling Q's part).
// DEFINE: %{par} = %fuse-diff -p "--fuse-ops" --ref-lower=--fuse-lower-to-cpu=parallel=false --lower=--fuse-lower-to-cpu=min-parallel-work=0 --extra-libs %libomp --repeat 3 --rtol 0 --atol 0
// RUN: %{par} --threads 2 %examples/conv_bn_relu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/conv_bn_relu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/inception_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/inception_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/mha_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/mha_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/mlp_gelu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/mlp_gelu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/nchw_resnet_stage.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/nchw_resnet_stage.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/resnet_bottleneck.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/resnet_bottleneck.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %examples/transformer_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %examples/transformer_block.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %fuse_src/bench/models/softmax_512x1024.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %fuse_src/bench/models/softmax_512x1024.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %fuse_src/bench/models/layernorm_gelu_256x2048.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %fuse_src/bench/models/layernorm_gelu_256x2048.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %fuse_src/bench/models/tokens197_mlp_gelu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %fuse_src/bench/models/tokens197_mlp_gelu.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 2 %S/Inputs/swin-window-attention.mlir | FileCheck %s --check-prefix=EXACT
// RUN: %{par} --threads 4 %S/Inputs/swin-window-attention.mlir | FileCheck %s --check-prefix=EXACT
// EXACT: fuse-diff: OK {{.*}} max abs err 0, max rel err 0
//
// Random graphs (utils/fuse-random-test) the same way, exactly (three runs
// each), plain and large:
// RUN: %python %fuse_src/utils/fuse-random-test --parallel-threads 2 --libomp %libomp --start 600 --count 60 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize | FileCheck %s --check-prefix=PAR
// RUN: %python %fuse_src/utils/fuse-random-test --parallel-threads 4 --libomp %libomp --start 660 --count 60 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize | FileCheck %s --check-prefix=PAR
// RUN: %python %fuse_src/utils/fuse-random-test --large --parallel-threads 4 --libomp %libomp --start 300 --count 30 --jobs 2 --batch 5 --fuse-opt %fuse_opt --no-minimize | FileCheck %s --check-prefix=PAR
// PAR: random graphs: {{[0-9]+}} compared, 0 failed
//
// Tile loops merge only when neither reads what the other writes. The QKV
// nest (Q, K, V into one 3x512 buffer, however it is tiled) and the nest
// scaling Q (which reads that buffer's first part through a linalg.generic)
// stay two
// loops: merged, their tiles would run in any order on the threads (the
// race that made Swin-T's outputs change from call to call; the effects of
// linalg ops on buffers were not seen, as they also have recursive ones).
// RUN: fuse-opt %S/Inputs/swin-window-attention.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=parallel=true --mlir-print-ir-after=fuse-merge-group-nests -o /dev/null 2>&1 | FileCheck %s --check-prefix=QKV
// QKV: %[[QKV:[a-z0-9_]+]] = memref.alloc() {{.*}} : memref<3x512xf32>
// QKV-NEXT: scf.forall
// QKV-NOT: scf.forall
// QKV: memref.subview %[[QKV]]
// QKV: } {fuse.group_nest = 1 : i64{{.*}}}
// QKV: memref.subview %[[QKV]][0, 0] [1, 512]
// QKV: scf.forall
// CONV: fuse-diff: OK 1 outputs, 4096 values
// TRANSFORMER: fuse-diff: OK 1 outputs, 256 values
// INCEPTION: fuse-diff: OK 1 outputs, 1536 values
