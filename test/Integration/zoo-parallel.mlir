// REQUIRES: libomp, torch, onnx
// Zoo models through the OpenMP CPU lowering and the one-thread lowering,
// equal value for value at 2 and 4 threads, three runs each
// (bench/zoo/parallel.sh; the whole zoo is its default, too slow here):
// ShuffleNetV2, whose channel shuffles are split copies written as pieces
// of one buffer by tile loops that merge.
// RUN: env FUSE_ZOO_DIR=%t FUSE_OPT=%fuse_opt bash %fuse_src/bench/zoo/parallel.sh shufflenet_v2_x1_0 | FileCheck %s
// CHECK: shufflenet_v2_x1_0, 2 threads: fuse-diff: OK {{.*}} max abs err 0, max rel err 0
// CHECK: shufflenet_v2_x1_0, 4 threads: fuse-diff: OK {{.*}} max abs err 0, max rel err 0
