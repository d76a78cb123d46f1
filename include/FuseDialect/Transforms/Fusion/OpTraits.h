//===- OpTraits.h - What the fusion planner asks of an op -------*- C++ -*-===//
//
// Small queries shared by the planner and its cost model: tensor sizes, row
// reductions, contractions, and how often a consumer reads each element of an
// operand. Derived from interfaces (linalg) and op semantics (TOSA).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_FUSION_OPTRAITS_H
#define FUSEDIALECT_TRANSFORMS_FUSION_OPTRAITS_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::fuse {

/// Elements of a shaped type; 1 for scalars and for dynamic shapes (the
/// planner only plans static shapes; callers that may see dynamic ones must
/// not rely on the count).
int64_t getNumElements(Type type);
/// Bytes per element; 4 for element types that are not ints or floats.
int64_t getElementBytes(Type type);

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

#endif // FUSEDIALECT_TRANSFORMS_FUSION_OPTRAITS_H
