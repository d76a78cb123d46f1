// REQUIRES: cuda-toolkit, libomp
// The CUDA target's model library builds and links here (host code with
// the kernels embedded as a fatbin, the session and mgpu* runtimes, the
// driver API): the same ABI and nothing else exported, libcuda.so.1 the
// one CUDA library it needs. Running it needs a GPU (cuda-gpu below).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %examples/conv_bn_relu.mlir --target cuda -o %t/conv.so 2>/dev/null | FileCheck %s --check-prefix=COMPILE
// RUN: nm -D --defined-only %t/conv.so | awk '{print $3}' | sort | FileCheck %s --check-prefix=EXPORTS
// RUN: nm -D --defined-only %t/conv.so | wc -l | FileCheck %s --check-prefix=COUNT
// RUN: readelf -d %t/conv.so | FileCheck %s --check-prefix=NEEDED
// RUN: %fuse-compile %examples/mlp_gelu.mlir --target cuda --weights=external -o %t/mlp.so 2>/dev/null
// RUN: test -s %t/mlp.weights

// COMPILE: fuse-compile: {{.*}}conv_bn_relu.mlir -> {{.*}}conv.so (cuda; inputs: input f32[1, 8, 16, 16]; outputs: output0 f32[1, 16, 16, 16])
// EXPORTS: fuseElementTypeSize
// EXPORTS: fuseSessionRun
// COUNT: 12
// NEEDED: Shared library: [libcuda.so.1]
