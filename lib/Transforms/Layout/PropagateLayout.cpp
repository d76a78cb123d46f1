//===- PropagateLayout.cpp - Greedy global layout propagation -------------===//
//
// Graphs imported from NCHW frameworks wrap every NHWC TOSA convolution in
// transposes; the elementwise ops, BatchNorms and residual adds between the
// convolutions then run in NCHW. Local moves (upstream
// tosa-reduce-transposes) stop at the first value with a second reader, such
// as a residual branch or a block output read by the next block's
// convolution and by its skip connection. This pass decides the layout of
// whole regions instead.
//
// 1. Regions. Layout-agnostic ops are elementwise ops (broadcasting equal-
//    rank operands), casts, reductions, concats, pads and slices: they
//    compute the same thing in any dimension order, reductions and concats
//    with their axis renamed, pads and slices with their amounts permuted
//    (Inception's and U-Net's channel concats and the pads before
//    Inception's average pools stay NHWC between NHWC convolutions). Their
//    tensor values, joined through these ops, form regions. Everything else
//    is a fixed-layout boundary: the anchors (convolutions, matmuls: TOSA fixes
//    their layout, NHWC/OHWI and [N,M,K]x[N,K,N'], which is the one their
//    kernels want), function arguments and results, and every op the pass
//    does not understand.
// 2. Cost. Storing a whole region in a permutation q changes only its
//    boundary: a transpose into or out of the region composes with q and
//    disappears when the composition is the identity; any other boundary
//    edge needs a transpose (q into the region, q^-1 out of it); constants
//    are permuted at compile time. The cost of q is the bytes its boundary
//    transposes move (those at function arguments and results count half:
//    fuse-fold-boundary-transposes folds them into the first and last
//    kernels' indexing), plus a quarter of the bytes a reduction reads when
//    its axis is not the innermost one. The candidates for q are the
//    identity and the permutations that cancel one boundary transpose.
// 3. Greedy. The region whose best q saves the most bytes is rewritten
//    first, once; transposes it shares with other regions are composed, so
//    the regions are re-costed and the next best one is taken, until no
//    region gains. Every step strictly lowers the bytes moved by transposes.
// 0. Before all this, a channel shuffle of an NCHW activation (ShuffleNet's
//    reshape to groups x channels, swap, reshape back) is rewritten as the
//    same shuffle of the NHWC activation between a transpose to NHWC and
//    one back. A reshape bounds every region and the shuffle's are not
//    layout-agnostic, so without this the regions around it had no
//    transpose to cancel on the shuffle's side and stayed NCHW: each
//    block's 1x1 convolution then wrote NCHW, computed one output channel
//    at a time with its lanes gathering pixels 58 channels apart. With the
//    two transposes the regions on both sides cancel them with the
//    convolutions' in the next steps.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Utils/ConversionUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "fuse-propagate-layout"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPROPAGATELAYOUTPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

using Perm = Permutation;

int64_t getBytes(Value v) {
  return getNumElements(v.getType()) * getElementBytes(v.getType());
}

bool isStaticTensor(Value v, int64_t rank) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getRank() == rank;
}

bool isReduction(Operation *op) {
  return isa<tosa::ReduceSumOp, tosa::ReduceMaxOp, tosa::ReduceMinOp,
             tosa::ReduceProductOp, tosa::ReduceAllOp, tosa::ReduceAnyOp>(op);
}

/// Ops that compute the same values in any dimension order of their data
/// operands and result (reductions and concats with the axis renamed, pads
/// with their amounts permuted, slices with their start and size permuted:
/// the halves ShuffleNet splits each shuffled activation into).
bool isLayoutAgnostic(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  SmallVector<int64_t> values;
  if (auto pad = dyn_cast<tosa::PadOp>(op))
    if (!tosa::getConstShapeValues(pad.getPadding().getDefiningOp(), values))
      return false;
  if (auto slice = dyn_cast<tosa::SliceOp>(op))
    if (!tosa::getConstShapeValues(slice.getStart().getDefiningOp(), values) ||
        !tosa::getConstShapeValues(slice.getSize().getDefiningOp(), values))
      return false;
  if (!isRankPreservingElementwise(op) &&
      !isa<tosa::CastOp, tosa::ConcatOp, tosa::PadOp, tosa::SliceOp>(op) &&
      !isReduction(op))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getRank() < 2)
    return false;
  for (OpOperand &operand : op->getOpOperands())
    if (!isParameterOperand(op, operand.getOperandNumber()) &&
        !isStaticTensor(operand.get(), type.getRank()))
      return false;
  return true;
}

/// A dense constant small enough to permute at compile time.
DenseElementsAttr getPermutableConstant(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  if (!attr.isSplat() && attr.getNumElements() > (1 << 16))
    return {};
  return attr;
}

/// A transpose of `v` by `perm` that some reader already has.
tosa::TransposeOp findTransposeOf(Value v, ArrayRef<int64_t> perm) {
  for (Operation *user : v.getUsers())
    if (auto transpose = dyn_cast<tosa::TransposeOp>(user))
      if (ArrayRef<int64_t>(getPermutation(transpose)) == perm)
        return transpose;
  return {};
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

struct Region {
  /// Agnostic ops, in program order.
  SmallVector<Operation *> ops;
  /// Values computed or read as data by those ops.
  SetVector<Value> values;
  int64_t rank = 0;
};

/// The cost of storing `region` in `q`, in bytes moved by transposes.
double getCost(const Region &region, ArrayRef<int64_t> q) {
  Perm qInverse = invertPermutation(q);
  bool identityQ = isIdentityPermutation(q);
  double cost = 0;
  DenseSet<Operation *> members(region.ops.begin(), region.ops.end());
  for (Value v : region.values) {
    double bytes = getBytes(v);
    Operation *def = v.getDefiningOp();
    if (!def || !members.contains(def)) {
      // Entering the region.
      if (auto transpose = dyn_cast_or_null<tosa::TransposeOp>(def)) {
        bool composes = isIdentityPermutation(
            composePermutations(getPermutation(transpose), q));
        bool shared = llvm::any_of(transpose->getUsers(), [&](Operation *u) {
          return !members.contains(u);
        });
        // A transpose with readers outside the region stays for them.
        if (!composes || (shared && !identityQ))
          cost += bytes;
        if (!composes && shared && !identityQ)
          cost += bytes;
      } else if (!getPermutableConstant(v) && !identityQ) {
        // Paid already when another reader transposes it the same way.
        if (!findTransposeOf(v, q))
          cost += isa<BlockArgument>(v) ? bytes / 2 : bytes;
      }
      continue;
    }
    // Computed inside; readers outside get the declared layout back.
    bool restored = false;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (members.contains(user))
        continue;
      if (auto transpose = dyn_cast<tosa::TransposeOp>(user)) {
        if (!isIdentityPermutation(
                composePermutations(qInverse, getPermutation(transpose))))
          cost += getBytes(transpose.getResult());
        continue;
      }
      if (!identityQ && !restored)
        cost += isa<func::ReturnOp>(user) ? bytes / 2 : bytes;
      restored = true;
    }
  }
  // Reductions over an axis that is not innermost read strided rows.
  for (Operation *op : region.ops) {
    if (!isReduction(op))
      continue;
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    if (qInverse[axis] != region.rank - 1)
      cost += getBytes(op->getOperand(0)) / 4.0;
  }
  return cost;
}

/// Candidate layouts: identity, and those that cancel a boundary transpose.
SmallVector<Perm> getCandidates(const Region &region) {
  SmallVector<Perm> candidates{getIdentityPermutation(region.rank)};
  auto add = [&](Perm perm) {
    if (!llvm::is_contained(candidates, perm))
      candidates.push_back(std::move(perm));
  };
  for (Value v : region.values) {
    if (auto transpose = v.getDefiningOp<tosa::TransposeOp>())
      add(invertPermutation(getPermutation(transpose)));
    for (Operation *user : v.getUsers())
      if (auto transpose = dyn_cast<tosa::TransposeOp>(user))
        add(getPermutation(transpose));
  }
  return candidates;
}

SmallVector<Region> collectRegions(Block &block) {
  llvm::EquivalenceClasses<Operation *> classes;
  SmallVector<Operation *> agnostic;
  for (Operation &op : block)
    if (isLayoutAgnostic(&op)) {
      agnostic.push_back(&op);
      classes.insert(&op);
    }
  DenseSet<Operation *> isAgnostic(agnostic.begin(), agnostic.end());
  // Two agnostic ops are in one region when one reads the other's result, or
  // both read the same non-constant value as data.
  DenseMap<Value, Operation *> firstReader;
  for (Operation *op : agnostic) {
    for (OpOperand &operand : op->getOpOperands()) {
      if (isParameterOperand(op, operand.getOperandNumber()))
        continue;
      Value v = operand.get();
      if (Operation *def = v.getDefiningOp();
          def && isAgnostic.contains(def))
        classes.unionSets(op, def);
      if (getPermutableConstant(v))
        continue;
      auto [it, inserted] = firstReader.try_emplace(v, op);
      if (!inserted)
        classes.unionSets(op, it->second);
    }
  }
  DenseMap<Operation *, unsigned> regionOf;
  SmallVector<Region> regions;
  for (Operation *op : agnostic) {
    Operation *leader = classes.getLeaderValue(op);
    auto [it, inserted] = regionOf.try_emplace(leader, regions.size());
    if (inserted)
      regions.emplace_back();
    Region &region = regions[it->second];
    region.ops.push_back(op);
    region.rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
    for (OpOperand &operand : op->getOpOperands())
      if (!isParameterOperand(op, operand.getOperandNumber()))
        region.values.insert(operand.get());
    region.values.insert(op->getResult(0));
  }
  return regions;
}

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// Stores every value of `region` in layout `q`.
void rewriteRegion(Region &region, ArrayRef<int64_t> q) {
  Perm qInverse = invertPermutation(q);
  DenseSet<Operation *> members(region.ops.begin(), region.ops.end());
  IRMapping permuted;
  OpBuilder builder(region.ops.front()->getContext());

  // Values entering the region, in q.
  for (Value v : region.values) {
    Operation *def = v.getDefiningOp();
    if (def && members.contains(def))
      continue;
    if (auto transpose = dyn_cast_or_null<tosa::TransposeOp>(def)) {
      builder.setInsertionPointAfter(transpose);
      permuted.map(v, createTranspose(
                          builder, transpose.getLoc(), transpose.getInput1(),
                          composePermutations(getPermutation(transpose), q)));
    } else if (DenseElementsAttr attr = getPermutableConstant(v)) {
      builder.setInsertionPointAfter(def);
      DenseElementsAttr newAttr = permuteConstant(attr, q);
      permuted.map(v, tosa::ConstOp::create(builder, def->getLoc(),
                                            newAttr.getType(), newAttr));
    } else {
      // Reuse a transpose another reader already has, moved up to the def.
      if (tosa::TransposeOp existing = findTransposeOf(v, q)) {
        if (def)
          existing->moveAfter(def);
        else
          existing->moveBefore(&cast<BlockArgument>(v).getOwner()->front());
        permuted.map(v, existing.getResult());
        continue;
      }
      if (def)
        builder.setInsertionPointAfter(def);
      else
        builder.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
      permuted.map(v, createTranspose(builder, v.getLoc(), v, q));
    }
  }

  // The region's ops, in q.
  for (Operation *op : region.ops) {
    builder.setInsertionPoint(op);
    Operation *clone = builder.clone(*op, permuted);
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    clone->getResult(0).setType(permuteType(type, q));
    if (isReduction(op) || isa<tosa::ConcatOp>(op)) {
      int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
      clone->setAttr("axis", builder.getI32IntegerAttr(qInverse[axis]));
    }
    if (auto pad = dyn_cast<tosa::PadOp>(clone)) {
      // Dimension i of the permuted pad is dimension q[i] of the original.
      SmallVector<int64_t> padding, permutedPadding;
      (void)tosa::getConstShapeValues(pad.getPadding().getDefiningOp(),
                                      padding);
      for (int64_t d : q)
        permutedPadding.append({padding[2 * d], padding[2 * d + 1]});
      ImplicitLocOpBuilder shapeBuilder(pad.getLoc(), pad);
      pad.getPaddingMutable().assign(
          tosa::getTosaConstShape(shapeBuilder, permutedPadding));
    }
    if (auto slice = dyn_cast<tosa::SliceOp>(clone)) {
      SmallVector<int64_t> start, size;
      (void)tosa::getConstShapeValues(slice.getStart().getDefiningOp(), start);
      (void)tosa::getConstShapeValues(slice.getSize().getDefiningOp(), size);
      // Dimension i of the permuted slice is dimension q[i] of the original.
      SmallVector<int64_t> permutedStart, permutedSize;
      for (int64_t d : q) {
        permutedStart.push_back(start[d]);
        permutedSize.push_back(size[d]);
      }
      ImplicitLocOpBuilder shapeBuilder(slice.getLoc(), slice);
      slice.getStartMutable().assign(
          tosa::getTosaConstShape(shapeBuilder, permutedStart));
      slice.getSizeMutable().assign(
          tosa::getTosaConstShape(shapeBuilder, permutedSize));
    }
    permuted.map(op->getResult(0), clone->getResult(0));
  }

  // Readers outside the region get the declared layout back.
  for (Operation *op : region.ops) {
    Value old = op->getResult(0);
    Value now = permuted.lookup(old);
    Value restored;
    for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
      Operation *user = use.getOwner();
      if (members.contains(user))
        continue;
      if (auto transpose = dyn_cast<tosa::TransposeOp>(user)) {
        builder.setInsertionPoint(transpose);
        Value composed = createTranspose(
            builder, transpose.getLoc(), now,
            composePermutations(qInverse, getPermutation(transpose)));
        transpose.getResult().replaceAllUsesWith(composed);
        continue;
      }
      if (!restored) {
        builder.setInsertionPointAfterValue(now);
        restored = createTranspose(builder, op->getLoc(), now, qInverse);
      }
      use.set(restored);
    }
  }
  for (Operation *op : llvm::reverse(region.ops)) {
    op->dropAllUses();
    op->erase();
  }
}

/// `reshape(transpose(x))` as `transpose(reshape(x))`, when the reshape only
/// merges, or only splits, dimensions that the transpose keeps adjacent and
/// in order (the NCHW activation flattened for a global pool: merging H and
/// W of the NCHW transpose of an NHWC tensor is merging them in NHWC). The
/// transpose moves past the reshape, which bounds every region, so the next
/// round can cancel it against the layouts on the other side. The values
/// are the same: only where the data is permuted changes.
bool commuteTransposeThroughReshape(tosa::ReshapeOp reshape) {
  auto transpose = reshape.getInput1().getDefiningOp<tosa::TransposeOp>();
  if (!transpose || !transpose->hasOneUse())
    return false;
  auto xType = dyn_cast<RankedTensorType>(transpose.getInput1().getType());
  auto tType = dyn_cast<RankedTensorType>(transpose.getType());
  auto rType = dyn_cast<RankedTensorType>(reshape.getType());
  if (!xType || !tType || !rType || !xType.hasStaticShape() ||
      !tType.hasStaticShape() || !rType.hasStaticShape() ||
      xType.getRank() == rType.getRank() || rType.getRank() == 0)
    return false;
  Permutation perm = getPermutation(transpose);
  bool merges = rType.getRank() < tType.getRank();
  // Groups of the higher-rank side's dimensions, one per dimension of the
  // lower-rank side.
  std::optional<SmallVector<ReassociationIndices>> groups =
      merges ? getReassociationIndicesForCollapse(tType.getShape(),
                                                  rType.getShape())
             : getReassociationIndicesForCollapse(rType.getShape(),
                                                  tType.getShape());
  if (!groups || static_cast<int64_t>(groups->size()) !=
                     std::min(tType.getRank(), rType.getRank()))
    return false;
  SmallVector<int64_t> yShape;
  Permutation newPerm;
  if (merges) {
    // t-group j is x's dims perm[g] (consecutive, increasing); y merges
    // them in x's order.
    SmallVector<std::pair<int64_t, unsigned>> order; // (first x dim, group)
    for (auto [j, group] : llvm::enumerate(*groups)) {
      for (unsigned k = 1; k < group.size(); ++k)
        if (perm[group[k]] != perm[group[k - 1]] + 1)
          return false;
      order.push_back({perm[group.front()], j});
    }
    llvm::sort(order);
    SmallVector<int64_t> position(groups->size());
    for (auto [k, entry] : llvm::enumerate(order)) {
      position[entry.second] = k;
      int64_t size = 1;
      for (int64_t d : (*groups)[entry.second])
        size *= tType.getDimSize(d);
      yShape.push_back(size);
    }
    newPerm.assign(position.begin(), position.end());
  } else {
    // t's dim j splits into the r-dims of group j; so does x's dim perm[j].
    Permutation inverse = invertPermutation(perm);
    SmallVector<int64_t> start(xType.getRank());
    for (int64_t i = 0; i < xType.getRank(); ++i) {
      start[i] = yShape.size();
      for (int64_t d : (*groups)[inverse[i]])
        yShape.push_back(rType.getDimSize(d));
    }
    for (auto [j, group] : llvm::enumerate(*groups))
      for (unsigned k = 0; k < group.size(); ++k)
        newPerm.push_back(start[perm[j]] + k);
  }
  Location loc = reshape.getLoc();
  ImplicitLocOpBuilder builder(loc, reshape);
  Value y = tosa::ReshapeOp::create(
      builder, loc, RankedTensorType::get(yShape, xType.getElementType()),
      transpose.getInput1(), tosa::getTosaConstShape(builder, yShape));
  reshape.getResult().replaceAllUsesWith(
      createTranspose(builder, loc, y, newPerm));
  reshape->erase();
  transpose->erase();
  return true;
}

/// Step 0: `reshape(transpose(reshape(x)))` over an NCHW x of static shape,
/// the first reshape splitting the channels into groups x channels, the
/// transpose swapping those two, the last reshape merging them back, as
/// `transpose(shuffle(transpose(x)))` with the shuffle in NHWC: split the
/// innermost dim, swap the last two, merge. The same values: channel
/// j * g + i of the result is channel i * (C / g) + j of x either way.
bool rewriteChannelShuffle(tosa::ReshapeOp merge) {
  auto swap = merge.getInput1().getDefiningOp<tosa::TransposeOp>();
  if (!swap || !swap->hasOneUse())
    return false;
  auto split = swap.getInput1().getDefiningOp<tosa::ReshapeOp>();
  if (!split || !split->hasOneUse())
    return false;
  Value x = split.getInput1();
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  auto sType = dyn_cast<RankedTensorType>(split.getType());
  if (!xType || !sType || !xType.hasStaticShape() || xType.getRank() != 4 ||
      !sType.hasStaticShape() || sType.getRank() != 5 ||
      merge.getType() != xType)
    return false;
  ArrayRef<int64_t> xs = xType.getShape(), ss = sType.getShape();
  if (ss[0] != xs[0] || ss[1] * ss[2] != xs[1] || ss[3] != xs[2] ||
      ss[4] != xs[3] || ss[1] == 1 || ss[2] == 1 ||
      ArrayRef<int64_t>(getPermutation(swap)) !=
          ArrayRef<int64_t>({0, 2, 1, 3, 4}))
    return false;
  Location loc = merge.getLoc();
  ImplicitLocOpBuilder builder(loc, merge);
  const Permutation toNhwc = {0, 2, 3, 1}, toNchw = {0, 3, 1, 2};
  Value y = createTranspose(builder, loc, x, toNhwc);
  auto yType = cast<RankedTensorType>(y.getType());
  SmallVector<int64_t> groups = {xs[0], xs[2], xs[3], ss[1], ss[2]};
  Type element = xType.getElementType();
  Value grouped = tosa::ReshapeOp::create(
      builder, loc, RankedTensorType::get(groups, element), y,
      tosa::getTosaConstShape(builder, groups));
  Value swapped = createTranspose(builder, loc, grouped, {0, 1, 2, 4, 3});
  Value shuffled = tosa::ReshapeOp::create(
      builder, loc, yType, swapped,
      tosa::getTosaConstShape(builder, yType.getShape()));
  merge.getResult().replaceAllUsesWith(
      createTranspose(builder, loc, shuffled, toNchw));
  merge->erase();
  swap->erase();
  split->erase();
  return true;
}

struct FusePropagateLayoutPass
    : fuse::impl::FusePropagateLayoutPassBase<FusePropagateLayoutPass> {
  void runOnOperation() override {
    auto func = getOperation();
    for (Block &block : func.getFunctionBody()) {
      for (Operation &op : llvm::make_early_inc_range(block))
        if (auto reshape = dyn_cast<tosa::ReshapeOp>(op))
          rewriteChannelShuffle(reshape);
      // Regions, then transposes left at reshapes moved past them, while
      // that moves any (each move shrinks what the reshape's side holds in
      // a transposed layout; the cap guards against a bug).
      for (unsigned round = 0; round < 8; ++round) {
        propagate(block);
        bool moved = false;
        for (Operation &op : llvm::make_early_inc_range(block))
          if (auto reshape = dyn_cast<tosa::ReshapeOp>(op))
            moved |= commuteTransposeThroughReshape(reshape);
        if (!moved)
          break;
      }
    }
  }

  /// The greedy region rewriting (steps 1-3 above).
  void propagate(Block &block) {
    // Each step lowers the bytes moved by transposes; the cap only guards
    // against a cost-model bug.
    for (unsigned step = 0, e = 4 * block.getOperations().size(); step < e;
         ++step) {
      SmallVector<Region> regions = collectRegions(block);
      double bestGain = 0;
      Region *best = nullptr;
      Perm bestPerm;
      for (Region &region : regions) {
        double current = getCost(region, getIdentityPermutation(region.rank));
        for (Perm &candidate : getCandidates(region)) {
          double gain = current - getCost(region, candidate);
          if (gain > bestGain + 1e-9) {
            bestGain = gain;
            best = &region;
            bestPerm = candidate;
          }
        }
      }
      if (!best)
        break;
      rewriteRegion(*best, bestPerm);
      ++numRegions;
      eraseDeadTransposes(block);
    }
  }

  /// Backwards, so that an op whose only reader goes is visited after it.
  static void eraseDeadTransposes(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (isa<tosa::TransposeOp, tosa::ConstOp>(op) && op.use_empty())
        op.erase();
  }
};

} // namespace
