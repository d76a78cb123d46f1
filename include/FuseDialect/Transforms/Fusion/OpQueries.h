//===- OpQueries.h - What the fusion planner asks of an op ------*- C++ -*-===//
//
// Small queries shared by the planner and its cost model: row reductions, contractions, and how often a consumer reads each element of an
// operand. Derived from interfaces (linalg) and op semantics (TOSA).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_FUSION_OPQUERIES_H
#define FUSEDIALECT_TRANSFORMS_FUSION_OPQUERIES_H

#include "FuseDialect/Utils/ShapeUtils.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::fuse {

/// A reduction of one axis of a statically shaped tensor.
struct RowReduction {
  SmallVector<int64_t> inputShape;
  int64_t axis;
};

/// `op` as a single-axis reduction (tosa.reduce_*, tosa.argmax, linalg ops
/// with one reduction loop and projected-permutation maps).
std::optional<RowReduction> getRowReduction(Operation *op);

/// Matrix products (tosa.matmul, linalg contractions).
/// A `linalg.fill` of a constant into an empty or rematerializable tensor:
/// an accumulator's initialization, no data. Groups recompute it where they
/// need it (like a constant) instead of reading it; it is never a kernel.
bool isFreeInitializer(Operation *op);

bool isContraction(Operation *op);

/// Elementwise-like ops (elementwise traits, TOSA elementwise, linalg
/// all-parallel ops with projected-permutation maps).
bool isElementwiseLike(Operation *op);

/// How many times `consumer` reads each element of its operand `value`.
double getReadsPerElement(Operation *consumer, Value value);

/// Flops to compute one element of `op`'s result.
double getFlopsPerResultElement(Operation *op);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_FUSION_OPQUERIES_H
