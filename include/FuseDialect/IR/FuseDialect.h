//===- FuseDialect.h - The fuse dialect -------------------------*- C++ -*-===//

#ifndef FUSEDIALECT_IR_FUSEDIALECT_H
#define FUSEDIALECT_IR_FUSEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "FuseDialect/IR/FuseDialect.h.inc"

#endif // FUSEDIALECT_IR_FUSEDIALECT_H
