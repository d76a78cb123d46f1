// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(fuse-slice-producers),canonicalize,cse)" | FileCheck %s

// A slice size of -1 reads to the end of its dimension: rows 2..3 of a
// rank-1 product; the shift (tensor<1xi8>) stays whole. (Checked on the IR
// only: upstream tosa-to-tensor does not lower a -1 size with a static
// result, so fuse-diff's reference cannot run it.)
// CHECK-LABEL: func.func @to_the_end
//       CHECK:   %[[A:[0-9]+]] = tosa.slice %{{.*}} : (tensor<4xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>
//       CHECK:   %[[B:[0-9]+]] = tosa.slice %{{.*}} : (tensor<4xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>
//       CHECK:   tosa.mul %[[A]], %[[B]], %{{.*}} : (tensor<2xf32>, tensor<2xf32>, tensor<1xi8>) -> tensor<2xf32>
func.func @to_the_end(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<2xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %x, %y, %sh : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %start = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<-1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.slice %m, %start, %size : (tensor<4xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// A slice whose declared result type is not its box's static type (here
// dynamic) is left alone.
// CHECK-LABEL: func.func @dynamic_result
//       CHECK:   tosa.mul %{{.*}} : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
func.func @dynamic_result(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %x, %y, %sh : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %start = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.slice %m, %start, %size : (tensor<4xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}
