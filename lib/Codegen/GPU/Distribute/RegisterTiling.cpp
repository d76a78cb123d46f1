//===- RegisterTiling.cpp - Contractions tiled in registers ---------------===//
//
// Each thread accumulates a TM x TN micro-tile of a staged contraction's
// output in registers; the tile's initializer (a fill, a bias) and
// elementwise epilogue are absorbed, so the temporary is never written.
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

/// Accumulators a thread may keep (each a register; the kernels are held
/// to 64 registers a thread by `nvvm.minctasm`).
constexpr int64_t kMaxAccumulators = GpuDescription::kMaxAccumulators;

Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether `value` is a buffer from outside the tile loop (an argument, a
/// constant, or a view of one): nothing in a tile writes it before the
/// group's results.
static bool isFromOutsideTile(Value value, Operation *tileLoop) {
  value = getRootBuffer(value);
  return !tileLoop->isAncestor(value.getParentRegion()->getParentOp());
}

/// Whether `init` only initializes `temp` elementwise: all loops parallel,
/// `temp` its one output, written through a permutation, its old values
/// unread, its inputs scalars or buffers from outside the tile (bias
/// vectors, constants: still the same when the initialization is computed
/// later, in registers).
static bool isInitializer(linalg::LinalgOp init, memref::AllocOp temp) {
  Operation *tileLoop = temp->getParentOp();
  if (!isa<scf::ForallOp>(tileLoop) || init.getNumDpsInits() != 1 ||
      init.getDpsInits()[0] != temp.getResult() ||
      init.getNumReductionLoops() != 0 || !init.hasPureBufferSemantics() ||
      init.payloadUsesValueFromOperand(init.getDpsInitOperand(0)) ||
      !init.getMatchingIndexingMap(init.getDpsInitOperand(0)).isPermutation())
    return false;
  return llvm::all_of(init.getDpsInputs(), [&](Value input) {
    return !isa<MemRefType>(input.getType()) ||
           isFromOutsideTile(input, tileLoop);
  });
}

/// The initializer (a fill, or a bias broadcast) and the one elementwise
/// reader of `op`'s temporary output, when they are all that touch it: the
/// initializer before `op`, then `op`, then the reader, with only
/// memory-free ops between `op` and the reader, which reads the temporary
/// through a permutation of its loops.
static void findAbsorbedEnds(linalg::LinalgOp op, RegisterTiling &tiling) {
  auto temp = op.getDpsInits()[0].getDefiningOp<memref::AllocOp>();
  if (!temp || temp->getBlock() != op->getBlock())
    return;
  linalg::LinalgOp initializer;
  linalg::LinalgOp epilogue;
  for (Operation *user : temp->getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    if (auto f = dyn_cast<linalg::LinalgOp>(user);
        f && f->getBlock() == op->getBlock() && f->isBeforeInBlock(op)) {
      if (initializer || !isInitializer(f, temp))
        return;
      initializer = f;
      continue;
    }
    auto reader = dyn_cast<linalg::LinalgOp>(user);
    if (epilogue || !reader || reader->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(reader) || !reader.hasPureBufferSemantics() ||
        reader.getNumReductionLoops() != 0 || reader.hasDynamicShape())
      return;
    int uses = 0;
    for (OpOperand &operand : reader->getOpOperands()) {
      if (operand.get() != temp.getResult())
        continue;
      if (reader.isDpsInit(&operand) ||
          !reader.getMatchingIndexingMap(&operand).isPermutation())
        return;
      ++uses;
    }
    if (uses != 1)
      return;
    epilogue = reader;
  }
  if (!initializer || !epilogue)
    return;
  for (Operation *between = op->getNextNode(); between != epilogue;
       between = between->getNextNode())
    if (!isMemoryEffectFree(between))
      return;
  // The initializer's reads move to the epilogue's place: nothing between
  // may write memory but the tile's own temporaries (its inputs come from
  // outside the tile, so they are none of those).
  for (Operation *between = initializer->getNextNode(); between != op;
       between = between->getNextNode()) {
    if (isMemoryEffectFree(between) ||
        isa<memref::AllocOp, memref::DeallocOp>(between))
      continue;
    auto writer = dyn_cast<linalg::LinalgOp>(between);
    if (!writer || !writer.hasPureBufferSemantics() ||
        !llvm::all_of(writer.getDpsInits(), [&](Value out) {
          auto alloc = out.getDefiningOp<memref::AllocOp>();
          return alloc && alloc->getBlock() == op->getBlock();
        }))
      return;
  }
  tiling.initializer = initializer;
  tiling.epilogue = epilogue;
  tiling.temp = temp;
}

/// 16x8 pieces a warp may take on tensor cores (four f32 accumulators a
/// lane each: kMaxAccumulators in all).
constexpr int64_t kMaxMmaPieces = kMaxAccumulators / 4;

int64_t countRows(ArrayRef<int64_t> ranges, ArrayRef<unsigned> m) {
  int64_t rows = 1;
  for (unsigned d : m)
    rows *= ranges[d];
  return rows;
}

int64_t countMmaPieces(int64_t rows, int64_t cols) {
  return llvm::divideCeil(rows, 16) * llvm::divideCeil(cols, 8);
}

std::optional<RegisterTiling> getRegisterTiling(linalg::LinalgOp op,
                                                int64_t blockSize,
                                                TensorCores tensorCores,
                                                bool convolutions) {
  std::optional<StagedReduction> reduction = getStagedReduction(op);
  if (reduction && !reduction->outer.empty() && !convolutions)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!reduction)
    return std::nullopt;
  RegisterTiling tiling;
  tiling.kDim = reduction->kDim;
  tiling.chunk = reduction->chunk;
  tiling.outer = reduction->outer;
  std::optional<MatmulLoops> loops = getMatmulLoops(
      op, ranges, tiling.kDim, /*allowFlatM=*/true, tiling.outer);
  if (!loops)
    return std::nullopt;
  tiling.m = loops->m;
  tiling.n = loops->n;
  int64_t rows = countRows(ranges, tiling.m), cols = ranges[tiling.n];
  std::optional<MmaShape> mma = getMmaShape(op, tensorCores);
  if (!mma || blockSize < kWarpSize || blockSize % kWarpSize != 0 ||
      llvm::divideCeil(countMmaPieces(rows, cols), blockSize / kWarpSize) >
          kMaxMmaPieces)
    mma.reset();
  // Tensor cores take chunks of a multiple of k steps: the largest up to
  // 32 that divides the reduction (getStagedReduction's largest divisor up
  // to 32 may not be one: 24 of 48 channels).
  int64_t numReduced = ranges[tiling.kDim];
  if (mma && tiling.chunk % mma->k != 0) {
    int64_t chunk = TilePolicy::kGpuReductionChunk / mma->k * mma->k;
    while (chunk >= mma->k && numReduced % chunk != 0)
      chunk -= mma->k;
    if (chunk >= mma->k)
      tiling.chunk = chunk;
    else
      mma.reset();
  }
  std::optional<std::pair<int64_t, int64_t>> best;
  for (int64_t tm = 1; tm <= kMaxAccumulators; tm *= 2)
    for (int64_t tn = 1; tm * tn <= kMaxAccumulators; tn *= 2) {
      if (rows % tm != 0 || cols % tn != 0 ||
          (rows / tm) * (cols / tn) > blockSize)
        continue;
      auto key = [](int64_t x, int64_t y) {
        return std::make_pair(x * y, std::max(x, y));
      };
      if (!best || key(tm, tn) < key(best->first, best->second))
        best = {tm, tn};
    }
  if (!best && !mma)
    return std::nullopt;
  tiling.tm = best ? best->first : 0;
  tiling.tn = best ? best->second : 0;
  // A convolution's chunks take slices that fit in half the shared memory
  // (its filter slice holds every output channel of the tile: 512 channels
  // of 32 steps would take 66 KiB), the rest left to its padded window.
  while (true) {
    tiling.slices = getStagedSlices(op, ranges, *reduction, tiling.chunk,
                                    /*padRows=*/true);
    tiling.stagedBytes = getStagedBytes(tiling.slices);
    if (tiling.outer.empty() || tiling.stagedBytes <= kSharedMemoryBytes / 2)
      break;
    // (Multiples of k for tensor cores while there is one; then any.)
    int64_t step = mma ? mma->k : 1;
    int64_t chunk = tiling.chunk - step;
    while (chunk > 1 && numReduced % chunk != 0)
      chunk -= step;
    if (mma && chunk < mma->k) {
      mma.reset();
      continue;
    }
    if (chunk < 2)
      return std::nullopt;
    tiling.chunk = chunk;
  }
  if (mma && tiling.chunk % mma->k == 0)
    tiling.mma = mma;
  else if (!best)
    return std::nullopt;
  findAbsorbedEnds(op, tiling);
  return tiling;
}

AbsorbedPoints getAbsorbedPoints(const RegisterTiling &tiling) {
  AbsorbedPoints points;
  // (Handles: copies.)
  linalg::LinalgOp initializer = tiling.initializer, epilogue = tiling.epilogue;
  memref::AllocOp temp = tiling.temp;
  if (!epilogue)
    return points;
  points.initializer = inversePermutation(
      initializer.getMatchingIndexingMap(initializer.getDpsInitOperand(0)));
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == temp.getResult())
      points.tempInput = input->getOperandNumber();
  points.epilogue = inversePermutation(epilogue.getMatchingIndexingMap(
      epilogue.getDpsInputOperand(points.tempInput)));
  return points;
}

Value emitInitialValue(OpBuilder &b, Location loc, OpOperand &init,
                       const RegisterTiling &tiling,
                       const AbsorbedPoints &points, ValueRange out) {
  if (!tiling.initializer)
    return memref::LoadOp::create(b, loc, init.get(), out);
  SmallVector<Value> ivs = indicesOf(b, loc, points.initializer, out);
  return emitPayload(b, loc, tiling.initializer, ivs, {Value()})[0];
}

void emitFinalValue(OpBuilder &b, Location loc, OpOperand &init,
                    const RegisterTiling &tiling, const AbsorbedPoints &points,
                    Value acc, ValueRange out) {
  if (!tiling.epilogue) {
    memref::StoreOp::create(b, loc, acc, init.get(), out);
    return;
  }
  linalg::LinalgOp epilogue = tiling.epilogue;
  SmallVector<Value> values(epilogue.getNumDpsInputs());
  values[points.tempInput] = acc;
  SmallVector<Value> ivs = indicesOf(b, loc, points.epilogue, out);
  SmallVector<Value> outs =
      loadOutputs(b, loc, epilogue, ivs, /*always=*/false);
  storeOutputs(b, loc, epilogue, ivs,
               emitPayload(b, loc, epilogue, ivs, outs, {}, values));
}

scf::ForOp emitStagedChunks(RewriterBase &rewriter, Location loc,
                            linalg::LinalgOp op, const RegisterTiling &tiling,
                            ArrayRef<Value> staged,
                            const ThreadContext &threads, ValueRange accs,
                            SmallVectorImpl<Value> &outerIvs) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto c = [&](int64_t v) { return constantIndex(rewriter, loc, v); };
  int64_t numReduced = ranges[tiling.kDim], windowPoints = 1;
  for (unsigned d : tiling.outer)
    windowPoints *= ranges[d];
  auto chunks = scf::ForOp::create(
      rewriter, loc, c(0), c(numReduced * windowPoints), c(tiling.chunk), accs);
  rewriter.setInsertionPointToStart(chunks.getBody());
  Value chunkStart = chunks.getInductionVar();
  if (!tiling.outer.empty()) {
    SmallVector<Value> windowSizes = llvm::map_to_vector(
        tiling.outer, [&](unsigned d) { return c(ranges[d]); });
    outerIvs.assign(delinearize(
        rewriter, loc,
        arith::DivUIOp::create(rewriter, loc, chunkStart, c(numReduced)),
        windowSizes));
    chunkStart =
        arith::RemUIOp::create(rewriter, loc, chunkStart, c(numReduced));
  }
  emitStagedCopy(rewriter, loc, op, tiling.kDim, chunkStart, staged,
                 tiling.slices, threads, tiling.outer, outerIvs);
  gpu::BarrierOp::create(rewriter, loc);
  return chunks;
}

void eraseRegisterTiled(RewriterBase &rewriter, linalg::LinalgOp op,
                        const RegisterTiling &tiling) {
  memref::AllocOp temp = tiling.temp;
  if (tiling.epilogue) {
    rewriter.eraseOp(tiling.epilogue);
    rewriter.eraseOp(tiling.initializer);
  }
  rewriter.eraseOp(op);
  if (temp && temp->use_empty())
    rewriter.eraseOp(temp);
}

void emitRegisterTiled(IRRewriter &rewriter, linalg::LinalgOp op,
                       RegisterTiling tiling, ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t totalRows = countRows(ranges, tiling.m);
  int64_t cols = ranges[tiling.n] / tiling.tn, rows = totalRows / tiling.tm;
  int64_t numTiles = rows * cols;
  auto c = [&](int64_t v) { return constantIndex(rewriter, loc, v); };
  rewriter.setInsertionPoint(tiling.epilogue ? tiling.epilogue.getOperation()
                                             : op.getOperation());
  // (Its bytes were reserved before the launch's other shared memory.)
  SmallVector<Value> staged =
      createStagedBuffers(rewriter, loc, tiling.slices, threads);

  auto microTiles =
      scf::ForOp::create(rewriter, loc, threads.threadId,
                         c(threads.staticBlockSize), threads.blockSize);
  rewriter.setInsertionPointToStart(microTiles.getBody());
  Value t = microTiles.getInductionVar();
  Value active;
  if (numTiles < threads.staticBlockSize) {
    active = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, t,
                                   c(numTiles));
    t = arith::SelectOp::create(rewriter, loc, active, t, c(0));
  }
  Value y = arith::DivUIOp::create(rewriter, loc, t, c(cols));
  Value x = arith::RemUIOp::create(rewriter, loc, t, c(cols));
  // The iteration point of micro-tile element (i, j), unit loops at 0: row
  // y + i * rows is a point of the M loops (row-major), column x + j * cols
  // one of N.
  SmallVector<Value> mSizes = llvm::map_to_vector(
      tiling.m, [&](unsigned d) { return c(ranges[d]); });
  SmallVector<SmallVector<Value>> rowIvs;
  SmallVector<Value> colIndex;
  for (int64_t i = 0; i < tiling.tm; ++i)
    rowIvs.push_back(delinearize(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, y, c(i * rows)),
        mSizes));
  for (int64_t j = 0; j < tiling.tn; ++j)
    colIndex.push_back(arith::AddIOp::create(rewriter, loc, x, c(j * cols)));
  // The window point of the chunk being computed (inside the chunk loop).
  SmallVector<Value> outerIvs;
  auto pointAt = [&](int64_t i, int64_t j, Value k) {
    SmallVector<Value> ivs(ranges.size(), c(0));
    for (auto [d, index] : llvm::zip(tiling.outer, outerIvs))
      ivs[d] = index;
    for (auto [d, index] : llvm::zip(tiling.m, rowIvs[i]))
      ivs[d] = index;
    ivs[tiling.n] = colIndex[j];
    ivs[tiling.kDim] = k;
    return ivs;
  };
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  AbsorbedPoints points = getAbsorbedPoints(tiling);
  // The accumulators start from the output's values, or from what the
  // absorbed initializer would have written there.
  SmallVector<Value> accs;
  for (int64_t i = 0; i < tiling.tm; ++i)
    for (int64_t j = 0; j < tiling.tn; ++j)
      accs.push_back(emitInitialValue(
          rewriter, loc, init, tiling, points,
          indicesOf(rewriter, loc, outMap, pointAt(i, j, c(0)))));

  scf::ForOp chunks = emitStagedChunks(rewriter, loc, op, tiling, staged,
                                       threads, accs, outerIvs);
  // The chunk's steps: TM elements of the first input and TN of the second
  // from shared memory, then the TM x TN payloads.
  auto emitSteps = [&](ValueRange inits) -> SmallVector<Value> {
    auto steps =
        scf::ForOp::create(rewriter, loc, c(0), c(tiling.chunk), c(1), inits);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value k = steps.getInductionVar();
    AffineMap aMap = tiling.slices[0].map, bMap = tiling.slices[1].map;
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < tiling.tm; ++i)
      as.push_back(memref::LoadOp::create(
          rewriter, loc, staged[0],
          indicesOf(rewriter, loc, aMap, pointAt(i, 0, k))));
    for (int64_t j = 0; j < tiling.tn; ++j)
      bs.push_back(memref::LoadOp::create(
          rewriter, loc, staged[1],
          indicesOf(rewriter, loc, bMap, pointAt(0, j, k))));
    SmallVector<Value> results;
    for (int64_t i = 0; i < tiling.tm; ++i)
      for (int64_t j = 0; j < tiling.tn; ++j)
        results.push_back(
            emitPayload(rewriter, loc, op, pointAt(i, j, k),
                        steps.getRegionIterArgs()[i * tiling.tn + j], {},
                        {as[i], bs[j]})[0]);
    scf::YieldOp::create(rewriter, loc, results);
    if (threads.fma)
      allowContraction(steps.getRegion());
    return llvm::to_vector_of<Value>(steps.getResults());
  };
  SmallVector<Value> results;
  ValueRange chunkAccs = chunks.getRegionIterArgs();
  if (active) {
    auto ifActive = scf::IfOp::create(rewriter, loc, chunkAccs.getTypes(),
                                      active, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifActive.thenBlock());
    scf::YieldOp::create(rewriter, loc, emitSteps(chunkAccs));
    rewriter.setInsertionPointToStart(ifActive.elseBlock());
    scf::YieldOp::create(rewriter, loc, chunkAccs);
    rewriter.setInsertionPointAfter(ifActive);
    results = llvm::to_vector_of<Value>(ifActive.getResults());
  } else {
    results = emitSteps(chunkAccs);
  }
  // The next chunk overwrites the slices once every thread is done.
  gpu::BarrierOp::create(rewriter, loc);
  scf::YieldOp::create(rewriter, loc, results);
  rewriter.setInsertionPointAfter(chunks);
  outerIvs.clear();

  // The accumulators stored, through the epilogue when absorbed.
  if (active) {
    auto ifActive = scf::IfOp::create(rewriter, loc, active);
    rewriter.setInsertionPointToStart(ifActive.thenBlock());
  }
  for (int64_t i = 0; i < tiling.tm; ++i)
    for (int64_t j = 0; j < tiling.tn; ++j)
      emitFinalValue(rewriter, loc, init, tiling, points,
                     chunks.getResult(i * tiling.tn + j),
                     indicesOf(rewriter, loc, outMap, pointAt(i, j, c(0))));
  rewriter.setInsertionPointAfter(microTiles);
  eraseRegisterTiled(rewriter, op, tiling);
}

} // namespace mlir::fuse::distribute
