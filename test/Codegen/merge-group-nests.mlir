// RUN: fuse-opt %s --split-input-file --fuse-merge-group-nests | FileCheck %s
// RUN: fuse-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-merge-group-nests{report=true}))" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Two independent tile loops of one group (4x2 tiles of the first result,
// 3 of the second): one loop over 8 + 3 tiles, the two loops' tiles spread
// evenly over it: floor(t * 8 / 11) of the first loop's tiles come before
// tile t, which is one of the first loop's when tile t + 1 has one more
// before it (its index: that count; else t minus it). The first body's two
// induction variables are delinearized from its index (innermost fastest).
// Each body's static temporary moves before the branch.
// CHECK-LABEL: func.func @independent
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<4x8xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<12xf32>
//       CHECK:   scf.forall (%[[T:.*]]) in (11) {
//       CHECK:     %[[P:.*]] = arith.muli %[[T]], %c8
//       CHECK:     %[[BEFORE:.*]] = arith.divui %[[P]], %c11
//       CHECK:     %[[NEXT:.*]] = arith.addi %[[T]], %c1
//       CHECK:     %[[PN:.*]] = arith.muli %[[NEXT]], %c8
//       CHECK:     %[[BN:.*]] = arith.divui %[[PN]], %c11
//       CHECK:     %[[FIRST:.*]] = arith.cmpi ugt, %[[BN]], %[[BEFORE]]
//       CHECK:     %[[REST:.*]] = arith.subi %[[T]], %[[BEFORE]]
//       CHECK:     %[[I:.*]] = arith.select %[[FIRST]], %[[BEFORE]], %[[REST]]
//       CHECK:     memref.alloca() : memref<4xf32>
//       CHECK:     memref.alloca() : memref<4xf32>
//       CHECK:     scf.if %[[FIRST]] {
//       CHECK:       %[[COL:.*]] = arith.remui %[[I]], %c2
//       CHECK:       %[[ROW:.*]] = arith.divui %[[I]], %c2
//       CHECK:       arith.muli %[[COL]], %c4
//       CHECK:       memref.store %{{.*}}, %[[A]]
//       CHECK:     } else {
//       CHECK:       arith.muli %[[I]], %c4
//       CHECK:       memref.store %{{.*}}, %[[B]]
//       CHECK:     }
//       CHECK:   } {fuse.group_nest = 0 : i64}
//   CHECK-NOT:   scf.forall
func.func @independent(%x: memref<16xf32>) -> (memref<4x8xf32>, memref<12xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4x8xf32>
  scf.forall (%i, %j) = (0, 0) to (4, 8) step (1, 4) {
    %t = memref.alloca() : memref<4xf32>
    %v = memref.load %x[%j] : memref<16xf32>
    memref.store %v, %t[%c0] : memref<4xf32>
    %w = memref.load %t[%c0] : memref<4xf32>
    memref.store %w, %a[%i, %j] : memref<4x8xf32>
  } {fuse.group_nest = 0 : i64}
  %b = memref.alloc() : memref<12xf32>
  scf.forall (%k) = (0) to (12) step (4) {
    %t = memref.alloca() : memref<4xf32>
    %v = memref.load %x[%k] : memref<16xf32>
    memref.store %v, %t[%c0] : memref<4xf32>
    %w = memref.load %t[%c0] : memref<4xf32>
    memref.store %w, %b[%k] : memref<12xf32>
  } {fuse.group_nest = 0 : i64}
  return %a, %b : memref<4x8xf32>, memref<12xf32>
}

// -----

// The second loop reads what the first writes: two loops.
// REMARK: merge-group-nests.mlir:[[@LINE+10]]:3: remark: fuse-merge-group-nests: not merged with the previous tile loop of its group: one writes a buffer the other accesses
// CHECK-LABEL: func.func @dependent
//       CHECK-COUNT-2: scf.forall
func.func @dependent(%x: memref<16xf32>) -> memref<16xf32> {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  scf.forall (%i) in (16) {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %a[%i] : memref<16xf32>
  } {fuse.group_nest = 1 : i64}
  scf.forall (%i) in (16) {
    %c15 = arith.constant 15 : index
    %j = arith.subi %c15, %i : index
    %v = memref.load %a[%j] : memref<16xf32>
    memref.store %v, %b[%i] : memref<16xf32>
  } {fuse.group_nest = 1 : i64}
  return %b : memref<16xf32>
}
