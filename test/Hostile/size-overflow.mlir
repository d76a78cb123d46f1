// Shapes whose element count or byte size overflows 64 bits (a SIGFPE in
// the tiler before) or exceeds 2^40 bytes are refused at the start of every
// pipeline and of fuse-tile-groups run on its own (fuse-verify-input).
// RUN: not fuse-opt %s -split-input-file --fuse-ops 2>&1 | FileCheck %s
// RUN: not fuse-opt %s -split-input-file --fuse-tile-groups 2>&1 | FileCheck %s
// RUN: not fuse-opt %s -split-input-file --fuse-lower-to-cpu 2>&1 | FileCheck %s
// RUN: not fuse-opt %s -split-input-file --fuse-lower-to-nvvm 2>&1 | FileCheck %s
// RUN: not fuse-opt %s -split-input-file --fuse-verify-input 2>&1 | FileCheck %s
// CHECK: error: type 'tensor<10000000000x10000000000xf32>' is too large
// CHECK: error: type 'tensor<3037000500x3037000500x2xf32>' is too large
// CHECK: error: type 'tensor<262145x1048576xf32>' is too large
// Index elements count 8 bytes (2^38 of them are over 2^40 bytes); a small
// index tensor passes (both crashed the size check before).
// CHECK-NOT: tensor<4xindex>
// CHECK: error: type 'tensor<262144x1048576xindex>' is too large

func.func @overflow(%x: tensor<10000000000x10000000000xf32>) -> tensor<10000000000x10000000000xf32> {
  %0 = tosa.exp %x : (tensor<10000000000x10000000000xf32>) -> tensor<10000000000x10000000000xf32>
  return %0 : tensor<10000000000x10000000000xf32>
}

// -----

func.func @overflow_bytes(%x: tensor<3037000500x3037000500x2xf32>) -> tensor<3037000500x3037000500x2xf32> {
  %0 = tosa.exp %x : (tensor<3037000500x3037000500x2xf32>) -> tensor<3037000500x3037000500x2xf32>
  return %0 : tensor<3037000500x3037000500x2xf32>
}

// -----

// Just over 2^40 bytes (2^40 exactly passes).
func.func @one_tebibyte(%x: tensor<262145x1048576xf32>) -> tensor<262145x1048576xf32> {
  %0 = tosa.exp %x : (tensor<262145x1048576xf32>) -> tensor<262145x1048576xf32>
  return %0 : tensor<262145x1048576xf32>
}

// -----

func.func @small_index(%x: tensor<4xindex>) -> tensor<4xindex> {
  return %x : tensor<4xindex>
}

// -----

func.func @index_bytes(%x: tensor<262144x1048576xindex>) -> tensor<262144x1048576xindex> {
  return %x : tensor<262144x1048576xindex>
}
