/*===- FuseDialect.h - C API of the fuse dialect and its pipelines -------===*\
|*                                                                            *|
|* For compilers that embed FuseDialect through MLIR's C API, and for        *|
|* bindings (python/fuse_dialect/api.py uses the string entry points with     *|
|* ctypes). Library: libFuseDialectCAPI.so (FuseDialect::FuseDialectCAPI).    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSEDIALECT_C_FUSEDIALECT_H
#define FUSEDIALECT_C_FUSEDIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The `fuse` dialect: mlirGetDialectHandle__fuse__().
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Fuse, fuse);

/// How a op's input elements map to its output elements, from the simplest
/// to the most complex (the cases of `#fuse.mapping<...>`).
typedef enum FuseMappingType {
  FuseMappingOneToOne = 0,
  FuseMappingShuffle = 1,
  FuseMappingReorganize = 2,
  FuseMappingOneToMany = 3,
  FuseMappingManyToMany = 4,
} FuseMappingType;

/// `#fuse.mapping<type>` in `context` (the fuse dialect is loaded).
MLIR_CAPI_EXPORTED MlirAttribute fuseMappingAttrGet(MlirContext context,
                                                    FuseMappingType type);
/// Whether `attr` is a `#fuse.mapping<...>`.
MLIR_CAPI_EXPORTED bool fuseAttributeIsAMapping(MlirAttribute attr);
/// The mapping type of a `#fuse.mapping<...>` attribute.
MLIR_CAPI_EXPORTED FuseMappingType fuseMappingAttrGetValue(MlirAttribute attr);

/// Registers every fuse pass and pipeline (`fuse-ops`, `fuse-lower-to-cpu`,
/// `fuse-lower-to-nvvm`, ...) with MLIR's global pass registry, so that
/// textual pipelines can name them. Idempotent.
MLIR_CAPI_EXPORTED void fuseRegisterPasses(void);

/// Convenience for bindings: parses `moduleText` (TOSA, linalg, fuse and
/// every upstream dialect are known), runs the textual pass `pipeline`
/// (e.g. "builtin.module(fuse-ops{report=-})") with the verifier after each
/// pass, and returns the printed result (free it with fuseFreeString). On
/// failure returns NULL and, if `diagnostics` is not NULL, sets it to the
/// diagnostics with their locations (free with fuseFreeString).
MLIR_CAPI_EXPORTED char *fuseRunPipeline(const char *moduleText,
                                         const char *pipeline,
                                         char **diagnostics);

/// Frees a string returned by this API.
MLIR_CAPI_EXPORTED void fuseFreeString(char *string);

#ifdef __cplusplus
}
#endif

#endif // FUSEDIALECT_C_FUSEDIALECT_H
