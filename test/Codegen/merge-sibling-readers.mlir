// Elementwise ops that each read the whole result of one contraction are
// merged into one op with a result each before tiling (fuse-tile-groups,
// mergeSiblingReaders): as separate roots, each nest recomputed the
// contraction. DenseNet's pattern (Inputs/gen_dense_block.py): a layer's
// convolution is normalized (multiply, add, ReLU) for each later layer of
// the block and written into its concatenation; DenseNet-121's 24-layer
// block recomputed its first convolution 24 times (4.7x slower than ONNX
// Runtime; docs/Performance.md, nineteenth session).
//
// RUN: %python %S/Inputs/gen_dense_block.py 4 > %t.mlir
// RUN: fuse-opt %t.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu --mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s
// RUN: %fuse-diff %t.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %t.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=NUM
// (The GPU lowering does not merge them: its nests keep recomputing.)
//
// The first layer's group: the 1x1 convolution's nest (its result is also
// returned), then one nest for the three later layers' normalizations
// (three results), not three nests.
// CHECK: %{{.*}}:4 = fuse.group
// CHECK:   scf.forall
// CHECK:     linalg.generic {{.*}}"reduction"
// CHECK:   %{{.*}}:3 = scf.forall
// CHECK:     %{{.*}}:3 = linalg.generic
// CHECK-NOT: scf.forall (
// CHECK: fuse.yield
// NUM: fuse-diff: OK 1 outputs
