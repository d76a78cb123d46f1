//===- InlineGroups.cpp - Dissolve fuse.group ops -------------------------===//
//
// `--fuse-inline-groups` (docs in Passes.td): each group's body replaces the
// group. The lowering starts here, and the planning's annotations end here:
// `fuse.mapping` attributes are dropped from every op, so that nothing of
// the fuse dialect reaches the lowered module (an annotated arith op on
// tensors would otherwise carry it, cloned into a linalg body, down to the
// LLVM dialect, which mlir-translate cannot read).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Codegen/Common/IndexChanges.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "fuse-inline-groups"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEINLINEGROUPSPASS
#include "FuseDialect/Codegen/Common/Passes.h.inc"
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
      // Index changes at the boundary become transposes (an untiled group).
      materializeIndexChanges(group);
      SmallVector<Value> args(group.getInputs());
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
      rewriter.replaceOp(group, yielded);
      rewriter.eraseOp(yield);
    }
    getOperation()->walk(
        [](Operation *op) { op->removeAttr(FuseDialect::kMappingAttrName); });
  }
};

} // namespace
