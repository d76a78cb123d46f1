// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-slice-producers,fuse-permute-weights))" | FileCheck %s

// Quantized constants hold their storage type (i8) in their attribute:
// slices of them are left alone, not rebuilt as plain i8 constants (which
// would drop the scale). fuse-permute-weights checks the same for the
// weights it permutes.
// CHECK-LABEL: func.func @quantized_slice
//       CHECK:   tosa.slice
func.func @quantized_slice() -> tensor<2x!quant.uniform<i8:f32, 1.000000e-01>> {
  %k = "tosa.const"() <{values = dense<[1, 2, 3, 4]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
  %start = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.slice %k, %start, %size : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>
  return %s : tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>
}
