//===- InsertChainsToBuffer.cpp - Insert chains ready for bufferization ---===//
//
// `--fuse-insert-chains-to-buffer` (docs in Passes.td), two steps before
// one-shot bufferization:
//
//   0. A part read after the insert chain it goes into is read from the
//      chain's result (readPartsThroughInserts), so that bufferization
//      computes it in place.
//
// Then long chains: one-shot bufferization's analysis is cubic or worse in
// the length of a chain of `tensor.insert_slice` ops threaded through their
// destination (llvm/llvm-project#81959), which a concat of many parts is.
// Such a chain is bufferized here instead, where it is simple:
//
//   1. Find chains: an insert whose destination is not the result of a
//      chain link starts one; a link's result may be read only by the next
//      insert (as its destination) and by extract_slices of exactly the next
//      insert's region (the destination the next part's loop nest writes).
//   2. Keep chains of at least `min-length` links in one block whose
//      boxes are constant and pairwise disjoint (so that a part's subview is
//      written by nothing else while its tensor lives: `restrict` holds).
//   3. Rewrite: one buffer for the destination; per link, the extracts of
//      its region become to_tensor of a subview and the insert becomes
//      materialize_in_destination into that subview; the last result
//      becomes to_tensor of the buffer.
//
// Last, a shorter chain into a tensor.empty whose result is inserted whole
// into a bigger tensor (a padded buffer) starts from that tensor's box
// instead of the tensor.empty (startChainsInOuterBoxes): upstream's
// empty-tensor elimination, innermost insert first, would leave its first
// parts in a buffer of their own, copied after the chain.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEINSERTCHAINSTOBUFFERPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// A slice's box in its larger tensor, when its offsets, sizes and strides
/// are constants (attributes, or constant operands as TosaToTensor's concat
/// has them).
std::optional<fuse::StridedBox>
getConstantBox(OffsetSizeAndStrideOpInterface op) {
  std::optional<SmallVector<int64_t>> offsets =
      getConstantIntValues(op.getMixedOffsets());
  std::optional<SmallVector<int64_t>> sizes =
      getConstantIntValues(op.getMixedSizes());
  std::optional<SmallVector<int64_t>> strides =
      getConstantIntValues(op.getMixedStrides());
  if (!offsets || !sizes || !strides)
    return std::nullopt;
  return fuse::StridedBox{std::move(*offsets), std::move(*sizes),
                          std::move(*strides)};
}

bool sameBox(OffsetSizeAndStrideOpInterface a,
             OffsetSizeAndStrideOpInterface b) {
  std::optional<fuse::StridedBox> x = getConstantBox(a), y = getConstantBox(b);
  return x && y && x->offsets == y->offsets && x->sizes == y->sizes &&
         x->strides == y->strides;
}

/// The insert that continues the chain after `link`, if `link`'s result is
/// read only as that insert's destination and by extracts of its region;
/// those extracts are added to `reads`.
tensor::InsertSliceOp
getNextLink(tensor::InsertSliceOp link,
            SmallVectorImpl<tensor::ExtractSliceOp> &reads) {
  tensor::InsertSliceOp next;
  for (OpOperand &use : link.getResult().getUses()) {
    auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
    if (insert && use.getOperandNumber() == 1 && !next)
      next = insert;
    else if (!isa<tensor::ExtractSliceOp>(use.getOwner()))
      return nullptr;
  }
  if (!next || next->getBlock() != link->getBlock())
    return nullptr;
  SmallVector<tensor::ExtractSliceOp> found;
  for (Operation *user : link.getResult().getUsers()) {
    auto extract = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!extract)
      continue;
    if (!sameBox(extract, next))
      return nullptr;
    found.push_back(extract);
  }
  reads.append(found.begin(), found.end());
  return next;
}

/// A chain and the reads of each link's region before its insert
/// (`reads[i]` read the region `links[i]` writes).
struct Chain {
  SmallVector<tensor::InsertSliceOp> links;
  SmallVector<SmallVector<tensor::ExtractSliceOp>> reads;
  /// The box each link writes (set by getDisjointBoxes).
  SmallVector<fuse::StridedBox> boxes;
};

Chain getChain(tensor::InsertSliceOp first) {
  Chain chain;
  chain.links.push_back(first);
  chain.reads.emplace_back();
  // Reads of the first link's region from its destination are not the
  // chain's (the destination may be read elsewhere): none are rewritten.
  while (true) {
    SmallVector<tensor::ExtractSliceOp> reads;
    tensor::InsertSliceOp next = getNextLink(chain.links.back(), reads);
    if (!next)
      break;
    chain.links.push_back(next);
    chain.reads.push_back(std::move(reads));
  }
  return chain;
}

/// Whether every link writes a constant box and no two overlap; if so the
/// boxes are the chain's.
bool getDisjointBoxes(Chain &chain) {
  SmallVector<fuse::StridedBox> boxes;
  for (tensor::InsertSliceOp link : chain.links) {
    std::optional<fuse::StridedBox> box = getConstantBox(link);
    if (!box)
      return false;
    boxes.push_back(std::move(*box));
  }
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j)
      if (!fuse::areDisjoint(boxes[i], boxes[j]))
        return false;
  chain.boxes = std::move(boxes);
  return true;
}

/// The subview of `buffer` at `box`, of `shape` (rank-reduced like the
/// slice it stands for).
Value createView(OpBuilder &b, Location loc, Value buffer,
                 const fuse::StridedBox &box, ArrayRef<int64_t> shape) {
  MemRefType type = memref::SubViewOp::inferRankReducedResultType(
      shape, cast<MemRefType>(buffer.getType()), box.offsets, box.sizes,
      box.strides);
  return memref::SubViewOp::create(b, loc, type, buffer, box.offsets,
                                   box.sizes, box.strides);
}

void rewriteChain(RewriterBase &rewriter, const Chain &chain) {
  tensor::InsertSliceOp first = chain.links.front();
  Location loc = first.getLoc();
  auto resultType = cast<RankedTensorType>(first.getResultType());
  auto bufferType =
      MemRefType::get(resultType.getShape(), resultType.getElementType());
  // The buffer, holding the destination unless that is undefined.
  rewriter.setInsertionPoint(first);
  Value buffer = memref::AllocOp::create(rewriter, loc, bufferType);
  if (!first.getDest().getDefiningOp<tensor::EmptyOp>())
    bufferization::MaterializeInDestinationOp::create(
        rewriter, loc, TypeRange{}, first.getDest(), buffer,
        /*restrict=*/true, /*writable=*/true);
  for (size_t i = 0; i < chain.links.size(); ++i) {
    tensor::InsertSliceOp link = chain.links[i];
    // The views of the link's box, at the buffer: one for the insert and
    // the reads of its shape (a part written in place is then copied onto
    // itself, which folds away), one per other shape a read has.
    auto viewOf = [&](ArrayRef<int64_t> shape) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfterValue(buffer);
      return createView(rewriter, link.getLoc(), buffer, chain.boxes[i],
                        shape);
    };
    ArrayRef<int64_t> shape = link.getSourceType().getShape();
    Value view = viewOf(shape);
    // Reads of the region before the insert: the part's destination.
    for (tensor::ExtractSliceOp read : chain.reads[i]) {
      ArrayRef<int64_t> readShape = read.getResultType().getShape();
      Value readView = readShape == shape ? view : viewOf(readShape);
      rewriter.setInsertionPoint(read);
      rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
          read, read.getResultType(), readView, /*restrict=*/true,
          /*writable=*/true);
    }
    rewriter.setInsertionPoint(link);
    bufferization::MaterializeInDestinationOp::create(
        rewriter, link.getLoc(), TypeRange{}, link.getSource(), view,
        /*restrict=*/true, /*writable=*/true);
  }
  tensor::InsertSliceOp last = chain.links.back();
  rewriter.setInsertionPoint(last);
  Value result = bufferization::ToTensorOp::create(
      rewriter, last.getLoc(), resultType, buffer, /*restrict=*/true,
      /*writable=*/true);
  rewriter.replaceAllUsesWith(last.getResult(), result);
  for (tensor::InsertSliceOp link : llvm::reverse(chain.links))
    rewriter.eraseOp(link);
}

/// Reads of a part after it is inserted read it from the tensor it went
/// into: a use of `insert`'s source after the end of the insert chain it
/// starts or continues (inserts into each result in turn, of static boxes
/// disjoint from this one's) becomes an `extract_slice` of the chain's
/// result at the part's box. Canonicalization folds such extracts to the
/// part (a nest reading rows 159 to 197 of the previous group's result reads
/// the peeled nest that computed them), and one-shot bufferization then
/// sees the part read after the chain writes the buffer it lives in, and
/// copies it: the peeled last tile of ViT's LayerNorm-fused MLP projection
/// wrote a temporary, copied in before and out after it, which also kept
/// it from merging with the whole tiles' nest.
void readPartsThroughInserts(RewriterBase &rewriter,
                             tensor::InsertSliceOp insert) {
  std::optional<fuse::StridedBox> box = getConstantBox(insert);
  Value part = insert.getSource();
  if (!box || part.hasOneUse())
    return;
  tensor::InsertSliceOp end = insert;
  while (end.getResult().hasOneUse()) {
    auto next = dyn_cast<tensor::InsertSliceOp>(*end->getUsers().begin());
    std::optional<fuse::StridedBox> nextBox =
        next ? getConstantBox(next) : std::nullopt;
    if (!next || next.getDest() != end.getResult() ||
        next->getBlock() != insert->getBlock() || !nextBox ||
        !fuse::areDisjoint(*box, *nextBox))
      break;
    end = next;
  }
  Block *block = insert->getBlock();
  Value read;
  for (OpOperand &use : llvm::make_early_inc_range(part.getUses())) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || user == end || !end->isBeforeInBlock(user))
      continue;
    if (!read) {
      rewriter.setInsertionPointAfter(end);
      read = tensor::ExtractSliceOp::create(
          rewriter, insert.getLoc(), insert.getSourceType(), end.getResult(),
          insert.getMixedOffsets(), insert.getMixedSizes(),
          insert.getMixedStrides());
    }
    rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(read); });
  }
}

/// A chain of inserts into a tensor.empty (a group's nests writing their
/// parts, a concat's parts) whose result is inserted whole into a bigger
/// tensor (a padded buffer: PadInProducers.cpp) starts from that tensor's
/// box: the tensor.empty becomes an extract_slice of the outer destination
/// at the box the outer insert writes, and bufferization writes every part
/// in place there. Upstream's empty-tensor elimination takes the innermost
/// insert first: it gives the first parts the tensor.empty's buffer, which
/// the outer insert then copies (Inception-v3's 147 x 147 convolution, its
/// nest split at a partial tile, copied 2.4 MB serially per call; U-Net's
/// skip connections, 2-16 MB each). Outermost inserts first here; only in
/// a function's body, where the padded buffers are.
void startChainsInOuterBoxes(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<tensor::InsertSliceOp> inserts;
  for (Block &block : func.getBody())
    for (auto insert : block.getOps<tensor::InsertSliceOp>())
      inserts.push_back(insert);
  DominanceInfo dominance(func);
  for (tensor::InsertSliceOp outer : llvm::reverse(inserts)) {
    // Back through the chain (getNextLink's links) to the insert into the
    // tensor.empty.
    auto first = outer.getSource().getDefiningOp<tensor::InsertSliceOp>();
    if (!first || !outer.getSource().hasOneUse())
      continue;
    while (auto previous =
               first.getDest().getDefiningOp<tensor::InsertSliceOp>()) {
      SmallVector<tensor::ExtractSliceOp> reads;
      if (getNextLink(previous, reads) != first)
        break;
      first = previous;
    }
    // The outer destination is written in place only where nothing else
    // reads it (not a constant, not a value read again later).
    auto empty = first.getDest().getDefiningOp<tensor::EmptyOp>();
    if (!empty || !getConstantBox(outer) || !outer.getDest().hasOneUse() ||
        matchPattern(outer.getDest(), m_Constant()) ||
        !llvm::all_of(outer->getOperands().drop_front(), [&](Value operand) {
          return dominance.properlyDominates(operand, empty);
        }))
      continue;
    rewriter.setInsertionPoint(empty);
    Value box = tensor::ExtractSliceOp::create(
        rewriter, empty.getLoc(), outer.getSourceType(), outer.getDest(),
        outer.getMixedOffsets(), outer.getMixedSizes(),
        outer.getMixedStrides());
    rewriter.modifyOpInPlace(first, [&] { first.getDestMutable().set(box); });
  }
}

struct FuseInsertChainsToBufferPass final
    : fuse::impl::FuseInsertChainsToBufferPassBase<
          FuseInsertChainsToBufferPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minLength < 1) {
      emitError(getOperation()->getLoc())
          << "fuse-insert-chains-to-buffer: min-length must be at least 1, "
             "not "
          << static_cast<int64_t>(minLength);
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation()->walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts)
      readPartsThroughInserts(rewriter, insert);

    SmallVector<Chain, 0> chains;
    getOperation()->walk([&](tensor::InsertSliceOp insert) {
      auto type = dyn_cast<RankedTensorType>(insert.getResultType());
      if (!type || !type.hasStaticShape())
        return;
      // Starts of chains only: not a link's continuation.
      if (auto previous = insert.getDest().getDefiningOp<tensor::InsertSliceOp>()) {
        SmallVector<tensor::ExtractSliceOp> reads;
        if (getNextLink(previous, reads) == insert)
          return;
      }
      Chain chain = getChain(insert);
      if (static_cast<int64_t>(chain.links.size()) >= minLength &&
          getDisjointBoxes(chain))
        chains.push_back(std::move(chain));
    });
    for (const Chain &chain : chains)
      rewriteChain(rewriter, chain);

    getOperation()->walk(
        [&](func::FuncOp func) { startChainsInOuterBoxes(rewriter, func); });
  }
};

} // namespace
