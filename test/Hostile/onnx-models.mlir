// REQUIRES: onnx
// Hostile ONNX models (Inputs/make_hostile_onnx.py writes them): each is
// refused by fuse-import with one named error line and exit 1 -- never a
// traceback, a signal, a hang, an allocation of the declared size, a read
// outside the model's folder, or output that does not verify. Three are
// imported: a negative constant Gather index within range (normalized), run-
// time Gather indices (normalized in the IR), external data in the folder.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_hostile_onnx.py all %t/m
//
// Not a model, or a model over the limits (nothing of the declared size is
// allocated).
// RUN: not %fuse-import %t/m/truncated.onnx 2>&1 | FileCheck %s --check-prefix=TRUNCATED --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/random.onnx 2>&1 | FileCheck %s --check-prefix=RANDOM --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/empty-file.onnx 2>&1 | FileCheck %s --check-prefix=EMPTY --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m 2>&1 | FileCheck %s --check-prefix=DIRECTORY --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/huge-init.onnx 2>&1 | FileCheck %s --check-prefix=HUGE-INIT --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/short-init.onnx 2>&1 | FileCheck %s --check-prefix=SHORT-INIT --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/huge-fold.onnx 2>&1 | FileCheck %s --check-prefix=HUGE-FOLD --implicit-check-not=Traceback
// TRUNCATED: fuse-import: {{.*}}truncated.onnx: error: not an ONNX model: the file is truncated or corrupt
// RANDOM: fuse-import: {{.*}}random.onnx: error: not an ONNX model: the file is truncated or corrupt
// EMPTY: fuse-import: {{.*}}empty-file.onnx: error: the model has no graph
// DIRECTORY: fuse-import: {{.*}}: error: cannot read the model: not a regular file
// HUGE-INIT: error: initializer 'w': 1000000000000 elements declared, more than the limit of 4294967296
// SHORT-INIT: error: initializer 'w': declares 16 elements but holds 2
// HUGE-FOLD: error: node 'cos' (ConstantOfShape): a constant of shape (1000000, 1000000) computed at import time: more than the limit of 67108864 elements
//
// Element types.
// RUN: not %fuse-import %t/m/dtype-1234.onnx 2>&1 | FileCheck %s --check-prefix=DTYPE --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/input-dtype-1234.onnx 2>&1 | FileCheck %s --check-prefix=INPUT-DTYPE --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/input-bf16.onnx 2>&1 | FileCheck %s --check-prefix=BF16 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/input-complex.onnx 2>&1 | FileCheck %s --check-prefix=COMPLEX --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/input-string.onnx 2>&1 | FileCheck %s --check-prefix=STRING --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/input-uint8.onnx 2>&1 | FileCheck %s --check-prefix=UINT8 --implicit-check-not=Traceback
// DTYPE: error: initializer 'w': unknown element type 1234
// INPUT-DTYPE: error: graph input 'x': unknown element type 1234
// BF16: error: graph input 'x': bf16 inputs are not supported
// COMPLEX: error: graph input 'x': complex inputs (COMPLEX64) are not supported: TOSA has no complex types
// STRING: error: graph input 'x': string inputs are not supported: TOSA has no strings
// UINT8: error: graph input 'x': unsigned inputs (UINT8) are not supported: TOSA has no unsigned arithmetic
//
// Attributes and shapes that are not valid ONNX: checked before anything is
// written (strides of 0 killed the process with SIGFPE in onnx's shape
// inference, which is no longer run; negative pads, mismatched shapes and
// types, and a bad permutation gave output that does not verify).
// RUN: not %fuse-import %t/m/conv-group0.onnx 2>&1 | FileCheck %s --check-prefix=GROUP0 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/conv-strides0.onnx 2>&1 | FileCheck %s --check-prefix=STRIDES0 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/conv-neg-pads.onnx 2>&1 | FileCheck %s --check-prefix=NEG-PADS --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/conv-kernel-mismatch.onnx 2>&1 | FileCheck %s --check-prefix=KERNEL --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/pool-kernel0.onnx 2>&1 | FileCheck %s --check-prefix=KERNEL0 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/concat-no-inputs.onnx 2>&1 | FileCheck %s --check-prefix=CONCAT0 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/relu-no-inputs.onnx 2>&1 | FileCheck %s --check-prefix=RELU0 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/matmul-mismatch.onnx 2>&1 | FileCheck %s --check-prefix=MATMUL --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/add-f32-i32.onnx 2>&1 | FileCheck %s --check-prefix=ADD-TYPES --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/transpose-dup-perm.onnx 2>&1 | FileCheck %s --check-prefix=PERM --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/gather-axis7.onnx 2>&1 | FileCheck %s --check-prefix=GATHER-AXIS --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/softmax-axis99.onnx 2>&1 | FileCheck %s --check-prefix=SOFTMAX-AXIS --implicit-check-not=Traceback
// GROUP0: error: node 'conv' (Conv): group 0 does not divide the channels (3 in, weights for 3 per group, 4 out)
// STRIDES0: error: node 'conv' (Conv): attribute 'strides' must be >= 1, is [0, 0]
// NEG-PADS: error: node 'conv' (Conv): pads [-1, -1, -1, -1]: negative pads are not supported
// KERNEL: error: node 'conv' (Conv): kernel_shape [5, 5] differs from the weights' [3, 3]
// KERNEL0: error: node 'maxpool' (MaxPool): attribute 'kernel_shape' must be >= 1, is [0, 0]
// CONCAT0: error: node 'cat' (Concat): expects at least 1 input, has 0
// RELU0: error: node 'relu' (Relu): expects 1 input, has 0
// MATMUL: error: node 'mm' (MatMul): MatMul of shapes (2, 3) and (4, 5): the inner dimensions differ
// ADD-TYPES: error: node 'add' (Add): operands of element types f32 and i32: they must be the same
// PERM: error: node 'transpose' (Transpose): perm [0, 0] is not a permutation of the 2 axes
// GATHER-AXIS: error: node 'gather' (Gather): axis 7 is out of range for rank 2
// SOFTMAX-AXIS: error: node 'softmax' (Softmax): axis 99 is out of range for rank 2
//
// The graph: no outputs, a value produced twice, the opset.
// RUN: not %fuse-import %t/m/no-outputs.onnx 2>&1 | FileCheck %s --check-prefix=NO-OUTPUTS --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/duplicate-producer.onnx 2>&1 | FileCheck %s --check-prefix=DUPLICATE --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/opset30.onnx 2>&1 | FileCheck %s --check-prefix=OPSET30 --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/no-opset.onnx 2>&1 | FileCheck %s --check-prefix=NO-OPSET --implicit-check-not=Traceback
// NO-OUTPUTS: error: the graph has no outputs
// DUPLICATE: error: node 'second' (Neg): output 'y' is already produced by node 'first' (Relu)
// OPSET30: error: opset 30 is newer than the newest supported (22)
// NO-OPSET: error: the model imports no ONNX opset (no opset_import of the default domain)
//
// Constant Gather indices outside [-n, n - 1]; a negative one within range
// is normalized (-1 -> 3); run-time indices are normalized in the IR (idx < 0
// selects idx + n), their range is the lowering's to clamp.
// RUN: not %fuse-import %t/m/gather-oob.onnx 2>&1 | FileCheck %s --check-prefix=GATHER-OOB --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/gather-oob-neg.onnx 2>&1 | FileCheck %s --check-prefix=GATHER-OOB-NEG --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/gather-oob-folded.onnx 2>&1 | FileCheck %s --check-prefix=GATHER-OOB-FOLDED --implicit-check-not=Traceback
// RUN: %fuse-import %t/m/gather-neg.onnx -o %t/gather-neg.mlir
// RUN: fuse-opt %t/gather-neg.mlir | FileCheck %s --check-prefix=GATHER-NEG
// RUN: %fuse-import %t/m/gather-runtime.onnx -o %t/gather-runtime.mlir
// RUN: fuse-opt %t/gather-runtime.mlir | FileCheck %s --check-prefix=GATHER-RUNTIME
// GATHER-OOB: error: node 'gather' (Gather): index 4 is out of range for axis 0 of size 4
// GATHER-OOB-NEG: error: node 'gather' (Gather): index -5 is out of range for axis 0 of size 4
// GATHER-OOB-FOLDED: error: node 'gather' (Gather): index 7 is out of range for axis 0 of size 4
// GATHER-NEG: tosa.const{{.*}}dense<{{\[\[}}3, 0]]> : tensor<1x2xi32>
// GATHER-NEG: tosa.gather
// GATHER-RUNTIME: tosa.cast %arg1 {{.*}} -> tensor<2xi32>
// GATHER-RUNTIME: tosa.greater
// GATHER-RUNTIME: tosa.add
// GATHER-RUNTIME: tosa.select
// GATHER-RUNTIME: tosa.gather
//
// External data stays in the model's folder: `..` out of it, an absolute
// path, a symlink out of it, a missing file, a directory, a FIFO (never
// opened: the import does not hang), bytes beyond the file's end. The file
// inside the folder (offset 16) is read.
// RUN: not %fuse-import %t/m/ext-escape.onnx 2>&1 | FileCheck %s --check-prefix=EXT-ESCAPE --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-passwd.onnx 2>&1 | FileCheck %s --check-prefix=EXT-PASSWD --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-absolute.onnx 2>&1 | FileCheck %s --check-prefix=EXT-ABSOLUTE --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-symlink.onnx 2>&1 | FileCheck %s --check-prefix=EXT-SYMLINK --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-missing.onnx 2>&1 | FileCheck %s --check-prefix=EXT-MISSING --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-directory.onnx 2>&1 | FileCheck %s --check-prefix=EXT-DIRECTORY --implicit-check-not=Traceback
// RUN: not timeout 60 %fuse-import %t/m/ext-fifo.onnx 2>&1 | FileCheck %s --check-prefix=EXT-FIFO --implicit-check-not=Traceback
// RUN: not %fuse-import %t/m/ext-range.onnx 2>&1 | FileCheck %s --check-prefix=EXT-RANGE --implicit-check-not=Traceback
// RUN: %fuse-import %t/m/ext-ok.onnx -o %t/ext-ok.mlir
// RUN: fuse-opt %t/ext-ok.mlir | FileCheck %s --check-prefix=EXT-OK
// EXT-ESCAPE: error: initializer 'w': external data 'sub/../../outside.bin': outside the model's folder
// EXT-PASSWD: error: initializer 'w': external data 'sub/../../../../etc/passwd': outside the model's folder
// EXT-ABSOLUTE: error: initializer 'w': external data '{{.*}}outside.bin': not a relative path inside the model's folder
// EXT-SYMLINK: error: initializer 'w': external data 'sub/link.bin': outside the model's folder
// EXT-MISSING: error: initializer 'w': external data 'sub/missing.bin': no such file
// EXT-DIRECTORY: error: initializer 'w': external data 'sub': not a regular file
// EXT-FIFO: error: initializer 'w': external data 'sub/fifo': not a regular file
// EXT-RANGE: error: initializer 'w': external data 'sub/short.bin': bytes 16 to 448 are not in the file (432 bytes)
// EXT-OK: tosa.const{{.*}}dense<1.000000e+00> : tensor<4x3x3x3xf32>
// EXT-OK: tosa.conv2d
