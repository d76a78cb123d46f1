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

#include "FuseDialect/Codegen/Common/NestAccesses.h"
#include "FuseDialect/Codegen/Common/TileLoops.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/Target/TargetDescription.h"

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
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

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
    if (poolBytes + allReduces * GpuDescription::kAllReduceSharedBytes >
        GpuDescription::kSharedMemoryPerBlock)
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

} // namespace
