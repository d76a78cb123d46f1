// ResNet bottleneck block in TOSA, as an ONNX importer emits it: the input
// and output are NCHW (1x16x8x8); TOSA convolutions are NHWC, so the graph
// transposes in (perms 0,2,3,1) and back out (perms 0,3,1,2).
//   1x1 conv 16->4, BN, ReLU
//   3x3 conv  4->4 (pad 1), BN, ReLU
//   1x1 conv  4->16, BN
//   residual add with the (NHWC) block input, ReLU
// Each inference BatchNorm is written out elementwise with [1,1,1,C] constants:
//   y = (x - mean) * rsqrt(var + eps) * gamma + beta
// with rsqrt applied to the constant (var + eps). Weights are OHWI, fixed
// pseudo-random values (two decimals) scaled by 1/sqrt(fan-in).
func.func @model(%input: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  // Stage 1: 1x1, 16->4 (OHWI 4x1x1x16), bias, BN constants.
  %w1 = "tosa.const"() <{values = dense<[[[[0.23,0.13,-0.08,-0.26,0.15,0.41,-0.06,0.30,-0.40,0.02,-0.26,0.00,0.10,0.31,0.02,0.32]]],

    [[[-0.15,-0.32,-0.03,0.19,0.18,-0.40,-0.22,-0.21,-0.02,0.31,-0.20,-0.39,0.34,0.32,0.23,-0.40]]],

    [[[-0.21,-0.28,0.36,-0.32,-0.32,-0.24,0.25,-0.26,0.42,-0.17,0.13,-0.27,-0.18,0.32,0.43,-0.22]]],

    [[[-0.13,-0.38,-0.26,-0.10,0.02,0.06,-0.13,-0.30,0.05,-0.13,-0.13,0.41,0.08,-0.42,0.40,0.41]]]]> : tensor<4x1x1x16xf32>}> : () -> tensor<4x1x1x16xf32>
  %b1 = "tosa.const"() <{values = dense<[-0.01,0.05,-0.04,0.04]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %bn1_mean = "tosa.const"() <{values = dense<[[[[-0.13,0.15,0.07,0.18]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn1_var = "tosa.const"() <{values = dense<[[[[0.80,1.15,1.44,0.63]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn1_gamma = "tosa.const"() <{values = dense<[[[[0.75,1.05,0.71,0.64]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn1_beta = "tosa.const"() <{values = dense<[[[[-0.10,0.00,0.09,0.04]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  // Stage 2: 3x3, 4->4 (OHWI 4x3x3x4).
  %w2 = "tosa.const"() <{values = dense<[[[[0.06,-0.27,-0.23,0.04],
    [-0.20,-0.28,-0.25,0.09],
    [0.27,0.00,-0.29,-0.18]],
    [[0.10,0.17,-0.17,-0.02],
    [-0.27,0.02,0.15,0.00],
    [0.16,-0.15,0.10,-0.02]],
    [[0.06,-0.25,-0.03,0.07],
    [-0.15,0.03,-0.28,-0.05],
    [0.25,0.08,0.00,0.21]]],

    [[[0.11,0.01,-0.07,0.22],
    [0.04,-0.01,-0.07,-0.20],
    [-0.18,0.06,0.02,0.16]],
    [[-0.03,-0.07,0.03,-0.14],
    [0.27,0.08,-0.12,0.00],
    [0.20,0.26,0.12,0.22]],
    [[0.18,-0.08,-0.05,-0.02],
    [-0.26,0.05,0.03,0.17],
    [-0.09,0.28,0.14,0.05]]],

    [[[-0.16,0.25,0.11,0.08],
    [-0.18,-0.17,-0.18,0.24],
    [-0.03,0.12,0.11,0.18]],
    [[-0.12,-0.17,0.27,-0.21],
    [0.29,-0.06,-0.28,-0.11],
    [0.15,-0.05,-0.21,-0.24]],
    [[-0.26,0.04,-0.08,0.10],
    [-0.22,-0.12,0.03,-0.10],
    [0.11,-0.14,0.14,0.09]]],

    [[[-0.05,0.12,-0.09,0.24],
    [0.14,-0.12,0.20,0.07],
    [0.21,0.12,0.24,0.03]],
    [[-0.09,0.14,0.25,0.01],
    [0.12,0.06,-0.10,-0.17],
    [0.07,-0.19,-0.03,0.16]],
    [[-0.07,-0.04,0.27,0.05],
    [0.02,-0.18,0.14,-0.08],
    [0.12,0.26,0.19,-0.16]]]]> : tensor<4x3x3x4xf32>}> : () -> tensor<4x3x3x4xf32>
  %b2 = "tosa.const"() <{values = dense<[0.04,0.02,-0.03,-0.05]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %bn2_mean = "tosa.const"() <{values = dense<[[[[-0.10,0.03,-0.01,-0.20]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn2_var = "tosa.const"() <{values = dense<[[[[1.45,0.57,1.34,1.00]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn2_gamma = "tosa.const"() <{values = dense<[[[[1.24,1.25,1.16,0.90]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %bn2_beta = "tosa.const"() <{values = dense<[[[[0.06,-0.04,-0.02,-0.09]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  // Stage 3: 1x1, 4->16 (OHWI 16x1x1x4).
  %w3 = "tosa.const"() <{values = dense<[[[[-0.23,0.70,0.38,-0.76]]],

    [[[-0.27,-0.11,0.04,0.02]]],

    [[[0.58,-0.53,0.24,0.26]]],

    [[[-0.84,-0.60,-0.66,0.20]]],

    [[[0.62,0.66,0.59,0.08]]],

    [[[0.21,0.28,-0.35,-0.03]]],

    [[[-0.63,-0.29,-0.23,0.79]]],

    [[[-0.50,-0.02,-0.76,-0.76]]],

    [[[0.03,0.16,0.04,0.85]]],

    [[[-0.04,0.22,0.65,-0.64]]],

    [[[0.47,-0.64,0.66,0.45]]],

    [[[0.49,0.62,-0.79,-0.72]]],

    [[[-0.14,-0.75,0.71,-0.56]]],

    [[[-0.46,0.39,-0.68,0.62]]],

    [[[-0.26,0.06,0.58,-0.74]]],

    [[[-0.42,-0.21,0.36,-0.36]]]]> : tensor<16x1x1x4xf32>}> : () -> tensor<16x1x1x4xf32>
  %b3 = "tosa.const"() <{values = dense<[-0.01,-0.03,0.01,-0.01,0.01,-0.05,0.01,0.04,-0.03,-0.03,0.03,-0.04,0.00,-0.01,-0.03,-0.02]> : tensor<16xf32>}> : () -> tensor<16xf32>
  %bn3_mean = "tosa.const"() <{values = dense<[[[[0.12,0.05,-0.10,0.04,0.20,-0.14,0.09,-0.15,-0.10,-0.15,0.03,0.06,0.08,0.04,0.04,-0.12]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn3_var = "tosa.const"() <{values = dense<[[[[0.76,0.63,1.48,0.59,1.35,0.88,1.36,0.94,1.44,1.24,1.27,0.55,1.18,0.53,1.11,0.89]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn3_gamma = "tosa.const"() <{values = dense<[[[[0.72,0.98,0.85,0.98,1.09,0.69,0.98,0.94,1.33,1.35,0.82,0.89,0.97,0.85,1.36,1.29]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %bn3_beta = "tosa.const"() <{values = dense<[[[[-0.05,0.15,0.15,0.16,0.02,-0.10,0.11,-0.04,0.12,-0.07,0.07,-0.07,0.08,-0.03,-0.08,0.15]]]]> : tensor<1x1x1x16xf32>}> : () -> tensor<1x1x1x16xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>

  %x = tosa.transpose %input {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x8x8xf32>) -> tensor<1x8x8x16xf32>
  // Stage 1.
  %c1 = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<4x1x1x16xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %bn1_ve = tosa.add %bn1_var, %eps : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %bn1_istd = tosa.rsqrt %bn1_ve : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %bn1_c = tosa.sub %c1, %bn1_mean : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
  %bn1_n = tosa.mul %bn1_c, %bn1_istd, %shift : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x8x4xf32>
  %bn1_s = tosa.mul %bn1_n, %bn1_gamma, %shift : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x8x4xf32>
  %bn1 = tosa.add %bn1_s, %bn1_beta : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
  %r1 = tosa.clamp %bn1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  // Stage 2.
  %c2 = tosa.conv2d %r1, %w2, %b2, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x3x3x4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %bn2_ve = tosa.add %bn2_var, %eps : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %bn2_istd = tosa.rsqrt %bn2_ve : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %bn2_c = tosa.sub %c2, %bn2_mean : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
  %bn2_n = tosa.mul %bn2_c, %bn2_istd, %shift : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x8x4xf32>
  %bn2_s = tosa.mul %bn2_n, %bn2_gamma, %shift : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>, tensor<1xi8>) -> tensor<1x8x8x4xf32>
  %bn2 = tosa.add %bn2_s, %bn2_beta : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
  %r2 = tosa.clamp %bn2 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  // Stage 3 (no ReLU before the residual add).
  %c3 = tosa.conv2d %r2, %w3, %b3, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<16x1x1x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %bn3_ve = tosa.add %bn3_var, %eps : (tensor<1x1x1x16xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x16xf32>
  %bn3_istd = tosa.rsqrt %bn3_ve : (tensor<1x1x1x16xf32>) -> tensor<1x1x1x16xf32>
  %bn3_c = tosa.sub %c3, %bn3_mean : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x8x8x16xf32>
  %bn3_n = tosa.mul %bn3_c, %bn3_istd, %shift : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x8x8x16xf32>
  %bn3_s = tosa.mul %bn3_n, %bn3_gamma, %shift : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>, tensor<1xi8>) -> tensor<1x8x8x16xf32>
  %bn3 = tosa.add %bn3_s, %bn3_beta : (tensor<1x8x8x16xf32>, tensor<1x1x1x16xf32>) -> tensor<1x8x8x16xf32>
  // Residual, ReLU, back to NCHW.
  %sum = tosa.add %bn3, %x : (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %relu = tosa.clamp %sum {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %out = tosa.transpose %relu {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x16xf32>) -> tensor<1x16x8x8xf32>
  return %out : tensor<1x16x8x8xf32>
}
