// fuse-flatten-narrow-rows on buffers: a transposed vector written as rows
// shorter than a cache line (16 rows of 3 floats). @together: the rows lie
// end to end in the buffer, so the write is one vector of 48 to a collapsed
// view, and the transpose one shuffle. @apart: the 3 floats of each row are
// half of a 6-float row of the buffer (one part of a concat's channels):
// left as it is. @wide: rows of 16 floats, a whole cache line each: left as
// it is. @many: a transpose of three dimensions of more than one element
// (test/Regression/random-10.mlir: its flattened write gave wrong values):
// left as it is.
// RUN: fuse-opt %s --fuse-flatten-narrow-rows | FileCheck %s

// CHECK-LABEL: func.func @apart
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   vector.transpose
//       CHECK:   vector.transfer_write {{.*}} : vector<16x3xf32>, memref<16x3xf32, strided<[6, 1]>>
// CHECK-LABEL: func.func @together
//       CHECK:   vector.shuffle
//       CHECK:   memref.collapse_shape
//       CHECK:   vector.transfer_write {{.*}} : vector<48xf32>, memref<48xf32>

// CHECK-LABEL: func.func @wide
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   vector.transfer_write {{.*}} : vector<3x16xf32>, memref<3x16xf32>
// CHECK-LABEL: func.func @many
//   CHECK-NOT:   memref.collapse_shape
//       CHECK:   vector.transfer_write {{.*}} : vector<2x4x3xf32>, memref<2x4x3xf32>


func.func @apart(%m: memref<16x6xf32>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  %s = memref.subview %m[0, 0] [16, 3] [1, 1] : memref<16x6xf32> to memref<16x3xf32, strided<[6, 1]>>
  vector.transfer_write %t, %s[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32, strided<[6, 1]>>
  return
}

func.func @together(%m: memref<16x3xf32>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32>
  return
}

func.func @wide(%m: memref<3x16xf32>, %v: vector<16x3xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<16x3xf32> to vector<3x16xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<3x16xf32>, memref<3x16xf32>
  return
}

func.func @many(%m: memref<2x4x3xf32>, %v: vector<3x2x4xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 2, 0] : vector<3x2x4xf32> to vector<2x4x3xf32>
  vector.transfer_write %t, %m[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x4x3xf32>, memref<2x4x3xf32>
  return
}
