//===- Permutation.cpp - Dimension permutations for the layout passes -----===//

#include "FuseDialect/Transforms/Layout/Permutation.h"

using namespace mlir;
using namespace mlir::fuse;

bool mlir::fuse::isIdentityPermutation(ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return false;
  return true;
}

Permutation mlir::fuse::getIdentityPermutation(int64_t rank) {
  Permutation perm(rank);
  for (int64_t i = 0; i < rank; ++i)
    perm[i] = i;
  return perm;
}

Permutation mlir::fuse::invertPermutation(ArrayRef<int64_t> perm) {
  Permutation inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

Permutation mlir::fuse::composePermutations(ArrayRef<int64_t> first,
                                            ArrayRef<int64_t> second) {
  // Dim i of the result is dim second[i] of the middle, which is dim
  // first[second[i]] of the input.
  Permutation result(second.size());
  for (auto [i, s] : llvm::enumerate(second))
    result[i] = first[s];
  return result;
}

Permutation mlir::fuse::getPermutation(tosa::TransposeOp transpose) {
  return Permutation(transpose.getPerms().begin(), transpose.getPerms().end());
}

RankedTensorType mlir::fuse::permuteType(RankedTensorType type,
                                         ArrayRef<int64_t> perm) {
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType(),
                               type.getEncoding());
}

bool mlir::fuse::isParameterOperand(Operation *op, unsigned operandNumber) {
  if (isa<tosa::MulOp>(op))
    return operandNumber == 2;
  if (isa<tosa::NegateOp>(op))
    return operandNumber != 0;
  return false;
}

Value mlir::fuse::createTranspose(OpBuilder &builder, Location loc, Value value,
                                  ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return value;
  auto type = permuteType(cast<RankedTensorType>(value.getType()), perm);
  SmallVector<int32_t> perms(perm.begin(), perm.end());
  return tosa::TransposeOp::create(builder, loc, type, value,
                                   builder.getDenseI32ArrayAttr(perms));
}
