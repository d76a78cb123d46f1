// fuse-thread-tiles: a tile loop runs on the cores (scf.parallel) when it has
// two tiles or more and at least min-parallel-work instructions, counted in
// its body or as the memory it moves (one per 4 bytes of each buffer from
// outside); otherwise on the calling thread (scf.for), its temporaries
// allocated once before it.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-thread-tiles{min-parallel-work=4096}))' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-thread-tiles{min-parallel-work=0}))' | FileCheck %s --check-prefix=ALL
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-thread-tiles{min-parallel-work=-1}))' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: fuse-thread-tiles: min-parallel-work must be at least 0

#id = affine_map<(d0, d1) -> (d0, d1)>

// Four tiles of 32x64 (a scalar loop of 2048 points, and a copy as many):
// the cores. The temporary
// stays in the tile (each thread its own).
// CHECK-LABEL: func.func @big
// CHECK-NOT: memref.alloc
// CHECK: scf.parallel
// CHECK: memref.alloc() : memref<32x64xf32>
// ALL-LABEL: func.func @big
// ALL: scf.parallel
func.func @big(%in: memref<128x64xf32>, %out: memref<128x64xf32>) {
  scf.forall (%i) = (0) to (128) step (32) {
    %t = memref.alloc() : memref<32x64xf32>
    %a = memref.subview %in[%i, 0] [32, 64] [1, 1] : memref<128x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %out[%i, 0] [32, 64] [1, 1] : memref<128x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<32x64xf32, strided<[64, 1], offset: ?>>) outs(%t : memref<32x64xf32>) {
    ^bb0(%x: f32, %y: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
    memref.copy %t, %b : memref<32x64xf32> to memref<32x64xf32, strided<[64, 1], offset: ?>>
  }
  return
}

// Four tiles of 4x64 (256 and 256), 8 KB moved (2048): below the bound, the
// calling thread; the temporary is hoisted before the loop.
// CHECK-LABEL: func.func @small
// CHECK: memref.alloc() : memref<4x64xf32>
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.parallel
// CHECK-NOT: memref.alloc
// CHECK: return
// ALL-LABEL: func.func @small
// ALL: scf.parallel
func.func @small(%in: memref<16x64xf32>, %out: memref<16x64xf32>) {
  scf.forall (%i) = (0) to (16) step (4) {
    %t = memref.alloc() : memref<4x64xf32>
    %a = memref.subview %in[%i, 0] [4, 64] [1, 1] : memref<16x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %out[%i, 0] [4, 64] [1, 1] : memref<16x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x64xf32, strided<[64, 1], offset: ?>>) outs(%t : memref<4x64xf32>) {
    ^bb0(%x: f32, %y: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
    memref.copy %t, %b : memref<4x64xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
  }
  return
}

// One tile of 128x64: no other tile to share the cores with, whatever its
// work.
// CHECK-LABEL: func.func @one
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// ALL-LABEL: func.func @one
// ALL-NOT: scf.parallel
// ALL: return
func.func @one(%in: memref<128x64xf32>, %out: memref<128x64xf32>) {
  scf.forall (%i) = (0) to (128) step (128) {
    %a = memref.subview %in[%i, 0] [128, 64] [1, 1] : memref<128x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %out[%i, 0] [128, 64] [1, 1] : memref<128x64xf32> to memref<128x64xf32, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<128x64xf32, strided<[64, 1], offset: ?>>) outs(%b : memref<128x64xf32, strided<[64, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
  }
  return
}

// A loop inside the tile counts its trip count times its body, and a vector
// op one instruction per 512 bits: 4 tiles x 64 iterations x (two vectors of
// 256 f32, 16 each, and two scalar ops) = 8704. Counted once, the body (34)
// would keep the nest on one thread; so would vector ops counted as one.
// CHECK-LABEL: func.func @inner_loop
// CHECK: scf.parallel
func.func @inner_loop(%in: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  scf.forall (%i) = (0) to (256) step (64) {
    scf.for %r = %c0 to %c64 step %c1 {
      %row = arith.addi %i, %r : index
      %v = vector.transfer_read %in[%row, %c0], %f0 {in_bounds = [true]} : memref<256x256xf32>, vector<256xf32>
      %e = math.exp %v : vector<256xf32>
      vector.transfer_write %e, %out[%row, %c0] {in_bounds = [true]} : vector<256xf32>, memref<256x256xf32>
    }
  }
  return
}

// Two tiles that each copy 512x64 f32: two instructions by the body's
// count, but 512 KB moved (131072: the two 256 KB buffers, through their
// views): the cores. Counting the body alone would keep it on one thread
// (shown with the pass before the memory count).
// CHECK-LABEL: func.func @memory_bound
// CHECK: scf.parallel
// CHECK-NOT: scf.for
func.func @memory_bound(%in: memref<1024x64xf32>, %out: memref<1024x64xf32>) {
  scf.forall (%i) = (0) to (1024) step (512) {
    %a = memref.subview %in[%i, 0] [512, 64] [1, 1] : memref<1024x64xf32> to memref<512x64xf32, strided<[64, 1], offset: ?>>
    %b = memref.subview %out[%i, 0] [512, 64] [1, 1] : memref<1024x64xf32> to memref<512x64xf32, strided<[64, 1], offset: ?>>
    memref.copy %a, %b : memref<512x64xf32, strided<[64, 1], offset: ?>> to memref<512x64xf32, strided<[64, 1], offset: ?>>
  }
  return
}
