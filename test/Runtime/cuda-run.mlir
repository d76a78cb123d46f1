// REQUIRES: cuda-gpu, cuda-toolkit, libomp
// The CUDA model library run on the GPU through its ABI, from C and from
// Python, against the same model on the CPU (mlir-runner): see abi.mlir.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %S/Inputs/outputs.mlir --target cuda -o %t/outputs.so 2>/dev/null
// RUN: cc -O1 -I%fuse_include %S/Inputs/abi-check.c -ldl -o %t/abi-check
// RUN: %t/abi-check %t/outputs.so %t/outputs.bin | FileCheck %s --check-prefix=ABI
// RUN: %python %S/Inputs/check-artifact.py %S/Inputs/outputs.mlir %t/outputs.so %t/outputs.bin | FileCheck %s --check-prefix=SAME
// RUN: %fuse-compile %examples/conv_bn_relu.mlir --target cuda -o %t/conv.so 2>/dev/null
// RUN: %t/abi-check %t/conv.so %t/conv.bin | FileCheck %s --check-prefix=ABI
// RUN: %python %S/Inputs/check-artifact.py %examples/conv_bn_relu.mlir %t/conv.so %t/conv.bin | FileCheck %s --check-prefix=SAME
// ABI: abi 1 target 1 model
// ABI: run: status 0
// SAME-NOT: !=
// SAME-NOT: error {{[0-9]}}
