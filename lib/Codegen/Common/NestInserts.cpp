//===- NestInserts.cpp - A nest writes the tensor its results go into -----===//
//
//   %r:2 = scf.forall ... shared_outs(%o0 = %e0, %o1 = %e1) {
//     ... tensor.parallel_insert_slice %t0 into %o0[%i, 0] [8, 32] [1, 1]
//         tensor.parallel_insert_slice %t1 into %o1[%i, 0] [8, 32] [1, 1]
//   }
//   %c0 = tensor.insert_slice %r#0 into %base[0, 0] [13, 32] [1, 1]
//   %c1 = tensor.insert_slice %r#1 into %c0[13, 0] [13, 32] [1, 1]
//
// becomes
//
//   %c1 = scf.forall ... shared_outs(%o = %base) {
//     ... tensor.parallel_insert_slice %t0 into %o[%i, 0] [8, 32] [1, 1]
//         tensor.parallel_insert_slice %t1 into %o[%i + 13, 0] [8, 32] [1, 1]
//   }
//
//===----------------------------------------------------------------------===//

#include "NestInserts.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// The insert whose destination is `value`, when it is `value`'s only use.
tensor::InsertSliceOp getNextInsert(Value value) {
  if (!value.hasOneUse())
    return {};
  OpOperand &use = *value.use_begin();
  auto insert = dyn_cast<tensor::InsertSliceOp>(use.getOwner());
  return insert && insert.getDest() == value ? insert : tensor::InsertSliceOp();
}

/// `slice` (an extract or parallel insert of a shared output) moved to
/// `output` at the place `box` gives it there. `terminator` is the loop's:
/// what a parallel insert needs is computed before it.
void rebase(RewriterBase &rewriter, OffsetSizeAndStrideOpInterface slice,
            Value output, const fuse::StridedBox &box, Operation *terminator) {
  Location loc = slice.getLoc();
  SmallVector<OpFoldResult> offsets, strides;
  rewriter.setInsertionPoint(
      isa<tensor::ParallelInsertSliceOp>(*slice) ? terminator : slice);
  for (auto [d, offset] : llvm::enumerate(slice.getMixedOffsets())) {
    AffineExpr x = rewriter.getAffineDimExpr(0);
    offsets.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, x * box.strides[d] + box.offsets[d], {offset}));
    int64_t stride = *getConstantIntValue(slice.getMixedStrides()[d]);
    strides.push_back(rewriter.getIndexAttr(stride * box.strides[d]));
  }
  fuse::replaceSharedOutputSlice(rewriter, slice, output, offsets, strides);
}

} // namespace

FailureOr<scf::ForallOp> fuse::foldInsertsIntoNest(RewriterBase &rewriter,
                                                   scf::ForallOp loop) {
  // One result inserted into a larger tensor is left to bufferization's
  // empty-tensor elimination, which writes it in place through a static
  // slice outside the loop (what fuse-merge-group-launches compares).
  if (loop.getNumResults() < 2 || loop.getMapping())
    return failure();
  // Each result inserted once at a static box; each destination empty.
  DenseMap<Operation *, unsigned> resultOf;
  tensor::InsertSliceOp any;
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    if (!result.hasOneUse() ||
        !loop.getOutputs()[i].getDefiningOp<tensor::EmptyOp>())
      return failure();
    auto insert = dyn_cast<tensor::InsertSliceOp>(*result.getUsers().begin());
    if (!insert || insert.getSource() != result || !fuse::getStaticBox(insert))
      return failure();
    resultOf[insert] = i;
    any = insert;
  }
  // The chain of inserts they are in, from its first destination.
  tensor::InsertSliceOp first = any;
  while (auto previous =
             first.getDest().getDefiningOp<tensor::InsertSliceOp>()) {
    if (getNextInsert(previous.getResult()) != first)
      break;
    first = previous;
  }
  SmallVector<tensor::InsertSliceOp> chain = {first};
  while (tensor::InsertSliceOp next = getNextInsert(chain.back().getResult()))
    chain.push_back(next);
  if (llvm::count_if(chain, [&](tensor::InsertSliceOp insert) {
        return resultOf.contains(insert);
      }) != static_cast<int64_t>(loop.getNumResults()))
    return failure();
  // Boxes of the loop's results apart from every other box of the chain
  // (so the order of the writes does not matter).
  for (auto [i, a] : llvm::enumerate(chain))
    for (tensor::InsertSliceOp b : ArrayRef(chain).drop_front(i + 1)) {
      std::optional<StridedBox> boxA = getStaticBox(a), boxB = getStaticBox(b);
      if ((resultOf.contains(a) || resultOf.contains(b)) &&
          (!boxA || !boxB || !areDisjoint(*boxA, *boxB)))
        return failure();
    }
  // Every use of a shared output is a slice of it (the source of an
  // extract, the destination of a parallel insert) with static strides.
  for (BlockArgument output : loop.getRegionIterArgs())
    for (OpOperand &use : output.getUses())
      if (!isSharedOutputSlice(use) ||
          !getConstantIntValues(
              cast<OffsetSizeAndStrideOpInterface>(use.getOwner())
                  .getMixedStrides()))
        return failure();
  // The first destination must be there before the loop.
  Value base = first.getDest();
  if (Operation *def = base.getDefiningOp()) {
    if (def->getBlock() != loop->getBlock())
      return failure();
    if (!def->isBeforeInBlock(loop)) {
      if (!isa<tensor::EmptyOp>(def) || def->getNumOperands() != 0)
        return failure();
      rewriter.moveOpBefore(def, loop);
    }
  } else if (cast<BlockArgument>(base).getOwner() != loop->getBlock()) {
    return failure();
  }
  // The new loop, writing `base`.
  rewriter.setInsertionPoint(loop);
  auto nest =
      scf::ForallOp::create(rewriter, loop.getLoc(), loop.getMixedLowerBound(),
                            loop.getMixedUpperBound(), loop.getMixedStep(),
                            ValueRange{base}, loop.getMapping());
  nest->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  rewriter.eraseOp(nest.getTerminator());
  IRMapping mapping;
  mapping.map(loop.getInductionVars(), nest.getInductionVars());
  for (BlockArgument output : loop.getRegionIterArgs())
    mapping.map(output, nest.getRegionIterArgs().front());
  rewriter.setInsertionPointToEnd(nest.getBody());
  for (Operation &op : *loop.getBody())
    rewriter.clone(op, mapping);
  // Its slices of the shared output at the place of their result's box.
  SmallVector<fuse::StridedBox> boxes(loop.getNumResults());
  for (tensor::InsertSliceOp insert : chain)
    if (auto it = resultOf.find(insert); it != resultOf.end())
      boxes[it->second] = *fuse::getStaticBox(insert);
  Value output = nest.getRegionIterArgs().front();
  Operation *terminator = nest.getTerminator();
  for (auto [i, original] : llvm::enumerate(loop.getRegionIterArgs())) {
    SmallVector<Operation *> slices;
    for (Operation *user : original.getUsers())
      slices.push_back(mapping.lookup(user));
    for (Operation *slice : slices)
      rebase(rewriter, cast<OffsetSizeAndStrideOpInterface>(slice), output,
             boxes[i], terminator);
  }

  // The chain's other inserts, after the loop's writes.
  rewriter.setInsertionPoint(chain.back());
  Value value = nest.getResult(0);
  for (tensor::InsertSliceOp insert : chain)
    if (!resultOf.contains(insert))
      value = tensor::InsertSliceOp::create(
          rewriter, insert.getLoc(), insert.getSource(), value,
          insert.getMixedOffsets(), insert.getMixedSizes(),
          insert.getMixedStrides());
  rewriter.replaceAllUsesWith(chain.back().getResult(), value);
  for (tensor::InsertSliceOp insert : llvm::reverse(chain))
    rewriter.eraseOp(insert);
  rewriter.eraseOp(loop);
  return nest;
}

//===----------------------------------------------------------------------===//
// Collapsed results
//===----------------------------------------------------------------------===//

namespace {

/// The box of the collapsed tensor that `insert`'s tile covers: per group of
/// dimensions, the tile must be units before some dimension j and whole
/// after it (then its elements are consecutive in the group's collapsed
/// dimension). Offsets are computed before `insert`'s loop terminator.
std::optional<std::pair<SmallVector<OpFoldResult>, SmallVector<int64_t>>>
getCollapsedBox(RewriterBase &rewriter, tensor::ParallelInsertSliceOp insert,
                ArrayRef<int64_t> shape,
                ArrayRef<ReassociationIndices> groups) {
  std::optional<SmallVector<int64_t>> sizes =
      getConstantIntValues(insert.getMixedSizes());
  if (!sizes)
    return std::nullopt;
  SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
  SmallVector<OpFoldResult> collapsedOffsets;
  SmallVector<int64_t> collapsedSizes;
  Location loc = insert.getLoc();
  for (const ReassociationIndices &group : groups) {
    // The first dimension of the group (from the outside) that is not a
    // unit of the tile; all after it must be whole.
    unsigned j = group.size() - 1;
    for (auto [k, d] : llvm::enumerate(group))
      if ((*sizes)[d] != 1) {
        j = k;
        break;
      }
    int64_t size = 1;
    for (auto [k, d] : llvm::enumerate(group)) {
      if (k > j &&
          ((*sizes)[d] != shape[d] || !isConstantIntValue(offsets[d], 0)))
        return std::nullopt;
      size *= (*sizes)[d];
    }
    // offset = sum over the group of offset_d * (product of later extents).
    AffineExpr expr = rewriter.getAffineConstantExpr(0);
    int64_t stride = 1;
    SmallVector<OpFoldResult> operands;
    for (int64_t k = group.size() - 1; k >= 0; --k) {
      expr = expr + rewriter.getAffineDimExpr(operands.size()) * stride;
      operands.push_back(offsets[group[k]]);
      stride *= shape[group[k]];
    }
    collapsedOffsets.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, AffineMap::get(operands.size(), 0, expr), operands));
    collapsedSizes.push_back(size);
  }
  return std::make_pair(collapsedOffsets, collapsedSizes);
}

} // namespace

bool fuse::foldCollapsesIntoNest(RewriterBase &rewriter, scf::ForallOp loop) {
  bool folded = false;
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Value result = loop.getResult(i);
    auto collapse =
        result.hasOneUse()
            ? dyn_cast<tensor::CollapseShapeOp>(*result.getUsers().begin())
            : tensor::CollapseShapeOp();
    auto empty = loop.getOutputs()[i].getDefiningOp<tensor::EmptyOp>();
    auto type = cast<RankedTensorType>(result.getType());
    if (!collapse || !empty || !type.hasStaticShape() ||
        !collapse.getResultType().hasStaticShape())
      continue;
    BlockArgument output = loop.getRegionIterArgs()[i];
    SmallVector<tensor::ParallelInsertSliceOp> inserts;
    SmallVector<tensor::ExtractSliceOp> destinations;
    bool onlyWritten = llvm::all_of(output.getUses(), [&](OpOperand &use) {
      // A tile's destination (what tile-and-fuse passes as outs) holds
      // nothing yet: the shared output starts empty.
      if (auto extract = dyn_cast<tensor::ExtractSliceOp>(use.getOwner())) {
        destinations.push_back(extract);
        return extract.getType().hasStaticShape();
      }
      auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(use.getOwner());
      if (!insert || insert.getDest() != output ||
          insert.getSourceType().getRank() != type.getRank() ||
          !llvm::all_of(insert.getMixedStrides(), [](OpFoldResult s) {
            return isConstantIntValue(s, 1);
          }))
        return false;
      inserts.push_back(insert);
      return true;
    });
    if (!onlyWritten || inserts.empty())
      continue;
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    // Every tile's box first: nothing changes unless all of them fold.
    rewriter.setInsertionPoint(loop.getTerminator());
    SmallVector<std::pair<SmallVector<OpFoldResult>, SmallVector<int64_t>>>
        boxes;
    for (tensor::ParallelInsertSliceOp insert : inserts) {
      auto box = getCollapsedBox(rewriter, insert, type.getShape(), groups);
      if (!box)
        break;
      boxes.push_back(std::move(*box));
    }
    if (boxes.size() != inserts.size())
      continue;

    for (tensor::ExtractSliceOp extract : destinations) {
      rewriter.setInsertionPoint(extract);
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
          extract, extract.getType().getShape(),
          extract.getType().getElementType());
    }
    RankedTensorType collapsedType = collapse.getResultType();
    rewriter.setInsertionPoint(loop);
    Value newEmpty = tensor::EmptyOp::create(rewriter, empty.getLoc(),
                                             collapsedType.getShape(),
                                             collapsedType.getElementType());
    rewriter.modifyOpInPlace(loop, [&] {
      loop.getOutputsMutable()[i].set(newEmpty);
      output.setType(collapsedType);
      result.setType(collapsedType);
    });
    for (auto [insert, box] : llvm::zip(inserts, boxes)) {
      rewriter.setInsertionPoint(loop.getTerminator());
      auto tileType =
          RankedTensorType::get(box.second, collapsedType.getElementType());
      Value tile = tensor::CollapseShapeOp::create(
          rewriter, insert.getLoc(), tileType, insert.getSource(), groups);
      rewriter.setInsertionPoint(insert);
      SmallVector<OpFoldResult> sizes =
          getAsIndexOpFoldResult(rewriter.getContext(), box.second);
      SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
      tensor::ParallelInsertSliceOp::create(rewriter, insert.getLoc(), tile,
                                            output, box.first, sizes, strides);
      rewriter.eraseOp(insert);
    }
    rewriter.replaceOp(collapse, result);
    folded = true;
  }
  return folded;
}

//===----------------------------------------------------------------------===//
// Copies of parts
//===----------------------------------------------------------------------===//

SmallVector<Operation *>
fuse::makeCopiesOfUncomputedParts(RewriterBase &rewriter, Block &block) {
  auto isUncomputed = [&](Value value) {
    while (Operation *def = value.getDefiningOp()) {
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
        value = def->getOperand(0);
        continue;
      }
      return matchPattern(value, m_Constant());
    }
    return cast<BlockArgument>(value).getOwner() == &block;
  };
  SmallVector<Operation *> copies;
  for (auto insert : llvm::to_vector(block.getOps<tensor::InsertSliceOp>())) {
    Value source = insert.getSource();
    if (!isUncomputed(source) || !insert.getSourceType().hasStaticShape())
      continue;
    // Into an empty tensor, like every nest: bufferization then writes the
    // copy's tiles in place of the insert.
    rewriter.setInsertionPoint(insert);
    RankedTensorType type = insert.getSourceType();
    Value empty = tensor::EmptyOp::create(
        rewriter, insert.getLoc(), type.getShape(), type.getElementType());
    auto copy =
        linalg::CopyOp::create(rewriter, insert.getLoc(), source, empty);
    rewriter.modifyOpInPlace(
        insert, [&] { insert.getSourceMutable().set(copy.getResult(0)); });
    copies.push_back(copy);
  }
  return copies;
}
