//===- SafeIntegerDivision.cpp - No division traps on any input -----------===//
//
// `--fuse-safe-integer-division` (docs in Passes.td). For each integer
// division (tosa.intdiv; arith divisions and remainders on scalars, vectors
// or tensors) whose divisor may be 0, or -1 with a dividend that may be
// the least value (signed ones), the divisor becomes
//   b1 = select(b == 0, 1, b)
//   b2 = select(a == MIN && b1 == -1, 1, b1)        (signed only)
// built with the ops of the division's own dialect (TOSA ops broadcast
// rank-matched [1, ..., 1] constants; arith ops take splats).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Artifact/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSESAFEINTEGERDIVISIONPASS
#include "FuseDialect/Codegen/Artifact/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether the constant divisor `b` (if it is one) needs no guard: no 0,
/// and for a signed division no -1.
bool isSafeDivisor(Value b, bool isSigned) {
  DenseIntElementsAttr dense;
  IntegerAttr scalar;
  auto safe = [&](const APInt &v) {
    return !v.isZero() && !(isSigned && v.isAllOnes());
  };
  if (matchPattern(b, m_Constant(&scalar)))
    return safe(scalar.getValue());
  if (matchPattern(b, m_Constant(&dense)))
    return llvm::all_of(dense.getValues<APInt>(), safe);
  return false;
}

/// `value` as a constant of `type` (integer, or a shaped type of
/// integers) in arith.
Value arithConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(shaped, value));
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

/// The guarded divisor of `a / b` in arith.
Value guardArith(OpBuilder &b, Location loc, Value a, Value divisor,
                 bool isSigned) {
  Type type = divisor.getType();
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Value zero = arithConstant(b, loc, type, APInt(width, 0));
  Value one = arithConstant(b, loc, type, APInt(width, 1));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divisor, zero);
  divisor = arith::SelectOp::create(b, loc, isZero, one, divisor);
  if (!isSigned)
    return divisor;
  Value min = arithConstant(b, loc, type, APInt::getSignedMinValue(width));
  Value minusOne = arithConstant(b, loc, type, APInt::getAllOnes(width));
  Value overflow = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, min),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, divisor,
                            minusOne));
  return arith::SelectOp::create(b, loc, overflow, one, divisor);
}

/// A rank-matched [1, ..., 1] TOSA constant of `element` holding `value`.
Value tosaConstant(OpBuilder &b, Location loc, int64_t rank, Type element,
                   const APInt &value) {
  auto type = RankedTensorType::get(SmallVector<int64_t>(rank, 1), element);
  auto attr = DenseElementsAttr::get(type, value);
  return tosa::ConstOp::create(b, loc, type, attr);
}

/// The guarded divisor of `tosa.intdiv a, b` (result type `result`).
Value guardTosa(OpBuilder &b, Location loc, Value a, Value divisor,
                RankedTensorType result) {
  auto type = cast<RankedTensorType>(divisor.getType());
  Type element = type.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();
  int64_t rank = type.getRank();
  Type i1 = b.getI1Type();
  Value zero = tosaConstant(b, loc, rank, element, APInt(width, 0));
  Value one = tosaConstant(b, loc, rank, element, APInt(width, 1));
  Value isZero = tosa::EqualOp::create(b, loc, type.clone(i1), divisor, zero);
  divisor = tosa::SelectOp::create(b, loc, type, isZero, one, divisor);
  Value min =
      tosaConstant(b, loc, rank, element, APInt::getSignedMinValue(width));
  Value minusOne =
      tosaConstant(b, loc, rank, element, APInt::getAllOnes(width));
  Value aIsMin = tosa::EqualOp::create(
      b, loc, cast<RankedTensorType>(a.getType()).clone(i1), a, min);
  Value bIsMinusOne =
      tosa::EqualOp::create(b, loc, type.clone(i1), divisor, minusOne);
  Value overflow =
      tosa::LogicalAndOp::create(b, loc, result.clone(i1), aIsMin, bIsMinusOne);
  return tosa::SelectOp::create(b, loc, result, overflow, one, divisor);
}

struct SafeIntegerDivision
    : fuse::impl::FuseSafeIntegerDivisionPassBase<SafeIntegerDivision> {
  void runOnOperation() override {
    SmallVector<Operation *> divisions;
    getOperation()->walk([&](Operation *op) {
      if (isa<tosa::IntDivOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
              arith::RemUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
              arith::CeilDivUIOp>(op))
        divisions.push_back(op);
    });
    for (Operation *op : divisions) {
      bool isSigned =
          !isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op);
      Value a = op->getOperand(0), divisor = op->getOperand(1);
      if (!getElementTypeOrSelf(divisor.getType()).isInteger() ||
          isSafeDivisor(divisor, isSigned))
        continue;
      OpBuilder b(op);
      Value guarded;
      if (auto div = dyn_cast<tosa::IntDivOp>(op)) {
        auto result = dyn_cast<RankedTensorType>(div.getType());
        auto type = dyn_cast<RankedTensorType>(divisor.getType());
        auto aType = dyn_cast<RankedTensorType>(a.getType());
        if (!result || !type || !aType || !result.hasStaticShape() ||
            type.getRank() != result.getRank() ||
            aType.getRank() != result.getRank())
          continue;
        guarded = guardTosa(b, op->getLoc(), a, divisor, result);
      } else {
        guarded = guardArith(b, op->getLoc(), a, divisor, isSigned);
      }
      op->setOperand(1, guarded);
    }
  }
};

} // namespace
