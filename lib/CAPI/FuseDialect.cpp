//===- FuseDialect.cpp - C API of the fuse dialect and its pipelines ------===//
//
// See include/FuseDialect-c/FuseDialect.h. The typed entry points wrap the
// C++ API with MLIR's C API conventions (header-only wrap/unwrap); the
// string entry points own a context of their own, so that a binding needs
// nothing but this library.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect-c/FuseDialect.h"

#include "FuseDialect/IR/FuseAttrs.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/InitAllPasses.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Fuse, fuse, fuse::FuseDialect)

MlirAttribute fuseMappingAttrGet(MlirContext context, FuseMappingType type) {
  std::optional<fuse::MappingType> mapping =
      fuse::symbolizeMappingType(static_cast<uint32_t>(type));
  if (mlirContextIsNull(context) || !mapping)
    return MlirAttribute{nullptr};
  MLIRContext *ctx = unwrap(context);
  ctx->getOrLoadDialect<fuse::FuseDialect>();
  return wrap(fuse::MappingTypeAttr::get(ctx, *mapping));
}

bool fuseAttributeIsAMapping(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<fuse::MappingTypeAttr>(unwrap(attr));
}

FuseMappingType fuseMappingAttrGetValue(MlirAttribute attr) {
  if (!fuseAttributeIsAMapping(attr))
    return FuseMappingManyToMany;
  return static_cast<FuseMappingType>(
      static_cast<uint32_t>(cast<fuse::MappingTypeAttr>(unwrap(attr)).getValue()));
}

void fuseRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    fuse::registerAllFusePasses();
  });
}

static char *copyString(const std::string &s) {
  char *out = static_cast<char *>(std::malloc(s.size() + 1));
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

char *fuseRunPipeline(const char *moduleText, const char *pipeline,
                      char **diagnostics) {
  if (!moduleText || !pipeline) {
    if (diagnostics)
      *diagnostics = copyString(std::string("error: fuseRunPipeline: ") +
                                (moduleText ? "pipeline" : "moduleText") +
                                " is NULL\n");
    return nullptr;
  }
  fuseRegisterPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // gpu-module-to-binary (--fuse-lower-to-nvvm) translates to LLVM IR.
  registerAllToLLVMIRTranslations(registry);
  registry.insert<fuse::FuseDialect>();
  MLIRContext context(registry);
  context.disableMultithreading();

  std::string messages;
  llvm::raw_string_ostream os(messages);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    os << diag.getLocation() << ": "
       << (diag.getSeverity() == DiagnosticSeverity::Error     ? "error"
           : diag.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                               : "remark")
       << ": " << diag << "\n";
    return success();
  });
  auto fail = [&]() -> char * {
    if (diagnostics)
      *diagnostics = copyString(messages);
    return nullptr;
  };

  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(moduleText, &context);
  if (!module)
    return fail();
  // The pipeline text names its anchor (`builtin.module(...)`): the pass
  // manager is anchored there, not nested one level below.
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, os);
  if (failed(parsed))
    return fail();
  PassManager pm(&context, parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = *parsed;
  pm.enableVerifier(true);
  if (failed(pm.run(*module)))
    return fail();
  std::string text;
  llvm::raw_string_ostream out(text);
  module->print(out);
  if (diagnostics)
    *diagnostics = copyString(messages);
  return copyString(text);
}

void fuseFreeString(char *string) { std::free(string); }
