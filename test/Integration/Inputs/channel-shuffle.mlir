// Two ShuffleNetV2 units (NCHW, as ONNX gives them): each keeps half of
// its input's channels, puts the other half through a 1x1 convolution and
// ReLU, concatenates the two and shuffles the channels (reshape to
// 2 x 8, transpose, reshape back). The shuffled concatenation is read
// only through the shuffle: each unit's group must be one kernel whose
// pieces write the shuffled channels directly (fuse-tile-groups' copy
// chain split), not a concatenation a second kernel then shuffles.
func.func @model(%x: tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %o0 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o1 = tosa.const_shape {values = dense<[0, 8, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %sz = tosa.const_shape {values = dense<[1, 8, 6, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s5 = tosa.const_shape {values = dense<[1, 2, 8, 6, 6]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s4 = tosa.const_shape {values = dense<[1, 16, 6, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %u0_a = tosa.slice %x, %o0, %sz : (tensor<1x16x6x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x8x6x6xf32>
  %u0_b = tosa.slice %x, %o1, %sz : (tensor<1x16x6x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x8x6x6xf32>
  %u0_bt = tosa.transpose %u0_b {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x6x6xf32>) -> tensor<1x6x6x8xf32>
  %u0_w = "tosa.const"() <{values = dense<[[[[0.125, -0.15625, 0.15625, -0.125, 0.1875, -0.09375, 0.21875, -0.0625]]], [[[0.25, -0.03125, 0.28125, 0.0, -0.28125, 0.03125, -0.25, 0.0625]]], [[[-0.21875, 0.09375, -0.1875, 0.125, -0.15625, 0.15625, -0.125, 0.1875]]], [[[-0.09375, 0.21875, -0.0625, 0.25, -0.03125, 0.28125, 0.0, -0.28125]]], [[[0.03125, -0.25, 0.0625, -0.21875, 0.09375, -0.1875, 0.125, -0.15625]]], [[[0.15625, -0.125, 0.1875, -0.09375, 0.21875, -0.0625, 0.25, -0.03125]]], [[[0.28125, 0.0, -0.28125, 0.03125, -0.25, 0.0625, -0.21875, 0.09375]]], [[[-0.1875, 0.125, -0.15625, 0.15625, -0.125, 0.1875, -0.09375, 0.21875]]]]> : tensor<8x1x1x8xf32>}> : () -> tensor<8x1x1x8xf32>
  %u0_bias = "tosa.const"() <{values = dense<[-0.03125, 0.28125, 0.0, -0.28125, 0.03125, -0.25, 0.0625, -0.21875]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %u0_c = tosa.conv2d %u0_bt, %u0_w, %u0_bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x8xf32>, tensor<8x1x1x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  %u0_r = tosa.clamp %u0_c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %u0_rt = tosa.transpose %u0_r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x6x8xf32>) -> tensor<1x8x6x6xf32>
  %u0_cat = tosa.concat %u0_a, %u0_rt {axis = 1 : i32} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x16x6x6xf32>
  %u0_e = tosa.reshape %u0_cat, %s5 : (tensor<1x16x6x6xf32>, !tosa.shape<5>) -> tensor<1x2x8x6x6xf32>
  %u0_t = tosa.transpose %u0_e {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x8x6x6xf32>) -> tensor<1x8x2x6x6xf32>
  %u0_s = tosa.reshape %u0_t, %s4 : (tensor<1x8x2x6x6xf32>, !tosa.shape<4>) -> tensor<1x16x6x6xf32>
  %u1_a = tosa.slice %u0_s, %o0, %sz : (tensor<1x16x6x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x8x6x6xf32>
  %u1_b = tosa.slice %u0_s, %o1, %sz : (tensor<1x16x6x6xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x8x6x6xf32>
  %u1_bt = tosa.transpose %u1_b {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x8x6x6xf32>) -> tensor<1x6x6x8xf32>
  %u1_w = "tosa.const"() <{values = dense<[[[[-0.0625, 0.25, -0.03125, 0.28125, 0.0, -0.28125, 0.03125, -0.25]]], [[[0.0625, -0.21875, 0.09375, -0.1875, 0.125, -0.15625, 0.15625, -0.125]]], [[[0.1875, -0.09375, 0.21875, -0.0625, 0.25, -0.03125, 0.28125, 0.0]]], [[[-0.28125, 0.03125, -0.25, 0.0625, -0.21875, 0.09375, -0.1875, 0.125]]], [[[-0.15625, 0.15625, -0.125, 0.1875, -0.09375, 0.21875, -0.0625, 0.25]]], [[[-0.03125, 0.28125, 0.0, -0.28125, 0.03125, -0.25, 0.0625, -0.21875]]], [[[0.09375, -0.1875, 0.125, -0.15625, 0.15625, -0.125, 0.1875, -0.09375]]], [[[0.21875, -0.0625, 0.25, -0.03125, 0.28125, 0.0, -0.28125, 0.03125]]]]> : tensor<8x1x1x8xf32>}> : () -> tensor<8x1x1x8xf32>
  %u1_bias = "tosa.const"() <{values = dense<[-0.21875, 0.09375, -0.1875, 0.125, -0.15625, 0.15625, -0.125, 0.1875]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %u1_c = tosa.conv2d %u1_bt, %u1_w, %u1_bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x8xf32>, tensor<8x1x1x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  %u1_r = tosa.clamp %u1_c {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %u1_rt = tosa.transpose %u1_r {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x6x6x8xf32>) -> tensor<1x8x6x6xf32>
  %u1_cat = tosa.concat %u1_a, %u1_rt {axis = 1 : i32} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x16x6x6xf32>
  %u1_e = tosa.reshape %u1_cat, %s5 : (tensor<1x16x6x6xf32>, !tosa.shape<5>) -> tensor<1x2x8x6x6xf32>
  %u1_t = tosa.transpose %u1_e {perms = array<i32: 0, 2, 1, 3, 4>} : (tensor<1x2x8x6x6xf32>) -> tensor<1x8x2x6x6xf32>
  %u1_s = tosa.reshape %u1_t, %s4 : (tensor<1x8x2x6x6xf32>, !tosa.shape<4>) -> tensor<1x16x6x6xf32>
  return %u1_s : tensor<1x16x6x6xf32>
}
