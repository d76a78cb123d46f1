// The harness must be able to fail: a "pipeline" that changes a constant is
// caught as a numeric mismatch (exit 1), and a failing tool is an error
// (exit 2), never a pass.
//
// RUN: not %fuse-diff %s --fuse-opt %S/Inputs/perturb-opt.sh -p "--canonicalize" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// RUN: not %fuse-diff %s -p "--no-such-pass" 2>&1 | FileCheck %s --check-prefix=TOOLFAIL
// RUN: %fuse-diff %s -p "--canonicalize" | FileCheck %s --check-prefix=OK
//
// MISMATCH: fuse-diff: MISMATCH
// TOOLFAIL: no-such-pass
// OK: fuse-diff: OK 1 outputs, 8 values

func.func @model(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = "tosa.const"() <{values = dense<1.25> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
  %0 = tosa.add %a, %c : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.tanh %0 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
