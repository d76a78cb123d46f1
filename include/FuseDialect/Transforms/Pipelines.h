//===- Pipelines.h - The fuse-ops pipeline ----------------------*- C++ -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_PIPELINES_H
#define FUSEDIALECT_TRANSFORMS_PIPELINES_H

#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// Options of the whole fusion pipeline (`--fuse-ops`).
struct FuseOpsOptions : public PassPipelineOptions<FuseOpsOptions> {
  PassOptions::Option<bool> simplify{
      *this, "simplify",
      llvm::cl::desc("Run cost-driven algebraic simplification"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> strict{
      *this, "strict",
      llvm::cl::desc("Only algebraic rules that are exact under IEEE "
                     "arithmetic (no reassociation, no change of NaN/Inf)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> layout{
      *this, "layout",
      llvm::cl::desc("Move transposes through elementwise ops and cancel "
                     "inverse pairs before planning"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> winograd{
      *this, "winograd",
      llvm::cl::desc("3x3 convolutions of stride 1 by Winograd's F(2x2, "
                     "3x3) (fuse-winograd): 2.25 times fewer multiplies, "
                     "sums regrouped (values change by rounding; an "
                     "infinite input can give NaN)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> formGroups{
      *this, "form-groups",
      llvm::cl::desc("Plan fusion and form fuse.group kernels"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxGroupSize{
      *this, "max-group-size",
      llvm::cl::desc("Largest number of ops in a group"),
      llvm::cl::init(FusionPlannerOptions::kDefaultMaxGroupSize)};
  PassOptions::Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("JSON profile database overriding the fusion cost model"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the fusion report (JSON) to this file ('-': "
                     "stderr, never mixed with the IR)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> dot{
      *this, "dot", llvm::cl::desc("Write a Graphviz picture of the plan"),
      llvm::cl::init("")};

  /// Refuses values out of range, naming the option (through `error`).
  LogicalResult validate(function_ref<LogicalResult(const Twine &)> error) const;
};

/// Builds the fusion pipeline on a module:
///   0. canonicalize (upstream folds),
///   1. local layout clean-up (transposes sink and cancel),
///   2. annotate mapping types (`--fuse-annotate-mapping`),
///   3. algebraic simplification (`--fuse-algebraic-simplify`), slices and
///      concats moved to what computes them (`--fuse-slice-producers`),
///   4. fold BatchNorm into conv/matmul weights, and channel shuffles
///      (`--fuse-permute-weights`),
///   5. merge same-input convs/matmuls, 6. turn concats into in-place inserts,
///   7. plan and form `fuse.group` kernels (`--fuse-form-groups`),
///   8. turn transposes at kernel boundaries into index changes.
/// See docs/Architecture.md for the order and why.
void buildFuseOpsPipeline(OpPassManager &pm, const FuseOpsOptions &options);

/// Registers `--fuse-ops` with the global pass-pipeline registry.
void registerFuseOpsPipeline();

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_PIPELINES_H
