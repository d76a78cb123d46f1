// S3: a gather whose indices are outside its input ([100, -100] on 4 rows;
// the importer refuses such constants from ONNX, but TOSA written by hand
// or computed at run time can hold them) reads the nearest rows, never
// memory outside the input (values read past it before). Through the CPU
// lowering, fused and not, and the emulated GPU lowering.
// RUN: fuse-opt %s --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-lower-to-cpu | %run-cpu | FileCheck %s
// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-test-lower-to-cpu-via-gpu | %run-cpu | FileCheck %s
// Rows 3 and 0 of the 4x2 input (row r holds r*10 + column):
// CHECK: {{\[\[\[}}30,   31],
// CHECK-NEXT: {{\[}}0,   1]]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %v = "tosa.const"() <{values = dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0]]]> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %i = "tosa.const"() <{values = dense<[[100, -100]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
  %g = tosa.gather %v, %i : (tensor<1x4x2xf32>, tensor<1x2xi32>) -> tensor<1x2x2xf32>
  %u = tensor.cast %g : tensor<1x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
