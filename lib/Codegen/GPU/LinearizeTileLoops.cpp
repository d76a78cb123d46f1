//===- LinearizeTileLoops.cpp - One dimension per tile loop ---------------===//
//
// A group's tile loop (`scf.parallel` from its `scf.forall`) has one
// dimension per tiled loop of the root, often with a unit outer dimension
// (batch 1). Collapsed into a single dimension, splitting it into GPU blocks
// of `block-size` threads gives every block full threads, whatever the
// shape.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSELINEARIZETILELOOPSPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

struct FuseLinearizeTileLoopsPass final
    : fuse::impl::FuseLinearizeTileLoopsPassBase<FuseLinearizeTileLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          loop.getNumLoops() > 1 && loop.getInitVals().empty())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::vector<unsigned> all(loop.getNumLoops());
      for (unsigned i = 0; i < all.size(); ++i)
        all[i] = i;
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
    }
  }
};

} // namespace
