//===- CompactKernelArguments.cpp - Kernel parameters within PTX's limit --===//
//
// fuse-compact-kernel-arguments (docs in Passes.td): a launch whose captured
// values would need more parameter bytes than the kernel may take gets its
// views sunk into it, then its statically strided memrefs passed as base
// buffers and rebuilt inside, each step only while it is still over; a
// launch still over is reported.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECOMPACTKERNELARGUMENTSPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Bytes of the kernel parameter(s) `value` becomes: a ranked memref's
/// descriptor (allocated and aligned pointers, offset, sizes, strides), 8
/// for anything else (scalars rounded up: parameters are 8-byte aligned
/// after a pointer).
int64_t parameterBytes(Value value) {
  if (auto type = dyn_cast<MemRefType>(value.getType()))
    return 8 * (3 + 2 * type.getRank());
  return 8;
}

int64_t parameterBytes(gpu::LaunchOp launch, SetVector<Value> &captured) {
  captured.clear();
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  int64_t bytes = 0;
  for (Value value : captured)
    bytes += parameterBytes(value);
  return bytes;
}

/// Computes only a view of, or a constant for, its operands: cloned into a
/// launch, it makes the launch capture its operands instead.
bool isSinkable(Operation *op) {
  if (!op || !isMemoryEffectFree(op) || op->getNumRegions() != 0)
    return false;
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<ViewLikeOpInterface, memref::CastOp>(op);
}

/// Clones `op` at the start of `launch`'s body and uses the clone there;
/// `op` goes if nothing else uses it.
void sinkInto(gpu::LaunchOp launch, Operation *op) {
  Region &body = launch.getBody();
  OpBuilder builder = OpBuilder::atBlockBegin(&body.front());
  Operation *clone = builder.clone(*op);
  for (auto [old, now] : llvm::zip(op->getResults(), clone->getResults()))
    replaceAllUsesInRegionWith(old, now, body);
  if (op->use_empty())
    op->erase();
}

/// Step 1: views and constants into the launch, to a fixed point.
void sinkViews(gpu::LaunchOp launch, int64_t maxBytes) {
  SetVector<Value> captured;
  while (parameterBytes(launch, captured) > maxBytes) {
    // The defining ops first: one op may define several captured values.
    SetVector<Operation *> sinkable;
    for (Value value : captured)
      if (isSinkable(value.getDefiningOp()))
        sinkable.insert(value.getDefiningOp());
    if (sinkable.empty())
      return;
    for (Operation *op : sinkable)
      sinkInto(launch, op);
  }
}

/// Whether `type` is rebuilt from its base buffer and offset alone.
bool hasStaticLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() > 0 && type.hasStaticShape() &&
         succeeded(type.getStridesAndOffset(strides, offset)) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Step 2: `value` passed as its 0-d base buffer (and its offset, where
/// dynamic), rebuilt at the start of the launch.
void passAsBase(gpu::LaunchOp launch, Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  OpBuilder builder(launch);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, value.getLoc(), value);
  Region &body = launch.getBody();
  builder.setInsertionPointToStart(&body.front());
  OpFoldResult offsetValue = ShapedType::isDynamic(offset)
                                 ? OpFoldResult(metadata.getOffset())
                                 : OpFoldResult(builder.getIndexAttr(offset));
  SmallVector<OpFoldResult> sizes, strideValues;
  for (int64_t size : type.getShape())
    sizes.push_back(builder.getIndexAttr(size));
  for (int64_t stride : strides)
    strideValues.push_back(builder.getIndexAttr(stride));
  auto rebuilt = memref::ReinterpretCastOp::create(
      builder, value.getLoc(), type, metadata.getBaseBuffer(), offsetValue,
      sizes, strideValues);
  replaceAllUsesInRegionWith(value, rebuilt, body);
}

struct FuseCompactKernelArgumentsPass final
    : fuse::impl::FuseCompactKernelArgumentsPassBase<
          FuseCompactKernelArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([&](gpu::LaunchOp launch) {
      SetVector<Value> captured;
      if (parameterBytes(launch, captured) <= maxBytes)
        return WalkResult::advance();
      sinkViews(launch, maxBytes);
      // Step 2, largest descriptors first.
      int64_t bytes = parameterBytes(launch, captured);
      SmallVector<Value> memrefs;
      for (Value value : captured)
        if (auto type = dyn_cast<MemRefType>(value.getType());
            type && hasStaticLayout(type))
          memrefs.push_back(value);
      llvm::stable_sort(memrefs, [](Value a, Value b) {
        return parameterBytes(a) > parameterBytes(b);
      });
      for (Value value : memrefs) {
        if (bytes <= maxBytes)
          break;
        passAsBase(launch, value);
        bytes = parameterBytes(launch, captured);
      }
      if (bytes <= maxBytes)
        return WalkResult::advance();
      launch.emitError() << "the kernel needs " << bytes
                         << " bytes of parameters for " << captured.size()
                         << " values, more than the "
                         << static_cast<int64_t>(maxBytes)
                         << " it may take, even with every statically "
                            "strided buffer passed as its base pointer";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
