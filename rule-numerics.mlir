// Numeric proof of every rule: each rule's instance is run on the CPU as it
// is and after the rule rewrote it, on seeded random inputs (two seeds), and
// every output must agree within rtol 1e-4 / atol 1e-5 (f32 printed with 6
// digits). Rules that hold only for positive inputs get inputs in [0.5, 2].
//
// RUN: fuse-opt --fuse-test-emit-rule-instances=inputs=any %s -o %t.any.mlir
// RUN: %fuse-diff %t.any.mlir --entry all -p "--fuse-test-apply-rule-instances" | FileCheck %s --check-prefix=ANY
// RUN: %fuse-diff %t.any.mlir --entry all --seed 11 -p "--fuse-test-apply-rule-instances" | FileCheck %s --check-prefix=ANY
// RUN: fuse-opt --fuse-test-emit-rule-instances=inputs=positive %s -o %t.pos.mlir
// RUN: %fuse-diff %t.pos.mlir --entry all --input-range 0.5,2 -p "--fuse-test-apply-rule-instances" | FileCheck %s --check-prefix=POS
//
// ANY: fuse-diff: OK 190 outputs
// POS: fuse-diff: OK 15 outputs
module {}
