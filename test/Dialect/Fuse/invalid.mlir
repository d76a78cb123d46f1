// RUN: fuse-opt %s -split-input-file -verify-diagnostics

func.func @wrong_arg_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.group' op expects 1 body arguments (one per input), got 0}}
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    fuse.yield %c : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @wrong_arg_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.group' op input #0 has type 'tensor<4xf32>' but its body argument has type 'tensor<4xi32>'}}
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xi32>):
    %c = arith.constant dense<1.0> : tensor<4xf32>
    fuse.yield %c : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'fuse.yield' op yields 2 values but the group has 1 results}}
    fuse.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf16>) {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'fuse.yield' op value #0 has type 'tensor<4xf32>' but group result #0 has type 'tensor<4xf16>'}}
    fuse.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf16>
}

// -----

// The body is isolated from above: values must come in through `ins`.
func.func @captures_from_above(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fuse.group -> (tensor<4xf32>) {
    // expected-error @+1 {{'tosa.exp' op using value defined outside the region}}
    %e = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @side_effect(%m: memref<4xf32>) -> tensor<4xf32> {
  %r = fuse.group ins(%m : memref<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: memref<4xf32>):
    %c = arith.constant 1.0 : f32
    %i = arith.constant 0 : index
    // expected-error @+1 {{'memref.store' op has memory effects and cannot be part of a 'fuse.group'}}
    memref.store %c, %a[%i] : memref<4xf32>
    %t = arith.constant dense<1.0> : tensor<4xf32>
    fuse.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'fuse.group' op cannot be nested inside another 'fuse.group'}}
    %i = fuse.group ins(%a : tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%b: tensor<4xf32>):
      fuse.yield %b : tensor<4xf32>
    }
    fuse.yield %i : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside_group(%x: tensor<4xf32>) {
  // expected-error @+1 {{'fuse.yield' op expects parent op 'fuse.group'}}
  fuse.yield %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'fuse.mapping' must be a #fuse.mapping attribute, got 1 : i64}}
func.func @bad_mapping_attr() attributes {fuse.mapping = 1} {
  return
}

// -----

// expected-error @+1 {{unknown fuse dialect attribute 'fuse.whatever'}}
func.func @unknown_dialect_attr() attributes {fuse.whatever = 1} {
  return
}

// -----

// expected-error @+2 {{expected ::mlir::fuse::MappingType to be one of: one_to_one, shuffle, reorganize, one_to_many, many_to_many}}
// expected-error @+1 {{failed to parse Fuse_MappingTypeAttr parameter 'value'}}
func.func @bad_mapping_case() attributes {m = #fuse.mapping<two_to_one>} {
  return
}

// -----

func.func @perm_count(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.group' op has 2 input permutations for 1 inputs}}
  %r = fuse.group ins(%x : tensor<2x3xf32>) -> (tensor<2x3xf32>) attributes {input_permutations = [array<i64>, array<i64>]} {
  ^bb0(%a: tensor<2x3xf32>):
    fuse.yield %a : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @perm_not_permutation(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.group' op input permutation #0 is not a permutation}}
  %r = fuse.group ins(%x : tensor<2x3xf32>) -> (tensor<2x3xf32>) attributes {input_permutations = [array<i64: 0, 0>]} {
  ^bb0(%a: tensor<2x3xf32>):
    fuse.yield %a : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @perm_input_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.group' op input #0 read through its permutation does not have the type of its body argument}}
  %r = fuse.group ins(%x : tensor<2x3xf32>) -> (tensor<2x3xf32>) attributes {input_permutations = [array<i64: 1, 0>]} {
  ^bb0(%a: tensor<2x3xf32>):
    fuse.yield %a : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// -----

func.func @perm_result_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = fuse.group ins(%x : tensor<2x3xf32>) -> (tensor<2x3xf32>) attributes {result_permutations = [array<i64: 1, 0>]} {
  ^bb0(%a: tensor<2x3xf32>):
    // expected-error @+1 {{'fuse.yield' op value #0 of type 'tensor<2x3xf32>' written through its permutation does not have the type of group result #0, 'tensor<2x3xf32>'}}
    fuse.yield %a : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
