// The CPU's register blocks (fuse-vectorize-tiles under --fuse-lower-to-cpu):
//  * a matmul tile's B (a slice of a wider weight, rows not contiguous) is
//    copied into a contiguous tile before the blocks read it (PACK; not with
//    pack=false, NOPACK), and each reduction step is one fused multiply-add
//    (the pipeline's default fma=true);
//  * a depthwise convolution's blocks are pixels by channels, reading one
//    row of channels of the filter per step (a vector load, broadcast) with
//    the accumulators loop-carried, and its bias and ReLU applied to each
//    block's accumulators before its store (DW);
//  * a padded window's copy into its tile is a loop nest, not a call to the
//    runtime's element-by-element memrefCopy (COPY);
//  * rows with no divisor up to block-rows (the 7 pixels of a 7x7 output
//    row) are blocked 7 at a time by one vector of columns instead of one
//    row by two (SEVEN);
//  * columns are whole vectors where the range has such a divisor: 88
//    filters (8 x 11) in blocks of 8, not 11, a vector and a remainder per
//    multiply-add, the rows then 7 by one vector as above (WHOLE);
//  * columns with no such divisor are split into whole vectors and powers
//    of two below one vector: 20 filters as 16 + 4, 12 depthwise channels
//    as 8 + 4, never a vector of 20 or 12 lanes (SPLIT);
//  * a single row (a matrix-vector product) spends the accumulators of
//    block-rows rows on columns, in a power of two of vectors: a tile of
//    100 columns as blocks of 64, 32 and 4, not 6 of 16 and one of 4 (GEMV);
//  * a reduction longer than reduction-chunk runs in chunks outside the
//    blocks, each block's pass reading a panel of B that stays in L1
//    (256 steps as 2 x 128, checked with PACK).
// Values: against the unfused program (NUM), and bit for bit without fused
// multiply-adds (EXACT).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu="block-cols=16 block-rows=4 reduction-chunk=128" -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PACK,DW,SEVEN,WHOLE,SPLIT,GEMV,EPI
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu="block-cols=16 block-rows=4 reduction-chunk=128 pack=false" -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPACK
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu | FileCheck %s --check-prefix=COPY
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,depthwise,seven,whole,split,gemv,epilogue -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,depthwise,seven,whole,split,gemv,epilogue -p "--fuse-ops" --lower="--fuse-lower-to-cpu='fma=false reassociate=false approximate-math=false'" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// NUM: fuse-diff: OK 8 outputs
// EXACT: fuse-diff: OK 8 outputs, {{[0-9]+}} values, max abs err 0, max rel err 0

// PACK-LABEL: func.func @matmul
//       PACK:   scf.forall
//       PACK:     %[[PACKED:.*]] = scf.for {{.*}} -> (tensor<1x256x64xf32>)
//       PACK:       vector.transfer_read %{{.*}} : tensor<1x256x512xf32>, vector<1x1x32xf32>
//       PACK:       vector.transfer_write %{{.*}} : vector<1x1x32xf32>, tensor<1x256x64xf32>
//       PACK:     scf.for %{{.*}} = %c0 to %c256 step %c128
//       PACK:       scf.for %{{.*}} = %c0 to %c64 step %c4
//       PACK:         scf.for %{{.*}} = %c0 to %c64 step %c16
//       PACK:           scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       PACK:             vector.transfer_read %[[PACKED]]{{.*}} : tensor<1x256x64xf32>, vector<16xf32>
//       PACK:             math.fma %{{.*}}, %{{.*}}, %[[ACC]] : vector<4x16xf32>
// NOPACK-LABEL: func.func @matmul
//   NOPACK-NOT:   tensor<1x256x64xf32>
//       NOPACK:   vector.transfer_read %{{.*}} : tensor<1x256x512xf32>, vector<16xf32>
//       NOPACK:   math.fma
func.func @matmul(%a: tensor<1x128x256xf32>, %b: tensor<1x256x512xf32>) -> tensor<1x128x512xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x128x256xf32>, tensor<1x256x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x128x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x128x512xf32>) -> tensor<1x128x512xf32>
  return %r : tensor<1x128x512xf32>
}

// -----

// DW-LABEL: func.func @depthwise
//       DW:   scf.forall
//       DW:     scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
//       DW:       scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       DW:         %[[IN:.*]] = vector.transfer_read %{{.*}} : tensor<1x6x18x48xf32>, vector<4x16xf32>
//       DW:         %[[W:.*]] = vector.transfer_read %{{.*}} : tensor<3x3x48xf32>, vector<16xf32>
//       DW:         %[[WB:.*]] = vector.broadcast %[[W]] : vector<16xf32> to vector<4x16xf32>
//       DW:         math.fma %[[IN]], %[[WB]], %[[ACC]] : vector<4x16xf32>
// The bias and ReLU on the block's accumulators, not in a nest of their own:
//   DW-NOT:     scf.for
//       DW:     arith.addf
//   DW-NOT:     scf.for
//       DW:     arith.maximumf %{{.*}} : vector<
//   DW-NOT:     linalg.generic
//       DW:   fuse.yield
// COPY-LABEL: llvm.func @depthwise
//   COPY-NOT:   memrefCopy
//       COPY:   llvm.return
func.func @depthwise(%x: tensor<1x16x16x48xf32>, %w: tensor<3x3x48x1xf32>, %b: tensor<48xf32>) -> tensor<1x16x16x48xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x48xf32>, tensor<3x3x48x1xf32>, tensor<48xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x48xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x48xf32>) -> tensor<1x16x16x48xf32>
  return %r : tensor<1x16x16x48xf32>
}

// -----

// SEVEN-LABEL: func.func @seven
//       SEVEN:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<7x8xf32>
//   SEVEN-NOT:   vector<1x16xf32>
//       SEVEN:   fuse.yield
func.func @seven(%x: tensor<1x7x7x16xf32>, %w: tensor<32x3x3x16xf32>, %b: tensor<32xf32>) -> tensor<1x7x7x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x32xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
  return %r : tensor<1x7x7x32xf32>
}

// -----

// WHOLE-LABEL: func.func @whole
//       WHOLE:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<7x8xf32>
//   WHOLE-NOT:   vector<1x11xf32>
//       WHOLE:   fuse.yield
func.func @whole(%x: tensor<1x7x7x16xf32>, %w: tensor<88x3x3x16xf32>, %b: tensor<88xf32>) -> tensor<1x7x7x88xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<88x3x3x16xf32>, tensor<88xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x88xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x88xf32>) -> tensor<1x7x7x88xf32>
  return %r : tensor<1x7x7x88xf32>
}

// -----

// SPLIT-LABEL: func.func @split
//   SPLIT-NOT:   math.fma {{.*}} : vector<{{[0-9]+}}x{{20|12}}xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x16xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<{{[0-9]+}}x4xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4x8xf32>
//       SPLIT:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<{{[0-9]+}}x4xf32>
//   SPLIT-NOT:   math.fma {{.*}} : vector<{{[0-9]+}}x{{20|12}}xf32>
//       SPLIT:   fuse.yield
func.func @split(%x: tensor<1x8x8x16xf32>, %w: tensor<20x1x1x16xf32>, %b: tensor<20xf32>, %y: tensor<1x8x8x12xf32>, %dw: tensor<3x3x12x1xf32>, %db: tensor<12xf32>) -> (tensor<1x8x8x20xf32>, tensor<1x8x8x12xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<20x1x1x16xf32>, tensor<20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x20xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x20xf32>) -> tensor<1x8x8x20xf32>
  %d = tosa.depthwise_conv2d %y, %dw, %db, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x12xf32>, tensor<3x3x12x1xf32>, tensor<12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x12xf32>
  return %r, %d : tensor<1x8x8x20xf32>, tensor<1x8x8x12xf32>
}

// -----

// GEMV-LABEL: func.func @gemv
//   GEMV-NOT:   math.fma {{.*}} : vector<16xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<64xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<32xf32>
//       GEMV:   math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
//   GEMV-NOT:   math.fma {{.*}} : vector<16xf32>
//       GEMV:   fuse.yield
func.func @gemv(%a: tensor<1x1x64xf32>, %b: tensor<1x64x200xf32>) -> tensor<1x1x200xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1x64xf32>, tensor<1x64x200xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x200xf32>
  return %p : tensor<1x1x200xf32>
}

// -----

// A 1x1 convolution's bias, residual add and ReLU on its register blocks:
// each block's accumulators start from the bias, and after the reduction
// the residual add and the clamp apply to them before the block's one
// store; no pass over the tile before or after the blocks (EPI).
// EPI-LABEL: func.func @epilogue
//       EPI:   scf.forall
//       EPI:     scf.for %{{.*}} = %c0 to %c8 step %c4
//   EPI-NEXT:       scf.for %{{.*}} = %c0 to %c32 step %c16
//       EPI:         %[[BIAS:.*]] = vector.transfer_read %{{.*}} : tensor<32xf32>, vector<16xf32>
//       EPI:         %[[ROWS:.*]] = vector.broadcast %[[BIAS]] : vector<16xf32> to vector<1x1x4x16xf32>
//       EPI:         %[[INIT:.*]] = vector.shape_cast %[[ROWS]] : vector<1x1x4x16xf32> to vector<4x16xf32>
//       EPI:         %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c24 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (vector<4x16xf32>)
//       EPI:           math.fma
//       EPI:         %[[BLOCK:.*]] = vector.broadcast %[[SUM]] : vector<4x16xf32> to vector<1x1x4x16xf32>
//       EPI:         %[[RES:.*]] = vector.transfer_read %{{.*}} : tensor<1x8x8x32xf32>, vector<1x1x4x16xf32>
//       EPI:         %[[ADD:.*]] = arith.addf %[[BLOCK]], %[[RES]] : vector<1x1x4x16xf32>
//       EPI:         %[[MIN:.*]] = arith.minimumf %[[ADD]]
//       EPI:         %[[MAX:.*]] = arith.maximumf %[[MIN]]
//       EPI:         vector.transfer_write %[[MAX]], %{{.*}} {in_bounds = [true, true, true, true]}
//  EPI-NEXT:         scf.yield
//  EPI-NEXT:       }
//  EPI-NEXT:       scf.yield
//  EPI-NEXT:     }
//  EPI-NEXT:     scf.forall.in_parallel
func.func @epilogue(%x: tensor<1x8x8x24xf32>, %w: tensor<32x1x1x24xf32>, %b: tensor<32xf32>, %res: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x24xf32>, tensor<32x1x1x24xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x32xf32>
  %s = tosa.add %c, %res : (tensor<1x8x8x32xf32>, tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
