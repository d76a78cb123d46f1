// A concat of many parts lowers in near-linear time: one-shot
// bufferization's analysis is cubic in the length of an insert_slice chain
// (llvm/llvm-project#81959; 125 parts took 21 s, 2,000 did not finish in
// 120 s), so fuse-insert-chains-to-buffer writes long chains into their
// buffer first, and fuse-merge-group-nests merges at most 32 nests per
// loop. 2,000 parts: about 3 s fused, 0.6 s unfused (scaling in
// docs/Reliability.md). 64 parts (a third computed in place) match the
// unfused program on the CPU and through the GPU lowering.
// RUN: %python %S/Inputs/gen_large.py concat 2000 > %t.2000.mlir
// RUN: fuse-opt %t.2000.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu -o /dev/null
// RUN: fuse-opt %t.2000.mlir --fuse-lower-to-cpu -o /dev/null
// RUN: %python %S/Inputs/gen_large.py concat 64 > %t.64.mlir
// RUN: fuse-opt %t.64.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-insert-chains-to-buffer -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: %fuse-diff %t.64.mlir -p "--fuse-ops" | FileCheck %s
// RUN: %fuse-diff %t.64.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s
// CHAIN-COUNT-64: bufferization.materialize_in_destination
// CHAIN-NOT: tensor.insert_slice {{.*}} into {{.*}} tensor<64x8xf32>
// CHECK: fuse-diff: OK
