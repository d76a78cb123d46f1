// Checks that must fail without the behaviour they name: each prefix below
// is run against the output of the same pipeline with the option or
// behaviour removed, and FileCheck must reject it (a check that passes
// either way tests nothing). docs/Reliability.md lists these mutations.
//
// strict=true keeps a*b + a*c (cost-model.mlir STRICT): the default factors it.
// RUN: fuse-opt %fuse_src/test/Transforms/algebraic/cost-model.mlir -split-input-file --pass-pipeline="builtin.module(func.func(fuse-algebraic-simplify))" | not FileCheck %fuse_src/test/Transforms/algebraic/cost-model.mlir --check-prefix=STRICT
// A profile splits a matmul from its tile (form-groups/cost-model.mlir PROFILE):
// RUN: fuse-opt %fuse_src/test/Transforms/form-groups/cost-model.mlir -split-input-file --fuse-annotate-mapping --fuse-form-groups | not FileCheck %fuse_src/test/Transforms/form-groups/cost-model.mlir --check-prefix=PROFILE
// max-group-size=2 splits a chain of three (planner.mlir CAP):
// RUN: fuse-opt %fuse_src/test/Transforms/form-groups/planner.mlir -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping --fuse-form-groups | not FileCheck %fuse_src/test/Transforms/form-groups/planner.mlir --check-prefix=CAP
// The group count of idempotence.mlir is the whole line:
// RUN: echo 15 | not FileCheck %fuse_src/test/Integration/idempotence.mlir
// RUN: echo 50 | not FileCheck %fuse_src/test/Integration/idempotence.mlir
// The Swin QKV nests (cpu-parallel.mlir QKV) fail when merged into one loop:
// the QKV nest's end and the Q-scaling nest's start taken out, their bodies
// one loop's.
// RUN: fuse-opt %S/Inputs/swin-window-attention.mlir --fuse-ops | fuse-opt --fuse-lower-to-cpu=parallel=true --mlir-print-ir-after=fuse-merge-group-nests -o /dev/null 2>&1 | sed -e '/memref<3x512xf32>$/,/scf.forall (%arg1) in (2) {/{/fuse.group_nest = 1 : i64}/d;/scf.forall (%arg1) in (2) {/d;}' | not FileCheck %fuse_src/test/Integration/cpu-parallel.mlir --check-prefix=QKV
// The random tester's "inexact" class is bounded: a fusion that is wrong
// unless strict=true (Inputs/wrong-unless-strict.sh: every tosa.add a
// tosa.sub) is reported as failing, though strict=true agrees; unbounded,
// all of it counted as inexact.
// RUN: not %python %fuse_src/utils/fuse-random-test --start 1 --count 12 --jobs 2 --fuse-opt %S/Inputs/wrong-unless-strict.sh --no-minimize | FileCheck %s --check-prefix=BOUND
// BOUND: random graphs: 12 compared, {{[1-9][0-9]*}} failed ({{[1-9][0-9]*}} mismatches
