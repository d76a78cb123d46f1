// Inputs --fuse-ops must leave alone or handle without changing meaning:
// dynamic shapes (left as they are), functions calling functions (each planned on its own), zero-sized
// tensors, and a value read by many ops (fan-out: groups are capped).
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s -p "--fuse-ops" --entry caller,fan_out | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 2 outputs

// CHECK-LABEL: func.func @dynamic
//   CHECK-NOT:   fuse.group
//       CHECK:   tosa.exp
//       CHECK:   tosa.add
func.func @dynamic(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %e = tosa.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %a = tosa.add %e, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %a : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @helper
//       CHECK:   fuse.group
// CHECK-LABEL: func.func @caller
//       CHECK:   fuse.group
//       CHECK:   call @helper
//       CHECK:   fuse.group
func.func @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = tosa.tanh %e : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
func.func @caller(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = tosa.abs %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = tosa.sigmoid %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = func.call @helper(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = tosa.sigmoid %h : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = tosa.add %s, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Zero-sized tensors are not TOSA; in linalg they are left as they are
// (they compute nothing; upstream tiling does not take empty ranges).
// CHECK-LABEL: func.func @zero_sized
//   CHECK-NOT:   fuse.group
//       CHECK:   linalg.generic
func.func @zero_sized(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %e = tensor.empty() : tensor<0x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<0x4xf32>) outs(%e : tensor<0x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}

// -----

// One value read by 64 ops whose results are all summed.
// CHECK-LABEL: func.func @fan_out
//       CHECK:   fuse.group
func.func @fan_out(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %t = tosa.tanh %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u0 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u1 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u2 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u3 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u4 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u5 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u6 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u7 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u8 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u9 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u10 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u11 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u12 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u13 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u14 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u15 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u16 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u17 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u18 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u19 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u20 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u21 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u22 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u23 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u24 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u25 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u26 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u27 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u28 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u29 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u30 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u31 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u32 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u33 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u34 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u35 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u36 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u37 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u38 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u39 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u40 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u41 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u42 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u43 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u44 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u45 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u46 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u47 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u48 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u49 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u50 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u51 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u52 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u53 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u54 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u55 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u56 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u57 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u58 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u59 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u60 = tosa.exp %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u61 = tosa.sigmoid %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u62 = tosa.abs %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u63 = tosa.tanh %t : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %s1 = tosa.add %u0, %u1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s2 = tosa.add %s1, %u2 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s3 = tosa.add %s2, %u3 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s4 = tosa.add %s3, %u4 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s5 = tosa.add %s4, %u5 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s6 = tosa.add %s5, %u6 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s7 = tosa.add %s6, %u7 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s8 = tosa.add %s7, %u8 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s9 = tosa.add %s8, %u9 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s10 = tosa.add %s9, %u10 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s11 = tosa.add %s10, %u11 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s12 = tosa.add %s11, %u12 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s13 = tosa.add %s12, %u13 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s14 = tosa.add %s13, %u14 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s15 = tosa.add %s14, %u15 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s16 = tosa.add %s15, %u16 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s17 = tosa.add %s16, %u17 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s18 = tosa.add %s17, %u18 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s19 = tosa.add %s18, %u19 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s20 = tosa.add %s19, %u20 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s21 = tosa.add %s20, %u21 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s22 = tosa.add %s21, %u22 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s23 = tosa.add %s22, %u23 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s24 = tosa.add %s23, %u24 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s25 = tosa.add %s24, %u25 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s26 = tosa.add %s25, %u26 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s27 = tosa.add %s26, %u27 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s28 = tosa.add %s27, %u28 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s29 = tosa.add %s28, %u29 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s30 = tosa.add %s29, %u30 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s31 = tosa.add %s30, %u31 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s32 = tosa.add %s31, %u32 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s33 = tosa.add %s32, %u33 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s34 = tosa.add %s33, %u34 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s35 = tosa.add %s34, %u35 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s36 = tosa.add %s35, %u36 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s37 = tosa.add %s36, %u37 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s38 = tosa.add %s37, %u38 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s39 = tosa.add %s38, %u39 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s40 = tosa.add %s39, %u40 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s41 = tosa.add %s40, %u41 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s42 = tosa.add %s41, %u42 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s43 = tosa.add %s42, %u43 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s44 = tosa.add %s43, %u44 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s45 = tosa.add %s44, %u45 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s46 = tosa.add %s45, %u46 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s47 = tosa.add %s46, %u47 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s48 = tosa.add %s47, %u48 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s49 = tosa.add %s48, %u49 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s50 = tosa.add %s49, %u50 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s51 = tosa.add %s50, %u51 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s52 = tosa.add %s51, %u52 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s53 = tosa.add %s52, %u53 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s54 = tosa.add %s53, %u54 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s55 = tosa.add %s54, %u55 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s56 = tosa.add %s55, %u56 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s57 = tosa.add %s56, %u57 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s58 = tosa.add %s57, %u58 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s59 = tosa.add %s58, %u59 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s60 = tosa.add %s59, %u60 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s61 = tosa.add %s60, %u61 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s62 = tosa.add %s61, %u62 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %s63 = tosa.add %s62, %u63 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s63 : tensor<8x8xf32>
}
