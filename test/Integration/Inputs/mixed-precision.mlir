// Mixed precision at sizes the GPU lowering stages and register-tiles:
// operands cast from f32 to f16 or bf16, products summed in f32 (matmul
// into f32, convolution with acc_type f32) or in the low type (matmul into
// f16), results cast back to f32.
func.func @model(%a: tensor<1x64x128xf32>, %b: tensor<1x128x96xf32>, %bias: tensor<1x1x96xf32>, %a2: tensor<1x64x128xf32>, %b2: tensor<1x128x96xf32>, %a3: tensor<1x64x128xf32>, %b3: tensor<1x128x96xf32>, %img: tensor<1x12x12x32xf32>) -> (tensor<1x64x96xf32>, tensor<1x64x96xf32>, tensor<1x64x96xf32>, tensor<1x10x10x32xf32>) {
  %z16 = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  // f16 x f16 -> f32, bias and ReLU6.
  %a16 = tosa.cast %a : (tensor<1x64x128xf32>) -> tensor<1x64x128xf16>
  %b16 = tosa.cast %b : (tensor<1x128x96xf32>) -> tensor<1x128x96xf16>
  %m = tosa.matmul %a16, %b16, %z16, %z16 : (tensor<1x64x128xf16>, tensor<1x128x96xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x96xf32>
  %s = tosa.add %m, %bias : (tensor<1x64x96xf32>, tensor<1x1x96xf32>) -> tensor<1x64x96xf32>
  %r = tosa.clamp %s {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x64x96xf32>) -> tensor<1x64x96xf32>
  // f16 x f16 -> f16.
  %a216 = tosa.cast %a2 : (tensor<1x64x128xf32>) -> tensor<1x64x128xf16>
  %b216 = tosa.cast %b2 : (tensor<1x128x96xf32>) -> tensor<1x128x96xf16>
  %h = tosa.matmul %a216, %b216, %z16, %z16 : (tensor<1x64x128xf16>, tensor<1x128x96xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x96xf16>
  %hf = tosa.cast %h : (tensor<1x64x96xf16>) -> tensor<1x64x96xf32>
  // bf16 x bf16 -> f32.
  %abf = tosa.cast %a3 : (tensor<1x64x128xf32>) -> tensor<1x64x128xbf16>
  %bbf = tosa.cast %b3 : (tensor<1x128x96xf32>) -> tensor<1x128x96xbf16>
  %zbf = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %q = tosa.matmul %abf, %bbf, %zbf, %zbf : (tensor<1x64x128xbf16>, tensor<1x128x96xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x64x96xf32>
  // A 3x3 convolution in f16, summed in f32, rounded to f16.
  %i16 = tosa.cast %img : (tensor<1x12x12x32xf32>) -> tensor<1x12x12x32xf16>
  %w = "tosa.const"() <{values = dense<0.0625> : tensor<32x3x3x32xf16>}> : () -> tensor<32x3x3x32xf16>
  %wb = "tosa.const"() <{values = dense<0.125> : tensor<32xf16>}> : () -> tensor<32xf16>
  %c = tosa.conv2d %i16, %w, %wb, %z16, %z16 {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x12x12x32xf16>, tensor<32x3x3x32xf16>, tensor<32xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x10x10x32xf16>
  %cf = tosa.cast %c : (tensor<1x10x10x32xf16>) -> tensor<1x10x10x32xf32>
  return %r, %hf, %q, %cf : tensor<1x64x96xf32>, tensor<1x64x96xf32>, tensor<1x64x96xf32>, tensor<1x10x10x32xf32>
}
