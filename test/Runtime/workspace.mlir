// REQUIRES: libomp
// A library allocates its temporaries through the runtime, which keeps a
// thread's largest freed block for its next call (lib/Runtime/Workspace.cpp,
// the lowering's runtime-allocator option that fuse-compile sets): the
// 8 MiB convolution result between this model's two groups (with its halo,
// rounded up to huge pages) stays held after the first call, and the calls
// after it reuse it, adding nothing; every call's results are those of the
// first call on its input. Lowered with runtime-allocator, memref.alloc and
// dealloc call upstream's generic allocation functions instead of malloc
// and free (LLVM); without it, malloc and free (PLAIN). The heap is
// glibc's mallinfo2 (mapped and in-use bytes; glibc 2.33 or later).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %s -o %t/workspace.so > /dev/null 2>&1
// RUN: cc -O1 -I%fuse_include %S/Inputs/workspace.c -ldl -o %t/workspace
// RUN: %t/workspace %t/workspace.so | FileCheck %s
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu=runtime-allocator=true | FileCheck %s --check-prefix=LLVM
// RUN: fuse-opt %s --fuse-ops --fuse-lower-to-cpu | FileCheck %s --check-prefix=PLAIN
// CHECK: held after the first call: {{([89]|[1-9][0-9]+)}} MiB
// CHECK: added by the six after it: 0 MiB
// CHECK: results: same

// LLVM-NOT: @malloc
// LLVM: llvm.call @_mlir_memref_to_llvm_alloc
// LLVM: llvm.call @_mlir_memref_to_llvm_free
// LLVM-NOT: @free

// PLAIN-NOT: @_mlir_memref_to_llvm
// PLAIN: llvm.call @malloc
// PLAIN: llvm.call @free

func.func @model(%x: tensor<1x256x256x16xf32>) -> tensor<1x256x256x4xf32> {
  %w1 = "tosa.const"() <{values = dense<0.01> : tensor<32x3x3x16xf32>}> : () -> tensor<32x3x3x16xf32>
  %b1 = "tosa.const"() <{values = dense<0.5> : tensor<32xf32>}> : () -> tensor<32xf32>
  %w2 = "tosa.const"() <{values = dense<-0.02> : tensor<4x3x3x32xf32>}> : () -> tensor<4x3x3x32xf32>
  %b2 = "tosa.const"() <{values = dense<0.25> : tensor<4xf32>}> : () -> tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x256x256x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x256x32xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x256x256x32xf32>) -> tensor<1x256x256x32xf32>
  %c2 = tosa.conv2d %r1, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x256x256x32xf32>, tensor<4x3x3x32xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x256x4xf32>
  return %c2 : tensor<1x256x256x4xf32>
}
