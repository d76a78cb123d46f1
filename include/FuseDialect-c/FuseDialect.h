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

/// Every entry point takes untrusted arguments: a null context, attribute
/// or string, or a value outside an enum, is refused (a null result, false,
/// or an error), never dereferenced.

/// `#fuse.mapping<type>` in `context` (the fuse dialect is loaded); a null
/// attribute (mlirAttributeIsNull) for a null context or a `type` that is
/// not a FuseMappingType.
MLIR_CAPI_EXPORTED MlirAttribute fuseMappingAttrGet(MlirContext context,
                                                    FuseMappingType type);
/// Whether `attr` is a `#fuse.mapping<...>` (false for a null attribute).
MLIR_CAPI_EXPORTED bool fuseAttributeIsAMapping(MlirAttribute attr);
/// The mapping type of a `#fuse.mapping<...>` attribute; for any other
/// attribute (or null), FuseMappingManyToMany, the most conservative.
MLIR_CAPI_EXPORTED FuseMappingType fuseMappingAttrGetValue(MlirAttribute attr);

/// Registers every fuse pass and pipeline (`fuse-ops`, `fuse-lower-to-cpu`,
/// `fuse-lower-to-nvvm`, ...) with MLIR's global pass registry, so that
/// textual pipelines can name them. Idempotent.
MLIR_CAPI_EXPORTED void fuseRegisterPasses(void);

/// Convenience for bindings: parses `moduleText` (TOSA, linalg, fuse and
/// every upstream dialect are known), runs the textual pass `pipeline`
/// (e.g. "builtin.module(fuse-ops{max-group-size=8})") with the verifier after each
/// pass, and returns the printed result (free it with fuseFreeString). On
/// failure (including a NULL `moduleText` or `pipeline`, a pipeline not
/// anchored on builtin.module, or bad pipeline options) returns NULL and, if
/// `diagnostics` is not NULL, sets it to the diagnostics with their
/// locations (free with fuseFreeString). Output files are only those the
/// pipeline's own options name (e.g. `report=`).
MLIR_CAPI_EXPORTED char *fuseRunPipeline(const char *moduleText,
                                         const char *pipeline,
                                         char **diagnostics);

/// Frees a string returned by this API.
MLIR_CAPI_EXPORTED void fuseFreeString(char *string);

#ifdef __cplusplus
}
#endif

#endif // FUSEDIALECT_C_FUSEDIALECT_H
