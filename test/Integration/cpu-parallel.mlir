// Each group's tiles as an OpenMP worksharing loop
// (--fuse-lower-to-cpu=parallel=true), run with LLVM's OpenMP runtime and
// compared with the unfused program.
// REQUIRES: libomp
//
// RUN: fuse-opt %examples/conv_bn_relu.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=parallel=true | FileCheck %s --check-prefix=IR
// RUN: %fuse-diff %examples/conv_bn_relu.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=parallel=true --extra-libs %libomp | FileCheck %s --check-prefix=CONV
// RUN: %fuse-diff %examples/transformer_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=parallel=true --extra-libs %libomp | FileCheck %s --check-prefix=TRANSFORMER
// RUN: %fuse-diff %examples/inception_block.mlir -p "--fuse-ops" --lower=--fuse-lower-to-cpu=parallel=true --extra-libs %libomp | FileCheck %s --check-prefix=INCEPTION
//
// One parallel region for the one group.
// (The OpenMP dialect becomes runtime calls when translated to LLVM IR.)
// IR-COUNT-1: omp.parallel
// IR-NOT: omp.parallel
// IR: omp.wsloop
// CONV: fuse-diff: OK 1 outputs, 4096 values
// TRANSFORMER: fuse-diff: OK 1 outputs, 256 values
// INCEPTION: fuse-diff: OK 1 outputs, 1536 values
