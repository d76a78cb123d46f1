//===- Passes.td - fuse dialect conversion passes ----------*- tablegen -*-===//

#ifndef FUSEDIALECT_CONVERSION_PASSES_TD
#define FUSEDIALECT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseInlineGroupsPass : Pass<"fuse-inline-groups"> {
  let summary = "Dissolve `fuse.group` ops into their parent block";
  let description = [{
    Replaces every `fuse.group` by its body: body arguments become the group's
    inputs and the group's results become the yielded values; inputs and
    results read or written through a permutation (index changes) get a
    `tosa.transpose`. This is the CPU lowering of a group used by
    `--fuse-lower-to-cpu`: it keeps the program's meaning exactly and lets
    the upstream TOSA/linalg lowering run on the result.

    ```mlir
    %r = fuse.group ins(%x : tensor<4xf32>) -> (tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>):
      %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
      fuse.yield %0 : tensor<4xf32>
    }
    ```

    becomes

    ```mlir
    %r = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

#endif // FUSEDIALECT_CONVERSION_PASSES_TD
