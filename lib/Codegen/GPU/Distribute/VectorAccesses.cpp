//===- VectorAccesses.cpp - 16-byte accesses of elementwise ops -----------===//
//
// An elementwise op whose innermost loop is a multiple of 4 reads and
// writes 16-byte vectors when every buffer's address, offset and row
// strides allow (checked at run time, the same on all threads).
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

std::optional<SmallVector<VectorAccess>>
getVectorAccesses(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 0 || op.hasDynamicShape() ||
      op.getNumLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned innermost = op.getNumLoops() - 1;
  if (ranges[innermost] % kVectorWidth != 0)
    return std::nullopt;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&inner) ||
        inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(),
                     [](Type t) { return !t.isIntOrIndexOrFloat(); }))
      return std::nullopt;
  SmallVector<VectorAccess> accesses;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      accesses.push_back(VectorAccess::Broadcast); // a scalar input
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() != 32)
      return std::nullopt;
    bool usesInnermost = map.isFunctionOfDim(innermost);
    if (!usesInnermost && !op.isDpsInit(&operand)) {
      accesses.push_back(VectorAccess::Broadcast);
      continue;
    }
    // The innermost loop only as the last index, with unit stride.
    SmallVector<int64_t> strides;
    int64_t offset;
    if (map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(innermost, op.getContext()) ||
        llvm::any_of(map.getResults().drop_back(),
                     [&](AffineExpr e) {
                       return e.isFunctionOfDim(innermost);
                     }) ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return std::nullopt;
    accesses.push_back(VectorAccess::Contiguous);
  }
  return accesses;
}

Value getVectorCondition(IRRewriter &rewriter, linalg::LinalgOp op,
                         ArrayRef<VectorAccess> accesses) {
  Location loc = op.getLoc();
  Value width = constantIndex(rewriter, loc, kVectorWidth);
  Value bytes = constantIndex(rewriter, loc, kVectorWidth * 4);
  Value zero = constantIndex(rewriter, loc, 0);
  Value aligned = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  auto isMultiple = [&](Value v, Value of) {
    Value rem = rewriter.createOrFold<arith::RemUIOp>(loc, v, of);
    return rewriter.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                rem, zero);
  };
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), accesses)) {
    if (access != VectorAccess::Contiguous)
      continue;
    Value buffer = operand.get();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    SmallVector<Value> checks = {isMultiple(pointer, bytes),
                                 isMultiple(metadata.getOffset(), width)};
    for (Value stride : ValueRange(metadata.getStrides()).drop_back())
      checks.push_back(isMultiple(stride, width));
    for (Value check : checks)
      aligned = rewriter.createOrFold<arith::AndIOp>(loc, aligned, check);
  }
  return aligned;
}

void emitVectorLoop(IRRewriter &rewriter, linalg::LinalgOp op,
                    ArrayRef<VectorAccess> accesses,
                    const ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ranges.back() /= kVectorWidth;
  SmallVector<Value> sizes = llvm::map_to_vector(
      ranges, [&](int64_t r) { return constantIndex(rewriter, loc, r); });
  auto points = scf::ForOp::create(rewriter, loc, threads.threadId,
                                   product(rewriter, loc, sizes),
                                   threads.blockSize);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(points.getBody());
  SmallVector<Value> ivs =
      delinearize(rewriter, loc, points.getInductionVar(), sizes);
  ivs.back() = arith::MulIOp::create(rewriter, loc, ivs.back(),
                                     constantIndex(rewriter, loc,
                                                   kVectorWidth));
  auto vectorOf = [](Type t) { return VectorType::get({kVectorWidth}, t); };
  auto alignment = rewriter.getI64IntegerAttr(kVectorWidth * 4);
  IRMapping map;
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), accesses)) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    Value value;
    if (!isa<MemRefType>(operand.get().getType())) {
      value = vector::BroadcastOp::create(
          rewriter, loc, vectorOf(operand.get().getType()), operand.get());
    } else {
      SmallVector<Value> indices = indicesOf(
          rewriter, loc, op.getMatchingIndexingMap(&operand), ivs);
      Type element = arg.getType();
      if (access == VectorAccess::Contiguous) {
        auto load = vector::LoadOp::create(rewriter, loc, vectorOf(element),
                                           operand.get(), indices);
        load->setAttr("alignment", alignment);
        value = load;
      } else {
        value = vector::BroadcastOp::create(
            rewriter, loc, vectorOf(element),
            memref::LoadOp::create(rewriter, loc, operand.get(), indices));
      }
    }
    map.map(arg, value);
  }
  // The payload on vectors: each op with vector types, values from outside
  // (constants) broadcast.
  for (Operation &inner : op.getBlock()->without_terminator()) {
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      if (Value mapped = map.lookupOrNull(v)) {
        operands.push_back(mapped);
        continue;
      }
      Value broadcast =
          vector::BroadcastOp::create(rewriter, loc, vectorOf(v.getType()), v);
      map.map(v, broadcast);
      operands.push_back(broadcast);
    }
    OperationState state(inner.getLoc(), inner.getName());
    state.addOperands(operands);
    state.addAttributes(inner.getAttrs());
    for (Type t : inner.getResultTypes())
      state.addTypes(vectorOf(t));
    Operation *vectorOp = rewriter.create(state);
    map.map(inner.getResults(), vectorOp->getResults());
  }
  for (auto [init, yielded] :
       llvm::zip(op.getDpsInitsMutable(),
                 op.getBlock()->getTerminator()->getOperands())) {
    Value value = map.lookupOrNull(yielded);
    if (!value) // a value from outside the payload
      value = vector::BroadcastOp::create(
          rewriter, loc, vectorOf(yielded.getType()), yielded);
    auto store = vector::StoreOp::create(
        rewriter, loc, value, init.get(),
        indicesOf(rewriter, loc, op.getMatchingIndexingMap(&init), ivs));
    store->setAttr("alignment", alignment);
  }
}

} // namespace mlir::fuse::distribute
