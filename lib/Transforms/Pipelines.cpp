//===- Pipelines.cpp - The fuse-ops pipeline ------------------------------===//

#include "FuseDialect/Transforms/Pipelines.h"

#include "FuseDialect/PipelineRegistration.h"
#include "FuseDialect/Transforms/FusionReport.h"
#include "FuseDialect/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::buildFuseOpsPipeline(OpPassManager &pm,
                                      const FuseOpsOptions &options) {
  // Nothing too large or malformed for the passes below (upstream's
  // included).
  pm.addPass(createFuseVerifyInputPass());
  // The report (report=), owned by this pipeline: its first and last pass
  // count transposes and reshapes, form-groups describes the plan.
  std::shared_ptr<FusionReport> report;
  if (!options.report.empty()) {
    report = std::make_shared<FusionReport>(options.report);
    pm.addPass(createFuseReportCensusPass(report, /*input=*/true));
  }
  // 0. Fold what upstream folders fold, so that no rule or pattern below
  //    meets a foldable op it would only see on a second run.
  pm.addPass(createCanonicalizerPass());
  // 1. Local layout clean-up first, so that the rules and patterns below see
  //    ops next to each other: transposes move through elementwise ops
  //    (permuting broadcast constants) and cancel in inverse pairs;
  //    transposes of constants fold (upstream tosa-reduce-transposes).
  if (options.layout) {
    pm.addNestedPass<func::FuncOp>(createFusePropagateLayoutPass());
    pm.addNestedPass<func::FuncOp>(tosa::createTosaReduceTransposes());
  }
  // 2. (Mapping types: every stage below classifies the ops it meets with
  //    FuseDialect/Analysis/MappingAnalysis.h; the output is annotated once,
  //    at the end.)
  // 3. Cut compute with the algebraic rules, per function.
  if (options.simplify) {
    FuseAlgebraicSimplifyPassOptions simplifyOptions;
    simplifyOptions.strict = options.strict;
    pm.addNestedPass<func::FuncOp>(
        createFuseAlgebraicSimplifyPass(simplifyOptions));
    pm.addPass(createCSEPass());
    // Ops whose results are read through one static slice compute only
    // that slice (ViT's class token: its last LayerNorm and MLP matmul for
    // one token instead of 197).
    pm.addNestedPass<func::FuncOp>(createFuseSliceProducersPass());
  }
  // 4. TensorRT-style vertical fusion: BatchNorm scales and shifts into the
  //    conv/matmul weights.
  pm.addNestedPass<func::FuncOp>(createFuseFoldConvAffinePass());
  //    Channel shuffles read by a contraction with constant weights are
  //    moved into the weights (ShuffleNetV2's last unit).
  if (options.layout)
    pm.addNestedPass<func::FuncOp>(createFusePermuteWeightsPass());
  //    3x3 convolutions by Winograd's F(2x2, 3x3), with their folded
  //    filters; before horizontal fusion, which merges the 1x1 GEMMs of
  //    convolutions sharing an input.
  if (options.winograd)
    pm.addNestedPass<func::FuncOp>(createFuseWinogradPass());
  // 5. Horizontal fusion: same-input convs/matmuls become one wider op.
  pm.addNestedPass<func::FuncOp>(createFuseHorizontalPass());
  // 6. Concats become inserts that their producers' kernels do in place.
  pm.addNestedPass<func::FuncOp>(createFuseEliminateConcatPass());
  // 7. Transposes still between contractions, reductions and elementwise
  //    ops (attention's head split and merge, K^T) become index maps of
  //    their neighbours.
  if (options.layout)
    pm.addNestedPass<func::FuncOp>(createFuseAbsorbTransposesPass());
  // The stages above expose folds (cancelled transposes) and create shape
  // constants and destinations per use.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // 8. Decide the kernels, then form one fuse.group per kernel.
  if (options.formGroups) {
    FuseFormGroupsPassOptions groupOptions;
    groupOptions.maxGroupSize = options.maxGroupSize;
    groupOptions.profile = options.profile;
    groupOptions.dot = options.dot;
    pm.addPass(createFuseFormGroupsPass(groupOptions, report));
    // 9. Transposes left at kernel boundaries (the function's declared
    //    layout meeting the kernels') become index changes of the kernels.
    if (options.layout)
      pm.addNestedPass<func::FuncOp>(createFuseFoldBoundaryTransposesPass());
    // 10. Inside the kernels, values that only fed a folded transpose may now
    //    have one user left: one more round of the rules, then group bodies
    //    in canonical form (constants first, no duplicates). With this,
    //    running --fuse-ops again changes nothing.
    if (options.simplify) {
      FuseAlgebraicSimplifyPassOptions simplifyOptions;
      simplifyOptions.strict = options.strict;
      pm.addNestedPass<func::FuncOp>(
          createFuseAlgebraicSimplifyPass(simplifyOptions));
    }
    pm.addPass(createCanonicalizerPass());
    // What the canonicalizer made constant (upstream folds x * 0 to 0) is
    // folded into its readers, as the next run's first step would.
    if (options.simplify) {
      FuseAlgebraicSimplifyPassOptions foldOptions;
      foldOptions.rules = false;
      pm.addNestedPass<func::FuncOp>(
          createFuseAlgebraicSimplifyPass(foldOptions));
      pm.addPass(createCanonicalizerPass());
    }
    pm.addPass(createCSEPass());
  }
  // The output records each op's mapping type (#fuse.mapping), for readers
  // of the IR; no pass reads it back.
  pm.addPass(createFuseAnnotateMappingPass());
  if (report)
    pm.addPass(createFuseReportCensusPass(report, /*input=*/false));
}

LogicalResult FuseOpsOptions::validate(OptionError error) const {
  return checkOptionRange(error, "max-group-size", maxGroupSize, 1, 1 << 20);
}

void mlir::fuse::registerFuseOpsPipeline() {
  registerModulePipeline<FuseOpsOptions>(
      "fuse-ops",
      "The whole fusion pipeline: annotate mapping types, algebraic "
      "simplification, plan and form fuse.group kernels",
      buildFuseOpsPipeline);
}
