//===- ApproximateMath.cpp - Polynomial f32 transcendental functions ------===//
//
// `math.exp` and friends lower to libm calls on the CPU, one call per vector
// lane. Upstream's polynomial approximations are plain arithmetic instead,
// so vector code stays vector code. The set is the one whose error
// test/Integration/approximate-math.mlir measures against libm.
//
// The logistic sigmoid, `1 / (1 + exp(-x))` as TOSA and linalg lower it, is
// rewritten first: its division is the costliest instruction of a SiLU or
// squeeze-and-excitation epilogue (one 512-bit divide issues every 10-16
// cycles; the whole exp polynomial takes about as long). Written as
//
//   e = exp(-|x|)                 in (0, 1]
//   d = 1 + e                     in (1, 2]
//   r = 1 / d                     a polynomial and two Newton steps
//   sigmoid(x) = x >= 0 ? r : e * r
//
// the reciprocal is only ever taken on [1, 2], where the quadratic that
// minimizes max |1 - d p(d)| is p(d) = (32 d^2 - 144 d + 210) / 99
// (1 - d p(d) is the Chebyshev polynomial T3(2d - 3) / 99), a relative error
// of 1/99. Each Newton step r += r (1 - d r) squares it: 1.0e-4, then
// 1.0e-8, below half an ulp. The exp, of an argument never positive, is
// Cephes' (as upstream's) without the clamps and conversions a positive one
// needs. Infinities, NaN and signed zeros come out as from the division.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEAPPROXIMATEMATHPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// The approximated functions: those whose upstream approximation stays
/// within a few ulp of libm over the whole f32 range. Not sin and cos (their
/// range reduction loses accuracy on large arguments), nor log and log2
/// (wrong by up to 5% on subnormal arguments).
bool isApproximated(StringRef name) {
  return llvm::is_contained(
      {math::ExpOp::getOperationName(), math::ExpM1Op::getOperationName(),
       math::Log1pOp::getOperationName(), math::ErfOp::getOperationName(),
       math::TanhOp::getOperationName()},
      name);
}

/// Builds f32 values of one scalar or shaped type at one location: the
/// constants and multiply-adds the sigmoid's expansion is made of.
struct F32Builder {
  OpBuilder &b;
  Location loc;
  Type type;

  Value constant(double value) const {
    return createScalarOrSplatConstant(b, loc, type, APFloat(float(value)));
  }
  Value fma(Value x, Value y, Value z) const {
    return math::FmaOp::create(b, loc, x, y, z);
  }
};

/// exp(t) for f32 `t` in [-inf, 0] or NaN: Cephes' expf (the polynomial
/// upstream's approximation uses too) without what a non-positive argument
/// does not need. No overflow clamp; one clamp at -88, below which the
/// power of two is 2^-127, whose bits are 0, so the result is 0 (as
/// upstream's, subnormal results are flushed). k = round(t / ln 2) by
/// adding 1.5 * 2^23 + 127 in the fma: the sum is an integer, k + 127 is
/// its low mantissa bits, and those shifted into the exponent field are
/// 2^k (k in [-127, 0]). 16 vector instructions instead of 21.
Value expOfNonPositive(const F32Builder &f, Value t) {
  auto [b, loc, type] = f;
  Type intType = b.getI32Type();
  if (auto shaped = dyn_cast<ShapedType>(type))
    intType = shaped.clone(intType);
  Value lowest = f.constant(-88.0);
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE, t,
                                      lowest); // NaN stays NaN.
  t = arith::SelectOp::create(b, loc, above, t, lowest);
  const double shifter = 12582912.0 + 127.0; // 1.5 * 2^23 + 127
  Value shifted =
      f.fma(t, f.constant(1.44269504088896341), f.constant(shifter));
  Value k = arith::SubFOp::create(b, loc, shifted, f.constant(shifter));
  Value r = f.fma(k, f.constant(-0.693359375), t);
  r = f.fma(k, f.constant(2.12194440e-4), r);
  Value p = f.constant(1.9875691500e-4);
  for (double c : {1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                   1.6666665459e-1, 5.0000001201e-1})
    p = f.fma(p, r, f.constant(c));
  Value r2 = arith::MulFOp::create(b, loc, r, r);
  Value expR = arith::AddFOp::create(b, loc, f.fma(p, r2, r), f.constant(1.0));
  Value bits = arith::ShLIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, intType, shifted),
      createScalarOrSplatConstant(b, loc, intType, 23));
  return arith::MulFOp::create(b, loc, expR,
                               arith::BitcastOp::create(b, loc, type, bits));
}

/// `1 / (1 + exp(-x))` on f32 (either order of the sum) without its
/// division, as in the file comment.
struct SigmoidApproximation final : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::DivFOp div,
                                PatternRewriter &rewriter) const override {
    Type type = div.getType();
    if (!getElementTypeOrSelf(type).isF32() ||
        !matchPattern(div.getLhs(), m_OneFloat()))
      return failure();
    auto sum = div.getRhs().getDefiningOp<arith::AddFOp>();
    if (!sum)
      return failure();
    auto exp = sum.getLhs().getDefiningOp<math::ExpOp>();
    Value one = sum.getRhs();
    if (!exp) {
      exp = sum.getRhs().getDefiningOp<math::ExpOp>();
      one = sum.getLhs();
    }
    if (!exp || !matchPattern(one, m_OneFloat()))
      return failure();
    auto negated = exp.getOperand().getDefiningOp<arith::NegFOp>();
    if (!negated)
      return failure();
    Value x = negated.getOperand();

    Location loc = div.getLoc();
    F32Builder f{rewriter, loc, type};
    Value unit = f.constant(1.0);
    Value e = expOfNonPositive(
        f, arith::NegFOp::create(rewriter, loc,
                                 math::AbsFOp::create(rewriter, loc, x)));
    Value d = arith::AddFOp::create(rewriter, loc, unit, e);
    Value r = f.fma(f.fma(f.constant(32.0 / 99), d, f.constant(-144.0 / 99)), d,
                    f.constant(210.0 / 99));
    Value negD = arith::NegFOp::create(rewriter, loc, d);
    for (int step = 0; step < 2; ++step)
      r = f.fma(r, f.fma(negD, r, unit), r);
    Value nonNegative = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGE, x, f.constant(0.0));
    Value small = arith::MulFOp::create(rewriter, loc, e, r);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(div, nonNegative, r, small);
    return success();
  }
};

/// The ops the rewrites may touch: those with only scalar and vector
/// results. Upstream's approximations build their constants as scalars or
/// vectors, so a tensor `math.exp` became ops the verifier refuses; tensor
/// code (before bufferization) is left as it is.
SmallVector<Operation *> getScalarAndVectorOps(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (op->getNumResults() > 0 &&
        llvm::all_of(op->getResultTypes(), [](Type type) {
          return !isa<ShapedType>(type) || isa<VectorType>(type);
        }))
      ops.push_back(op);
  });
  return ops;
}

struct FuseApproximateMathPass final
    : fuse::impl::FuseApproximateMathPassBase<FuseApproximateMathPass> {
  void runOnOperation() override {
    // Sigmoids first, while their exp is still one op to match.
    RewritePatternSet sigmoids(&getContext());
    sigmoids.add<SigmoidApproximation>(&getContext());
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(getScalarAndVectorOps(getOperation()),
                                       std::move(sigmoids), config)) ||
        failed(applyOpPatternsGreedily(getScalarAndVectorOps(getOperation()),
                                       std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
