//===- Passes.td - fuse dialect transformation passes ------*- tablegen -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_PASSES_TD
#define FUSEDIALECT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseAnnotateMappingPass : Pass<"fuse-annotate-mapping"> {
  let summary = "Attach the DNNFusion mapping type to every classified op";
  let description = [{
    Classifies every operation nested under the target op by how its input
    elements map to its output elements and records the result as the
    discardable attribute `fuse.mapping`. The classification is derived from
    the IR (see `FuseDialect/Analysis/MappingAnalysis.h` and
    `docs/MappingTypes.md`): linalg indexing maps and iterator types,
    elementwise traits and operand shapes, and the semantics of TOSA and
    tensor data-movement ops. Unknown ops, constants and ops with memory
    effects are left without an attribute and are never touched by the
    fusion pipeline. Existing annotations are recomputed.

    Before:

    ```mlir
    %0 = tosa.add %a, %b : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    %1 = tosa.transpose %0 {perms = array<i32: 1, 0>}
        : (tensor<2x8xf32>) -> tensor<8x2xf32>
    ```

    After:

    ```mlir
    %0 = tosa.add %a, %b {fuse.mapping = #fuse.mapping<one_to_many>}
        : (tensor<2x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
    %1 = tosa.transpose %0 {fuse.mapping = #fuse.mapping<shuffle>,
                            perms = array<i32: 1, 0>}
        : (tensor<2x8xf32>) -> tensor<8x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
  let statistics = [
    Statistic<"numOneToOne", "one-to-one", "Ops classified one-to-one">,
    Statistic<"numOneToMany", "one-to-many", "Ops classified one-to-many">,
    Statistic<"numManyToMany", "many-to-many", "Ops classified many-to-many">,
    Statistic<"numReorganize", "reorganize", "Ops classified reorganize">,
    Statistic<"numShuffle", "shuffle", "Ops classified shuffle">,
    Statistic<"numUnclassified", "unclassified",
              "Ops left without a mapping type">
  ];
}

#endif // FUSEDIALECT_TRANSFORMS_PASSES_TD
