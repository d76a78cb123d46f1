// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="block-rows=8 block-cols=32" -mlir-print-ir-after=fuse-prefetch-streams -mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="block-rows=8 block-cols=32 prefetch-epilogues=false" -mlir-print-ir-after=fuse-prefetch-streams -mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="block-rows=8 block-cols=32 prefetch-epilogues=false prefetch-streams=false" -mlir-print-ir-after=convert-vector-to-scf -mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not fuse-opt %s --fuse-prefetch-streams=distance=0 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --fuse-prefetch-streams=distance=2000000 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: fuse-prefetch-streams: distance must be in [1, 1048576] bytes
// RUN: not fuse-opt %s --fuse-prefetch-streams=min-stream-bytes=-1 2>&1 | FileCheck %s --check-prefix=BAD-MIN
// BAD-MIN: error: fuse-prefetch-streams: min-stream-bytes must be in [0, 1048576]
// RUN: not fuse-opt %s --fuse-prefetch-streams=max-panel-bytes=67108865 2>&1 | FileCheck %s --check-prefix=BAD-PANEL
// BAD-PANEL: error: fuse-prefetch-streams: max-panel-bytes must be in [0, 67108864] bytes
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="block-rows=8 block-cols=32 prefetch-epilogues=false prefetch-streams=false" -mlir-print-ir-after=fuse-plan-buffers -mlir-disable-threading -o /dev/null 2>&1 | sed -n '/^func.func @column/,/^}/p' > %t.column.mlir
// RUN: fuse-opt %t.column.mlir --fuse-prefetch-streams=max-panel-bytes=32768 | FileCheck %s --check-prefix=PANEL
// RUN: fuse-opt %t.column.mlir --fuse-prefetch-streams=max-panel-bytes=65536 | FileCheck %s --check-prefix=PANEL-AT
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu="block-rows=8 block-cols=32 prefetch-epilogues=false prefetch-streams=false" -mlir-print-ir-after=fuse-plan-buffers -mlir-disable-threading -o /dev/null 2>&1 | sed -n '/^func.func @short/,/^}/p' | fuse-opt --fuse-prefetch-streams=min-stream-bytes=0 | FileCheck %s --check-prefix=ALL
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry gemv,column,conv -p "--fuse-ops" --exact --ref-lower=--fuse-lower-to-cpu=prefetch-streams=false | FileCheck %s --check-prefix=NUM

// fuse-prefetch-streams: a register block's reduction loop reads a row of
// B every step; the pass asks for the lines the same reads touch 4096
// bytes of them later (the default distance).
//
// @gemv: 16 tokens by a 512 x 256 weight, tiles of 8 rows by 64 columns,
// blocks of 4 x 64: each of the 512 steps reads 64 floats of the weight
// (256 bytes), so the prefetches are 16 steps ahead, at most the last step
// (511), one per cache line of the row (4), before the row's read.
//
// @column: the same with a weight 1024 floats wide: each step moves 4 KB,
// so every step's lines fall in the same L1 sets, and 16 steps of them
// would evict the lines in use. Each step asks instead for the same row of
// the next 64-column panel (the loop around the block's that moves the
// read: its column one step later, at most 960, the buffer's last panel):
// by that panel's turn its 64 KB are in L2 (CHECK). Not where a panel is
// more than max-panel-bytes (PANEL, 32 KB); at it, yes (PANEL-AT, 64 KB,
// the pass alone on the same buffers).
//
// @conv: a 3x3 convolution over 256 channels, blocks of 8 pixels x 32
// filters: the channel loop (256 steps, 128 bytes of the filter each)
// asks for 32 steps ahead, at most channel 255; the window loops around
// it read nothing themselves and get nothing.
//
// @short: the same over 64 channels: the channel loop's whole stream, 8 KB,
// is at most min-stream-bytes (16 KB), and L1 keeps it for the next row of
// blocks: no prefetches (SHORT, the epilogues' own off); with
// min-stream-bytes=0 it gets them (ALL, through the pass alone on the
// lowering's buffers). With prefetch-streams=false there are none anywhere
// (OFF). Values are unchanged, exactly (NUM).

// CHECK-LABEL: func.func @gemv
//       CHECK:   scf.for %[[K:.*]] = %c0 to %c512 step %c1 iter_args(%{{.*}}) -> (vector<4x64xf32>)
//       CHECK:     %[[NEXT:.*]] = arith.addi %[[K]], %c16{{.*}} : index
//       CHECK:     %[[AHEAD:.*]] = arith.minsi %[[NEXT]], %c511{{.*}} : index
//   CHECK-NOT:     vector.transfer_read %arg1
//       CHECK:     memref.prefetch %arg1[%c0, %[[AHEAD]], %[[N:.*]]], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[AHEAD]], %{{.*}}], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[AHEAD]], %{{.*}}], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[AHEAD]], %{{.*}}], read, locality<3>, data
//  CHECK-NEXT:     vector.transfer_read %arg1[%c0, %[[K]], %[[N]]]{{.*}} vector<64xf32>

// CHECK-LABEL: func.func @column
//       CHECK:   scf.for %[[N:.*]] = %c0 to %c256 step %c64 {
//       CHECK:   scf.for %[[K:.*]] = %c0 to %c256 step %c1 iter_args(%{{.*}}) -> (vector<4x64xf32>)
//       CHECK:     %[[COL:.*]] = affine.apply {{.*}}[%{{.*}}, %[[N]]]
//       CHECK:     %[[NEXTN:.*]] = arith.addi %[[N]], %c64{{.*}} : index
//       CHECK:     %[[NEXT:.*]] = affine.apply {{.*}}[%{{.*}}, %[[NEXTN]]]
//       CHECK:     %[[LAST:.*]] = arith.minsi %[[NEXT]], %c960{{.*}} : index
//       CHECK:     %[[AT:.*]] = arith.maxsi %[[LAST]], %c0{{.*}} : index
//  CHECK-NEXT:     memref.prefetch %arg1[%c0, %[[K]], %[[AT]]], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[K]], %{{.*}}], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[K]], %{{.*}}], read, locality<3>, data
//       CHECK:     memref.prefetch %arg1[%c0, %[[K]], %{{.*}}], read, locality<3>, data
//  CHECK-NEXT:     vector.transfer_read %arg1[%c0, %[[K]], %[[COL]]]{{.*}} vector<64xf32>

// PANEL-LABEL: func.func @column
//   PANEL-NOT:   memref.prefetch %arg1
//       PANEL:   return
// PANEL-AT-LABEL: func.func @column
//  PANEL-AT-COUNT-4: memref.prefetch %arg1

// CHECK-LABEL: func.func @conv
//       CHECK:   scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>) {
//  CHECK-NEXT:     scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>) {
//  CHECK-NEXT:       scf.for %[[C:.*]] = %c0 to %c256 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>) {
//       CHECK:         %[[NEXT:.*]] = arith.addi %[[C]], %c32{{.*}} : index
//       CHECK:         %[[AHEAD:.*]] = arith.minsi %[[NEXT]], %c255{{.*}} : index
//       CHECK:         memref.prefetch %[[F:.*]][%{{.*}}, %{{.*}}, %[[AHEAD]], %c0], read, locality<3>, data
//       CHECK:         memref.prefetch %[[F]][%{{.*}}, %{{.*}}, %[[AHEAD]], %c16{{.*}}], read, locality<3>, data
//  CHECK-NEXT:         vector.transfer_read %[[F]][%{{.*}}, %{{.*}}, %[[C]], %c0]{{.*}} vector<32xf32>

// SHORT-LABEL: func.func @short
//   SHORT-NOT:   memref.prefetch
//       SHORT:   return

// ALL-LABEL: func.func @short
//       ALL:   scf.for %[[C:.*]] = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (vector<8x32xf32>) {
//       ALL:     %[[AHEAD:.*]] = arith.minsi %{{.*}}, %c63{{.*}} : index
//       ALL:     memref.prefetch %{{.*}}[%{{.*}}, %{{.*}}, %[[AHEAD]], %c0], read, locality<3>, data

// OFF-NOT: memref.prefetch

// NUM: fuse-diff: OK 3 outputs

func.func @gemv(%a: tensor<1x16x512xf32>, %w: tensor<1x512x256xf32>, %r: tensor<1x16x256xf32>) -> tensor<1x16x256xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x512xf32>, tensor<1x512x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x256xf32>
  %s = tosa.add %m, %r : (tensor<1x16x256xf32>, tensor<1x16x256xf32>) -> tensor<1x16x256xf32>
  return %s : tensor<1x16x256xf32>
}

func.func @column(%a: tensor<1x16x256xf32>, %w: tensor<1x256x1024xf32>, %r: tensor<1x16x1024xf32>) -> tensor<1x16x1024xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %w, %zp, %zp : (tensor<1x16x256xf32>, tensor<1x256x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x1024xf32>
  %s = tosa.add %m, %r : (tensor<1x16x1024xf32>, tensor<1x16x1024xf32>) -> tensor<1x16x1024xf32>
  return %s : tensor<1x16x1024xf32>
}

func.func @conv(%x: tensor<1x8x8x256xf32>, %w: tensor<32x3x3x256xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x256xf32>, tensor<32x3x3x256xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}

func.func @short(%x: tensor<1x8x8x64xf32>, %w: tensor<32x3x3x64xf32>, %b: tensor<32xf32>) -> tensor<1x8x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x64xf32>, tensor<32x3x3x64xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
  return %c : tensor<1x8x8x32xf32>
}
