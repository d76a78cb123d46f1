// RUN: fuse-opt %s -split-input-file --fuse-annotate-mapping | FileCheck %s
//
// TOSA ops by their semantics: elementwise from operand shapes, data movement
// by what it does with indices, windows and reductions many-to-many.

// CHECK-LABEL: func.func @elementwise
//       CHECK:   tosa.add {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.add {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   tosa.mul {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.mul {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   tosa.clamp {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.sigmoid {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.negate {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.cast {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.greater {{.*}}fuse.mapping = #fuse.mapping<one_to_one>
//       CHECK:   tosa.select {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
func.func @elementwise(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %c: tensor<1x1xf32>, %d: tensor<4xf32>)
    -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<1x4xf16>, tensor<1x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.add %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = tosa.add %0, %c : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  // The shift operand of mul is a parameter, not data: still one-to-one.
  %2 = tosa.mul %d, %d, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %3 = tosa.mul %1, %c, %shift : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  %4 = tosa.clamp %3 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %5 = tosa.sigmoid %4 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // Zero points of negate are parameters too.
  %6 = tosa.negate %d, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %7 = tosa.cast %5 : (tensor<1x4xf32>) -> tensor<1x4xf16>
  %8 = tosa.greater %5, %a : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %9 = tosa.select %8, %5, %c : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
  return %1, %5, %6, %7, %9 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<1x4xf16>, tensor<1x4xf32>
}

// -----

// CHECK-LABEL: func.func @data_movement
//       CHECK:   tosa.transpose {{.*}}fuse.mapping = #fuse.mapping<shuffle>
//       CHECK:   tosa.reverse {{.*}}fuse.mapping = #fuse.mapping<shuffle>
//       CHECK:   tosa.reshape {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tosa.slice {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tosa.concat {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tosa.pad {{.*}}fuse.mapping = #fuse.mapping<reorganize>
//       CHECK:   tosa.tile {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   tosa.gather {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
func.func @data_movement(%a: tensor<2x3x4xf32>, %idx: tensor<2x5xi32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x10xf32>, tensor<4x12xf32>, tensor<2x5x4xf32>) {
  %t = tosa.transpose %a {perms = array<i32: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %rv = tosa.reverse %t {axis = 0 : i32} : (tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
  %shape = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %rv, %shape : (tensor<3x2x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %r, %start, %size : (tensor<4x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x6xf32>
  %c = tosa.concat %s, %r {axis = 0 : i32} : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %padding = tosa.const_shape {values = dense<[0, 0, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %padv = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %s, %padding, %padv : (tensor<4x6xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<4x10xf32>
  %mult = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %tl = tosa.tile %s, %mult : (tensor<4x6xf32>, !tosa.shape<2>) -> tensor<4x12xf32>
  %values = tosa.transpose %a {perms = array<i32: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %g = tosa.gather %values, %idx : (tensor<2x3x4xf32>, tensor<2x5xi32>) -> tensor<2x5x4xf32>
  return %r, %s, %s, %p, %tl, %g : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x10xf32>, tensor<4x12xf32>, tensor<2x5x4xf32>
}

// -----

// CHECK-LABEL: func.func @windows_and_reductions
//       CHECK:   tosa.conv2d {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.depthwise_conv2d {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.max_pool2d {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.avg_pool2d {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.reduce_sum {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.reduce_max {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.argmax {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
//       CHECK:   tosa.matmul {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
func.func @windows_and_reductions(%img: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %dw: tensor<3x3x3x1xf32>,
                                  %a: tensor<1x4x8xf32>, %b: tensor<1x8x5xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x8x8x3xf32>,
                                  tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x8x1x3xf32>, tensor<1x1x8x3xf32>, tensor<1x8x3xi32>, tensor<1x4x5xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias4 = "tosa.const"() <{values = dense<0.5> : tensor<4xf32>}> : () -> tensor<4xf32>
  %bias3 = "tosa.const"() <{values = dense<0.5> : tensor<3xf32>}> : () -> tensor<3xf32>
  %c = tosa.conv2d %img, %w, %bias4, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %d = tosa.depthwise_conv2d %img, %dw, %bias3, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<3x3x3x1xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x3xf32>
  %mp = tosa.max_pool2d %img {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  %ap = tosa.avg_pool2d %img, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
  %rs = tosa.reduce_sum %img {axis = 2 : i32} : (tensor<1x8x8x3xf32>) -> tensor<1x8x1x3xf32>
  %rm = tosa.reduce_max %img {axis = 1 : i32} : (tensor<1x8x8x3xf32>) -> tensor<1x1x8x3xf32>
  %am = tosa.argmax %img {axis = 1 : i32} : (tensor<1x8x8x3xf32>) -> tensor<1x8x3xi32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
  return %c, %d, %mp, %ap, %rs, %rm, %am, %m : tensor<1x8x8x4xf32>, tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x8x1x3xf32>, tensor<1x1x8x3xf32>, tensor<1x8x3xi32>, tensor<1x4x5xf32>
}

// -----

// Nearest resize replicates pixels; bilinear blends four inputs per output.
// CHECK-LABEL: func.func @resize
//       CHECK:   tosa.resize {{.*}}fuse.mapping = #fuse.mapping<one_to_many>
//       CHECK:   tosa.resize {{.*}}fuse.mapping = #fuse.mapping<many_to_many>
func.func @resize(%img: tensor<1x4x4x3xf32>) -> (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.resize %img, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x3xf32>
  %b = tosa.resize %img, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x4x4x3xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x8x3xf32>
  return %n, %b : tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>
}

// -----

// Constants and shape values are not computations: no annotation.
// CHECK-LABEL: func.func @constants
//   CHECK-NOT:   fuse.mapping
//       CHECK:   return
func.func @constants() -> tensor<2xf32> {
  %c = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %s = tosa.const_shape {values = dense<[2]> : tensor<1xindex>} : () -> !tosa.shape<1>
  return %c : tensor<2xf32>
}
