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

#endif // FUSEDIALECT_IR_FUSEOPS_H
