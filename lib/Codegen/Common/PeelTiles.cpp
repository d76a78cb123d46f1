//===- PeelTiles.cpp - Whole tiles and the partial one apart --------------===//
//
// For a tile loop dimension k over [0, U) in steps of T where T does not
// divide U, with S = U - U mod T:
//
//   %r = scf.forall (%i) = (0) to (U) step (T) shared_outs(%o = %init)
//
// becomes
//
//   %a = scf.forall (%i) = (0) to (S) step (T)
//          shared_outs(%o = extract_slice %init[0..S))    // sizes T
//   %x = insert_slice %a into %init[0..S)
//   %b = scf.forall (%i) = (S) to (U) step (T)
//          shared_outs(%o = extract_slice %x[S..U))       // %i is S: sizes U-S
//   %r = insert_slice %b into %x[S..U)
//
// (the slices are along the dimension of each shared output that %i
// offsets). In the first loop the sizes `min(T, U - %i)` fold to T by
// upstream's min/max canonicalization over the loop's range; in the second
// %i is the constant S. The second loop's slices of its shared outputs are
// rebased to offset 0. When each result is inserted once into a larger
// tensor (a part of a concat, a piece of a split copy, the box an earlier
// peeled dimension gave it) and its destination is empty, the boxes are
// taken in that tensor instead (composed with the insert's offsets and
// strides): bufferization then sees one slice of one buffer per part,
// where a part inserted into its own destination and that inserted again
// would be copied. Results inserted one after another into one tensor
// (merged branches of a concat) are not peeled: two slices of one tensor
// feeding one loop are copied too.
//
//===----------------------------------------------------------------------===//

#include "PeelTiles.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Utils/AffineCanonicalizationUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using fuse::StaticBounds;

namespace {

/// The range and step of `iv` when it is the induction variable of an
/// `scf.forall` (or of the loops upstream's matcher knows).
LogicalResult matchLoop(Value iv, OpFoldResult &lb, OpFoldResult &ub,
                        OpFoldResult &step) {
  if (scf::ForallOp loop = scf::getForallOpThreadIndexOwner(iv)) {
    unsigned d = cast<BlockArgument>(iv).getArgNumber();
    lb = loop.getMixedLowerBound()[d];
    ub = loop.getMixedUpperBound()[d];
    step = loop.getMixedStep()[d];
    return success();
  }
  return scf::matchForLikeLoop(iv, lb, ub, step);
}

/// Whether `value` is computed from `iv` inside `loop`.
bool dependsOn(Value value, Value iv, scf::ForallOp loop,
               llvm::SmallPtrSetImpl<Operation *> &visited) {
  if (value == iv)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isProperAncestor(def) || !visited.insert(def).second)
    return false;
  if (def->getNumRegions() != 0)
    return true; // not looked into
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOn(operand, iv, loop, visited);
  });
}

/// The value of `size` when `iv` is `at`: a constant, or an affine op of
/// constants and `iv`.
std::optional<int64_t> evaluateAt(OpFoldResult size, Value iv, int64_t at) {
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return constant;
  auto value = dyn_cast<Value>(size);
  Operation *def = value ? value.getDefiningOp() : nullptr;
  if (!isa_and_nonnull<affine::AffineMinOp, affine::AffineMaxOp,
                       affine::AffineApplyOp>(def))
    return std::nullopt;
  Builder b(def->getContext());
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> known = operand == iv ? std::optional<int64_t>(at)
                                                 : getConstantIntValue(operand);
    if (!known)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*known));
  }
  AffineMap map = cast<AffineMapAttr>(def->getAttr("map")).getValue();
  SmallVector<Attribute> results;
  if (failed(map.constantFold(operands, results)) || results.empty())
    return std::nullopt;
  SmallVector<int64_t> values;
  for (Attribute result : results)
    values.push_back(cast<IntegerAttr>(result).getInt());
  return isa<affine::AffineMaxOp>(def) ? *llvm::max_element(values)
                                       : *llvm::min_element(values);
}

/// Per shared output of `loop`, the dimension its tiles advance along with
/// loop dimension `k` (whose tiles start at 0, `step`, ... below `ub`; the
/// whole ones end by `split`), when each use is a slice offset by exactly
/// the induction variable there (with unit stride and a tile within its
/// part of the range) and by values independent of it elsewhere.
std::optional<SmallVector<unsigned>> getPeeledDims(scf::ForallOp loop,
                                                   unsigned k, int64_t split,
                                                   int64_t ub, int64_t step) {
  Value iv = loop.getInductionVars()[k];
  SmallVector<unsigned> dims;
  for (BlockArgument output : loop.getRegionIterArgs()) {
    std::optional<unsigned> dim;
    for (OpOperand &use : output.getUses()) {
      if (!fuse::isSharedOutputSlice(use))
        return std::nullopt;
      auto slice = cast<OffsetSizeAndStrideOpInterface>(use.getOwner());
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
      SmallVector<OpFoldResult> strides = slice.getMixedStrides();
      std::optional<unsigned> here;
      for (auto [d, offset] : llvm::enumerate(offsets)) {
        if (dyn_cast<Value>(offset) == iv) {
          if (here || !isConstantIntValue(strides[d], 1))
            return std::nullopt;
          here = d;
          continue;
        }
        llvm::SmallPtrSet<Operation *, 8> visited;
        if (auto value = dyn_cast<Value>(offset);
            value && dependsOn(value, iv, loop, visited))
          return std::nullopt;
      }
      if (!here || (dim && *dim != *here))
        return std::nullopt;
      dim = here;
      // Every tile stays within its loop's part of the range.
      for (int64_t at = 0; at < ub; at += step) {
        std::optional<int64_t> size = evaluateAt(sizes[*dim], iv, at);
        int64_t end = at < split ? split : ub;
        if (!size || *size < 0 || at + *size > end)
          return std::nullopt;
      }
    }
    if (!dim)
      return std::nullopt;
    dims.push_back(*dim);
  }
  return dims;
}

/// Where a loop's result goes: `value` itself, or the box of it that an
/// insert_slice of the result writes (offsets and strides per dimension of
/// the result).
struct Target {
  Value value;
  SmallVector<int64_t> offsets, strides;
  /// The insert of the loop's result into `value`, if any.
  tensor::InsertSliceOp insert;
};

/// The box [lo, hi) along `dim` of a result of shape `shape` (all of it
/// along the others), in `target`.
void getBox(OpBuilder &b, const Target &target, ArrayRef<int64_t> shape,
            unsigned dim, int64_t lo, int64_t hi,
            SmallVectorImpl<OpFoldResult> &offsets,
            SmallVectorImpl<OpFoldResult> &sizes,
            SmallVectorImpl<OpFoldResult> &strides) {
  for (auto [d, extent] : llvm::enumerate(shape)) {
    int64_t offset = d == dim ? lo : 0;
    offsets.push_back(
        b.getIndexAttr(target.offsets[d] + target.strides[d] * offset));
    sizes.push_back(b.getIndexAttr(d == dim ? hi - lo : extent));
    strides.push_back(b.getIndexAttr(target.strides[d]));
  }
}

/// The targets of `loop`'s results, or nothing when a result is inserted
/// into a larger tensor that cannot be its target. When every result is
/// inserted once into a larger tensor (a part of a concat, a piece of a
/// split copy, or the box an earlier peeled dimension gave it) at a static
/// box, the parts write into those tensors directly, so that bufferization
/// sees one slice per part; this needs the loop's destination to be empty
/// (its contents are not read) or that very box, and each insert's result
/// to be used only after the last of them (where the parts go). Otherwise
/// each result's target is its own destination.
std::optional<SmallVector<Target>> getTargets(scf::ForallOp loop) {
  SmallVector<Target> own, inserted;
  tensor::InsertSliceOp last;
  for (auto [init, result] : llvm::zip(loop.getOutputs(), loop.getResults())) {
    int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
    own.push_back({init,
                   SmallVector<int64_t>(rank, 0),
                   SmallVector<int64_t>(rank, 1),
                   {}});
    auto insert =
        result.hasOneUse()
            ? dyn_cast<tensor::InsertSliceOp>(*result.getUsers().begin())
            : tensor::InsertSliceOp();
    std::optional<fuse::StridedBox> box = insert && insert.getSource() == result
                                              ? fuse::getStaticBox(insert)
                                              : std::nullopt;
    if (!box)
      continue;
    auto extract = init.getDefiningOp<tensor::ExtractSliceOp>();
    std::optional<fuse::StridedBox> initBox =
        extract && extract.getSource() == insert.getDest()
            ? fuse::getStaticBox(extract)
            : std::nullopt;
    bool sameBox = initBox && initBox->offsets == box->offsets &&
                   initBox->sizes == box->sizes &&
                   initBox->strides == box->strides;
    if (!init.getDefiningOp<tensor::EmptyOp>() && !sameBox)
      continue;
    inserted.push_back({insert.getDest(), box->offsets, box->strides, insert});
    if (!last || last->isBeforeInBlock(insert))
      last = insert;
  }
  bool anyInsert =
      llvm::any_of(loop->getUsers(), llvm::IsaPred<tensor::InsertSliceOp>);
  if (inserted.size() != loop.getNumResults())
    return anyInsert ? std::nullopt : std::optional(own);
  for (const Target &target : inserted)
    for (Operation *user : target.insert->getUsers())
      if (user->getBlock() != last->getBlock() || !last->isBeforeInBlock(user))
        return std::nullopt;
  return inserted;
}

/// A copy of `loop` over [lo, hi) in dimension `k` writing `outputs`.
scf::ForallOp clonePart(RewriterBase &rewriter, scf::ForallOp loop, unsigned k,
                        int64_t lo, int64_t hi, ValueRange outputs) {
  SmallVector<OpFoldResult> lbs = loop.getMixedLowerBound();
  SmallVector<OpFoldResult> ubs = loop.getMixedUpperBound();
  lbs[k] = rewriter.getIndexAttr(lo);
  ubs[k] = rewriter.getIndexAttr(hi);
  auto part =
      scf::ForallOp::create(rewriter, loop.getLoc(), lbs, ubs,
                            loop.getMixedStep(), outputs, loop.getMapping());
  part->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  rewriter.eraseOp(part.getTerminator());
  IRMapping mapping;
  mapping.map(loop.getBody()->getArguments(), part.getBody()->getArguments());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(part.getBody());
  for (Operation &op : *loop.getBody())
    rewriter.clone(op, mapping);
  return part;
}

/// Peels dimension `k` of `loop`: the loops replacing it (itself if it
/// cannot be peeled).
SmallVector<scf::ForallOp> peelDimension(RewriterBase &rewriter,
                                         scf::ForallOp loop, unsigned k) {
  std::optional<StaticBounds> bounds = fuse::getStaticBounds(loop);
  if (!bounds || bounds->lbs[k] != 0 || bounds->steps[k] <= 0 ||
      bounds->ubs[k] % bounds->steps[k] == 0)
    return {loop};
  int64_t ub = bounds->ubs[k], step = bounds->steps[k];
  int64_t split = ub - ub % step;
  std::optional<SmallVector<unsigned>> dims =
      getPeeledDims(loop, k, split, ub, step);
  if (!dims)
    return {loop};
  // Results inserted into larger tensors that cannot be written directly:
  // the parts would be inserted into their own destinations first, which
  // bufferization then copies.
  std::optional<SmallVector<Target>> maybeTargets = getTargets(loop);
  if (!maybeTargets)
    return {loop};
  SmallVector<Target> targets = std::move(*maybeTargets);
  // Results whose destination is one empty tensor (CSE merges identical
  // `tensor.empty` ops) each get their own: their parts are inserted into
  // that destination one after another, and bufferization would give all
  // but one chain a copy of it.
  llvm::SmallPtrSet<Value, 4> seen;
  for (Target &target : targets) {
    auto empty = target.value.getDefiningOp<tensor::EmptyOp>();
    if (!target.insert && empty && !seen.insert(target.value).second) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(empty);
      target.value = rewriter.clone(*empty)->getResult(0);
    }
  }

  Location loc = loop.getLoc();
  // The parts go after the last insert they replace, whose destinations
  // may be defined after the loop.
  rewriter.setInsertionPoint(loop);
  for (const Target &target : targets)
    if (target.insert &&
        rewriter.getInsertionPoint()->isBeforeInBlock(target.insert))
      rewriter.setInsertionPoint(target.insert);
  SmallVector<scf::ForallOp> parts;
  // Each part writes a box of every target and inserts it back.
  auto addPart = [&](int64_t lo, int64_t hi) {
    SmallVector<Value> inits;
    for (auto [target, dim, result] :
         llvm::zip(targets, *dims, loop.getResults())) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      getBox(rewriter, target,
             cast<RankedTensorType>(result.getType()).getShape(), dim, lo, hi,
             offsets, sizes, strides);
      inits.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, target.value, offsets, sizes, strides));
    }
    scf::ForallOp part = clonePart(rewriter, loop, k, lo, hi, inits);
    for (auto [i, dim] : llvm::enumerate(*dims)) {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      getBox(rewriter, targets[i],
             cast<RankedTensorType>(loop.getResult(i).getType()).getShape(),
             dim, lo, hi, offsets, sizes, strides);
      targets[i].value = tensor::InsertSliceOp::create(
          rewriter, loc, part.getResult(i), targets[i].value, offsets, sizes,
          strides);
    }
    parts.push_back(part);
    return part;
  };

  // The whole tiles: their sizes are the step.
  if (split > 0) {
    scf::ForallOp whole = addPart(0, split);
    SmallVector<Operation *> bounded;
    whole.getBody()->walk([&](Operation *op) {
      if (isa<affine::AffineMinOp, affine::AffineMaxOp>(op))
        bounded.push_back(op);
    });
    for (Operation *op : bounded)
      (void)scf::canonicalizeMinMaxOpInLoop(rewriter, op, matchLoop);
  }

  // The last tile: its induction variable is `split`, its outputs' slices
  // start at 0.
  scf::ForallOp last = addPart(split, ub);
  Value iv = last.getInductionVars()[k];
  for (auto [output, dim] : llvm::zip(last.getRegionIterArgs(), *dims)) {
    for (OpOperand &use : llvm::make_early_inc_range(output.getUses())) {
      auto slice = cast<OffsetSizeAndStrideOpInterface>(use.getOwner());
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      offsets[dim] = rewriter.getIndexAttr(0);
      fuse::replaceSharedOutputSlice(rewriter, slice, output, offsets,
                                     slice.getMixedStrides());
    }
  }
  rewriter.setInsertionPointToStart(last.getBody());
  Value start = arith::ConstantIndexOp::create(rewriter, loc, split);
  rewriter.replaceAllUsesWith(iv, start);

  if (targets.front().insert) {
    for (const Target &target : targets)
      rewriter.replaceOp(target.insert, target.value);
    rewriter.eraseOp(loop);
  } else {
    rewriter.replaceOp(loop, llvm::map_to_vector(targets, [](const Target &t) {
                         return t.value;
                       }));
  }
  return parts;
}

} // namespace

namespace {

/// See populatePeeledTilePatterns.
struct StaticIfResult final : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumResults() == 0 || op.getElseRegion().empty())
      return failure();
    scf::YieldOp thenYield = op.thenYield(), elseYield = op.elseYield();
    bool changed = false;
    rewriter.setInsertionPointAfter(op);
    for (OpResult result : op->getResults()) {
      unsigned i = result.getResultNumber();
      auto thenCast = thenYield.getOperand(i).getDefiningOp<tensor::CastOp>();
      auto elseCast = elseYield.getOperand(i).getDefiningOp<tensor::CastOp>();
      if (!thenCast || !elseCast ||
          thenCast.getSource().getType() != elseCast.getSource().getType() ||
          thenCast.getSource().getType() == result.getType() ||
          !tensor::canFoldIntoConsumerOp(thenCast))
        continue;
      // The branches yield the static values, the users read them cast.
      Type dynamic = result.getType();
      rewriter.modifyOpInPlace(
          op, [&] { result.setType(thenCast.getSource().getType()); });
      rewriter.modifyOpInPlace(
          thenYield, [&] { thenYield->setOperand(i, thenCast.getSource()); });
      rewriter.modifyOpInPlace(
          elseYield, [&] { elseYield->setOperand(i, elseCast.getSource()); });
      auto cast =
          tensor::CastOp::create(rewriter, op.getLoc(), dynamic, result);
      rewriter.replaceAllUsesExcept(result, cast, cast);
      changed = true;
    }
    return success(changed);
  }
};

} // namespace

void fuse::populatePeeledTilePatterns(RewritePatternSet &patterns) {
  patterns.add<StaticIfResult>(patterns.getContext());
}

SmallVector<scf::ForallOp>
fuse::peelPartialTiles(RewriterBase &rewriter, scf::ForallOp loop,
                       const FrozenRewritePatternSet &canonicalization) {
  std::optional<StaticBounds> bounds = getStaticBounds(loop);
  if (!bounds || loop.getMapping() || loop.getNumResults() == 0)
    return {loop};
  SmallVector<scf::ForallOp> loops = {loop};
  bool peeled = false;
  for (unsigned k = 0; k < bounds->lbs.size(); ++k) {
    if (bounds->steps[k] <= 0 ||
        (bounds->ubs[k] - bounds->lbs[k]) % bounds->steps[k] == 0)
      continue;
    SmallVector<scf::ForallOp> next;
    for (scf::ForallOp part : loops) {
      SmallVector<scf::ForallOp> pieces = peelDimension(rewriter, part, k);
      peeled |= pieces.size() != 1 || pieces.front() != part;
      llvm::append_range(next, pieces);
    }
    loops = std::move(next);
  }
  if (!peeled)
    return loops;
  for (scf::ForallOp part : loops) {
    keepOneTileLoop(part);
    (void)applyPatternsGreedily(part.getRegion(), canonicalization);
  }
  return loops;
}
