//===- InlineGroups.cpp - Dissolve fuse.group ops -------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/FuseOps.h"
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
    for (GroupOp group : groups) {
      YieldOp yield = group.getYield();
      SmallVector<Value> results(yield.getValues());
      rewriter.inlineBlockBefore(&group.getBodyBlock(), group,
                                 group.getInputs());
      rewriter.replaceOp(group, results);
      rewriter.eraseOp(yield);
    }
  }
};

} // namespace
