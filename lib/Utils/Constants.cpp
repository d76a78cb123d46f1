//===- Constants.cpp - Questions about constant operands ------------------===//

#include "FuseDialect/Utils/Constants.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

bool mlir::fuse::isZeroSplatConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  if (isa<FloatType>(attr.getElementType()))
    return attr.getSplatValue<APFloat>().isZero();
  return attr.getSplatValue<APInt>().isZero();
}
