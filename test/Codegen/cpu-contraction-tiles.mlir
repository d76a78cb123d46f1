// The CPU lowering tiles a matmul group in squares of its output (at most
// TilePolicy::forCpu().contractionTile a side), so that the tile's slices of
// both operands stay in cache while it reuses them; in rows (the policy
// before, still `contraction-tile=0`), each tile streamed all of B. The
// 256x512 result: 4 x 8 tiles of 64 x 64, or 32 tiles of 8 rows before.
// A convolution with output channels is tiled as a matmul of its output
// pixels by its filters (a row of 16 pixels by 64 filters here), so that a
// tile's filter slice stays in cache for all its pixels. The squares change
// no value: the reduction stays whole in each tile (EXACT, run against the
// unfused program by utils/fuse-diff, without fused multiply-adds).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=SQUARES
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu=contraction-tile=0 -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul,conv -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// SQUARES-LABEL: func.func @matmul
// SQUARES:       scf.forall ({{.*}}) = (0, 0) to (256, 512) step (64, 64)
// SQUARES-LABEL: func.func @conv
// SQUARES:       scf.forall ({{.*}}) = (0, 0, 0) to (16, 16, 64) step (1, 16, 64)
// ROWS-LABEL:    func.func @matmul
// ROWS:          scf.forall ({{.*}}) = (0) to (256) step (8)
// EXACT: OK

func.func @matmul(%a: tensor<1x256x64xf32>, %b: tensor<1x64x512xf32>) -> tensor<1x256x512xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.matmul %a, %b, %zp, %zp : (tensor<1x256x64xf32>, tensor<1x64x512xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x512xf32>
  %r = tosa.clamp %p {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  return %r : tensor<1x256x512xf32>
}

// -----

func.func @conv(%x: tensor<1x16x16x32xf32>, %w: tensor<64x3x3x32xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<64x3x3x32xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
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
// is read as C x F, transposed once per tile (FILTER), so that a register
// block's 32 output channels are one contiguous vector; the pass alone
// keeps F x C (PASS). Values bit-identical (EXACT1).
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILTER
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups | FileCheck %s --check-prefix=PASS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry one_by_one -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT1
// FILTER-LABEL: func.func @one_by_one
// FILTER:       linalg.transpose ins(%{{.*}} : tensor<64x32xf32>) outs(%{{.*}} : tensor<32x64xf32>) permutation = [1, 0]
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
