//===- PipelineRegistration.h - Pipelines that refuse bad options -*- C++ -*-===//
//
// `registerModulePipeline` registers a pass pipeline like upstream's
// PassPipelineRegistration, and also refuses, with a named error and before
// any pass is built:
//  * an anchor other than `builtin.module` (`func.func(fuse-ops)` would
//    otherwise abort the process in the pass manager: fatal in an embedder);
//  * options that do not parse or that `Options::validate` rejects (values
//    out of range).
// Options are values: they reach the builder typed, never spliced into
// pipeline text. A pass refuses its own options out of range with
// `checkPassOptionRange` (one message format for all of them).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_PIPELINEREGISTRATION_H
#define FUSEDIALECT_PIPELINEREGISTRATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <functional>
#include <string>

namespace mlir::fuse {

/// Reports one bad option value; returns failure.
using OptionError = function_ref<LogicalResult(const Twine &)>;

/// Checks that `value` lies in [lo, hi] (`name` is the option's spelling).
inline LogicalResult checkOptionRange(OptionError error, StringRef name,
                                      int64_t value, int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi)
    return success();
  return error("option '" + name + "' must be in [" + Twine(lo) + ", " +
               Twine(hi) + "], not " + Twine(value));
}

/// Checks, in pass `pass` running on `op`, that option `name`'s `value`
/// lies in [lo, hi]; otherwise reports "PASS: NAME must be in [LO, HI]UNIT"
/// at `op` and returns failure (the pass then signals failure).
inline LogicalResult checkPassOptionRange(Operation *op, StringRef pass,
                                          StringRef name, int64_t value,
                                          int64_t lo, int64_t hi,
                                          StringRef unit = {}) {
  if (value >= lo && value <= hi)
    return success();
  return emitError(op->getLoc()) << pass << ": " << name << " must be in ["
                                 << lo << ", " << hi << "]" << unit;
}

/// Registers pipeline `arg` on `builtin.module`: `Options` is a
/// PassPipelineOptions with `LogicalResult validate(OptionError) const`.
template <typename Options>
void registerModulePipeline(
    StringRef arg, StringRef description,
    std::function<void(OpPassManager &, const Options &)> builder) {
  std::string name = arg.str();
  registerPassPipeline(
      arg, description,
      [builder, name](OpPassManager &pm, StringRef text,
                      OptionError error) -> LogicalResult {
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName())
          return error("'" + name + "' runs on builtin.module, not on '" +
                       anchor + "': write builtin.module(" + name + ")");
        Options options;
        if (failed(options.parseFromString(text)))
          return error("invalid options of '" + name + "': '" + text + "'");
        if (failed(options.validate([&](const Twine &message) {
              return error("'" + name + "': " + message);
            })))
          return failure();
        builder(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(Options());
      });
}

} // namespace mlir::fuse

#endif // FUSEDIALECT_PIPELINEREGISTRATION_H
