// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-slice-producers),canonicalize,cse)" | FileCheck %s
// RUN: %fuse-diff %s --entry patch_tokens,binary_parts,repeated_part,nested,sliced_constant,slice_of_part,folded_part,broadcast_across -p "--pass-pipeline=builtin.module(func.func(fuse-slice-producers))" --lower="--fuse-lower-to-cpu='reassociate=false approximate-math=false'" | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s --entry patch_tokens,binary_parts,repeated_part,nested,sliced_constant,two_readers,slice_of_part,folded_part,broadcast_across -p "--fuse-ops" | FileCheck %s --check-prefix=NUM2
// RUN: fuse-opt %s --fuse-ops > %t.once.mlir
// RUN: fuse-opt %t.once.mlir --fuse-ops | diff %t.once.mlir -
// NUM: fuse-diff: OK 11 outputs, {{.*}} max abs err 0, max rel err 0
// NUM2: fuse-diff: OK 13 outputs

// ViT's embedding: [class token; patches] + position embedding. The add
// moves below the concat; its part on the class token adds two constants
// and folds; the position embedding is sliced for the patches (a constant
// slice, folded too). The concat of a constant and a computed part is
// what the group's kernel writes in place.
// CHECK-LABEL: func.func @patch_tokens
//  CHECK-SAME: (%[[P:.*]]: tensor<1x4x3xf32>)
//   CHECK-DAG:   %[[ROW:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.100000e+00, 2.200000e+00, 3.300000e+00]]]> : tensor<1x1x3xf32>}>
//   CHECK-DAG:   %[[POS:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}2.000000e+00, 2.000000e+00, 2.000000e+00], [3.000000e+00, 3.000000e+00, 3.000000e+00], [4.000000e+00, 4.000000e+00, 4.000000e+00], [5.000000e+00, 5.000000e+00, 5.000000e+00]]]> : tensor<1x4x3xf32>}>
//       CHECK:   %[[A:.*]] = tosa.add %[[P]], %[[POS]] : (tensor<1x4x3xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
//       CHECK:   %[[C:.*]] = tosa.concat %[[ROW]], %[[A]] {axis = 1 : i32}
//       CHECK:   return %[[C]]
func.func @patch_tokens(%p: tensor<1x4x3xf32>) -> tensor<1x5x3xf32> {
  %cls = "tosa.const"() <{values = dense<[[[0.1, 0.2, 0.3]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %pos = "tosa.const"() <{values = dense<[[[1.0, 2.0, 3.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0], [5.0, 5.0, 5.0]]]> : tensor<1x5x3xf32>}> : () -> tensor<1x5x3xf32>
  %c = tosa.concat %cls, %p {axis = 1 : i32} : (tensor<1x1x3xf32>, tensor<1x4x3xf32>) -> tensor<1x5x3xf32>
  %r = tosa.add %c, %pos : (tensor<1x5x3xf32>, tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  return %r : tensor<1x5x3xf32>
}

// The other operand is cut at the parts' boundaries along the axis and
// kept whole where it broadcasts; a chain of elementwise ops moves down
// one op at a time.
// CHECK-LABEL: func.func @binary_parts
//  CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x5xf32>, %[[Z:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<1x8xf32>)
//   CHECK-DAG:   %[[Z0:.*]] = tosa.slice %[[Z]], {{.*}} -> tensor<2x3xf32>
//   CHECK-DAG:   %[[Z1:.*]] = tosa.slice %[[Z]], {{.*}} -> tensor<2x5xf32>
//   CHECK-DAG:   %[[B0:.*]] = tosa.slice %[[B]], {{.*}} -> tensor<1x3xf32>
//   CHECK-DAG:   %[[B1:.*]] = tosa.slice %[[B]], {{.*}} -> tensor<1x5xf32>
//   CHECK-DAG:   %[[M0:.*]] = tosa.maximum %[[X]], %[[Z0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
//   CHECK-DAG:   %[[M1:.*]] = tosa.maximum %[[Y]], %[[Z1]] : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
//   CHECK-DAG:   %[[S0:.*]] = tosa.sub %[[M0]], %[[B0]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
//   CHECK-DAG:   %[[S1:.*]] = tosa.sub %[[M1]], %[[B1]] : (tensor<2x5xf32>, tensor<1x5xf32>) -> tensor<2x5xf32>
//       CHECK:   tosa.concat %[[S0]], %[[S1]] {axis = 1 : i32}
func.func @binary_parts(%x: tensor<2x3xf32>, %y: tensor<2x5xf32>, %z: tensor<2x8xf32>, %b: tensor<1x8xf32>) -> tensor<2x8xf32> {
  %c = tosa.concat %x, %y {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %m = tosa.maximum %c, %z : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tosa.sub %m, %b : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// A part the concat repeats is computed once when nothing is cut along the
// axis (the scale broadcasts along it).
// CHECK-LABEL: func.func @repeated_part
//  CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[K:.*]]: tensor<2x1xf32>)
//       CHECK:   %[[M:.*]] = tosa.mul %[[X]], %[[K]], %{{.*}} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
//   CHECK-NOT:   tosa.mul
//       CHECK:   tosa.concat %[[M]], %[[M]] {axis = 1 : i32}
func.func @repeated_part(%x: tensor<2x3xf32>, %k: tensor<2x1xf32>) -> tensor<2x6xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.concat %x, %x {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %m = tosa.mul %c, %k, %sh : (tensor<2x6xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x6xf32>
  return %m : tensor<2x6xf32>
}

// Concats of concats: the op reaches every leaf, each computed once.
// CHECK-LABEL: func.func @nested
//  CHECK-SAME: (%[[X:.*]]: tensor<1x2xf32>, %[[Y:.*]]: tensor<1x2xf32>)
//   CHECK-DAG:   %[[TX:.*]] = tosa.tanh %[[X]] : (tensor<1x2xf32>) -> tensor<1x2xf32>
//   CHECK-DAG:   %[[TY:.*]] = tosa.tanh %[[Y]] : (tensor<1x2xf32>) -> tensor<1x2xf32>
//   CHECK-NOT:   tosa.tanh
//       CHECK:   %[[I:.*]] = tosa.concat %[[TX]], %[[TY]] {axis = 1 : i32}
//       CHECK:   tosa.concat %[[I]], %[[I]] {axis = 0 : i32}
func.func @nested(%x: tensor<1x2xf32>, %y: tensor<1x2xf32>) -> tensor<2x4xf32> {
  %i = tosa.concat %x, %y {axis = 1 : i32} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  %o = tosa.concat %i, %i {axis = 0 : i32} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %t = tosa.tanh %o : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %t : tensor<2x4xf32>
}

// A slice of a constant that is also read whole folds to a constant of its
// own; the whole constant stays for its other reader.
// CHECK-LABEL: func.func @sliced_constant
//   CHECK-DAG:   "tosa.const"() <{values = dense<{{\[\[}}2.000000e+00, 3.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>}>
//   CHECK-DAG:   "tosa.const"() <{values = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}>
//   CHECK-NOT:   tosa.slice
func.func @sliced_constant(%x: tensor<2x2xf32>, %y: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>) {
  %k = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %start = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %k, %start, %size : (tensor<2x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
  %a = tosa.add %x, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = tosa.add %y, %k : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a, %b : tensor<2x2xf32>, tensor<2x3xf32>
}

// Not moved: the concat has another reader (it would still be built for
// it).
// CHECK-LABEL: func.func @two_readers
//       CHECK:   %[[C:.*]] = tosa.concat
//       CHECK:   tosa.exp %[[C]]
//       CHECK:   return
func.func @two_readers(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %c = tosa.concat %x, %y {axis = 0 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %e = tosa.exp %c : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %c, %e : tensor<4x3xf32>, tensor<4x3xf32>
}
// A slice inside one part of the concat reads that part (whatever else
// reads the concat), so the concat's other reader, now its only one, moves
// below it in the same run (random graph 1143 of fuse-random-test --large:
// a second --fuse-ops used to do it).
// CHECK-LABEL: func.func @slice_of_part
//  CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>)
//   CHECK-DAG:   %[[EX:.*]] = tosa.exp %[[X]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
//   CHECK-DAG:   %[[EY:.*]] = tosa.exp %[[Y]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
//       CHECK:   %[[C:.*]] = tosa.concat %[[EX]], %[[EY]] {axis = 0 : i32}
//       CHECK:   %[[S:.*]] = tosa.slice %[[Y]], {{.*}} -> tensor<1x2xf32>
//       CHECK:   return %[[C]], %[[S]]
func.func @slice_of_part(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<1x2xf32>) {
  %c = tosa.concat %x, %y {axis = 0 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %e = tosa.exp %c : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %start = tosa.const_shape {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %c, %start, %size : (tensor<4x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  return %e, %s : tensor<4x3xf32>, tensor<1x2xf32>
}
// A slice of a part that folds to a constant (abs of a constant) folds
// too, in the same run: the pass repeats its patterns while constants fold
// (random graph 3303 of fuse-random-test --large --mixed-precision).
// CHECK-LABEL: func.func @folded_part
//   CHECK-DAG:   %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[}}5.000000e+00, 6.000000e+00]]> : tensor<1x2xf32>}>
//   CHECK-NOT:   tosa.slice
//       CHECK:   return %{{.*}}, %[[S]]
func.func @folded_part(%x: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<1x2xf32>) {
  %k = "tosa.const"() <{values = dense<[[-1.0, 2.0, -3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %a = tosa.abs %k : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = tosa.concat %x, %a {axis = 0 : i32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %start = tosa.const_shape {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %c, %start, %size : (tensor<4x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x2xf32>
  return %c, %s : tensor<4x3xf32>, tensor<1x2xf32>
}
// The op broadcasts the concat along another dimension: each part is
// broadcast the same way, with the other operand's columns.
// CHECK-LABEL: func.func @broadcast_across
//  CHECK-SAME: (%[[X:.*]]: tensor<1x1xf32>, %[[Y:.*]]: tensor<1x2xf32>, %[[Z:.*]]: tensor<3x3xf32>)
//   CHECK-DAG:   %[[Z0:.*]] = tosa.slice %[[Z]], {{.*}} -> tensor<3x1xf32>
//   CHECK-DAG:   %[[Z1:.*]] = tosa.slice %[[Z]], {{.*}} -> tensor<3x2xf32>
//   CHECK-DAG:   %[[A0:.*]] = tosa.add %[[X]], %[[Z0]] : (tensor<1x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
//   CHECK-DAG:   %[[A1:.*]] = tosa.add %[[Y]], %[[Z1]] : (tensor<1x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
//       CHECK:   tosa.concat %[[A0]], %[[A1]] {axis = 1 : i32}
func.func @broadcast_across(%x: tensor<1x1xf32>, %y: tensor<1x2xf32>, %z: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %c = tosa.concat %x, %y {axis = 1 : i32} : (tensor<1x1xf32>, tensor<1x2xf32>) -> tensor<1x3xf32>
  %a = tosa.add %c, %z : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return %a : tensor<3x3xf32>
}

// Left alone: a part of dynamic size (its place along the axis is not
// known).
// CHECK-LABEL: func.func @dynamic_part
//       CHECK:   %[[C:.*]] = tosa.concat
//       CHECK:   tosa.add %[[C]]
func.func @dynamic_part(%a: tensor<?x4xf32>, %b: tensor<2x4xf32>, %d: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %c = tosa.concat %a, %b {axis = 0 : i32} : (tensor<?x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32>
  %r = tosa.add %c, %d : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
