//===- Contraction.cpp - Contractions staged in shared memory -------------===//
//
// A contraction (matmul, convolution as implicit GEMM) stages the slices
// of both operands its tile reads in shared memory, chunk by chunk of its
// reduction, each copied by the whole block.
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

std::optional<MatmulLoops>
getMatmulLoops(linalg::LinalgOp op, ArrayRef<int64_t> ranges, unsigned kDim,
               bool allowFlatM, ArrayRef<unsigned> outer) {
  AffineMap a = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap b = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  SmallVector<unsigned> m;
  std::optional<unsigned> n;
  for (unsigned dim = 0; dim < ranges.size(); ++dim) {
    if (dim == kDim || ranges[dim] == 1 || llvm::is_contained(outer, dim))
      continue;
    bool inA = a.isFunctionOfDim(dim), inB = b.isFunctionOfDim(dim);
    if (inA && !inB)
      m.push_back(dim);
    else if (inB && !inA && !n)
      n = dim;
    else
      return std::nullopt;
  }
  if ((m.size() != 1 && !allowFlatM) || !n)
    return std::nullopt;
  return MatmulLoops{m, *n};
}

/// Steps of a thread's share of a loop (a split reduction, a staged copy)
/// taken per iteration, so that their loads are in flight together.
constexpr int64_t kMaxShareUnroll = 8;

UnrolledShare createUnrolledShare(RewriterBase &rewriter, Location loc,
                                  Value count, const ThreadContext &threads,
                                  Value init) {
  int64_t unroll = kMaxShareUnroll;
  if (std::optional<int64_t> known = getConstantIntValue(count))
    unroll = std::clamp<int64_t>(
        llvm::divideCeil(*known, threads.staticBlockSize), 1, kMaxShareUnroll);
  SmallVector<Value> loopInits(init ? unroll : 0, init);
  UnrolledShare share;
  share.unroll = unroll;
  share.loop = scf::ForOp::create(
      rewriter, loc, threads.threadId, count,
      arith::MulIOp::create(rewriter, loc, threads.blockSize,
                            constantIndex(rewriter, loc, unroll)),
      loopInits);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(share.loop.getBody());
  Value first = share.loop.getInductionVar();
  share.steps.push_back({first, Value()});
  for (int64_t u = 1; u < unroll; ++u) {
    Value next = arith::AddIOp::create(
        rewriter, loc, first,
        arith::MulIOp::create(rewriter, loc, threads.blockSize,
                              constantIndex(rewriter, loc, u)));
    Value inBounds = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, next, count);
    share.steps.push_back(
        {arith::SelectOp::create(rewriter, loc, inBounds, next, first),
         inBounds});
  }
  return share;
}

/// The one loop of `expr` (an index of an operand) besides `outer`, when
/// `expr` is a sum of loops times constants (plus a constant): nothing if
/// it has no such loop, failure if it has several or is not such a sum.
static FailureOr<std::optional<unsigned>> getSliceDim(AffineExpr expr,
                                               ArrayRef<unsigned> outer) {
  std::optional<unsigned> dim;
  bool linear = true, single = true;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (llvm::is_contained(outer, d.getPosition()))
        return;
      single &= !dim || *dim == d.getPosition();
      dim = d.getPosition();
      return;
    }
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(e))
      linear &= e.getKind() == AffineExprKind::Add ||
                (e.getKind() == AffineExprKind::Mul &&
                 (isa<AffineConstantExpr>(bin.getLHS()) ||
                  isa<AffineConstantExpr>(bin.getRHS())));
  });
  if (!linear || !single)
    return failure();
  return dim;
}

/// The staged loop and window loops of convolution `op` (static loop
/// ranges): the last reduction loop, when it is the last index of both
/// inputs (the channels of an NHWC image and of its filter: contiguous),
/// the other reduction loops before it in loop order (so that each point's
/// reduction keeps its order), and every input index a sum of at most one
/// loop besides the window loops (the image's row `oh * stride + kh`).
static std::optional<StagedReduction> getConvolutionReduction(linalg::LinalgOp op) {
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  if (reductionDims.empty() ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  unsigned kDim = *llvm::max_element(reductionDims);
  SmallVector<unsigned> outer;
  for (unsigned d : reductionDims)
    if (d != kDim)
      outer.push_back(d);
  AffineExpr k = getAffineDimExpr(kDim, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || map.getResults().back() != k)
      return std::nullopt;
    for (AffineExpr expr : map.getResults())
      if (failed(getSliceDim(expr, outer)))
        return std::nullopt;
  }
  return StagedReduction{kDim, 0, outer};
}

std::optional<StagedReduction> getStagedReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() != 2 ||
      !llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return isa<MemRefType>(input->get().getType());
      }))
    return std::nullopt;
  std::optional<StagedReduction> reduction;
  if (linalg::isaContractionOpInterface(op)) {
    if (op.getNumReductionLoops() != 1 || op.hasDynamicShape() ||
        !llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return op.getMatchingIndexingMap(input).isProjectedPermutation();
        }))
      return std::nullopt;
    SmallVector<unsigned> reductionDims;
    op.getReductionDims(reductionDims);
    reduction = StagedReduction{reductionDims.front(), 0, {}};
  } else if (linalg::isaConvolutionOpInterface(op)) {
    reduction = getConvolutionReduction(op);
  }
  if (!reduction)
    return std::nullopt;
  unsigned kDim = reduction->kDim;
  // The payload would see each step's position in its chunk, not in the
  // loop (the interfaces' multiply-add bodies read no index: a guard).
  bool readsStagedIndex = false;
  op.getBlock()->walk([&](linalg::IndexOp index) {
    readsStagedIndex |= index.getDim() == kDim;
  });
  if (readsStagedIndex)
    return std::nullopt;
  int64_t numReduced = op.getStaticLoopRanges()[kDim];
  constexpr int64_t kChunk = TilePolicy::kGpuReductionChunk;
  int64_t chunk = getLargestDivisor(numReduced, kChunk);
  if (numReduced < 2 || (chunk < 4 && numReduced > kChunk))
    return std::nullopt;
  reduction->chunk = chunk;
  return reduction;
}

SmallVector<StagedSlice> getStagedSlices(linalg::LinalgOp op,
                                         ArrayRef<int64_t> ranges,
                                         const StagedReduction &reduction,
                                         int64_t chunk, bool padRows) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      op.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  MLIRContext *ctx = op.getContext();
  unsigned kDim = reduction.kDim;
  SmallVector<StagedSlice> slices;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    StagedSlice slice;
    SmallVector<AffineExpr> indices;
    for (AffineExpr expr : map.getResults()) {
      // Checked by getStagedReduction.
      std::optional<unsigned> dim = *getSliceDim(expr, reduction.outer);
      slice.shape.push_back(!dim ? 1 : *dim == kDim ? chunk : ranges[*dim]);
      indices.push_back(dim ? getAffineDimExpr(*dim, ctx)
                            : getAffineConstantExpr(0, ctx));
    }
    slice.map = AffineMap::get(map.getNumDims(), 0, indices, ctx);
    SmallVector<int64_t> bufferShape = slice.shape;
    if (padRows && !bufferShape.empty() &&
        indices.back() == getAffineDimExpr(kDim, ctx))
      ++bufferShape.back();
    slice.buffer = MemRefType::get(bufferShape,
                                   getElementTypeOrSelf(input->get().getType()),
                                   MemRefLayoutAttrInterface(), workgroup);
    slices.push_back(std::move(slice));
  }
  return slices;
}

int64_t getStagedBytes(ArrayRef<StagedSlice> slices) {
  int64_t bytes = 0;
  for (const StagedSlice &slice : slices)
    bytes += llvm::alignTo(slice.buffer.getNumElements() *
                               elementBytes(slice.buffer),
                           kSharedAlignment);
  return bytes;
}

SmallVector<Value> createStagedBuffers(RewriterBase &rewriter, Location loc,
                                       ArrayRef<StagedSlice> slices,
                                       ThreadContext &threads) {
  SmallVector<Value> views;
  for (const StagedSlice &slice : slices) {
    Value buffer = threads.launch.addWorkgroupAttribution(slice.buffer, loc);
    if (slice.buffer.getShape() == ArrayRef<int64_t>(slice.shape)) {
      views.push_back(buffer);
      continue;
    }
    SmallVector<OpFoldResult> offsets(slice.shape.size(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(slice.shape.size(),
                                      rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        llvm::map_to_vector(slice.shape, [&](int64_t s) -> OpFoldResult {
          return rewriter.getIndexAttr(s);
        });
    views.push_back(memref::SubViewOp::create(rewriter, loc, buffer, offsets,
                                              sizes, strides));
  }
  return views;
}

void emitStagedCopy(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                    unsigned kDim, Value chunkStart, ArrayRef<Value> staged,
                    ArrayRef<StagedSlice> slices, const ThreadContext &threads,
                    ArrayRef<unsigned> outer,
                    ArrayRef<Value> outerIvs) {
  for (auto [input, buffer, slice] :
       llvm::zip(op.getDpsInputOperands(), staged, slices)) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> shape =
        llvm::map_to_vector(slice.shape, [&](int64_t size) {
          return constantIndex(rewriter, loc, size);
        });
    Value count =
        constantIndex(rewriter, loc,
                      std::accumulate(slice.shape.begin(), slice.shape.end(),
                                      int64_t(1), std::multiplies<int64_t>()));
    UnrolledShare copy = createUnrolledShare(rewriter, loc, count, threads);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(copy.loop.getBody()->getTerminator());
    SmallVector<SmallVector<Value>> locals;
    SmallVector<Value> values;
    for (auto [step, inBounds] : copy.steps) {
      SmallVector<Value> local = delinearize(rewriter, loc, step, shape);
      // The iteration point: the slice's loops at the local indices (the
      // chunk's offset added), the window loops at `outerIvs`; the input's
      // indices there (a matmul's are the point's own loops). Loops the
      // input does not read stay unset.
      SmallVector<Value> ivs(map.getNumDims());
      for (auto [d, iv] : llvm::zip(outer, outerIvs))
        ivs[d] = iv;
      for (auto [i, expr] : llvm::enumerate(slice.map.getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          ivs[dim.getPosition()] =
              dim.getPosition() == kDim
                  ? arith::AddIOp::create(rewriter, loc, local[i], chunkStart)
                  : local[i];
      SmallVector<Value> global = indicesOf(rewriter, loc, map, ivs);
      values.push_back(
          memref::LoadOp::create(rewriter, loc, input->get(), global));
      locals.push_back(std::move(local));
    }
    for (auto [value, local] : llvm::zip(values, locals))
      memref::StoreOp::create(rewriter, loc, value, buffer, local);
  }
}

LogicalResult stageContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                               ThreadContext &threads) {
  std::optional<StagedReduction> reduction = getStagedReduction(op);
  // (Convolutions only register-tiled.)
  if (!reduction || !reduction->outer.empty())
    return failure();
  unsigned kDim = reduction->kDim;
  int64_t chunk = reduction->chunk;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t numReduced = ranges[kDim];
  int64_t numPoints = 1;
  for (auto [range, iterator] : llvm::zip(ranges, iterators))
    if (iterator == utils::IteratorType::parallel)
      numPoints *= range;
  SmallVector<StagedSlice> slices =
      getStagedSlices(op, ranges, *reduction, chunk, /*padRows=*/false);
  int64_t bytes = getStagedBytes(slices);
  if (bytes > threads.sharedBytesLeft)
    return failure();
  threads.sharedBytesLeft -= bytes;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> staged =
      createStagedBuffers(rewriter, loc, slices, threads);
  Value zero = constantIndex(rewriter, loc, 0);
  Value one = constantIndex(rewriter, loc, 1);
  SmallVector<Value> parallelSizes;
  for (auto [range, iterator] : llvm::zip(ranges, iterators))
    if (iterator == utils::IteratorType::parallel)
      parallelSizes.push_back(constantIndex(rewriter, loc, range));
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  Value numPointsValue = constantIndex(rewriter, loc, numPoints);

  auto chunks = scf::ForOp::create(rewriter, loc, zero,
                                   constantIndex(rewriter, loc, numReduced),
                                   constantIndex(rewriter, loc, chunk));
  rewriter.setInsertionPointToStart(chunks.getBody());
  emitStagedCopy(rewriter, loc, op, kDim, chunks.getInductionVar(), staged,
                 slices, threads);
  gpu::BarrierOp::create(rewriter, loc);
  // Each thread's points (the same ones every chunk) over the chunk, read
  // from shared memory, accumulated in the output. A thread takes U points
  // per iteration (U = its share, at most 8) and steps them together, so
  // that their U accumulations are independent chains; a point past the
  // end repeats the first one (the same value stored to the same place).
  UnrolledShare points =
      createUnrolledShare(rewriter, loc, numPointsValue, threads);
  int64_t unroll = points.unroll;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(points.loop.getBody()->getTerminator());
    SmallVector<SmallVector<Value>> pointIvs, outIndices;
    SmallVector<Value> accs;
    for (auto [point, inBounds] : points.steps) {
      pointIvs.push_back(mergeIndices(
          iterators, delinearize(rewriter, loc, point, parallelSizes),
          {zero}));
      outIndices.push_back(indicesOf(rewriter, loc, outMap, pointIvs.back()));
      accs.push_back(
          memref::LoadOp::create(rewriter, loc, init.get(), outIndices.back()));
    }
    auto steps = scf::ForOp::create(rewriter, loc, zero,
                                    constantIndex(rewriter, loc, chunk), one,
                                    accs);
    rewriter.setInsertionPointToStart(steps.getBody());
    SmallVector<Value> results;
    for (int64_t u = 0; u < unroll; ++u) {
      pointIvs[u][kDim] = steps.getInductionVar();
      results.push_back(emitPayload(rewriter, loc, op, pointIvs[u],
                                    steps.getRegionIterArgs()[u], staged)[0]);
    }
    scf::YieldOp::create(rewriter, loc, results);
    if (threads.fma)
      allowContraction(steps.getRegion());
    rewriter.setInsertionPointAfter(steps);
    for (int64_t u = 0; u < unroll; ++u)
      memref::StoreOp::create(rewriter, loc, steps.getResult(u), init.get(),
                              outIndices[u]);
  }
  // The next chunk overwrites the slices once every thread is done.
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.setInsertionPointAfter(chunks);
  return success();
}

} // namespace mlir::fuse::distribute
