//===- MergeGroupNests.cpp - One tile loop per group on the CPU -----------===//
//
// The independent tile loops of one group (NestAccesses.h) become one loop
// over both loops' tiles: a branch on the tile index runs each loop's body.
// With OpenMP, the tiles of all branches share the cores; the two loops'
// tiles alternate in proportion over the merged loop, so that each core's
// contiguous share holds some of each (interleave). Such loops are the
// branches of a horizontally fused block, the pieces of a split copy, and
// the whole tiles and the partial last tile of one nest (PeelTiles.h).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/Codegen/Common/NestAccesses.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEMERGEGROUPNESTSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The tile counts of a plain tile loop on buffers (no results) with
/// constant bounds; nothing otherwise.
std::optional<SmallVector<int64_t>> getTripCounts(scf::ForallOp loop) {
  if (loop.getNumResults() != 0 || !isPlainTileLoop(loop) ||
      !loop.getTerminator().getYieldingOps().empty())
    return std::nullopt;
  return getStaticTileCounts(loop);
}

struct FuseMergeGroupNestsPass final
    : fuse::impl::FuseMergeGroupNestsPassBase<FuseMergeGroupNestsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Bufferization copies a strided piece written in place onto itself
    // through a second, identical view: merged views (CSE) make the copy
    // fold away; it would keep the nests apart.
    {
      IRRewriter rewriter(&getContext());
      DominanceInfo dominance(getOperation());
      eliminateCommonSubExpressions(rewriter, dominance, getOperation());
      RewritePatternSet patterns(&getContext());
      memref::CopyOp::getCanonicalizationPatterns(patterns, &getContext());
      (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    }
    mergeGroupNests<scf::ForallOp>(
        getOperation(),
        [&](RewriterBase &rewriter, scf::ForallOp first, scf::ForallOp second) {
          return merge(rewriter, first, second);
        });
  }

  /// The order of the merged loop's tiles: the two loops' tiles spread
  /// evenly over it, the first loop's tiles before merged tile `i` being
  /// floor(i * firstTiles / tiles). Returns, for merged tile `tile`,
  /// whether it is one of the first loop's and its index in its loop. The
  /// cores take contiguous runs of the merged loop (a static schedule): one
  /// loop's tiles after the other's gave one core the 72 large tiles of a
  /// contraction and the other the rest of them and its 36 peeled
  /// partial ones.
  static std::pair<Value, Value> interleave(RewriterBase &rewriter,
                                            Location loc, Value tile,
                                            int64_t firstTiles,
                                            int64_t secondTiles) {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value tiles = constant(firstTiles + secondTiles);
    // Products below 2^62: the merged loop has fewer than 2^31 tiles.
    auto firstBefore = [&](Value i) -> Value {
      Value product =
          arith::MulIOp::create(rewriter, loc, i, constant(firstTiles));
      return arith::DivUIOp::create(rewriter, loc, product, tiles);
    };
    Value before = firstBefore(tile);
    Value next = arith::AddIOp::create(rewriter, loc, tile, constant(1));
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, firstBefore(next), before);
    Value secondIndex = arith::SubIOp::create(rewriter, loc, tile, before);
    Value index =
        arith::SelectOp::create(rewriter, loc, isFirst, before, secondIndex);
    return {isFirst, index};
  }

  /// `first` and `second` as one tile loop over both loops' tiles, or null.
  scf::ForallOp merge(RewriterBase &rewriter, scf::ForallOp first,
                      scf::ForallOp second) {
    auto fail = [&](const Twine &why) {
      if (report)
        second.emitRemark("fuse-merge-group-nests: not merged with the "
                          "previous tile loop of its group: ")
            << why;
      return scf::ForallOp();
    };
    std::optional<SmallVector<int64_t>> firstCounts = getTripCounts(first);
    std::optional<SmallVector<int64_t>> secondCounts = getTripCounts(second);
    if (!firstCounts || !secondCounts)
      return fail("not two loops on buffers with static bounds");
    int64_t firstTiles = 1, secondTiles = 1;
    for (int64_t count : *firstCounts)
      firstTiles *= count;
    for (int64_t count : *secondCounts)
      secondTiles *= count;
    if (firstTiles + secondTiles >= (int64_t(1) << 31))
      return fail("too many tiles");
    Accesses a, b;
    if (!getAccesses(first.getRegion(), isAllocation, a) ||
        !getAccesses(second.getRegion(), isAllocation, b))
      return fail("an op of unknown memory effects or a buffer chosen "
                  "inside the body");
    if (!areIndependent(a, b))
      return fail("one writes a buffer the other accesses");
    SmallVector<Operation *> before, after;
    if (!partitionBetween(first, second, b, before, after))
      return fail("an op between them cannot move");

    for (Operation *op : before)
      rewriter.moveOpBefore(op, first);
    Location loc = rewriter.getFusedLoc({first.getLoc(), second.getLoc()});
    rewriter.setInsertionPoint(first);
    auto merged = scf::ForallOp::create(
        rewriter, loc,
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(firstTiles + secondTiles)},
        ValueRange{}, std::nullopt);
    merged->setAttr(fuse::FuseDialect::kGroupNestAttrName,
                    first->getAttr(fuse::FuseDialect::kGroupNestAttrName));
    Block *body = merged.getBody();
    rewriter.setInsertionPointToStart(body);
    auto [isFirst, index] =
        interleave(rewriter, loc, merged.getInductionVars().front(), firstTiles,
                   secondTiles);
    auto branch = scf::IfOp::create(rewriter, loc, isFirst,
                                    /*withElseRegion=*/true);
    inlineTileLoopBody(rewriter, first, index, *firstCounts,
                       branch.thenBlock()->getTerminator());
    inlineTileLoopBody(rewriter, second, index, *secondCounts,
                       branch.elseBlock()->getTerminator());
    // Static tile temporaries move before the branch, where buffer loop
    // hoisting takes them out of the loop as before.
    for (Block *side : {branch.thenBlock(), branch.elseBlock()})
      for (Operation &op : llvm::make_early_inc_range(*side))
        if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
            op.getNumOperands() == 0)
          rewriter.moveOpBefore(&op, branch);
    rewriter.eraseOp(first);
    rewriter.eraseOp(second);
    return merged;
  }
};

} // namespace
