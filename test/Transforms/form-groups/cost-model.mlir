// Uncertain cells are priced: fusing a broadcast consumer into a matmul
// recomputes the matmul once per extra read. Small: the saved launch and
// round trip win; large: recomputation loses. A profile database overrides
// the model either way.
//
// RUN: fuse-opt %s -split-input-file --fuse-annotate-mapping --fuse-form-groups | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-annotate-mapping --fuse-form-groups="profile=%S/Inputs/profile.json" | FileCheck %s --check-prefix=PROFILE
// RUN: not fuse-opt %s -split-input-file --fuse-annotate-mapping --fuse-form-groups="profile=%S/Inputs/missing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPROFILE
// BADPROFILE: error: profile: cannot read

// CHECK-LABEL: func.func @tile_small
//       CHECK:   fuse.group
//       CHECK:     tosa.matmul
//       CHECK:     tosa.tile
//   CHECK-NOT:   fuse.group
// The profile splits them: the matmul's group ends before the tile (the
// label of the next function bounds the search).
// PROFILE-LABEL: func.func @tile_small
//       PROFILE:   fuse.group
//       PROFILE:     tosa.matmul
//   PROFILE-NOT:     tosa.tile
//       PROFILE:     fuse.yield
//       PROFILE:   fuse.group
//       PROFILE:     tosa.tile
//       PROFILE:   return
// PROFILE-LABEL: func.func @tile_large
func.func @tile_small(%a: tensor<1x8x16xf32>, %b: tensor<1x16x8xf32>) -> tensor<1x8x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.tile %m, %mult : (tensor<1x8x8xf32>, !tosa.shape<3>) -> tensor<1x8x32xf32>
  return %t : tensor<1x8x32xf32>
}

// -----

// 1x1024x1024 by 1024x1024, tiled 4x: recomputing 2 GFLOP three more times
// costs more than the 4 MiB round trip saves.
// CHECK-LABEL: func.func @tile_large
//       CHECK:   fuse.group
//       CHECK:     tosa.matmul
//       CHECK:   fuse.group
//       CHECK:     tosa.tile
func.func @tile_large(%a: tensor<1x1024x1024xf32>, %b: tensor<1x1024x1024xf32>) -> tensor<1x1024x4096xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<1x1024x1024xf32>, tensor<1x1024x1024xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x1024xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.tile %m, %mult : (tensor<1x1024x1024xf32>, !tosa.shape<3>) -> tensor<1x1024x4096xf32>
  return %t : tensor<1x1024x4096xf32>
}

// -----

// Attention scores: Q·Kᵀ feeds a row reduction (a never-cell); a row of 64
// scores fits on chip, so the scores never leave the kernel.
// CHECK-LABEL: func.func @scores_softmax
//       CHECK:   fuse.group
//       CHECK:     tosa.matmul
//       CHECK:     tosa.reduce_max
//       CHECK:     tosa.exp
//       CHECK:     tosa.reduce_sum
//   CHECK-NOT:   fuse.group
func.func @scores_softmax(%q: tensor<2x64x16xf32>, %kt: tensor<2x16x64xf32>) -> tensor<2x64x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x64x16xf32>, tensor<2x16x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x64x64xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x64x64xf32>) -> tensor<2x64x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x64x64xf32>, tensor<2x64x1xf32>) -> tensor<2x64x64xf32>
  %e = tosa.exp %d : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x64x64xf32>) -> tensor<2x64x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x64x1xf32>) -> tensor<2x64x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x64x64xf32>, tensor<2x64x1xf32>, tensor<1xi8>) -> tensor<2x64x64xf32>
  return %p : tensor<2x64x64xf32>
}
