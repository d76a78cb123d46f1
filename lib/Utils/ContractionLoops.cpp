//===- ContractionLoops.cpp - A contraction's row and column loops --------===//

#include "FuseDialect/Utils/ContractionLoops.h"

using namespace mlir;
using namespace mlir::fuse;

ContractionLoops mlir::fuse::getContractionLoops(linalg::LinalgOp op,
                                                 bool skipUnitLoops) {
  if (op.getNumDpsInits() != 1)
    return {};
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ContractionLoops loops;
  for (AffineExpr result : llvm::reverse(
           op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (skipUnitLoops && (!dim || ranges[dim.getPosition()] == 1))
      continue;
    if (!loops.n) {
      if (!dim || !llvm::is_contained(dims->n, dim.getPosition()))
        return {};
      loops.n = dim.getPosition();
    } else if (dim && llvm::is_contained(dims->m, dim.getPosition())) {
      loops.m = dim.getPosition();
      break;
    }
  }
  return loops;
}
