//===- FusionReport.h - The --fuse-ops report, owned by its pipeline -*- C++ -*-===//
//
// The JSON report of one `--fuse-ops` run (`report=FILE`) is assembled by
// three of its passes: the first counts the input's transposes and
// reshapes, `--fuse-form-groups` describes the plan, and the last counts the
// output's and writes the file. The pipeline that builds those passes owns
// one `FusionReport` and hands it to each; nothing of it travels in the IR,
// and only the user's option names the file written.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_FUSIONREPORT_H
#define FUSEDIALECT_TRANSFORMS_FUSIONREPORT_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::fuse {

struct FuseFormGroupsPassOptions;

/// Transposes and reshapes counted in a module (what the report's
/// `transposes_*` and `reshapes_*` totals are).
struct LayoutCensus {
  int64_t transposes = 0, reshapes = 0;
};

/// What one run of the pipeline learns for its report.
struct FusionReport {
  explicit FusionReport(std::string path) : path(std::move(path)) {}

  /// Where the report goes ('-': stdout), from the user's option.
  std::string path;
  /// The input's census (first pass), the plan's JSON (form-groups).
  std::optional<LayoutCensus> input;
  std::optional<llvm::json::Value> plan;
};

/// The census pass at the start (`input`) or end (`!input`: completes the
/// plan with the output's census and writes the report) of the pipeline.
std::unique_ptr<Pass> createFuseReportCensusPass(
    std::shared_ptr<FusionReport> report, bool input);

/// `--fuse-form-groups` whose plan goes into `report` (which the last
/// census pass writes) instead of its own `report=` file.
std::unique_ptr<Pass>
createFuseFormGroupsPass(const FuseFormGroupsPassOptions &options,
                         std::shared_ptr<FusionReport> report);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_FUSIONREPORT_H
