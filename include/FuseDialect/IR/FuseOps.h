//===- FuseOps.h - fuse dialect operations ----------------------*- C++ -*-===//

#ifndef FUSEDIALECT_IR_FUSEOPS_H
#define FUSEDIALECT_IR_FUSEOPS_H

#include "FuseDialect/IR/FuseAttrs.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "FuseDialect/IR/FuseOps.h.inc"

namespace mlir::fuse {
/// Ops a group recomputes in its body instead of reading as an input:
/// nullary, region-free, memory-effect-free ops with one result (constants,
/// `tensor.empty` destinations). They carry no data a kernel must load.
bool isRematerializable(Operation *op);
} // namespace mlir::fuse

#endif // FUSEDIALECT_IR_FUSEOPS_H
