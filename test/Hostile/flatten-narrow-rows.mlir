// fuse-flatten-narrow-rows on writes it must leave alone or may take,
// none of which may crash it: a dynamic leading dimension (contiguous:
// taken), a dynamic row stride (not known contiguous: left), i1 elements
// (not whole bytes: left), a write that may run out of bounds (left), a
// transpose written twice (both taken, one shuffle), a dynamic offset
// (taken), a write at a dynamic row (taken: its flat index is an
// `affine.apply` of the row, a dialect the pass declares).
// RUN: fuse-opt %s --fuse-flatten-narrow-rows | FileCheck %s

// CHECK-LABEL: func.func @dyn
//       CHECK:   memref.collapse_shape {{.*}} : memref<?x3xf32> into memref<?xf32>
// CHECK-LABEL: func.func @dynstride
//   CHECK-NOT:   collapse_shape
//       CHECK:   vector<16x3xf32>, memref<16x3xf32, strided<[?, 1]>>
// CHECK-LABEL: func.func @i1
//   CHECK-NOT:   collapse_shape
//       CHECK:   vector<16x3xi1>, memref<16x3xi1>
// CHECK-LABEL: func.func @oob
//   CHECK-NOT:   collapse_shape
//       CHECK:   vector<16x3xf32>, memref<16x3xf32>
// CHECK-LABEL: func.func @twice
//       CHECK:   vector.shuffle
//   CHECK-NOT:   vector.shuffle
//       CHECK:   vector<48xf32>, memref<48xf32>
//       CHECK:   vector<48xf32>, memref<48xf32>
// CHECK-LABEL: func.func @offset
//       CHECK:   vector<48xf32>, memref<48xf32, strided<[1], offset: ?>>
// CHECK-LABEL: func.func @row
//       CHECK:   %[[AT:.*]] = affine.apply
//       CHECK:   vector.transfer_write %{{.*}}, %{{.*}}[%[[AT]]] {{.*}} : vector<48xf32>, memref<?xf32>

func.func @dyn(%m: memref<?x3xf32>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<?x3xf32>
  return
}
func.func @dynstride(%m: memref<16x3xf32, strided<[?, 1]>>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32, strided<[?, 1]>>
  return
}
func.func @i1(%m: memref<16x3xi1>, %v: vector<3x16xi1>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xi1> to vector<16x3xi1>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xi1>, memref<16x3xi1>
  return
}
func.func @oob(%m: memref<16x3xf32>, %v: vector<3x16xf32>, %i: index) {
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%i, %i] {in_bounds = [false, true]} : vector<16x3xf32>, memref<16x3xf32>
  return
}
func.func @twice(%m: memref<16x3xf32>, %n: memref<16x3xf32>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32>
  vector.transfer_write %t, %n[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32>
  return
}
func.func @offset(%m: memref<16x3xf32, strided<[3, 1], offset: ?>>, %v: vector<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%c0, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<16x3xf32, strided<[3, 1], offset: ?>>
  return
}
func.func @row(%m: memref<?x3xf32>, %v: vector<3x16xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %t = vector.transpose %v, [1, 0] : vector<3x16xf32> to vector<16x3xf32>
  vector.transfer_write %t, %m[%i, %c0] {in_bounds = [true, true]} : vector<16x3xf32>, memref<?x3xf32>
  return
}
