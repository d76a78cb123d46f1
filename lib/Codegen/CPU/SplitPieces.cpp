//===- SplitPieces.cpp - Ops split with their bias and epilogue ----------===//
//
// A contraction or convolution that no register block divides is split
// into pieces that blocks do divide (RegisterBlocks.cpp: splitColumns,
// splitRows). Split alone, each piece writes a slice of the op's result,
// which the epilogue then reads whole: the tile is written by the bias
// broadcast, read and written by the blocks, and read and written again by
// the epilogue. splitPieces splits the chain instead:
//
//   1. the op (upstream `linalg::splitOp`, static slices);
//   2. the producer of its initial values (the bias broadcast) and each op
//      of its elementwise epilogue (getEpilogue: the ReLU, a residual
//      add), at the result dimension of the split loop;
//   3. each piece made to read the matching piece of the op before it
//      (foldSplitSlice), the assemblies no one reads then erased.
//
// Each piece of the op then has a bias and an epilogue of its own, which
// its register blocks take in as a whole op's (fuseEpilogue). Before the
// split, the epilogue's last op is made to write the tile loop's output
// slice itself (writeInPlace). Values are unchanged: each result is
// computed by one piece of each op, in the same order.
//
//===----------------------------------------------------------------------===//

#include "RegisterBlocks.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::cpu;

namespace {

/// `extract_slice(insert_slice(%src, %dest, T), S)` is `%src` where S is T
/// and reads `%dest` where the two slices cannot overlap (upstream
/// `ValueBoundsConstraintSet`): the slices a split (upstream
/// `linalg::splitOp`) cuts of a value another split assembled. Replaces
/// `extract` by the piece it reads, if any, or with `throughDest` by the
/// slice S of the first value it reaches that is not such an assembly.
void foldSplitSlice(RewriterBase &rewriter, tensor::ExtractSliceOp extract,
                    bool throughDest) {
  MLIRContext *context = extract.getContext();
  HyperrectangularSlice slice(
      cast<OffsetSizeAndStrideOpInterface>(extract.getOperation()));
  Value source = extract.getSource();
  while (auto insert = source.getDefiningOp<tensor::InsertSliceOp>()) {
    HyperrectangularSlice written(
        cast<OffsetSizeAndStrideOpInterface>(insert.getOperation()));
    FailureOr<bool> same =
        ValueBoundsConstraintSet::areEquivalentSlices(context, slice, written);
    if (succeeded(same) && *same) {
      if (insert.getSource().getType() == extract.getType())
        rewriter.replaceOp(extract, insert.getSource());
      return;
    }
    FailureOr<bool> overlap =
        ValueBoundsConstraintSet::areOverlappingSlices(context, slice, written);
    if (failed(overlap) || *overlap)
      return;
    source = insert.getDest();
  }
  if (throughDest && source != extract.getSource())
    rewriter.modifyOpInPlace(
        extract, [&] { extract.getSourceMutable().assign(source); });
}

/// Where `last`, the last op of a chain about to be split, writes a
/// tensor.empty of its own and the tile's result is its value alone, put
/// in place by the enclosing scf.forall (`parallel_insert_slice`): `last`
/// writes that slice of the forall's output instead. Bufferization's
/// empty-tensor elimination does the same for the whole op, but for its
/// split pieces it redirects only the assembly and the first piece was
/// written to a buffer of its own and copied.
void writeInPlace(RewriterBase &rewriter, linalg::LinalgOp last) {
  if (last.getNumDpsInits() != 1 || !last->getResult(0).hasOneUse())
    return;
  OpOperand &init = *last.getDpsInitOperand(0);
  auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
  auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(
      *last->getResult(0).getUsers().begin());
  if (!empty || !empty->hasOneUse() || !insert ||
      insert.getSourceType() != empty.getType())
    return;
  auto forall = dyn_cast<scf::ForallOp>(insert->getParentOp()->getParentOp());
  if (!forall || forall != last->getParentOp() ||
      !llvm::is_contained(forall.getRegionIterArgs(), insert.getDest()))
    return;
  DominanceInfo dominance;
  for (Value operand : insert->getOperands())
    if (operand != insert.getSource() &&
        !dominance.properlyDominates(operand, last))
      return;
  rewriter.setInsertionPoint(last);
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, last.getLoc(), empty.getType(), insert.getDest(),
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  rewriter.modifyOpInPlace(last, [&] { init.set(slice); });
  rewriter.eraseOp(empty);
}

} // namespace

SmallVector<linalg::LinalgOp>
cpu::splitPieces(RewriterBase &rewriter, linalg::LinalgOp op, unsigned dim,
                 int64_t at, ArrayRef<linalg::GenericOp> epilogue) {
  // The result dimension of `dim`: the loop to split the chain along, its
  // ops' loops being the result's dimensions.
  SmallVector<linalg::LinalgOp> chain;
  linalg::LinalgOp initOp;
  std::optional<unsigned> position;
  if (!epilogue.empty() && op.getNumDpsInits() == 1 &&
      op->getNumResults() == 1) {
    AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    position = output.getResultPosition(rewriter.getAffineDimExpr(dim));
  }
  if (position) {
    auto rank = cast<ShapedType>(op->getResult(0).getType()).getRank();
    auto init =
        op.getDpsInitOperand(0)->get().getDefiningOp<linalg::LinalgOp>();
    if (init && init->getBlock() == op->getBlock() && init->hasOneUse() &&
        init.getNumDpsInits() == 1 && init.getNumLoops() == rank &&
        init.getNumParallelLoops() == rank &&
        init.getMatchingIndexingMap(init.getDpsInitOperand(0)).isIdentity() &&
        isa<TilingInterface>(init.getOperation()))
      chain.push_back(initOp = init);
    llvm::append_range(chain, epilogue);
  }
  rewriter.setInsertionPoint(op);
  auto [first, second] =
      linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), dim,
                      rewriter.getIndexAttr(at));
  auto firstOp = dyn_cast_or_null<linalg::LinalgOp>(first.getOperation());
  auto secondOp = dyn_cast_or_null<linalg::LinalgOp>(second.getOperation());
  if (!firstOp || !secondOp)
    return {firstOp ? firstOp : secondOp ? secondOp : op};
  if (chain.empty())
    return {firstOp, secondOp};
  writeInPlace(rewriter, epilogue.back());
  SmallVector<Operation *> pieces = {firstOp, secondOp};
  llvm::SmallPtrSet<Operation *, 2> initPieces;
  for (linalg::LinalgOp each : chain) {
    bool isInit = each == initOp;
    rewriter.setInsertionPoint(each);
    auto [head, tail] =
        linalg::splitOp(rewriter, cast<TilingInterface>(each.getOperation()),
                        *position, rewriter.getIndexAttr(at));
    for (Operation *piece : {head.getOperation(), tail.getOperation()}) {
      if (!piece)
        continue;
      pieces.push_back(piece);
      if (isInit)
        initPieces.insert(piece);
    }
  }
  // Each piece reads the piece before it, not the slices of the assembled
  // value; the producer's pieces write slices of its initial value (not of
  // its assembly, which no one reads then); the assemblies left unread go.
  SmallVector<Operation *> assemblies;
  for (Operation *piece : pieces) {
    for (Value operand : piece->getOperands())
      if (auto extract = operand.getDefiningOp<tensor::ExtractSliceOp>())
        foldSplitSlice(rewriter, extract, initPieces.contains(piece));
    for (Operation *user : piece->getUsers())
      if (isa<tensor::InsertSliceOp>(user))
        assemblies.push_back(user);
  }
  while (!assemblies.empty()) {
    Operation *insert = assemblies.pop_back_val();
    if (!insert->use_empty())
      continue;
    Value dest = cast<tensor::InsertSliceOp>(insert).getDest();
    rewriter.eraseOp(insert);
    if (auto inner = dest.getDefiningOp<tensor::InsertSliceOp>())
      assemblies.push_back(inner);
  }
  return {firstOp, secondOp};
}
