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
// The estimate is the larger of two static counts: the instructions of the
// bufferized body (estimateWork), and the memory the nest moves, one
// instruction per 4 bytes of every distinct buffer it reads or writes from
// outside (getFootprintWork). The second is for nests that are few
// instructions over much memory: EfficientNet's squeeze-and-excitation
// scaling (`x * s[c]` over 112x112x32: 3.2 MB moved, about 1.4 * 10^5
// instructions) ran on one core while the other waited.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETHREADTILESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

// Work is unsigned and saturates (llvm::SaturatingMultiply, SaturatingAdd):
// a huge nest must not wrap around to look small; it is only compared with
// a bound.
using llvm::SaturatingAdd;
using llvm::SaturatingMultiply;

uint64_t estimateWork(Block &block);

/// The 512-bit vector instructions an operation on `type` takes once
/// lowered: one per 1-D vector of its innermost dimension, split into
/// 512-bit pieces.
uint64_t getVectorInstructions(VectorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.empty())
    return 1;
  uint64_t rows = 1;
  for (int64_t size : shape.drop_back())
    rows = SaturatingMultiply<uint64_t>(rows, size);
  uint64_t bits = type.getElementType().isIntOrFloat()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 64;
  return SaturatingMultiply<uint64_t>(
      rows, llvm::divideCeil(SaturatingMultiply<uint64_t>(shape.back(), bits),
                             512));
}

/// The instructions `op` takes, counted statically (the pass description).
uint64_t estimateWork(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    uint64_t points = 1;
    for (int64_t range : linalgOp.getStaticLoopRanges())
      points = SaturatingMultiply<uint64_t>(
          points, ShapedType::isDynamic(range) ? 1 : range);
    return points;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    uint64_t trips = 1;
    if (std::optional<APInt> count = forOp.getStaticTripCount())
      trips = count->getZExtValue();
    return SaturatingMultiply(trips, estimateWork(*forOp.getBody()));
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // One branch runs: the larger one (a merged nest's tiles run one body
    // or the other).
    uint64_t work = 0;
    for (Region &region : ifOp->getRegions())
      if (!region.empty())
        work = std::max(work, estimateWork(region.front()));
    return SaturatingAdd<uint64_t>(work, 1);
  }
  uint64_t work = 1;
  for (Type type : op->getResultTypes())
    if (auto vector = dyn_cast<VectorType>(type))
      work = std::max(work, getVectorInstructions(vector));
  for (Region &region : op->getRegions())
    for (Block &block : region)
      work = SaturatingAdd(work, estimateWork(block));
  return work;
}

uint64_t estimateWork(Block &block) {
  uint64_t work = 0;
  for (Operation &op : block)
    work = SaturatingAdd(work, estimateWork(&op));
  return work;
}

/// The memory `loop` moves, as instructions: one per 4 bytes (16 per cache
/// line) of each buffer defined outside the loop that its body uses. Views
/// of one buffer count once, at the largest view used; a buffer with a
/// dynamic shape counts nothing. An upper bound where tiles read only part
/// of a view, as a tile of a concatenation's part does.
uint64_t getFootprintWork(scf::ForallOp loop) {
  constexpr uint64_t kBytesPerInstruction = 4;
  llvm::SmallDenseMap<Value, uint64_t> bytesPerBuffer;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || !type.hasStaticShape() ||
          loop.getRegion().isAncestor(operand.getParentRegion()))
        continue;
      Value buffer = memref::skipViewLikeOps(cast<MemrefValue>(operand));
      uint64_t bytes = SaturatingMultiply<uint64_t>(
          type.getNumElements(), getElementBytes(type));
      uint64_t &largest = bytesPerBuffer[buffer];
      largest = std::max(largest, bytes);
    }
  });
  uint64_t bytes = 0;
  for (const auto &[buffer, size] : bytesPerBuffer)
    bytes = SaturatingAdd(bytes, size);
  return bytes / kBytesPerInstruction;
}

struct FuseThreadTilesPass final
    : fuse::impl::FuseThreadTilesPassBase<FuseThreadTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    // The bound of --fuse-lower-to-cpu's option (LowerToCPU.cpp).
    if (minParallelWork < 0) {
      emitError(getOperation()->getLoc())
          << "fuse-thread-tiles: min-parallel-work must be at least 0";
      return signalPassFailure();
    }
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
    std::optional<SmallVector<int64_t>> counts = getStaticTileCounts(loop);
    // Unknown extent: the cores, as a dynamic nest may be big; an empty
    // range has no tile to share.
    if (!counts)
      return !getStaticBounds(loop);
    uint64_t tiles = 1;
    for (int64_t count : *counts)
      tiles = SaturatingMultiply<uint64_t>(tiles, count);
    if (tiles < 2)
      return false;
    uint64_t work = std::max(
        SaturatingMultiply(tiles, estimateWork(*loop.getBody())),
        getFootprintWork(loop));
    return work >= static_cast<uint64_t>(minParallelWork);
  }
};

} // namespace
