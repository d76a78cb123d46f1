// A fuse.group over a zero-sized tensor (valid IR, though --fuse-ops never
// forms one) is not tiled (upstream tiling takes no empty loop range): a
// remark, and the CPU lowering still lowers it op by op.
// RUN: fuse-opt %s --fuse-tile-groups -verify-diagnostics | FileCheck %s
// RUN: fuse-opt %s --fuse-lower-to-cpu | FileCheck %s --check-prefix=LLVM
// CHECK: fuse.group
// CHECK: linalg.generic
// LLVM: llvm.func @model
func.func @model(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-remark @+1 {{a dynamic or zero-sized tensor; left untiled}}
  %r = fuse.group ins(%x : tensor<0x4xf32>) -> (tensor<0x4xf32>) {
  ^bb0(%a: tensor<0x4xf32>):
    %e = tensor.empty() : tensor<0x4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<0x4xf32>) outs(%e : tensor<0x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = math.exp %in : f32
      linalg.yield %m : f32
    } -> tensor<0x4xf32>
    fuse.yield %g : tensor<0x4xf32>
  }
  return %r : tensor<0x4xf32>
}
