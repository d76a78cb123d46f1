// With out-params (what fuse-compile's libraries are built with), the CPU
// lowering writes each result into a buffer its caller passes after the
// inputs, and the functions return nothing: a result computed into a buffer
// of the function's own is computed into the caller's instead (@relu: no
// allocation, no copy; the runtime copied all of it after every call before
// the twenty-fifth session), and a result that is not (an input returned as
// it is, @same) is copied there. Without it (RETURNED), the functions
// allocate their results and return them.
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu=out-params=true | FileCheck %s
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu | FileCheck %s --check-prefix=RETURNED

// CHECK-NOT: llvm.func @malloc
// CHECK-LABEL: llvm.func @relu(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[OUT:.*]]: !llvm.ptr, %[[OUT_ALIGNED:.*]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) {
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.insertvalue %[[OUT_ALIGNED]], %{{.*}}[1]
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.store %{{.*}} : vector<{{[0-9]+}}xf32>, !llvm.ptr
// CHECK-NOT: llvm.intr.memcpy
// CHECK: llvm.return{{$}}
// CHECK-LABEL: llvm.func @same(
// CHECK-NOT: llvm.call @malloc
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.return{{$}}

// RETURNED: llvm.func @relu({{.*}}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// RETURNED: llvm.call @malloc
// RETURNED: llvm.func @same({{.*}}) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>

func.func @relu(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %r = tosa.maximum %x, %zero : (tensor<64x64xf32>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @same(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  return %x : tensor<64x64xf32>
}
