// RUN: fuse-opt %s -allow-unregistered-dialect -split-input-file | fuse-opt -allow-unregistered-dialect -split-input-file | FileCheck %s
// RUN: fuse-opt %s -allow-unregistered-dialect -split-input-file --mlir-print-op-generic | fuse-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @group_two_inputs
//  CHECK-SAME:   (%[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<1x8xf32>)
//       CHECK:   %[[R:.+]] = fuse.group ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<1x8xf32>) -> (tensor<4x8xf32>) attributes {mapping = #fuse.mapping<one_to_many>} {
//       CHECK:   ^bb0(%[[A:.+]]: tensor<4x8xf32>, %[[C:.+]]: tensor<1x8xf32>):
//       CHECK:     %[[S:.+]] = tosa.add %[[A]], %[[C]] {fuse.mapping = #fuse.mapping<one_to_many>}
//       CHECK:     %[[T:.+]] = tosa.tanh %[[S]]
//       CHECK:     fuse.yield %[[T]] : tensor<4x8xf32>
//       CHECK:   return %[[R]]
func.func @group_two_inputs(%x: tensor<4x8xf32>, %b: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %r = fuse.group ins(%x, %b : tensor<4x8xf32>, tensor<1x8xf32>) -> (tensor<4x8xf32>)
      attributes {mapping = #fuse.mapping<one_to_many>} {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<1x8xf32>):
    %0 = tosa.add %a, %c {fuse.mapping = #fuse.mapping<one_to_many>} : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    %1 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
    fuse.yield %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// A group without inputs (its constants live inside) and with two results.
// CHECK-LABEL: func.func @group_no_inputs_two_results
//       CHECK:   %[[R:.+]]:2 = fuse.group -> (tensor<4xf32>, tensor<4xf32>) {
//       CHECK:     %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
//       CHECK:     %[[E:.+]] = tosa.exp %[[C]]
//       CHECK:     fuse.yield %[[C]], %[[E]] : tensor<4xf32>, tensor<4xf32>
//       CHECK:   return %[[R]]#0, %[[R]]#1
func.func @group_no_inputs_two_results() -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group -> (tensor<4xf32>, tensor<4xf32>) {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    %e = tosa.exp %c : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %c, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Every mapping-type spelling parses and prints.
// CHECK-LABEL: func.func @all_mapping_types
//       CHECK:   mapping = #fuse.mapping<one_to_one>
//       CHECK:   mapping = #fuse.mapping<one_to_many>
//       CHECK:   mapping = #fuse.mapping<many_to_many>
//       CHECK:   mapping = #fuse.mapping<reorganize>
//       CHECK:   mapping = #fuse.mapping<shuffle>
func.func @all_mapping_types() attributes {
    a = #fuse.mapping<one_to_one>, b = #fuse.mapping<one_to_many>,
    c = #fuse.mapping<many_to_many>, d = #fuse.mapping<reorganize>,
    e = #fuse.mapping<shuffle>} {
  "test.op"() {mapping = #fuse.mapping<one_to_one>} : () -> ()
  "test.op"() {mapping = #fuse.mapping<one_to_many>} : () -> ()
  "test.op"() {mapping = #fuse.mapping<many_to_many>} : () -> ()
  "test.op"() {mapping = #fuse.mapping<reorganize>} : () -> ()
  "test.op"() {mapping = #fuse.mapping<shuffle>} : () -> ()
  return
}

// -----

// A group whose results are all dead still round-trips.
// CHECK-LABEL: func.func @no_results
//       CHECK:   fuse.group ins(%{{.+}} : tensor<4xf32>) -> () {
func.func @no_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  fuse.group ins(%x : tensor<4xf32>) -> () {
  ^bb0(%a: tensor<4xf32>):
    %e = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield
  }
  return %x : tensor<4xf32>
}

// -----

// Index changes: input 0 is read through a permutation, result 0 written
// through one.
// CHECK-LABEL: func.func @index_changes
//       CHECK:   fuse.group ins(%{{.+}} : tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>) attributes {input_permutations = [array<i64: 0, 2, 3, 1>], result_permutations = [array<i64: 0, 3, 1, 2>]} {
//       CHECK:   ^bb0(%{{.+}}: tensor<1x4x4x2xf32>):
func.func @index_changes(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %r = fuse.group ins(%x : tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>)
      attributes {input_permutations = [array<i64: 0, 2, 3, 1>], result_permutations = [array<i64: 0, 3, 1, 2>]} {
  ^bb0(%a: tensor<1x4x4x2xf32>):
    %e = tosa.exp %a : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
    fuse.yield %e : tensor<1x4x4x2xf32>
  }
  return %r : tensor<1x2x4x4xf32>
}
