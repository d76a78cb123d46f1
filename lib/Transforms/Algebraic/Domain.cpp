//===- Domain.cpp - Shared pieces of the algebra domains ------------------===//

#include "FuseDialect/Transforms/Algebraic/Domain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace mlir::fuse::algebra;

AlgebraDomain::~AlgebraDomain() = default;

DenseElementsAttr AlgebraDomain::getConstantElements(Value value) const {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      !isa<FloatType>(attr.getElementType()))
    return {};
  return attr;
}

Value AlgebraDomain::buildConstantFromAttr(
    OpBuilder &builder, Location loc, DenseElementsAttr attr,
    SmallVectorImpl<Operation *> &created) const {
  Operation *op = arith::ConstantOp::create(builder, loc, attr);
  created.push_back(op);
  return op->getResult(0);
}

bool AlgebraDomain::haveSameAttributes(Operation *lhs, Operation *rhs) const {
  if (lhs == rhs)
    return true;
  if (lhs->getName() != rhs->getName() ||
      lhs->getNumOperands() != rhs->getNumOperands())
    return false;
  // Compare inherent attributes (properties) and non-data operands that are
  // constants (shape operands, zero points) by value.
  if (lhs->getPropertiesAsAttribute() != rhs->getPropertiesAsAttribute())
    return false;
  for (auto [a, b] : llvm::zip(lhs->getOperands(), rhs->getOperands())) {
    if (a == b)
      continue;
    Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
    if (da && db && da->hasTrait<OpTrait::ConstantLike>() &&
        OperationEquivalence::isEquivalentTo(
            da, db, OperationEquivalence::IgnoreLocations))
      continue;
    // A data operand: the caller matches those separately.
    if (!da || !da->hasTrait<OpTrait::ConstantLike>())
      continue;
    return false;
  }
  return true;
}
