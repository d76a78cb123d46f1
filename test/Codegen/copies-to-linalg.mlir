// RUN: fuse-opt %s --fuse-copies-to-linalg=strided-only=true | FileCheck %s
// RUN: fuse-opt %s --fuse-copies-to-linalg="strided-only=true vector-bytes=128" | FileCheck %s --check-prefix=VEC
// RUN: fuse-opt %s --fuse-copies-to-linalg="vector-bytes=128" | FileCheck %s --check-prefix=ALL
// RUN: not fuse-opt %s --fuse-copies-to-linalg="vector-bytes=-1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fuse-opt %s --fuse-copies-to-linalg="vector-bytes=4096" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: fuse-copies-to-linalg: vector-bytes must be in [0, 1024]

// A copy into a strided view (a padded window's interior) becomes a
// linalg.copy (a loop nest); a copy between contiguous buffers stays a
// memref.copy (one memcpy).
// CHECK-LABEL: func.func @window
//       CHECK:   %[[VIEW:.*]] = memref.subview %arg1
//       CHECK:   linalg.copy ins(%{{.*}} : memref<1x4x8x16xf32, strided<[4096, 256, 16, 1]>>) outs(%[[VIEW]] : memref<1x4x8x16xf32, strided<[960, 160, 16, 1], offset: 176>>)
//   CHECK-NOT:   memref.copy
//       CHECK:   memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32>
func.func @window(%src: memref<1x16x16x16xf32>, %dst: memref<1x6x10x16xf32>, %a: memref<16xf32>, %b: memref<16xf32>) {
  %in = memref.subview %src[0, 0, 0, 0] [1, 4, 8, 16] [1, 1, 1, 1] : memref<1x16x16x16xf32> to memref<1x4x8x16xf32, strided<[4096, 256, 16, 1]>>
  %out = memref.subview %dst[0, 1, 1, 0] [1, 4, 8, 16] [1, 1, 1, 1] : memref<1x6x10x16xf32> to memref<1x4x8x16xf32, strided<[960, 160, 16, 1], offset: 176>>
  memref.copy %in, %out : memref<1x4x8x16xf32, strided<[4096, 256, 16, 1]>> to memref<1x4x8x16xf32, strided<[960, 160, 16, 1], offset: 176>>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  return
}

// With vector-bytes, the window's rows (8 pixels x 16 channels, 128
// contiguous floats in both buffers) are collapsed and copied 32 floats
// (128 bytes) at a time in loops over the other dims, here dynamic ones;
// a copy whose contiguous run is 3 floats stays a linalg.copy, and a
// contiguous copy a memref.copy.
// VEC-LABEL: func.func @window
//   VEC-NOT:   linalg.copy
//       VEC:   %[[FROM:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<1x4x8x16xf32, strided<[4096, 256, 16, 1]>> into memref<1x4x128xf32, strided<[4096, 256, 1]>>
//       VEC:   %[[TO:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<1x4x8x16xf32, strided<[960, 160, 16, 1], offset: 176>> into memref<1x4x128xf32, strided<[960, 160, 1], offset: 176>>
//       VEC:   scf.for %[[I:.*]] = %c0 to %c1{{.*}} step %c1
//       VEC:     scf.for %[[J:.*]] = %c0 to %c4 step %c1
//       VEC:       scf.for %[[K:.*]] = %c0 to %c128 step %c32
//       VEC:         %[[V:.*]] = vector.transfer_read %[[FROM]][%[[I]], %[[J]], %[[K]]], %{{.*}} {in_bounds = [true]} : memref<1x4x128xf32, strided<[4096, 256, 1]>>, vector<32xf32>
//       VEC:         vector.transfer_write %[[V]], %[[TO]][%[[I]], %[[J]], %[[K]]] {in_bounds = [true]}
//       VEC:   memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32>

// VEC-LABEL: func.func @dynamic_rows
//       VEC:   %[[N:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x96xf32, strided<[100, 1]>>
//       VEC:   scf.for %{{.*}} = %c0 to %[[N]] step %c1
//       VEC:     scf.for %{{.*}} = %c0 to %c96 step %c32
//       VEC:       vector.transfer_read {{.*}} vector<32xf32>
func.func @dynamic_rows(%src: memref<?x96xf32, strided<[100, 1]>>, %dst: memref<?x96xf32>) {
  memref.copy %src, %dst : memref<?x96xf32, strided<[100, 1]>> to memref<?x96xf32>
  return
}

// VEC-LABEL: func.func @short_run
//   VEC-NOT:   vector.transfer_read
//       VEC:   linalg.copy
func.func @short_run(%src: memref<4x3xf32, strided<[8, 1]>>, %dst: memref<4x3xf32>) {
  memref.copy %src, %dst : memref<4x3xf32, strided<[8, 1]>> to memref<4x3xf32>
  return
}

// Every copy (no strided-only) with vector-bytes: an unranked copy and one
// of index elements, whose width the vector transfers do not take, are
// linalg.copy like before (ALL).
// ALL-LABEL: func.func @unranked
//       ALL:   linalg.copy ins(%{{.*}} : memref<*xf32>)
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}

// ALL-LABEL: func.func @index_elements
//   ALL-NOT:   vector.transfer_read
//       ALL:   linalg.copy ins(%{{.*}} : memref<4x8xindex, strided<[16, 1]>>)
func.func @index_elements(%a: memref<4x8xindex, strided<[16, 1]>>, %b: memref<4x8xindex>) {
  memref.copy %a, %b : memref<4x8xindex, strided<[16, 1]>> to memref<4x8xindex>
  return
}
