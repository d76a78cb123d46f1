//===- Prefetch.cpp - Ask for a register block's memory early -------------===//
//
// Two passes on buffers, after bufferization and before the vector
// transfers are lowered, both about a register block (RegisterBlocks.cpp):
// a reduction loop carrying vector accumulators, one rank-1 update a step.
// Each only issues `memref.prefetch`es: lines move into the cache, values
// are unchanged.
//
// fuse-prefetch-epilogues. A block's epilogue reads what the group adds to
// the accumulators (a residual, a bias row) and stores the block. Those
// reads and the stores' cache lines are touched for the first time after
// the loop, where nothing else is left to overlap their misses: a 1x1
// convolution of ResNet-50's first stage adds a 3.2 MB residual that is
// in L3 at best, and its 64-step loop ends with 16 line misses for the
// residual and 16 read-for-ownership misses for the result. The pass
// prefetches each cache line of such an access before the loop: read for
// a `vector.transfer_read`, write for a `vector.transfer_write`. The
// accesses taken are the in-bounds, minor-identity transfers after a loop
// that carries vectors and multiplies in its body, in the same block,
// whose buffer is defined before the loop and whose indices are too, or
// are computed after it by pure ops from such values (a residual's row,
// `affine.apply`d from the tile's offsets: those ops are cloned before
// the loop for the prefetches), except where the block read the same
// place before the loop (its partial sums, carried between reduction
// chunks: in the cache already).
//
// fuse-prefetch-streams. Inside the loop, each step reads a row of the
// right operand (B: a weight's packed panel, a filter's row of output
// channels) as whole vectors, at an address that advances with the step:
// a stream. Where B does not stay in L2 (a weight read once per row of
// tiles, GPT-2's 16 tokens by 9.4 MB weights, ResNet-50's later stages)
// the hardware prefetchers alone keep too few of its lines in flight, and
// the loop waits on them: GPT-2's projections read their weights at 10
// GB/s where this core streams 20. The pass prefetches, at every step,
// the lines that the same reads will touch `distance` bytes of the
// stream later (the step that many bytes of those reads ahead, the loop's
// last step at most, so every address is one the loop reads). The
// lines are asked for in the step's own loads' place in the schedule, so
// there are as many prefetches a step as lines read; a line in the cache
// already costs a load slot, no memory traffic. None `distance` ahead in a
// loop whose whole stream is at most `min-stream-bytes`, which L1 keeps for
// the next row of blocks.
//
// A stream whose step moves by a multiple of 4 KB (a column panel of a
// run-time B whose rows are a multiple of 1024 floats) puts all its lines
// in the same L1 sets: a window of steps ahead would evict the lines in
// use. Each of its rows is on another page, where the hardware
// prefetchers never go. For it the pass asks, at each step, for the same
// row of the next panel (one step later of the loop around whose
// induction variable moves the read's column and nothing else, clamped
// into the buffer): lines in other L1 sets, in L2 by the next panel's
// turn, where the panels of all such reads of the loop are at most
// `max-panel-bytes` together.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/PipelineRegistration.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPREFETCHEPILOGUESPASS
#define GEN_PASS_DEF_FUSEPREFETCHSTREAMSPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

constexpr int64_t kLineBytes = 64;
/// The largest `max-rows` accepted: far more rows than any register
/// block's epilogue reads and writes.
constexpr int64_t kMaxRows = 1024;
/// The largest stream `distance` accepted, in bytes: far beyond L1.
constexpr int64_t kMaxDistance = int64_t(1) << 20;
/// The largest `max-panel-bytes` accepted: more than any core's L2.
constexpr int64_t kMaxPanelBytes = int64_t(1) << 26;
/// The largest vector a transfer may move to be prefetched, in bytes: far
/// more than a register block's (at most 64 rows of 64 floats); each of
/// its lines becomes a prefetch.
constexpr int64_t kMaxTransferBytes = int64_t(1) << 20;
/// Bytes after which an L1 set index repeats (64 sets of 64-byte lines on
/// every x86 core the CPU lowering targets: 32 KB 8-way, 48 KB 12-way).
constexpr int64_t kL1SetPeriod = 4096;

/// Whether `loop` is a register block's reduction: it carries vectors and
/// multiplies vectors in its body.
bool isBlockReduction(scf::ForOp loop) {
  if (loop.getNumResults() == 0 ||
      !llvm::all_of(loop.getResultTypes(), llvm::IsaPred<VectorType>))
    return false;
  return loop.getBody()
      ->walk([](Operation *op) {
        if (isa<math::FmaOp, arith::MulFOp>(op) &&
            isa<VectorType>(op->getResult(0).getType()))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Bytes of one element of `transfer`'s buffer (whole bytes: see
/// getPrefetchable).
int64_t getElementBytes(VectorTransferOpInterface transfer) {
  return cast<MemRefType>(transfer.getBase().getType())
             .getElementTypeBitWidth() /
         8;
}

/// `op` if it is an in-bounds, unmasked, minor-identity transfer of a
/// vector of rank >= 1 and at most kMaxTransferBytes on a buffer of
/// whole-byte elements with a unit innermost stride, or null.
VectorTransferOpInterface getPrefetchable(Operation *op) {
  auto transfer = dyn_cast<VectorTransferOpInterface>(op);
  if (!transfer || transfer.getVectorType().getRank() == 0 ||
      transfer.getVectorType().isScalable() || transfer.hasOutOfBoundsDim() ||
      transfer.getMask() || !transfer.getPermutationMap().isMinorIdentity())
    return {};
  auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
  if (!memref || !memref.getElementType().isIntOrFloat() ||
      memref.getElementTypeBitWidth() % 8 != 0 || !memref.isLastDimUnitStride())
    return {};
  int64_t bytes;
  if (llvm::MulOverflow(transfer.getVectorType().getNumElements(),
                        getElementBytes(transfer), bytes) ||
      bytes > kMaxTransferBytes)
    return {};
  return transfer;
}

/// Rows of `transfer`'s vector: its points past the innermost dimension.
int64_t getRows(VectorTransferOpInterface transfer) {
  VectorType vector = transfer.getVectorType();
  return vector.getNumElements() / vector.getShape().back();
}

/// Prefetches each cache line `transfer` touches when its indices are
/// `base`, at the builder's insertion point.
void prefetchLines(OpBuilder &builder, VectorTransferOpInterface transfer,
                   ArrayRef<Value> base) {
  VectorType vector = transfer.getVectorType();
  ArrayRef<int64_t> shape = vector.getShape();
  auto memref = cast<MemRefType>(transfer.getBase().getType());
  int64_t lineElements =
      std::max<int64_t>(1, kLineBytes / getElementBytes(transfer));
  int64_t rank = memref.getRank(), vectorRank = vector.getRank();
  bool isWrite = isa<vector::TransferWriteOp>(transfer.getOperation());
  Location loc = transfer.getLoc();
  // Every leading position of the vector, each row's lines.
  for (int64_t row = 0, rows = getRows(transfer); row < rows; ++row) {
    SmallVector<int64_t> position(vectorRank, 0);
    for (int64_t d = vectorRank - 2, rest = row; d >= 0; --d) {
      position[d] = rest % shape[d];
      rest /= shape[d];
    }
    for (int64_t column = 0; column < shape.back(); column += lineElements) {
      position.back() = column;
      SmallVector<Value> indices(base);
      for (int64_t d = 0; d < vectorRank; ++d) {
        if (position[d] == 0)
          continue;
        Value &index = indices[rank - vectorRank + d];
        index = builder.createOrFold<arith::AddIOp>(
            loc, index,
            arith::ConstantIndexOp::create(builder, loc, position[d]));
      }
      memref::PrefetchOp::create(builder, loc, transfer.getBase(), indices,
                                 isWrite, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }
}

/// The deepest chain of ops an index is recomputed from (getRecomputable):
/// far more than the one or two `affine.apply`s that tiling leaves.
constexpr int kMaxRecomputeDepth = 8;

/// Whether `value` can be had before `loop`: it is defined before the loop,
/// or computed after it, in the loop's block, by a pure op without regions
/// from such values (an epilogue's row index `affine.apply`d from the tile's
/// offsets after the loop). Each op of such a chain is appended to `chain`
/// after the ops it uses, once.
bool getRecomputable(Value value, scf::ForOp loop, DominanceInfo &dominance,
                     SetVector<Operation *> &chain, int depth = 0) {
  if (dominance.properlyDominates(value, loop))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (chain.contains(def))
    return true;
  if (depth == kMaxRecomputeDepth || def->getBlock() != loop->getBlock() ||
      !loop->isBeforeInBlock(def) || def->getNumRegions() != 0 || !isPure(def))
    return false;
  for (Value operand : def->getOperands())
    if (!getRecomputable(operand, loop, dominance, chain, depth + 1))
      return false;
  chain.insert(def);
  return true;
}

/// Prefetches each cache line `transfer` touches, before `loop`, where
/// `chain` (getRecomputable) computes the indices defined after the loop:
/// it is cloned before the loop for the prefetches, the transfer itself
/// keeps its own (CSE merges the copies where it can).
void prefetchBefore(OpBuilder &builder, scf::ForOp loop,
                    VectorTransferOpInterface transfer,
                    ArrayRef<Operation *> chain) {
  builder.setInsertionPoint(loop);
  IRMapping mapping;
  for (Operation *op : chain)
    builder.clone(*op, mapping);
  prefetchLines(builder, transfer,
                llvm::map_to_vector(transfer.getIndices(), [&](Value index) {
                  return mapping.lookupOrDefault(index);
                }));
}

struct FusePrefetchEpiloguesPass final
    : fuse::impl::FusePrefetchEpiloguesPassBase<FusePrefetchEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(fuse::checkPassOptionRange(getOperation(), getArgument(),
                                          "max-rows", maxRows, 0, kMaxRows)))
      return signalPassFailure();
    DominanceInfo dominance(getOperation());
    struct Work {
      scf::ForOp loop;
      VectorTransferOpInterface transfer;
      SetVector<Operation *> chain;
    };
    SmallVector<Work> work;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!isBlockReduction(loop))
        return;
      // What the block read before the loop (its partial sums from an
      // earlier chunk) is in the cache already, and so is its store back.
      SmallVector<VectorTransferOpInterface> readBefore;
      for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
        if (auto read = dyn_cast<vector::TransferReadOp>(op))
          readBefore.push_back(read);
      auto isCached = [&](VectorTransferOpInterface transfer) {
        return llvm::any_of(readBefore, [&](VectorTransferOpInterface read) {
          return read.getBase() == transfer.getBase() &&
                 llvm::equal(read.getIndices(), transfer.getIndices());
        });
      };
      int64_t rows = 0;
      for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
        if (isa<scf::ForOp>(op))
          break; // the next block's loop: its accesses are its own
        VectorTransferOpInterface transfer = getPrefetchable(op);
        if (!transfer || isCached(transfer) ||
            !dominance.properlyDominates(transfer.getBase(), loop))
          continue;
        SetVector<Operation *> chain;
        if (!llvm::all_of(transfer.getIndices(), [&](Value index) {
              return getRecomputable(index, loop, dominance, chain);
            }))
          continue;
        rows += getRows(transfer);
        if (rows > maxRows)
          break;
        work.push_back({loop, transfer, std::move(chain)});
      }
    });
    OpBuilder builder(&getContext());
    for (Work &item : work)
      prefetchBefore(builder, item.loop, item.transfer,
                     item.chain.getArrayRef());
  }
};

/// The ops of `loop`'s body that `index` is computed from, in order, where
/// one of them uses the induction variable; empty where none does (or
/// `index` is defined before the loop, or is the induction variable
/// itself); nullopt where one of them is not a pure op directly in the
/// body (an index loaded from memory), which leaves the read alone.
std::optional<SetVector<Operation *>> getStepSlice(scf::ForOp loop,
                                                   Value index) {
  Value iv = loop.getInductionVar();
  SetVector<Operation *> slice;
  if (index == iv)
    return slice;
  Operation *def = index.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return slice; // defined before the loop
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) { return loop->isProperAncestor(op); };
  if (failed(getBackwardSlice(def, &slice, options)))
    return std::nullopt;
  bool usesIv = false;
  for (Operation *op : slice) {
    if (op->getBlock() != loop.getBody() || !isPure(op))
      return std::nullopt;
    usesIv |= llvm::is_contained(op->getOperands(), iv);
  }
  if (!usesIv)
    slice.clear();
  return slice;
}

/// Whether each step of `loop` moves `read`'s address by a multiple of
/// 4 KB (down a column panel of a matrix 1024 floats wide, rows of 1024
/// filters), so that every step's lines fall in the same few L1 sets: a
/// window of 16 steps ahead puts 16 lines in each, evicting the lines in
/// use before their turn. bench/roofline's 16 x 768 x 3072 GEMM with B an
/// argument, read in 256-byte runs 12 KB apart, ran 1.8x slower with them
/// prefetched into L1 and 1.5x slower into L2, each alone in its process;
/// such a stream is left to the hardware. Streams that move less but
/// still put 8-16 lines of their window in a set (a 3x3 convolution's
/// filter rows of 256-512 filters) gain from the prefetches: ResNet-50
/// was 1% slower at one thread and 2% at two without theirs. False where
/// the move is not known (an index computed from the step otherwise than
/// as the step itself, a dynamic stride, more bytes than int64_t holds).
bool movesByWholeL1SetPeriods(VectorTransferOpInterface read,
                              ArrayRef<SetVector<Operation *>> slices,
                              scf::ForOp loop) {
  auto memref = cast<MemRefType>(read.getBase().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || failed(memref.getStridesAndOffset(strides, offset)))
    return false;
  int64_t move = 0;
  for (auto [index, slice, stride] :
       llvm::zip_equal(read.getIndices(), slices, strides)) {
    if (index == loop.getInductionVar()) {
      int64_t bytes;
      if (ShapedType::isDynamic(stride) ||
          llvm::MulOverflow(stride, *step, bytes) ||
          llvm::MulOverflow(bytes, getElementBytes(read), bytes) ||
          llvm::AddOverflow(move, bytes, move))
        return false;
    } else if (!slice.empty()) {
      return false; // computed from the step some other way
    }
  }
  return move != 0 && move % kL1SetPeriod == 0;
}

/// The ops inside `outer` that `read`'s indices are computed from, in
/// order, where `outer`'s induction variable moves the innermost index (the
/// read's column: the next panel) and no other, through pure ops without
/// regions; nullopt otherwise, and where the read's buffer is defined
/// inside `outer`.
std::optional<SetVector<Operation *>>
getPanelSlice(scf::ForOp outer, VectorTransferOpInterface read) {
  if (Operation *def = read.getBase().getDefiningOp();
      def && outer->isProperAncestor(def))
    return std::nullopt;
  Value iv = outer.getInductionVar();
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *op) { return outer->isProperAncestor(op); };
  SetVector<Operation *> slice;
  ValueRange indices = read.getIndices();
  for (auto [d, index] : llvm::enumerate(indices)) {
    SetVector<Operation *> own;
    Operation *def = index.getDefiningOp();
    if (def && outer->isProperAncestor(def) &&
        failed(getBackwardSlice(def, &own, options)))
      return std::nullopt;
    bool moves = index == iv;
    for (Operation *op : own) {
      if (op->getNumRegions() != 0 || !isPure(op))
        return std::nullopt;
      moves |= llvm::is_contained(op->getOperands(), iv);
    }
    if (moves != (d + 1 == indices.size()))
      return std::nullopt; // the column must move, and only the column
    // Appended index by index: an op's operands from inside `outer` come
    // before it (in its own slice, or in an earlier index's).
    slice.insert(own.begin(), own.end());
  }
  return slice;
}

/// Prefetches, at each step of `loop`, the lines `read` (a stream that
/// moves by whole L1 set periods) will touch at the same step of the next
/// panel: one step later of the nearest `scf.for` around `loop` whose
/// induction variable moves the read's column (and nothing else), each
/// moved index kept inside the buffer (the next panel of the last is the
/// next tile's first, or the buffer's last columns). Nothing where no loop
/// directly around `loop` moves it so.
void prefetchNextPanel(OpBuilder &builder, scf::ForOp loop,
                       VectorTransferOpInterface read) {
  std::optional<SetVector<Operation *>> slice;
  scf::ForOp outer = loop;
  while (!slice && (outer = dyn_cast<scf::ForOp>(outer->getParentOp())))
    slice = getPanelSlice(outer, read);
  if (!slice)
    return;

  Location loc = read.getLoc();
  builder.setInsertionPoint(read);
  IRMapping mapping;
  mapping.map(outer.getInductionVar(),
              builder.createOrFold<arith::AddIOp>(loc, outer.getInductionVar(),
                                                  outer.getStep()));
  for (Operation *op : *slice)
    builder.clone(*op, mapping);
  // Clamped to [0, size - extent] in each dimension: every address is
  // inside the buffer.
  ArrayRef<int64_t> shape = read.getVectorType().getShape();
  int64_t rank = read.getIndices().size(), vectorRank = shape.size();
  SmallVector<Value> indices;
  for (auto [d, index] : llvm::enumerate(read.getIndices())) {
    Value moved = mapping.lookupOrDefault(index);
    if (moved == index) {
      indices.push_back(index); // the read's own
      continue;
    }
    int64_t extent =
        int64_t(d) >= rank - vectorRank ? shape[d - (rank - vectorRank)] : 1;
    Value size = builder.createOrFold<memref::DimOp>(loc, read.getBase(), d);
    Value highest = builder.createOrFold<arith::SubIOp>(
        loc, size, arith::ConstantIndexOp::create(builder, loc, extent));
    Value ahead = builder.createOrFold<arith::MinSIOp>(loc, moved, highest);
    indices.push_back(builder.createOrFold<arith::MaxSIOp>(
        loc, ahead, arith::ConstantIndexOp::create(builder, loc, 0)));
  }
  prefetchLines(builder, read, indices);
}

/// Prefetches, in `loop`'s body, the lines its streamed reads touch
/// The steps of `loop` where its bounds and step are constants, the step
/// positive (0 where it never runs); nullopt otherwise.
std::optional<uint64_t> getConstantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         stride = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !stride || *stride <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  return llvm::divideCeil(uint64_t(*ub) - uint64_t(*lb), uint64_t(*stride));
}

/// `distance` bytes of those reads ahead (see the file comment).
void prefetchStreams(OpBuilder &builder, scf::ForOp loop, int64_t distance,
                     int64_t minStreamBytes, int64_t maxPanelBytes) {
  struct Stream {
    VectorTransferOpInterface read;
    SmallVector<SetVector<Operation *>> slices;
  };
  SmallVector<Stream> streams;
  SmallVector<VectorTransferOpInterface> panels;
  int64_t bytesPerStep = 0;
  for (Operation &op : *loop.getBody()) {
    VectorTransferOpInterface read = getPrefetchable(&op);
    if (!read || !isa<vector::TransferReadOp>(op))
      continue;
    Stream stream{read, {}};
    bool advances = false, computable = true;
    for (Value index : read.getIndices()) {
      std::optional<SetVector<Operation *>> slice = getStepSlice(loop, index);
      if (!slice) {
        computable = false;
        break;
      }
      advances |= index == loop.getInductionVar() || !slice->empty();
      stream.slices.push_back(std::move(*slice));
    }
    if (!computable || !advances)
      continue;
    // Every stream counts toward the bytes the loop reads a step; one whose
    // lines would all share their L1 sets is not prefetched.
    // At most kMaxTransferBytes each (getPrefetchable): no overflow.
    bytesPerStep +=
        read.getVectorType().getNumElements() * getElementBytes(read);
    if (!movesByWholeL1SetPeriods(read, stream.slices, loop))
      streams.push_back(std::move(stream));
    else
      panels.push_back(read);
  }
  // The next panel of every such read must fit in L2 beside the current
  // ones: all of them, over the loop's constant trip count.
  std::optional<uint64_t> trips = getConstantTripCount(loop);
  int64_t panelBytes = 0;
  bool fits = trips && *trips <= uint64_t(std::numeric_limits<int64_t>::max());
  for (VectorTransferOpInterface read : panels) {
    int64_t bytes;
    fits = fits &&
           !llvm::MulOverflow(int64_t(*trips),
                              read.getVectorType().getNumElements() *
                                  getElementBytes(read),
                              bytes) &&
           !llvm::AddOverflow(panelBytes, bytes, panelBytes);
  }
  if (fits && panelBytes <= maxPanelBytes)
    for (VectorTransferOpInterface read : panels)
      prefetchNextPanel(builder, loop, read);
  if (streams.empty())
    return;
  int64_t steps = llvm::divideCeil(distance, bytesPerStep);
  // A loop whose whole stream fits in L1 (a convolution's channel loop
  // over 64 channels) reads it from there in every row of blocks but the
  // first: its prefetches would cost a load slot each for nothing. So
  // would those of a loop of no more steps than the distance, which only
  // ask for its last step again and again.
  if (trips && (*trips == 0 || *trips <= uint64_t(steps) ||
                *trips <= uint64_t(minStreamBytes / bytesPerStep)))
    return;

  // ahead = min(iv + steps * step, the loop's last step).
  Location loc = loop.getLoc();
  builder.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar(), lower = loop.getLowerBound(),
        upper = loop.getUpperBound(), step = loop.getStep();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value ahead = builder.createOrFold<arith::AddIOp>(
      loc, iv, builder.createOrFold<arith::MulIOp>(loc, step, constant(steps)));
  Value span = builder.createOrFold<arith::SubIOp>(
      loc, builder.createOrFold<arith::SubIOp>(loc, upper, lower), constant(1));
  Value last = builder.createOrFold<arith::AddIOp>(
      loc, lower,
      builder.createOrFold<arith::MulIOp>(
          loc, builder.createOrFold<arith::DivUIOp>(loc, span, step), step));
  ahead = builder.createOrFold<arith::MinSIOp>(loc, ahead, last);

  for (Stream &stream : streams) {
    builder.setInsertionPoint(stream.read);
    IRMapping mapping;
    mapping.map(iv, ahead);
    SmallVector<Value> indices;
    for (auto [index, slice] :
         llvm::zip_equal(stream.read.getIndices(), stream.slices)) {
      for (Operation *op : slice)
        if (!mapping.contains(op)) // shared with an earlier index
          mapping.map(op, builder.clone(*op, mapping));
      indices.push_back(mapping.lookupOrDefault(index));
    }
    prefetchLines(builder, stream.read, indices);
  }
}

struct FusePrefetchStreamsPass final
    : fuse::impl::FusePrefetchStreamsPassBase<FusePrefetchStreamsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(fuse::checkPassOptionRange(getOperation(), getArgument(),
                                          "distance", distance, 1, kMaxDistance,
                                          " bytes")) ||
        failed(fuse::checkPassOptionRange(getOperation(), getArgument(),
                                          "min-stream-bytes", minStreamBytes, 0,
                                          kMaxDistance)) ||
        failed(fuse::checkPassOptionRange(getOperation(), getArgument(),
                                          "max-panel-bytes", maxPanelBytes, 0,
                                          kMaxPanelBytes, " bytes")))
      return signalPassFailure();
    // Each loop for its own reads: a window loop around a channel loop
    // reads nothing directly, the channel loop does.
    SmallVector<scf::ForOp> loops;
    // An index-typed induction variable only: the steps ahead are index
    // arithmetic (a loop over i32 is left alone).
    getOperation()->walk([&](scf::ForOp loop) {
      if (isBlockReduction(loop) && loop.getInductionVar().getType().isIndex())
        loops.push_back(loop);
    });
    OpBuilder builder(&getContext());
    for (scf::ForOp loop : loops)
      prefetchStreams(builder, loop, distance, minStreamBytes, maxPanelBytes);
  }
};

} // namespace
