// The facts Python repeats from the runtime's C headers (fuse_dialect.aot:
// the ABI version and functions, the thread limit and the dynamic
// dimension, element type and target codes, the
// library trailer) are the headers' own.
// RUN: %python %S/Inputs/check-constants.py %fuse_include | FileCheck %s
// CHECK: ABI version: same
// CHECK-NEXT: thread limit: same
// CHECK-NEXT: dynamic dimension: same
// CHECK-NEXT: functions: same
// CHECK-NEXT: loader lookups: same
// CHECK-NEXT: element types: same
// CHECK-NEXT: targets: same
// CHECK-NEXT: trailer magic: same
// CHECK-NEXT: trailer bytes: same
