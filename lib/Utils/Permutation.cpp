//===- Permutation.cpp - Dimension permutations for the layout passes -----===//

#include "FuseDialect/Utils/Permutation.h"

#include "llvm/ADT/SmallBitVector.h"

#include <cstring>
#include <vector>

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

DenseElementsAttr mlir::fuse::permuteConstant(DenseElementsAttr attr,
                                              ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  RankedTensorType newType = permuteType(type, perm);
  if (attr.isSplat())
    return attr.resizeSplat(newType);
  ArrayRef<int64_t> shape = type.getShape();
  // Elements of `T`'s width as raw bits (copied out: the attribute's buffer
  // promises no alignment).
  auto permuteRaw = [&](auto zero) {
    using T = decltype(zero);
    ArrayRef<char> raw = attr.getRawData();
    std::vector<T> data(raw.size() / sizeof(T));
    std::memcpy(data.data(), raw.data(), data.size() * sizeof(T));
    SmallVector<T> permuted =
        permuteElements(ArrayRef<T>(data), shape, perm);
    return DenseElementsAttr::getFromRawBuffer(
        newType, ArrayRef<char>(reinterpret_cast<const char *>(permuted.data()),
                                permuted.size() * sizeof(T)));
  };
  Type element = type.getElementType();
  if (isa<DenseIntOrFPElementsAttr>(attr) && element.isIntOrFloat()) {
    switch (element.getIntOrFloatBitWidth()) {
    case 8:
      return permuteRaw(uint8_t{});
    case 16:
      return permuteRaw(uint16_t{});
    case 32:
      return permuteRaw(uint32_t{});
    case 64:
      return permuteRaw(uint64_t{});
    default:
      break;
    }
  }
  SmallVector<Attribute> values(attr.getValues<Attribute>());
  return DenseElementsAttr::get(
      newType, permuteElements(ArrayRef<Attribute>(values), shape, perm));
}

bool mlir::fuse::isParameterOperand(Operation *op, unsigned operandNumber) {
  if (isa<tosa::MulOp>(op))
    return operandNumber == 2;
  if (isa<tosa::NegateOp, tosa::PadOp, tosa::SliceOp>(op))
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

bool mlir::fuse::isRankPreservingElementwise(Operation *op) {
  if (op->getNumResults() != 1 ||
      !(op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
        isa<tosa::MulOp>(op)))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return type && llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
           auto t = dyn_cast<RankedTensorType>(operand.get().getType());
           return isParameterOperand(op, operand.getOperandNumber()) ||
                  (t && t.getRank() == type.getRank());
         });
}

bool mlir::fuse::isPermutationCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 0)
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isPermutation() || !maps[1].isPermutation())
    return false;
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return yield.getNumOperands() == 1 &&
         yield.getOperand(0) == op.getBody()->getArgument(0);
}

bool mlir::fuse::isPermutationUpToUnits(AffineMap map,
                                        ArrayRef<int64_t> ranges) {
  llvm::SmallBitVector seen(ranges.size());
  for (AffineExpr result : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      if (seen.test(dim.getPosition()))
        return false;
      seen.set(dim.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (!constant || constant.getValue() != 0)
      return false;
  }
  for (auto [i, range] : llvm::enumerate(ranges))
    if (range != 1 && !seen.test(i))
      return false;
  return true;
}

std::optional<unsigned>
mlir::fuse::getInnermostWideLoop(AffineMap map, ArrayRef<int64_t> ranges) {
  for (AffineExpr result : llvm::reverse(map.getResults())) {
    if (isa<AffineConstantExpr>(result))
      continue;
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return std::nullopt;
    if (ranges[dim.getPosition()] != 1)
      return dim.getPosition();
  }
  return std::nullopt;
}

bool mlir::fuse::isTranspose(Operation *op) {
  if (isa<tosa::TransposeOp, linalg::TransposeOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && isPermutationCopy(generic) &&
         generic.getIndexingMapsArray()[0] != generic.getIndexingMapsArray()[1];
}
