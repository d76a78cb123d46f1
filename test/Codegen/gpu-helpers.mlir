// The small passes of --fuse-lower-to-nvvm, one at a time.
// RUN: fuse-opt %s --split-input-file --fuse-copies-to-linalg | FileCheck %s --check-prefix=COPY
// RUN: fuse-opt %s --split-input-file --fuse-linearize-tile-loops | FileCheck %s --check-prefix=LIN
// RUN: fuse-opt %s --split-input-file --fuse-gpu-host-memory | FileCheck %s --check-prefix=MEM

// COPY-LABEL: func.func @copy
//       COPY:   linalg.copy ins(%arg0 : memref<4x8xf32>) outs(%arg1 : memref<4x8xf32>)
//   COPY-NOT:   memref.copy
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// A 2-d tile loop becomes one dimension of 6 * 5 iterations; nested loops
// are left alone.
// LIN-LABEL: func.func @linearize
//       LIN:   scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N:.*]]) step (%{{.*}}) {
//       LIN:     arith.remsi %[[I]]
//       LIN:     arith.divsi %[[I]]
//       LIN:     scf.parallel (%{{.*}}, %{{.*}}) =
func.func @linearize(%m: memref<6x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c5) step (%c1, %c1) {
    scf.parallel (%k, %l) = (%c0, %c0) to (%c1, %c1) step (%c1, %c1) {
      memref.store %f, %m[%i, %j] : memref<6x5xf32>
    }
  }
  return
}

// -----

// Host allocations become managed memory, freed on a stream; a kernel's
// temporary becomes a stack buffer at its entry; an argument the kernel
// writes is registered before the launch.
// MEM-LABEL: func.func @memory
//       MEM:   %[[H:.*]] = gpu.alloc  host_shared () : memref<16xf32>
//       MEM:   %[[U:.*]] = memref.cast %arg0 : memref<16xf32> to memref<*xf32>
//       MEM:   gpu.host_register %[[U]] : memref<*xf32>
//       MEM:   gpu.launch
//       MEM:     memref.alloca() : memref<4xf32>
//   MEM-NOT:     memref.alloc()
//   MEM-NOT:     memref.dealloc
//       MEM:   %[[T0:.*]] = gpu.wait async
//       MEM:   %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[H]] : memref<16xf32>
//       MEM:   gpu.wait [%[[T1]]]
func.func @memory(%arg0: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %h = memref.alloc() : memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %t = memref.alloc() : memref<4xf32>
    memref.store %f, %t[%c0] : memref<4xf32>
    %r = memref.load %t[%c0] : memref<4xf32>
    memref.store %r, %arg0[%c0] : memref<16xf32>
    memref.dealloc %t : memref<4xf32>
    gpu.terminator
  }
  memref.dealloc %h : memref<16xf32>
  return
}

// -----

// A constant global a kernel reads, and a view of one, are read from the
// device copy (the runtime copies it once; the view is repeated on the
// copy); a mutable global is registered like an argument; a view of a
// managed allocation is not registered; host code keeps reading the host
// global.
// MEM-LABEL: func.func private @fuse_device_constant_f32(memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface}
//   MEM-NOT: func.func private @fuse_device_constant
// MEM-LABEL: func.func @constants
//       MEM:   %[[W:.*]] = memref.get_global @w : memref<2x3xf32>
//       MEM:   %[[WV:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [6], strides: [1] : memref<2x3xf32> to memref<6xf32>
//       MEM:   %[[WD:.*]] = memref.cast %[[WV]] : memref<6xf32> to memref<?xf32>
//       MEM:   %[[WC:.*]] = call @fuse_device_constant_f32(%[[WD]])
//       MEM:   %[[WDEV:.*]] = memref.reinterpret_cast %[[WC]] to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<?xf32> to memref<2x3xf32>
//       MEM:   %[[S:.*]] = memref.get_global @s : memref<f32>
//       MEM:   call @fuse_device_constant_f32
//       MEM:   %[[SDEV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [], strides: [] : memref<?xf32> to memref<f32>
//       MEM:   %[[M:.*]] = memref.get_global @mut : memref<4xf32>
//       MEM:   %[[ROW:.*]] = memref.subview %[[W]][1, 0] [1, 3] [1, 1]
//       MEM:   %[[ROWDEV:.*]] = memref.subview %[[WDEV]][1, 0] [1, 3] [1, 1]
//       MEM:   %[[SH:.*]] = gpu.alloc  host_shared () : memref<2x4xf32>
//       MEM:   %[[SHV:.*]] = memref.collapse_shape %[[SH]]
//       MEM:   %[[MU:.*]] = memref.cast %[[M]] : memref<4xf32> to memref<*xf32>
//       MEM:   gpu.host_register %[[MU]]
//   MEM-NOT:   gpu.host_register
//       MEM:   gpu.launch
//       MEM:     memref.load %[[WDEV]]
//       MEM:     memref.load %[[SDEV]][]
//       MEM:     memref.load %[[ROWDEV]]
//       MEM:     memref.store %{{.*}}, %[[M]]
//       MEM:     memref.store %{{.*}}, %[[SHV]]
//       MEM:   memref.load %[[W]]
//       MEM:   memref.load %[[ROW]]
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @s : memref<f32> = dense<2.0>
memref.global "private" @mut : memref<4xf32> = dense<0.0>
func.func @constants(%out: memref<2x3xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %w = memref.get_global @w : memref<2x3xf32>
  %s = memref.get_global @s : memref<f32>
  %m = memref.get_global @mut : memref<4xf32>
  %row = memref.subview %w[1, 0] [1, 3] [1, 1] : memref<2x3xf32> to memref<1x3xf32, strided<[3, 1], offset: 3>>
  %sh = memref.alloc() : memref<2x4xf32>
  %shv = memref.collapse_shape %sh [[0, 1]] : memref<2x4xf32> into memref<8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %q = %c1) {
    %a = memref.load %w[%c0, %c1] : memref<2x3xf32>
    %b = memref.load %s[] : memref<f32>
    %r = memref.load %row[%c0, %c1] : memref<1x3xf32, strided<[3, 1], offset: 3>>
    %p = arith.mulf %a, %b : f32
    %p2 = arith.mulf %p, %r : f32
    memref.store %p, %m[%c0] : memref<4xf32>
    memref.store %p2, %shv[%c0] : memref<8xf32>
    gpu.terminator
  }
  %h = memref.load %w[%c0, %c0] : memref<2x3xf32>
  %h2 = memref.load %row[%c0, %c0] : memref<1x3xf32, strided<[3, 1], offset: 3>>
  %h3 = arith.addf %h, %h2 : f32
  memref.store %h3, %out[%c1, %c1] : memref<2x3xf32>
  return
}
