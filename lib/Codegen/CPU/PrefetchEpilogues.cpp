//===- PrefetchEpilogues.cpp - Ask for a block's epilogue memory early ----===//
//
// A register block (RegisterBlocks.cpp) runs its reduction loop on
// loop-carried accumulators, then its epilogue: it reads what the group
// adds to them (a residual, a bias row) and stores the block. Those reads
// and the stores' cache lines are touched for the first time after the
// loop, where nothing else is left to overlap their misses: a 1x1
// convolution of ResNet-50's first stage adds a 3.2 MB residual that is
// in L3 at best, and its 64-step loop ends with 16 line misses for the
// residual and 16 read-for-ownership misses for the result.
//
// This pass, on buffers after bufferization, issues a `memref.prefetch`
// for each cache line of such an access before the loop: read for a
// `vector.transfer_read`, write for a `vector.transfer_write`, so that the
// lines arrive while the block multiplies. The accesses taken are the
// in-bounds, minor-identity transfers after a loop that carries vectors
// and multiplies in its body, in the same block, whose buffer and indices
// are defined before the loop, except where the block read the same
// place before the loop (its partial sums, carried between reduction
// chunks: in the cache already). A prefetch only moves lines into the
// cache: values are unchanged.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPREFETCHEPILOGUESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

constexpr int64_t kLineBytes = 64;
/// The largest `max-rows` accepted: far more rows than any register
/// block's epilogue reads and writes.
constexpr int64_t kMaxRows = 1024;

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

/// `op` if it is an in-bounds, unmasked, minor-identity transfer of a
/// vector of rank >= 1 on a buffer of whole-byte elements with a unit
/// innermost stride, or null.
VectorTransferOpInterface getPrefetchable(Operation *op) {
  auto transfer = dyn_cast<VectorTransferOpInterface>(op);
  if (!transfer || transfer.getVectorType().getRank() == 0 ||
      transfer.hasOutOfBoundsDim() || transfer.getMask() ||
      !transfer.getPermutationMap().isMinorIdentity())
    return {};
  auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
  if (!memref || !memref.getElementType().isIntOrFloat() ||
      memref.getElementTypeBitWidth() % 8 != 0 || !memref.isLastDimUnitStride())
    return {};
  return transfer;
}

/// Rows of `transfer`'s vector: its points past the innermost dimension.
int64_t getRows(VectorTransferOpInterface transfer) {
  VectorType vector = transfer.getVectorType();
  return vector.getNumElements() / vector.getShape().back();
}

/// Prefetches each cache line `transfer` touches, before `loop`.
void prefetchBefore(OpBuilder &builder, scf::ForOp loop,
                    VectorTransferOpInterface transfer) {
  VectorType vector = transfer.getVectorType();
  ArrayRef<int64_t> shape = vector.getShape();
  auto memref = cast<MemRefType>(transfer.getBase().getType());
  int64_t elementBytes = memref.getElementTypeBitWidth() / 8;
  int64_t lineElements = std::max<int64_t>(1, kLineBytes / elementBytes);
  int64_t rank = memref.getRank(), vectorRank = vector.getRank();
  bool isWrite = isa<vector::TransferWriteOp>(transfer.getOperation());
  builder.setInsertionPoint(loop);
  Location loc = transfer.getLoc();
  SmallVector<Value> base(transfer.getIndices());
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

struct FusePrefetchEpiloguesPass final
    : fuse::impl::FusePrefetchEpiloguesPassBase<FusePrefetchEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxRows < 0 || maxRows > kMaxRows) {
      emitError(getOperation()->getLoc())
          << "fuse-prefetch-epilogues: max-rows must be in [0, " << kMaxRows
          << "]";
      return signalPassFailure();
    }
    DominanceInfo dominance(getOperation());
    SmallVector<std::pair<scf::ForOp, VectorTransferOpInterface>> work;
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
            !dominance.properlyDominates(transfer.getBase(), loop) ||
            !llvm::all_of(transfer.getIndices(), [&](Value index) {
              return dominance.properlyDominates(index, loop);
            }))
          continue;
        rows += getRows(transfer);
        if (rows > maxRows)
          break;
        work.emplace_back(loop, transfer);
      }
    });
    OpBuilder builder(&getContext());
    for (auto [loop, transfer] : work)
      prefetchBefore(builder, loop, transfer);
  }
};

} // namespace
