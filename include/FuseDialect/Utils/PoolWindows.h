//===- PoolWindows.h - Pools whose windows tile their input ------*- C++ -*-===//
//
// The one definition of a pool over disjoint windows, asked by the planner
// (fusing a producer into such a pool recomputes nothing) and by the tiler
// (the producer is computed in the pool's loop nest and yielded from it):
// both must agree, or the planner would promise a fusion the tiler does not
// do.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_POOLWINDOWS_H
#define FUSEDIALECT_UTILS_POOLWINDOWS_H

#include "mlir/IR/Operation.h"

namespace mlir::fuse {

/// Whether `op` is a pool whose windows tile its input exactly: statically
/// shaped, stride = window, no padding, no dilation, and each spatial input
/// extent the output's times the window (every input element in exactly one
/// window). Its tiles read disjoint parts of the input that together cover
/// it, so its input's producer is computed once per element, with no halo.
/// TOSA max/avg pools (NHWC) and linalg pooling ops (NHWC max/sum/min,
/// NCHW max/sum).
bool isDisjointWindowPool(Operation *op);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_POOLWINDOWS_H
