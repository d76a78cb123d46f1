// REQUIRES: libomp
// A library computes its results in the caller's output buffers (the CPU
// lowering's out-params), except in one that shares bytes with an input:
// there it computes into a buffer of its own, copied to the output after
// the call. This model reads rows of its input after its first tiles have
// written rows of the output (x + x reversed along its rows, in tiles of
// rows), so computing into the input's own buffer, or one overlapping it,
// would read results where inputs were.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuse-compile %s -o %t/in-place.so > /dev/null 2>&1
// RUN: cc -O1 -I%fuse_include %S/Inputs/in-place.c -ldl -o %t/in-place
// RUN: %t/in-place %t/in-place.so | FileCheck %s
// CHECK: same buffer: same
// CHECK: overlapping: same

func.func @model(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %r = tosa.reverse %x {axis = 0 : i32} : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
  %s = tosa.add %x, %r : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %s : tensor<64x1024xf32>
}
