//===- IndexChanges.cpp - A group's index changes as transposes -----------===//

#include "FuseDialect/Codegen/Common/IndexChanges.h"

#include "FuseDialect/Utils/Permutation.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::materializeIndexChanges(GroupOp group) {
  if (!group.hasIndexChanges())
    return;
  Block &body = group.getBodyBlock();
  OpBuilder builder = OpBuilder::atBlockBegin(&body);
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    ArrayRef<int64_t> perm = group.getInputPermutation(i);
    if (perm.empty())
      continue;
    arg.setType(group.getInputs()[i].getType());
    Value transposed = createTranspose(builder, group.getLoc(), arg, perm);
    arg.replaceAllUsesExcept(transposed, transposed.getDefiningOp());
  }
  YieldOp yield = group.getYield();
  builder.setInsertionPoint(yield);
  for (OpOperand &operand : yield->getOpOperands()) {
    ArrayRef<int64_t> perm =
        group.getResultPermutation(operand.getOperandNumber());
    operand.set(createTranspose(builder, group.getLoc(), operand.get(), perm));
  }
  group.setInputPermutationsAttr(nullptr);
  group.setResultPermutationsAttr(nullptr);
}
