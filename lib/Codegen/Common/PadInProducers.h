//===- PadInProducers.h - A group's result written with its halo -*- C++
//-*-===//
//
// Part of fuse-tile-groups (the algorithm is at the top of
// PadInProducers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CODEGEN_COMMON_PADINPRODUCERS_H
#define FUSEDIALECT_LIB_CODEGEN_COMMON_PADINPRODUCERS_H

#include "FuseDialect/IR/FuseOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {

/// In `groups` (bodies on linalg-on-tensors, before tiling), every
/// `tensor.pad` of a group input that another group computes reads instead
/// a padded tensor into which that group's result is inserted, built once
/// outside the groups. Returns how many pads went.
unsigned padInProducers(RewriterBase &rewriter, ArrayRef<GroupOp> groups);

} // namespace mlir::fuse

#endif // FUSEDIALECT_LIB_CODEGEN_COMMON_PADINPRODUCERS_H
