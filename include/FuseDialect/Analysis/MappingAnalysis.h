//===- MappingAnalysis.h - Classify ops by mapping type ---------*- C++ -*-===//
//
// Derives the DNNFusion mapping type of an operation from its semantics:
// indexing maps and iterator types for linalg ops, shapes and traits for
// elementwise ops, and the documented semantics of TOSA and tensor data
// movement ops. See docs/MappingTypes.md for every choice.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_ANALYSIS_MAPPINGANALYSIS_H
#define FUSEDIALECT_ANALYSIS_MAPPINGANALYSIS_H

#include "FuseDialect/IR/FuseAttrs.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::fuse {

/// Returns the mapping type of `op`, or std::nullopt when the op is not a
/// computation the planner understands (unknown ops, constants, ops with
/// side effects, ops on non-tensor values). Ops with std::nullopt are never
/// touched by the fusion pipeline.
std::optional<MappingType> classifyMappingType(Operation *op);

/// Classifies one input of an all-parallel loop nest: `inputMap` reads the
/// input, `outputMap` writes the result. Identical maps are one-to-one; the
/// same loops in another order a shuffle; fewer (or constant) results a
/// broadcast, one-to-many; anything else (windows, strides, repeated dims)
/// many-to-many.
MappingType classifyParallelAccess(AffineMap inputMap, AffineMap outputMap);

/// Returns the mapping type recorded on `op` by `--fuse-annotate-mapping`,
/// if any.
std::optional<MappingType> getAnnotatedMappingType(Operation *op);

/// Records `type` on `op` as the discardable attribute `fuse.mapping`.
void setAnnotatedMappingType(Operation *op, MappingType type);

} // namespace mlir::fuse

#endif // FUSEDIALECT_ANALYSIS_MAPPINGANALYSIS_H
