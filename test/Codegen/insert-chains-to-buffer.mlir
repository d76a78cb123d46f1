// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=2 | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=4 | FileCheck %s --check-prefix=SHORT
// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=100 | FileCheck %s --check-prefix=PARTS
// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=100 --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=INPLACE
// RUN: fuse-opt %s -split-input-file --fuse-insert-chains-to-buffer=min-length=100 --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUFFERS
// RUN: %fuse-diff %s --entry read_part_after_insert,chain_in_outer_box -p "--fuse-insert-chains-to-buffer=min-length=100" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 3 outputs, 76 values, max abs err 0, max rel err 0

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

// -----

// A part read after the chain it is inserted into (a peeled nest's last
// tile, read by the next group's nest through a fold of its extract) is
// read from the chain's result at its box (PARTS). One-shot bufferization
// then computes it in place; read as itself, after the insert wrote the
// buffer it lives in, it was computed into a temporary copied in before
// and out after its nest (INPLACE; the only allocations are the result
// and the later read's own).
// PARTS-LABEL: func.func @read_part_after_insert
//       PARTS:   %[[B:.*]] = scf.forall (%{{.*}}) in (2)
//       PARTS:   %[[I1:.*]] = tensor.insert_slice %[[B]] into %{{.*}}[6, 0] [2, 4] [1, 1]
//       PARTS:   %[[READ:.*]] = tensor.extract_slice %[[I1]][6, 0] [2, 4] [1, 1]
//       PARTS:   scf.forall
//       PARTS:     tensor.extract_slice %[[READ]]
// INPLACE-LABEL: func.func @read_part_after_insert
//       INPLACE:   %[[BUF:.*]] = memref.alloc() {{.*}} : memref<8x4xf32>
//   INPLACE-NOT:   memref.alloc
//       INPLACE:   %[[OUT:.*]] = memref.alloc() {{.*}} : memref<2x4xf32>
//   INPLACE-NOT:   memref.alloc
//       INPLACE:   return %[[BUF]], %[[OUT]]
func.func @read_part_after_insert(%x: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %a = tensor.extract_slice %e[0, 0] [6, 4] [1, 1] : tensor<8x4xf32> to tensor<6x4xf32>
  %pa = scf.forall (%i) in (6) shared_outs(%o = %a) -> (tensor<6x4xf32>) {
    %xr = tensor.extract_slice %x[%i, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<1x4xf32>
    %or = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<6x4xf32> to tensor<1x4xf32>
    %r = linalg.exp ins(%xr : tensor<1x4xf32>) outs(%or : tensor<1x4xf32>) -> tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<6x4xf32>
    }
  }
  %i0 = tensor.insert_slice %pa into %e[0, 0] [6, 4] [1, 1] : tensor<6x4xf32> into tensor<8x4xf32>
  %b = tensor.extract_slice %i0[6, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
  %pb = scf.forall (%i) in (2) shared_outs(%o = %b) -> (tensor<2x4xf32>) {
    %j = arith.addi %i, %i : index
    %xr = tensor.extract_slice %x[%j, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<1x4xf32>
    %or = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
    %r = linalg.exp ins(%xr : tensor<1x4xf32>) outs(%or : tensor<1x4xf32>) -> tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
    }
  }
  %i1 = tensor.insert_slice %pb into %i0[6, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
  %f = tensor.empty() : tensor<2x4xf32>
  %later = scf.forall (%i) in (2) shared_outs(%o = %f) -> (tensor<2x4xf32>) {
    %pr = tensor.extract_slice %pb[%i, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
    %or = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<1x4xf32>
    %r = linalg.negf ins(%pr : tensor<1x4xf32>) outs(%or : tensor<1x4xf32>) -> tensor<1x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %r into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<2x4xf32>
    }
  }
  return %i1, %later : tensor<8x4xf32>, tensor<2x4xf32>
}

// -----

// A short chain into a tensor.empty whose result is inserted whole into a
// bigger tensor (a padded buffer) starts from that tensor's box, so that
// bufferization writes every part there. Both parts are computed into
// their destination, the first into a tensor.empty of its own, whose
// insert upstream's empty-tensor elimination takes first: without the
// rewrite the chain keeps the 4x4 tensor.empty's buffer and the outer
// insert copies it (BUFFERS, as the pipeline bufferizes: no copy).
// PARTS-LABEL: func.func @chain_in_outer_box
//       PARTS:   %[[H:.*]] = linalg.fill
//       PARTS:   %[[BOX:.*]] = tensor.extract_slice %[[H]][1, 1] [4, 4] [1, 1]
//       PARTS:   %[[P0:.*]] = tensor.insert_slice %{{.*}} into %[[BOX]][0, 0] [2, 4] [1, 1]
//       PARTS:   %[[P1:.*]] = tensor.insert_slice %{{.*}} into %[[P0]][2, 0] [2, 4] [1, 1]
//       PARTS:   tensor.insert_slice %[[P1]] into %[[H]][1, 1] [4, 4] [1, 1]
// BUFFERS-LABEL: func.func @chain_in_outer_box
//   BUFFERS-NOT:   memref.copy
//       BUFFERS:   return
func.func @chain_in_outer_box(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>, %f: f32) -> tensor<6x6xf32> {
  %h0 = tensor.empty() : tensor<6x6xf32>
  %h = linalg.fill ins(%f : f32) outs(%h0 : tensor<6x6xf32>) -> tensor<6x6xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %y = linalg.exp ins(%a : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %0 = tensor.insert_slice %y into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %d = tensor.extract_slice %0[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %x = linalg.exp ins(%b : tensor<2x4xf32>) outs(%d : tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tensor.insert_slice %x into %0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %2 = tensor.insert_slice %1 into %h[1, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<6x6xf32>
  return %2 : tensor<6x6xf32>
}

// -----

// Left alone: the bigger tensor is made after the chain (it does not
// dominate the tensor.empty).
// PARTS-LABEL: func.func @outer_box_after_chain
//       PARTS:   %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
//       PARTS:   tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 4] [1, 1]
func.func @outer_box_after_chain(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>, %f: f32) -> tensor<6x6xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %1 = tensor.insert_slice %b into %0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %h0 = tensor.empty() : tensor<6x6xf32>
  %h = linalg.fill ins(%f : f32) outs(%h0 : tensor<6x6xf32>) -> tensor<6x6xf32>
  %2 = tensor.insert_slice %1 into %h[1, 1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<6x6xf32>
  return %2 : tensor<6x6xf32>
}
