// RUN: fuse-opt %s --fuse-distribute-tiles | FileCheck %s

// fuse-distribute-tiles erases a barrier that follows another with no
// memory access between: after a branch whose two paths end with one,
// after a loop that runs at least once and ends with one (index arithmetic
// and views between do not count). A barrier after a branch with one path
// ending in a barrier, after a loop that may not run (bounds unknown, or
// compared unsigned: -1 to 4 runs no iteration), or after a memory access
// stays.
// CHECK-LABEL: func.func @barriers
//       CHECK:   gpu.launch
// The branch with both paths ending in a barrier:
//       CHECK:     scf.if
//       CHECK:       memref.store
//       CHECK:       gpu.barrier
//       CHECK:     } else {
//       CHECK:       gpu.barrier
//       CHECK:     }
//  CHECK-NEXT:     memref.subview
//  CHECK-NEXT:     memref.store
// The loop of 4 chunks:
//       CHECK:     scf.for
//       CHECK:       gpu.barrier
//       CHECK:     }
//  CHECK-NEXT:     arith.addi
//  CHECK-NEXT:     memref.store
// Kept: one path, a loop of unknown trip count, a store between.
//       CHECK:     scf.if
//       CHECK:     }
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.for
//       CHECK:     }
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     scf.for unsigned
//       CHECK:     }
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     memref.store
//  CHECK-NEXT:     gpu.barrier
//  CHECK-NEXT:     gpu.terminator
func.func @barriers(%buf: memref<256xf32, #gpu.address_space<workgroup>>, %out: memref<256xf32>, %c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cm1 = arith.constant -1 : index
  %c256 = arith.constant 256 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    scf.if %c {
      memref.store %f, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    } else {
      gpu.barrier
    }
    %v = memref.subview %out[0] [128] [1] : memref<256xf32> to memref<128xf32, strided<[1]>>
    gpu.barrier
    memref.store %f, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %f, %buf[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %j = arith.addi %tx, %c1 : index
    gpu.barrier
    memref.store %f, %out[%j] : memref<256xf32>
    scf.if %c {
      memref.store %f, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.barrier
    scf.for %i = %c0 to %n step %c1 {
      memref.store %f, %buf[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.barrier
    scf.for unsigned %i = %cm1 to %c4 step %c1 {
      memref.store %f, %buf[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.barrier
    memref.store %f, %buf[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.terminator
  }
  return
}
