//===- FuseAttrs.h - fuse dialect attributes --------------------*- C++ -*-===//

#ifndef FUSEDIALECT_IR_FUSEATTRS_H
#define FUSEDIALECT_IR_FUSEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "FuseDialect/IR/FuseEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "FuseDialect/IR/FuseAttrs.h.inc"

#endif // FUSEDIALECT_IR_FUSEATTRS_H
