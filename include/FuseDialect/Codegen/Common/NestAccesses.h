//===- NestAccesses.h - Which loop nests may run as one ---------*- C++ -*-===//
//
// The nests of one group (the branches of a horizontally fused block, the
// pieces of a split channel shuffle) become one loop on the CPU
// (fuse-merge-group-nests) and one launch on the GPU
// (fuse-merge-group-launches) when they are independent: none writes a part
// of a buffer another reads or writes, compared per buffer and, within one
// buffer, per static strided box of the views. This is the one definition
// of that question and of the merge driver both passes run.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_CODEGEN_COMMON_NESTACCESSES_H
#define FUSEDIALECT_CODEGEN_COMMON_NESTACCESSES_H

#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/Utils/StridedBox.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace mlir::fuse {

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

/// The buffers from outside `body` that it reads and writes; false when an
/// effect is not known. `isOwn` tells the body's own memory (allocated in
/// it, or a launch's shared buffers).
bool getAccesses(Region &body, function_ref<bool(Value)> isOwn,
                 Accesses &accesses);

/// Whether `value` is a fresh allocation (memref.alloc or alloca).
bool isAllocation(Value value);

/// Neither side writes a part of a buffer the other reads or writes, so
/// their iterations may interleave in any order. (Two pieces of a split copy
/// chain write the even and odd channels of one buffer.)
bool areIndependent(const Accesses &a, const Accesses &b);

/// Host ops between two launches either move before the first (constants,
/// allocations and the waits around device allocations) or after the second
/// (deallocations, and the waits around device deallocations). Returns
/// false if one can do neither.
bool partitionBetween(Operation *first, Operation *second,
                      const Accesses &secondAccesses,
                      SmallVectorImpl<Operation *> &before,
                      SmallVectorImpl<Operation *> &after);

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

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_COMMON_NESTACCESSES_H
