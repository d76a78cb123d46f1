//===- TileGroups.cpp - One loop nest per fuse.group ----------------------===//
//
// Makes each `fuse.group` one kernel: a single `scf.forall` loop nest over
// tiles of the group's root op, in which every other op of the group is
// fused (computed for the tile that needs it). Intermediates then live in
// per-tile temporaries instead of whole tensors; only the group's inputs and
// results touch memory.
//
// 1. Index changes: input and result permutations of the group become
//    transposes inside its body, so that tiling fuses them: the kernel reads
//    and writes through the permuted indices, no copy is made.
// 2. The body goes to linalg-on-tensors (upstream TOSA conversion patterns,
//    applied inside the group). What tile-and-fuse cannot fuse through is
//    cleared first: the unit-dim reshapes the lowering puts after reductions
//    are folded into their readers' indexing maps; a slice of a structured
//    op's result becomes that op computing the slice (slices move up
//    through views to reach it); reshapes between structured ops move out
//    by expanding the ops' loops (a contraction whose result is viewed is
//    generalized for this; a unit-dim view of one is folded into it). A
//    result that is data movement over a concatenation (a channel shuffle)
//    is cut into pieces that each copy or compute a strided box of it
//    (SplitCopies.h), so that no nest reads the concatenation whole.
//    Every group's body is lowered before any is cleaned up, so that, across
//    groups, a pad of a group input that another group computes reads that
//    result written with its halo instead (PadInProducers.h: the halo
//    filled once per call, not a padded window copied per tile).
// 3. The roots are the ops computing the group's results (through views and
//    the inserts of concats and pieces). Each, in program order, is tiled with
//    `scf.forall` over its parallel loops (upstream TilingInterface tile and
//    fuse), and its producers are fused greedily; producers the group also
//    returns are yielded from the nest. A root another root reads row-wise is
//    fused into that root's nest instead. Tile sizes: as many rows as fit
//    `min-tile-elements` results, the rest whole, so a tile is a set of
//    contiguous rows with their reductions; with a reduction fused in, rows
//    always stay whole (no recomputation). A range with no good divisor
//    (197 tokens) gets a partial last tile, and the nest is peeled into one
//    over the whole tiles and one over the last tile (PeelTiles.h), both of
//    static shapes. Independent nests over the same tiles are merged into
//    one; a merged nest whose results are parts of one concat writes the
//    concat (NestInserts.h).
// 4. Inside a tile, the copies of a producer that tile-and-fuse makes per
//    reader are merged (CSE), then chains of elementwise ops are fused into
//    one loop body (upstream elementwise fusion): their intermediates are
//    scalars.
// 5. A group that still needs more than one nest is reported with
//    `report-nests`, with how many of its nests read another's results
//    (through a view the expansion cannot move, a concat an elementwise op
//    reads): those need a grid-wide barrier, the others merge later.
//
//===----------------------------------------------------------------------===//

#include "TileGroups.h"
#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/Transforms/VerifyInput.h"
#include "PadInProducers.h"

#define DEBUG_TYPE "fuse-tile-groups"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETILEGROUPSPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::tiling;

namespace {

/// Whether the tiles of `root` (tile sizes `sizes`) read disjoint parts of
/// `producer`: each parallel loop cut into several tiles indexes every
/// operand of `root` computed from `producer`. Not so for a matmul tiled
/// along N, whose tiles all read the same rows of A: a producer of A
/// yielded from the nest would be written by every tile.
static bool readsDisjointTiles(OpBuilder &builder, TilingInterface root,
                        ArrayRef<OpFoldResult> sizes, Value producer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root.getOperation());
  if (!linalgOp)
    return true;
  SmallVector<Range> domain = root.getIterationDomain(builder);
  SmallVector<unsigned> cut;
  for (auto [d, type] : llvm::enumerate(root.getLoopIteratorTypes())) {
    std::optional<int64_t> size =
        d < sizes.size() ? getConstantIntValue(sizes[d]) : std::nullopt;
    std::optional<int64_t> extent = getConstantIntValue(domain[d].size);
    if (type == utils::IteratorType::parallel &&
        (!size || (*size != 0 && (!extent || *size < *extent))))
      cut.push_back(d);
  }
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) {
    return op->getBlock() == root->getBlock();
  };
  for (OpOperand *operand : linalgOp.getDpsInputOperands()) {
    SetVector<Operation *> slice;
    if (Operation *def = operand->get().getDefiningOp())
      (void)getBackwardSlice(def, &slice, options);
    if (operand->get() != producer && !slice.contains(producer.getDefiningOp()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(operand);
    if (llvm::any_of(cut, [&](unsigned d) { return !map.isFunctionOfDim(d); }))
      return false;
  }
  return true;
}

/// Whether `producer`, whose tile `slice` is, transposes a run-time weight:
/// a group input (through reshapes and pads), read by an op with a reduction as
/// its second operand (a convolution's filter, a contraction's B, transposed so
/// that a register block reads a row of output channels as one vector). Every
/// tile of such an op reads its tile of the weight's columns across the whole
/// reduction, and tiles along its other loops read the same columns.
static bool isWeightTranspose(GroupOp group, tensor::ExtractSliceOp slice,
                              OpResult producer) {
  auto transpose = dyn_cast<linalg::TransposeOp>(producer.getOwner());
  if (!transpose)
    return false;
  Value source = transpose.getInput();
  while (Operation *def = source.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::PadOp>(
            def))
      return false;
    source = def->getOperand(0);
  }
  auto input = dyn_cast<BlockArgument>(source);
  if (!input || input.getOwner() != &group.getBodyBlock())
    return false;
  return llvm::any_of(slice->getUses(), [](OpOperand &use) {
    auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
    return reader && reader.getNumReductionLoops() > 0 &&
           use.getOperandNumber() == 1;
  });
}

/// Whether the tiles of the nest around `slice` each read a different
/// slice: every induction variable of the enclosing `scf.forall` over more
/// than one tile feeds the slice's offsets. A producer fused for `slice` is
/// then computed once, not again for each tile along a loop the slice does
/// not depend on. Only the innermost `scf.forall` is asked, and an induction
/// variable feeding the offsets is taken to make them differ: a wrong
/// answer costs speed (a weight transposed per tile or per call), not
/// values.
static bool isReadOncePerTile(tensor::ExtractSliceOp slice) {
  auto forall = slice->getParentOfType<scf::ForallOp>();
  std::optional<SmallVector<int64_t>> counts =
      forall ? getStaticTileCounts(forall) : std::nullopt;
  if (!counts)
    return false;
  llvm::SmallPtrSet<Value, 16> feeding;
  SmallVector<Value> worklist(slice.getOffsets());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!feeding.insert(value).second)
      continue;
    if (Operation *def = value.getDefiningOp())
      if (forall->isProperAncestor(def))
        llvm::append_range(worklist, def->getOperands());
  }
  for (auto [count, iv] : llvm::zip_equal(*counts, forall.getInductionVars()))
    if (count > 1 && !feeding.contains(iv))
      return false;
  return true;
}

LogicalResult tileRoot(RewriterBase &rewriter, GroupOp group,
                       TilingInterface root, ArrayRef<OpFoldResult> sizes,
                       bool transposeWeightsOnce) {
  rewriter.setInsertionPoint(root);
  SmallVector<OpFoldResult> tileSizes(sizes);
  if (llvm::all_of(sizes,
                   [](OpFoldResult s) { return isConstantIntValue(s, 0); })) {
    // The root is one tile: a loop of one iteration over its first parallel
    // loop, so that the group is still one nest (one block on a GPU), not
    // ops outside any nest. Without a parallel loop: one sequential nest.
    SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
    auto parallel = llvm::find(iterators, utils::IteratorType::parallel);
    if (parallel == iterators.end())
      return success();
    unsigned d = parallel - iterators.begin();
    tileSizes[d] = root.getIterationDomain(rewriter)[d].size;
  }

  // What leaves the nest whole: the group's results and what is inserted
  // into a larger tensor (a concat's part).
  llvm::SmallPtrSet<Value, 8> yielded;
  for (Value v : group.getYield().getValues())
    yielded.insert(v);
  for (auto insert : group.getBodyBlock().getOps<tensor::InsertSliceOp>())
    yielded.insert(insert.getSource());
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(tileSizes);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp slice, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        // A run-time weight's transpose that several tiles read stays out
        // of the nest (a nest of its own, tileLeftovers): transposed once
        // per call, not once per tile reading it. Where each tile reads its
        // own columns, it is transposed in the tile, and the tile's
        // reduction reads it from cache (3x3 7x7 512 -> 512, one tile of
        // pixels: 2.85 -> 2.35 ms, one thread).
        if (transposeWeightsOnce && isWeightTranspose(group, slice, producer) &&
            !isReadOncePerTile(slice))
          return std::nullopt;
        scf::SCFTileAndFuseOptions::ControlFnResult result;
        // A producer the group also returns is computed in the loop nest and
        // its tiles assembled into the returned value. Not a pad: its tile
        // has a dynamic type (upstream's bubbled-up pad), which the inserting
        // of its tile into the returned value does not accept; the pad is
        // then a root of its own.
        // And only a producer over the root's own iteration space (same
        // result type): a smaller one would be computed whole by every tile
        // and written by all of them.
        // Or the input of a pool whose tiles partition it.
        result.yieldProducerReplacement =
            yielded.contains(producer) &&
            !isa<tensor::PadOp>(producer.getOwner()) &&
            ((llvm::is_contained(root->getResultTypes(), producer.getType()) &&
              readsDisjointTiles(rewriter, root, tileSizes, producer)) ||
             (isDisjointWindowPool(root) && root->getOperand(0) == producer));
        return result;
      });
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
  if (failed(tiled))
    return failure();
  for (LoopLikeOpInterface loop : tiled->loops)
    if (auto forall = dyn_cast<scf::ForallOp>(loop.getOperation()))
      keepOneTileLoop(forall);
  // Only uses the loop nest's results dominate: a reader placed before the
  // nest (another root's producer) keeps the original op, which a later
  // root (or the leftover pass) tiles on its own.
  DominanceInfo dominance(group);
  for (auto [original, replacement] : tiled->replacements) {
    Value value = replacement;
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return dominance.properlyDominates(value, use.getOwner());
    });
  }
  return success();
}

/// Two tile loops over the same tiles.
static bool haveSameTiles(scf::ForallOp a, scf::ForallOp b) {
  auto same = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return a.getMappingAttr() == b.getMappingAttr() &&
         same(a.getMixedLowerBound(), b.getMixedLowerBound()) &&
         same(a.getMixedUpperBound(), b.getMixedUpperBound()) &&
         same(a.getMixedStep(), b.getMixedStep());
}

/// `later` reads nothing `earlier` computes, and nothing before `later`
/// reads `earlier`'s results but views of them (reshapes), which are
/// returned in `views` to be moved after the merged loop.
static bool canMergeInto(scf::ForallOp earlier, scf::ForallOp later,
                  SmallVectorImpl<Operation *> &views) {
  SetVector<Operation *> slice;
  ForwardSliceOptions options;
  getForwardSlice(earlier.getOperation(), &slice, options);
  for (Operation *op : slice) {
    Operation *top = later->getBlock()->findAncestorOpInBlock(*op);
    if (top == earlier.getOperation()) // its own body
      continue;
    if (top == later.getOperation())
      return false;
    if (top && top->isBeforeInBlock(later)) {
      if (top != op ||
          !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
        return false;
      views.push_back(op);
    }
  }
  llvm::sort(views, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return true;
}

/// The merged loop writes each result into its own buffer: an empty
/// tensor `later` shares with `earlier` as a destination is duplicated. Any
/// other shared destination would be written twice: no merge.
static LogicalResult separateInits(RewriterBase &rewriter, scf::ForallOp earlier,
                            scf::ForallOp later) {
  llvm::SmallPtrSet<Value, 4> taken(earlier.getOutputs().begin(),
                                    earlier.getOutputs().end());
  for (OpOperand &init : later.getOutputsMutable()) {
    if (!taken.contains(init.get()))
      continue;
    auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return failure();
  }
  for (OpOperand &init : later.getOutputsMutable()) {
    if (!taken.contains(init.get()))
      continue;
    rewriter.setInsertionPoint(later);
    Operation *copy = rewriter.clone(*init.get().getDefiningOp());
    rewriter.modifyOpInPlace(later, [&] { init.set(copy->getResult(0)); });
  }
  return success();
}

/// Merges the tile loops of independent roots over the same tiles (the
/// branches of a horizontally fused conv or matmul): one nest, one kernel.
static void mergeSiblingNests(RewriterBase &rewriter, GroupOp group) {
  bool merged = true;
  size_t previous = SIZE_MAX;
  while (merged) {
    merged = false;
    SmallVector<scf::ForallOp> nests;
    for (Operation &op : group.getBodyBlock())
      if (auto forall = dyn_cast<scf::ForallOp>(op))
        nests.push_back(forall);
    // Each merge removes a nest; stop if one did not.
    if (nests.size() >= previous)
      break;
    previous = nests.size();
    for (unsigned i = 0; i < nests.size() && !merged; ++i)
      for (unsigned j = i + 1; j < nests.size() && !merged; ++j) {
        SmallVector<Operation *> views;
        if (haveSameTiles(nests[i], nests[j]) &&
            canMergeInto(nests[i], nests[j], views) &&
            succeeded(separateInits(rewriter, nests[i], nests[j]))) {
          scf::ForallOp fused =
              fuseIndependentSiblingForallLoops(nests[i], nests[j], rewriter);
          // Views of the first nest's results now follow the merged loop.
          Operation *after = fused;
          for (Operation *view : views) {
            rewriter.moveOpAfter(view, after);
            after = view;
          }
          merged = true;
        }
      }
  }
}

/// Whether `op` reads every one of `others` or is read by it, through any
/// chain of ops: no nest of theirs could merge with its nest, which may
/// then take the tiles of a group's only root.
static bool isAlone(Operation *op, ArrayRef<Operation *> others) {
  // The ops of the block reading `from`'s results, a nest for a read
  // inside it (a nest reads what it fuses from above, not as an operand).
  Block *block = op->getBlock();
  auto readers = [&](Operation *from) {
    SetVector<Operation *> slice;
    getForwardSlice(from, &slice);
    llvm::SmallPtrSet<Operation *, 16> tops;
    for (Operation *reader : slice)
      if (Operation *top = block->findAncestorOpInBlock(*reader))
        tops.insert(top);
    return tops;
  };
  llvm::SmallPtrSet<Operation *, 16> after = readers(op);
  return llvm::all_of(others, [&](Operation *other) {
    return other == op || after.contains(other) ||
           readers(other).contains(op);
  });
}

/// Tiles every root of the group, earliest first. A group whose results
/// share no root (e.g. horizontally fused branches) gets one nest per root,
/// each computing only the slice of the shared producers it reads (the
/// pass then merges independent nests over the same tiles).
static LogicalResult tileGroup(RewriterBase &rewriter, GroupOp group,
                        const TilePolicy &policy) {
  // A root without a parallel loop stays as it is (one of one tile gets
  // a loop of one iteration, see tileRoot): `done` keeps it from being
  // found again.
  DenseSet<Operation *> done;
  SmallVector<TilingInterface> siblings = findRoots(group);
  std::optional<SmallVector<int64_t>> common =
      getCommonTileSizes(rewriter, group, siblings, policy);
  // Marked, not remembered by address: tiling erases roots, and a new op
  // may take an erased one's place.
  constexpr StringLiteral kSibling = "fuse.tile_sibling";
  if (common)
    for (TilingInterface root : siblings)
      root->setAttr(kSibling, rewriter.getUnitAttr());
  // A root that every other root reads, or that reads every other one, is
  // tiled as a group's only root is: no sibling nest could merge with its
  // nest (ViT's fused Q, K and V projection, whose three results the
  // other roots permute per head, is a contraction in squares, not rows
  // that each stream its whole weight).
  constexpr StringLiteral kAlone = "fuse.tile_alone";
  SmallVector<Operation *> rootOps(llvm::map_range(
      siblings, [](TilingInterface root) { return root.getOperation(); }));
  for (Operation *root : rootOps)
    if (isAlone(root, rootOps))
      root->setAttr(kAlone, rewriter.getUnitAttr());
  bool tiled = true;
  for (SmallVector<TilingInterface> roots = siblings; !roots.empty();
       llvm::erase_if(roots, [&](TilingInterface op) {
         return done.contains(op.getOperation()) || op->use_empty();
       })) {
    TilingInterface root = roots.front();
    done.insert(root);
    SmallVector<OpFoldResult> sizes;
    if (common && root->hasAttr(kSibling)) {
      for (int64_t size : *common)
        sizes.push_back(rewriter.getIndexAttr(size));
      sizes.resize(root.getLoopIteratorTypes().size(),
                   rewriter.getIndexAttr(0));
    } else {
      sizes = getRootTileSizes(rewriter, group, root, policy,
                               /*onlyRoot=*/(roots.size() == 1 &&
                                             done.size() == 1) ||
                                   root->hasAttr(kAlone));
    }
    if (failed(
            tileRoot(rewriter, group, root, sizes, policy.contiguousFilters))) {
      tiled = false;
      break;
    }
    roots = findRoots(group);
  }
  group.getBody().walk([&](Operation *op) {
    op->removeAttr(kSibling);
    op->removeAttr(kAlone);
  });
  return success(tiled);
}

/// A convolution filter's transpose that tileRoot kept out of the nests
/// holds the whole filter as H x W x C x F, which the tiles read down its
/// rows: rows a multiple of 1 KB long are padded (padWeightTransposeRows),
/// as a constant filter's are, so that they do not fall into a few cache
/// sets.
static void padFilterTransposesOutsideNests(RewriterBase &rewriter,
                                            GroupOp group) {
  auto isFilterRead = [](OpOperand &use) {
    return isa<linalg::Conv2DNhwcHwcfOp>(use.getOwner()) &&
           use.getOperandNumber() == 1;
  };
  // A tile's slice of the filter, or the whole filter read by the op that
  // tile-and-fuse replaced by its tiles (dead, not yet erased).
  auto isFilterTile = [&](OpOperand &use) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
    if (!slice)
      return isFilterRead(use);
    return slice->getParentOfType<scf::ForallOp>() &&
           llvm::all_of(slice->getUses(), isFilterRead);
  };
  SmallVector<linalg::TransposeOp> transposes;
  for (auto transpose : group.getBodyBlock().getOps<linalg::TransposeOp>())
    if (!transpose->use_empty() &&
        llvm::all_of(transpose->getUses(), isFilterTile))
      transposes.push_back(transpose);
  for (linalg::TransposeOp transpose : transposes)
    padWeightTransposeRows(rewriter, transpose);
}

/// Structured ops still outside any nest (read by a nest through a reshape
/// that did not move): each gets a nest of its own, last first so that its
/// producers fuse into it, rather than running as plain loops (on the host,
/// on the GPU path).
static void tileLeftovers(RewriterBase &rewriter, GroupOp group,
                   const TilePolicy &policy) {
  SmallVector<TilingInterface> leftovers;
  for (Operation &op : group.getBodyBlock())
    if (auto tileable = dyn_cast<TilingInterface>(op))
      if (!isa<linalg::FillOp>(op) && !op.use_empty())
        leftovers.push_back(tileable);
  for (TilingInterface op : llvm::reverse(leftovers)) {
    if (op->use_empty())
      continue; // fused into a later one's nest
    // The nests it might merge with: the other leftovers and the nests
    // already made.
    SmallVector<Operation *> others;
    for (Operation &other : group.getBodyBlock())
      if (isa<scf::ForallOp>(other) ||
          (isa<TilingInterface>(other) && !isa<linalg::FillOp>(other) &&
           !other.use_empty()))
        others.push_back(&other);
    (void)tileRoot(rewriter, group, op,
                   getRootTileSizes(rewriter, group, op, policy,
                                    /*onlyRoot=*/isAlone(op, others)),
                   policy.contiguousFilters);
  }
}

/// The ops of the body that are loop nests of their own (everything
/// computed outside the tiled loop nests but constants, empty tensors and
/// views), in order.
static SmallVector<Operation *> getKernels(GroupOp group) {
  SmallVector<Operation *> kernels;
  for (Operation &op : group.getBodyBlock().without_terminator()) {
    if (isRematerializable(&op) ||
        isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
            tensor::ExtractSliceOp>(op))
      continue;
    if (isa<TilingInterface>(op) || op.getNumRegions() > 0)
      kernels.push_back(&op);
  }
  return kernels;
}

/// How many of `kernels` read another's results (through views and inserts,
/// or captured in their bodies): those need a grid-wide barrier before they
/// run, so they cannot share a launch with what they read. A nest's shared
/// outputs are where it writes, not what it reads (the peeled parts of a
/// nest each write their box of what the previous part wrote).
static unsigned countDependentKernels(ArrayRef<Operation *> kernels) {
  llvm::SmallPtrSet<Operation *, 8> isKernel(kernels.begin(), kernels.end());
  unsigned dependent = 0;
  for (Operation *kernel : kernels) {
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(kernel->getRegions(), captured);
    SmallVector<Value> worklist;
    if (auto nest = dyn_cast<scf::ForallOp>(kernel)) {
      llvm::append_range(worklist, nest.getDynamicLowerBound());
      llvm::append_range(worklist, nest.getDynamicUpperBound());
      llvm::append_range(worklist, nest.getDynamicStep());
    } else {
      llvm::append_range(worklist, kernel->getOperands());
    }
    llvm::append_range(worklist, captured);
    llvm::SmallPtrSet<Operation *, 16> seen;
    bool reads = false;
    while (!worklist.empty() && !reads) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || def == kernel || !seen.insert(def).second)
        continue;
      if (isKernel.contains(def)) {
        reads = true;
        break;
      }
      llvm::append_range(worklist, def->getOperands());
    }
    dependent += reads;
  }
  return dependent;
}

struct FuseTileGroupsPass final
    : fuse::impl::FuseTileGroupsPassBase<FuseTileGroupsPass> {
  using Base::Base;

  /// Every canonicalization pattern, to make peeled tiles static.
  std::shared_ptr<FrozenRewritePatternSet> canonicalization;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    populatePeeledTilePatterns(patterns);
    canonicalization =
        std::make_shared<FrozenRewritePatternSet>(std::move(patterns));
    return success();
  }

  void runOnOperation() override {
    if (minTileElements < 1 || contractionTile < 0 || contractionTiles < 1 ||
        windowTileElements < 0 || weightRowTileElements < 0 ||
        streamedWeightBytes < 0 || wideSideFactor < 1 || transposeBlock < 0 ||
        transposeBlock > TilePolicy::kTransposeTileRows) {
      emitError(getOperation()->getLoc())
          << "fuse-tile-groups: min-tile-elements, contraction-tiles and "
             "wide-side-factor must be at least 1, "
             "contraction-tile, window-tile-elements, "
             "weight-row-tile-elements and streamed-weight-bytes at least 0, "
             "transpose-block from 0 to 64";
      return signalPassFailure();
    }
    if (failed(verifyInputSizes(getOperation())))
      return signalPassFailure();
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    IRRewriter rewriter(&getContext());
    TilePolicy policy{
        minTileElements,     contractionTile,       contractionTiles,
        partialTiles,        convolutionsAsMatmuls, contiguousFilters,
        widenRowsFirst,      windowTileElements,    weightRowTileElements,
        oneWeightRowTile,    wideSideFactor,        mergeSiblingReaders,
        streamedWeightBytes, padInProducers,        halveOddTiles,
        transposeBlock};
    // Every body on linalg first: a group's result may then be written with
    // the halo its readers' pads need (PadInProducers.h).
    SmallVector<GroupOp> lowered;
    for (GroupOp group : groups) {
      // Upstream tiling needs static, non-empty loop ranges: a group with a
      // dynamic or zero-sized tensor (not one --fuse-ops forms, but valid
      // input) is left to the op-by-op lowering.
      auto isTileable = [](Type t) {
        auto shaped = dyn_cast<RankedTensorType>(t);
        return !shaped ||
               (shaped.hasStaticShape() && shaped.getNumElements() != 0);
      };
      bool tileable = true;
      group.getBody().walk([&](Operation *op) {
        tileable &= llvm::all_of(op->getOperandTypes(), isTileable) &&
                    llvm::all_of(op->getResultTypes(), isTileable);
      });
      if (!tileable) {
        group.emitRemark("fuse-tile-groups: a dynamic or zero-sized tensor; "
                         "left untiled");
        continue;
      }
      materializeIndexChanges(group);
      if (failed(lowerBodyToLinalg(group))) {
        group.emitRemark("fuse-tile-groups: the body has ops with no linalg "
                         "lowering; left untiled");
        continue;
      }
      lowered.push_back(group);
    }
    if (padInProducers)
      numPadsInProducers += fuse::padInProducers(rewriter, lowered);
    for (GroupOp group : lowered) {
      splitCopyChains(rewriter, group);
      cleanUpBody(group);
      convertOneByOneConvs(group, policy.contiguousFilters);
      if (policy.mergeSiblingReaders)
        tiling::mergeSiblingReaders(group);
      if (failed(tileGroup(rewriter, group, policy)))
        group.emitRemark("fuse-tile-groups: the root could not be tiled; "
                         "left untiled");
      if (policy.contiguousFilters)
        padFilterTransposesOutsideNests(rewriter, group);
      // Tile-and-fuse recomputes a producer per reader; identical copies
      // merge before elementwise fusion would bury them in their readers.
      {
        DominanceInfo dominance(group);
        mlir::eliminateCommonSubExpressions(rewriter, dominance, group);
      }
      // After CSE, which would give merged nests one destination again.
      mergeSiblingNests(rewriter, group);
      // Parts of a concat that no nest computes are copied by nests too.
      (void)makeCopiesOfUncomputedParts(rewriter, group.getBodyBlock());
      tileLeftovers(rewriter, group, policy);
      // Results flattened after their nest are written flattened.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)foldCollapsesIntoNest(rewriter, nest);
      // Nests whose results are parts of a larger tensor write it.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)foldInsertsIntoNest(rewriter, nest);
      // Nests with a partial last tile: the whole tiles and the last one
      // each get a nest of their own, of static shapes.
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        (void)peelPartialTiles(rewriter, nest, *canonicalization);
      // A nest whose result only an insert reads runs right before it, so
      // that the tensor inserted into exists where the nest starts and
      // bufferization writes the nest's tiles there (else the result is
      // written apart and copied: a host copy on the GPU path).
      for (auto nest :
           llvm::to_vector(group.getBodyBlock().getOps<scf::ForallOp>()))
        if (nest->hasOneUse())
          if (auto insert =
                  dyn_cast<tensor::InsertSliceOp>(*nest->user_begin()))
            if (insert.getSource() == nest->getResult(0) &&
                insert->getBlock() == nest->getBlock())
              rewriter.moveOpBefore(nest, insert);
      // Dead producers go (their tiles now live in the loop nest); slices
      // of empty tensors become tile-sized empty tensors, so temporaries
      // are per tile.
      RewritePatternSet cleanup(&getContext());
      tensor::populateFoldTensorEmptyPatterns(cleanup);
      // Inside a tile, chains of elementwise ops become one loop body:
      // their intermediates are registers, not tile buffers. A producer
      // the consumer broadcasts stays apart: fused, it would be recomputed
      // for every element it is broadcast to (a softmax's 1/sum per
      // element instead of per row). A producer with several readers is
      // fused into each of them when it is a few arithmetic ops (LayerNorm's
      // `x - mean`, read by the variance and the normalization): recomputed
      // per reader, it needs no tile buffer, which on a GPU is a pass
      // through shared memory and a barrier.
      linalg::populateElementwiseOpsFusionPatterns(
          cleanup, [](OpOperand *fused) {
            Operation *producer = fused->get().getDefiningOp();
            auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
            return producer && consumer &&
                   consumer.getMatchingIndexingMap(fused).isPermutation() &&
                   (producer->hasOneUse() || isCheapToRecompute(producer));
          });
      cleanup.add<GeneralizeFusibleReduce>(&getContext());
      (void)applyPatternsGreedily(group.getBody(), std::move(cleanup));
      SmallVector<Operation *> kernels = getKernels(group);
      if (kernels.size() > 1 && reportNests)
        group.emitRemark() << "fuse-tile-groups: lowers to " << kernels.size()
                           << " loop nests, " << countDependentKernels(kernels)
                           << " reading another's results";
      numNests += kernels.size();
    }
  }
};

} // namespace
