// RUN: fuse-opt %s --fuse-copies-to-linalg=strided-only=true | FileCheck %s

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
