// The CPU lowering tiles a matmul group in squares of its output (at most
// TilePolicy::forCpu().contractionTile a side), so that the tile's slices of
// both operands stay in cache while it reuses them; in rows (the policy
// before, still `contraction-tile=0`), each tile streamed all of B. A
// matmul with more rows than that side has squares twice as wide
// (wide-side-factor=2 in the CPU lowering), so that fewer rows of tiles
// read B again: the 256x512 result in 2 x 4 tiles of 128 x 128 with both
// operands computed at run time (B packed tile by tile, @matmul) and with
// B a constant (a weight laid out at compile time, @matmul_weight; 4 x 8
// tiles of 64 x 64 until the twenty-fourth session), or 32 tiles of 8 rows
// in rows. A matmul of at most one side of rows keeps the side (48 rows:
// 48 x 64 tiles, @few_rows_weight): it is one row of tiles anyway.
// A convolution with output channels is tiled as a matmul of its output
// pixels by its filters (a row of 16 pixels by 64 filters here), so that a
// tile's filter slice stays in cache for all its pixels. Output rows
// shorter than the side (7 pixels) take all rows of the image where they
// fit in four sides (49 pixels by 64 filters), not a wider N (7 pixels by
// 128 filters: widen-rows-first=false, NARROW); each tile then reads its
// own 64 filters, which it transposes itself (@seven_rows). Rows of 28
// pixels, which do not all fit, take the most that do (7 rows, 196 pixels
// by 64 filters, each padded window a static box; @some_rows), not one row
// by 128 filters (NARROW); four tiles read each 64 filters, transposed once
// per call before the nest. So do rows of exactly one side (64 pixels: 4
// rows, @side_rows), whose window copied three input rows per output row.
// N takes whole register blocks of 32 where it can (96 filters: 32, not
// 48; @three_vectors). Rows that no count up to the limit divides (17
// pixels, Inception-v3's 17 x 17 stage: only 1 or 17 rows) take a partial
// last tile where the filter is 2 MB or more (streamedWeightBytes, more
// than L2 keeps): 15 + 2 rows by 64 filters, the filter read twice, not
// once per row (@prime_rows, 2.4 MB); a smaller filter stays in L2 across
// one-row tiles, which keep it (@prime_rows_small; 17 of them, an odd
// count, so N halves: see @odd_rows_wide). The squares change
// no value: the reduction stays whole in each tile (EXACT, run against the
// unfused program by utils/fuse-diff, without fused multiply-adds).
// A contraction that every other root of its group reads is tiled as an
// only root is, in squares of its result's M and innermost N loops: ViT's
// fused Q, K and V projection, 256 x 64 . 64 x (3 x 256) written as
// 3 x 256 x 1 x 1 x 256 and read per head by the group's other roots, in
// 2 x 3 x 2 squares of 128 x 128, where it was tiled in rows that each read
// all of the weight (@qkv_heads).
//
// A contraction of few tiles, an odd number (49 pixels by 192 filters: 3
// tiles of 64), would leave one of two cores a tile more than the other:
// its N tile is the largest smaller one, two vectors wide, that gives an
// even number (6 tiles of 32; @odd_tiles). More tiles of an odd number
// (17 rows of 17 pixels, each one tile of all 192 filters: N widened) halve
// N where the halves are whole register blocks: 34 tiles of 96
// (@odd_rows_wide, Inception-v3's 1x7 convolutions; the CPU's
// halve-odd-tiles).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=SQUARES
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu=contraction-tile=0 -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups=contraction-tile=64 | FileCheck %s --check-prefix=NARROW
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,matmul_weight,few_rows_weight,conv,seven_rows,some_rows,side_rows,three_vectors,prime_rows,prime_rows_small,qkv_heads -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// SQUARES-LABEL: func.func @matmul
// SQUARES:       scf.forall ({{.*}}) = (0, 0) to (256, 512) step (128, 128)
// SQUARES-LABEL: func.func @matmul_weight
// SQUARES:       scf.forall ({{.*}}) = (0, 0) to (256, 512) step (128, 128)
// SQUARES-LABEL: func.func @few_rows_weight
// SQUARES:       scf.forall ({{.*}}) = (0, 0) to (48, 512) step (48, 64)
// SQUARES-LABEL: func.func @conv
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (16, 16, 64) step (1, 16, 64)
// SQUARES-LABEL: func.func @seven_rows
// SQUARES-NOT:   linalg.transpose
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (7, 7, 128) step (7, 7, 64)
// SQUARES:         linalg.transpose ins({{.*}} : tensor<64x3x3x16xf32>) outs({{.*}} : tensor<3x3x16x64xf32>) permutation = [1, 2, 3, 0]
// SQUARES:         linalg.conv_2d_nhwc_hwcf {{.*}} ins({{.*}} : tensor<1x9x9x16xf32>, tensor<3x3x16x64xf32>) outs({{.*}} : tensor<1x7x7x64xf32>)
// NARROW-LABEL:  func.func @seven_rows
// NARROW:        scf.forall ({{.*}}) = (0, 0, 0) to (7, 7, 128) step (1, 7, 128)
// NARROW:          linalg.conv_2d_nhwc_fhwc {{.*}} outs({{.*}} : tensor<1x1x7x128xf32>)
// SQUARES-LABEL: func.func @some_rows
// SQUARES:       linalg.transpose {{.*}} permutation = [1, 2, 3, 0]
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (28, 28, 128) step (7, 28, 64)
// SQUARES-NOT:     linalg.transpose
// SQUARES:         linalg.conv_2d_nhwc_hwcf {{.*}} ins({{.*}} : tensor<1x9x30x16xf32>, tensor<3x3x16x64xf32>) outs({{.*}} : tensor<1x7x28x64xf32>)
// NARROW-LABEL:  func.func @some_rows
// NARROW:        scf.forall ({{.*}}) = (0, 0, 0) to (28, 28, 128) step (1, 28, 128)
// SQUARES-LABEL: func.func @side_rows
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (64, 64, 128) step (4, 64, 64)
// SQUARES:         linalg.conv_2d_nhwc_hwcf {{.*}} ins({{.*}} : tensor<1x6x66x32xf32>, tensor<3x3x32x64xf32>) outs({{.*}} : tensor<1x4x64x64xf32>)
// SQUARES-LABEL: func.func @three_vectors
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (35, 35, 96) step (7, 35, 32)
// SQUARES-LABEL: func.func @prime_rows
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (15, 17, 256) step (15, 17, 64)
// SQUARES:         linalg.conv_2d_nhwc_hwcf {{.*}} outs({{.*}} : tensor<1x15x17x64xf32>)
// SQUARES:       scf.forall ({{.*}}) = (15, 0, 0) to (17, 17, 256) step (15, 17, 64)
// SQUARES:         linalg.conv_2d_nhwc_hwcf {{.*}} outs({{.*}} : tensor<1x2x17x64xf32>)
// SQUARES-LABEL: func.func @prime_rows_small
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (17, 17, 128) step (1, 17, 64)
// SQUARES-LABEL: func.func @qkv_heads
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (256, 3, 256) step (128, 1, 128)
// SQUARES:         linalg.generic {{.*}} outs({{.*}} : tensor<1x128x1x1x128xf32>)
// SQUARES-LABEL: func.func @odd_tiles
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (7, 7, 192) step (7, 7, 32)
// SQUARES-LABEL: func.func @odd_rows_wide
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (17, 17, 192) step (1, 17, 96)
// ROWS-LABEL:    func.func @matmul
// ROWS:          scf.forall ({{.*}}) = (0) to (256) step (8)
// EXACT: OK
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry odd_tiles,odd_rows_wide -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK

func.func @matmul(%a: tensor<1x256x64xf32>, %b: tensor<1x64x512xf32>) -> tensor<1x256x512xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x256x64xf32>, tensor<1x64x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  return %r : tensor<1x256x512xf32>
}

// -----

func.func @matmul_weight(%a: tensor<1x256x64xf32>) -> tensor<1x256x512xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x64x512xf32>}> : () -> tensor<1x64x512xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x256x64xf32>, tensor<1x64x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  return %r : tensor<1x256x512xf32>
}

// -----

func.func @few_rows_weight(%a: tensor<1x48x64xf32>) -> tensor<1x48x512xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x64x512xf32>}> : () -> tensor<1x64x512xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x48x64xf32>, tensor<1x64x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x48x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x48x512xf32>) -> tensor<1x48x512xf32>
  return %r : tensor<1x48x512xf32>
}

// -----

func.func @conv(%x: tensor<1x16x16x32xf32>, %w: tensor<64x3x3x32xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<64x3x3x32xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}

// -----

func.func @seven_rows(%x: tensor<1x7x7x16xf32>, %w: tensor<128x3x3x16xf32>, %b: tensor<128xf32>) -> tensor<1x7x7x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x16xf32>, tensor<128x3x3x16xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  return %r : tensor<1x7x7x128xf32>
}

// -----

func.func @some_rows(%x: tensor<1x28x28x16xf32>, %w: tensor<128x3x3x16xf32>, %b: tensor<128xf32>) -> tensor<1x28x28x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x28x28x16xf32>, tensor<128x3x3x16xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %r : tensor<1x28x28x128xf32>
}

// -----

// A row of exactly one side (64 pixels) takes rows too: 4 rows by 64
// filters, whose window copies 6 input rows, not three per output row.
func.func @side_rows(%x: tensor<1x64x64x32xf32>, %w: tensor<128x3x3x32xf32>, %b: tensor<128xf32>) -> tensor<1x64x64x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x64x64x32xf32>, tensor<128x3x3x32xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x64x64x128xf32>) -> tensor<1x64x64x128xf32>
  return %r : tensor<1x64x64x128xf32>
}

// -----

// 96 filters in tiles of 32, a register block's width, not 48 (three
// vectors, blocked one vector wide).
func.func @three_vectors(%x: tensor<1x35x35x16xf32>, %w: tensor<96x3x3x16xf32>, %b: tensor<96xf32>) -> tensor<1x35x35x96xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x35x35x16xf32>, tensor<96x3x3x16xf32>, tensor<96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x35x35x96xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x35x35x96xf32>) -> tensor<1x35x35x96xf32>
  return %r : tensor<1x35x35x96xf32>
}

// -----

func.func @prime_rows(%x: tensor<1x17x17x256xf32>, %w: tensor<256x3x3x256xf32>, %b: tensor<256xf32>) -> tensor<1x17x17x256xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x256xf32>, tensor<256x3x3x256xf32>, tensor<256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x256xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x17x17x256xf32>) -> tensor<1x17x17x256xf32>
  return %r : tensor<1x17x17x256xf32>
}

// -----

func.func @prime_rows_small(%x: tensor<1x17x17x64xf32>, %w: tensor<128x3x3x64xf32>, %b: tensor<128xf32>) -> tensor<1x17x17x128xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x64xf32>, tensor<128x3x3x64xf32>, tensor<128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x128xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x17x17x128xf32>) -> tensor<1x17x17x128xf32>
  return %r : tensor<1x17x17x128xf32>
}

// -----

// A constant filter is permuted at compile time instead: a 1x1
// convolution's to C x F (the constant transposed, no per-tile
// transpose), another convolution's to H x W x C x F (`conv_2d_nhwc_hwcf`),
// each with the output channels contiguous. The pass alone keeps them
// (CONST-PASS). Values bit-identical (EXACT2, EXACT3).
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONST
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups | FileCheck %s --check-prefix=CONST-PASS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry one_by_one_constant -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT2
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry three_by_three_constant -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT3
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAD
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry padded_rows,padded_rows_runtime -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT4
// CONST-LABEL: func.func @one_by_one_constant
// CONST-NOT:   linalg.transpose
// CONST:       arith.constant dense<{{\[\[}}0.000000e+00, 1.000000e+01, 2.000000e+01, 3.000000e+01], [1.000000e+00, 1.100000e+01, 2.100000e+01, 3.100000e+01], [2.000000e+00, 1.200000e+01, 2.200000e+01, 3.200000e+01]]> : tensor<3x4xf32>
// CONST-NOT:   linalg.transpose
// CONST-LABEL: func.func @three_by_three_constant
// CONST:       arith.constant dense<{{\[\[\[\[}}0.000000e+00, 1.000000e+02]], {{\[\[}}1.000000e+00, 1.010000e+02]], {{\[\[}}2.000000e+00, 1.020000e+02]]], {{\[\[\[}}1.000000e+01, 1.100000e+02]]
// CONST-SAME:  tensor<3x3x1x2xf32>
// CONST:       linalg.conv_2d_nhwc_hwcf
// CONST-PASS-LABEL: func.func @one_by_one_constant
// CONST-PASS-NOT:   tensor<3x4xf32>
// CONST-PASS-LABEL: func.func @three_by_three_constant
// CONST-PASS:       linalg.conv_2d_nhwc_fhwc
// EXACT2: OK
// EXACT3: OK
// EXACT4: OK

func.func @one_by_one_constant(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.0, 1.0, 2.0]]], [[[10.0, 11.0, 12.0]]], [[[20.0, 21.0, 22.0]]], [[[30.0, 31.0, 32.0]]]]> : tensor<4x1x1x3xf32>}> : () -> tensor<4x1x1x3xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -0.5, 0.25, -0.25]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x1x1x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}

func.func @three_by_three_constant(%x: tensor<1x8x8x1xf32>) -> tensor<1x8x8x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[0.0], [1.0], [2.0]], [[10.0], [11.0], [12.0]], [[20.0], [21.0], [22.0]]], [[[100.0], [101.0], [102.0]], [[110.0], [111.0], [112.0]], [[120.0], [121.0], [122.0]]]]> : tensor<2x3x3x1xf32>}> : () -> tensor<2x3x3x1xf32>
  %b = "tosa.const"() <{values = dense<[0.5, -0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x1xf32>, tensor<2x3x3x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x2xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x8x2xf32>) -> tensor<1x8x8x2xf32>
  return %r : tensor<1x8x8x2xf32>
}

// -----

// A 1x1 convolution is a matmul of pixels by filters; on the CPU its filter
// is read as C x F, transposed once per call in a nest of its own before
// the convolution's (FILTER; once per tile, inside it, before the
// twenty-fifth session), so that a register block's 32 output channels are
// one contiguous vector; the pass alone keeps F x C (PASS). Values
// bit-identical (EXACT1). So is a 3x3 convolution's filter computed at run
// time, to H x W x C x F (@seven_rows, @some_rows above).
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILTER
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups | FileCheck %s --check-prefix=PASS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry one_by_one -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT1
// FILTER-LABEL: func.func @one_by_one
// FILTER:       scf.forall
// FILTER:         linalg.transpose ins(%{{.*}} : tensor<64x16xf32>) outs(%{{.*}} : tensor<16x64xf32>) permutation = [1, 0]
// FILTER:       scf.forall ({{.*}}) = (0, 0, 0) to (16, 16, 64)
// FILTER-NOT:     linalg.transpose
// FILTER:         linalg.generic {{.*}} ins({{.*}} : tensor<1x1x16x32xf32>, tensor<32x64xf32>)
// PASS-LABEL:   func.func @one_by_one
// PASS-NOT:     linalg.transpose
// PASS:         return
// EXACT1: OK

func.func @one_by_one(%x: tensor<1x16x16x32xf32>, %w: tensor<64x1x1x32xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<64x1x1x32xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}

// -----

// Rows of the permuted filter a multiple of 1 KB long (256 f32 filters)
// get a cache line (16 f32) of padding, read through a slice that leaves it
// out (PAD; values bit-identical, EXACT4): a constant's at compile time, a
// filter computed at run time and transposed once per call before the nest
// (@padded_rows_runtime: 28 rows of 28 pixels, four tiles of rows read each
// filter column) padded by 16 filters of zeros before its transpose (a
// slice of the transpose's destination would fold away).
// PAD-LABEL: func.func @padded_rows
//       PAD:   %[[PADDED:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<1x2x1x272xf32>
//       PAD:   tensor.extract_slice %[[PADDED]]{{.*}} to tensor<1x2x1x
//       PAD:   linalg.conv_2d_nhwc_hwcf
// PAD-LABEL: func.func @padded_rows_runtime
//       PAD:   tensor.pad {{.*}} high[16, 0, 0, 0]
//       PAD:   linalg.transpose {{.*}} permutation = [1, 2, 3, 0]
//       PAD:   tensor.extract_slice %{{.*}}[0, 0, 0, 0] [3, 3, 16, 256] [1, 1, 1, 1] : tensor<3x3x16x272xf32> to tensor<3x3x16x256xf32>
//       PAD:   scf.forall
//       PAD:     linalg.conv_2d_nhwc_hwcf
func.func @padded_rows(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x256xf32> {
  %w = "tosa.const"() <{values = dense<"0x000000C052B8FEBFA470FDBFF628FCBF48E1FABF9A99F9BFEC51F8BF3D0AF7BF8FC2F5BFE17AF4BF3333F3BF85EBF1BFD7A3F0BF295CEFBF7B14EEBFCDCCECBF1F85EBBF713DEABFC3F5E8BF14AEE7BF6666E6BFB81EE5BF0AD7E3BF5C8FE2BFAE47E1BF0000E0BF52B8DEBFA470DDBFF628DCBF48E1DABF9A99D9BFEC51D8BF3E0AD7BF90C2D5BFE17AD4BF3333D3BF85EBD1BFD7A3D0BF295CCFBF7B14CEBFCDCCCCBF1F85CBBF713DCABFC3F5C8BF14AEC7BF6666C6BFB81EC5BF0AD7C3BF5C8FC2BFAE47C1BF0000C0BF52B8BEBFA470BDBFF628BCBF48E1BABF9A99B9BFEC51B8BF3E0AB7BF90C2B5BFE27AB4BF3433B3BF85EBB1BFD7A3B0BF295CAFBF7B14AEBFCDCCACBF1F85ABBF713DAABFC2F5A8BF14AEA7BF6666A6BFB81EA5BF0AD7A3BF5C8FA2BFAE47A1BF0000A0BF52B89EBFA4709DBFF6289CBF48E19ABF9A9999BFEC5198BF3E0A97BF90C295BFE27A94BF343393BF86EB91BFD7A390BF295C8FBF7B148EBFCDCC8CBF1F858BBF713D8ABFC2F588BF14AE87BF666686BFB81E85BF0AD783BF5C8F82BFAE4781BF000080BFA4707DBF48E17ABFEC5178BF90C275BF343373BFD8A370BF7C146EBF20856BBFC2F568BF666666BF0AD763BFAE4761BF52B85EBFF6285CBF9A9959BF3E0A57BFE27A54BF86EB51BF2A5C4FBFCECC4CBF723D4ABF14AE47BFB81E45BF5C8F42BF000040BFA4703DBF48E13ABFEC5138BF90C235BF343333BFD8A330BF7C142EBF20852BBFC4F528BF666626BF0AD723BFAE4721BF52B81EBFF6281CBF9A9919BF3E0A17BFE27A14BF86EB11BF2A5C0FBFCECC0CBF723D0ABF16AE07BFB81E05BF5C8F02BF000000BF48E1FABE90C2F5BED8A3F0BE2085EBBE6866E6BEB047E1BEF828DCBE400AD7BE88EBD1BED0CCCCBE14AEC7BE5C8FC2BEA470BDBEEC51B8BE3433B3BE7C14AEBEC4F5A8BE0CD7A3BE54B89EBE9C9999BEE47A94BE2C5C8FBE703D8ABEB81E85BE000080BE90C275BE20856BBEB04761BE400A57BED0CC4CBE608F42BEF05138BE80142EBE10D723BEA09919BE285C0FBEB81E05BE90C2F5BDB047E1BDD0CCCCBDF051B8BD10D7A3BD305C8FBDA0C275BDE0CC4CBD20D723BDC0C2F5BC40D7A3BC00D723BC0000000000D7233C00D7A33C80C2F53C00D7233DC0CC4C3D80C2753D205C8F3D00D7A33DE051B83DC0CCCC3DA047E13D80C2F53DB01E053E205C0F3E9099193E00D7233E70142E3EF051383E608F423ED0CC4C3E400A573EB047613E20856B3E90C2753E0000803EB81E853E703D8A3E285C8F3EE07A943E9899993E50B89E3E08D7A33EC0F5A83E7814AE3E3033B33EE851B83EA070BD3E588FC23E10AEC73EC8CCCC3E80EBD13E380AD73EF028DC3EB047E13E6866E63E2085EB3ED8A3F03E90C2F53E48E1FA3E0000003F5C8F023FB81E053F14AE073F703D0A3FCCCC0C3F285C0F3F84EB113FE07A143F3C0A173F9899193FF4281C3F50B81E3FAC47213F08D7233F6466263FC0F5283F1C852B3F78142E3FD8A3303F3433333F90C2353FEC51383F48E13A3FA4703D3F0000403F5C8F423FB81E453F14AE473F703D4A3FCCCC4C3F285C4F3F84EB513FE07A543F3C0A573F9899593FF4285C3F50B85E3FAC47613F08D7633F6466663FC0F5683F1C856B3F78146E3FD4A3703F3433733F90C2753FEC51783F48E17A3FA4707D3F0000803FAE47813F5C8F823F0AD7833FB81E853F6666863F14AE873FC2F5883F703D8A3F1E858B3FCCCC8C3F7A148E3F285C8F3FD6A3903F84EB913F3233933FE07A943F8EC2953F3C0A973FEA51983F9899993F48E19A3FF6289C3FA4709D3F52B89E3F0000A03FAE47A13F5C8FA23F0AD7A33FB81EA53F6666A63F14AEA73FC2F5A83F703DAA3F1E85AB3FCCCCAC3F7A14AE3F285CAF3FD6A3B03F84EBB13F3233B33FE07AB43F8EC2B53F3C0AB73FEA51B83F9899B93F48E1BA3FF628BC3FA470BD3F52B8BE3F0000C03FAE47C13F5C8FC23F0AD7C33FB81EC53F6666C63F14AEC73FC2F5C83F703DCA3F1E85CB3FCCCCCC3F7A14CE3F285CCF3FD6A3D03F84EBD13F3233D33FE07AD43F8EC2D53F3C0AD73FEA51D83F9899D93F46E1DA3FF628DC3FA470DD3F52B8DE3F0000E03FAE47E13F5C8FE23F0AD7E33FB81EE53F6666E63F14AEE73FC2F5E83F703DEA3F1E85EB3FCCCCEC3F7A14EE3F285CEF3FD6A3F03F84EBF13F3233F33FE07AF43F8EC2F53F3C0AF73FEA51F83F9899F93F46E1FA3FF628FC3FA470FD3F52B8FE3F00000040D6A30040AE47014084EB01405C8F0240323303400AD70340E07A0440B81E05408EC20540666606403E0A074014AE0740EC510840C2F508409A990940703D0A4048E10A401E850B40F6280C40CCCC0C40A4700D407A140E4052B80E40285C0F4000001040D6A31040AE47114084EB11405C8F1240323313400AD71340E07A1440B81E15408EC21540666616403E0A174014AE1740EC511840C2F518409A991940703D1A4048E11A401E851B40F6281C40CCCC1C40A4701D407A141E4052B81E40285C1F4000002040D6A32040AE47214084EB21405C8F2240323323400AD72340E07A2440B81E25408EC22540666626403E0A274014AE2740EC512840C2F528409A992940703D2A4048E12A401E852B40F6282C40CCCC2C40A4702D407A142E4052B82E40285C2F4000003040D6A33040AE47314084EB31405C8F3240323333400AD73340E07A3440B81E35408EC23540666636403C0A374014AE3740EC513840C2F538409A993940703D3A4048E13A401E853B40F6283C40CCCC3C40A4703D407A143E4052B83E40285C3F4000004040D6A34040AE47414084EB41405C8F4240323343400AD74340E07A4440B81E45408EC24540666646403C0A4740"> : tensor<256x1x2x1xf32>}> : () -> tensor<256x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<256xf32>}> : () -> tensor<256xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<256x1x2x1xf32>, tensor<256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x256xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x4x4x256xf32>) -> tensor<1x4x4x256xf32>
  return %r : tensor<1x4x4x256xf32>
}

// -----

func.func @padded_rows_runtime(%x: tensor<1x28x28x16xf32>, %w: tensor<256x3x3x16xf32>) -> tensor<1x28x28x256xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<256xf32>}> : () -> tensor<256xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x28x28x16xf32>, tensor<256x3x3x16xf32>, tensor<256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x256xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x28x28x256xf32>) -> tensor<1x28x28x256xf32>
  return %r : tensor<1x28x28x256xf32>
}

// -----

func.func @qkv_heads(%x: tensor<1x256x64xf32>, %w: tensor<1x64x768xf32>) -> (tensor<1x1x65536xf32>, tensor<1x4x256x64xf32>, tensor<1x4x64x256xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x256x64xf32>, tensor<1x64x768xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x768xf32>
  %s5 = tosa.const_shape {values = dense<[1, 256, 1, 3, 256]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %r = tosa.reshape %mm, %s5 : (tensor<1x256x768xf32>, !tosa.shape<5>) -> tensor<1x256x1x3x256xf32>
  %t = tosa.transpose %r {perms = array<i32: 3, 1, 2, 0, 4>} : (tensor<1x256x1x3x256xf32>) -> tensor<3x256x1x1x256xf32>
  %s3 = tosa.const_shape {values = dense<[1, 3, 65536]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.reshape %t, %s3 : (tensor<3x256x1x1x256xf32>, !tosa.shape<3>) -> tensor<1x3x65536xf32>
  %size = tosa.const_shape {values = dense<[1, 1, 65536]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o0 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o1 = tosa.const_shape {values = dense<[0, 1, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o2 = tosa.const_shape {values = dense<[0, 2, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q = tosa.slice %p, %o0, %size : (tensor<1x3x65536xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x65536xf32>
  %k = tosa.slice %p, %o1, %size : (tensor<1x3x65536xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x65536xf32>
  %v = tosa.slice %p, %o2, %size : (tensor<1x3x65536xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x1x65536xf32>
  %s4 = tosa.const_shape {values = dense<[256, 1, 4, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q4 = tosa.reshape %q, %s4 : (tensor<1x1x65536xf32>, !tosa.shape<4>) -> tensor<256x1x4x64xf32>
  %k4 = tosa.reshape %k, %s4 : (tensor<1x1x65536xf32>, !tosa.shape<4>) -> tensor<256x1x4x64xf32>
  %qt = tosa.transpose %q4 {perms = array<i32: 1, 2, 0, 3>} : (tensor<256x1x4x64xf32>) -> tensor<1x4x256x64xf32>
  %kt = tosa.transpose %k4 {perms = array<i32: 1, 2, 3, 0>} : (tensor<256x1x4x64xf32>) -> tensor<1x4x64x256xf32>
  %sc = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qs = tosa.mul %qt, %sc, %sh : (tensor<1x4x256x64xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x256x64xf32>
  %ks = tosa.mul %kt, %sc, %sh : (tensor<1x4x64x256xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x64x256xf32>
  return %v, %qs, %ks : tensor<1x1x65536xf32>, tensor<1x4x256x64xf32>, tensor<1x4x64x256xf32>
}

// -----

func.func @odd_tiles(%x: tensor<1x7x7x64xf32>) -> tensor<1x7x7x192xf32> {
  %w = "tosa.const"() <{values = dense<0.25> : tensor<192x1x1x64xf32>}> : () -> tensor<192x1x1x64xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<192xf32>}> : () -> tensor<192xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x64xf32>, tensor<192x1x1x64xf32>, tensor<192xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x7x192xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x7x192xf32>) -> tensor<1x7x7x192xf32>
  return %r : tensor<1x7x7x192xf32>
}

// -----

func.func @odd_rows_wide(%x: tensor<1x17x17x32xf32>, %w: tensor<192x1x7x32xf32>, %b: tensor<192xf32>) -> tensor<1x17x17x192xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 3, 3>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x32xf32>, tensor<192x1x7x32xf32>, tensor<192xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x192xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x17x17x192xf32>) -> tensor<1x17x17x192xf32>
  return %r : tensor<1x17x17x192xf32>
}
