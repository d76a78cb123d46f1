// RUN: fuse-opt %s -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping --fuse-form-groups | FileCheck %s
// RUN: fuse-opt %s -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping --fuse-form-groups="max-group-size=2" | FileCheck %s --check-prefix=CAP
// RUN: fuse-opt %s -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping --fuse-form-groups | fuse-opt -split-input-file -allow-unregistered-dialect --fuse-annotate-mapping --fuse-form-groups | FileCheck %s

// A chain fuses into one group with one input and one result; constants are
// cloned into the body.
// CHECK-LABEL: func.func @chain
//  CHECK-SAME:   (%[[X:.+]]: tensor<8x8xf32>)
//       CHECK:   %[[G:.+]] = fuse.group ins(%[[X]] : tensor<8x8xf32>) -> (tensor<8x8xf32>) attributes {mapping = #fuse.mapping<one_to_many>} {
//       CHECK:     "tosa.const"
//       CHECK:     tosa.exp
//       CHECK:     tosa.tanh
//       CHECK:     tosa.add
//       CHECK:     fuse.yield
//   CHECK-NOT:   fuse.group
//       CHECK:   return %[[G]]
// At most two ops a group: the chain of three is two groups.
// CAP-LABEL: func.func @chain
//   CAP-COUNT-2:   fuse.group ins
//   CAP-NOT:   fuse.group
//       CAP:   return
// CAP-LABEL: func.func @multi_output
func.func @chain(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %0 = tosa.exp %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = tosa.tanh %0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = tosa.add %1, %c : (tensor<8x8xf32>, tensor<1x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// A value used inside and outside the group is a second result.
// CHECK-LABEL: func.func @multi_output
//       CHECK:   %[[G:.+]]:2 = fuse.group
//       CHECK:     %[[E:.+]] = tosa.exp
//       CHECK:     %[[T:.+]] = tosa.tanh %[[E]]
//       CHECK:     fuse.yield %[[E]], %[[T]]
//       CHECK:   return %[[G]]#1, %[[G]]#0
func.func @multi_output(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = tosa.exp %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = tosa.tanh %0 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Convexity: exp -> opaque -> add and exp -> add. Putting exp and add in one
// group would need the opaque op both before and after it.
// CHECK-LABEL: func.func @convexity
//       CHECK:   %[[A:.+]] = fuse.group
//       CHECK:     tosa.exp
//       CHECK:   %[[O:.+]] = "test.opaque"(%[[A]])
//       CHECK:   fuse.group ins(%[[A]], %[[O]]
//       CHECK:     tosa.add
func.func @convexity(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = tosa.exp %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = "test.opaque"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = tosa.add %0, %1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

// Calls, unknown ops and dynamic shapes are never grouped.
// CHECK-LABEL: func.func @untouched
//   CHECK-NOT:   fuse.group
//       CHECK:   call @callee
//       CHECK:   tosa.exp %{{.+}} : (tensor<?x8xf32>)
func.func private @callee(tensor<8x8xf32>) -> tensor<8x8xf32>
func.func @untouched(%x: tensor<8x8xf32>, %d: tensor<?x8xf32>) -> (tensor<8x8xf32>, tensor<?x8xf32>) {
  %0 = call @callee(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = tosa.exp %d : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<?x8xf32>
}

// -----

// Softmax is one group: reductions over the same rows share a row-wise
// kernel, and their broadcasts keep the reduced values on chip.
// CHECK-LABEL: func.func @softmax
//       CHECK:   fuse.group
//       CHECK:     tosa.reduce_max
//       CHECK:     tosa.sub
//       CHECK:     tosa.exp
//       CHECK:     tosa.reduce_sum
//       CHECK:     tosa.reciprocal
//       CHECK:     tosa.mul
//   CHECK-NOT:   fuse.group
func.func @softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %s = tosa.sub %x, %m : (tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x32xf32>
  %e = tosa.exp %s : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = tosa.mul %e, %r, %shift : (tensor<4x32xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// A matmul's epilogue (bias, activation, residual) fuses into it; the next
// matmul starts a new kernel.
// CHECK-LABEL: func.func @matmul_epilogue
//       CHECK:   %[[G1:.+]] = fuse.group
//       CHECK:     tosa.matmul
//       CHECK:     tosa.add
//       CHECK:     tosa.clamp
//       CHECK:     tosa.add
//       CHECK:   fuse.group ins(%[[G1]]
//       CHECK:     tosa.matmul
func.func @matmul_epilogue(%x: tensor<1x8x16xf32>, %res: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %b = "tosa.const"() <{values = dense<0.2> : tensor<1x1x16xf32>}> : () -> tensor<1x1x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %1 = tosa.add %0, %b : (tensor<1x8x16xf32>, tensor<1x1x16xf32>) -> tensor<1x8x16xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %3 = tosa.add %2, %res : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %4 = tosa.matmul %3, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  return %4 : tensor<1x8x16xf32>
}

// -----

// The tool-level flags write the report and the picture.
// RUN: fuse-opt %s -split-input-file -allow-unregistered-dialect '--fuse-ops=report=%t.json dot=%t.dot' -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// JSON: "functions": [
// JSON: "mapping": "many_to_many"
// JSON: "root": "tosa.matmul"
// JSON: "kernels_after": 1
// JSON: "totals": {
// DOT: digraph fusion {
// DOT: subgraph cluster_
// DOT: label="group {{[0-9]+}} (many_to_many)"; style=filled; fillcolor="#f6cfcf";
// DOT: [label="tosa.matmul"];
func.func @report_flags(%x: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  %w = "tosa.const"() <{values = dense<0.1> : tensor<1x8x8xf32>}> : () -> tensor<1x8x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %1 = tosa.tanh %0 : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %1 : tensor<1x4x8xf32>
}
