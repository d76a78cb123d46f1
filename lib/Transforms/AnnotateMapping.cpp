//===- AnnotateMapping.cpp - Attach mapping types to ops ------------------===//
//
// Walks the IR and records the mapping type of every classified op as the
// discardable attribute `fuse.mapping`. The classification itself lives in
// FuseDialect/Analysis/MappingAnalysis.h; this pass only attaches it.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Analysis/MappingAnalysis.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Passes.h"

#define DEBUG_TYPE "fuse-annotate-mapping"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEANNOTATEMAPPINGPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FuseAnnotateMappingPass final
    : fuse::impl::FuseAnnotateMappingPassBase<FuseAnnotateMappingPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Operation *op) {
      if (op == getOperation() || isa<GroupOp, YieldOp>(op))
        return;
      std::optional<MappingType> type = classifyMappingType(op);
      if (!type) {
        op->removeAttr(FuseDialect::kMappingAttrName);
        // Only count computations, not constants or structural ops.
        if (op->getNumResults() > 0 && !op->hasTrait<OpTrait::ConstantLike>())
          ++numUnclassified;
        return;
      }
      setAnnotatedMappingType(op, *type);
      switch (*type) {
      case MappingType::OneToOne:
        ++numOneToOne;
        break;
      case MappingType::OneToMany:
        ++numOneToMany;
        break;
      case MappingType::ManyToMany:
        ++numManyToMany;
        break;
      case MappingType::Reorganize:
        ++numReorganize;
        break;
      case MappingType::Shuffle:
        ++numShuffle;
        break;
      }
    });
  }
};

} // namespace
