// The CPU lowering vectorizes an op that reads its input transposed (its
// result's innermost dimension another than the input's) in 16 x 16 chunks
// of 32-bit values: each chunk reads 16 contiguous rows of 16 and
// transposes them in registers, 64 shuffles (upstream's 16 x 16 lowering,
// applied in fuse-vectorize-tiles, before the canonicalizer folds the
// transpose of the unrolled rows into element moves), instead of reading
// every vector of its result lane by lane (`vinsertps`, about 1 ns a value:
// a run-time filter's transpose took as long as its convolution). The
// chunk loop along the input's rows (its contiguous dimension) is
// innermost: successive chunks read the next 64 bytes of the same 16 rows.
// @transpose: a 96 x 512 input; @rest: 500 rows do not divide into 16, so
// its chunks stay rows of the result, gathered. Values bit for bit against
// the unfused program (EXACT).
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu | FileCheck %s --check-prefix=LLVM
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry transpose,rest -p "--fuse-ops" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// BLOCKS-LABEL: func.func @transpose
// BLOCKS:         scf.for %{{.*}} = %c0 to %c96 step %c16
// BLOCKS:           scf.for %{{.*}} = %c0 to %c32 step %c16
// BLOCKS:             vector.transfer_read {{.*}} : tensor<96x512xf32>, vector<16x16xf32>
// BLOCKS-NOT:         vector.transpose
// BLOCKS-COUNT-64:    vector.shuffle
// BLOCKS-NOT:         vector.transpose
// BLOCKS:             vector.transfer_write {{.*}} : vector<16x16xf32>
// BLOCKS-LABEL: func.func @rest
// BLOCKS-NOT:     vector<16x16xf32>
// BLOCKS:         return

// LLVM-LABEL: llvm.func @transpose(
// LLVM-NOT:     llvm.insertelement
// LLVM-COUNT-64: llvm.shufflevector
// LLVM-NOT:     llvm.insertelement
// LLVM:         llvm.return

// EXACT: fuse-diff: OK

func.func @transpose(%x: tensor<96x512xf32>) -> tensor<512x96xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<96x512xf32>) -> tensor<512x96xf32>
  return %t : tensor<512x96xf32>
}

// -----

func.func @rest(%x: tensor<500x64xf32>) -> tensor<64x500xf32> {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<500x64xf32>) -> tensor<64x500xf32>
  return %t : tensor<64x500xf32>
}
