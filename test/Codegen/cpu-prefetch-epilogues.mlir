// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu=reduction-chunk=96 -mlir-print-ir-after=fuse-prefetch-epilogues -o /dev/null 2>&1 | FileCheck %s
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-prefetch-epilogues -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="prefetch-epilogues=false prefetch-streams=false" -mlir-print-ir-after=convert-vector-to-scf -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-copies-to-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=WINDOW
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry residual -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: not fuse-opt %s --fuse-prefetch-epilogues=max-rows=-1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --fuse-prefetch-epilogues=max-rows=5000 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: fuse-prefetch-epilogues: max-rows must be in [0, 1024]
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry residual -p "--fuse-ops" --exact --ref-lower=--fuse-lower-to-cpu=prefetch-epilogues=false | FileCheck %s --check-prefix=NUM

// A 3x3 convolution with a residual add and ReLU, in tiles of one output
// row, register blocks of 8 pixels x 32 channels. Its reduction runs in
// chunks of 96 steps (one filter row; `reduction-chunk=96`, the host's
// L2-sized chunk would keep its 288 steps whole), the first two in a loop,
// the last peeled: the
// first chunk's blocks store partial sums they read back, nothing to ask
// for; the last chunk's blocks add the residual (%arg3) and store the
// result, so each block asks for the residual's 8 rows of 2 cache lines
// (read) and the result's (write) before its reduction loop
// (fuse-prefetch-epilogues; none with prefetch-epilogues=false, OFF).
// With the host's chunk the reduction is one (its window loops carry the
// accumulators), and each block asks for the same lines before it (WHOLE).
// The tile's padded window (3 input rows, 18 pixels wide) takes its rows
// of 16 pixels x 32 channels as 512 contiguous floats, copied in vectors
// of 32 (fuse-copies-to-linalg with the CPU's vector-bytes, WINDOW).
// Values are unchanged, exactly (NUM).

// CHECK-LABEL: func.func @residual
//       CHECK:   scf.parallel
//       CHECK:     vector.transfer_read %[[SUMS:alloc_[0-9]+]]{{\[}}{{.*}} vector<8x32xf32>
//   CHECK-NOT:     memref.prefetch
//       CHECK:     scf.for {{.*}} -> (vector<8x32xf32>)
//       CHECK:     vector.transfer_write {{.*}}, %[[SUMS]]
//       CHECK:     vector.transfer_read %[[SUMS]]
//  CHECK-NEXT:     memref.prefetch %arg3[%c0, %arg4, %[[ROW:.*]], %c0], read, locality<3>, data
//       CHECK:     memref.prefetch %arg3[%c0, %arg4, %[[ROW]], %c16{{.*}}], read, locality<3>, data
// CHECK-COUNT-14:  memref.prefetch %arg3{{.*}}, read, locality<3>, data
// CHECK-COUNT-16:  memref.prefetch %{{.*}}, write, locality<3>, data
//   CHECK-NOT:     memref.prefetch
//       CHECK:     scf.for {{.*}} -> (vector<8x32xf32>)
//       CHECK:     vector.transfer_read %arg3
//       CHECK:     vector.transfer_write

// WHOLE-LABEL: func.func @residual
//       WHOLE:   scf.parallel
// WHOLE-COUNT-16:  memref.prefetch %arg3{{.*}}, read, locality<3>, data
// WHOLE-COUNT-16:  memref.prefetch %{{.*}}, write, locality<3>, data
//   WHOLE-NEXT:   scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>)
//   WHOLE-NEXT:     scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>)

// OFF-LABEL: func.func @residual
//   OFF-NOT:   memref.prefetch

// WINDOW-LABEL: func.func @residual
//       WINDOW:   memref.collapse_shape {{.*}} into memref<1x?x512xf32, strided<[8192, 512, 1], offset: ?>>
//       WINDOW:   memref.collapse_shape {{.*}} into memref<1x?x512xf32, strided<[1728, 576, 1], offset: ?>>
//       WINDOW:   scf.for {{.*}} to %c512{{.*}} step %c32
//       WINDOW:     vector.transfer_read {{.*}} vector<32xf32>
//   WINDOW-NOT:   linalg.copy

// NUM: fuse-diff: OK 1 outputs
func.func @residual(%x: tensor<1x16x16x32xf32>, %w: tensor<32x3x3x32xf32>, %b: tensor<32xf32>, %r: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %s = tosa.add %c, %r : (tensor<1x16x16x32xf32>, tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %y = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %y : tensor<1x16x16x32xf32>
}
