// Vectors and strides no register block has, through the prefetch passes
// run on their own: a vector of 2^62 f32 lanes (its bytes overflow 64 bits:
// a SIGFPE in fuse-prefetch-streams, and 2^58 prefetches being built in
// fuse-prefetch-epilogues, before) and one of 4 MB are left alone (over
// 1 MB a transfer is not prefetched line by line); a stride of 2^62
// elements (its step's bytes overflow) is not taken for a 4 KB move; a
// reduction loop over i32 (its steps ahead would mix i32 and index
// arithmetic: an invalid arith.muli, before) is left alone.
// RUN: fuse-opt %s -split-input-file --fuse-prefetch-streams | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-prefetch-epilogues | FileCheck %s --check-prefix=EPI

// CHECK-LABEL: func.func @huge_stream
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @huge_stream(%m: memref<?xf32>, %n: index) -> vector<4611686018427387904xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f32
  %z = arith.constant dense<0.0> : vector<4611686018427387904xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> vector<4611686018427387904xf32> {
    %v = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<?xf32>, vector<4611686018427387904xf32>
    %s = arith.mulf %v, %a : vector<4611686018427387904xf32>
    scf.yield %s : vector<4611686018427387904xf32>
  }
  return %r : vector<4611686018427387904xf32>
}

// -----

// CHECK-LABEL: func.func @large_stream
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @large_stream(%m: memref<?xf32>, %n: index) -> vector<1048576xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f32
  %z = arith.constant dense<0.0> : vector<1048576xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> vector<1048576xf32> {
    %v = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<?xf32>, vector<1048576xf32>
    %s = arith.mulf %v, %a : vector<1048576xf32>
    scf.yield %s : vector<1048576xf32>
  }
  return %r : vector<1048576xf32>
}

// -----

// CHECK-LABEL: func.func @huge_stride
// CHECK:         memref.prefetch
// CHECK:         return
func.func @huge_stride(%m: memref<?x16xf32, strided<[4611686018427387904, 1]>>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %p = arith.constant 0.0 : f32
  %z = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %i = %c0 to %n step %c2 iter_args(%a = %z) -> vector<16xf32> {
    %v = vector.transfer_read %m[%i, %c0], %p {in_bounds = [true]} : memref<?x16xf32, strided<[4611686018427387904, 1]>>, vector<16xf32>
    %s = arith.mulf %v, %a : vector<16xf32>
    scf.yield %s : vector<16xf32>
  }
  return %r : vector<16xf32>
}

// -----

// EPI-LABEL: func.func @huge_epilogue
// EPI-NOT:     memref.prefetch
// EPI:         return
func.func @huge_epilogue(%m: memref<?xf32>, %o: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0.0 : f32
  %z = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> vector<16xf32> {
    %s = arith.mulf %a, %a : vector<16xf32>
    scf.yield %s : vector<16xf32>
  }
  %v = vector.transfer_read %m[%c0], %p {in_bounds = [true]} : memref<?xf32>, vector<4611686018427387904xf32>
  vector.transfer_write %v, %o[%c0] {in_bounds = [true]} : vector<4611686018427387904xf32>, memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @i32_loop
//   CHECK-NOT:   memref.prefetch
//       CHECK:   return
func.func @i32_loop(%b: memref<4096x64xf32>, %a: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %lb = arith.constant 0 : i32
  %ub = arith.constant 4096 : i32
  %st = arith.constant 1 : i32
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %k = %lb to %ub step %st iter_args(%acc = %init) -> (vector<64xf32>) : i32 {
    %i = arith.index_cast %k : i32 to index
    %v = vector.transfer_read %b[%i, %c0], %pad {in_bounds = [true]} : memref<4096x64xf32>, vector<64xf32>
    %f = math.fma %v, %a, %acc : vector<64xf32>
    scf.yield %f : vector<64xf32>
  }
  return %r : vector<64xf32>
}
