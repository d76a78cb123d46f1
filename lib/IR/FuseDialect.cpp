//===- FuseDialect.cpp - The fuse dialect ---------------------------------===//

#include "FuseDialect/IR/FuseDialect.h"

#include "FuseDialect/IR/FuseAttrs.h"
#include "FuseDialect/IR/FuseOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse;

#include "FuseDialect/IR/FuseDialect.cpp.inc"
#include "FuseDialect/IR/FuseEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "FuseDialect/IR/FuseAttrs.cpp.inc"

void FuseDialect::initialize() {
  registerAttributes();
  registerOps();
}

void FuseDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "FuseDialect/IR/FuseAttrs.cpp.inc"
      >();
}

LogicalResult FuseDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kMappingAttrName) {
    if (!isa<MappingTypeAttr>(attr.getValue()))
      return op->emitOpError() << "'" << kMappingAttrName
                               << "' must be a #fuse.mapping attribute, got "
                               << attr.getValue();
    return success();
  }
  if (attr.getName() == kGroupNestAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << kGroupNestAttrName << "' must be an integer attribute";
    return success();
  }
  return op->emitOpError() << "unknown fuse dialect attribute '"
                           << attr.getName().getValue() << "'";
}
