// REQUIRES: libomp
// A library compiled for a CPU with more instruction set extensions than
// this one is an error when a session is created, naming the extension,
// not a SIGILL in the first run; on a CPU that has them all, it runs.
// Sapphire Rapids has AVX512-FP16 and AMX, which most x86 machines lack.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %examples/mlp_gelu.mlir --cpu sapphirerapids -o %t/spr.so 2>/dev/null
// RUN: %python %S/Inputs/check-cpu-features.py %t/spr.so sapphirerapids | FileCheck %s
// RUN: %fuse-compile %examples/mlp_gelu.mlir -o %t/native.so 2>/dev/null
// RUN: %python %S/Inputs/check-cpu-features.py %t/native.so native | FileCheck %s --check-prefix=NATIVE
// CHECK: consistent: True
// NATIVE: consistent: True
