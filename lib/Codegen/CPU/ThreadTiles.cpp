//===- ThreadTiles.cpp - Tile loops on all cores where it pays ------------===//
//
// The parallel CPU lowering's choice, per tile loop, between the cores and
// the calling thread:
//
//   scf.forall (%t) = (0) to (8) step (1) { body }     // on buffers
//
// becomes `scf.parallel` (an OpenMP worksharing loop after
// convert-scf-to-openmp) when it has two tiles or more and its static work
// estimate reaches `min-parallel-work`; otherwise `scf.for`, with the
// static temporaries its body allocates hoisted before it, as the serial
// lowering does. A tile's code is the same either way, so the choice changes no
// value, only where the tiles run and what a small nest pays for a fork.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETHREADTILESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// a * b, saturating at INT64_MAX (the estimate only compares with a bound).
int64_t mulSat(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > std::numeric_limits<int64_t>::max() / b
             ? std::numeric_limits<int64_t>::max()
             : a * b;
}

int64_t addSat(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b
             ? std::numeric_limits<int64_t>::max()
             : a + b;
}

int64_t estimateWork(Block &block);

/// The 512-bit vector instructions an operation on `type` takes once
/// lowered: one per 1-D vector of its innermost dimension, split into
/// 512-bit pieces.
int64_t getVectorInstructions(VectorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.empty())
    return 1;
  int64_t rows = 1;
  for (int64_t size : shape.drop_back())
    rows = mulSat(rows, size);
  unsigned bits = type.getElementType().isIntOrFloat()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 64;
  return mulSat(rows, llvm::divideCeil(shape.back() * bits, 512));
}

/// The instructions `op` takes, counted statically (the pass description).
int64_t estimateWork(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    int64_t points = 1;
    for (int64_t range : linalgOp.getStaticLoopRanges())
      points = mulSat(points, ShapedType::isDynamic(range) ? 1 : range);
    return points;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    int64_t trips = 1;
    if (std::optional<APInt> count = forOp.getStaticTripCount())
      trips = count->getZExtValue();
    return mulSat(trips, estimateWork(*forOp.getBody()));
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // One branch runs: the larger one (a merged nest's tiles run one body
    // or the other).
    int64_t work = 0;
    for (Region &region : ifOp->getRegions())
      if (!region.empty())
        work = std::max(work, estimateWork(region.front()));
    return addSat(work, 1);
  }
  int64_t work = 1;
  for (Type type : op->getResultTypes())
    if (auto vector = dyn_cast<VectorType>(type))
      work = std::max(work, getVectorInstructions(vector));
  for (Region &region : op->getRegions())
    for (Block &block : region)
      work = addSat(work, estimateWork(block));
  return work;
}

int64_t estimateWork(Block &block) {
  int64_t work = 0;
  for (Operation &op : block)
    work = addSat(work, estimateWork(&op));
  return work;
}

struct FuseThreadTilesPass final
    : fuse::impl::FuseThreadTilesPassBase<FuseThreadTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForallOp> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      if (loop.getNumResults() == 0)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp loop : loops) {
      rewriter.setInsertionPoint(loop);
      if (runsInParallel(loop)) {
        if (failed(scf::forallToParallelLoop(rewriter, loop)))
          return signalPassFailure();
        continue;
      }
      SmallVector<Operation *> fors;
      if (failed(scf::forallToForLoop(rewriter, loop, &fors)))
        return signalPassFailure();
      if (!fors.empty())
        hoistTemporaries(cast<scf::ForOp>(fors.front()));
    }
  }

  /// Moves the static heap temporaries of `loop`'s iterations before it, as
  /// buffer loop hoisting does in the serial lowering (which would also
  /// hoist them out of the parallel loops: one buffer for all threads): an
  /// operand-less `memref.alloc` whose ancestors up to `loop` are all
  /// `scf.for` loops. An iteration's temporary does not outlive it (tile
  /// loops have no results), and bufferization's deallocation comes later.
  static void hoistTemporaries(scf::ForOp loop) {
    SmallVector<memref::AllocOp> allocs;
    loop->walk([&](memref::AllocOp alloc) {
      if (alloc->getNumOperands() != 0)
        return;
      for (Operation *parent = alloc->getParentOp(); parent != loop;
           parent = parent->getParentOp())
        if (!isa<scf::ForOp>(parent))
          return;
      allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs)
      alloc->moveBefore(loop);
  }

  bool runsInParallel(scf::ForallOp loop) const {
    if (!getStaticBounds(loop))
      return true; // unknown extent: the cores, as a dynamic nest may be big
    std::optional<SmallVector<int64_t>> counts = getStaticTileCounts(loop);
    if (!counts)
      return false; // no tile (an empty range)
    int64_t tiles = 1;
    for (int64_t count : *counts)
      tiles = mulSat(tiles, count);
    if (tiles < 2)
      return false;
    return mulSat(tiles, estimateWork(*loop.getBody())) >= minParallelWork;
  }
};

} // namespace
