// fuse-compact-kernel-arguments: a launch whose captured values would take
// more parameter bytes than a kernel may (PTX ISA 8.0: 4352) gets its views
// sunk into it, then its statically strided buffers passed as base buffers
// and rebuilt inside; a launch within the limit is left as it is.
//
// RUN: fuse-opt %s --fuse-compact-kernel-arguments | FileCheck %s --check-prefix=KEEP
// RUN: fuse-opt %s --fuse-compact-kernel-arguments=max-bytes=150 | FileCheck %s --check-prefix=SINK
// RUN: fuse-opt %s --fuse-compact-kernel-arguments=max-bytes=100 | FileCheck %s --check-prefix=BASE
// RUN: not fuse-opt %s --fuse-compact-kernel-arguments=max-bytes=40 2>&1 | FileCheck %s --check-prefix=OVER
//
// A dense block (DenseNet's pattern: each layer's output written in place
// into every later concatenation) has launches over the limit: compacted,
// their numbers match the unfused program (the launches emulated on the
// CPU), and the rebuilt views are in the kernels.
// RUN: %python %S/Inputs/gen_dense_block.py 24 > %t.dense.mlir
// RUN: %fuse-diff %t.dense.mlir -p "--fuse-ops" --lower=--fuse-test-lower-to-cpu-via-gpu | FileCheck %s --check-prefix=NUM
// RUN: fuse-opt %t.dense.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm --mlir-print-ir-after=fuse-compact-kernel-arguments -o /dev/null 2>&1 | FileCheck %s --check-prefix=DENSE

// Two views of %a and one of %b (3 x 56 bytes); an index (8): 176 bytes.
func.func @views(%a: memref<4x16xf32>, %b: memref<2x4x8xf32>, %i: index) {
  %c1 = arith.constant 1 : index
  %top = memref.subview %a[0, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1]>>
  %bottom = memref.subview %a[2, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 32>>
  %flat = memref.collapse_shape %b [[0, 1], [2]] : memref<2x4x8xf32> into memref<8x8xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %t = memref.load %top[%i, %i] : memref<2x16xf32, strided<[16, 1]>>
    %f = memref.load %flat[%i, %i] : memref<8x8xf32>
    %s = arith.addf %t, %f : f32
    memref.store %s, %bottom[%i, %i] : memref<2x16xf32, strided<[16, 1], offset: 32>>
    gpu.terminator
  }
  return
}

// KEEP-LABEL: func.func @views
//       KEEP:   memref.subview
//       KEEP:   memref.subview
//       KEEP:   memref.collapse_shape
//       KEEP:   gpu.launch
//   KEEP-NOT:   memref.reinterpret_cast
//   KEEP-NOT:   memref.subview

// Sunk: %a once (56 bytes), %b once (72), the index: 136 bytes.
// SINK-LABEL: func.func @views
//   SINK-NOT:   memref.subview
//       SINK:   gpu.launch
//   SINK-DAG:   memref.subview %{{.*}}[2, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 32>>
//   SINK-DAG:   memref.subview %{{.*}}[0, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1]>>
//   SINK-DAG:   memref.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : memref<2x4x8xf32> into memref<8x8xf32>
//   SINK-NOT:   memref.reinterpret_cast

// Then the 3-d buffer (72 bytes) as its base (24): 88 bytes.
// BASE-LABEL: func.func @views
//       BASE:   %[[BASE:.*]], %{{.*}}, %{{.*}}:3, %{{.*}}:3 = memref.extract_strided_metadata %arg1 : memref<2x4x8xf32>
//       BASE:   gpu.launch
//       BASE:   %[[B:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [2, 4, 8], strides: [32, 8, 1] : memref<f32> to memref<2x4x8xf32>
//       BASE:   memref.collapse_shape %[[B]]

// OVER: error: the kernel needs 56 bytes of parameters for 3 values, more than the 40 it may take

// NUM: fuse-diff: OK 1 outputs

// DENSE: memref.extract_strided_metadata
// DENSE: gpu.launch
// DENSE: memref.reinterpret_cast
