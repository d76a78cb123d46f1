//===- StagedInputs.cpp - Inputs several ops of a tile read ---------------===//
//
// An input of the tile that a reduction and other ops read (a softmax or
// LayerNorm row) is copied to shared memory once, before its first
// reader, and read there.
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

/// Whether buffers `a` and `b` (roots) may share memory. They do not when
/// they live in different memory spaces (shared memory against global), or
/// when one is a fresh allocation and the other a buffer known not to be
/// derived from it (another allocation, a function argument, a global);
/// two function arguments may alias, and so may anything the view walk
/// stopped at (a branch result).
static bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  if (cast<BaseMemRefType>(a.getType()).getMemorySpace() !=
      cast<BaseMemRefType>(b.getType()).getMemorySpace())
    return false;
  auto isFresh = [](Value v) {
    return isa_and_present<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(
        v.getDefiningOp());
  };
  auto isKnown = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
    return isFresh(v) || v.getDefiningOp<memref::GetGlobalOp>();
  };
  return !((isFresh(a) && isKnown(b)) || (isFresh(b) && isKnown(a)));
}

/// The inputs of the tile in `body` (a launch's body) worth staging in
/// shared memory, most re-read bytes first: a static buffer in global
/// memory that at least two of the body's ops read (ops at its top level,
/// not in a branch), one of them a reduction whose row every thread
/// reads in turn, and that no op of the tile writes. A softmax or
/// LayerNorm tile reads its row once per reduction and once more for the
/// result: three passes over global memory, two of them after a whole-row
/// pass (and a barrier) that evicts what a thread cached; staged, the row
/// is read once, with 16-byte loads where aligned, and the passes read
/// shared memory. Contractions that stage or register-tile their own
/// operands are not readers here.
static SmallVector<StagedInput>
getStagedInputs(Block &body,
                const DenseMap<Operation *, RegisterTiling> &registerTilings,
                const DenseSet<Operation *> &absorbed) {
  // Buffers the tile writes.
  SmallVector<Value> written;
  body.walk([&](linalg::LinalgOp op) {
    for (Value init : op.getDpsInits())
      written.push_back(getRootBuffer(init));
  });
  llvm::MapVector<Value, StagedInput> inputs;
  DenseSet<Value> rejected;
  for (Operation &op : body) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || absorbed.contains(linalgOp))
      continue;
    std::optional<StagedReduction> reduction = getStagedReduction(linalgOp);
    bool stagesItself = registerTilings.contains(linalgOp) ||
                        (reduction && reduction->outer.empty());
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      Value buffer = input->get();
      auto type = dyn_cast<MemRefType>(buffer.getType());
      if (!type || rejected.contains(buffer))
        continue;
      if (stagesItself || !type.hasStaticShape() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementTypeBitWidth() % 8 != 0 ||
          llvm::any_of(written, [&](Value w) {
            return mayAlias(w, getRootBuffer(buffer));
          })) {
        rejected.insert(buffer);
        inputs.erase(buffer);
        continue;
      }
      StagedInput &staged = inputs[buffer];
      staged.buffer = buffer;
      staged.bytes = type.getNumElements() * elementBytes(type);
      staged.reads.push_back(input);
    }
  }
  SmallVector<StagedInput> result;
  for (auto &[buffer, staged] : inputs) {
    SmallPtrSet<Operation *, 4> readers;
    bool reduces = false;
    for (OpOperand *read : staged.reads) {
      readers.insert(read->getOwner());
      reduces |=
          cast<linalg::LinalgOp>(read->getOwner()).getNumReductionLoops() != 0;
    }
    if (readers.size() >= 2 && reduces)
      result.push_back(std::move(staged));
  }
  llvm::stable_sort(result, [](const StagedInput &a, const StagedInput &b) {
    return a.bytes * static_cast<int64_t>(a.reads.size()) >
           b.bytes * static_cast<int64_t>(b.reads.size());
  });
  return result;
}

/// Shared memory the ops of `body` take as they are distributed: a staged
/// contraction's slices, a split reduction's all_reduce buffer (counted
/// for every reduction that could split).
static int64_t getSharedBytesNeeded(
    Block &body, const DenseMap<Operation *, RegisterTiling> &registerTilings,
    const DenseSet<Operation *> &absorbed) {
  int64_t bytes = 0;
  body.walk([&](linalg::LinalgOp op) {
    if (absorbed.contains(op) || registerTilings.contains(op))
      return;
    if (std::optional<StagedReduction> reduction = getStagedReduction(op);
        reduction && reduction->outer.empty()) {
      bytes += getStagedBytes(getStagedSlices(op, op.getStaticLoopRanges(),
                                              *reduction, reduction->chunk,
                                              /*padRows=*/false));
      return;
    }
    if (getCombiner(op))
      bytes += GpuDescription::kAllReduceSharedBytes;
  });
  return bytes;
}

int64_t
stageSharedInputs(IRRewriter &rewriter, gpu::LaunchOp launch,
                  const DenseMap<Operation *, RegisterTiling> &registerTilings,
                  const DenseSet<Operation *> &absorbed, int64_t budget) {
  Block &body = launch.getBody().front();
  budget -= getSharedBytesNeeded(body, registerTilings, absorbed);
  auto workgroup = gpu::AddressSpaceAttr::get(
      rewriter.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  int64_t taken = 0;
  for (StagedInput &input : getStagedInputs(body, registerTilings, absorbed)) {
    int64_t bytes = llvm::alignTo(input.bytes, kSharedAlignment);
    if (taken + bytes > budget)
      continue;
    taken += bytes;
    auto type = cast<MemRefType>(input.buffer.getType());
    Value buffer = launch.addWorkgroupAttribution(
        MemRefType::get(type.getShape(), type.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup),
        input.buffer.getLoc());
    Operation *first = input.reads.front()->getOwner();
    for (OpOperand *read : input.reads)
      if (read->getOwner()->isBeforeInBlock(first))
        first = read->getOwner();
    rewriter.setInsertionPoint(first);
    linalg::CopyOp::create(rewriter, input.buffer.getLoc(), input.buffer,
                           buffer);
    for (OpOperand *read : input.reads)
      rewriter.modifyOpInPlace(read->getOwner(), [&] { read->set(buffer); });
  }
  return taken;
}

} // namespace mlir::fuse::distribute
