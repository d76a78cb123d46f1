// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-eliminate-concat))" | FileCheck %s
// RUN: fuse-opt %s --fuse-ops | FileCheck %s --check-prefix=GROUPS
// RUN: %fuse-diff %s -p "--fuse-ops" | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 1 outputs, 96 values

// The concat becomes inserts into one destination ...
// CHECK-LABEL: func.func @model
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<1x4x4x6xf32>
//       CHECK:   %[[I0:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1]
//       CHECK:   %[[I1:.+]] = tensor.insert_slice %{{.+}} into %[[I0]][0, 0, 0, 2] [1, 4, 4, 4] [1, 1, 1, 1]
//       CHECK:   return %[[I1]]
//   CHECK-NOT:   tosa.concat
//
// ... and each insert lives in the kernel that computes what it inserts: no
// group is left that only copies. The first kernel makes the destination
// (an empty tensor is rematerialized, not passed in).
// GROUPS-LABEL: func.func @model
//       GROUPS:   %[[G1:.+]] = fuse.group ins(%arg0 :
//       GROUPS:     tensor.empty()
//       GROUPS:     tosa.exp
//       GROUPS:     tensor.insert_slice
//       GROUPS:   %[[G2:.+]] = fuse.group ins(%arg1, %[[G1]]
//       GROUPS:     tosa.tanh
//       GROUPS:     tensor.insert_slice
//   GROUPS-NOT:   fuse.group
//       GROUPS:   return %[[G2]]
func.func @model(%a: tensor<1x4x4x2xf32>, %b: tensor<1x4x4x4xf32>) -> tensor<1x4x4x6xf32> {
  %0 = tosa.exp %a : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.tanh %b : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %2 = tosa.concat %0, %1 {axis = 3 : i32} : (tensor<1x4x4x2xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x6xf32>
  return %2 : tensor<1x4x4x6xf32>
}
