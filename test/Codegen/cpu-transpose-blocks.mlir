// The CPU lowering moves the values of an op that reads its input
// transposed (its result's innermost dimension another than the input's)
// in 16 x 16 blocks of 32-bit values.
// - fuse-tile-groups (TILES) tiles such a root along the loop of that
//   input's rows in whole blocks, up to 64 (transpose-block=16, the CPU
//   pipeline's), the other loops around that as any root's: a 512 x 96
//   result of a 96 x 512 input in tiles of 64 x 48, a 64 x 64 x 112 x 112
//   image written 112 x 112 x 64 in tiles of 64 of its 112 columns (the
//   last 48, partial). Without it (OFF) the rows of the result were tiled
//   as any op's, 32 by 96 and 1 by 56 by 64 (@rest: 8 rows of 500): a
//   tile read 32 values (56, 8) of each input row, and 56 or 8 are no
//   whole blocks.
// - fuse-vectorize-tiles (BLOCKS) cuts a tile's transpose after its last
//   whole blocks along both loops and reads each block as 16 contiguous
//   rows of 16, transposed in registers by 64 shuffles (upstream's 16 x 16
//   lowering, applied in fuse-vectorize-tiles, before the canonicalizer
//   folds the transpose of the unrolled rows into element moves), instead
//   of reading every vector of its result lane by lane (`vinsertps`, about
//   1 ns a value: a run-time filter's transpose took as long as its
//   convolution). The block loop along the input's rows (its contiguous
//   dimension) is innermost: successive blocks read the next 64 bytes of
//   the same 16 rows. Unit dimensions read at 0 (the image's batch) are no
//   obstacle. @rest: 500 columns in tiles of 64, the last 52: 48 in blocks
//   and the last 4 as a narrow transpose (each chunk 4 input rows of 16);
//   @heads: ViT's 197 tokens by 12 heads of 64 written heads first and
//   tokens innermost, 192 tokens in blocks and the last 5 as a narrow
//   transpose.
// Values bit for bit against the unfused program (EXACT).
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups="min-tile-elements=4096 transpose-block=16" | FileCheck %s --check-prefix=TILES
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-tile-groups="min-tile-elements=4096 transpose-block=0" | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-vectorize-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu | FileCheck %s --check-prefix=LLVM
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry transpose,rest,image,heads -p "--fuse-ops" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// TILES-LABEL: func.func @transpose
// TILES:         scf.forall {{.*}} to (512, 96) step (64, 48)
// TILES-LABEL: func.func @rest
// TILES:         scf.forall {{.*}} = (0) to (448) step (64)
// TILES:         scf.forall {{.*}} = (448) to (500) step (64)
// TILES-LABEL: func.func @image
// TILES:         scf.forall {{.*}} = (0, 0) to (112, 64) step (1, 64)
// TILES:         scf.forall {{.*}} = (0, 64) to (112, 112) step (1, 64)
// TILES-LABEL: func.func @heads
// TILES:         scf.forall {{.*}} = (0, 0) to (12, 192) step (1, 64)
// TILES:         scf.forall {{.*}} = (0, 192) to (12, 197) step (1, 64)

// OFF-LABEL: func.func @transpose
// OFF:         scf.forall {{.*}} to (512) step (32)
// OFF-LABEL: func.func @rest
// OFF:         scf.forall {{.*}} to (64) step (8)
// OFF-LABEL: func.func @image
// OFF:         scf.forall {{.*}} to (112, 112) step (1, 56)

// BLOCKS-LABEL: func.func @transpose
// BLOCKS:         scf.for %{{.*}} = %c0 to %c48 step %c16
// BLOCKS:           scf.for %{{.*}} = %c0 to %c64 step %c16
// BLOCKS:             vector.transfer_read {{.*}} : tensor<96x512xf32>, vector<16x16xf32>
// BLOCKS-NOT:         vector.transpose
// BLOCKS-COUNT-64:    vector.shuffle
// BLOCKS-NOT:         vector.transpose
// BLOCKS:             vector.transfer_write {{.*}} : vector<16x16xf32>
// BLOCKS-LABEL: func.func @rest
// BLOCKS:         vector.transfer_read {{.*}} : tensor<500x64xf32>, vector<16x16xf32>
// BLOCKS-COUNT-64: vector.shuffle
// BLOCKS:         vector.transfer_read {{.*}} : tensor<500x64xf32>, vector<16x16xf32>
// BLOCKS-COUNT-64: vector.shuffle
// BLOCKS:         vector.transfer_read {{.*}} : tensor<500x64xf32>, vector<4x16xf32>
// BLOCKS-LABEL: func.func @image
// BLOCKS:         vector.transfer_read {{.*}} : tensor<1x64x112x112xf32>, vector<16x1x16xf32>
// BLOCKS-COUNT-64: vector.shuffle
// BLOCKS:         vector.transfer_read {{.*}} : tensor<1x64x112x112xf32>, vector<16x1x16xf32>
// BLOCKS-COUNT-64: vector.shuffle
// BLOCKS-LABEL: func.func @heads
// BLOCKS:         vector.transfer_read {{.*}} : tensor<1x197x12x64xf32>, vector<16x1x16xf32>
// BLOCKS-COUNT-64: vector.shuffle
// BLOCKS:         vector.transfer_read {{.*}} : tensor<1x197x12x64xf32>, vector<5x1x16xf32>

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

// -----

func.func @image(%x: tensor<1x64x112x112xf32>) -> tensor<1x112x112x64xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x64x112x112xf32>) -> tensor<1x112x112x64xf32>
  return %t : tensor<1x112x112x64xf32>
}

// -----

func.func @heads(%x: tensor<1x197x12x64xf32>) -> tensor<1x12x64x197xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x197x12x64xf32>) -> tensor<1x12x64x197xf32>
  return %t : tensor<1x12x64x197xf32>
}
