//===- MergeGroupLaunches.cpp - One launch per group ----------------------===//
//
// A group whose results need different tile loops (the branches of a
// horizontally fused Inception block: three 1x1 convolutions of one input,
// 64, 48 and 64 channels, one result in another layout) lowers to one loop
// nest per result, and fuse-distribute-tiles makes each nest a launch; so
// do the pieces of a split channel shuffle (the even and the odd channels
// of one result, written through strided views). When the nests are
// independent (none reads what another writes, compared per buffer and,
// within one buffer, per static strided box of the views), their
// launches become one: the blocks of the first launch, then those of the
// second, each block running its own nest's body (a branch on the block
// index, uniform within the block, so barriers stay legal). This is
// horizontal kernel fusion: one kernel per group, one launch instead of
// several, and the branches' blocks share the GPU.
//
// fuse-inline-groups marks the tile loops of such a group with
// `fuse.group_nest` (the group's index); the launches inherit it. A launch
// without the mark, or two nests where one reads the other's result (a
// transposed matmul result read by the next nest), stay separate launches.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "TileLoops.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEMERGEGROUPLAUNCHESPASS
#define GEN_PASS_DEF_FUSEMERGEGROUPNESTSPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// A key for the buffer a memref value is a view of: the allocation's
/// value, the global's name, or one key for all function arguments (they
/// may alias each other).
const void *getBufferKey(Value value) {
  while (true) {
    if (auto view = value.getDefiningOp<ViewLikeOpInterface>()) {
      value = view.getViewSource();
      continue;
    }
    break;
  }
  if (auto global = value.getDefiningOp<memref::GetGlobalOp>())
    return global.getNameAttr().getAsOpaquePointer();
  if (auto argument = dyn_cast<BlockArgument>(value))
    if (isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
      return &fuse::kSharedMemoryBytes; // any function argument
  return value.getAsOpaquePointer();
}

/// One access of a body to a buffer from outside: the part of the buffer
/// it may touch (the view it goes through), or all of it.
struct Access {
  const void *key;
  /// The buffer itself: function arguments share a key (they may alias)
  /// but only parts of one buffer compare.
  Value root;
  std::optional<StridedBox> region;
  bool write;
};

struct Accesses {
  SmallVector<Access> list;

  /// Whether any access reads or writes buffer `key`.
  bool touches(const void *key) const {
    return llvm::any_of(
        list, [&](const Access &access) { return access.key == key; });
  }
};

/// The box of `root` (a statically shaped buffer of identity layout) that
/// `value` views, when `value` is `root` through a chain of static subviews
/// with positive strides (rank-reducing ones too).
std::optional<StridedBox> getBufferRegion(Value value, Value root) {
  SmallVector<memref::SubViewOp> chain;
  while (value != root) {
    auto subview = value.getDefiningOp<memref::SubViewOp>();
    if (!subview)
      return std::nullopt;
    chain.push_back(subview);
    value = subview.getSource();
  }
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::nullopt;
  StridedBox region;
  region.sizes = llvm::to_vector(type.getShape());
  region.offsets.assign(type.getRank(), 0);
  region.strides.assign(type.getRank(), 1);
  // The buffer dims the current view's dims are.
  SmallVector<unsigned> dims =
      llvm::to_vector(llvm::seq<unsigned>(0, type.getRank()));
  for (memref::SubViewOp subview : llvm::reverse(chain)) {
    if (ShapedType::isDynamicShape(subview.getStaticOffsets()) ||
        ShapedType::isDynamicShape(subview.getStaticSizes()) ||
        ShapedType::isDynamicShape(subview.getStaticStrides()) ||
        llvm::any_of(subview.getStaticStrides(),
                     [](int64_t stride) { return stride <= 0; }))
      return std::nullopt;
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<unsigned> kept;
    for (auto [i, dim] : llvm::enumerate(dims)) {
      region.offsets[dim] +=
          region.strides[dim] * subview.getStaticOffsets()[i];
      region.strides[dim] *= subview.getStaticStrides()[i];
      region.sizes[dim] = subview.getStaticSizes()[i];
      if (!dropped.test(i))
        kept.push_back(dim);
    }
    dims = std::move(kept);
  }
  return region;
}

/// The buffers `value` may be a view of: through view-like ops, through
/// both branches of an `scf.if` and both operands of a select that yield
/// it (the padded window of a tile is one of two shared buffers), and
/// through the initial and yielded values of an `scf.for` it is carried by
/// (a buffer the loop updates in place).
void getRoots(Value value, SmallVectorImpl<Value> &roots,
              llvm::SmallPtrSetImpl<Value> &visited) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  if (!visited.insert(value).second)
    return;
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    getRoots(select.getTrueValue(), roots, visited);
    getRoots(select.getFalseValue(), roots, visited);
    return;
  }
  if (auto branch = value.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(value).getResultNumber();
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!region->empty())
        getRoots(cast<scf::YieldOp>(region->front().getTerminator())
                     .getOperand(index),
                 roots, visited);
    return;
  }
  scf::ForOp loop;
  unsigned index = 0;
  if ((loop = value.getDefiningOp<scf::ForOp>())) {
    index = cast<OpResult>(value).getResultNumber();
  } else if (auto argument = dyn_cast<BlockArgument>(value)) {
    loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
    if (loop && argument.getArgNumber() >= loop.getNumInductionVars())
      index = argument.getArgNumber() - loop.getNumInductionVars();
    else
      loop = {};
  }
  if (loop) {
    getRoots(loop.getInitArgs()[index], roots, visited);
    getRoots(loop.getYieldedValues()[index], roots, visited);
    return;
  }
  roots.push_back(value);
}

/// The buffers from outside `body` that it reads and writes; false when an
/// effect is not known. `isOwn` tells the body's own memory (allocated in
/// it, or a launch's shared buffers).
bool getAccesses(Region &body, function_ref<bool(Value)> isOwn,
                 Accesses &accesses) {
  auto isInside = [&](Value value) {
    Region *region = value.getParentRegion();
    return region && body.isAncestor(region);
  };
  WalkResult result = body.walk([&](Operation *op) {
    // The block and grid ids and sizes are remapped as the body's block
    // arguments only: ops that read them from the hardware would see the
    // merged grid.
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::GlobalIdOp, gpu::ClusterIdOp,
            gpu::ClusterDimOp, gpu::ClusterBlockIdOp, gpu::ClusterDimBlocksOp>(
            op))
      return WalkResult::interrupt();
    // A block-wide reduction of values (its lowering's buffer is its own).
    if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op) || isMemoryEffectFree(op))
      return WalkResult::advance();
    // An op may have effects of its own besides its body's: a linalg.generic
    // on buffers reads its inputs and writes its outputs, and its region's
    // ops touch no memory. The walk visits the body; the op's own effects
    // are taken here. (Skipping every op with recursive effects lost those
    // reads: a nest reading what another writes was merged with it, and
    // their tiles raced under OpenMP and on the GPU.)
    auto interface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!interface)
      return op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    interface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value value = effect.getValue();
      if (!value) {
        // Allocation scopes and the like: no buffer from outside.
        if (isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
          return WalkResult::interrupt();
        continue;
      }
      SmallVector<Value> roots;
      llvm::SmallPtrSet<Value, 4> visited;
      getRoots(value, roots, visited);
      // The view from outside the body the access goes through, through
      // views inside it that stay within that view's elements.
      Value outerView = value;
      while (isInside(outerView))
        if (isa_and_nonnull<memref::SubViewOp, memref::CastOp,
                            memref::ExpandShapeOp, memref::CollapseShapeOp,
                            memref::TransposeOp>(outerView.getDefiningOp()))
          outerView = outerView.getDefiningOp()->getOperand(0);
        else
          break;
      std::optional<StridedBox> region;
      if (roots.size() == 1 && !isInside(outerView))
        region = getBufferRegion(outerView, roots.front());
      for (Value root : roots) {
        if (isInside(root) && !root.getDefiningOp<memref::GetGlobalOp>()) {
          if (isOwn(root))
            continue;
          // A buffer the body computes some other way (a transpose): which
          // one it is is not known.
          return WalkResult::interrupt();
        }
        const void *key = getBufferKey(root);
        bool write = !isa<MemoryEffects::Read>(effect.getEffect());
        accesses.list.push_back({key, root, region, write});
      }
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

bool isAllocation(Value value) {
  return isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      value.getDefiningOp());
}

/// The accesses of a launch: its own memory is its shared and private
/// buffers and what its body allocates.
bool getAccesses(gpu::LaunchOp launch, Accesses &accesses) {
  return getAccesses(
      launch.getBody(),
      [&](Value root) {
        return llvm::is_contained(launch.getWorkgroupAttributions(), root) ||
               llvm::is_contained(launch.getPrivateAttributions(), root) ||
               isAllocation(root);
      },
      accesses);
}

/// Neither side writes a part of a buffer the other reads or writes, so
/// their iterations may interleave in any order. (Two pieces of a split copy
/// chain write the even and odd channels of one buffer.)
bool areIndependent(const Accesses &a, const Accesses &b) {
  for (const Access &x : a.list)
    for (const Access &y : b.list)
      if (x.key == y.key && (x.write || y.write) &&
          (x.root != y.root || !x.region || !y.region ||
           !areDisjoint(*x.region, *y.region)))
        return false;
  return true;
}

std::optional<int64_t> getConstant(Value value) {
  return getConstantIntValue(getAsOpFoldResult(value));
}

/// The launch's one-dimensional grid size, if it is a plain launch of
/// `blockSize`-thread blocks: no async tokens, clusters, dynamic shared
/// memory or private attributions.
std::optional<int64_t> getPlainGrid(gpu::LaunchOp launch, int64_t &blockSize) {
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize() || launch.getDynamicSharedMemorySize() ||
      launch.getNumPrivateAttributions() != 0 ||
      !launch.getBody().hasOneBlock())
    return std::nullopt;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  std::optional<int64_t> x = getConstant(grid.x), bx = getConstant(block.x);
  if (!x || !bx || getConstant(grid.y) != 1 || getConstant(grid.z) != 1 ||
      getConstant(block.y) != 1 || getConstant(block.z) != 1)
    return std::nullopt;
  blockSize = *bx;
  return x;
}

/// The byte offsets of the launch's shared buffers in one pool (16-byte
/// aligned, as fuse-annotate-kernels aligns each buffer), and the pool's
/// size; nothing if a buffer is not a static, identity-layout memref of
/// whole-byte elements in `memorySpace`.
std::optional<int64_t> getSharedLayout(gpu::LaunchOp launch,
                                       Attribute memorySpace,
                                       SmallVectorImpl<int64_t> &offsets) {
  int64_t bytes = 0;
  for (BlockArgument buffer : launch.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0 ||
        type.getMemorySpace() != memorySpace)
      return std::nullopt;
    offsets.push_back(bytes);
    bytes += llvm::alignTo(
        type.getNumElements() * type.getElementTypeBitWidth() / 8, 16);
  }
  return bytes;
}

/// Host ops between two launches either move before the first (constants,
/// allocations and the waits around device allocations) or after the second
/// (deallocations, and the waits around device deallocations). Returns
/// false if one can do neither.
bool partitionBetween(Operation *first, Operation *second,
                      const Accesses &secondAccesses,
                      SmallVectorImpl<Operation *> &before,
                      SmallVectorImpl<Operation *> &after) {
  llvm::SmallPtrSet<Operation *, 8> late;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (isa<memref::DeallocOp, gpu::DeallocOp>(op)) {
      late.insert(op);
      continue;
    }
    // A wait whose token only a late op takes, or that waits on a late op.
    if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
      bool feedsLate = wait.getAsyncToken() &&
                       llvm::all_of(wait.getAsyncToken().getUsers(),
                                    [&](Operation *user) {
                                      return isa<gpu::DeallocOp>(user);
                                    }) &&
                       !wait.getAsyncToken().use_empty();
      bool waitsOnLate =
          llvm::any_of(wait.getAsyncDependencies(), [&](Value token) {
            return late.contains(token.getDefiningOp());
          });
      if (feedsLate || waitsOnLate) {
        late.insert(op);
        continue;
      }
    }
  }
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode()) {
    if (late.contains(op)) {
      // A buffer the second launch still uses is not freed before it.
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            secondAccesses.touches(getBufferKey(operand)))
          return false;
      after.push_back(op);
      continue;
    }
    bool movable = isMemoryEffectFree(op) ||
                   isa<memref::AllocOp, gpu::AllocOp, gpu::WaitOp>(op);
    if (!movable || op->getNumRegions() != 0)
      return false;
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && late.contains(def))
        return false;
    }
    before.push_back(op);
  }
  return true;
}

/// Inlines `launch`'s body before `point`: its block index x is `blockX`,
/// its grid size x the constant `gridX`, its shared buffers views of `pool`
/// at `offsets`, the other launch values are `merged`'s.
void inlineBody(RewriterBase &rewriter, gpu::LaunchOp launch,
                gpu::LaunchOp merged, Value blockX, int64_t gridX, Value pool,
                ArrayRef<int64_t> offsets, Operation *point) {
  Block &body = launch.getBody().front();
  Block &mergedBody = merged.getBody().front();
  unsigned config = launch.getNumConfigRegionAttributes();
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(point);
  Value grid = arith::ConstantIndexOp::create(rewriter, loc, gridX);
  SmallVector<Value> replacements;
  for (BlockArgument argument : body.getArguments()) {
    unsigned index = argument.getArgNumber();
    if (argument == launch.getBlockIds().x) {
      replacements.push_back(blockX);
    } else if (argument == launch.getGridSize().x) {
      replacements.push_back(grid);
    } else if (index < config) {
      replacements.push_back(mergedBody.getArgument(index));
    } else {
      Value offset = arith::ConstantIndexOp::create(rewriter, loc,
                                                    offsets[index - config]);
      replacements.push_back(memref::ViewOp::create(rewriter, argument.getLoc(),
                                                    argument.getType(), pool,
                                                    offset, ValueRange{}));
    }
  }
  rewriter.eraseOp(body.getTerminator());
  rewriter.inlineBlockBefore(&body, point, replacements);
}

/// The most nests one merged loop or launch holds: each merge re-reads the
/// merged body and nests it one branch deeper, so an unbounded run (a
/// concat of 2,000 parts) would cost quadratic time and a 2,000-deep
/// branch; 32 branches keep the GPU's blocks and the CPU's cores as busy.
constexpr int kMaxMergedNests = 32;

/// Merges each `OpTy` marked with `fuse.group_nest` under `root` with the
/// next one of its group in the same block, as long as `merge` (which
/// returns the merged op, or null) succeeds and the merged op holds at most
/// kMaxMergedNests nests.
template <typename OpTy>
void mergeGroupNests(Operation *root,
                     function_ref<OpTy(RewriterBase &, OpTy, OpTy)> merge) {
  StringRef mark = fuse::FuseDialect::kGroupNestAttrName;
  SmallVector<Block *> blocks;
  root->walk([&](OpTy op) {
    if (op->hasAttr(mark))
      blocks.push_back(op->getBlock());
  });
  llvm::SmallPtrSet<Block *, 4> done;
  IRRewriter rewriter(root->getContext());
  for (Block *block : blocks) {
    if (!done.insert(block).second)
      continue;
    OpTy current;
    int nests = 0;
    for (Operation *op = &block->front(); op; op = op->getNextNode()) {
      auto nest = dyn_cast<OpTy>(op);
      if (!nest)
        continue;
      Attribute group = nest->getAttr(mark);
      if (current && group && current->getAttr(mark) == group &&
          nests < kMaxMergedNests) {
        if (OpTy merged = merge(rewriter, current, nest)) {
          current = merged;
          op = merged;
          ++nests;
          continue;
        }
      }
      current = group ? nest : OpTy();
      nests = 1;
    }
  }
}

struct FuseMergeGroupLaunchesPass final
    : fuse::impl::FuseMergeGroupLaunchesPassBase<FuseMergeGroupLaunchesPass> {
  using Base::Base;

  void runOnOperation() override {
    mergeGroupNests<gpu::LaunchOp>(
        getOperation(),
        [&](RewriterBase &rewriter, gpu::LaunchOp first, gpu::LaunchOp second) {
          return merge(rewriter, first, second);
        });
  }

  /// `first` and `second` as one launch, or null if they cannot be.
  gpu::LaunchOp merge(RewriterBase &rewriter, gpu::LaunchOp first,
                      gpu::LaunchOp second) {
    auto fail = [&](const Twine &why) {
      if (report)
        second.emitRemark("fuse-merge-group-launches: not merged with the "
                          "previous launch of its group: ")
            << why;
      return gpu::LaunchOp();
    };
    int64_t firstBlock = 0, secondBlock = 0;
    std::optional<int64_t> firstGrid = getPlainGrid(first, firstBlock);
    std::optional<int64_t> secondGrid = getPlainGrid(second, secondBlock);
    if (!firstGrid || !secondGrid || firstBlock != secondBlock ||
        *firstGrid + *secondGrid >= (int64_t(1) << 31))
      return fail("not two plain launches of one block size");
    // The two bodies never run in one block: their shared buffers share
    // one pool.
    auto workgroup = gpu::AddressSpaceAttr::get(
        rewriter.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    SmallVector<int64_t> firstOffsets, secondOffsets;
    std::optional<int64_t> firstBytes =
        getSharedLayout(first, workgroup, firstOffsets);
    std::optional<int64_t> secondBytes =
        getSharedLayout(second, workgroup, secondOffsets);
    if (!firstBytes || !secondBytes)
      return fail("a shared buffer of dynamic shape, layout, sub-byte "
                  "elements or another memory space");
    // Each gpu.all_reduce's lowering adds a buffer of its own.
    int64_t allReduces = 0;
    for (gpu::LaunchOp launch : {first, second})
      launch.walk([&](gpu::AllReduceOp) { ++allReduces; });
    int64_t poolBytes = std::max(*firstBytes, *secondBytes);
    if (poolBytes + allReduces * kAllReduceSharedBytes > kSharedMemoryBytes)
      return fail("a shared memory pool over 48 KiB");
    Accesses a, b;
    if (!getAccesses(first, a) || !getAccesses(second, b))
      return fail("an op of unknown memory effects, a buffer chosen inside "
                  "the body, or block and grid ids read as ops");
    if (!areIndependent(a, b))
      return fail("one writes a buffer the other accesses");
    SmallVector<Operation *> before, after;
    if (!partitionBetween(first, second, b, before, after))
      return fail("a host op between them cannot move");

    for (Operation *op : before)
      rewriter.moveOpBefore(op, first);
    Location loc = rewriter.getFusedLoc({first.getLoc(), second.getLoc()});
    rewriter.setInsertionPoint(first);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value one = constant(1);
    auto merged =
        gpu::LaunchOp::create(rewriter, loc, constant(*firstGrid + *secondGrid),
                              one, one, constant(firstBlock), one, one);
    merged->setAttr(fuse::FuseDialect::kGroupNestAttrName,
                    first->getAttr(fuse::FuseDialect::kGroupNestAttrName));
    Value pool;
    if (poolBytes > 0) {
      pool = merged.addWorkgroupAttribution(
          MemRefType::get({poolBytes}, rewriter.getI8Type(),
                          MemRefLayoutAttrInterface(), workgroup),
          loc);
    }

    // Blocks [0, firstGrid) run the first body, the rest the second.
    Block &body = merged.getBody().front();
    rewriter.setInsertionPointToStart(&body);
    Value blockX = merged.getBlockIds().x;
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, blockX, constant(*firstGrid));
    auto branch = scf::IfOp::create(rewriter, loc, isFirst,
                                    /*withElseRegion=*/true);
    gpu::TerminatorOp::create(rewriter, loc);
    inlineBody(rewriter, first, merged, blockX, *firstGrid, pool, firstOffsets,
               branch.thenBlock()->getTerminator());
    rewriter.setInsertionPointToStart(branch.elseBlock());
    Value secondX =
        arith::SubIOp::create(rewriter, loc, blockX, constant(*firstGrid));
    inlineBody(rewriter, second, merged, secondX, *secondGrid, pool,
               secondOffsets, branch.elseBlock()->getTerminator());
    rewriter.eraseOp(first);
    rewriter.eraseOp(second);
    ++numMerged;
    return merged;
  }
};

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
    Value tile = merged.getInductionVars().front();
    Value split = arith::ConstantIndexOp::create(rewriter, loc, firstTiles);
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, tile, split);
    auto branch = scf::IfOp::create(rewriter, loc, isFirst,
                                    /*withElseRegion=*/true);
    inlineTileLoopBody(rewriter, first, tile, *firstCounts,
                       branch.thenBlock()->getTerminator());
    rewriter.setInsertionPointToStart(branch.elseBlock());
    Value shifted = arith::SubIOp::create(rewriter, loc, tile, split);
    inlineTileLoopBody(rewriter, second, shifted, *secondCounts,
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
