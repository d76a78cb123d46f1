//===- FoldBoundaryTransposes.cpp - Transposes as kernel index changes ----===//
//
// 1. Inputs: a `tosa.transpose` that is the only user of a body argument
//    (whose input is not yet permuted) becomes the input's permutation.
// 2. Inside: a transpose read only by an elementwise op moves below it when
//    the op's other operands can be read in the transpose's input layout
//    (body arguments used only there, read through the inverse permutation;
//    splat constants); two transposes in a row compose or cancel; repeated,
//    transposes reach the yield.
// 3. Results: a transpose whose only user is the yield becomes the result's
//    permutation.
// The permutations are recorded on the group; no transpose op remains at
// its boundary.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "fuse-fold-boundary-transposes"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEFOLDBOUNDARYTRANSPOSESPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

SmallVector<Attribute> getPermutations(ArrayAttr attr, unsigned count,
                                       MLIRContext *ctx) {
  SmallVector<Attribute> perms;
  if (attr)
    perms.assign(attr.begin(), attr.end());
  else
    perms.assign(count, DenseI64ArrayAttr::get(ctx, {}));
  return perms;
}

DenseI64ArrayAttr toI64(tosa::TransposeOp transpose) {
  return DenseI64ArrayAttr::get(transpose.getContext(),
                                getPermutation(transpose));
}

bool isIdentityEntry(Attribute attr) {
  return cast<DenseI64ArrayAttr>(attr).empty();
}


/// Moves one transpose inside `group` below the elementwise op that reads
/// it, when every other operand of that op can be read in the transpose's
/// input layout: a body argument used only there (the group then reads that
/// input through the inverse permutation) or a splat constant. Returns true
/// if it moved one. Repeated, transposes reach the yield.
bool sinkOneTranspose(GroupOp group, SmallVectorImpl<Attribute> &inputPerms) {
  Block &body = group.getBodyBlock();
  for (Operation &op : body) {
    auto transpose = dyn_cast<tosa::TransposeOp>(&op);
    if (!transpose || !transpose->hasOneUse())
      continue;
    Operation *user = *transpose->getUsers().begin();
    // Two transposes in a row compose (and cancel when inverse).
    if (auto next = dyn_cast<tosa::TransposeOp>(user)) {
      SmallVector<int32_t> composed;
      bool identity = true;
      for (auto [d, q] : llvm::enumerate(next.getPerms())) {
        composed.push_back(transpose.getPerms()[q]);
        identity &= composed.back() == static_cast<int32_t>(d);
      }
      if (identity) {
        next.getResult().replaceAllUsesWith(transpose.getInput1());
      } else {
        OpBuilder b(next);
        next.getResult().replaceAllUsesWith(tosa::TransposeOp::create(
            b, next.getLoc(), next.getType(), transpose.getInput1(),
            b.getDenseI32ArrayAttr(composed)));
      }
      next.erase();
      transpose.erase();
      return true;
    }
    if (!isRankPreservingElementwise(user))
      continue;
    Permutation inverse = invertPermutation(getPermutation(transpose));
    bool ok = true;
    for (OpOperand &operand : user->getOpOperands()) {
      Value v = operand.get();
      if (v == transpose.getResult() ||
          isParameterOperand(user, operand.getOperandNumber()))
        continue;
      auto arg = dyn_cast<BlockArgument>(v);
      DenseElementsAttr splat;
      bool isSplat = matchPattern(v, m_Constant(&splat)) && splat.isSplat();
      if (!(arg && arg.getOwner() == &body && arg.hasOneUse() &&
            isIdentityEntry(inputPerms[arg.getArgNumber()])) &&
          !isSplat)
        ok = false;
    }
    if (!ok)
      continue;
    // Rewrite the user in the transpose's input layout.
    OpBuilder b(user);
    for (OpOperand &operand : user->getOpOperands()) {
      Value v = operand.get();
      if (v == transpose.getResult()) {
        operand.set(transpose.getInput1());
        continue;
      }
      if (isParameterOperand(user, operand.getOperandNumber()))
        continue;
      auto type = cast<RankedTensorType>(v.getType());
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        // The group reads this input through the inverse permutation.
        inputPerms[arg.getArgNumber()] =
            DenseI64ArrayAttr::get(group.getContext(), inverse);
        arg.setType(permuteType(type, inverse));
        continue;
      }
      DenseElementsAttr splat;
      matchPattern(v, m_Constant(&splat));
      auto newType = permuteType(type, inverse);
      operand.set(tosa::ConstOp::create(b, user->getLoc(), newType,
                                        splat.resizeSplat(newType)));
      if (Operation *old = v.getDefiningOp(); old && old->use_empty())
        old->erase();
    }
    auto oldType = cast<RankedTensorType>(user->getResult(0).getType());
    user->getResult(0).setType(permuteType(oldType, inverse));
    b.setInsertionPointAfter(user);
    auto moved = tosa::TransposeOp::create(b, user->getLoc(), oldType,
                                           user->getResult(0),
                                           transpose.getPermsAttr());
    user->getResult(0).replaceAllUsesExcept(moved.getResult(), moved);
    transpose.erase();
    return true;
  }
  return false;
}

/// Folds the transposes at `group`'s boundary; returns how many.
unsigned foldBoundaries(GroupOp group) {
  MLIRContext *ctx = group.getContext();
  Block &body = group.getBodyBlock();
  SmallVector<Attribute> inputPerms = getPermutations(
      group.getInputPermutationsAttr(), group.getInputs().size(), ctx);
  SmallVector<Attribute> resultPerms = getPermutations(
      group.getResultPermutationsAttr(), group.getNumResults(), ctx);
  unsigned folded = 0;

  for (BlockArgument arg : body.getArguments()) {
    if (!arg.hasOneUse() || !isIdentityEntry(inputPerms[arg.getArgNumber()]))
      continue;
    auto transpose = dyn_cast<tosa::TransposeOp>(*arg.getUsers().begin());
    if (!transpose)
      continue;
    inputPerms[arg.getArgNumber()] = toI64(transpose);
    arg.setType(transpose.getType());
    transpose.getResult().replaceAllUsesWith(arg);
    transpose.erase();
    ++folded;
  }

  while (sinkOneTranspose(group, inputPerms)) {
  }

  YieldOp yield = group.getYield();
  for (OpOperand &operand : yield->getOpOperands()) {
    auto transpose = operand.get().getDefiningOp<tosa::TransposeOp>();
    unsigned i = operand.getOperandNumber();
    if (!transpose || !transpose->hasOneUse() ||
        !isIdentityEntry(resultPerms[i]))
      continue;
    resultPerms[i] = toI64(transpose);
    operand.set(transpose.getInput1());
    transpose.erase();
    ++folded;
  }

  // Record only lists that permute something.
  auto attrOf = [&](ArrayRef<Attribute> perms) -> ArrayAttr {
    if (llvm::all_of(perms, isIdentityEntry))
      return nullptr;
    return ArrayAttr::get(ctx, perms);
  };
  group.setInputPermutationsAttr(attrOf(inputPerms));
  group.setResultPermutationsAttr(attrOf(resultPerms));
  return folded;
}

/// A group that forwards a permuted input as a result would write a copy of
/// it; groups reading that result read the input through the same index
/// change instead. Returns how many reads were rewired.
unsigned forwardPermutedInputs(GroupOp group) {
  unsigned rewired = 0;
  ArrayAttr inputPerms = group.getInputPermutationsAttr();
  if (!inputPerms)
    return 0;
  ArrayAttr resultPerms = group.getResultPermutationsAttr();
  for (auto [idx, value] : llvm::enumerate(group.getYield().getValues())) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &group.getBodyBlock() ||
        isIdentityEntry(inputPerms[arg.getArgNumber()]) ||
        (resultPerms && !isIdentityEntry(resultPerms[idx])))
      continue;
    Value input = group.getInputs()[arg.getArgNumber()];
    for (OpOperand &use :
         llvm::make_early_inc_range(group->getResult(idx).getUses())) {
      auto reader = dyn_cast<GroupOp>(use.getOwner());
      if (!reader)
        continue;
      unsigned j = use.getOperandNumber();
      SmallVector<Attribute> perms =
          getPermutations(reader.getInputPermutationsAttr(),
                          reader.getInputs().size(), reader.getContext());
      if (!isIdentityEntry(perms[j]))
        continue;
      perms[j] = inputPerms[arg.getArgNumber()];
      use.set(input);
      reader.setInputPermutationsAttr(
          ArrayAttr::get(reader.getContext(), perms));
      ++rewired;
    }
  }
  return rewired;
}

struct FuseFoldBoundaryTransposesPass final
    : fuse::impl::FuseFoldBoundaryTransposesPassBase<
          FuseFoldBoundaryTransposesPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->walk(
        [&](GroupOp group) { numFolded += foldBoundaries(group); });
    getOperation()->walk(
        [&](GroupOp group) { numFolded += forwardPermutedInputs(group); });
  }
};

} // namespace
