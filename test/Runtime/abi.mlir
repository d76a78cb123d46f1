// REQUIRES: libomp
// A model library (fuse-compile) used through its C ABI only, from C with
// dlopen (Inputs/abi-check.c) and from Python (fuse_dialect.load): what it
// exports, its inputs and outputs, every refused call, and its outputs
// against the same model run by mlir-runner. Inputs/outputs.mlir returns a
// computed buffer, a reduction, an input, a constant and an int64 result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %S/Inputs/outputs.mlir -o %t/outputs.so 2>/dev/null | FileCheck %s --check-prefix=COMPILE
// RUN: cc -O1 -I%fuse_include %S/Inputs/abi-check.c -ldl -o %t/abi-check
// RUN: %t/abi-check %t/outputs.so %t/outputs.bin | FileCheck %s --check-prefix=ABI
// RUN: %python %S/Inputs/check-artifact.py %S/Inputs/outputs.mlir %t/outputs.so %t/outputs.bin | FileCheck %s --check-prefix=SAME
// RUN: nm -D --defined-only %t/outputs.so | awk '{print $3}' | sort | FileCheck %s --check-prefix=EXPORTS
// RUN: nm -D --defined-only %t/outputs.so | wc -l | FileCheck %s --check-prefix=COUNT

// COMPILE: fuse-compile: {{.*}}outputs.mlir -> {{.*}}outputs.so (cpu; inputs: a f32[2, 3], b f32[1, 3], i i64[3]; outputs: output0 f32[2, 3], output1 f32[2, 1], output2 f32[2, 3], output3 f32[4], output4 i64[3])

// ABI: abi 1 target 0 model outputs
// ABI-NEXT: input a: type 1 shape [2, 3]
// ABI-NEXT: input b: type 1 shape [1, 3]
// ABI-NEXT: input i: type 8 shape [3]
// ABI-NEXT: output output0: type 1 shape [2, 3]
// ABI-NEXT: output output1: type 1 shape [2, 1]
// ABI-NEXT: output output2: type 1 shape [2, 3]
// ABI-NEXT: output output3: type 1 shape [4]
// ABI-NEXT: output output4: type 8 shape [3]
// ABI-NEXT: input -1: (nil), output 5: (nil)
// ABI-NEXT: null session pointer: status 1: fuseSessionCreate: null session pointer
// ABI-NEXT: options too small: status 1: fuseSessionCreate: options.struct_size 2 does not end a field
// ABI-NEXT: options ending inside a field: status 1: fuseSessionCreate: options.struct_size 12 does not end a field
// ABI-NEXT: negative threads: status 1: fuseSessionCreate: num_threads -3 is not in [0, 1024]
// ABI-NEXT: null session: status 1: fuseSessionRun: null session
// ABI-NEXT: too many inputs: status 1: fuseSessionRun: 4 inputs and 5 outputs, the model takes 3 and 5
// ABI-NEXT: null inputs: status 1: fuseSessionRun: null inputs array
// ABI-NEXT: wrong type: status 1: input 0 ('a'): element type int64, the model takes float32
// ABI-NEXT: wrong rank: status 1: input 0 ('a'): rank 3, the model takes [2, 3]
// ABI-NEXT: wrong shape: status 1: input 0 ('a'): shape [3, 3], the model takes [2, 3]
// ABI-NEXT: null data: status 1: input 0 ('a'): null data pointer
// ABI-NEXT: null shape: status 1: input 0 ('a'): rank 2 with a null shape, the model takes [2, 3]
// ABI-NEXT: null output: status 1: output 0 ('output0'): null data pointer
// ABI-NEXT: run: status 0

// SAME: output 0 (output0): C ABI == Python, vs JIT max rel. error ok
// SAME-NEXT: output 1 (output1): C ABI == Python, vs JIT max rel. error ok
// SAME-NEXT: output 2 (output2): C ABI == Python, vs JIT max rel. error ok
// SAME-NEXT: output 3 (output3): C ABI == Python, vs JIT max rel. error ok
// SAME-NEXT: output 4 (output4): C ABI == Python, vs JIT max rel. error ok

// The ABI and nothing else (no MLIR symbol, no runtime internals).
// EXPORTS: fuseElementTypeSize
// EXPORTS-NEXT: fuseLastError
// EXPORTS-NEXT: fuseModelInput
// EXPORTS-NEXT: fuseModelName
// EXPORTS-NEXT: fuseModelNumInputs
// EXPORTS-NEXT: fuseModelNumOutputs
// EXPORTS-NEXT: fuseModelOutput
// EXPORTS-NEXT: fuseModelTarget
// EXPORTS-NEXT: fuseRuntimeAbiVersion
// EXPORTS-NEXT: fuseSessionCreate
// EXPORTS-NEXT: fuseSessionDestroy
// EXPORTS-NEXT: fuseSessionRun
// COUNT: 12
