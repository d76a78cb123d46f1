// Upstream MLIR 22 crashes the pipelines would reach, guarded by
// fuse-verify-input: the custom syntax of tosa.clamp takes a string
// `nan_mode` and leaves the property null; `--canonicalize` (the first
// pass of --fuse-ops) then dereferences it in ClampOp::getNanMode.
// RUN: not fuse-opt %s --fuse-ops 2>&1 | FileCheck %s
// RUN: not fuse-opt %s --fuse-lower-to-cpu 2>&1 | FileCheck %s
// CHECK: error: 'tosa.clamp' has no valid 'nan_mode' (an attribute of the wrong kind?)

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = "PROPAGATE"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 6.0 : f32, nan_mode = "PROPAGATE"} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
