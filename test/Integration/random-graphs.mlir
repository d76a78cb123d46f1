// Differential testing on random graphs (utils/fuse-random-test): a fixed
// slice of seeds, each graph run fused (--fuse-ops, then one loop nest per
// group on the CPU) and unfused (upstream lowering) on seeded inputs, and
// --fuse-ops run twice must change nothing. The long run is
// bench/random-graphs.sh (docs/Reliability.md).
// RUN: %python %fuse_src/utils/fuse-random-test --start 0 --count 300 --jobs 2 --batch 10 --fuse-opt %fuse_opt --no-minimize | FileCheck %s
// CHECK: random graphs: 300 compared, 0 failed
