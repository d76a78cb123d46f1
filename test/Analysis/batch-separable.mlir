// RUN: fuse-opt %s -split-input-file -verify-diagnostics --fuse-prove-batch-separable="batch=3 args=0" | FileCheck %s
//
// The batch (axis 0 of %x, size 3) must stay apart through every op, and
// every result must hold it as its first dimension. Accepted functions are
// left as they are; refusals are errors at the op that mixes or tells
// samples apart.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#bias = affine_map<(d0, d1, d2, d3) -> (d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A convolution into a broadcast bias, a flatten, a matmul with constant
// weights, a bias row: accepted, unchanged.
// CHECK-LABEL: func.func @model
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK: tensor.collapse_shape
// CHECK: linalg.matmul
func.func @model(%x: tensor<3x4x4x2xf32>, %w: tensor<2x3x3x2xf32>) -> tensor<3x5xf32> {
  %b = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<3x2x2x2xf32>
  %init = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<2xf32>) outs(%e : tensor<3x2x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<3x2x2x2xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<3x4x4x2xf32>, tensor<2x3x3x2xf32>) outs(%init : tensor<3x2x2x2xf32>) -> tensor<3x2x2x2xf32>
  %f = tensor.collapse_shape %c [[0], [1, 2, 3]] : tensor<3x2x2x2xf32> into tensor<3x8xf32>
  %m = arith.constant dense<0.5> : tensor<8x5xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<3x5xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %y = linalg.matmul ins(%f, %m : tensor<3x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %out = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%y, %r : tensor<3x5xf32>, tensor<5xf32>) outs(%e2 : tensor<3x5xf32>) {
  ^bb0(%a: f32, %q: f32, %o: f32):
    %s = arith.addf %a, %q : f32
    linalg.yield %s : f32
  } -> tensor<3x5xf32>
  return %out : tensor<3x5xf32>
}

// -----

// The batch merged with the axis after it (attention's heads), computed
// on, split off again; a pad, a slice and a concat along other axes, a
// splat joined along them.
// CHECK-LABEL: func.func @model
// CHECK: tensor.concat
#id1 = affine_map<(d0) -> (d0)>
func.func @model(%x: tensor<3x2x4xf32>) -> tensor<3x2x9xf32> {
  %m = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x2x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %s = tensor.expand_shape %n [[0, 1], [2]] output_shape [3, 2, 4] : tensor<6x4xf32> into tensor<3x2x4xf32>
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %s low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %z : f32
  } : tensor<3x2x4xf32> to tensor<3x2x6xf32>
  %t = tensor.extract_slice %p[0, 0, 1] [3, 2, 5] [1, 1, 1] : tensor<3x2x6xf32> to tensor<3x2x5xf32>
  %u = arith.constant dense<7.0> : tensor<3x2x4xf32>
  %c = tensor.concat dim(2) %t, %u : (tensor<3x2x5xf32>, tensor<3x2x4xf32>) -> tensor<3x2x9xf32>
  return %c : tensor<3x2x9xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error @below {{reduces over the batch (loop dimension d0): samples would mix}}
  %sum = linalg.reduce ins(%x : tensor<3x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<3x4xf32>
  %r = linalg.broadcast ins(%sum : tensor<4xf32>) outs(%e2 : tensor<3x4xf32>) dimensions = [0]
  return %r : tensor<3x4xf32>
}

// -----

// A constant that differs along the batch: each sample would read its own row.
func.func @model(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  // expected-error @below {{operand 1 has no batch axis but differs along the batch loop dimension d0 (axis 0): samples would differ}}
  %r = linalg.add ins(%x, %c : tensor<3x2xf32>, tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{takes a part of the batch axis 0}}
  %s = tensor.extract_slice %x[1, 0] [2, 4] [1, 1] : tensor<3x4xf32> to tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// Merged with the axis above it, the samples interleave: a result may not.
func.func @model(%x: tensor<3x2xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%x : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) permutation = [1, 0]
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  // expected-error @below {{result 0 does not hold the batch as its first dimension}}
  return %c : tensor<6xf32>
}

// -----

// Sequence-first attention (PyTorch's MultiheadAttention): the batch in the
// middle of a merged axis, row-wise work on it, split back and moved first.
// CHECK-LABEL: func.func @model
// CHECK: linalg.matmul
func.func @model(%x: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %e = tensor.empty() : tensor<4x3x8xf32>
  %t = linalg.transpose ins(%x : tensor<3x4x8xf32>) outs(%e : tensor<4x3x8xf32>) permutation = [1, 0, 2]
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<4x3x8xf32> into tensor<12x8xf32>
  %w = arith.constant dense<0.25> : tensor<8x8xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<12x8xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<12x8xf32>) -> tensor<12x8xf32>
  %m = linalg.matmul ins(%c, %w : tensor<12x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<12x8xf32>) -> tensor<12x8xf32>
  %s = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 3, 8] : tensor<12x8xf32> into tensor<4x3x8xf32>
  %e3 = tensor.empty() : tensor<3x4x8xf32>
  %b = linalg.transpose ins(%s : tensor<4x3x8xf32>) outs(%e3 : tensor<3x4x8xf32>) permutation = [1, 0, 2]
  return %b : tensor<3x4x8xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<2x6xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  // expected-error @below {{splits the batch axis 0 so that no axis holds whole samples}}
  %s = tensor.expand_shape %c [[0, 1]] output_shape [2, 6] : tensor<12xf32> into tensor<2x6xf32>
  return %s : tensor<2x6xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  // expected-error @below {{reads the index of the batch loop dimension d0: samples would differ}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// Samples against each other: an outer product over the batch.
func.func @model(%x: tensor<3xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  // expected-error @below {{operands hold the batch on different loop dimensions (d0 and d1): samples would mix}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %x : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>, %i: index) -> f32 {
  // expected-error @below {{reads a batch tensor in a way not known to keep the samples apart}}
  %v = tensor.extract %x[%i, %i] : tensor<3x4xf32>
  return %v : f32
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<5x4xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @below {{pads the batch axis 0}}
  %p = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<3x4xf32> to tensor<5x4xf32>
  return %p : tensor<5x4xf32>
}

// -----

func.func @model(%x: tensor<3x4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @below {{result 0 does not hold the batch as its first dimension}}
  return %c : tensor<4xf32>
}

// -----

// expected-error @below {{argument 0 does not have the batch size 3 as its first dimension}}
func.func @model(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  return %x : tensor<2x4xf32>
}

// -----

// A nearest-neighbour upsampling as tosa.resize lowers it: the input read
// by tensor.extract at the batch loop's index.
// CHECK-LABEL: func.func @model
// CHECK: tensor.extract
func.func @model(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<3x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %h = arith.divui %j, %c2 : index
    %v = tensor.extract %x[%b, %h] : tensor<3x2xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// The same read, but of the sample after this one.
func.func @model(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<3x4xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n = arith.addi %b, %c1 : index
    %h = arith.divui %j, %c2 : index
    // expected-error @below {{reads a batch tensor at an index that is not one loop dimension's}}
    %v = tensor.extract %x[%n, %h] : tensor<3x2xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
