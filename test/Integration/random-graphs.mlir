// Differential testing on random graphs (utils/fuse-random-test): a fixed
// slice of seeds, each graph run fused (--fuse-ops, then one loop nest per
// group on the CPU) and unfused (upstream lowering) on seeded inputs, and
// --fuse-ops run twice must change nothing. The long run is
// bench/random-graphs.sh (docs/Reliability.md).
// RUN: %python %fuse_src/utils/fuse-random-test --start 0 --count 300 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s
// CHECK: random graphs: 300 compared, 0 failed
//
// (--timeout 240: seconds per batch of graphs, generous so that a loaded
// 2-core CI machine does not fail on time; a hang still fails.)
//
// The same graphs through the GPU lowering up to its launches, each launch
// run on the CPU (fuse-test-lower-to-cpu-via-gpu, see gpu-emulated.mlir):
// RUN: env FUSE_DIFF_LOWER_CMD="%fuse_opt --fuse-test-lower-to-cpu-via-gpu" %python %fuse_src/utils/fuse-random-test --start 300 --count 200 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=GPU
// GPU: random graphs: 200 compared, 0 failed
//
// Another stream of graphs with f16/bf16 islands (casts, elementwise ops,
// reductions, matmuls and convolutions in the low type), on both paths,
// compared within 1e-2 (an ulp of bf16 is 2^-8):
// RUN: %python %fuse_src/utils/fuse-random-test --mixed-precision --start 0 --count 150 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=MIXED
// MIXED: random graphs: 150 compared, 0 failed
// RUN: env FUSE_DIFF_LOWER_CMD="%fuse_opt --fuse-test-lower-to-cpu-via-gpu" %python %fuse_src/utils/fuse-random-test --mixed-precision --start 150 --count 100 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=MIXED-GPU
// MIXED-GPU: random graphs: 100 compared, 0 failed
//
// A third stream with dims up to 64, so that the GPU tiles are staged and
// register-tiled (compared within 1e-3: longer sums, reassociated), alone
// and with the f16/bf16 islands:
// RUN: %python %fuse_src/utils/fuse-random-test --large --start 0 --count 100 --jobs 2 --batch 5 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=LARGE
// LARGE: random graphs: 100 compared, 0 failed
// RUN: env FUSE_DIFF_LOWER_CMD="%fuse_opt --fuse-test-lower-to-cpu-via-gpu" %python %fuse_src/utils/fuse-random-test --large --start 100 --count 100 --jobs 2 --batch 5 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=LARGE-GPU
// LARGE-GPU: random graphs: 100 compared, 0 failed
// RUN: %python %fuse_src/utils/fuse-random-test --large --mixed-precision --start 0 --count 100 --jobs 2 --batch 5 --fuse-opt %fuse_opt --no-minimize --timeout 240 | FileCheck %s --check-prefix=LARGE-MIXED
// LARGE-MIXED: random graphs: 100 compared, 0 failed
