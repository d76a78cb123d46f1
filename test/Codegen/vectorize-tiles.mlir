// RUN: fuse-opt %s --split-input-file --fuse-tile-groups=min-tile-elements=4096 --canonicalize --fuse-vectorize-tiles="block-cols=32 block-rows=4" | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-tile-groups=min-tile-elements=4096 --canonicalize --fuse-vectorize-tiles="reassociate=true block-cols=32 block-rows=4" | FileCheck %s --check-prefix=REASSOC
// RUN: fuse-opt %s --split-input-file --fuse-tile-groups=min-tile-elements=4096 --canonicalize --fuse-vectorize-tiles="fma=true block-cols=32 block-rows=4" | FileCheck %s --check-prefix=FMA
// RUN: %fuse-diff %s -p "--fuse-ops" --entry softmax,select_mask,long_rows,column_sum,prime_rows,matmul_blocks,conv_blocks | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s -p "--fuse-ops" --entry softmax,select_mask,long_rows,column_sum,prime_rows,matmul_blocks,conv_blocks --lower="--fuse-lower-to-cpu=vectorize=false" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 8 outputs
// Without reassociation, approximated math or fused multiply-adds the vector code computes
// exactly what the scalar loops of the unfused program compute.
// RUN: %fuse-diff %s -p "--fuse-ops" --entry softmax,select_mask,long_rows,column_sum,prime_rows,matmul_blocks,conv_blocks --lower="--fuse-lower-to-cpu='reassociate=false approximate-math=false fma=false'" | FileCheck %s --check-prefix=EXACT
// EXACT: fuse-diff: OK 8 outputs, {{[0-9]+}} values, max abs err 0, max rel err 0

// A row of a softmax is read once into a vector; max, exp, sum and the
// scaling run on vectors and the row is written once. The reciprocal of
// the sum stays one scalar per row (not fused into the per-element loop).
// CHECK-LABEL: func.func @softmax
//       CHECK:   scf.forall
//       CHECK:     %[[ROW:.*]] = vector.transfer_read %{{.*}} : tensor<16x32xf32>, vector<8x32xf32>
//       CHECK:     vector.multi_reduction <maximumf>, %[[ROW]]
//       CHECK:     %[[E:.*]] = math.exp %{{.*}} : vector<8x32xf32>
//       CHECK:     %[[S:.*]] = vector.multi_reduction <add>, %[[E]]
//       CHECK:     arith.divf %{{.*}}, %[[S]] : vector<8xf32>
//       CHECK:     arith.mulf %[[E]], %{{.*}} : vector<8x32xf32>
//       CHECK:     vector.transfer_write
//   CHECK-NOT:     linalg.
//       CHECK:   fuse.yield
func.func @softmax(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = fuse.group ins(%x : tensor<16x32xf32>) -> (tensor<16x32xf32>) {
  ^bb0(%a: tensor<16x32xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.reduce_max %a {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %d = tosa.sub %a, %m : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
    %e = tosa.exp %d : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %i = tosa.reciprocal %s : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %o = tosa.mul %e, %i, %sh : (tensor<16x32xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    fuse.yield %o : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

// -----

// An i1 operand keeps the op scalar: a memref of i1 holds a byte per
// element, an LLVM vector of i1 packed bits.
// CHECK-LABEL: func.func @select_mask
//       CHECK:   scf.forall
//       CHECK:     linalg.generic
//       CHECK:       arith.select
//   CHECK-NOT:     vector.transfer_read %{{.*}} vector<{{.*}}xi1>
func.func @select_mask(%c: tensor<4x1x8xi1>, %x: tensor<4x3x8xf32>, %y: tensor<4x3x1xf32>) -> tensor<4x3x8xf32> {
  %r = fuse.group ins(%c, %x, %y : tensor<4x1x8xi1>, tensor<4x3x8xf32>, tensor<4x3x1xf32>) -> (tensor<4x3x8xf32>) {
  ^bb0(%a: tensor<4x1x8xi1>, %b: tensor<4x3x8xf32>, %d: tensor<4x3x1xf32>):
    %t = tosa.tanh %b : (tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
    %s = tosa.select %a, %t, %d : (tensor<4x1x8xi1>, tensor<4x3x8xf32>, tensor<4x3x1xf32>) -> tensor<4x3x8xf32>
    fuse.yield %s : tensor<4x3x8xf32>
  }
  return %r : tensor<4x3x8xf32>
}

// -----

// A tile larger than max-vector-elements (the vector code is unrolled) is
// strip-mined into vector chunks of 32 points. Max folds 32 lanes at a time
// (its result does not depend on the order) and merges them after the loop;
// the sum folds each chunk into the running sum in order, so its rounding is
// the scalar loop's (with reassociation: per-lane partial sums, merged after the loop).
// CHECK-LABEL: func.func @long_rows
//       CHECK:   scf.forall
//       CHECK:     scf.for %{{.*}} step %c1 iter_args
//       CHECK:       %[[MAX:.*]] = scf.for %{{.*}} = %c0 to %c1024 step %c32 iter_args(%[[LANES:.*]] = %{{.*}}) -> (vector<1x32xf32>)
//       CHECK:         vector.transfer_read %{{.*}} : tensor<8x1024xf32>, vector<1x32xf32>
//       CHECK:         arith.maximumf %{{.*}}, %[[LANES]] : vector<1x32xf32>
//       CHECK:       vector.multi_reduction <maximumf>, %{{.*}} [1] : vector<1x32xf32> to vector<1xf32>
//       CHECK:     scf.for
//       CHECK:       scf.for %{{.*}} step %c32
//       CHECK:         math.exp %{{.*}} : vector<1x32xf32>
//       CHECK:     scf.for
//       CHECK:       scf.for %{{.*}} step %c32 iter_args(%[[SUM:.*]] = %{{.*}}) -> (vector<1xf32>)
//       CHECK:         vector.multi_reduction <add>, %{{.*}}, %[[SUM]] [1] : vector<1x32xf32> to vector<1xf32>
//       CHECK:     scf.for
//       CHECK:       scf.for %{{.*}} step %c32
//       CHECK:         arith.mulf %{{.*}} : vector<1x32xf32>
//   CHECK-NOT:     linalg.
//       CHECK:   fuse.yield
// REASSOC-LABEL: func.func @long_rows
//       REASSOC:   scf.for %{{.*}} step %c32 iter_args(%[[LANES:.*]] = %{{.*}}) -> (vector<1x32xf32>)
//       REASSOC:     arith.maximumf %{{.*}}, %[[LANES]] : vector<1x32xf32>
//       REASSOC:   math.exp
//       REASSOC:   scf.for %{{.*}} step %c32 iter_args(%[[PARTIAL:.*]] = %{{.*}}) -> (vector<1x32xf32>)
//       REASSOC:     arith.addf %{{.*}}, %[[PARTIAL]] : vector<1x32xf32>
//       REASSOC:   vector.multi_reduction <add>, %{{.*}} [1] : vector<1x32xf32> to vector<1xf32>
func.func @long_rows(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %r = fuse.group ins(%x : tensor<8x1024xf32>) -> (tensor<8x1024xf32>) {
  ^bb0(%a: tensor<8x1024xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.reduce_max %a {axis = 1 : i32} : (tensor<8x1024xf32>) -> tensor<8x1xf32>
    %d = tosa.sub %a, %m : (tensor<8x1024xf32>, tensor<8x1xf32>) -> tensor<8x1024xf32>
    %e = tosa.exp %d : (tensor<8x1024xf32>) -> tensor<8x1024xf32>
    %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<8x1024xf32>) -> tensor<8x1xf32>
    %i = tosa.reciprocal %s : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %o = tosa.mul %e, %i, %sh : (tensor<8x1024xf32>, tensor<8x1xf32>, tensor<1xi8>) -> tensor<8x1024xf32>
    fuse.yield %o : tensor<8x1024xf32>
  }
  return %r : tensor<8x1024xf32>
}

// -----

// A sum over pixels (a global average pool's), with reassociation: per-lane
// partial sums of 2 pixels x 16 channels, carried across the chunk loop in
// the layout the input is read in (CarryTransposed). Carried in the
// result's layout (channels, then the lanes) they were transposed there and
// back at every step; now once, after the loop.
// REASSOC-LABEL: func.func @column_sum
//       REASSOC:   scf.for %{{.*}} step %c2 iter_args(%[[LANES:.*]] = %{{.*}}) -> (vector<1x2x1x16xf32>)
//   REASSOC-NOT:     vector.transpose %[[LANES]]
//       REASSOC:     %[[NEXT:.*]] = arith.addf %{{.*}}, %[[LANES]] : vector<1x2x1x16xf32>
//  REASSOC-NEXT:     scf.yield %[[NEXT]]
//       REASSOC:   vector.transpose
//       REASSOC:   vector.multi_reduction <add>
func.func @column_sum(%x: tensor<1x4096x32xf32>) -> tensor<1x1x32xf32> {
  %r = fuse.group ins(%x : tensor<1x4096x32xf32>) -> (tensor<1x1x32xf32>) {
  ^bb0(%a: tensor<1x4096x32xf32>):
    %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<1x4096x32xf32>) -> tensor<1x1x32xf32>
    fuse.yield %s : tensor<1x1x32xf32>
  }
  return %r : tensor<1x1x32xf32>
}

// -----

// Rows of a prime length have no chunk of at least 4 points: scalar loops.
// CHECK-LABEL: func.func @prime_rows
//       CHECK:   scf.forall
//       CHECK:     linalg.generic
//   CHECK-NOT:     vector.
func.func @prime_rows(%x: tensor<4x1031xf32>) -> tensor<4x1031xf32> {
  %r = fuse.group ins(%x : tensor<4x1031xf32>) -> (tensor<4x1031xf32>) {
  ^bb0(%a: tensor<4x1031xf32>):
    %t = tosa.tanh %a : (tensor<4x1031xf32>) -> tensor<4x1031xf32>
    %e = tosa.exp %t : (tensor<4x1031xf32>) -> tensor<4x1031xf32>
    fuse.yield %e : tensor<4x1031xf32>
  }
  return %r : tensor<4x1031xf32>
}

// -----

// A matmul tile (4 rows x 96 columns, 64-step reduction) is cut into
// register blocks of 4 x 32 results. The reduction loop is innermost. Each
// step multiplies a broadcast column of the left operand by a row of the
// right one and adds the product to the block's accumulators, which stay in
// vector registers across the loop: one rank-1 update per step, in the
// scalar loop's order, with a separate multiply and add (no fused
// multiply-add).
// CHECK-LABEL: func.func @matmul_blocks
//       CHECK:   scf.forall
//       CHECK:     scf.for %{{.*}} = %c0 to %c96 step %c32
//       CHECK:       scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x32xf32>)
// A column of A: one scalar per row of the block, splat (SplatColumnRead).
//       CHECK:         %[[A0:.*]] = tensor.extract %{{.*}}[%c0] : tensor<4xf32>
//       CHECK:         vector.broadcast %[[A0]] : f32 to vector<32xf32>
//       CHECK:         %[[A:.*]] = vector.insert %{{.*}} [3] : vector<32xf32> into vector<4x32xf32>
//       CHECK:         %[[B:.*]] = vector.transfer_read %{{.*}} : tensor<1x64x96xf32>, vector<32xf32>
//       CHECK:         %[[BB:.*]] = vector.broadcast %[[B]] : vector<32xf32> to vector<4x32xf32>
//       CHECK:         %[[PRODUCT:.*]] = arith.mulf %[[A]], %[[BB]] : vector<4x32xf32>
//       CHECK:         arith.addf %[[ACC]], %[[PRODUCT]] : vector<4x32xf32>
//   CHECK-NOT:     linalg.batch_matmul
//       CHECK:   fuse.yield
// FMA-LABEL: func.func @matmul_blocks
//       FMA:   scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x32xf32>)
//       FMA:     math.fma %{{.*}}, %{{.*}}, %[[ACC]] : vector<4x32xf32>
//   FMA-NOT:     arith.addf
//       FMA:   fuse.yield
func.func @matmul_blocks(%x: tensor<1x8x64xf32>, %w: tensor<1x64x96xf32>) -> tensor<1x8x96xf32> {
  %r = fuse.group ins(%x, %w : tensor<1x8x64xf32>, tensor<1x64x96xf32>) -> (tensor<1x8x96xf32>) {
  ^bb0(%a: tensor<1x8x64xf32>, %b: tensor<1x64x96xf32>):
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x8x64xf32>, tensor<1x64x96xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x96xf32>
    %t = tosa.tanh %m : (tensor<1x8x96xf32>) -> tensor<1x8x96xf32>
    fuse.yield %t : tensor<1x8x96xf32>
  }
  return %r : tensor<1x8x96xf32>
}

// -----

// Convolutions in a tile become register blocks too: 4 output columns x 16
// channels, the window loops (kh, kw, c) innermost, the block's unit loops
// dropped so that each step reads a plain slice of the input (4 pixels,
// broadcast over the channels) and of the filter; the accumulators stay in
// vector registers across all three window loops. A stride-2 window
// (`ow * 2`) reads a strided slice of the window instead: 4 of its 7 pixels.
// CHECK-LABEL: func.func @conv_blocks
//       CHECK:   scf.forall
//       CHECK:     scf.for %{{.*}} step %c4 iter_args
// The accumulators start from the bias the block reads (its broadcast is
// taken into the block's loops), not from a pass over the tile:
//       CHECK:       %[[BIAS:.*]] = vector.transfer_read %{{.*}} : tensor<16xf32>, vector<16xf32>
//       CHECK:       %[[ROWS:.*]] = vector.broadcast %[[BIAS]] : vector<16xf32> to vector<1x1x4x16xf32>
//       CHECK:       %[[INIT:.*]] = vector.shape_cast %[[ROWS]] : vector<1x1x4x16xf32> to vector<4x16xf32>
//       CHECK:       scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (vector<4x16xf32>)
//       CHECK:         scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args
//       CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       CHECK:             %[[IN:.*]] = vector.insert %{{.*}} [3] : vector<16xf32> into vector<4x16xf32>
//       CHECK:             %[[W:.*]] = vector.transfer_read %{{.*}} : tensor<16x3x3x8xf32>, vector<4x16xf32>
//       CHECK:             %[[P:.*]] = arith.mulf %[[IN]], %[[W]] : vector<4x16xf32>
//       CHECK:             arith.addf %[[ACC]], %[[P]] : vector<4x16xf32>
//       CHECK:   scf.forall
//       CHECK:           scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%[[ACC2:.*]] = %{{.*}}) -> (vector<4x16xf32>)
//       CHECK:             %[[WINDOW:.*]] = tensor.extract_slice %{{.*}}[0] [4] [2] : tensor<7xf32> to tensor<4xf32>
//       CHECK:             tensor.extract %[[WINDOW]]
//       CHECK:             arith.addf %[[ACC2]], %{{.*}} : vector<4x16xf32>
//   CHECK-NOT:     linalg.generic
//       CHECK:   fuse.yield
func.func @conv_blocks(%x: tensor<1x10x10x8xf32>, %y: tensor<1x9x9x8xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>) {
  %r:2 = fuse.group ins(%x, %y : tensor<1x10x10x8xf32>, tensor<1x9x9x8xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>) {
  ^bb0(%a: tensor<1x10x10x8xf32>, %a2: tensor<1x9x9x8xf32>):
    %w = "tosa.const"() <{values = dense<[[[[-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0]], [[-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625]], [[0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125]]], [[[0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875]], [[0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25]], [[0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125]]], [[[0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375]], [[0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375]], [[0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125]]], [[[-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25]], [[-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875]], [[-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125]]], [[[-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625]], [[-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0]], [[-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625]]], [[[0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125]], [[0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875]], [[0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25]]], [[[0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125]], [[0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375]], [[0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375]]], [[[0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125]], [[-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25]], [[-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875]]], [[[-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125]], [[-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625]], [[-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0]]], [[[-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625]], [[0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125]], [[0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875]]], [[[0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25]], [[0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125]], [[0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375]]], [[[0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375]], [[0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125]], [[-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25]]], [[[-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875]], [[-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125]], [[-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625]]], [[[-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25], [0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0]], [[-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125], [0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625]], [[0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375], [0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125]]], [[[0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375], [0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875]], [[0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125], [-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25]], [[0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0], [-0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25], [-0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125]]], [[[0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625], [0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875], [-0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375]], [[0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125], [0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125], [-0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375]], [[0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875], [0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0, -0.375, 0.0625], [-0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125]]]]> : tensor<16x3x3x8xf32>}> : () -> tensor<16x3x3x8xf32>
    %b = "tosa.const"() <{values = dense<[-0.0625, 0.375, 0.0, -0.375, 0.0625, -0.3125, 0.125, -0.25, 0.1875, -0.1875, 0.25, -0.125, 0.3125, -0.0625, 0.375, 0.0]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %c = tosa.conv2d %a, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x10x10x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
    %s = tosa.conv2d %a2, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x9x9x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x16xf32>
    fuse.yield %c, %s : tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>
  }
  return %r#0, %r#1 : tensor<1x8x8x16xf32>, tensor<1x4x4x16xf32>
}
