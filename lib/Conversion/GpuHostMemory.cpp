//===- GpuHostMemory.cpp - Host buffers the kernels can reach -------------===//
//
// After `convert-parallel-loops-to-gpu` the host code still allocates with
// `memref.alloc` (malloc) and passes its own arguments and constants to the
// launches. A kernel cannot dereference plain host memory:
//  * host allocations, in every host function (a buffer a kernel writes may
//    be returned and freed by a caller), become `gpu.alloc host_shared`
//    (managed memory, moved to the device on first touch) and their
//    deallocations `gpu.dealloc`;
//  * every other memref a launch reads or writes (function arguments,
//    globals) is registered with `gpu.host_register` (page-locked, mapped
//    into the device's address space) right before the launch;
//  * allocations inside a kernel (a tile's temporaries that were not put on
//    the stack because they sit in a loop) become one stack buffer per
//    thread at the kernel's entry, instead of device-side malloc.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEGPUHOSTMEMORYPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

bool isHostMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.getMemorySpace();
}

struct FuseGpuHostMemoryPass final
    : fuse::impl::FuseGpuHostMemoryPassBase<FuseGpuHostMemoryPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](func::FuncOp func) {
      if (func->getParentOfType<gpu::GPUModuleOp>())
        return;
      // Host allocations in managed memory.
      SmallVector<memref::AllocOp> allocs;
      func.walk([&](memref::AllocOp alloc) {
        if (isHostMemRef(alloc.getType()) &&
            !alloc->getParentOfType<gpu::LaunchOp>())
          allocs.push_back(alloc);
      });
      for (memref::AllocOp alloc : allocs) {
        rewriter.setInsertionPoint(alloc);
        auto shared = gpu::AllocOp::create(
            rewriter, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
            ValueRange{}, alloc.getDynamicSizes(), alloc.getSymbolOperands(),
            rewriter.getUnitAttr());
        rewriter.replaceOp(alloc, shared.getMemref());
      }
      SmallVector<memref::DeallocOp> deallocs;
      func.walk([&](memref::DeallocOp dealloc) {
        if (isHostMemRef(dealloc.getMemref().getType()) &&
            !dealloc->getParentOfType<gpu::LaunchOp>())
          deallocs.push_back(dealloc);
      });
      for (memref::DeallocOp dealloc : deallocs) {
        // The runtime lowering frees on a stream: wait, free, wait.
        rewriter.setInsertionPoint(dealloc);
        Location loc = dealloc.getLoc();
        Type token = gpu::AsyncTokenType::get(rewriter.getContext());
        Value ready =
            gpu::WaitOp::create(rewriter, loc, token, ValueRange{}).getAsyncToken();
        Value freed = gpu::DeallocOp::create(rewriter, loc, token,
                                             ValueRange{ready},
                                             dealloc.getMemref())
                          .getAsyncToken();
        gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{freed});
        rewriter.eraseOp(dealloc);
      }
      func.walk([&](gpu::LaunchOp launch) {
        // A tile's temporaries inside a kernel (up to 4096 elements):
        // per-thread stack buffers, allocated once at the kernel's entry
        // (each was allocated and freed within one loop iteration, so one
        // buffer serves all of them).
        SmallVector<memref::AllocOp> temporaries;
        launch.getBody().walk([&](memref::AllocOp alloc) {
          MemRefType type = alloc.getType();
          if (type.hasStaticShape() && isHostMemRef(type) &&
              type.getNumElements() * 4 <= (1 << 14))
            temporaries.push_back(alloc);
        });
        for (memref::AllocOp alloc : temporaries) {
          rewriter.setInsertionPointToStart(&launch.getBody().front());
          Value buffer = memref::AllocaOp::create(
              rewriter, alloc.getLoc(), alloc.getType(), ValueRange{},
              alloc.getAlignmentAttr());
          for (Operation *user : llvm::to_vector(alloc->getUsers()))
            if (isa<memref::DeallocOp>(user))
              rewriter.eraseOp(user);
          rewriter.replaceOp(alloc, buffer);
        }
        // Everything else the launch touches is registered before it.
        SetVector<Value> captured;
        getUsedValuesDefinedAbove(launch.getBody(), captured);
        rewriter.setInsertionPoint(launch);
        for (Value v : captured) {
          if (!isHostMemRef(v.getType()) || v.getDefiningOp<gpu::AllocOp>())
            continue;
          auto type = cast<MemRefType>(v.getType());
          auto unranked = UnrankedMemRefType::get(type.getElementType(),
                                                  type.getMemorySpace());
          Value cast = memref::CastOp::create(rewriter, launch.getLoc(),
                                              unranked, v);
          gpu::HostRegisterOp::create(rewriter, launch.getLoc(), cast);
        }
      });
    });
  }
};

} // namespace
