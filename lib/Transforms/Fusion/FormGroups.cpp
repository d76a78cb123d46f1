//===- FormGroups.cpp - The --fuse-form-groups pass -----------------------===//
//
// Plans every function (Fusion/Planner.cpp), materializes the plan
// (Fusion/Materialize.cpp) and describes the result: a JSON report and a
// Graphviz picture, to the files the user's options name. Inside
// `--fuse-ops` the report is completed by the pipeline's last pass (the
// census of the output) through the FusionReport the pipeline owns
// (FusionReport.h).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "FuseDialect/Transforms/FusionReport.h"
#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "fuse-form-groups"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFORMGROUPSPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FunctionSummary {
  std::string name;
  int64_t opsBefore = 0;
  int64_t ungrouped = 0;
  SmallVector<GroupOp> groups;
  /// The planned root op of each group (what its kernel is tiled around).
  SmallVector<std::string> roots;
};

llvm::json::Value describeGroup(GroupOp group, unsigned id, StringRef root) {
  llvm::json::Array ops;
  MappingType type =
      group.getMapping() ? *group.getMapping() : MappingType::OneToOne;
  for (Operation &op : group.getBodyBlock().without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    ops.push_back(op.getName().getStringRef().str());
  }
  return llvm::json::Object{
      {"id", id},
      {"ops", std::move(ops)},
      {"mapping", stringifyMappingType(type).str()},
      {"root", root.str()},
      {"inputs", static_cast<int64_t>(group.getInputs().size())},
      {"outputs", static_cast<int64_t>(group.getNumResults())},
      {"intermediate_bytes_saved", getSavedIntermediateBytes(group)},
  };
}

StringRef colorFor(MappingType type) {
  switch (type) {
  case MappingType::OneToOne:
    return "#cfe8cf";
  case MappingType::Shuffle:
    return "#f6e3b4";
  case MappingType::Reorganize:
    return "#fff3c4";
  case MappingType::OneToMany:
    return "#cfe0f6";
  case MappingType::ManyToMany:
    return "#f6cfcf";
  }
  return "#ffffff";
}

void writeDot(ArrayRef<FunctionSummary> functions, llvm::raw_ostream &os) {
  os << "digraph fusion {\n  rankdir=TB;\n  node [shape=box, style=filled, "
        "fillcolor=white, fontname=\"Helvetica\"];\n";
  DenseMap<Operation *, std::string> names;
  unsigned next = 0;
  auto nameOf = [&](Operation *op) -> std::string {
    auto [it, inserted] = names.try_emplace(op, "");
    if (inserted)
      it->second = "n" + std::to_string(next++);
    return it->second;
  };
  for (const FunctionSummary &f : functions) {
    os << "  subgraph cluster_fn_" << f.name << " {\n    label=\"@" << f.name
       << "\";\n";
    for (auto [i, constGroup] : llvm::enumerate(f.groups)) {
      GroupOp group = constGroup;
      MappingType type =
          group.getMapping() ? *group.getMapping() : MappingType::OneToOne;
      os << "    subgraph cluster_" << f.name << "_" << i << " {\n"
         << "      label=\"group " << i << " (" << stringifyMappingType(type)
         << ")\"; style=filled; fillcolor=\"" << colorFor(type) << "\";\n";
      for (Operation &op : group.getBodyBlock().without_terminator())
        if (!op.hasTrait<OpTrait::ConstantLike>())
          os << "      " << nameOf(&op) << " [label=\""
             << op.getName().getStringRef() << "\"];\n";
      os << "    }\n";
    }
    os << "  }\n";
    // Edges inside groups, and between groups through their results.
    for (GroupOp group : f.groups) {
      for (Operation &op : group.getBodyBlock().without_terminator())
        for (Value operand : op.getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && names.count(def))
            os << "  " << names[def] << " -> " << names[&op] << ";\n";
      for (auto [value, result] : llvm::zip(group.getYield().getValues(),
                                            group.getResults())) {
        Operation *from = value.getDefiningOp();
        if (!from || !names.count(from))
          continue;
        for (Operation *user : result.getUsers()) {
          auto consumer = dyn_cast<GroupOp>(user);
          if (!consumer)
            continue;
          for (auto [input, arg] : llvm::zip(consumer.getInputs(),
                                            consumer.getBodyBlock().getArguments()))
            if (input == result)
              for (Operation *argUser : arg.getUsers())
                if (names.count(argUser))
                  os << "  " << names[from] << " -> " << names[argUser]
                     << " [style=dashed];\n";
        }
      }
    }
  }
  os << "}\n";
}

/// Writes what `fn` prints to `path`, the user's option: '-' is stderr,
/// so that a report never mixes with the IR on stdout. A file that cannot
/// be opened or written (a full disk) is an error on `anchor`.
LogicalResult writeFile(StringRef path, function_ref<void(llvm::raw_ostream &)> fn,
                        Operation *anchor) {
  if (path == "-") {
    fn(llvm::errs());
    return success();
  }
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitError(anchor->getLoc())
           << "cannot write '" << path << "': " << error;
  fn(file->os());
  file->os().flush();
  if (std::error_code failure = file->os().error()) {
    file->os().clear_error();
    return emitError(anchor->getLoc())
           << "cannot write '" << path << "': " << failure.message();
  }
  file->keep();
  return success();
}

/// Bytes written by one kernel and read by another: group results used by
/// other ops, except results of inserts into a shared destination (written
/// in place, never copied) and values the function returns.
int64_t getBytesBetweenKernels(ArrayRef<GroupOp> groups) {
  int64_t bytes = 0;
  for (GroupOp group : groups) {
    for (auto [value, result] :
         llvm::zip(group.getYield().getValues(), group.getResults())) {
      if (value.getDefiningOp<tensor::InsertSliceOp>())
        continue;
      bool readByKernel = llvm::any_of(result.getUsers(), [](Operation *user) {
        return !user->hasTrait<OpTrait::ReturnLike>();
      });
      if (readByKernel)
        bytes += 2 * getNumElements(result.getType()) *
                 getElementBytes(result.getType());
    }
  }
  return bytes;
}

/// Ops that only move data through a permutation, and reshapes.
LayoutCensus takeCensus(Operation *root) {
  LayoutCensus census;
  root->walk([&](Operation *op) {
    if (isTranspose(op))
      ++census.transposes;
    if (isa<tosa::ReshapeOp, tensor::ReshapeOp, tensor::ExpandShapeOp,
            tensor::CollapseShapeOp>(op))
      ++census.reshapes;
  });
  return census;
}

struct FuseFormGroupsPass final
    : fuse::impl::FuseFormGroupsPassBase<FuseFormGroupsPass> {
  using Base::Base;
  FuseFormGroupsPass(const FuseFormGroupsPassOptions &options,
                     std::shared_ptr<FusionReport> pipelineReport)
      : Base(options), pipelineReport(std::move(pipelineReport)) {}

  /// The report of the pipeline this pass is part of, if it writes one.
  std::shared_ptr<FusionReport> pipelineReport;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxGroupSize < 1) {
      emitError(module.getLoc())
          << "fuse-form-groups: max-group-size must be at least 1";
      return signalPassFailure();
    }
    std::optional<ProfileOverrides> overrides;
    if (!profile.empty()) {
      std::string error;
      FailureOr<ProfileOverrides> loaded = ProfileOverrides::load(profile, error);
      if (failed(loaded)) {
        emitError(module.getLoc()) << error;
        return signalPassFailure();
      }
      overrides = std::move(*loaded);
    }
    FusionCostModel costModel;
    FusionPlannerOptions options;
    options.maxGroupSize = maxGroupSize;
    options.costModel = &costModel;
    options.profile = overrides ? &*overrides : nullptr;

    SmallVector<FunctionSummary> functions;
    SmallVector<func::FuncOp> funcs;
    module.walk([&](func::FuncOp func) { funcs.push_back(func); });
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      FusionPlan plan = planFusion(func, options);
      FunctionSummary summary;
      summary.name = func.getSymName().str();
      for (const PlannedGroup &group : plan.groups)
        summary.opsBefore += group.ops.size();
      summary.ungrouped = plan.ungrouped.size();
      for (const PlannedGroup &group : plan.groups)
        summary.roots.push_back(
            group.root ? group.root->getName().getStringRef().str() : "");
      summary.opsBefore += summary.ungrouped;
      numOpsGrouped += summary.opsBefore - summary.ungrouped;
      FailureOr<SmallVector<GroupOp>> groups = materializeFusionPlan(func, plan);
      if (failed(groups))
        return signalPassFailure();
      summary.groups = std::move(*groups);
      numGroups += summary.groups.size();
      functions.push_back(std::move(summary));
    }

    if (pipelineReport || !report.empty()) {
      llvm::json::Array fns;
      int64_t before = 0, after = 0, saved = 0, between = 0;
      LayoutCensus atPlanning = takeCensus(module);
      for (const FunctionSummary &f : functions) {
        llvm::json::Array groups;
        int64_t fnSaved = 0;
        for (auto [i, constGroup] : llvm::enumerate(f.groups)) {
          GroupOp group = constGroup;
          groups.push_back(describeGroup(group, i, f.roots[i]));
          fnSaved += getSavedIntermediateBytes(group);
        }
        int64_t kernels = f.groups.size() + f.ungrouped;
        int64_t fnBetween = getBytesBetweenKernels(f.groups);
        between += fnBetween;
        before += f.opsBefore;
        after += kernels;
        saved += fnSaved;
        fns.push_back(llvm::json::Object{
            {"name", f.name},
            {"ops_before", f.opsBefore},
            {"groups", static_cast<int64_t>(f.groups.size())},
            {"ungrouped_ops", f.ungrouped},
            {"kernels_before", f.opsBefore},
            {"kernels_after", kernels},
            {"intermediate_bytes_saved", fnSaved},
            {"bytes_between_kernels", fnBetween},
            {"group_list", std::move(groups)},
        });
      }
      llvm::json::Object totals{
          {"kernels_before", before},
          {"kernels_after", after},
          {"intermediate_bytes_saved", saved},
          {"bytes_between_kernels", between},
          {"transposes_at_planning", atPlanning.transposes},
          {"reshapes_at_planning", atPlanning.reshapes}};
      if (pipelineReport && pipelineReport->input) {
        totals["transposes_before"] = pipelineReport->input->transposes;
        totals["reshapes_before"] = pipelineReport->input->reshapes;
      }
      llvm::json::Object root{{"functions", std::move(fns)},
                              {"totals", std::move(totals)}};
      if (pipelineReport) {
        // The pipeline's last pass completes and writes it.
        pipelineReport->plan = llvm::json::Value(std::move(root));
      } else if (failed(writeFile(report, [&](llvm::raw_ostream &os) {
                   os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)))
                      << "\n";
                 }, module))) {
        return signalPassFailure();
      }
    }
    if (!dot.empty() &&
        failed(writeFile(dot, [&](llvm::raw_ostream &os) {
          writeDot(functions, os);
        }, module)))
      return signalPassFailure();
  }
};

/// Counts transposes and reshapes at the start and end of --fuse-ops for
/// its report (`transposes_before`/`after`, `reshapes_before`/`after`); the
/// last one completes the plan's report and writes it.
struct FuseReportCensusPass final
    : PassWrapper<FuseReportCensusPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuseReportCensusPass)

  FuseReportCensusPass(std::shared_ptr<FusionReport> report, bool input)
      : report(std::move(report)), input(input) {}

  StringRef getArgument() const final { return "fuse-report-census"; }
  StringRef getDescription() const final {
    return "Count transposes and reshapes for the --fuse-ops report";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LayoutCensus census = takeCensus(module);
    if (input) {
      // A new run: nothing of an earlier one (a pass manager run twice).
      report->input = census;
      report->plan.reset();
      return;
    }
    if (!report->plan)
      return;
    if (llvm::json::Object *root = report->plan->getAsObject())
      if (llvm::json::Object *totals = root->getObject("totals")) {
        (*totals)["transposes_after"] = census.transposes;
        (*totals)["reshapes_after"] = census.reshapes;
      }
    llvm::json::Value written = std::move(*report->plan);
    report->plan.reset();
    if (failed(writeFile(report->path, [&](llvm::raw_ostream &os) {
          os << llvm::formatv("{0:2}", written) << "\n";
        }, module)))
      return signalPassFailure();
  }

  std::shared_ptr<FusionReport> report;
  bool input;
};

} // namespace

std::unique_ptr<Pass>
mlir::fuse::createFuseReportCensusPass(std::shared_ptr<FusionReport> report,
                                       bool input) {
  return std::make_unique<FuseReportCensusPass>(std::move(report), input);
}

std::unique_ptr<Pass>
mlir::fuse::createFuseFormGroupsPass(const FuseFormGroupsPassOptions &options,
                                     std::shared_ptr<FusionReport> report) {
  return std::make_unique<FuseFormGroupsPass>(options, std::move(report));
}
