// RUN: fuse-opt %s --fuse-lower-to-nvvm | FileCheck %s
// RUN: fuse-opt %s --fuse-lower-to-nvvm="chip=sm_80 features=+ptx70" | FileCheck %s --check-prefix=SM80
// RUN: fuse-opt %examples/conv_bn_relu.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm | FileCheck %s --check-prefix=CONV
// RUN: fuse-opt %examples/resnet_bottleneck.mlir --fuse-ops | fuse-opt --fuse-lower-to-nvvm | FileCheck %s --check-prefix=RESNET

// Two groups, two kernels: each group is one gpu.launch_func, its kernel
// PTX for sm_90 (format=isa needs no GPU). Host buffers are managed memory
// (mgpuMemAlloc) or registered before the launch that reads them.
// CHECK-LABEL: llvm.func @two_groups
//       CHECK:   llvm.call @mgpuMemAlloc
//       CHECK:   llvm.call @mgpuMemHostRegisterMemRef
//       CHECK:   gpu.launch_func @[[K0:[a-z_0-9]+]]::@{{.*}} blocks in
//       CHECK:   gpu.launch_func @[[K1:[a-z_0-9]+]]::@{{.*}} blocks in
//   CHECK-NOT:   gpu.launch_func
//       CHECK: gpu.binary @[[K0]]  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}>, {{.*}}assembly = "{{.*}}.target sm_90
//   CHECK-NOT: malloc
//       CHECK: gpu.binary @[[K1]]  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90"
// SM80: gpu.binary {{.*}}chip = "sm_80", features = "+ptx70"{{.*}}.target sm_80
func.func @two_groups(%x: tensor<16x32xf32>, %b: tensor<1x32xf32>) -> tensor<16x32xf32> {
  %0 = fuse.group ins(%x, %b : tensor<16x32xf32>, tensor<1x32xf32>) -> (tensor<16x32xf32>) {
  ^bb0(%a: tensor<16x32xf32>, %c: tensor<1x32xf32>):
    %s = tosa.add %a, %c : (tensor<16x32xf32>, tensor<1x32xf32>) -> tensor<16x32xf32>
    %e = tosa.exp %s : (tensor<16x32xf32>) -> tensor<16x32xf32>
    fuse.yield %e : tensor<16x32xf32>
  }
  %1 = fuse.group ins(%0 : tensor<16x32xf32>) -> (tensor<16x32xf32>) {
  ^bb0(%a: tensor<16x32xf32>):
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.reduce_max %a {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %d = tosa.sub %a, %m : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
    %e = tosa.exp %d : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16x1xf32>
    %r = tosa.reciprocal %s : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %o = tosa.mul %e, %r, %sh : (tensor<16x32xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x32xf32>
    fuse.yield %o : tensor<16x32xf32>
  }
  return %1 : tensor<16x32xf32>
}

// Whole models: conv + BN + ReLU is one group, one kernel; the ResNet
// bottleneck's three groups are three kernels.
// CONV-COUNT-1: gpu.launch_func
//   CONV-NOT:   gpu.launch_func
// RESNET-COUNT-3: gpu.launch_func
//   RESNET-NOT:   gpu.launch_func
