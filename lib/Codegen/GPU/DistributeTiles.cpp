//===- DistributeTiles.cpp - One GPU block per tile, its threads inside ---===//
//
// After bufferization a group is one `scf.forall` over its tiles whose body
// computes a tile with structured ops on memrefs: the group's inputs and
// outputs as subviews of global buffers, its intermediates in the tile's own
// temporaries (`memref.alloc` in the body). This pass makes each such loop
// one `gpu.launch` with one block per tile, and shares each op of the tile
// among the block's threads:
//
//  * The tile's temporaries live in shared memory (workgroup attributions of
//    the launch) when their shapes are static and they fit in 48 KiB (the
//    two that the branches of a tiled pad yield share one buffer); the
//    others (dynamic sizes, bounded by the tile) in a device scratch buffer
//    with one slice per block, allocated around the launch.
//  * Each structured op becomes a loop over its parallel iteration points,
//    linearized and strided by the block size (consecutive threads take
//    consecutive points: coalesced accesses on the innermost dimension),
//    with its reduction loops inside. A `gpu.barrier` after each op makes
//    its writes visible to the next op's threads (inside a branch of the
//    tile body when the op is in one: its condition is the same on every
//    thread); one before an op guards what every thread loaded on its own.
//  * An elementwise op whose innermost loop is a multiple of 4 reads and
//    writes 16-byte vectors when every buffer's address, offset and row
//    strides allow (checked at run time, the same on all threads), scalars
//    otherwise.
//  * An input of the tile that a reduction and other ops read (a softmax or
//    LayerNorm row) is copied to shared memory once, before its first
//    reader, and read there: one pass over global memory instead of one
//    per op.
//  * A contraction (matmul) stages the slices of both operands its tile
//    reads in shared memory, chunk by chunk of its reduction, each copied
//    by the whole block; each thread then accumulates its points from
//    shared memory, a micro-tile of them in registers where the tile is
//    M x N. A convolution is such a matmul (output pixels by filters), its
//    window loops outside the chunks of channels. On tensor cores (f16 and
//    bf16 operands; f32 as TF32 with `tf32`) each warp takes 16x8 pieces of
//    the tile instead, its lanes' accumulator fragments in registers, one
//    mma.sync per piece and k steps.
//  * A reduction whose parallel points would leave most threads idle (a
//    tile's rows in softmax, LayerNorm, a global pool) is split across the
//    threads
//    instead: each thread reduces a strided part of every row from the
//    combiner's neutral element, `gpu.all_reduce` (warp shuffles and shared
//    memory) combines the partial results, and one thread combines the total
//    into the output; a barrier ends each row (the next row's all_reduce
//    reuses the lowering's buffer). This reassociates the reduction, as
//    every parallel reduction does: floating-point sums can differ from the
//    sequential order in the last bits (`cooperative-reductions=false`
//    keeps the order).
//
// Tiles whose body this cannot distribute (ops with other regions or side
// effects, outputs that several points write, dynamic tile counts,
// temporaries without a constant bound) are left to the thread-per-tile
// mapping that follows in --fuse-lower-to-nvvm.
//
// The parts live in Distribute/ (shared declarations in Distribute.h): where
// temporaries live (Memory.cpp), the code every thread runs
// (ThreadCode.cpp), 16-byte accesses (VectorAccesses.cpp), staged,
// register-tiled and tensor-core contractions (Contraction.cpp,
// RegisterTiling.cpp, TensorCores.cpp) and staged inputs
// (StagedInputs.cpp); this file decides per op which to emit, and holds the
// pass. fuse-annotate-kernels (AnnotateKernels.cpp) then sets what the NVVM
// backend reads on the outlined kernels. Every hardware constant comes from
// GpuDescription (FuseDialect/Target/TargetDescription.h).
//
//===----------------------------------------------------------------------===//

#include "Distribute/Distribute.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDISTRIBUTETILESPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::distribute;

namespace {

/// Replaces `op` by loops that share its iterations among the block's
/// threads, followed by a barrier.
void distribute(IRRewriter &rewriter, linalg::LinalgOp op,
                ThreadContext &threads) {
  Location loc = op.getLoc();
  if (readsSinceBarrier(op)) {
    rewriter.setInsertionPoint(op);
    gpu::BarrierOp::create(rewriter, loc);
  }
  if (auto it = threads.registerTilings->find(op);
      it != threads.registerTilings->end()) {
    if (it->second.mma)
      emitMmaTiled(rewriter, op, it->second, threads);
    else
      emitRegisterTiled(rewriter, op, it->second, threads);
    gpu::BarrierOp::create(rewriter, loc);
    return;
  }
  if (succeeded(stageContraction(rewriter, op, threads))) {
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return;
  }
  rewriter.setInsertionPoint(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<Value> parallelSizes, reductionSizes;
  for (auto [range, iterator] :
       llvm::zip(op.createLoopRanges(rewriter, loc), iterators)) {
    Value size = getValueOrCreateConstantIndexOp(rewriter, loc, range.size);
    (iterator == utils::IteratorType::parallel ? parallelSizes
                                               : reductionSizes)
        .push_back(size);
  }
  Value numPoints = product(rewriter, loc, parallelSizes);
  Value numReduced = product(rewriter, loc, reductionSizes);
  Value zero = constantIndex(rewriter, loc, 0);
  Value one = constantIndex(rewriter, loc, 1);

  // Split the reduction when that shortens the longest thread: each of the
  // P points then takes ceil(R/B) steps plus a block reduction (about 16
  // steps: five shuffles, a barrier, five more), against ceil(P/B) * R
  // steps when each thread reduces its own points.
  Operation *combiner =
      threads.cooperativeReductions ? getCombiner(op) : nullptr;
  bool cooperative = false;
  // Each gpu.all_reduce's lowering takes shared memory. That lowering
  // (upstream's, in convert-gpu-to-nvvm) ends with every lane of the first
  // warp that reduced a warp's partial storing its result to one word; the
  // lanes agree only when the number of warps is a power of two (with 3
  // warps, lane 1 misses warp 2's partial), so other block sizes reduce
  // per thread.
  constexpr int64_t kAllReduceBytes = GpuDescription::kAllReduceSharedBytes;
  int64_t warps = llvm::divideCeil(threads.staticBlockSize, distribute::kWarpSize);
  if (combiner && llvm::isPowerOf2_64(warps) &&
      threads.sharedBytesLeft >= kAllReduceBytes) {
    std::optional<int64_t> points = getConstantIntValue(numPoints);
    std::optional<int64_t> reduced = getConstantIntValue(numReduced);
    int64_t threadCount = threads.staticBlockSize;
    cooperative =
        points && reduced &&
        *points * (llvm::divideCeil(*reduced, threadCount) + 16) <
            llvm::divideCeil(*points, threadCount) * *reduced;
    if (cooperative)
      threads.sharedBytesLeft -= kAllReduceBytes;
  }

  if (cooperative) {
    // for each parallel point (the same on every thread):
    //   partial = reduce(neutral, this thread's strided share of the row)
    //   total = all_reduce(partial); out = combine(total, out) by thread 0
    Value accumulatorArg = op.getRegionOutputArgs()[0];
    Type type = combiner->getResult(0).getType();
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, *arith::getNeutralElement(combiner));
    auto points = scf::ForOp::create(rewriter, loc, zero, numPoints, one);
    rewriter.setInsertionPointToStart(points.getBody());
    SmallVector<Value> parallelIvs =
        delinearize(rewriter, loc, points.getInductionVar(), parallelSizes);
    Value partial = emitThreadShare(rewriter, op, combiner, neutral,
                                    parallelIvs, reductionSizes, numReduced,
                                    threads);
    auto allReduce = gpu::AllReduceOp::create(
        rewriter, loc, type, partial, gpu::AllReduceOperationAttr(),
        /*uniform=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *block = rewriter.createBlock(&allReduce.getBody(), {},
                                          {type, type}, {loc, loc});
      Value combined = combine(rewriter, combiner, accumulatorArg,
                               block->getArgument(0), block->getArgument(1));
      gpu::YieldOp::create(rewriter, loc, combined);
    }
    SmallVector<Value> zeros(reductionSizes.size(), zero);
    SmallVector<Value> ivs = mergeIndices(iterators, parallelIvs, zeros);
    Value first = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, threads.threadId, zero);
    auto ifFirst = scf::IfOp::create(rewriter, loc, first);
    rewriter.setInsertionPointToStart(ifFirst.thenBlock());
    Value init = loadOutputs(rewriter, loc, op, ivs, /*always=*/true)[0];
    Value result =
        combine(rewriter, combiner, accumulatorArg, allReduce.getResult(), init);
    storeOutputs(rewriter, loc, op, ivs, result);
    // The next point's all_reduce reuses the lowering's shared buffer: no
    // warp may write its share before every warp has read this total.
    if (!isConstantIntValue(numPoints, 1)) {
      rewriter.setInsertionPointAfter(ifFirst);
      gpu::BarrierOp::create(rewriter, loc);
    }
    rewriter.setInsertionPointAfter(points);
  } else {
    // for each parallel point of this thread (strided by the block size):
    //   out = the op at that point, its reductions sequential.
    // An elementwise op over aligned rows takes vectors of 4 instead (one
    // 16-byte access per operand), when the buffers' alignment allows.
    scf::IfOp ifAligned;
    if (std::optional<SmallVector<VectorAccess>> accesses =
            getVectorAccesses(op)) {
      ifAligned = scf::IfOp::create(
          rewriter, loc, getVectorCondition(rewriter, op, *accesses),
          /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(ifAligned.thenBlock());
      emitVectorLoop(rewriter, op, *accesses, threads);
      rewriter.setInsertionPointToStart(ifAligned.elseBlock());
    }
    auto points = scf::ForOp::create(rewriter, loc, threads.threadId,
                                     numPoints, threads.blockSize);
    rewriter.setInsertionPointToStart(points.getBody());
    SmallVector<Value> parallelIvs =
        delinearize(rewriter, loc, points.getInductionVar(), parallelSizes);
    SmallVector<Value> zeros(reductionSizes.size(), zero);
    bool reduces = !reductionSizes.empty();
    SmallVector<Value> outs = loadOutputs(
        rewriter, loc, op, mergeIndices(iterators, parallelIvs, zeros),
        /*always=*/reduces);
    SmallVector<Value> reductionIvs;
    SmallVector<scf::ForOp> nest;
    for (Value size : reductionSizes) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, size, one,
                                     nest.empty() ? ValueRange(outs)
                                                  : nest.back().getRegionIterArgs());
      if (!nest.empty())
        scf::YieldOp::create(rewriter, loc, loop.getResults());
      nest.push_back(loop);
      reductionIvs.push_back(loop.getInductionVar());
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    SmallVector<Value> ivs = mergeIndices(iterators, parallelIvs, reductionIvs);
    SmallVector<Value> results = emitPayload(
        rewriter, loc, op, ivs,
        nest.empty() ? ValueRange(outs) : nest.back().getRegionIterArgs());
    if (!nest.empty()) {
      scf::YieldOp::create(rewriter, loc, results);
      results = llvm::to_vector_of<Value>(nest.front().getResults());
      rewriter.setInsertionPointAfter(nest.front());
    }
    storeOutputs(rewriter, loc, op,
                 mergeIndices(iterators, parallelIvs, zeros), results);
    rewriter.setInsertionPointAfter(ifAligned ? ifAligned.getOperation()
                                              : points.getOperation());
  }
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(op);
}

/// Erases the barriers of `launch` that follow another barrier with no
/// memory access between: after a loop or a branch that ends with one (a
/// chunk loop's closing barrier, then the epilogue's), the second waits for
/// nothing.
void eraseRedundantBarriers(gpu::LaunchOp launch) {
  SmallVector<gpu::BarrierOp> redundant;
  launch.getBody().walk([&](gpu::BarrierOp barrier) {
    for (Operation *op = barrier->getPrevNode(); op; op = op->getPrevNode()) {
      if (touchesNoMemory(op))
        continue;
      if (endsWithBarrier(op))
        redundant.push_back(barrier);
      return;
    }
  });
  for (gpu::BarrierOp barrier : redundant)
    barrier->erase();
}

struct FuseDistributeTilesPass final
    : fuse::impl::FuseDistributeTilesPassBase<FuseDistributeTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > GpuDescription::kMaxBlockThreads) {
      emitError(getOperation()->getLoc())
          << "fuse-distribute-tiles: block-size must be in [1, "
          << GpuDescription::kMaxBlockThreads << "], not "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ForallOp> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      if (!loop->getParentOfType<scf::ForallOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>() && loop.getNumResults() == 0)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp loop : loops)
      (void)distributeLoop(rewriter, loop);
    getOperation()->walk(
        [](gpu::LaunchOp launch) { eraseRedundantBarriers(launch); });
  }

  /// The contractions tensor cores take: none with fma=false (their sums
  /// are not separately rounded IEEE additions).
  TensorCores getTensorCores() const {
    return TensorCores{tf32 && fma, tensorCores && fma};
  }

  LogicalResult distributeLoop(IRRewriter &rewriter, scf::ForallOp loop) {
    std::optional<SmallVector<int64_t>> tripCounts = getStaticTileCounts(loop);
    DenseMap<Operation *, int64_t> tempBytes;
    if (!tripCounts || !fuse::isPlainTileLoop(loop) ||
        !isDistributable(loop.getRegion(), loop, tempBytes))
      return failure();
    int64_t numTiles = 1;
    for (int64_t count : *tripCounts) {
      numTiles *= count;
      if (numTiles >= (int64_t(1) << 31))
        return failure();
    }

    // Register-tiled contractions first: their staged slices are reserved
    // before the temporaries take shared memory, and the temporaries they
    // absorb take none.
    DenseMap<Operation *, RegisterTiling> registerTilings;
    DenseSet<Operation *> absorbed;
    int64_t reservedBytes = 0;
    loop.getBody()->walk([&](linalg::LinalgOp op) {
      std::optional<RegisterTiling> tiling =
          getRegisterTiling(op, blockSize, getTensorCores(), implicitGemm);
      if (!tiling || reservedBytes + tiling->stagedBytes > kSharedMemoryBytes)
        return;
      reservedBytes += tiling->stagedBytes;
      if (tiling->epilogue)
        for (Operation *end :
             {tiling->initializer.getOperation(),
              tiling->epilogue.getOperation(), tiling->temp.getOperation()})
          absorbed.insert(end);
      registerTilings[op] = std::move(*tiling);
    });

    // Temporaries: shared memory while it lasts (static shapes; the
    // temporaries two branches yield as one result share a buffer), the
    // rest in scratch.
    SmallVector<SmallVector<memref::AllocOp>> shared;
    SmallVector<memref::AllocOp> scratch;
    DenseSet<Operation *> inShared;
    SmallVector<int64_t> scratchOffsets;
    int64_t sharedBytes = 0, scratchBytes = 0;
    loop.getBody()->walk([&](memref::AllocOp alloc) {
      if (inShared.contains(alloc) || absorbed.contains(alloc))
        return; // a partner of an earlier branch's temporary, or absorbed
      int64_t bytes = tempBytes.lookup(alloc);
      int64_t padded = llvm::alignTo(bytes, kSharedAlignment);
      if (alloc.getType().hasStaticShape() &&
          sharedBytes + padded <= kSharedMemoryBytes - reservedBytes &&
          canChangeMemorySpace(alloc.getResult())) {
        SmallVector<memref::AllocOp> unit = getSharedUnit(alloc);
        if (!unit.empty() && llvm::all_of(unit, [&](memref::AllocOp a) {
              return !inShared.contains(a) &&
                     canChangeMemorySpace(a.getResult());
            })) {
          sharedBytes += padded;
          for (memref::AllocOp a : unit)
            inShared.insert(a);
          shared.push_back(unit);
          return;
        }
      }
      scratch.push_back(alloc);
      scratchOffsets.push_back(scratchBytes);
      scratchBytes += llvm::alignTo(bytes, kScratchAlignment);
    });

    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    Value one = constantIndex(rewriter, loc, 1);
    Value scratchBuffer;
    if (!scratch.empty()) {
      // Device memory (the runtime lowering allocates it on a stream: wait,
      // allocate, wait).
      Value size = constantIndex(rewriter, loc, numTiles * scratchBytes);
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value ready = gpu::WaitOp::create(rewriter, loc, token, ValueRange{})
                        .getAsyncToken();
      auto alloc = gpu::AllocOp::create(
          rewriter, loc,
          MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
          token, ValueRange{ready}, ValueRange{size}, ValueRange{},
          /*hostShared=*/false);
      gpu::WaitOp::create(rewriter, loc, Type(),
                          ValueRange{alloc.getAsyncToken()});
      scratchBuffer = alloc.getMemref();
    }
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, constantIndex(rewriter, loc, numTiles), one, one,
        constantIndex(rewriter, loc, blockSize), one, one);
    if (Attribute group = loop->getAttr(fuse::FuseDialect::kGroupNestAttrName))
      launch->setAttr(fuse::FuseDialect::kGroupNestAttrName, group);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);

    // The tile of this block.
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    inlineTileLoopBody(rewriter, loop, launch.getBlockIds().x, *tripCounts,
                       terminator);

    // Temporaries in shared memory, or views of this block's scratch slice.
    auto workgroup = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    for (MutableArrayRef<memref::AllocOp> unit : shared) {
      BlockArgument buffer = launch.addWorkgroupAttribution(
          MemRefType::Builder(unit.front().getType())
              .setMemorySpace(workgroup),
          unit.front().getLoc());
      for (memref::AllocOp alloc : unit) {
        rewriter.replaceAllUsesWith(alloc.getResult(), buffer);
        rewriter.eraseOp(alloc);
      }
      // Its views, and the branch results it is, are in shared memory too.
      propagateMemorySpace(buffer, workgroup);
    }
    if (!scratch.empty()) {
      rewriter.setInsertionPoint(&body.front());
      Value base = arith::MulIOp::create(
          rewriter, loc, launch.getBlockIds().x,
          constantIndex(rewriter, loc, scratchBytes));
      rewriter.setInsertionPointAfter(base.getDefiningOp());
      for (auto [alloc, offset] : llvm::zip(scratch, scratchOffsets)) {
        rewriter.setInsertionPoint(alloc);
        Value at = arith::AddIOp::create(rewriter, alloc.getLoc(), base,
                                         constantIndex(rewriter, loc, offset));
        rewriter.replaceOpWithNewOp<memref::ViewOp>(
            alloc, alloc.getType(), scratchBuffer, at, alloc.getDynamicSizes());
      }
    }
    // Nothing in the body owns memory any more.
    SmallVector<memref::DeallocOp> deallocs;
    launch.getBody().walk(
        [&](memref::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (memref::DeallocOp dealloc : deallocs)
      rewriter.eraseOp(dealloc);

    // Inputs several ops read, in shared memory with what is left.
    int64_t sharedBytesLeft = kSharedMemoryBytes - sharedBytes - reservedBytes;
    if (stageInputs)
      sharedBytesLeft -= stageSharedInputs(rewriter, launch, registerTilings,
                                           absorbed, sharedBytesLeft);

    // Every structured op shared among the threads.
    ThreadContext threads{launch.getThreadIds().x,
                          launch.getBlockSize().x,
                          blockSize,
                          cooperativeReductions,
                          fma,
                          launch,
                          sharedBytesLeft,
                          &registerTilings};
    SmallVector<linalg::LinalgOp> ops;
    launch.getBody().walk([&](linalg::LinalgOp op) {
      if (!absorbed.contains(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      distribute(rewriter, op, threads);
    // The last barrier guards nothing.
    if (auto last = dyn_cast_or_null<gpu::BarrierOp>(
            terminator->getPrevNode()))
      rewriter.eraseOp(last);

    rewriter.eraseOp(loop);
    if (scratchBuffer) {
      // Freed once the launch is done: wait, free, wait.
      rewriter.setInsertionPointAfter(launch);
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value ready = gpu::WaitOp::create(rewriter, loc, token, ValueRange{})
                        .getAsyncToken();
      Value freed = gpu::DeallocOp::create(rewriter, loc, token,
                                           ValueRange{ready}, scratchBuffer)
                        .getAsyncToken();
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{freed});
    }
    return success();
  }
};

} // namespace
