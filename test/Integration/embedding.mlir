// REQUIRES: capi
// The installed package: `cmake --install` into a prefix, then the
// out-of-tree example (examples/embedding) configures with
// find_package(FuseDialect CONFIG), links FuseDialect:: targets, registers
// its own pass and pipeline next to ours and runs them; a C program uses
// the C API; the installed fuse-opt runs too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cmake --install %fuse_obj --prefix %t/prefix > %t/install.log
// RUN: cmake -S %fuse_src/examples/embedding -B %t/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=%t/prefix -DMLIR_DIR=%mlir_cmake_dir > %t/configure.log
// RUN: ninja -C %t/build > %t/build.log
// RUN: %t/build/my-compiler --fuse-ops --my-count-groups --mlir-print-op-on-diagnostic=false %examples/inception_block.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: %t/build/my-compiler --my-pipeline --mlir-print-op-on-diagnostic=false %examples/mlp_gelu.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: %t/build/c-api-check %examples/inception_block.mlir | FileCheck %s --check-prefix=CAPI
// RUN: %t/prefix/bin/fuse-opt --fuse-ops %examples/conv_bn_relu.mlir | FileCheck %s --check-prefix=INSTALLED
// RUN: test -f %t/prefix/lib/cmake/FuseDialect/FuseDialectConfig.cmake
// RUN: test -f %t/prefix/include/FuseDialect/IR/FuseOps.h.inc
// RUN: test -f %t/prefix/include/FuseDialect-c/FuseDialect.h
// RUN: test -x %t/prefix/bin/fuse-import
// RUN: test -f %t/prefix/lib/python/fuse_dialect/onnx_import.py
// The installed fuse-compile builds a model library with the installed
// runtime and headers; a program built against the installed headers runs it.
// RUN: %t/prefix/bin/fuse-compile %examples/mlp_gelu.mlir -o %t/mlp.so 2>/dev/null | FileCheck %s --check-prefix=ARTIFACT
// RUN: cc -O1 -I%t/prefix/include %fuse_src/test/Runtime/Inputs/abi-check.c -ldl -o %t/abi-check
// RUN: %t/abi-check %t/mlp.so | FileCheck %s --check-prefix=ARTIFACT-CALL
// RUN: %t/prefix/bin/fuse-bench %t/mlp.so --runs 3 --warmup 0 2>/dev/null | FileCheck %s --check-prefix=ARTIFACT-BENCH
// OWN: remark: my-compiler: 5 kernels
// PIPELINE: remark: my-compiler: 2 kernels
// INSTALLED: fuse.group
// ARTIFACT: fuse-compile: {{.*}}mlp_gelu.mlir -> {{.*}}mlp.so (cpu; inputs: x f32[4, 64]; outputs: output0 f32[4, 32])
// ARTIFACT-CALL: run: status 0
// ARTIFACT-BENCH: | ours |
// The C API from C: the dialect handle, #fuse.mapping get/isa/value (built
// and parsed), a non-mapping attribute, and a pipeline run on text.
// CAPI: dialect: fuse
// CAPI-NEXT: isa mapping: 1, value: 3
// CAPI-NEXT: parsed: 1 1
// CAPI-NEXT: integer is mapping: 0
// CAPI-NEXT: fuse-ops: ok, 5 groups
