// RUN: fuse-opt %s --split-input-file --fuse-tile-groups="contraction-tile=8" -canonicalize -cse | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-tile-groups="contraction-tile=8 partial-tiles=false" | FileCheck %s --check-prefix=WHOLE
// RUN: %fuse-diff %s -p "--fuse-tile-groups=contraction-tile=8" --entry matmul_both_partial,rows_and_yielded,concat_parts,matmul_two_results,flattened_part | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s -p "--fuse-tile-groups=contraction-tile=8" --entry matmul_both_partial,rows_and_yielded,concat_parts,matmul_two_results,flattened_part --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 7 outputs

// Partial boundary tiles. A loop whose range has no divisor of more than
// half the wanted tile is tiled by the wanted tile; the whole tiles and the
// partial last one become nests of their own, each over static shapes
// (no affine.min, no dynamic tensor), each writing its box of the result.

// A 13x22 matmul with bias and ReLU in 8x8 tiles: 13 = 8 + 5 rows,
// 22 = 16 + 6 columns; four nests: whole tiles, then the last columns,
// then the last rows, then the corner.
// CHECK-LABEL: func.func @matmul_both_partial
//       CHECK:   fuse.group
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<1x13x22xf32>
//       CHECK:     %[[N0:.*]] = scf.forall (%{{.*}}) = (0) to (16) step (8) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x8x16xf32>)
//       CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x8x24xf32>, tensor<1x24x8xf32>)
//       CHECK:     %[[I0:.*]] = tensor.insert_slice %[[N0]] into %[[E]][0, 0, 0] [1, 8, 16] [1, 1, 1]
//       CHECK:     tensor.extract_slice %[[I0]][0, 0, 16] [1, 8, 6] [1, 1, 1]
//       CHECK:     scf.forall
//       CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x8x24xf32>, tensor<1x24x6xf32>)
//       CHECK:     tensor.extract_slice %{{.*}}[0, 8, 0] [1, 5, 16] [1, 1, 1]
//       CHECK:     scf.forall
//       CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x5x24xf32>, tensor<1x24x8xf32>)
//       CHECK:     tensor.extract_slice %{{.*}}[0, 8, 16] [1, 5, 6] [1, 1, 1]
//       CHECK:     scf.forall
//       CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x5x24xf32>, tensor<1x24x6xf32>)
//       CHECK:     %[[R:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 8, 16] [1, 5, 6] [1, 1, 1]
//       CHECK:     fuse.yield %[[R]]
//   CHECK-NOT:   affine.min
//   CHECK-NOT:   tensor<1x?x
//       WHOLE-LABEL: func.func @matmul_both_partial
//       WHOLE:     scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (13, 22) step (1, 22)
func.func @matmul_both_partial(%x: tensor<1x13x24xf32>, %w: tensor<1x24x22xf32>, %b: tensor<1x1x22xf32>) -> tensor<1x13x22xf32> {
  %r = fuse.group ins(%x, %w, %b : tensor<1x13x24xf32>, tensor<1x24x22xf32>, tensor<1x1x22xf32>) -> (tensor<1x13x22xf32>) {
  ^bb0(%a: tensor<1x13x24xf32>, %c: tensor<1x24x22xf32>, %d: tensor<1x1x22xf32>):
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %c, %z, %z : (tensor<1x13x24xf32>, tensor<1x24x22xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x13x22xf32>
    %s = tosa.add %m, %d : (tensor<1x13x22xf32>, tensor<1x1x22xf32>) -> tensor<1x13x22xf32>
    %y = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x13x22xf32>) -> tensor<1x13x22xf32>
    fuse.yield %y : tensor<1x13x22xf32>
  }
  return %r : tensor<1x13x22xf32>
}

// -----

// Rows of 32 over 13 rows, a softmax that also returns `x - max`: 8 rows
// fit 256 results, but tiles of 7 split between two cores as 7 and 6 rows
// (8 and 5: 8 on one core). Both results are shared outputs of the nest,
// and each part writes its rows of both.
// CHECK-LABEL: func.func @rows_and_yielded
//       CHECK:   fuse.group
//       CHECK:     %[[W:.*]]:2 = scf.forall (%{{.*}}) = (0) to (7) step (7) shared_outs({{.*}}) -> (tensor<7x32xf32>, tensor<7x32xf32>)
//       CHECK:       math.exp
//       CHECK:     %[[A0:.*]] = tensor.insert_slice %[[W]]#0 into %{{.*}}[0, 0] [7, 32] [1, 1]
//       CHECK:     %[[A1:.*]] = tensor.insert_slice %[[W]]#1 into %{{.*}}[0, 0] [7, 32] [1, 1]
//   CHECK-DAG:     %[[B0:.*]] = tensor.extract_slice %[[A0]][7, 0] [6, 32] [1, 1]
//   CHECK-DAG:     %[[B1:.*]] = tensor.extract_slice %[[A1]][7, 0] [6, 32] [1, 1]
//       CHECK:     %[[L:.*]]:2 = scf.forall (%{{.*}}) = (7) to (13) step (7) shared_outs(%{{.*}} = %[[B0]], %{{.*}} = %[[B1]]) -> (tensor<6x32xf32>, tensor<6x32xf32>)
//       CHECK:       math.exp
//   CHECK-DAG:     %[[R0:.*]] = tensor.insert_slice %[[L]]#0 into %[[A0]][7, 0] [6, 32] [1, 1]
//   CHECK-DAG:     %[[R1:.*]] = tensor.insert_slice %[[L]]#1 into %[[A1]][7, 0] [6, 32] [1, 1]
//       CHECK:     fuse.yield
//   CHECK-NOT:   affine.min
func.func @rows_and_yielded(%x: tensor<13x32xf32>) -> (tensor<13x32xf32>, tensor<13x32xf32>) {
  %r:2 = fuse.group ins(%x : tensor<13x32xf32>) -> (tensor<13x32xf32>, tensor<13x32xf32>) {
  ^bb0(%a: tensor<13x32xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.reduce_max %a {axis = 1 : i32} : (tensor<13x32xf32>) -> tensor<13x1xf32>
    %s = tosa.sub %a, %m : (tensor<13x32xf32>, tensor<13x1xf32>) -> tensor<13x32xf32>
    %e = tosa.exp %s : (tensor<13x32xf32>) -> tensor<13x32xf32>
    %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<13x32xf32>) -> tensor<13x1xf32>
    %inv = tosa.reciprocal %sum : (tensor<13x1xf32>) -> tensor<13x1xf32>
    %o = tosa.mul %e, %inv, %sh : (tensor<13x32xf32>, tensor<13x1xf32>, tensor<1xi8>) -> tensor<13x32xf32>
    fuse.yield %o, %s : tensor<13x32xf32>, tensor<13x32xf32>
  }
  return %r#0, %r#1 : tensor<13x32xf32>, tensor<13x32xf32>
}

// -----

// A concat of a computed part and an input: the part's nests write
// straight into the concat (the part's box of the concat composed with the
// peeled box), one slice of the result per nest, which bufferization writes
// in place (13 rows in tiles of 7 and 6, as above). The input part is copied by a nest of its own (not by a copy
// outside every nest, which on the GPU path would run on the host).
// CHECK-LABEL: func.func @concat_parts
//       CHECK:   fuse.group
//       CHECK:   ^bb0(%{{.*}}: tensor<13x32xf32>, %[[B:.*]]: tensor<13x32xf32>):
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<26x32xf32>
//       CHECK:     %[[N0:.*]] = scf.forall (%{{.*}}) = (0) to (7) step (7) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<7x32xf32>)
//       CHECK:     %[[I0:.*]] = tensor.insert_slice %[[N0]] into %[[E]][0, 0] [7, 32] [1, 1]
//       CHECK:     %[[S1:.*]] = tensor.extract_slice %[[I0]][7, 0] [6, 32] [1, 1]
//       CHECK:     %[[N1:.*]] = scf.forall (%{{.*}}) = (7) to (13) step (7) shared_outs(%{{.*}} = %[[S1]]) -> (tensor<6x32xf32>)
//       CHECK:     %[[I1:.*]] = tensor.insert_slice %[[N1]] into %[[I0]][7, 0] [6, 32] [1, 1]
//       CHECK:     %[[E2:.*]] = tensor.empty() : tensor<13x32xf32>
//       CHECK:     %[[N2:.*]] = scf.forall (%[[I:.*]]) in (13) shared_outs(%{{.*}} = %[[E2]]) -> (tensor<13x32xf32>)
//       CHECK:       %[[ROW:.*]] = tensor.extract_slice %[[B]][%[[I]], 0] [1, 32] [1, 1]
//       CHECK:       linalg.copy ins(%[[ROW]] : tensor<1x32xf32>)
//       CHECK:     %[[R:.*]] = tensor.insert_slice %[[N2]] into %[[I1]][13, 0] [13, 32] [1, 1]
//       CHECK:     fuse.yield %[[R]]
func.func @concat_parts(%x: tensor<13x32xf32>, %y: tensor<13x32xf32>) -> tensor<26x32xf32> {
  %r = fuse.group ins(%x, %y : tensor<13x32xf32>, tensor<13x32xf32>) -> (tensor<26x32xf32>) {
  ^bb0(%a: tensor<13x32xf32>, %b: tensor<13x32xf32>):
    %ea = tosa.exp %a : (tensor<13x32xf32>) -> tensor<13x32xf32>
    %c = tosa.concat %ea, %b {axis = 0 : i32} : (tensor<13x32xf32>, tensor<13x32xf32>) -> tensor<26x32xf32>
    fuse.yield %c : tensor<26x32xf32>
  }
  return %r : tensor<26x32xf32>
}

// -----

// Both dims partial and two results (the bias sum is returned too): each
// part writes its box of both results, through the boxes the first peeled
// dimension gave them. Four nests, no dynamic shape left.
// CHECK-LABEL: func.func @matmul_two_results
//       CHECK:   fuse.group
//       CHECK:     scf.forall {{.*}} -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>)
//       CHECK:     scf.forall {{.*}} -> (tensor<1x8x6xf32>, tensor<1x8x6xf32>)
//       CHECK:     scf.forall {{.*}} -> (tensor<1x5x16xf32>, tensor<1x5x16xf32>)
//       CHECK:     scf.forall {{.*}} -> (tensor<1x5x6xf32>, tensor<1x5x6xf32>)
//       CHECK:     fuse.yield
//   CHECK-NOT:   affine.min
//   CHECK-NOT:   tensor<1x?x
func.func @matmul_two_results(%x: tensor<1x13x24xf32>, %w: tensor<1x24x22xf32>, %b: tensor<1x1x22xf32>) -> (tensor<1x13x22xf32>, tensor<1x13x22xf32>) {
  %r:2 = fuse.group ins(%x, %w, %b : tensor<1x13x24xf32>, tensor<1x24x22xf32>, tensor<1x1x22xf32>) -> (tensor<1x13x22xf32>, tensor<1x13x22xf32>) {
  ^bb0(%a: tensor<1x13x24xf32>, %c: tensor<1x24x22xf32>, %d: tensor<1x1x22xf32>):
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %m = tosa.matmul %a, %c, %z, %z : (tensor<1x13x24xf32>, tensor<1x24x22xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x13x22xf32>
    %s = tosa.add %m, %d : (tensor<1x13x22xf32>, tensor<1x1x22xf32>) -> tensor<1x13x22xf32>
    %y = tosa.clamp %s {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x13x22xf32>) -> tensor<1x13x22xf32>
    fuse.yield %y, %s : tensor<1x13x22xf32>, tensor<1x13x22xf32>
  }
  return %r#0, %r#1 : tensor<1x13x22xf32>, tensor<1x13x22xf32>
}

// -----

// A part of a concat that is a computed result flattened (patches to
// tokens): the nest writes its tiles flattened, into a destination of the
// flattened shape, so that nothing stands between it and the concat
// (bufferization writes it in place). Rows of 3 pixels are contiguous
// tokens 3*i to 3*i+2.
// CHECK-LABEL: func.func @flattened_part
//       CHECK:   fuse.group
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<1x6x8xf32>
//       CHECK:     %[[N:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%[[O:.*]] = %[[E]]) -> (tensor<1x6x8xf32>)
//       CHECK:       %[[T:.*]] = linalg.generic
//   CHECK-DAG:       %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0], [1, 2], [3]] : tensor<1x1x3x8xf32> into tensor<1x3x8xf32>
//   CHECK-DAG:       %[[R:.*]] = affine.apply #{{.*}}(%[[I]])
//       CHECK:       tensor.parallel_insert_slice %[[C]] into %[[O]][0, %[[R]], 0] [1, 3, 8] [1, 1, 1]
//   CHECK-NOT:     tensor.collapse_shape
//       CHECK:     tensor.insert_slice %[[N]] into %{{.*}}[0, 2, 0] [1, 6, 8] [1, 1, 1]
func.func @flattened_part(%x: tensor<1x2x3x8xf32>, %y: tensor<1x2x8xf32>) -> tensor<1x8x8xf32> {
  %r = fuse.group ins(%x, %y : tensor<1x2x3x8xf32>, tensor<1x2x8xf32>) -> (tensor<1x8x8xf32>) {
  ^bb0(%a: tensor<1x2x3x8xf32>, %b: tensor<1x2x8xf32>):
    %e = tosa.exp %a : (tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
    %s = tosa.const_shape {values = dense<[1, 6, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %f = tosa.reshape %e, %s : (tensor<1x2x3x8xf32>, !tosa.shape<3>) -> tensor<1x6x8xf32>
    %c = tosa.concat %b, %f {axis = 1 : i32} : (tensor<1x2x8xf32>, tensor<1x6x8xf32>) -> tensor<1x8x8xf32>
    fuse.yield %c : tensor<1x8x8xf32>
  }
  return %r : tensor<1x8x8xf32>
}
