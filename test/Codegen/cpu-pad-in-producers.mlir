// A group's result that another group pads (a 3x3 convolution's or a max
// pool's window past the border) is written by its group into a tensor
// whose halo is filled once, outside the groups, and the reader reads its
// windows there: no tensor.pad is left in the reader, so its tiles copy no
// padded window (@conv_chain: the 1x1 convolution's result inserted at
// [0, 1, 1, 0] of a 1x18x18x32 tensor, four slabs filled around it; after
// bufferization the four slabs are filled before the nests, the 1x1 nest
// writes through a view of that buffer, and no nest fills or copies a
// window: NOCOPY). Pads of one result with one value share
// one buffer with the largest halo of each side; a smaller pad reads its box
// (@shared: a 1x7 and a 7x1 convolution, 0 and 3 columns, 3 and 0 rows). A
// pool's -FLT_MAX border is a halo like zeros (@pool), and a tosa.pad of
// its own is a pad like a convolution's (@explicit_pad). Left alone: a pad
// with another value than the first of the same result (@two_values: the
// pool keeps its pad), a result the function returns (@returned), and a
// function argument (@argument). A concat whose parts two groups write in
// place, the first into a tensor.empty (U-Net's skip connection: the
// convolution before a pool, and the upsampled map), is padded as one: the
// halo is filled before the first group, and no copy of that group's part
// into the padded buffer is left outside the nests (@skip_concat: NOCOPY
// finds no write of the whole 16x16x8 part). With pad-in-producers=false every pad stays (OFF). The
// values are exactly those of the unfused program (EXACT).
//
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu -mlir-print-ir-after=fuse-plan-buffers -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCOPY
// RUN: fuse-opt %s --split-input-file --fuse-ops --fuse-lower-to-cpu=pad-in-producers=false -mlir-print-ir-after=fuse-tile-groups -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %python %fuse_src/utils/fuse-diff %s --fuse-opt %fuse_opt --entry conv_chain,shared,pool,explicit_pad,two_values,returned,argument,skip_concat -p "--fuse-ops" --lower="--fuse-lower-to-cpu=fma=false" --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT

// EXACT: fuse-diff: OK

// CHECK-LABEL: func.func @conv_chain
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<1x18x18x32xf32>
//       CHECK:   linalg.fill
//       CHECK:   %[[H0:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0, 0] [1, 1, 18, 32]
//       CHECK:   %[[H1:.*]] = tensor.insert_slice %{{.*}} into %[[H0]][0, 17, 0, 0] [1, 1, 18, 32]
//       CHECK:   %[[H2:.*]] = tensor.insert_slice %{{.*}} into %[[H1]][0, 1, 0, 0] [1, 16, 1, 32]
//       CHECK:   %[[H3:.*]] = tensor.insert_slice %{{.*}} into %[[H2]][0, 1, 17, 0] [1, 16, 1, 32]
//       CHECK:   %[[X:.*]] = fuse.group
//       CHECK:   %[[XP:.*]] = tensor.insert_slice %[[X]] into %[[H3]][0, 1, 1, 0] [1, 16, 16, 32]
//       CHECK:   fuse.group ins(%{{.*}}, %{{.*}}, %[[XP]] : {{.*}}tensor<1x18x18x32xf32>)
//   CHECK-NOT:     tensor.pad
//       CHECK:     linalg.conv_2d_nhwc_hwcf
//       CHECK:   return
// OFF-LABEL: func.func @conv_chain
//       OFF:   tensor.pad
// NOCOPY-LABEL: func.func @conv_chain
//   NOCOPY-NOT:   scf.parallel
//       NOCOPY-COUNT-4:   linalg.fill
//       NOCOPY:   scf.parallel
//   NOCOPY-NOT:   linalg.fill
//   NOCOPY-NOT:   linalg.map
//   NOCOPY-NOT:   copy
//       NOCOPY:   return
func.func @conv_chain(%x: tensor<1x16x16x32xf32>, %w1: tensor<32x1x1x32xf32>, %w2: tensor<32x3x3x32xf32>, %b: tensor<32xf32>) -> tensor<1x16x16x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x1x1x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %c2 = tosa.conv2d %r, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<32x3x3x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x32xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %r2 : tensor<1x16x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @shared
//       CHECK:   tensor.empty() : tensor<1x23x23x32xf32>
//       CHECK:   %[[X:.*]] = fuse.group
//       CHECK:   %[[XP:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 3, 3, 0] [1, 17, 17, 32]
//       CHECK:   fuse.group ins({{.*}}%[[XP]]
//       CHECK:     tensor.extract_slice %{{.*}}[0, 3, 0, 0] [1, 17, 23, 32]
//   CHECK-NOT:     tensor.pad
//       CHECK:   fuse.group ins({{.*}}%[[XP]]
//       CHECK:     tensor.extract_slice %{{.*}}[0, 0, 3, 0] [1, 23, 17, 32]
//   CHECK-NOT:     tensor.pad
//       CHECK:   return
func.func @shared(%x: tensor<1x17x17x32xf32>, %w1: tensor<32x1x1x32xf32>, %w2: tensor<32x1x7x32xf32>, %w3: tensor<32x7x1x32xf32>, %b: tensor<32xf32>) -> (tensor<1x17x17x32xf32>, tensor<1x17x17x32xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x32xf32>, tensor<32x1x1x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x32xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x17x17x32xf32>) -> tensor<1x17x17x32xf32>
  %c2 = tosa.conv2d %r, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 3, 3>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x32xf32>, tensor<32x1x7x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x32xf32>
  %c3 = tosa.conv2d %r, %w3, %b, %zp, %zp {acc_type = f32, pad = array<i64: 3, 3, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x17x17x32xf32>, tensor<32x7x1x32xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x17x17x32xf32>
  return %c2, %c3 : tensor<1x17x17x32xf32>, tensor<1x17x17x32xf32>
}

// -----

// CHECK-LABEL: func.func @pool
//       CHECK:   %[[MIN:.*]] = arith.constant -3.40282347E+38 : f32
//       CHECK:   linalg.fill ins(%[[MIN]] : f32)
//       CHECK:   %[[X:.*]] = fuse.group
//       CHECK:   %[[XP:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 1, 1, 0] [1, 32, 32, 16]
//       CHECK:   fuse.group ins(%[[XP]]
//   CHECK-NOT:     tensor.pad
//       CHECK:   return
func.func @pool(%x: tensor<1x32x32x8xf32>, %w: tensor<16x1x1x8xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x32x32x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32>
  return %p : tensor<1x16x16x16xf32>
}

// -----

// A tosa.pad of its own before an average pool (Inception-v3's pool
// branches): its sizes are SSA constants and its value an element of a
// splat constant once lowered.
// CHECK-LABEL: func.func @explicit_pad
//       CHECK:   %[[X:.*]] = fuse.group
//       CHECK:   %[[XP:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 1, 1, 0] [1, 16, 16, 16]
//       CHECK:   fuse.group ins(%[[XP]]
//   CHECK-NOT:     tensor.pad
//       CHECK:   return
func.func @explicit_pad(%x: tensor<1x16x16x8xf32>, %w1: tensor<16x1x1x8xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %s = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %p = tosa.pad %r, %s, %zp : (tensor<1x16x16x16xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x18x18x16xf32>
  %a = tosa.avg_pool2d %p, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x18x18x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  return %a : tensor<1x16x16x16xf32>
}

// -----

// CHECK-LABEL: func.func @two_values
//       CHECK:   %[[X:.*]] = fuse.group
//       CHECK:   %[[XP:.*]] = tensor.insert_slice %[[X]]
//       CHECK:   fuse.group ins({{.*}}%[[XP]]
//   CHECK-NOT:     tensor.pad
//       CHECK:   fuse.group ins(%[[X]]
//       CHECK:     tensor.pad
//       CHECK:   return
func.func @two_values(%x: tensor<1x16x16x8xf32>, %w1: tensor<16x1x1x8xf32>, %w2: tensor<16x3x3x16xf32>, %b: tensor<16xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c2 = tosa.conv2d %r, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>) -> tensor<1x8x8x16xf32>
  return %c2, %p : tensor<1x16x16x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @returned
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   tensor.pad
//       CHECK:   return
func.func @returned(%x: tensor<1x16x16x8xf32>, %w1: tensor<16x1x1x8xf32>, %w2: tensor<16x3x3x16xf32>, %b: tensor<16xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c2 = tosa.conv2d %r, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  return %r, %c2 : tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>
}

// -----

// CHECK-LABEL: func.func @argument
//   CHECK-NOT:   tensor.insert_slice
//       CHECK:   tensor.pad
//       CHECK:   return
func.func @argument(%x: tensor<1x16x16x16xf32>, %w2: tensor<16x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c2 = tosa.conv2d %x, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  return %c2 : tensor<1x16x16x16xf32>
}

// -----

// CHECK-LABEL: func.func @skip_concat
//       CHECK:   %[[H:.*]] = tensor.insert_slice %{{.*}}[0, 1, 17, 0] [1, 16, 1, 16]
//       CHECK:   %[[A:.*]]:2 = fuse.group ins(%{{.*}}, %{{.*}}, %{{.*}} :
//       CHECK:   %[[B:.*]] = fuse.group ins(%{{.*}}, %[[A]]#1 :
//       CHECK:   tensor.insert_slice %[[B]] into %[[H]][0, 1, 1, 0] [1, 16, 16, 16]
// NOCOPY-LABEL: func.func @skip_concat
//   NOCOPY-NOT:   vector.transfer_write {{.*}} memref<1x16x16x8xf32, strided<[5184, 288, 16, 1], offset: {{[0-9]+}}>>
//       NOCOPY:   return
func.func @skip_concat(%x: tensor<1x16x16x8xf32>, %w1: tensor<8x3x3x8xf32>, %w2: tensor<8x1x1x8xf32>, %w3: tensor<8x3x3x16xf32>, %b: tensor<8xf32>) -> tensor<1x16x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c1 = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %p = tosa.max_pool2d %r1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x8xf32>) -> tensor<1x8x8x8xf32>
  %c2 = tosa.conv2d %p, %w2, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x1x1x8xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<-1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %u = tosa.resize %c2, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x8x8x8xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x16x16x8xf32>
  %cat = tosa.concat %r1, %u {axis = 3 : i32} : (tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>) -> tensor<1x16x16x16xf32>
  %c3 = tosa.conv2d %cat, %w3, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  return %c3 : tensor<1x16x16x8xf32>
}
