//===- StridedBox.cpp - Static strided boxes of tensors and buffers -------===//

#include "FuseDialect/Utils/StridedBox.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <numeric>

using namespace mlir;

bool fuse::areDisjoint(const StridedBox &a, const StridedBox &b) {
  for (auto [i, size] : llvm::enumerate(a.sizes)) {
    if (size == 0 || b.sizes[i] == 0)
      return true;
    int64_t aLast = a.offsets[i] + a.strides[i] * (size - 1);
    int64_t bLast = b.offsets[i] + b.strides[i] * (b.sizes[i] - 1);
    if (aLast < b.offsets[i] || bLast < a.offsets[i])
      return true;
    int64_t step = std::gcd(size > 1 ? a.strides[i] : 0,
                            b.sizes[i] > 1 ? b.strides[i] : 0);
    int64_t distance = a.offsets[i] - b.offsets[i];
    if (step == 0 ? distance != 0 : distance % step != 0)
      return true;
  }
  return false;
}

std::optional<fuse::StridedBox>
fuse::getStaticBox(OffsetSizeAndStrideOpInterface slice) {
  if (ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
      ShapedType::isDynamicShape(slice.getStaticSizes()) ||
      ShapedType::isDynamicShape(slice.getStaticStrides()))
    return std::nullopt;
  // Not rank-reducing: the slice has a dimension per offset.
  Value sliced = isa<tensor::ExtractSliceOp>(*slice) ? slice->getResult(0)
                                                     : slice->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(sliced.getType());
  if (!type ||
      type.getRank() != static_cast<int64_t>(slice.getStaticOffsets().size()))
    return std::nullopt;
  return StridedBox{llvm::to_vector(slice.getStaticOffsets()),
                    llvm::to_vector(slice.getStaticSizes()),
                    llvm::to_vector(slice.getStaticStrides())};
}
