//===- MappingType.h - The DNNFusion mapping-type lattice -------*- C++ -*-===//
//
// Helpers over `fuse::MappingType` that the fusion planner consults: the type
// of a fused pair and whether fusing a pair is always, never or maybe
// profitable (DNNFusion, PLDI 2021, Table 3).
//
//   producer \ consumer | 1:1  | shuf | reorg | 1:N   | N:N
//   --------------------+------+------+-------+-------+------
//   one_to_one          | 1:1  | shuf | reorg | 1:N   | N:N     always
//   shuffle             | shuf | shuf | reorg | 1:N ? | N:N ?
//   reorganize          | reorg| reorg| reorg | 1:N ? | N:N ?
//   one_to_many         | 1:N  | 1:N ?| 1:N ? | 1:N ? | never
//   many_to_many        | N:N  | N:N ?| N:N ? | N:N ? | never
//
// `?` cells are decided by a cost model. The fused type is always the more
// complex of the two, i.e. the maximum in the order
// one_to_one < shuffle < reorganize < one_to_many < many_to_many, which is the
// order of the enum cases.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_IR_MAPPINGTYPE_H
#define FUSEDIALECT_IR_MAPPINGTYPE_H

#include "FuseDialect/IR/FuseAttrs.h"

#include <optional>

namespace mlir::fuse {

/// Whether fusing a producer of one mapping type into a consumer of another
/// pays off regardless of sizes (`Always`), never does (`Never`), or needs a
/// cost model (`Maybe`).
enum class FusionProfitability { Always, Maybe, Never };

/// Returns the more complex of two mapping types (the lattice join).
MappingType joinMappingTypes(MappingType lhs, MappingType rhs);

/// Returns how profitable it is to fuse `producer` into `consumer`, where the
/// consumer reads the producer's result.
FusionProfitability classifyFusion(MappingType producer, MappingType consumer);

/// Returns the mapping type of the op obtained by fusing `producer` into
/// `consumer`, or std::nullopt when the pair must not be fused.
std::optional<MappingType> getFusedMappingType(MappingType producer,
                                               MappingType consumer);

/// Returns a short human-readable name ("One-to-One", ...).
llvm::StringRef getMappingTypeDisplayName(MappingType type);

} // namespace mlir::fuse

#endif // FUSEDIALECT_IR_MAPPINGTYPE_H
