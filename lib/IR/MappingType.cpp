//===- MappingType.cpp - The DNNFusion mapping-type lattice ---------------===//

#include "FuseDialect/IR/MappingType.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fuse;

MappingType mlir::fuse::joinMappingTypes(MappingType lhs, MappingType rhs) {
  // The enum cases are declared in order of complexity.
  return static_cast<MappingType>(
      std::max(static_cast<uint32_t>(lhs), static_cast<uint32_t>(rhs)));
}

static bool isIndexRemap(MappingType type) {
  return type == MappingType::Shuffle || type == MappingType::Reorganize;
}

FusionProfitability mlir::fuse::classifyFusion(MappingType producer,
                                               MappingType consumer) {
  // A consumer that reads every element many times would recompute an
  // expanding or reducing producer for each read.
  if (consumer == MappingType::ManyToMany &&
      (producer == MappingType::OneToMany ||
       producer == MappingType::ManyToMany))
    return FusionProfitability::Never;
  // One-to-One fuses with anything: the element it computes is consumed
  // exactly where it is produced.
  if (producer == MappingType::OneToOne || consumer == MappingType::OneToOne)
    return FusionProfitability::Always;
  // Two index remappings compose into one index remapping.
  if (isIndexRemap(producer) && isIndexRemap(consumer))
    return FusionProfitability::Always;
  return FusionProfitability::Maybe;
}

std::optional<MappingType>
mlir::fuse::getFusedMappingType(MappingType producer, MappingType consumer) {
  if (classifyFusion(producer, consumer) == FusionProfitability::Never)
    return std::nullopt;
  return joinMappingTypes(producer, consumer);
}

StringRef mlir::fuse::getMappingTypeDisplayName(MappingType type) {
  switch (type) {
  case MappingType::OneToOne:
    return "One-to-One";
  case MappingType::Shuffle:
    return "Shuffle";
  case MappingType::Reorganize:
    return "Reorganize";
  case MappingType::OneToMany:
    return "One-to-Many";
  case MappingType::ManyToMany:
    return "Many-to-Many";
  }
  llvm_unreachable("unknown mapping type");
}
