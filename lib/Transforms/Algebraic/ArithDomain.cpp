//===- ArithDomain.cpp - arith/math seen through the term language --------===//
//
// Covers the payloads of linalg.generic (scalars) and arith/math ops on
// tensors. There is no reciprocal op: `1 / x` is recognized as one and built
// that way. Integer ops are recognized only where a rule asks for integers
// (the shift rule); the rest of the catalogue is for floats.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Utils/ShapeUtils.h"
#include "FuseDialect/Transforms/Algebraic/Domain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse::algebra;

namespace {

std::optional<double> getSplat(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr); i && !i.getType().isInteger(1))
    return static_cast<double>(i.getInt());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr); dense && dense.isSplat()) {
    if (isa<FloatType>(dense.getElementType()))
      return dense.getSplatValue<APFloat>().convertToDouble();
    if (isa<IntegerType>(dense.getElementType()) &&
        !dense.getElementType().isInteger(1))
      return static_cast<double>(dense.getSplatValue<APInt>().getSExtValue());
  }
  return std::nullopt;
}

class ArithDomain final : public AlgebraDomain {
public:
  StringRef getName() const override { return "arith"; }

  bool supports(OpKind kind) const override {
    switch (kind) {
    case OpKind::Sigmoid:
    case OpKind::Clamp:
      return false;
    default:
      return isElementwise(kind);
    }
  }

  SmallVector<OpKind, 2> getKinds(Operation *op) const override {
    SmallVector<OpKind, 2> kinds;
    TypeSwitch<Operation *>(op)
        .Case<arith::AddFOp, arith::AddIOp>(
            [&](Operation *) { kinds.push_back(OpKind::Add); })
        .Case<arith::SubFOp, arith::SubIOp>(
            [&](Operation *) { kinds.push_back(OpKind::Sub); })
        .Case<arith::MulFOp, arith::MulIOp>(
            [&](Operation *) { kinds.push_back(OpKind::Mul); })
        .Case([&](arith::DivFOp div) {
          kinds.push_back(OpKind::Div);
          std::optional<double> one = getSplat(div.getLhs());
          if (one && *one == 1.0)
            kinds.push_back(OpKind::Recip);
        })
        .Case<arith::MaximumFOp>([&](Operation *) { kinds.push_back(OpKind::Max); })
        .Case<arith::MinimumFOp>([&](Operation *) { kinds.push_back(OpKind::Min); })
        .Case<math::PowFOp>([&](Operation *) { kinds.push_back(OpKind::Pow); })
        .Case<arith::ShLIOp>([&](Operation *) { kinds.push_back(OpKind::Shl); })
#define FUSE_MATH_UNARY(Name, Op)                                              \
  .Case<Op>([&](Operation *) { kinds.push_back(OpKind::Name); })
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
        .Case<arith::SelectOp>([&](Operation *) { kinds.push_back(OpKind::Select); })
        .Default([](Operation *) {});
    return kinds;
  }

  std::optional<SmallVector<Value, 3>>
  getTermOperands(Operation *op, OpKind kind) const override {
    if (!llvm::is_contained(getKinds(op), kind))
      return std::nullopt;
    if (kind == OpKind::Recip)
      return SmallVector<Value, 3>{op->getOperand(1)};
    return SmallVector<Value, 3>(op->getOperands());
  }

  std::optional<double> getSplatValue(Value value) const override {
    return getSplat(value);
  }


  Value build(OpBuilder &b, Location loc, OpKind kind, ArrayRef<Value> operands,
              Operation *attrSource,
              SmallVectorImpl<Operation *> &created) const override {
    (void)attrSource;
    // arith and math need operands of one type (select: the two values).
    ArrayRef<Value> values =
        kind == OpKind::Select ? operands.drop_front() : operands;
    Type type = values.front().getType();
    if (llvm::any_of(values, [&](Value v) { return v.getType() != type; }))
      return {};
    Type element = getElementTypeOrSelf(type);
    bool isFloat = isa<FloatType>(element);
    auto record = [&](Operation *op) -> Value {
      created.push_back(op);
      return op->getResult(0);
    };
    Value x = operands[0];
    Value y = operands.size() > 1 ? operands[1] : Value();
    if (!isFloat && kind != OpKind::Shl && kind != OpKind::Add &&
        kind != OpKind::Sub && kind != OpKind::Mul && kind != OpKind::Select)
      return {};
    switch (kind) {
    case OpKind::Add:
      return record(isFloat ? arith::AddFOp::create(b, loc, x, y).getOperation()
                            : arith::AddIOp::create(b, loc, x, y).getOperation());
    case OpKind::Sub:
      return record(isFloat ? arith::SubFOp::create(b, loc, x, y).getOperation()
                            : arith::SubIOp::create(b, loc, x, y).getOperation());
    case OpKind::Mul:
      return record(isFloat ? arith::MulFOp::create(b, loc, x, y).getOperation()
                            : arith::MulIOp::create(b, loc, x, y).getOperation());
    case OpKind::Div:
      return record(arith::DivFOp::create(b, loc, x, y));
    case OpKind::Recip: {
      Value one = buildConstant(b, loc, 1.0, type, created);
      return record(arith::DivFOp::create(b, loc, one, x));
    }
    case OpKind::Max:
      return record(arith::MaximumFOp::create(b, loc, x, y));
    case OpKind::Min:
      return record(arith::MinimumFOp::create(b, loc, x, y));
    case OpKind::Pow:
      return record(math::PowFOp::create(b, loc, x, y));
    case OpKind::Shl:
      return record(arith::ShLIOp::create(b, loc, x, y));
#define FUSE_MATH_UNARY(Name, Op)                                              \
  case OpKind::Name:                                                           \
    return record(Op::create(b, loc, x));
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
    case OpKind::Select:
      return record(arith::SelectOp::create(b, loc, x, y, operands[2]));
    default:
      return {};
    }
  }

  Value buildConstant(OpBuilder &b, Location loc, double value, Type type,
                      SmallVectorImpl<Operation *> &created) const override {
    Type element = getElementTypeOrSelf(type);
    TypedAttr scalar;
    if (auto floatType = dyn_cast<FloatType>(element))
      scalar = b.getFloatAttr(floatType, value);
    else if (isa<IntegerType>(element))
      scalar = b.getIntegerAttr(element, static_cast<int64_t>(value));
    else
      return {};
    TypedAttr attr = scalar;
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, cast<Attribute>(scalar));
    Operation *op = arith::ConstantOp::create(b, loc, attr);
    created.push_back(op);
    return op->getResult(0);
  }

  Type getLiteralType(Type siblingType) const override { return siblingType; }

  Type getFoldedType(ArrayRef<Type> operandTypes) const override {
    return operandTypes.back();
  }

  OpCost getCost(Operation *op) const override {
    OpCost cost;
    SmallVector<OpKind, 2> kinds = getKinds(op);
    if (kinds.empty() || op->getNumResults() != 1)
      return cost;
    Type type = op->getResult(0).getType();
    int64_t elements = fuse::getNumElements(type);
    // A payload op runs once per point of the enclosing loop nest.
    if (auto linalgOp = op->getParentOfType<linalg::LinalgOp>()) {
      for (int64_t range : linalgOp.getStaticLoopRanges())
        elements *= ShapedType::isDynamic(range) ? 1024 : range;
    }
    cost.flops = elements * getFlopsPerElement(kinds.front());
    if (isa<ShapedType>(type)) {
      cost.bytes = elements * fuse::getElementBytes(type) * (op->getNumOperands() + 1);
    }
    return cost;
  }
};

} // namespace

const AlgebraDomain &mlir::fuse::algebra::getArithDomain() {
  static const ArithDomain domain;
  return domain;
}
