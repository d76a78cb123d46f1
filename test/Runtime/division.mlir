// REQUIRES: libomp
// An input's value cannot kill the caller: integer division by zero and of
// the least value by -1 (SIGFPE on x86) are defined in a model library
// (--fuse-safe-integer-division: the quotient is the dividend, the
// remainder 0); elsewhere the values are C's (x / 0 gives x, MIN / -1
// gives MIN, MIN % -1 gives 0, and the rest as C computes them).
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuse-opt %S/Inputs/division.mlir --fuse-safe-integer-division | FileCheck %s --check-prefix=IR
// RUN: %fuse-compile %S/Inputs/division.mlir -o %t/division.so 2>/dev/null
// RUN: %python %S/Inputs/check-division.py %t/division.so | FileCheck %s
// IR: %[[ZERO:.*]] = tosa.equal %arg1
// IR: %[[B1:.*]] = tosa.select %[[ZERO]], %{{.*}}, %arg1
// IR: %[[AMIN:.*]] = tosa.equal %arg0
// IR: %[[BM1:.*]] = tosa.equal %[[B1]]
// IR: %[[OVER:.*]] = tosa.logical_and %[[AMIN]], %[[BM1]]
// IR: %[[B2:.*]] = tosa.select %[[OVER]], %{{.*}}, %[[B1]]
// IR: tosa.intdiv %arg0, %[[B2]]
// IR: arith.remsi %arg2, %{{[0-9]+}}
// IR: arith.divui %arg2, %{{[0-9]+}}
// CHECK: intdiv: {{\[}}[7, 2, -2147483648, -3], [8, -1073741824, -8, 2]]
// CHECK-NEXT: remsi: [0, 1, 0, -1]
// CHECK-NEXT: divui: [9, 3, 0, 4611686018427387901]
