// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=2 | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=4 | FileCheck %s --check-prefix=SHORT

// A chain of inserts into an empty tensor: one buffer, each part
// materialized into its view; the part computed in place reads its
// destination as to_tensor of the same view (so the copy folds).
// CHECK-LABEL: func.func @chain
//       CHECK:   %[[BUF:.*]] = memref.alloc() : memref<3x8xf32>
//   CHECK-DAG:   %[[V2:.*]] = memref.subview %[[BUF]][2, 0] [1, 8] [1, 1] : memref<3x8xf32> to memref<8xf32
//   CHECK-DAG:   %[[V1:.*]] = memref.subview %[[BUF]][1, 0] [1, 8] [1, 1]
//   CHECK-DAG:   %[[V0:.*]] = memref.subview %[[BUF]][0, 0] [1, 8] [1, 1]
//       CHECK:   bufferization.materialize_in_destination %arg0 in restrict writable %[[V0]]
//       CHECK:   %[[D:.*]] = bufferization.to_tensor %[[V1]] restrict writable
//       CHECK:   %[[X:.*]] = linalg.exp ins(%arg1 : tensor<1x8xf32>) outs(%[[D]] : tensor<1x8xf32>)
//       CHECK:   bufferization.materialize_in_destination %[[X]] in restrict writable %[[V1]]
//       CHECK:   bufferization.materialize_in_destination %arg2 in restrict writable %[[V2]]
//       CHECK:   %[[R:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
//       CHECK:   return %[[R]]
//   CHECK-NOT:   tensor.insert_slice
// SHORT-LABEL: func.func @chain
//       SHORT:   tensor.insert_slice
func.func @chain(%a: tensor<1x8xf32>, %b: tensor<1x8xf32>, %c: tensor<8xf32>) -> tensor<3x8xf32> {
  %e = tensor.empty() : tensor<3x8xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<3x8xf32>
  %d = tensor.extract_slice %0[1, 0] [1, 8] [1, 1] : tensor<3x8xf32> to tensor<1x8xf32>
  %x = linalg.exp ins(%b : tensor<1x8xf32>) outs(%d : tensor<1x8xf32>) -> tensor<1x8xf32>
  %1 = tensor.insert_slice %x into %0[1, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<3x8xf32>
  %2 = tensor.insert_slice %c into %1[2, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<3x8xf32>
  return %2 : tensor<3x8xf32>
}

// -----

// Constant operands as offsets (TosaToTensor's concat), a destination that
// is not empty (copied into the buffer first).
// CHECK-LABEL: func.func @constant_offsets
//       CHECK:   %[[BUF:.*]] = memref.alloc() : memref<2x4xf32>
//       CHECK:   bufferization.materialize_in_destination %arg2 in restrict writable %[[BUF]]
//       CHECK:   bufferization.materialize_in_destination %arg0
//       CHECK:   bufferization.materialize_in_destination %arg1
//   CHECK-NOT:   tensor.insert_slice
func.func @constant_offsets(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %init: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tensor.insert_slice %a into %init[%c0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  %1 = tensor.insert_slice %b into %0[%c1, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// Overlapping regions (the second insert overwrites the first's): left
// to bufferization, which orders them.
// CHECK-LABEL: func.func @overlap
//   CHECK-NOT:   memref.alloc
//       CHECK:   tensor.insert_slice
//       CHECK:   tensor.insert_slice
func.func @overlap(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
  %1 = tensor.insert_slice %b into %0[1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// A link read elsewhere (the partial tensor returned): the chain stops
// there; the rest is a chain of its own only if long enough.
// CHECK-LABEL: func.func @read_midway
//       CHECK:   %[[BUF:.*]] = memref.alloc() : memref<3x4xf32>
//       CHECK:   %[[PART:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
//       CHECK:   %[[LAST:.*]] = tensor.insert_slice %arg2 into %[[PART]]
//       CHECK:   return %[[PART]], %[[LAST]]
func.func @read_midway(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %c: tensor<1x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
  %1 = tensor.insert_slice %b into %0[1, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
  %2 = tensor.insert_slice %c into %1[2, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<3x4xf32>
  return %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>
}
