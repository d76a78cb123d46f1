// RUN: fuse-opt %s --fuse-ops | fuse-opt --fuse-tile-groups=min-tile-elements=4096 --canonicalize --fuse-vectorize-tiles | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --rtol 1e-2 --atol 1e-2 | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 2 outputs

// Vectors of 16-bit floats keep power-of-two lengths on the CPU: LLVM 22's
// x86 backend aborts on bf16 arithmetic over 9, 17 or 33 lanes when the
// host has AVX512-BF16 ("Do not know how to soft promote this operator's
// operand"). The fused op over rows of 17 (bf16 inside its payload)
// stays a scalar loop nest; the one over rows of 16 is vector code.
// CHECK-LABEL: func.func @model
//   CHECK-NOT:   vector<{{[0-9x]*}}17x
//       CHECK:   vector<2x16xbf16>
//   CHECK-NOT:   vector<{{[0-9x]*}}17x
//       CHECK:   return
func.func @model(%x: tensor<4x17xf32>, %y: tensor<4x16xf32>) -> (tensor<4x17xf32>, tensor<4x16xf32>) {
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
  %xb = tosa.cast %x : (tensor<4x17xf32>) -> tensor<4x17xbf16>
  %xs = tosa.sub %c, %xb : (tensor<1x1xbf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
  %xm = tosa.maximum %xs, %xb : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
  %xf = tosa.cast %xm : (tensor<4x17xbf16>) -> tensor<4x17xf32>
  %cf = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %xe = tosa.exp %xf : (tensor<4x17xf32>) -> tensor<4x17xf32>
  %xr = tosa.add %xe, %cf : (tensor<4x17xf32>, tensor<1x1xf32>) -> tensor<4x17xf32>
  %yb = tosa.cast %y : (tensor<4x16xf32>) -> tensor<4x16xbf16>
  %ys = tosa.sub %c, %yb : (tensor<1x1xbf16>, tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %yf = tosa.cast %ys : (tensor<4x16xbf16>) -> tensor<4x16xf32>
  return %xr, %yf : tensor<4x17xf32>, tensor<4x16xf32>
}
