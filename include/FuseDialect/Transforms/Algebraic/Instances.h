//===- Instances.h - Canonical instances of algebraic rules -----*- C++ -*-===//
//
// Builds, for a rule, a function that computes its left-hand side on fresh
// arguments (tensor<2x4x4xf32>, i32 for integer rules, i1 for select
// predicates), in TOSA when TOSA has every operator of the rule and in
// arith/math on tensors otherwise. The catalogue printer prices rules on
// these instances; the rule tests rewrite them and run them.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_ALGEBRAIC_INSTANCES_H
#define FUSEDIALECT_TRANSFORMS_ALGEBRAIC_INSTANCES_H

#include "FuseDialect/Transforms/Algebraic/Rule.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::fuse::algebra {

/// Appends `func.func @<rule name>` computing the rule's left-hand side to
/// `module`. Returns null if no domain supports the rule.
func::FuncOp buildRuleInstance(ModuleOp module, const Rule &rule);

/// Prints docs/AlgebraicRules.md: one table row per rule with its family,
/// pattern, exactness and the cost of its canonical instance before and after
/// the rewrite.
void printRuleCatalogue(MLIRContext *context, llvm::raw_ostream &os);

} // namespace mlir::fuse::algebra

#endif // FUSEDIALECT_TRANSFORMS_ALGEBRAIC_INSTANCES_H
