//===- ApproximateMath.cpp - Polynomial f32 transcendental functions ------===//
//
// `math.exp` and friends lower to libm calls on the CPU, one call per vector
// lane. Upstream's polynomial approximations are plain arithmetic instead,
// so vector code stays vector code. The set is the one whose error
// test/Integration/approximate-math.mlir measures against libm.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
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

struct FuseApproximateMathPass final
    : fuse::impl::FuseApproximateMathPassBase<FuseApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
