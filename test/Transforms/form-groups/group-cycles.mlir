// Regressions from random-graph testing: groups that are convex on their
// own but would form a cycle through other groups (the second one once
// produced "operand does not dominate this use").
//
// RUN: fuse-opt %s -split-input-file --fuse-ops | FileCheck %s
// RUN: %fuse-diff %s --entry first,second -p "--fuse-ops" --input-range 0.5,2 | FileCheck %s --check-prefix=NUM
// NUM: fuse-diff: OK 3 outputs

// CHECK-LABEL: func.func @first
// CHECK: fuse.group
// CHECK-LABEL: func.func @second
// CHECK: fuse.group
func.func @first(%v208: tensor<3x3x6xf32>, %v201: tensor<3x3x6xf32>, %v182: tensor<3x3x6xf32>, %v170: tensor<2x3x2xf32>, %v28: tensor<1x3x1xf32>, %v26: tensor<3x3x6xf32>, %v5: tensor<4x1x2xf32>) -> (tensor<4x4x2xf32>, tensor<3x12x6xf32>) {
  %zz = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %v56 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %v10 = tosa.tanh %v5 : (tensor<4x1x2xf32>) -> tensor<4x1x2xf32>
  %v14 = tosa.concat %v5, %v10, %v10 {axis = 2 : i32} : (tensor<4x1x2xf32>, tensor<4x1x2xf32>, tensor<4x1x2xf32>) -> tensor<4x1x6xf32>
  %v23 = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v24 = tosa.const_shape {values = dense<[3, 1, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v25 = tosa.slice %v14, %v23, %v24 : (tensor<4x1x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<3x1x6xf32>
  %v29 = tosa.reduce_max %v28 {axis = 1 : i32} : (tensor<1x3x1xf32>) -> tensor<1x1x1xf32>
  %v30 = tosa.sub %v28, %v29 : (tensor<1x3x1xf32>, tensor<1x1x1xf32>) -> tensor<1x3x1xf32>
  %v55 = tosa.const_shape {values = dense<[0, 1, 0, 1, 1, 1]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %v57 = tosa.pad %v30, %v55, %v56 : (tensor<1x3x1xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x4x3xf32>
  %v175 = tosa.minimum %v26, %v25 : (tensor<3x3x6xf32>, tensor<3x1x6xf32>) -> tensor<3x3x6xf32>
  %v185 = tosa.maximum %v175, %v30 : (tensor<3x3x6xf32>, tensor<1x3x1xf32>) -> tensor<3x3x6xf32>
  %v215 = tosa.concat %v208, %v182, %v201, %v185 {axis = 1 : i32} : (tensor<3x3x6xf32>, tensor<3x3x6xf32>, tensor<3x3x6xf32>, tensor<3x3x6xf32>) -> tensor<3x12x6xf32>
  %v227 = tosa.matmul %v57, %v170, %zz, %zz : (tensor<2x4x3xf32>, tensor<2x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x2xf32>
  %v229 = tosa.reduce_sum %v227 {axis = 0 : i32} : (tensor<2x4x2xf32>) -> tensor<1x4x2xf32>
  %v246 = tosa.mul %v229, %v10, %sh : (tensor<1x4x2xf32>, tensor<4x1x2xf32>, tensor<1xi8>) -> tensor<4x4x2xf32>
  return %v246, %v215 : tensor<4x4x2xf32>, tensor<3x12x6xf32>
}

func.func @second(%v179: tensor<2x1x4xi1>, %v160: tensor<2x12x4xf32>, %v138: tensor<2x3x4xf32>, %v83: tensor<2x3x4xf32>, %v32: tensor<2x3x4xf32>, %v30: tensor<1x1x1xf32>, %v28: tensor<2x3x4xf32>, %v8: tensor<2x3x1xf32>, %v4: tensor<2x3x1xf32>) -> (tensor<2x6x4xf32>) {
  %zz = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %v33 = tosa.pow %v32, %v30 : (tensor<2x3x4xf32>, tensor<1x1x1xf32>) -> tensor<2x3x4xf32>
  %v84 = tosa.reduce_sum %v83 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %v110 = tosa.add %v84, %v4 : (tensor<1x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %v144 = tosa.greater %v110, %v33 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
  %v145 = tosa.select %v144, %v28, %v110 : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %v146 = tosa.concat %v138, %v110, %v33 {axis = 2 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x12xf32>
  %v161 = tosa.matmul %v146, %v160, %zz, %zz : (tensor<2x3x12xf32>, tensor<2x12x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  %v162 = tosa.reduce_sum %v161 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %v180 = tosa.select %v179, %v162, %v8 : (tensor<2x1x4xi1>, tensor<2x1x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  %v504 = tosa.concat %v180, %v145 {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  return %v504 : tensor<2x6x4xf32>
}
