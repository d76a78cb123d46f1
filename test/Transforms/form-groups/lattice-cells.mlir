// The 25 cells of the fusion lattice, one producer feeding one consumer
// each: always-cells fuse, the never-cells (one_to_many -> many_to_many,
// many_to_many -> many_to_many) do not, and the uncertain cells are decided
// by the cost model, which fuses all of them at these sizes (nothing is
// recomputed: each consumer reads each produced element once).
// Producers: exp (one_to_one), transpose (shuffle), reshape (reorganize),
// broadcast add (one_to_many), matmul (many_to_many, with its reshapes);
// consumers: tanh, transpose, reshape, broadcast sub, reduce_max.
//
// RUN: fuse-opt %s -split-input-file --fuse-annotate-mapping --fuse-form-groups | FileCheck %s
// RUN: %fuse-diff %s --entry all -p "--fuse-annotate-mapping --fuse-form-groups" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 25 outputs

// CHECK-LABEL: func.func @one_to_one__one_to_one
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_one__one_to_one(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.tanh %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_one__shuffle
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_one__shuffle(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.transpose %p {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_one__reorganize
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_one__reorganize(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %p = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %rs = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %p, %rs : (tensor<16x16xf32>, !tosa.shape<1>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @one_to_one__one_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_one__one_to_many(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = "tosa.const"() <{values = dense<2.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %r = tosa.sub %p, %c : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_one__many_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_one__many_to_many(%x: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %p = tosa.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.reduce_max %p {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @shuffle__one_to_one
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @shuffle__one_to_one(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.tanh %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @shuffle__shuffle
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @shuffle__shuffle(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.transpose %p {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @shuffle__reorganize
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @shuffle__reorganize(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %p = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %rs = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %p, %rs : (tensor<16x16xf32>, !tosa.shape<1>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @shuffle__one_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @shuffle__one_to_many(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %p = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = "tosa.const"() <{values = dense<2.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %r = tosa.sub %p, %c : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @shuffle__many_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @shuffle__many_to_many(%x: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %p = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = tosa.reduce_max %p {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @reorganize__one_to_one
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @reorganize__one_to_one(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.reshape %x, %s : (tensor<16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.tanh %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @reorganize__shuffle
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @reorganize__shuffle(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.reshape %x, %s : (tensor<16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.transpose %p {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @reorganize__reorganize
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @reorganize__reorganize(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %s = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.reshape %x, %s : (tensor<16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %rs = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %p, %rs : (tensor<16x16xf32>, !tosa.shape<1>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @reorganize__one_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @reorganize__one_to_many(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.reshape %x, %s : (tensor<16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %c = "tosa.const"() <{values = dense<2.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %r = tosa.sub %p, %c : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @reorganize__many_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @reorganize__many_to_many(%x: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %s = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.reshape %x, %s : (tensor<16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.reduce_max %p {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @one_to_many__one_to_one
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_many__one_to_one(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16xf32>}> : () -> tensor<1x16xf32>
  %p = tosa.add %x, %b : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %r = tosa.tanh %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_many__shuffle
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_many__shuffle(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16xf32>}> : () -> tensor<1x16xf32>
  %p = tosa.add %x, %b : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %r = tosa.transpose %p {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_many__reorganize
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_many__reorganize(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16xf32>}> : () -> tensor<1x16xf32>
  %p = tosa.add %x, %b : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %rs = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %p, %rs : (tensor<16x16xf32>, !tosa.shape<1>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @one_to_many__one_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @one_to_many__one_to_many(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16xf32>}> : () -> tensor<1x16xf32>
  %p = tosa.add %x, %b : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %c = "tosa.const"() <{values = dense<2.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %r = tosa.sub %p, %c : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @one_to_many__many_to_many
//       CHECK:   fuse.group
//       CHECK:   fuse.group
//       CHECK:   return
func.func @one_to_many__many_to_many(%x: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1x16xf32>}> : () -> tensor<1x16xf32>
  %p = tosa.add %x, %b : (tensor<16x16xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %r = tosa.reduce_max %p {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// CHECK-LABEL: func.func @many_to_many__one_to_one
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @many_to_many__one_to_one(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %p = tosa.reshape %m, %s2 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.tanh %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @many_to_many__shuffle
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @many_to_many__shuffle(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %p = tosa.reshape %m, %s2 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.transpose %p {perms = array<i32: 1, 0>} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @many_to_many__reorganize
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @many_to_many__reorganize(%x: tensor<16x16xf32>) -> tensor<256xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %p = tosa.reshape %m, %s2 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %rs = tosa.const_shape {values = dense<[256]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %p, %rs : (tensor<16x16xf32>, !tosa.shape<1>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// CHECK-LABEL: func.func @many_to_many__one_to_many
//       CHECK:   fuse.group
//   CHECK-NOT:   fuse.group
//       CHECK:   return
func.func @many_to_many__one_to_many(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %p = tosa.reshape %m, %s2 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %c = "tosa.const"() <{values = dense<2.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %r = tosa.sub %p, %c : (tensor<16x16xf32>, tensor<16x1xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @many_to_many__many_to_many
//       CHECK:   fuse.group
//       CHECK:   fuse.group
//       CHECK:   return
func.func @many_to_many__many_to_many(%x: tensor<16x16xf32>) -> tensor<1x16xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[16, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s3 : (tensor<16x16xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<1x16x16xf32>}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x3, %w, %zp, %zp : (tensor<1x16x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  %p = tosa.reshape %m, %s2 : (tensor<1x16x16xf32>, !tosa.shape<2>) -> tensor<16x16xf32>
  %r = tosa.reduce_max %p {axis = 0 : i32} : (tensor<16x16xf32>) -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}
