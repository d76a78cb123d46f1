//===- BatchSeparability.h - Samples of a batch computed apart --*- C++ -*-===//
//
// Whether a function computes sample n of each result from sample n of its
// batch arguments alone, by the same function for every n. Then a model
// compiled for one sample serves every batch size, one call per sample
// (fuse-compile's dynamic batch). See BatchSeparability.cpp for the rules.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_ANALYSIS_BATCHSEPARABILITY_H
#define FUSEDIALECT_ANALYSIS_BATCHSEPARABILITY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::fuse {

/// Proves that `func`, linalg on tensors (with tensor and arith ops) at the
/// batch size `batch` (> 1), keeps the samples of a batch apart: the
/// arguments `batchArgs` carry the batch as their first dimension, every
/// result does too, and result sample n depends on argument sample n (and
/// on the other arguments and constants) alone, the same way for every n.
/// Emits an error at the first op that breaks it, naming why; never
/// changes the IR.
LogicalResult proveBatchSeparable(func::FuncOp func,
                                  ArrayRef<unsigned> batchArgs, int64_t batch);

} // namespace mlir::fuse

#endif // FUSEDIALECT_ANALYSIS_BATCHSEPARABILITY_H
