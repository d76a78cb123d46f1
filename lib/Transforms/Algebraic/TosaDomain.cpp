//===- TosaDomain.cpp - TOSA seen through the term language ---------------===//
//
// TOSA 1.0 has no float division or square root; the domain recognizes
// `a * reciprocal(b)` as a division and `pow(a, 0.5)` as a square root, and
// builds them that way. Multiplications with a non-zero shift and negations
// with non-zero zero points (quantized arithmetic) are not instances of any
// kind, so no rule ever touches them.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Utils/ShapeUtils.h"
#include "FuseDialect/Transforms/Algebraic/Domain.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse::algebra;

namespace {

std::optional<double> getSplat(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  Type elementType = attr.getElementType();
  if (isa<FloatType>(elementType))
    return attr.getSplatValue<APFloat>().convertToDouble();
  if (elementType.isInteger(1))
    return std::nullopt;
  if (isa<IntegerType>(elementType))
    return static_cast<double>(attr.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

bool isZero(Value value) {
  std::optional<double> v = getSplat(value);
  return v && *v == 0.0;
}

/// Max/min-like ops are instances only with NaN propagation (TOSA's
/// default), the semantics the rules and the builders assume.
bool propagatesNaN(Operation *op) {
  auto mode = op->getAttrOfType<tosa::NanPropagationModeAttr>("nan_mode");
  return !mode || mode.getValue() == tosa::NanPropagationMode::PROPAGATE;
}

RankedTensorType withShape(RankedTensorType type, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, type.getElementType());
}

/// Broadcasts static shapes of equal rank; std::nullopt if incompatible.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<Type> types) {
  SmallVector<int64_t> shape;
  for (Type type : types) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked || !ranked.hasStaticShape())
      return std::nullopt;
    if (shape.empty()) {
      shape.assign(ranked.getShape().begin(), ranked.getShape().end());
      continue;
    }
    if (static_cast<int64_t>(shape.size()) != ranked.getRank())
      return std::nullopt;
    for (auto [dim, other] : llvm::zip(shape, ranked.getShape())) {
      if (dim == other || other == 1)
        continue;
      if (dim != 1)
        return std::nullopt;
      dim = other;
    }
  }
  return shape;
}

class TosaDomain final : public AlgebraDomain {
public:
  StringRef getName() const override { return "tosa"; }

  bool supports(OpKind) const override { return true; }
  bool isNative(OpKind kind) const override {
    return kind != OpKind::Div && kind != OpKind::Sqrt;
  }

  SmallVector<OpKind, 2> getKinds(Operation *op) const override {
    SmallVector<OpKind, 2> kinds;
    for (OpKind kind : candidateKinds(op))
      if (getTermOperands(op, kind))
        kinds.push_back(kind);
    return kinds;
  }

  std::optional<SmallVector<Value, 3>>
  getTermOperands(Operation *op, OpKind kind) const override {
    using Operands = std::optional<SmallVector<Value, 3>>;
    auto one = [](Value a) -> Operands { return SmallVector<Value, 3>{a}; };
    auto two = [](Value a, Value b) -> Operands {
      return SmallVector<Value, 3>{a, b};
    };
    switch (kind) {
    case OpKind::Add:
      if (auto add = dyn_cast<tosa::AddOp>(op))
        return two(add.getInput1(), add.getInput2());
      return std::nullopt;
    case OpKind::Sub:
      if (auto sub = dyn_cast<tosa::SubOp>(op))
        return two(sub.getInput1(), sub.getInput2());
      return std::nullopt;
    case OpKind::Mul:
      if (auto mul = dyn_cast<tosa::MulOp>(op); mul && isZero(mul.getShift()))
        return two(mul.getInput1(), mul.getInput2());
      return std::nullopt;
    case OpKind::Div: {
      auto mul = dyn_cast<tosa::MulOp>(op);
      if (!mul || !isZero(mul.getShift()))
        return std::nullopt;
      if (auto recip = mul.getInput2().getDefiningOp<tosa::ReciprocalOp>())
        return two(mul.getInput1(), recip.getInput1());
      return std::nullopt;
    }
    case OpKind::Max:
      if (auto max = dyn_cast<tosa::MaximumOp>(op); max && propagatesNaN(op))
        return two(max.getInput1(), max.getInput2());
      return std::nullopt;
    case OpKind::Min:
      if (auto min = dyn_cast<tosa::MinimumOp>(op); min && propagatesNaN(op))
        return two(min.getInput1(), min.getInput2());
      return std::nullopt;
    case OpKind::Pow:
      if (auto pow = dyn_cast<tosa::PowOp>(op))
        return two(pow.getInput1(), pow.getInput2());
      return std::nullopt;
    case OpKind::Sqrt:
      if (auto pow = dyn_cast<tosa::PowOp>(op)) {
        std::optional<double> exponent = getSplat(pow.getInput2());
        if (exponent && *exponent == 0.5)
          return one(pow.getInput1());
      }
      return std::nullopt;
    case OpKind::Shl:
      if (auto shl = dyn_cast<tosa::LogicalLeftShiftOp>(op))
        return two(shl.getInput1(), shl.getInput2());
      return std::nullopt;
    case OpKind::Neg:
      if (auto neg = dyn_cast<tosa::NegateOp>(op);
          neg && isZero(neg.getInput1Zp()) && isZero(neg.getOutputZp()))
        return one(neg.getInput1());
      return std::nullopt;
    case OpKind::Select:
      if (auto select = dyn_cast<tosa::SelectOp>(op))
        return SmallVector<Value, 3>{select.getInput1(), select.getInput2(),
                                     select.getInput3()};
      return std::nullopt;
    case OpKind::MatMul:
      if (auto matmul = dyn_cast<tosa::MatMulOp>(op);
          matmul && isZero(matmul.getAZp()) && isZero(matmul.getBZp()))
        return two(matmul.getA(), matmul.getB());
      return std::nullopt;
    default:
      break;
    }
    // Single-input ops whose first operand is the data.
    if (op->getNumOperands() == 0 || !isUnaryInstance(op, kind) ||
        !propagatesNaN(op))
      return std::nullopt;
    return one(op->getOperand(0));
  }

  SmallVector<Operation *, 1> getHelperOps(Operation *op,
                                           OpKind kind) const override {
    if (kind != OpKind::Div || !getTermOperands(op, kind))
      return {};
    return {cast<tosa::MulOp>(op).getInput2().getDefiningOp()};
  }

  std::optional<double> getSplatValue(Value value) const override {
    return getSplat(value);
  }

  Value buildConstantFromAttr(OpBuilder &b, Location loc, DenseElementsAttr attr,
                              SmallVectorImpl<Operation *> &created) const override {
    Operation *op = tosa::ConstOp::create(b, loc, attr.getType(), attr);
    created.push_back(op);
    return op->getResult(0);
  }

  Value build(OpBuilder &b, Location loc, OpKind kind, ArrayRef<Value> operands,
              Operation *attrSource,
              SmallVectorImpl<Operation *> &created) const override {
    auto record = [&](Operation *op) -> Value {
      created.push_back(op);
      return op->getResult(0);
    };
    SmallVector<Type> operandTypes;
    for (Value v : operands)
      operandTypes.push_back(v.getType());

    if (isElementwise(kind)) {
      ArrayRef<Type> dataTypes = operandTypes;
      if (kind == OpKind::Select)
        dataTypes = dataTypes.drop_front();
      std::optional<SmallVector<int64_t>> shape = broadcastShapes(operandTypes);
      if (!shape)
        return {};
      auto valueType = dyn_cast<RankedTensorType>(dataTypes.front());
      if (!valueType)
        return {};
      RankedTensorType type = withShape(valueType, *shape);
      switch (kind) {
      case OpKind::Add:
        return record(tosa::AddOp::create(b, loc, type, operands[0], operands[1]));
      case OpKind::Sub:
        return record(tosa::SubOp::create(b, loc, type, operands[0], operands[1]));
      case OpKind::Mul:
        return record(tosa::MulOp::create(b, loc, type, operands[0],
                                          operands[1], buildShift(b, loc, created)));
      case OpKind::Div: {
        auto recipType = cast<RankedTensorType>(operandTypes[1]);
        Value recip = record(
            tosa::ReciprocalOp::create(b, loc, recipType, operands[1]));
        return record(tosa::MulOp::create(b, loc, type, operands[0], recip,
                                          buildShift(b, loc, created)));
      }
      case OpKind::Max:
        return record(
            tosa::MaximumOp::create(b, loc, type, operands[0], operands[1]));
      case OpKind::Min:
        return record(
            tosa::MinimumOp::create(b, loc, type, operands[0], operands[1]));
      case OpKind::Pow:
        return record(tosa::PowOp::create(b, loc, type, operands[0], operands[1]));
      case OpKind::Shl:
        return record(tosa::LogicalLeftShiftOp::create(b, loc, type, operands[0],
                                                       operands[1]));
      case OpKind::Sqrt: {
        Value half = buildConstant(b, loc, 0.5, getLiteralType(type), created);
        return record(tosa::PowOp::create(b, loc, type, operands[0], half));
      }
      case OpKind::Neg: {
        auto zpType = RankedTensorType::get({1}, type.getElementType());
        Value zp = buildConstant(b, loc, 0.0, zpType, created);
        return record(tosa::NegateOp::create(b, loc, type, operands[0], zp, zp));
      }
#define FUSE_TOSA_UNARY(Name, Op)                                              \
  case OpKind::Name:                                                           \
    return record(Op::create(b, loc, type, operands[0]));
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
      case OpKind::Clamp: {
        auto source = dyn_cast_or_null<tosa::ClampOp>(attrSource);
        Attribute minVal = source ? source.getMinValAttr()
                                  : b.getFloatAttr(type.getElementType(), -0.5);
        Attribute maxVal = source ? source.getMaxValAttr()
                                  : b.getFloatAttr(type.getElementType(), 0.5);
        auto nanMode = source ? source.getNanModeAttr() : nullptr;
        if (!nanMode)
          nanMode = tosa::NanPropagationModeAttr::get(
              b.getContext(), tosa::NanPropagationMode::PROPAGATE);
        return record(tosa::ClampOp::create(b, loc, type, operands[0], minVal,
                                            maxVal, nanMode));
      }
      case OpKind::Select:
        return record(tosa::SelectOp::create(b, loc, type, operands[0],
                                             operands[1], operands[2]));
      default:
        return {};
      }
    }

    auto input = dyn_cast<RankedTensorType>(operandTypes.front());
    if (!input || !input.hasStaticShape())
      return {};
    switch (kind) {
    case OpKind::ReduceSum:
    case OpKind::ReduceProd:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin: {
      int64_t axis = std::min<int64_t>(1, input.getRank() - 1);
      if (attrSource) {
        auto axisAttr = attrSource->getAttrOfType<IntegerAttr>("axis");
        if (!axisAttr)
          return {};
        axis = axisAttr.getInt();
      }
      if (axis < 0 || axis >= input.getRank())
        return {};
      SmallVector<int64_t> shape(input.getShape());
      shape[axis] = 1;
      RankedTensorType type = withShape(input, shape);
      IntegerAttr axisAttr = b.getI32IntegerAttr(axis);
      switch (kind) {
      case OpKind::ReduceSum:
        return record(tosa::ReduceSumOp::create(b, loc, type, operands[0], axisAttr));
      case OpKind::ReduceProd:
        return record(
            tosa::ReduceProductOp::create(b, loc, type, operands[0], axisAttr));
      case OpKind::ReduceMax:
        return record(tosa::ReduceMaxOp::create(b, loc, type, operands[0], axisAttr));
      default:
        return record(tosa::ReduceMinOp::create(b, loc, type, operands[0], axisAttr));
      }
    }
    case OpKind::Transpose: {
      SmallVector<int32_t> perms;
      if (auto source = dyn_cast_or_null<tosa::TransposeOp>(attrSource)) {
        perms.assign(source.getPerms().begin(), source.getPerms().end());
      } else if (attrSource) {
        return {};
      } else {
        for (int32_t i = 0; i < input.getRank(); ++i)
          perms.push_back(i);
        if (perms.size() >= 2)
          std::swap(perms[perms.size() - 1], perms[perms.size() - 2]);
      }
      if (static_cast<int64_t>(perms.size()) != input.getRank())
        return {};
      SmallVector<int64_t> shape;
      for (int32_t p : perms)
        shape.push_back(input.getDimSize(p));
      return record(tosa::TransposeOp::create(b, loc, withShape(input, shape),
                                              operands[0],
                                              b.getDenseI32ArrayAttr(perms)));
    }
    case OpKind::Slice:
    case OpKind::Tile:
    case OpKind::Reverse: {
      if (attrSource) {
        // Same op on a same-shaped input: clone it with the new input.
        if (attrSource->getOperand(0).getType() != input &&
            cast<ShapedType>(attrSource->getOperand(0).getType()).getShape() !=
                input.getShape())
          return {};
        Operation *clone = b.clone(*attrSource);
        clone->setOperand(0, operands[0]);
        auto oldType = cast<RankedTensorType>(clone->getResult(0).getType());
        clone->getResult(0).setType(
            RankedTensorType::get(oldType.getShape(), input.getElementType()));
        return record(clone);
      }
      // Canonical instance: half of dimension 1, two copies along it, or
      // dimension 1 reversed.
      int64_t rank = input.getRank();
      int64_t dim = std::min<int64_t>(1, rank - 1);
      SmallVector<int64_t> shape(input.getShape());
      if (kind == OpKind::Reverse)
        return record(tosa::ReverseOp::create(b, loc, input, operands[0],
                                              b.getI32IntegerAttr(dim)));
      if (kind == OpKind::Slice) {
        SmallVector<int64_t> start(rank, 0);
        shape[dim] = std::max<int64_t>(1, shape[dim] / 2);
        return record(tosa::SliceOp::create(
            b, loc, withShape(input, shape), operands[0],
            buildShape(b, loc, start, created),
            buildShape(b, loc, shape, created)));
      }
      SmallVector<int64_t> multiples(rank, 1);
      multiples[dim] = 2;
      shape[dim] *= 2;
      return record(tosa::TileOp::create(b, loc, withShape(input, shape),
                                         operands[0],
                                         buildShape(b, loc, multiples, created)));
    }
    case OpKind::MatMul: {
      auto rhs = dyn_cast<RankedTensorType>(operandTypes[1]);
      if (!rhs || input.getRank() != 3 || rhs.getRank() != 3 ||
          input.getDimSize(2) != rhs.getDimSize(1) ||
          input.getElementType() != rhs.getElementType())
        return {};
      int64_t batch = std::max(input.getDimSize(0), rhs.getDimSize(0));
      auto type = RankedTensorType::get(
          {batch, input.getDimSize(1), rhs.getDimSize(2)},
          input.getElementType());
      auto zpType = RankedTensorType::get({1}, input.getElementType());
      Value zp = buildConstant(b, loc, 0.0, zpType, created);
      return record(
          tosa::MatMulOp::create(b, loc, type, operands[0], operands[1], zp, zp));
    }
    default:
      return {};
    }
  }

  Value buildConstant(OpBuilder &b, Location loc, double value, Type type,
                      SmallVectorImpl<Operation *> &created) const override {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return {};
    Type element = tensorType.getElementType();
    DenseElementsAttr attr;
    if (auto floatType = dyn_cast<FloatType>(element)) {
      APFloat apValue(value);
      bool losesInfo;
      apValue.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
      attr = DenseElementsAttr::get(tensorType, apValue);
    } else if (auto intType = dyn_cast<IntegerType>(element)) {
      attr = DenseElementsAttr::get(
          tensorType, APInt(intType.getWidth(), static_cast<int64_t>(value),
                            /*isSigned=*/true));
    } else {
      return {};
    }
    Operation *op = tosa::ConstOp::create(b, loc, tensorType, attr);
    created.push_back(op);
    return op->getResult(0);
  }

  Type getLiteralType(Type siblingType) const override {
    auto ranked = dyn_cast<RankedTensorType>(siblingType);
    if (!ranked)
      return {};
    return RankedTensorType::get(SmallVector<int64_t>(ranked.getRank(), 1),
                                 ranked.getElementType());
  }

  Type getFoldedType(ArrayRef<Type> operandTypes) const override {
    std::optional<SmallVector<int64_t>> shape = broadcastShapes(operandTypes);
    if (!shape)
      return {};
    return RankedTensorType::get(
        *shape, cast<RankedTensorType>(operandTypes.front()).getElementType());
  }

  OpCost getCost(Operation *op) const override {
    OpCost cost;
    if (op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
      return cost;
    SmallVector<OpKind, 2> kinds = getKinds(op);
    if (kinds.empty())
      return cost;
    OpKind kind = kinds.front();
    Type resultType = op->getResult(0).getType();
    int64_t out = fuse::getNumElements(resultType);
    int64_t eb = fuse::getElementBytes(resultType);
    std::optional<SmallVector<Value, 3>> operands = getTermOperands(op, kind);
    int64_t in = 0;
    for (Value v : *operands)
      in += fuse::getNumElements(v.getType());
    switch (kind) {
    case OpKind::ReduceSum:
    case OpKind::ReduceProd:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
      cost.flops = in;
      cost.bytes = (in + out) * eb;
      return cost;
    case OpKind::Transpose:
    case OpKind::Tile:
    case OpKind::Reverse:
      cost.bytes = (in + out) * eb;
      return cost;
    case OpKind::Slice:
      cost.bytes = 2 * out * eb;
      return cost;
    case OpKind::MatMul: {
      auto a = cast<ShapedType>((*operands)[0].getType());
      cost.flops = 2 * out * (a.hasStaticShape() ? a.getDimSize(2) : 1);
      cost.bytes = (in + out) * eb;
      return cost;
    }
    case OpKind::Div:
      // Priced as the multiplication; its reciprocal is priced on its own.
      cost.flops = out;
      cost.bytes = (fuse::getNumElements(op->getOperand(0).getType()) +
                    fuse::getNumElements(op->getOperand(1).getType()) + out) *
                   eb;
      return cost;
    default:
      cost.flops = out * getFlopsPerElement(kind);
      cost.bytes = (in + out) * eb;
      return cost;
    }
  }

private:
  /// Kinds worth trying for `op` (getKinds filters by operand checks).
  static SmallVector<OpKind, 2> candidateKinds(Operation *op) {
    return TypeSwitch<Operation *, SmallVector<OpKind, 2>>(op)
        .Case([](tosa::AddOp) { return SmallVector<OpKind, 2>{OpKind::Add}; })
        .Case([](tosa::SubOp) { return SmallVector<OpKind, 2>{OpKind::Sub}; })
        .Case([](tosa::MulOp) {
          return SmallVector<OpKind, 2>{OpKind::Mul, OpKind::Div};
        })
        .Case([](tosa::MaximumOp) { return SmallVector<OpKind, 2>{OpKind::Max}; })
        .Case([](tosa::MinimumOp) { return SmallVector<OpKind, 2>{OpKind::Min}; })
        .Case([](tosa::PowOp) {
          return SmallVector<OpKind, 2>{OpKind::Pow, OpKind::Sqrt};
        })
        .Case([](tosa::LogicalLeftShiftOp) {
          return SmallVector<OpKind, 2>{OpKind::Shl};
        })
        .Case([](tosa::NegateOp) { return SmallVector<OpKind, 2>{OpKind::Neg}; })
        .Case([](tosa::SelectOp) {
          return SmallVector<OpKind, 2>{OpKind::Select};
        })
        .Case([](tosa::MatMulOp) {
          return SmallVector<OpKind, 2>{OpKind::MatMul};
        })
        .Default([](Operation *op) {
          SmallVector<OpKind, 2> kinds;
          if (std::optional<OpKind> kind = getUnaryKind(op))
            kinds.push_back(*kind);
          return kinds;
        });
  }

  static std::optional<OpKind> getUnaryKind(Operation *op) {
    return TypeSwitch<Operation *, std::optional<OpKind>>(op)
#define FUSE_TOSA_UNARY(Name, Op)                                              \
  .Case([](Op) { return OpKind::Name; })
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
        .Case([](tosa::ClampOp) { return OpKind::Clamp; })
        .Case([](tosa::ReduceSumOp) { return OpKind::ReduceSum; })
        .Case([](tosa::ReduceProductOp) { return OpKind::ReduceProd; })
        .Case([](tosa::ReduceMaxOp) { return OpKind::ReduceMax; })
        .Case([](tosa::ReduceMinOp) { return OpKind::ReduceMin; })
        .Case([](tosa::TransposeOp) { return OpKind::Transpose; })
        .Case([](tosa::SliceOp) { return OpKind::Slice; })
        .Case([](tosa::TileOp) { return OpKind::Tile; })
        .Case([](tosa::ReverseOp) { return OpKind::Reverse; })
        .Default([](Operation *) { return std::nullopt; });
  }

  static bool isUnaryInstance(Operation *op, OpKind kind) {
    std::optional<OpKind> unary = getUnaryKind(op);
    return unary && *unary == kind;
  }

  static Value buildShift(OpBuilder &b, Location loc,
                          SmallVectorImpl<Operation *> &created) {
    auto type = RankedTensorType::get({1}, b.getI8Type());
    Operation *op = tosa::ConstOp::create(
        b, loc, type, DenseElementsAttr::get(type, APInt(8, 0)));
    created.push_back(op);
    return op->getResult(0);
  }

  static Value buildShape(OpBuilder &b, Location loc, ArrayRef<int64_t> values,
                          SmallVectorImpl<Operation *> &created) {
    auto type = tosa::shapeType::get(b.getContext(), values.size());
    auto attrType = RankedTensorType::get(
        {static_cast<int64_t>(values.size())}, b.getIndexType());
    Operation *op = tosa::ConstShapeOp::create(
        b, loc, type, DenseIntElementsAttr::get(attrType, values));
    created.push_back(op);
    return op->getResult(0);
  }
};

} // namespace

const AlgebraDomain &mlir::fuse::algebra::getTosaDomain() {
  static const TosaDomain domain;
  return domain;
}
