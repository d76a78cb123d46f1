// The CPU lowering tiles a matmul group in squares of its output (at most
// TilePolicy::forCpu().contractionTile a side), so that the tile's slices of
// both operands stay in cache while it reuses them; in rows (the policy
// before, still `contraction-tile=0`), each tile streamed all of B. The
// 256x512 result: 4 x 8 tiles of 64 x 64, or 32 tiles of 8 rows before.
// Convolutions keep their rows (CONV). The squares change no value: the
// reduction stays whole in each tile (EXACT, run against the unfused
// program by utils/fuse-diff, without fused multiply-adds).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=SQUARES
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu=contraction-tile=0 -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry matmul -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// SQUARES-LABEL: func.func @matmul
// SQUARES:       scf.forall ({{.*}}) = (0, 0) to (256, 512) step (64, 64)
// SQUARES-LABEL: func.func @conv
// SQUARES:       scf.forall ({{.*}}) = (0) to (16) step (4)
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
