// REQUIRES: capi
// The Python package over the C API: fuse(), fuse(options), report(),
// run_pipeline(), and MLIR's diagnostics as FuseError.
// RUN: env FUSE_DIALECT_LIB=%fuse_obj/lib/libFuseDialectCAPI.so %python %S/Inputs/test_api.py %fuse_src | FileCheck %s
// CHECK: groups: 5
// CHECK: layout off, groups: 5
// CHECK: report kernels: 5 functions: 1
// CHECK: lowered: True
// CHECK: error: loc("-":2:8): error: {{.*}}tosa.bogus
// CHECK: bad pipeline: True
// CHECK: gpu binary: True launches: 5
