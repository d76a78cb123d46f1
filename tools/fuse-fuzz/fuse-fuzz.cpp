//===- fuse-fuzz.cpp - libFuzzer harness for the fusion pipeline ----------===//
//
// Each input is MLIR text: parse, verify, run `--fuse-ops` with the verifier
// after every pass, verify again. An input whose first line is
// `// options: TEXT` runs `--fuse-ops` with the options TEXT (parsed and
// validated as the pipeline registration does), and TEXT is also parsed
// and validated as options of both lowerings (not run: too slow per
// input). Invalid input, bad options and pipelines that fail with a
// diagnostic are fine; a crash, a sanitizer report, or a pipeline that
// succeeds and leaves invalid IR is a bug. Built with
// -DFUSE_ENABLE_FUZZER=ON and clang (scripts/fuzz.sh), with the project's
// libraries instrumented; seed corpus: the lit tests' functions.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/Codegen/CPU/Pipelines.h"
#include "FuseDialect/Codegen/GPU/Pipelines.h"
#include "FuseDialect/Transforms/Pipelines.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, math::MathDialect, scf::SCFDialect,
                    tensor::TensorDialect, tosa::TosaDialect,
                    fuse::FuseDialect>();
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    ctx->disableMultithreading();
    return ctx;
  }();
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  // Diagnostics are expected (most inputs are invalid): keep them quiet.
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  // MLIR's lexer reads up to a terminating NUL: the input gets one.
  std::string text(reinterpret_cast<const char *>(data), size);
  fuse::FuseOpsOptions options;
  StringRef prefix = "// options:";
  if (StringRef(text).starts_with(prefix)) {
    StringRef line = StringRef(text).split('\n').first.drop_front(prefix.size());
    auto refuse = [](const Twine &) { return failure(); };
    fuse::LowerToCPUOptions cpu;
    fuse::LowerToNVVMOptions nvvm;
    if (succeeded(cpu.parseFromString(line)))
      (void)cpu.validate(refuse);
    if (succeeded(nvvm.parseFromString(line)))
      (void)nvvm.validate(refuse);
    if (failed(options.parseFromString(line)) ||
        failed(options.validate(refuse)))
      return 0;
    // Files: the fuzzer names none (no output anywhere, no input read).
    options.report = "";
    options.dot = "";
    options.profile = "";
  }
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  pm.enableVerifier(true);
  fuse::buildFuseOpsPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 0;
  if (failed(verify(*module)))
    std::abort(); // the pipeline succeeded and left invalid IR
  return 0;
}
