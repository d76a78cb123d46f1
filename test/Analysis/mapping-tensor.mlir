// RUN: fuse-opt %s -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping | FileCheck %s
//
// tensor data movement and elementwise arith/math on tensors.

// CHECK-LABEL: func.func @tensor_ops
//       CHECK:   tensor.expand_shape {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.collapse_shape {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.reshape {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.extract_slice {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.insert_slice {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.pad
//       CHECK:   fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.concat {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tensor.cast {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
func.func @tensor_ops(%a: tensor<4x6xf32>, %shape: tensor<1xi64>) -> (tensor<24xf32>, tensor<8x6xf32>, tensor<6x8xf32>, tensor<8x6xf32>, tensor<?x6xf32>) {
  %e = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
  %c = tensor.collapse_shape %e [[0, 1, 2]] : tensor<2x2x6xf32> into tensor<24xf32>
  %r = tensor.reshape %c(%shape) : (tensor<24xf32>, tensor<1xi64>) -> tensor<24xf32>
  %s = tensor.extract_slice %a[0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
  %big = tensor.empty() : tensor<8x6xf32>
  %i = tensor.insert_slice %s into %big[0, 0] [2, 6] [1, 1] : tensor<2x6xf32> into tensor<8x6xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<6x8xf32>
  %cc = tensor.concat dim(0) %a, %a : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %cast = tensor.cast %cc : tensor<8x6xf32> to tensor<?x6xf32>
  return %r, %i, %p, %cc, %cast : tensor<24xf32>, tensor<8x6xf32>, tensor<6x8xf32>, tensor<8x6xf32>, tensor<?x6xf32>
}

// -----

// arith/math ops on tensors are elementwise by trait.
// CHECK-LABEL: func.func @arith_on_tensors
//       CHECK:   arith.addf {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   math.exp {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
func.func @arith_on_tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %b : tensor<4xf32>
  %1 = math.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Scalars, allocations and unknown ops are never classified.
// CHECK-LABEL: func.func @unclassified
//   CHECK-NOT:   fuse.mapping
//       CHECK:   return
func.func @unclassified(%a: f32, %b: f32, %t: tensor<4xf32>) -> (f32, tensor<4xf32>, tensor<4xf32>) {
  %0 = arith.addf %a, %b : f32
  %e = tensor.empty() : tensor<4xf32>
  %u = "unknown.op"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %e, %u : f32, tensor<4xf32>, tensor<4xf32>
}

// -----

// Dynamic shapes: an operand dimension that may be a runtime broadcast is
// treated as one; equal static shapes stay one-to-one.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   tosa.add {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   tosa.exp {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = tosa.exp %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// Annotation is idempotent and overwrites stale values.
// CHECK-LABEL: func.func @stale
//       CHECK:   tosa.exp {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//   CHECK-NOT:   many_to_many
func.func @stale(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %a {fuse.mapping = #fuse.mapping<many_to_many>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
