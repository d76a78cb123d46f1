//===- LinalgDomain.cpp - Named linalg elementwise ops as terms -----------===//
//
// linalg.add, linalg.exp, ... on tensors. Operands must have the result's
// shape (named elementwise ops do not broadcast); new ops get a
// `tensor.empty` destination; constants are splat `arith.constant` tensors.
// A reciprocal is `linalg.reciprocal`; `linalg.square` is not a kind (it is
// `mul(x, x)` for the rules, and rules never build it).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Utils/ShapeUtils.h"
#include "FuseDialect/Transforms/Algebraic/Domain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse::algebra;

namespace {

std::optional<OpKind> getNamedKind(Operation *op) {
  return TypeSwitch<Operation *, std::optional<OpKind>>(op)
      .Case([](linalg::AddOp) { return OpKind::Add; })
      .Case([](linalg::SubOp) { return OpKind::Sub; })
      .Case([](linalg::MulOp) { return OpKind::Mul; })
      .Case([](linalg::DivOp) { return OpKind::Div; })
      .Case([](linalg::MaxOp) { return OpKind::Max; })
      .Case([](linalg::MinOp) { return OpKind::Min; })
      .Case([](linalg::PowFOp) { return OpKind::Pow; })
      .Case([](linalg::ExpOp) { return OpKind::Exp; })
      .Case([](linalg::LogOp) { return OpKind::Log; })
      .Case([](linalg::AbsOp) { return OpKind::Abs; })
      .Case([](linalg::CeilOp) { return OpKind::Ceil; })
      .Case([](linalg::FloorOp) { return OpKind::Floor; })
      .Case([](linalg::NegFOp) { return OpKind::Neg; })
      .Case([](linalg::ReciprocalOp) { return OpKind::Recip; })
      .Case([](linalg::SqrtOp) { return OpKind::Sqrt; })
      .Case([](linalg::RsqrtOp) { return OpKind::Rsqrt; })
      .Case([](linalg::TanhOp) { return OpKind::Tanh; })
      .Case([](linalg::ErfOp) { return OpKind::Erf; })
      .Case([](linalg::SelectOp) { return OpKind::Select; })
      .Default([](Operation *) { return std::nullopt; });
}

class LinalgDomain final : public AlgebraDomain {
public:
  StringRef getName() const override { return "linalg"; }

  bool supports(OpKind kind) const override {
    switch (kind) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div:
    case OpKind::Max: case OpKind::Min: case OpKind::Pow: case OpKind::Exp:
    case OpKind::Log: case OpKind::Abs: case OpKind::Ceil: case OpKind::Floor:
    case OpKind::Neg: case OpKind::Recip: case OpKind::Sqrt: case OpKind::Rsqrt:
    case OpKind::Tanh: case OpKind::Erf: case OpKind::Select:
      return true;
    default:
      return false;
    }
  }

  SmallVector<OpKind, 2> getKinds(Operation *op) const override {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
        op->getNumResults() != 1 ||
        !cast<ShapedType>(op->getResult(0).getType()).hasStaticShape())
      return {};
    if (std::optional<OpKind> kind = getNamedKind(op))
      return {*kind};
    return {};
  }

  std::optional<SmallVector<Value, 3>>
  getTermOperands(Operation *op, OpKind kind) const override {
    if (!llvm::is_contained(getKinds(op), kind))
      return std::nullopt;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<Value, 3> operands;
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      operands.push_back(input->get());
    return operands;
  }

  std::optional<double> getSplatValue(Value value) const override {
    DenseElementsAttr attr;
    if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat() ||
        !isa<FloatType>(attr.getElementType()))
      return std::nullopt;
    return attr.getSplatValue<APFloat>().convertToDouble();
  }


  Value build(OpBuilder &b, Location loc, OpKind kind, ArrayRef<Value> operands,
              Operation *attrSource,
              SmallVectorImpl<Operation *> &created) const override {
    ArrayRef<Value> values =
        kind == OpKind::Select ? operands.drop_front() : operands;
    auto type = dyn_cast<RankedTensorType>(values.front().getType());
    if (!type || !type.hasStaticShape() ||
        llvm::any_of(values, [&](Value v) { return v.getType() != type; }))
      return {};
    auto init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
    created.push_back(init);
    Value initValue = init.getResult();
    ValueRange ins(operands), outs(initValue);
    Operation *op = nullptr;
    switch (kind) {
    case OpKind::Add: op = linalg::AddOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Sub: op = linalg::SubOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Mul: op = linalg::MulOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Div: op = linalg::DivOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Max: op = linalg::MaxOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Min: op = linalg::MinOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Pow: op = linalg::PowFOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Exp: op = linalg::ExpOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Log: op = linalg::LogOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Abs: op = linalg::AbsOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Ceil: op = linalg::CeilOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Floor: op = linalg::FloorOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Neg: op = linalg::NegFOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Recip: op = linalg::ReciprocalOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Sqrt: op = linalg::SqrtOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Rsqrt: op = linalg::RsqrtOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Tanh: op = linalg::TanhOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Erf: op = linalg::ErfOp::create(b, loc, TypeRange{type}, ins, outs); break;
    case OpKind::Select: op = linalg::SelectOp::create(b, loc, TypeRange{type}, ins, outs); break;
    default:
      return {};
    }
    created.push_back(op);
    return op->getResult(0);
  }

  // Constants and their types are those of arith on tensors.
  Value buildConstant(OpBuilder &b, Location loc, double value, Type type,
                      SmallVectorImpl<Operation *> &created) const override {
    return getArithDomain().buildConstant(b, loc, value, type, created);
  }

  Type getLiteralType(Type siblingType) const override {
    return getArithDomain().getLiteralType(siblingType);
  }

  Type getFoldedType(ArrayRef<Type> operandTypes) const override {
    return getArithDomain().getFoldedType(operandTypes);
  }

  OpCost getCost(Operation *op) const override {
    OpCost cost;
    SmallVector<OpKind, 2> kinds = getKinds(op);
    if (kinds.empty())
      return cost;
    auto type = cast<ShapedType>(op->getResult(0).getType());
    int64_t elements = type.getNumElements();
    int64_t eb = fuse::getElementBytes(type);
    cost.flops = elements * getFlopsPerElement(kinds.front());
    cost.bytes = elements * eb *
                 (cast<linalg::LinalgOp>(op).getNumDpsInputs() + 1);
    return cost;
  }
};

} // namespace

const AlgebraDomain &mlir::fuse::algebra::getLinalgDomain() {
  static const LinalgDomain domain;
  return domain;
}
