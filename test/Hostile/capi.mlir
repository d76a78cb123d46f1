// REQUIRES: capi
// The C API survives every bad call (test/lib/CapiHostile.c): null
// attributes and contexts, enum values out of range, NULL strings, a
// pipeline anchored on func.func (an abort in the pass manager before),
// bad and unknown options, unparsable text, and input IR that names a report
// file (written before, with no report option): each refused with a
// diagnostic, no file written.
// RUN: rm -f %t.pwned.json
// RUN: fuse-capi-hostile %t.pwned.json 2>&1 | FileCheck %s
// RUN: not test -e %t.pwned.json
// CHECK: null attr is mapping: 0
// CHECK-NEXT: null attr value: 4
// CHECK-NEXT: get in null context is null: 1
// CHECK-NEXT: get 99 is null: 1
// CHECK-NEXT: get -1 is null: 1
// CHECK-NEXT: integer value: 4
// CHECK-NEXT: null module: refused: error: fuseRunPipeline: moduleText is NULL
// CHECK-NEXT: null pipeline: refused: error: fuseRunPipeline: pipeline is NULL
// CHECK-NEXT: no diagnostics pointer: survived
// CHECK-NEXT: func anchor: refused: 'fuse-ops' runs on builtin.module, not on 'func.func'
// CHECK-NEXT: cpu in func: refused: 'fuse-lower-to-cpu' runs on builtin.module
// CHECK-NEXT: bad option: refused: 'fuse-lower-to-nvvm': option 'block-size' must be in [1, 1024], not 0
// CHECK: unknown option: refused: invalid options of 'fuse-ops': 'bogus=1'
// CHECK-NEXT: garbage pipeline: refused:
// CHECK-NEXT: garbage module: refused: {{.*}} error:
// CHECK-NEXT: report in the IR: refused: {{.*}} unknown fuse dialect attribute 'fuse.report_
// CHECK-NEXT: fine: ok
