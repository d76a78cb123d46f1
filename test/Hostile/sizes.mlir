// Hostile sizes: a chain of 10,000 elementwise ops (with a side branch every
// 100) and a 1M-element non-splat constant. --fuse-ops handles both (and a
// second run changes nothing); a 1,000-op chain and the constant are
// checked numerically against the unfused program.
//
// RUN: %python %S/Inputs/gen_large.py chain 10000 > %t.chain.mlir
// RUN: fuse-opt %t.chain.mlir --fuse-ops -o %t.chain.fused.mlir
// RUN: fuse-opt %t.chain.fused.mlir --fuse-ops -o %t.chain.twice.mlir
// RUN: diff %t.chain.fused.mlir %t.chain.twice.mlir
// RUN: grep -c "fuse.group" %t.chain.fused.mlir | FileCheck %s --check-prefix=GROUPS
// RUN: %python %S/Inputs/gen_large.py chain 1000 > %t.chain1k.mlir
// RUN: %fuse-diff %t.chain1k.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// RUN: %python %S/Inputs/gen_large.py const 1048576 > %t.const.mlir
// RUN: %fuse-diff %t.const.mlir -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// Groups are capped in size (max-group-size, 256 ops): a long chain is
// many groups (about 10,100 ops / 256), each a chain.
// GROUPS: {{^[3-5][0-9]$}}
// NUM: fuse-diff: OK
