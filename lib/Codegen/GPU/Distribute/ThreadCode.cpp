//===- ThreadCode.cpp - Code every thread of a block runs -----------------===//
//
// The pieces every distributed op is emitted from: an op's payload at
// given indices, loads and stores of its outputs, combiners of
// reductions, the strided loop that shares an op's points among the
// block's threads, and where barriers are needed.
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

Value constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value result = constantIndex(b, loc, 1);
  for (Value size : sizes)
    result = b.createOrFold<arith::MulIOp>(loc, result, size);
  return result;
}

SmallVector<Value> indicesOf(OpBuilder &b, Location loc, AffineMap map,
                             ValueRange ivs) {
  return *affine::expandAffineMap(b, loc, map, ivs);
}

SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ValueRange outs,
                               ArrayRef<Value> inputs,
                               ArrayRef<Value> values) {
  IRMapping map;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    unsigned i = input->getOperandNumber();
    if (i < values.size() && values[i]) {
      map.map(arg, values[i]);
      continue;
    }
    if (!isa<MemRefType>(input->get().getType())) {
      map.map(arg, input->get());
      continue;
    }
    if (arg.use_empty())
      continue;
    Value buffer = i < inputs.size() && inputs[i] ? inputs[i] : input->get();
    map.map(arg, memref::LoadOp::create(
                     b, loc, buffer,
                     indicesOf(b, loc, op.getMatchingIndexingMap(input), ivs)));
  }
  for (auto [arg, value] : llvm::zip(op.getRegionOutputArgs(), outs))
    if (value)
      map.map(arg, value);
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  return llvm::map_to_vector(body->getTerminator()->getOperands(),
                             [&](Value v) { return map.lookupOrDefault(v); });
}

SmallVector<Value> loadOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, bool always) {
  SmallVector<Value> outs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!always && !op.payloadUsesValueFromOperand(&init)) {
      outs.push_back(Value());
      continue;
    }
    outs.push_back(memref::LoadOp::create(
        b, loc, init.get(),
        indicesOf(b, loc, op.getMatchingIndexingMap(&init), ivs)));
  }
  return outs;
}

void storeOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  ValueRange ivs, ValueRange results) {
  for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results))
    memref::StoreOp::create(
        b, loc, result, init.get(),
        indicesOf(b, loc, op.getMatchingIndexingMap(&init), ivs));
}

SmallVector<Value> mergeIndices(ArrayRef<utils::IteratorType> iterators,
                                ArrayRef<Value> parallel,
                                ArrayRef<Value> reduction) {
  SmallVector<Value> ivs;
  unsigned p = 0, r = 0;
  for (utils::IteratorType iterator : iterators)
    ivs.push_back(iterator == utils::IteratorType::parallel ? parallel[p++]
                                                            : reduction[r++]);
  return ivs;
}

Operation *getCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return nullptr;
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return nullptr;
  Operation *combiner = combiners.front();
  Type type = combiner->getResult(0).getType();
  // gpu.all_reduce shuffles 32-bit values.
  if (combiner->getNumOperands() != 2 || !type.isIntOrFloat() ||
      type.getIntOrFloatBitWidth() != 32 || !arith::getNeutralElement(combiner))
    return nullptr;
  return combiner;
}

Value combine(OpBuilder &b, Operation *combiner, Value accumulatorArg,
              Value lhs, Value rhs) {
  IRMapping map;
  for (Value operand : combiner->getOperands())
    map.map(operand, operand == accumulatorArg ? rhs : lhs);
  return b.clone(*combiner, map)->getResult(0);
}

void allowContraction(Region &region) {
  region.walk([](arith::ArithFastMathInterface op) {
    // Ops whose flags are optional (arith.extf, arith.truncf) have none to
    // contract, and their lowering to LLVM would not take them.
    arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
    if (!flags)
      return;
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(),
                    flags.getValue() | arith::FastMathFlags::contract));
  });
}

bool touchesNoMemory(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp>(op) ||
         (op->getNumRegions() == 0 && isMemoryEffectFree(op));
}

/// Whether the last op of `block` before its terminator that touches
/// memory ends with a barrier.
static bool blockEndsWithBarrier(Block &block) {
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    if (touchesNoMemory(&op))
      continue;
    return endsWithBarrier(&op);
  }
  return false;
}

bool endsWithBarrier(Operation *op) {
  if (isa<gpu::BarrierOp>(op))
    return true;
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return !branch.getElseRegion().empty() &&
           blockEndsWithBarrier(*branch.thenBlock()) &&
           blockEndsWithBarrier(*branch.elseBlock());
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    return lb && ub && !loop.getUnsignedCmp() && *lb < *ub &&
           blockEndsWithBarrier(*loop.getBody());
  }
  return false;
}

bool readsSinceBarrier(Operation *op) {
  Operation *prev = op->getPrevNode();
  while (true) {
    // Out of a branch of the tile body: on before the branch.
    if (!prev) {
      Operation *parent = op->getParentOp();
      if (!isa<scf::IfOp>(parent))
        return false;
      op = parent;
      prev = op->getPrevNode();
      continue;
    }
    if (endsWithBarrier(prev))
      return false;
    if (!isMemoryEffectFree(prev))
      return true;
    prev = prev->getPrevNode();
  }
}

Value emitThreadShare(IRRewriter &rewriter, linalg::LinalgOp op,
                      Operation *combiner, Value neutral,
                      ArrayRef<Value> parallelIvs,
                      ArrayRef<Value> reductionSizes, Value numReduced,
                      const ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  UnrolledShare share =
      createUnrolledShare(rewriter, loc, numReduced, threads, neutral);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(share.loop.getBody());
    SmallVector<Value> yielded;
    for (auto [u, stepAndBounds] : llvm::enumerate(share.steps)) {
      auto [step, inBounds] = stepAndBounds;
      Value accumulator = share.loop.getRegionIterArgs()[u];
      SmallVector<Value> ivs = mergeIndices(
          iterators, parallelIvs,
          delinearize(rewriter, loc, step, reductionSizes));
      Value result = emitPayload(rewriter, loc, op, ivs, {accumulator})[0];
      if (inBounds)
        result = arith::SelectOp::create(rewriter, loc, inBounds, result,
                                         accumulator);
      yielded.push_back(result);
    }
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  Value accumulatorArg = op.getRegionOutputArgs()[0];
  Value partial = share.loop.getResult(0);
  for (Value other : share.loop.getResults().drop_front())
    partial = combine(rewriter, combiner, accumulatorArg, other, partial);
  return partial;
}

} // namespace mlir::fuse::distribute
