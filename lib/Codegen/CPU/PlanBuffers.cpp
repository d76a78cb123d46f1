//===- PlanBuffers.cpp - One arena for a function's temporaries -----------===//
//
// The ownership-based deallocation frees a buffer at the end of the block
// that allocates it, so each temporary of @model lives until it returns and
// every call allocates, maps and zero-fills the sum of them. This pass packs
// them into one buffer by liveness (the memory planning of ONNX Runtime's
// memory patterns or TFLite's arena planner):
//
//   1. Temporaries: the `memref.alloc`s of the body block with a static
//      identity-layout shape, default memory space and byte-sized elements,
//      none of whose aliases (view-like ops, the base buffer of
//      `memref.extract_strided_metadata`) escapes: returned, yielded, cast
//      to another type system, or an operand of an op with memref results.
//   2. Lives: from the alloc's position in the block to that of the block's
//      op holding the last use of the buffer or an alias; deallocs do not
//      count.
//   3. Offsets, greedy by size: largest first, each at the lowest aligned
//      offset where it overlaps no placed temporary whose life overlaps
//      its own.
//   4. One `memref.alloc` of the peak at the block's start, a `memref.view`
//      of it in place of each temporary's alloc, their deallocs erased, the
//      arena's dealloc before the terminator.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPLANBUFFERSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Every arena offset is a multiple of this (a cache line, the alignment
/// bufferization gives its allocations).
constexpr int64_t kArenaAlignment = 64;
/// Temporaries asking for more keep their own allocation.
constexpr int64_t kMaxAlignment = 4096;

struct Temporary {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  int64_t alignment = kArenaAlignment;
  unsigned begin = 0, end = 0; // positions in the block, inclusive
  SmallVector<memref::DeallocOp> deallocs;
  int64_t offset = 0;
};

/// Temporaries larger than this keep their own allocation (and no sum of
/// sizes or offsets can overflow).
constexpr int64_t kMaxTemporaryBytes = int64_t(1) << 40;

/// The bytes of `type`, or nullopt when its elements are not whole bytes of
/// a known size (i1, index, vectors) or it is larger than the bound.
std::optional<int64_t> getStaticBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  for (int64_t size : type.getShape()) {
    if (size != 0 && bytes > kMaxTemporaryBytes / size)
      return std::nullopt;
    bytes *= size;
  }
  return bytes;
}

/// Fills `t`'s life end and deallocs from the uses of `value`, an alias of
/// its buffer; false when an alias escapes.
bool collectUses(Value value, Block &body,
                 const DenseMap<Operation *, unsigned> &positions,
                 Temporary &t) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      if (dealloc->getBlock() != &body)
        return false;
      t.deallocs.push_back(dealloc);
      continue;
    }
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top || user->hasTrait<OpTrait::IsTerminator>() ||
        isa<UnrealizedConversionCastOp, memref::ExtractAlignedPointerAsIndexOp>(
            user))
      return false;
    t.end = std::max(t.end, positions.lookup(top));
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    bool isSource = view && view.getViewSource() == value;
    for (OpResult result : user->getResults()) {
      if (!isa<BaseMemRefType>(result.getType()))
        continue;
      bool aliases = isSource || (isa<memref::ExtractStridedMetadataOp>(user) &&
                                  result.getResultNumber() == 0);
      if (!aliases || !collectUses(result, body, positions, t))
        return false;
    }
  }
  return true;
}

struct FusePlanBuffersPass
    : public fuse::impl::FusePlanBuffersPassBase<FusePlanBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.getBody().hasOneBlock())
      return;
    Block &body = func.getBody().front();
    DenseMap<Operation *, unsigned> positions;
    for (auto [index, op] : llvm::enumerate(body))
      positions[&op] = index;

    // 1-2. The temporaries and their lives.
    SmallVector<Temporary> temporaries;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      std::optional<int64_t> bytes = getStaticBytes(alloc.getType());
      if (!bytes || *bytes == 0 ||
          alloc.getAlignment().value_or(0) > kMaxAlignment)
        continue;
      Temporary t;
      t.alloc = alloc;
      t.bytes = *bytes;
      t.alignment = std::max<int64_t>(kArenaAlignment,
                                      alloc.getAlignment().value_or(0));
      t.begin = t.end = positions.lookup(alloc);
      if (collectUses(alloc, body, positions, t))
        temporaries.push_back(std::move(t));
    }
    if (temporaries.size() < 2)
      return;

    // 3. Offsets: largest first, lowest fitting offset.
    SmallVector<Temporary *> order =
        llvm::map_to_vector(temporaries, [](Temporary &t) { return &t; });
    llvm::stable_sort(order, [](Temporary *a, Temporary *b) {
      return a->bytes > b->bytes;
    });
    int64_t arenaBytes = 0, arenaAlignment = kArenaAlignment;
    SmallVector<Temporary *> placed;
    for (Temporary *t : order) {
      SmallVector<Temporary *> live;
      for (Temporary *other : placed)
        if (other->begin <= t->end && t->begin <= other->end)
          live.push_back(other);
      llvm::sort(live, [](Temporary *a, Temporary *b) {
        return a->offset < b->offset;
      });
      int64_t offset = 0;
      for (Temporary *other : live) {
        if (offset + t->bytes <= other->offset)
          break;
        offset = std::max<int64_t>(
            offset, llvm::alignTo(other->offset + other->bytes, t->alignment));
      }
      t->offset = offset;
      arenaBytes = std::max(arenaBytes, offset + t->bytes);
      arenaAlignment = std::max(arenaAlignment, t->alignment);
      placed.push_back(t);
    }

    // 4. The arena and the views of it.
    OpBuilder builder(&body, body.begin());
    Location loc = func.getLoc();
    auto arenaType = MemRefType::get({arenaBytes}, builder.getI8Type());
    Value arena = memref::AllocOp::create(builder, loc, arenaType,
                                          builder.getI64IntegerAttr(
                                              arenaAlignment));
    for (Temporary &t : temporaries) {
      builder.setInsertionPoint(t.alloc);
      Value offset =
          arith::ConstantIndexOp::create(builder, t.alloc.getLoc(), t.offset);
      Value view = memref::ViewOp::create(builder, t.alloc.getLoc(),
                                          t.alloc.getType(), arena, offset,
                                          ValueRange());
      for (memref::DeallocOp dealloc : t.deallocs)
        dealloc.erase();
      t.alloc.replaceAllUsesWith(view);
      t.alloc.erase();
    }
    builder.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(builder, loc, arena);
  }
};

} // namespace
