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

def FuseAlgebraicSimplifyPass : Pass<"fuse-algebraic-simplify"> {
  let summary = "Cost-driven algebraic simplification (associative, "
                "distributive and commutative rules)";
  let description = [{
    Rewrites TOSA ops and arith/math ops (linalg.generic payloads, or on
    tensors) with the rule catalogue of
    `include/FuseDialect/Transforms/Algebraic/Rules.def`
    (docs/AlgebraicRules.md lists every rule with its cost). A rewrite is
    applied only when it lowers the cost model's price of the program
    (flops with tensor sizes, plus memory traffic), most profitable first;
    intermediate values used elsewhere stay alive and count against the
    rewrite, so shared work is never duplicated for a false win.
    Cost-neutral commutative rewrites are applied only when they enable a
    profitable one. Constants combine at compile time.

    Rules that reassociate (results may differ in the last bits) or can
    change NaN/Inf/signed-zero results are on by default and off under
    `strict=true`. Dynamic shapes, quantized ops (non-zero shifts or zero
    points) and ops of other dialects are left untouched.

    Example (`factor_mul_over_add`, `a * b + a * c -> a * (b + c)`):

    ```mlir
    %0 = tosa.mul %a, %b, %shift : (...) -> tensor<64xf32>
    %1 = tosa.mul %a, %c, %shift : (...) -> tensor<64xf32>
    %2 = tosa.add %0, %1 : (...) -> tensor<64xf32>
    ```

    becomes

    ```mlir
    %0 = tosa.add %b, %c : (...) -> tensor<64xf32>
    %1 = tosa.mul %a, %0, %shift : (...) -> tensor<64xf32>
    ```
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Apply only rules that are exact under IEEE arithmetic">,
    ListOption<"onlyRules", "only", "std::string",
               "Apply only these rules (by name)">,
    Option<"ignoreCost", "ignore-cost", "bool", /*default=*/"false",
           "Testing: apply every match once, profitable or not">,
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"1000",
           "Upper bound on rewrite rounds">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print rules fired per family and cost saved to stderr">
  ];
  let statistics = [
    Statistic<"numAssociative", "associative", "Associative rules fired">,
    Statistic<"numDistributive", "distributive", "Distributive rules fired">,
    Statistic<"numCommutative", "commutative", "Commutative rules fired">,
    Statistic<"numFlopsSaved", "flops-saved", "Flops saved">
  ];
}

def FusePrintAlgebraicRulesPass : Pass<"fuse-print-algebraic-rules", "::mlir::ModuleOp"> {
  let summary = "Print the algebraic rule catalogue as Markdown";
  let description = [{
    Prints docs/AlgebraicRules.md to stdout: one row per rule with family,
    pattern, exactness and the cost of its canonical instance before and
    after the rewrite. The IR is not changed.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // FUSEDIALECT_TRANSFORMS_PASSES_TD
