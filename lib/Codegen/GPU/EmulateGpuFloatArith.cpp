//===- EmulateGpuFloatArith.cpp - A kernel's float arithmetic, host-free --===//
//
// Makes the CPU compute a GPU kernel's floating-point arithmetic exactly as
// its PTX does, whatever the x86 host (with or without AVX512-FP16, FMA,
// AVX512-BF16), so that the emulated launches of the tests
// (--fuse-test-lower-to-cpu-via-gpu) give the same bits on every machine.
//
// What a kernel means:
//  1. A multiply and an add (or subtract) the GPU lowering marks
//     `contract` (fuse-distribute-tiles with fma=true), where the product has
//     no other use, is one fused multiply-add: PTX `fma.rn` (NVPTX forms it
//     from such a pair). On the CPU LLVM would contract the pair only where
//     the host has FMA instructions for the type: f16 on AVX512-FP16 hosts,
//     not elsewhere. Here the pair becomes an explicit `math.fma`, and the
//     `contract` flags of all other float ops are dropped.
//  2. f16 and bf16 ops round once, to the nearest, as `add.f16`, `mul.rn.f16`
//     and `fma.rn.f16` do (bf16 likewise). The CPU computes them in f32 and
//     rounds: for +, -, *, / and sqrt that double rounding is exact, since
//     f32 keeps 24 >= 2p + 2 bits for both (p = 11, 8). An f16/bf16 fma is
//     computed exactly in f64 (the product of two halves fits in 22 bits)
//     plus an error-free TwoSum, rounded to f32 *to odd* (the result's last
//     bit records whether anything was dropped) and then to the half type to
//     the nearest: round-to-odd in >= p + 2 bits followed by one rounding
//     gives the correctly rounded result (Boldo and Melquiond, 2008). No
//     f16/bf16 arithmetic is left for LLVM to implement host by host; only
//     conversions, which are exact IEEE operations on every host.
//
// Not modelled here: transcendental functions (libdevice on the GPU, libm
// on the CPU) and tensor-core mma.sync (fuse-test-lower-to-cpu-via-gpu runs
// the scalar path of those tiles).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEEMULATEGPUFLOATARITHPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// `type` (a float scalar or vector) with element type `element`.
Type withElementType(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

bool isHalf(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

bool hasContract(Operation *op) {
  auto flags = dyn_cast<arith::ArithFastMathInterface>(op);
  return flags && bitEnumContainsAll(flags.getFastMathFlagsAttr().getValue(),
                                     arith::FastMathFlags::contract);
}

/// A constant of `type` (scalar or vector) holding `value` in every lane.
Value splat(OpBuilder &builder, Location loc, Type type, TypedAttr value) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(vector, cast<Attribute>(value)));
  return arith::ConstantOp::create(builder, loc, value);
}

/// 1. `add(mul(a, b), c)`, `add(c, mul(a, b))`, `sub(mul(a, b), c)` and
/// `sub(c, mul(a, b))`, all `contract` and the product used once, as fma.
void formFusedMultiplyAdds(Operation *root) {
  SmallVector<Operation *> sums;
  root->walk([&](Operation *op) {
    if (isa<arith::AddFOp, arith::SubFOp>(op) && hasContract(op))
      sums.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *sum : sums) {
    auto product = [&](unsigned i) -> arith::MulFOp {
      auto mul = sum->getOperand(i).getDefiningOp<arith::MulFOp>();
      return mul && hasContract(mul) && mul->hasOneUse() ? mul : nullptr;
    };
    bool subtract = isa<arith::SubFOp>(sum);
    unsigned side = product(0) ? 0 : 1;
    arith::MulFOp mul = product(side);
    if (!mul)
      continue;
    rewriter.setInsertionPoint(sum);
    Location loc = sum->getLoc();
    Value a = mul.getLhs(), b = mul.getRhs(), c = sum->getOperand(1 - side);
    if (subtract && side == 0)
      c = arith::NegFOp::create(rewriter, loc, c); // a*b - c
    else if (subtract)
      a = arith::NegFOp::create(rewriter, loc, a); // c - a*b
    rewriter.replaceOpWithNewOp<math::FmaOp>(sum, a, b, c);
    rewriter.eraseOp(mul);
  }
}

/// The correctly rounded f16/bf16 `a * b + c` (see the file header).
Value emitHalfFma(OpBuilder &builder, Location loc, Value a, Value b,
                  Value c) {
  Type type = a.getType();
  Type f64 = withElementType(type, builder.getF64Type());
  Type f32 = withElementType(type, builder.getF32Type());
  Type i32 = withElementType(type, builder.getI32Type());
  auto ext = [&](Value v) { return arith::ExtFOp::create(builder, loc, f64, v); };
  // Exact product, rounded sum, and the sum's error (TwoSum: all exact).
  Value p = arith::MulFOp::create(builder, loc, ext(a), ext(b));
  Value c64 = ext(c);
  Value s = arith::AddFOp::create(builder, loc, p, c64);
  Value bb = arith::SubFOp::create(builder, loc, s, p);
  Value e = arith::AddFOp::create(
      builder, loc,
      arith::SubFOp::create(builder, loc, p,
                            arith::SubFOp::create(builder, loc, s, bb)),
      arith::SubFOp::create(builder, loc, c64, bb));
  // Round to f32 to the nearest, then to odd: where the exact value a*b+c
  // differs from that f32 and its last bit is even, step one ulp towards
  // the exact value.
  Value s32 = arith::TruncFOp::create(builder, loc, f32, s);
  Value d = arith::SubFOp::create(
      builder, loc, s, arith::ExtFOp::create(builder, loc, f64, s32));
  Value zero64 = splat(builder, loc, f64, builder.getF64FloatAttr(0.0));
  Value dNonZero = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::ONE,
                                         d, zero64);
  // The sign of (exact - s32): d's where d != 0 (|e| is far below it),
  // else e's.
  Value r = arith::SelectOp::create(builder, loc, dNonZero, d, e);
  Value inexact = arith::CmpFOp::create(builder, loc,
                                        arith::CmpFPredicate::ONE, r, zero64);
  Value rNegative = arith::CmpFOp::create(builder, loc,
                                          arith::CmpFPredicate::OLT, r, zero64);
  Value bits = arith::BitcastOp::create(builder, loc, i32, s32);
  auto i32Const = [&](int64_t v) {
    return splat(builder, loc, i32,
                 builder.getIntegerAttr(builder.getI32Type(), v));
  };
  Value one = i32Const(1);
  Value signMask = i32Const(static_cast<int32_t>(0x80000000u));
  Value magnitude = arith::AndIOp::create(builder, loc, bits,
                                          i32Const(0x7fffffff));
  Value isZero = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       magnitude, i32Const(0));
  Value even = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(builder, loc, bits, one), i32Const(0));
  // Away from zero (bits + 1) when s32 and the remainder share a sign,
  // towards zero (bits - 1) otherwise; from zero, the smallest subnormal
  // with the remainder's sign.
  Value sNegative = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(builder, loc, bits, signMask), i32Const(0));
  Value away = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                     sNegative, rNegative);
  Value stepped = arith::SelectOp::create(
      builder, loc, away, arith::AddIOp::create(builder, loc, bits, one),
      arith::SubIOp::create(builder, loc, bits, one));
  Value fromZero = arith::SelectOp::create(
      builder, loc, rNegative, arith::OrIOp::create(builder, loc, signMask, one),
      one);
  Value odd = arith::SelectOp::create(builder, loc, isZero, fromZero, stepped);
  Value adjust = arith::AndIOp::create(builder, loc, inexact, even);
  Value result = arith::SelectOp::create(builder, loc, adjust, odd, bits);
  Value rounded = arith::BitcastOp::create(builder, loc, f32, result);
  return arith::TruncFOp::create(builder, loc, type, rounded);
}

/// 2. f16/bf16 arithmetic through exact wider computations.
void widenHalfArithmetic(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
            math::SqrtOp, math::FmaOp>(op) &&
        isHalf(op->getResult(0).getType()))
      ops.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Type type = op->getResult(0).getType();
    Value result;
    if (auto fma = dyn_cast<math::FmaOp>(op)) {
      result = emitHalfFma(rewriter, loc, fma.getA(), fma.getB(), fma.getC());
    } else {
      Type f32 = withElementType(type, rewriter.getF32Type());
      SmallVector<Value> operands;
      for (Value operand : op->getOperands())
        operands.push_back(arith::ExtFOp::create(rewriter, loc, f32, operand));
      OperationState state(loc, op->getName().getStringRef(), operands, {f32});
      Operation *wide = rewriter.create(state);
      result = arith::TruncFOp::create(rewriter, loc, type, wide->getResult(0));
    }
    rewriter.replaceOp(op, result);
  }
}

/// Drops `contract` from every remaining float op.
void dropContractFlags(Operation *root) {
  root->walk([&](arith::ArithFastMathInterface op) {
    arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
    if (!flags || !bitEnumContainsAll(flags.getValue(),
                                      arith::FastMathFlags::contract))
      return;
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(),
                    flags.getValue() & ~arith::FastMathFlags::contract));
  });
}

struct FuseEmulateGpuFloatArithPass final
    : fuse::impl::FuseEmulateGpuFloatArithPassBase<
          FuseEmulateGpuFloatArithPass> {
  void runOnOperation() override {
    formFusedMultiplyAdds(getOperation());
    widenHalfArithmetic(getOperation());
    dropContractFlags(getOperation());
  }
};

} // namespace
