//===- VerifyInput.cpp - Refuse what the pipelines cannot handle ----------===//
//
// `--fuse-verify-input` walks every op once and refuses, with an error at the
// op, what parsed and verified but would make a later pass compute garbage
// or crash:
//  1. sizes: every static shaped type of a result or block argument must
//     have an element count and byte size that fit in 64 bits and at most
//     kMaxShapedBytes bytes: the tiler, the planner and the
//     cost model multiply element counts by element sizes, tile counts and
//     small factors, and this bound keeps all of those products in range;
//  2. inherent attributes: each must satisfy its op's constraint
//     (OperationName::verifyInherentAttrs), and the default-valued ones that
//     upstream's accessors read without a null check must be present. The
//     custom syntax of TOSA ops drops a `nan_mode` of the wrong kind (a
//     string) and leaves the property null: the parser and verifier accept
//     it, and the canonicalizer's clamp folding then dereferences it.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Transforms/VerifyInput.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEVERIFYINPUTPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

std::optional<int64_t> mlir::fuse::getCheckedByteSize(ShapedType type) {
  int64_t elements = 1;
  for (int64_t dim : type.getShape()) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim < 0 || llvm::MulOverflow(elements, dim, elements))
      return std::nullopt;
  }
  // Index elements (and anything else without a bit width) count 64 bits:
  // getIntOrFloatBitWidth is for integers and floats only (an index tensor
  // crashed it).
  Type element = type.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  int64_t bytes;
  if (llvm::MulOverflow(elements, std::max<int64_t>(1, bits / 8), bytes))
    return std::nullopt;
  return bytes;
}

/// Fails, with an error at `op`, if one of its results or its regions'
/// block arguments is larger than kMaxShapedBytes.
static LogicalResult verifySizes(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasRank())
      return success();
    std::optional<int64_t> bytes = getCheckedByteSize(shaped);
    if (bytes && *bytes <= kMaxShapedBytes)
      return success();
    return emitError(op->getLoc())
           << "type " << type << " is too large: more than " << kMaxShapedBytes
           << " bytes (2^40)";
  };
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument argument : block.getArguments())
        if (failed(check(argument.getType())))
          return failure();
  return success();
}

LogicalResult mlir::fuse::verifyInputSizes(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    return failed(verifySizes(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Default-valued inherent attributes that upstream reads without a null
/// check (docs/Reliability.md lists the upstream crashes these avoid).
static constexpr StringLiteral kAssumedPresent[] = {"nan_mode"};

/// Fails, with an error at `op`, if an inherent attribute breaks its
/// constraint or one upstream assumes present is missing.
static LogicalResult verifyInherentAttrs(Operation *op) {
  std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
  if (!name)
    return success();
  NamedAttrList inherent;
  name->populateInherentAttrs(op, inherent);
  if (failed(name->verifyInherentAttrs(
          inherent, [&] { return emitError(op->getLoc()); })))
    return failure();
  for (StringAttr attrName : name->getAttributeNames())
    if (llvm::is_contained(kAssumedPresent, attrName.getValue()) &&
        !inherent.get(attrName))
      return emitError(op->getLoc())
             << "'" << op->getName() << "' has no valid '"
             << attrName.getValue() << "' (an attribute of the wrong kind?)";
  return success();
}

namespace {

struct FuseVerifyInputPass final
    : fuse::impl::FuseVerifyInputPassBase<FuseVerifyInputPass> {
  // One walk: each op's sizes, then its attributes.
  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](Operation *op) {
      return failed(verifySizes(op)) || failed(verifyInherentAttrs(op))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
