// RUN: fuse-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-merge-group-launches))" | FileCheck %s
// RUN: fuse-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-merge-group-launches{report=true}))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Two independent nests of one group (each writes its own result, both
// read the input): one launch of 4 + 2 blocks. Blocks 0-3 run the first
// body, blocks 4-5 the second with their index shifted; the two bodies'
// shared buffers are views of one pool as large as the larger of the two
// (they never run in one block); a host allocation between the launches
// moves before the merged launch.
// CHECK-LABEL: func.func @independent
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<256xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<64xf32>
//       CHECK:   gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}) in (%{{[^ ]*}} = %c6, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}) in (%{{[^ ]*}} = %c64{{.*}}) workgroup(%[[POOL:.*]] : memref<1024xi8, #gpu.address_space<workgroup>>)
//       CHECK:     %[[FIRST:.*]] = arith.cmpi ult, %[[BX]], %c4
//       CHECK:     scf.if %[[FIRST]] {
//       CHECK:       memref.view %[[POOL]][%{{.*}}][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK:       memref.store %{{.*}}, %[[A]]
//       CHECK:     } else {
//       CHECK:       %[[SHIFTED:.*]] = arith.subi %[[BX]], %c4
//       CHECK:       memref.view %[[POOL]][%{{.*}}][] : memref<1024xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
//       CHECK:       arith.muli %[[SHIFTED]]
//       CHECK:       memref.store %{{.*}}, %[[B]]
//       CHECK:     }
//       CHECK:     gpu.terminator
//       CHECK:   } {fuse.group_nest = 0 : i64}
//   CHECK-NOT:   gpu.launch
func.func @independent(%x: memref<256xf32>) -> (memref<256xf32>, memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %s[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %a[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  %b = memref.alloc() : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%s : memref<16x16xf32, #gpu.address_space<workgroup>>) {
    %c32 = arith.constant 32 : index
    %base = arith.muli %bx, %c32 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<256xf32>
    %c0 = arith.constant 0 : index
    memref.store %v, %s[%c0, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %s[%c0, %c0] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %j = arith.remui %i, %c64 : index
    memref.store %w, %b[%j] : memref<64xf32>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  return %a, %b : memref<256xf32>, memref<64xf32>
}

// -----

// The second nest reads what the first writes (a grid-wide dependence):
// two launches.
// CHECK-LABEL: func.func @dependent
// REMARK: merge-group-launches.mlir:[[@LINE+17]]:3: remark: fuse-merge-group-launches: not merged with the previous launch of its group: one writes a buffer the other accesses
//       CHECK:   gpu.launch
//       CHECK:   gpu.launch
func.func @dependent(%x: memref<256xf32>) -> memref<256xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %a[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 3 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %c64 : index
    %i = arith.addi %base, %tx : index
    %c255 = arith.constant 255 : index
    %j = arith.subi %c255, %i : index
    %v = memref.load %a[%j] : memref<256xf32>
    memref.store %v, %b[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 3 : i64}
  return %b : memref<256xf32>
}

// -----

// Independent launches of two different groups, and of one group with a
// host copy between them (it may read the first launch's result): no merge.
// CHECK-LABEL: func.func @apart
// REMARK: merge-group-launches.mlir:[[@LINE+26]]:3: remark: fuse-merge-group-launches: not merged with the previous launch of its group: a host op between them cannot move
// REMARK-NOT: remark
//       CHECK-COUNT-4: gpu.launch blocks
func.func @apart(%x: memref<256xf32>, %y: memref<256xf32>) -> (memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  %d = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %a[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 1 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %b[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 2 : i64}
  memref.copy %b, %y : memref<256xf32> to memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %c[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 2 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %d[%i] : memref<256xf32>
    gpu.terminator
  }
  return %a, %b, %c, %d : memref<256xf32>, memref<256xf32>, memref<256xf32>, memref<256xf32>
}

// -----

// The first launch writes whichever of two buffers a branch picks; the
// second reads one of them: both are counted, no merge. A launch that reads
// its block id with an op (not the launch's block argument) is not merged
// either: the op would see the merged grid.
// CHECK-LABEL: func.func @chosen_buffers
//       CHECK-COUNT-3: gpu.launch blocks
// REMARK: remark: fuse-merge-group-launches: not merged with the previous launch of its group: one writes a buffer the other accesses
// REMARK: remark: fuse-merge-group-launches: not merged with the previous launch of its group: an op of unknown memory effects, a buffer chosen inside the body, or block and grid ids read as ops
func.func @chosen_buffers(%x: memref<256xf32>, %flag: i1) -> (memref<256xf32>, memref<256xf32>, memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() : memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  %c = memref.alloc() : memref<256xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    %dst = scf.if %flag -> memref<256xf32> {
      scf.yield %a : memref<256xf32>
    } else {
      scf.yield %b : memref<256xf32>
    }
    memref.store %v, %dst[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 5 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %c64 : index
    %v = memref.load %b[%i] : memref<256xf32>
    memref.store %v, %c[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 5 : i64}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %id = gpu.block_id x
    %i = arith.muli %id, %c64 : index
    %v = memref.load %x[%i] : memref<256xf32>
    memref.store %v, %a[%i] : memref<256xf32>
    gpu.terminator
  } {fuse.group_nest = 5 : i64}
  return %a, %b, %c : memref<256xf32>, memref<256xf32>, memref<256xf32>
}

// -----

// Two nests writing the even and the odd rows of one buffer (the pieces of
// a split channel shuffle) through strided views: disjoint, one launch.
// CHECK-LABEL: func.func @interleaved_rows
//       CHECK:   gpu.launch blocks
//       CHECK:     scf.if
//   CHECK-NOT:   gpu.launch blocks
func.func @interleaved_rows(%x: memref<4x32xf32>) -> memref<8x32xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<8x32xf32>
  %even = memref.subview %a[0, 0] [4, 32] [2, 1] : memref<8x32xf32> to memref<4x32xf32, strided<[64, 1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx, %tx] : memref<4x32xf32>
    memref.store %v, %even[%bx, %tx] : memref<4x32xf32, strided<[64, 1]>>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  %odd = memref.subview %a[1, 0] [4, 32] [2, 1] : memref<8x32xf32> to memref<4x32xf32, strided<[64, 1], offset: 32>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx, %tx] : memref<4x32xf32>
    %e = math.exp %v : f32
    memref.store %e, %odd[%bx, %tx] : memref<4x32xf32, strided<[64, 1], offset: 32>>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  return %a : memref<8x32xf32>
}

// -----

// Negative: the second nest's rows 1, 3, 5, 7 (stride 2 from 1) meet the
// first's rows 0-3 (rows 1 and 3): two launches.
// CHECK-LABEL: func.func @overlapping_rows
// REMARK: merge-group-launches.mlir:[[@LINE+16]]:3: remark: fuse-merge-group-launches: not merged with the previous launch of its group: one writes a buffer the other accesses
//       CHECK:   gpu.launch blocks
//       CHECK:   gpu.launch blocks
func.func @overlapping_rows(%x: memref<4x32xf32>) -> memref<8x32xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<8x32xf32>
  %top = memref.subview %a[0, 0] [4, 32] [1, 1] : memref<8x32xf32> to memref<4x32xf32, strided<[32, 1]>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx, %tx] : memref<4x32xf32>
    memref.store %v, %top[%bx, %tx] : memref<4x32xf32, strided<[32, 1]>>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  %odd = memref.subview %a[1, 0] [4, 32] [2, 1] : memref<8x32xf32> to memref<4x32xf32, strided<[64, 1], offset: 32>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %x[%bx, %tx] : memref<4x32xf32>
    memref.store %v, %odd[%bx, %tx] : memref<4x32xf32, strided<[64, 1], offset: 32>>
    gpu.terminator
  } {fuse.group_nest = 0 : i64}
  return %a : memref<8x32xf32>
}
