//===- InlineGroups.cpp - Dissolve fuse.group ops -------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Layout/Permutation.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "fuse-inline-groups"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEINLINEGROUPSPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FuseInlineGroupsPass final
    : fuse::impl::FuseInlineGroupsPassBase<FuseInlineGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    IRRewriter rewriter(&getContext());
    for (auto [index, group] : llvm::enumerate(groups)) {
      // The group's tile loops, when it has several, keep its identity: the
      // GPU lowering launches the independent ones as one kernel.
      auto nests = group.getBodyBlock().getOps<scf::ForallOp>();
      if (std::distance(nests.begin(), nests.end()) > 1)
        for (scf::ForallOp nest : nests)
          nest->setAttr(FuseDialect::kGroupNestAttrName,
                        rewriter.getI64IntegerAttr(index));
      // Index changes at the boundary become transposes on the CPU path.
      rewriter.setInsertionPoint(group);
      SmallVector<Value> args;
      for (auto [i, input] : llvm::enumerate(group.getInputs())) {
        ArrayRef<int64_t> perm = group.getInputPermutation(i);
        args.push_back(createTranspose(rewriter, group.getLoc(), input, perm));
      }
      YieldOp yield = group.getYield();
      // A yielded body argument stands for the value it is bound to (the
      // block and its arguments go away when inlined).
      SmallVector<Value> yielded;
      for (Value v : yield.getValues()) {
        auto arg = dyn_cast<BlockArgument>(v);
        yielded.push_back(arg && arg.getOwner() == &group.getBodyBlock()
                              ? args[arg.getArgNumber()]
                              : v);
      }
      rewriter.inlineBlockBefore(&group.getBodyBlock(), group, args);
      rewriter.setInsertionPoint(group);
      SmallVector<Value> results;
      for (auto [i, value] : llvm::enumerate(yielded)) {
        ArrayRef<int64_t> perm = group.getResultPermutation(i);
        results.push_back(createTranspose(rewriter, group.getLoc(), value, perm));
      }
      rewriter.replaceOp(group, results);
      rewriter.eraseOp(yield);
    }
  }
};

} // namespace
