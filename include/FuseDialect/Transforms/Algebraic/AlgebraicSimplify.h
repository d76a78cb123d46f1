//===- AlgebraicSimplify.h - Cost-driven algebraic rewriting ----*- C++ -*-===//
//
// The engine behind `--fuse-algebraic-simplify`: matches the rules of
// Algebraic/Rules.def on TOSA and arith/math IR, prices every candidate
// rewrite with the cost model (flops and memory traffic, with tensor sizes),
// and applies the most profitable ones first until none is left.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_ALGEBRAIC_ALGEBRAICSIMPLIFY_H
#define FUSEDIALECT_TRANSFORMS_ALGEBRAIC_ALGEBRAICSIMPLIFY_H

#include "FuseDialect/Transforms/Algebraic/Domain.h"
#include "FuseDialect/Transforms/Algebraic/Rule.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::fuse {

struct AlgebraicSimplifyOptions {
  /// Only rules that are exact under IEEE arithmetic (no reassociation, no
  /// change of NaN/Inf/-0 results).
  bool strict = false;
  /// Apply every match, profitable or not, in one round (rule testing).
  bool ignoreCost = false;
  /// Restrict to these rules (by name); empty means all.
  SmallVector<std::string> onlyRules;
  /// Upper bound on rewrite rounds.
  unsigned maxIterations = 1000;
};

struct AlgebraicSimplifyStats {
  int64_t fired[3] = {0, 0, 0}; ///< indexed by algebra::RuleFamily
  int64_t flopsSaved = 0;
  int64_t bytesSaved = 0;
  /// Elementwise ops over constants folded to constants.
  int64_t folded = 0;
  /// The driver stopped at `maxIterations` with rewrites possibly left.
  bool hitIterationLimit = false;
  /// Rewrite rounds run.
  unsigned rounds = 0;
  llvm::StringMap<int64_t> firedPerRule;

  int64_t totalFired() const { return fired[0] + fired[1] + fired[2]; }
};

/// Rewrites the ops nested under `scope` in place. Rewrites are applied only
/// when they lower the cost (largest saving first); commutative rules that
/// keep the cost unchanged are applied only when they enable a profitable
/// rewrite right after. A rewrite whose matched intermediate values are used
/// elsewhere keeps those values alive, and their cost is not counted as
/// saved, so duplicating shared work never looks profitable.
AlgebraicSimplifyStats simplifyAlgebraically(Operation *scope,
                                             const AlgebraicSimplifyOptions &options);

/// Replaces the elementwise ops under `scope` all of whose operands are
/// float constants by constants (chains fold in one walk, in program order),
/// as the simplifier does before its first round; returns how many folded.
/// Each element is evaluated in double precision and rounded once to the
/// element type: for +, -, *, / and sqrt the value the op computes; for
/// transcendental functions a value that may differ from the lowered op's
/// in the last bit.
int64_t foldConstantElementwiseOps(Operation *scope);

/// The cost of every op under `scope` that the algebra domains price.
algebra::OpCost computeAlgebraicCost(Operation *scope);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_ALGEBRAIC_ALGEBRAICSIMPLIFY_H
