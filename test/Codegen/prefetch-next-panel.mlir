// fuse-prefetch-streams alone: a block reduction whose stream moves by a
// multiple of 4 KB a step (rows of 1024 floats) gets the next panel's lines
// only from a loop around it whose induction variable moves the read's
// column and nothing else. @columns: the loop around moves the column by 64
// floats: one prefetch per line of the same row of the next panel, its
// column clamped to 960 (the buffer's last panel). @rows: the loop around
// moves the leading index (the next 8 x 1024 matrix, the same column): no
// prefetch, since those lines share the current ones' L1 sets.
// RUN: fuse-opt %s --fuse-prefetch-streams | FileCheck %s

// CHECK-LABEL: func.func @columns
//       CHECK:   scf.for %[[J:.*]] = %c0 to %c256 step %c64
//       CHECK:     scf.for %[[K:.*]] = %c0 to %c8 step %c1
//       CHECK:       %[[NEXT:.*]] = arith.addi %[[J]], %c64
//       CHECK:       %[[LAST:.*]] = arith.minsi %[[NEXT]], %c960
//       CHECK:       %[[AT:.*]] = arith.maxsi %[[LAST]], %c0
//       CHECK:       memref.prefetch %arg0[%[[K]], %[[AT]]], read, locality<3>, data
// CHECK-COUNT-3:     memref.prefetch %arg0[%[[K]], %{{.*}}], read, locality<3>, data
//       CHECK:       vector.transfer_read %arg0[%[[K]], %[[J]]]
// CHECK-LABEL: func.func @rows
//   CHECK-NOT:   memref.prefetch
//       CHECK:   return

func.func @columns(%b: memref<8x1024xf32>, %a: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %j = %c0 to %c256 step %c64 iter_args(%acc0 = %init) -> (vector<64xf32>) {
    %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (vector<64xf32>) {
      %v = vector.transfer_read %b[%k, %j], %pad {in_bounds = [true]} : memref<8x1024xf32>, vector<64xf32>
      %f = math.fma %v, %a, %acc : vector<64xf32>
      scf.yield %f : vector<64xf32>
    }
    scf.yield %s : vector<64xf32>
  }
  return %r : vector<64xf32>
}

func.func @rows(%b: memref<4x8x1024xf32>, %a: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc0 = %init) -> (vector<64xf32>) {
    %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %acc0) -> (vector<64xf32>) {
      %v = vector.transfer_read %b[%i, %k, %c0], %pad {in_bounds = [true]} : memref<4x8x1024xf32>, vector<64xf32>
      %f = math.fma %v, %a, %acc : vector<64xf32>
      scf.yield %f : vector<64xf32>
    }
    scf.yield %s : vector<64xf32>
  }
  return %r : vector<64xf32>
}
