// RUN: fuse-opt %s --fuse-winograd="min-channels=1" | FileCheck %s
// RUN: fuse-opt %s --fuse-winograd | FileCheck %s --check-prefix=NARROW
// RUN: fuse-opt %s --fuse-ops="winograd=true" | FileCheck %s --check-prefix=NARROW
// RUN: not fuse-opt %s --fuse-winograd="min-channels=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %fuse-diff %s --entry same,odd,valid_uneven,strided,one_by_three,filter_argument,after_pointwise,after_eligible -p "--fuse-winograd=min-channels=1" --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: %fuse-diff %s --entry same,odd,valid_uneven -p "--fuse-winograd=min-channels=1 --fuse-ops" --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM3

// fuse-winograd: a 3x3 convolution of stride 1 with a constant filter
// becomes Winograd's F(2x2, 3x3): the input padded to 2 * tiles + 2 rows
// and columns and viewed as pairs, its 4 x 4 windows transformed by adds
// and subtracts, 16 1x1 convolutions of the tile grid with the transformed
// filters, the output transform (adds and subtracts), the tiles' outputs
// put back in rows and columns, sliced to the output's size where it is
// odd, plus the bias. The channel counts here are below the default
// threshold (32): min-channels=1 takes them.

// Two images, 6 x 6, padding 1: 3 x 3 tiles of 2 x 2, 8 x 8 padded rows.
// CHECK-LABEL: func.func @same
//       CHECK:   %[[P:.+]] = tosa.pad %arg0, {{.*}} -> tensor<2x8x8x2xf32>
//       CHECK:   tosa.reshape %[[P]], {{.*}} -> tensor<2x4x2x4x2x2xf32>
// CHECK-COUNT-4:   tosa.slice {{.*}} -> tensor<2x3x1x4x2x2xf32>
// CHECK-COUNT-16:   tosa.conv2d {{.*}} : (tensor<2x3x3x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x3x3xf32>
//       CHECK:   tosa.concat {{.*}} {axis = 4 : i32} {{.*}} -> tensor<2x3x1x3x2x3xf32>
//       CHECK:   tosa.concat {{.*}} {axis = 2 : i32} {{.*}} -> tensor<2x3x2x3x2x3xf32>
//       CHECK:   %[[Y:.+]] = tosa.reshape {{.*}} -> tensor<2x6x6x3xf32>
//   CHECK-NOT:   tosa.slice
//       CHECK:   %[[R:.+]] = tosa.add %[[Y]], {{.*}} -> tensor<2x6x6x3xf32>
//       CHECK:   return %[[R]]

// 5 x 7 with padding 1: 3 x 4 tiles, the extra row and column sliced off.
// CHECK-LABEL: func.func @odd
//       CHECK:   tosa.pad %arg0, {{.*}} -> tensor<1x8x10x3xf32>
// CHECK-COUNT-16:   tosa.conv2d {{.*}} -> tensor<1x3x4x2xf32>
//       CHECK:   tosa.reshape {{.*}} -> tensor<1x6x8x2xf32>
//       CHECK:   tosa.slice {{.*}} -> tensor<1x5x7x2xf32>

// Uneven padding (top 0, bottom 2, left 1, right 0) of 7 x 6: a 7 x 5
// output in 4 x 3 tiles.
// CHECK-LABEL: func.func @valid_uneven
//       CHECK:   tosa.pad %arg0, {{.*}} -> tensor<1x10x8x2xf32>
// CHECK-COUNT-16:   tosa.conv2d {{.*}} -> tensor<1x4x3x2xf32>
//       CHECK:   tosa.slice {{.*}} -> tensor<1x7x5x2xf32>

// Left as they are: stride 2, a 1x3 kernel, a filter that is an argument.
// CHECK-LABEL: func.func @strided
//       CHECK:   tosa.conv2d
//   CHECK-NOT:   tosa.conv2d
// CHECK-LABEL: func.func @one_by_three
//       CHECK:   tosa.conv2d
//   CHECK-NOT:   tosa.conv2d
// CHECK-LABEL: func.func @filter_argument
//       CHECK:   tosa.conv2d
//   CHECK-NOT:   tosa.conv2d

// A convolution whose input is a contraction's result that stays direct
// (a 1x1 convolution and its ReLU, a ResNet bottleneck) stays direct: the
// planner would fuse that contraction into the input transform's group and
// compute it again at every window overlap. After a rewritten one (a chain
// of 3x3 convolutions) it is rewritten too.
// CHECK-LABEL: func.func @after_pointwise
//       CHECK:   tosa.conv2d {{.*}} -> tensor<1x6x6x2xf32>
//       CHECK:   tosa.clamp
//   CHECK-NOT:   tosa.pad
//       CHECK:   tosa.conv2d {{.*}} -> tensor<1x6x6x3xf32>
//   CHECK-NOT:   tosa.conv2d
//       CHECK:   return
// CHECK-LABEL: func.func @after_eligible
// CHECK-COUNT-16:   tosa.conv2d {{.*}} -> tensor<1x3x3x2xf32>
//       CHECK:   tosa.clamp
// CHECK-COUNT-16:   tosa.conv2d {{.*}} -> tensor<1x3x3x3xf32>
//       CHECK:   return

// With the default threshold (and through --fuse-ops), these narrow
// convolutions stay direct.
// NARROW-LABEL: func.func @same
//   NARROW-NOT:   tosa.pad
//       NARROW:   tosa.conv2d
//   NARROW-NOT:   tosa.conv2d
//       NARROW:   return

// BAD: min-channels must be at least 1, not 0

// Every function against the unfused program: regrouped sums, within
// 1e-5 of it.
// NUM: fuse-diff: OK 8 outputs
// NUM3: fuse-diff: OK 3 outputs

func.func @same(%x: tensor<2x6x6x2xf32>) -> tensor<2x6x6x3xf32> {
  %w = "tosa.const"() <{values = dense<[[[[ 0.250,  0.794],   [ 0.551, -0.550],   [-0.400,  0.747]],  [[-0.989,  0.642],   [ 0.594, -0.064],   [-0.394, -0.443]],  [[-0.490, -0.110],   [ 0.009,  0.107],   [ 0.991,  0.585]]], [[[ 0.244,  0.978],   [-0.569, -0.680],   [ 0.225, -0.912]],  [[-0.929,  0.030],   [-0.068,  0.834],   [ 0.258,  0.028]],  [[-0.006, -0.505],   [-0.976, -0.615],   [ 0.384, -0.599]]], [[[-0.261, -0.993],   [ 0.660, -0.691],   [-0.465,  0.761]],  [[ 0.020,  0.694],   [ 0.279,  0.484],   [-0.817,  0.082]],  [[ 0.016,  0.743],   [-0.277,  0.196],   [-0.881, -0.225]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
  %b = "tosa.const"() <{values = dense<[-0.354, -0.700,  0.633]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x6x6x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6x3xf32>
  return %y : tensor<2x6x6x3xf32>
}

func.func @odd(%x: tensor<1x5x7x3xf32>) -> tensor<1x5x7x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[-0.241,  0.957,  0.180],   [ 0.210,  0.276,  0.353],   [-0.698, -0.119, -0.521]],  [[-0.195, -0.807,  0.936],   [-0.570,  0.344, -0.399],   [ 0.748,  0.324, -0.737]],  [[ 0.690,  0.890,  0.808],   [ 0.139, -0.709, -0.615],   [ 0.856,  0.105, -0.639]]], [[[ 0.768,  0.283,  0.139],   [-0.247, -0.178, -0.521],   [-0.924,  0.752, -0.065]],  [[ 0.095, -0.356,  0.503],   [-0.950, -0.256, -0.939],   [-0.754,  0.934,  0.316]],  [[-0.144,  0.047,  0.746],   [-0.312,  0.181,  0.367],   [-0.289,  0.038,  0.530]]]]> : tensor<2x3x3x3xf32>}> : () -> tensor<2x3x3x3xf32>
  %b = "tosa.const"() <{values = dense<[ 0.818, -0.698]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x5x7x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x7x2xf32>
  return %y : tensor<1x5x7x2xf32>
}

func.func @valid_uneven(%x: tensor<1x7x6x2xf32>) -> tensor<1x7x5x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[ 0.867, -0.990],   [ 0.506,  0.621],   [-0.726, -0.162]],  [[ 0.631, -0.971],   [ 0.257,  0.586],   [ 0.026,  0.452]],  [[-0.547, -0.603],   [-0.274, -0.641],   [-0.308,  0.896]]], [[[ 0.147, -0.320],   [-0.457,  0.904],   [-0.111,  0.961]],  [[ 0.031,  0.042],   [ 0.793,  0.486],   [ 0.161, -0.147]],  [[ 0.756, -0.177],   [ 0.846, -0.863],   [-0.140,  0.039]]]]> : tensor<2x3x3x2xf32>}> : () -> tensor<2x3x3x2xf32>
  %b = "tosa.const"() <{values = dense<[ 0.902, -0.498]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 2, 1, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x6x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x5x2xf32>
  return %y : tensor<1x7x5x2xf32>
}

func.func @strided(%x: tensor<1x7x7x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[ 0.612,  0.353],   [ 0.434,  0.259],   [ 0.943, -0.335]],  [[-0.203, -0.594],   [-0.899, -0.574],   [ 0.831,  0.680]],  [[-0.775,  0.208],   [-0.042,  0.189],   [ 0.319, -0.387]]], [[[ 0.923, -0.068],   [ 0.256,  0.270],   [-0.632, -0.876]],  [[-0.177,  0.528],   [ 0.630,  0.460],   [-0.774,  0.827]],  [[ 0.604,  0.755],   [ 0.047,  0.831],   [-0.907, -0.939]]]]> : tensor<2x3x3x2xf32>}> : () -> tensor<2x3x3x2xf32>
  %b = "tosa.const"() <{values = dense<[-0.960, -0.494]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

func.func @one_by_three(%x: tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32> {
  %w = "tosa.const"() <{values = dense<[[[[-0.503, -0.625],   [ 0.134, -0.922],   [ 0.181, -0.668]]], [[[ 0.356, -0.958],   [-0.379,  0.877],   [ 0.077,  0.623]]]]> : tensor<2x1x3x2xf32>}> : () -> tensor<2x1x3x2xf32>
  %b = "tosa.const"() <{values = dense<[0.316, 0.222]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<2x1x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  return %y : tensor<1x6x6x2xf32>
}

func.func @filter_argument(%x: tensor<1x6x6x2xf32>, %w: tensor<2x3x3x2xf32>) -> tensor<1x6x6x2xf32> {
  %b = "tosa.const"() <{values = dense<[ 0.890, -0.241]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  return %y : tensor<1x6x6x2xf32>
}

func.func @after_pointwise(%x: tensor<1x6x6x2xf32>) -> tensor<1x6x6x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a_w = "tosa.const"() <{values = dense<[[[[-0.743, -0.001]]], [[[ 0.203, -0.943]]]]> : tensor<2x1x1x2xf32>}> : () -> tensor<2x1x1x2xf32>
  %a_b = "tosa.const"() <{values = dense<[-0.704,  0.856]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %a = tosa.conv2d %x, %a_w, %a_b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  %a_r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %c_w = "tosa.const"() <{values = dense<[[[[-0.859, -0.740],   [ 0.897,  0.244],   [-0.262,  0.023]],  [[ 0.326, -0.449],   [-0.724,  0.576],   [ 0.341,  0.025]],  [[ 0.633,  0.098],   [ 0.962, -0.591],   [ 0.107, -0.033]]], [[[-0.293,  0.183],   [-0.529,  0.604],   [ 0.735, -0.742]],  [[-0.066, -0.446],   [-0.834,  0.792],   [-0.140, -0.705]],  [[ 0.347, -0.596],   [ 0.803, -0.566],   [-0.934, -0.598]]], [[[-0.309, -0.062],   [ 0.812,  0.395],   [-0.321, -0.966]],  [[-0.680,  0.993],   [-0.081,  0.382],   [-0.891, -0.932]],  [[ 0.692,  0.176],   [-0.383, -0.365],   [-0.822, -0.655]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
  %c_b = "tosa.const"() <{values = dense<[-0.951,  0.678, -0.067]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %c = tosa.conv2d %a_r, %c_w, %c_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
  %c_r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %c_r : tensor<1x6x6x3xf32>
}

func.func @after_eligible(%x: tensor<1x6x6x2xf32>) -> tensor<1x6x6x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a_w = "tosa.const"() <{values = dense<[[[[-0.746,  0.478],   [-0.609, -0.876],   [ 0.197,  0.792]],  [[-0.946,  0.610],   [-0.620, -0.814],   [-0.964, -0.414]],  [[ 0.454, -0.014],   [ 0.706, -0.566],   [-0.370, -0.484]]], [[[ 0.957,  0.882],   [-0.319, -0.128],   [-0.371,  0.493]],  [[-0.920, -0.865],   [-0.192, -0.510],   [ 0.690,  0.484]],  [[ 0.092,  0.323],   [ 0.385,  0.562],   [ 0.855, -0.701]]]]> : tensor<2x3x3x2xf32>}> : () -> tensor<2x3x3x2xf32>
  %a_b = "tosa.const"() <{values = dense<[ 0.252, -0.713]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %a = tosa.conv2d %x, %a_w, %a_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x2xf32>
  %a_r = tosa.clamp %a {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %c_w = "tosa.const"() <{values = dense<[[[[-0.114,  0.573],   [ 0.789,  0.518],   [-0.929, -0.281]],  [[-0.674,  0.998],   [-0.712, -0.511],   [-0.286, -0.878]],  [[ 0.741,  0.273],   [-0.681, -0.003],   [-0.843,  0.222]]], [[[-0.537, -0.923],   [-0.770,  0.111],   [ 0.274, -0.350]],  [[ 0.287, -0.296],   [-0.739, -0.370],   [-0.209,  0.825]],  [[-0.769, -0.828],   [ 0.123,  0.927],   [ 0.815,  0.400]]], [[[-0.866,  0.613],   [ 0.367, -0.712],   [-0.070, -0.901]],  [[ 0.604,  0.437],   [ 0.609,  0.521],   [-0.465,  0.579]],  [[-0.502, -0.724],   [-0.219, -0.004],   [-0.428,  0.212]]]]> : tensor<3x3x3x2xf32>}> : () -> tensor<3x3x3x2xf32>
  %c_b = "tosa.const"() <{values = dense<[ 0.205, -0.520,  0.245]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %c = tosa.conv2d %a_r, %c_w, %c_b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x3xf32>
  %c_r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %c_r : tensor<1x6x6x3xf32>
}
