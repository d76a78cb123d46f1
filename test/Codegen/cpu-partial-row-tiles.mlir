// A group tiled in rows whose row count has no good divisor (197 tokens)
// runs its whole tiles and its partial last tile as one loop on the cores:
//  * fuse-tile-groups takes tiles of 52 rows, not the 64 that fit 4096
//    results: 3 whole tiles and one of 41 rows split 104 / 93 rows between
//    two cores, where 64 left 3 whole tiles and one of 5 (128 rows on one
//    core); 50 rows would split 100 / 97, within 1/16, in smaller tiles
//    (TILES; TileSizes.cpp, rowTileAtMost);
//  * the group's two results (the exponentials and the softmax) each get
//    their own destination, so the peeled nests write their boxes in place
//    and nothing is copied between them (PeelTiles.cpp);
//  * the two nests, whose tiles write their rows through loops that update
//    a slice of the result in place, are independent and become one loop of
//    4 tiles (fuse-merge-group-nests; NestAccesses.cpp, getOuterView),
//    whose tiles interleave the two nests' (tile i is one of the first
//    nest's when floor((i + 1) * 3 / 4) > floor(i * 3 / 4)) (MERGED), and
//    one parallel loop after fuse-thread-tiles, with no serial remainder
//    (THREADS; this small group is worth a fork with min-parallel-work=0).
// The same with out-params (fuse-compile's libraries): the results are
// written into the caller's buffers, arguments marked `llvm.noalias`
// (fuse-results-to-out-params), so the nests' writes into them are told
// apart from their reads of the input and the nests still merge
// (OUT-PARAMS); unmarked, every argument could alias every other, and the
// partial tile ran after the whole ones, on one core.
// Values are the unfused program's (NUM).
//
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILES
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-merge-group-nests -o /dev/null 2>&1 | FileCheck %s --check-prefix=MERGED
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu=min-parallel-work=0 -mlir-print-ir-after=fuse-thread-tiles -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu=out-params=true -mlir-print-ir-after=fuse-merge-group-nests -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUT-PARAMS
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry softmax_tokens -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 2 outputs

// TILES-LABEL: func.func @softmax_tokens
//       TILES:   scf.forall ({{.*}}) = (0) to (156) step (52)
//       TILES:   scf.forall ({{.*}}) = (156) to (197) step (52)

// MERGED-LABEL: func.func @softmax_tokens
//   MERGED-NOT:   memref.copy
//       MERGED:   scf.forall (%[[T:.*]]) in (4) {
//       MERGED:     %[[P:.*]] = arith.muli %[[T]], %c3
//       MERGED:     %[[B:.*]] = arith.divui %[[P]], %c4
//       MERGED:     %[[N:.*]] = arith.addi %[[T]], %c1
//       MERGED:     %[[PN:.*]] = arith.muli %[[N]], %c3
//       MERGED:     %[[BN:.*]] = arith.divui %[[PN]], %c4
//       MERGED:     %[[FIRST:.*]] = arith.cmpi ugt, %[[BN]], %[[B]]
//       MERGED:     %[[S:.*]] = arith.subi %[[T]], %[[B]]
//       MERGED:     arith.select %[[FIRST]], %[[B]], %[[S]]
//       MERGED:     scf.if %[[FIRST]] {
//       MERGED:     } else {
//       MERGED:   } {fuse.group_nest = 0 : i64}
//   MERGED-NOT:   scf.forall

// OUT-PARAMS-LABEL: func.func @softmax_tokens
//  OUT-PARAMS-SAME:   (%{{.*}}: memref<1x197x64xf32>, %{{.*}}: memref<1x197x64xf32> {llvm.noalias}, %{{.*}}: memref<1x197x64xf32> {llvm.noalias})
//   OUT-PARAMS-NOT:   memref.copy
//       OUT-PARAMS:   scf.forall (%{{.*}}) in (4) {
//       OUT-PARAMS:   } {fuse.group_nest = 0 : i64}
//   OUT-PARAMS-NOT:   scf.forall

// THREADS-LABEL: func.func @softmax_tokens
//       THREADS:   %[[C4:.*]] = arith.constant 4 : index
//       THREADS:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C4]]) step
//   THREADS-NOT:   {{^  scf.for}}
//       THREADS:   return
func.func @softmax_tokens(%x: tensor<1x197x64xf32>) -> (tensor<1x197x64xf32>, tensor<1x197x64xf32>) {
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %d = tosa.sub %x, %m : (tensor<1x197x64xf32>, tensor<1x197x1xf32>) -> tensor<1x197x64xf32>
  %e = tosa.exp %d : (tensor<1x197x64xf32>) -> tensor<1x197x64xf32>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x197x64xf32>) -> tensor<1x197x1xf32>
  %r = tosa.reciprocal %s : (tensor<1x197x1xf32>) -> tensor<1x197x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %shift : (tensor<1x197x64xf32>, tensor<1x197x1xf32>, tensor<1xi8>) -> tensor<1x197x64xf32>
  return %e, %y : tensor<1x197x64xf32>, tensor<1x197x64xf32>
}
