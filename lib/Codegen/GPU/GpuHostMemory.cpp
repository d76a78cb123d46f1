//===- GpuHostMemory.cpp - Host buffers the kernels can reach -------------===//
//
// After `convert-parallel-loops-to-gpu` the host code still allocates with
// `memref.alloc` (malloc) and passes its own arguments and constants to the
// launches. A kernel cannot dereference plain host memory:
//  * host allocations, in every host function (a buffer a kernel writes may
//    be returned and freed by a caller), become `gpu.alloc host_shared`
//    (managed memory, moved to the device on first touch) and their
//    deallocations `gpu.dealloc`;
//  * a constant global a launch reads (weights, folded parameters) is read
//    from a device copy: `func.call @fuse_device_constant_<type>` (the
//    runtime copies the global to device memory on the first call and
//    returns that copy from then on), so that kernels read weights from HBM
//    rather than across PCIe on every access;
//  * every other memref a launch reads or writes (function arguments,
//    mutable globals) is registered with `gpu.host_register` (page-locked,
//    mapped into the device's address space) right before the launch;
//  * allocations inside a kernel (a tile's temporaries that were not put on
//    the stack because they sit in a loop) become one stack buffer per
//    thread at the kernel's entry, instead of device-side malloc.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include <functional>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEGPUHOSTMEMORYPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

bool isHostMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && !memref.getMemorySpace();
}

/// The device copy of the constant global `getGlobal` reads, as a memref of
/// the same type, created right after `getGlobal`; null when the global is
/// not a constant of a static, contiguous shape and a plain element type
/// (then it stays host memory, registered before each launch). The runtime
/// entry `_mlir_ciface_fuse_device_constant_<elt>` takes and returns a 1-D
/// descriptor; it copies each constant once per process.
Value createDeviceConstant(RewriterBase &rewriter, memref::GetGlobalOp getGlobal,
                           SymbolTableCollection &symbols) {
  auto global = symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  MemRefType type = getGlobal.getType();
  Type element = type.getElementType();
  // The element types lib/Runtime has an entry for.
  bool supported = element.isF16() || element.isBF16() || element.isF32() ||
                   element.isF64() || element.isSignlessInteger(1) ||
                   element.isSignlessInteger(8) ||
                   element.isSignlessInteger(16) ||
                   element.isSignlessInteger(32) ||
                   element.isSignlessInteger(64);
  if (!global || !global.getConstant() || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || !isHostMemRef(type) || !supported)
    return {};
  std::string name;
  llvm::raw_string_ostream(name) << "fuse_device_constant_" << element;
  auto module = getGlobal->getParentOfType<ModuleOp>();
  MLIRContext *ctx = rewriter.getContext();
  auto flat = MemRefType::get({ShapedType::kDynamic}, element);
  auto callee = symbols.lookupSymbolIn<func::FuncOp>(module,
                                                     StringAttr::get(ctx, name));
  if (!callee) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    callee = func::FuncOp::create(rewriter, module.getLoc(), name,
                                  rewriter.getFunctionType(flat, flat));
    callee.setPrivate();
    callee->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    rewriter.getUnitAttr());
    symbols.getSymbolTable(module).insert(callee);
  }
  Location loc = getGlobal.getLoc();
  rewriter.setInsertionPointAfter(getGlobal);
  int64_t count = type.getNumElements();
  Value asVector = memref::ReinterpretCastOp::create(
      rewriter, loc, MemRefType::get({count}, element), getGlobal.getResult(),
      /*offset=*/0, /*sizes=*/ArrayRef<int64_t>{count},
      /*strides=*/ArrayRef<int64_t>{1});
  Value dynamic = memref::CastOp::create(rewriter, loc, flat, asVector);
  Value device =
      func::CallOp::create(rewriter, loc, callee, ValueRange{dynamic})
          .getResult(0);
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  return memref::ReinterpretCastOp::create(rewriter, loc, type, device,
                                           /*offset=*/0, type.getShape(),
                                           strides);
}

struct FuseGpuHostMemoryPass final
    : fuse::impl::FuseGpuHostMemoryPassBase<FuseGpuHostMemoryPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SymbolTableCollection symbols;
    SmallVector<func::FuncOp> funcs;
    getOperation()->walk([&](func::FuncOp func) {
      if (!func.isExternal() && !func->getParentOfType<gpu::GPUModuleOp>())
        funcs.push_back(func);
    });
    for (func::FuncOp func : funcs) {
      // The device copy of each constant global (made once per function)
      // and of each view of one (reshapes, subviews), made right after the
      // host view; null where the value is not such a view.
      DenseMap<Value, Value> deviceViews;
      std::function<Value(Value)> getDeviceView = [&](Value v) -> Value {
        auto it = deviceViews.find(v);
        if (it != deviceViews.end())
          return it->second;
        Value device;
        OpBuilder::InsertionGuard guard(rewriter);
        if (auto getGlobal = v.getDefiningOp<memref::GetGlobalOp>()) {
          device = createDeviceConstant(rewriter, getGlobal, symbols);
        } else if (auto view = v.getDefiningOp<ViewLikeOpInterface>()) {
          if (Value source = getDeviceView(view.getViewSource())) {
            IRMapping mapping;
            mapping.map(view.getViewSource(), source);
            rewriter.setInsertionPointAfter(view);
            Operation *clone = rewriter.clone(*view, mapping);
            device = clone->getResult(cast<OpResult>(v).getResultNumber());
          }
        }
        deviceViews[v] = device;
        return device;
      };
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
          if (!isHostMemRef(v.getType()))
            continue;
          // Device-reachable already: managed allocations and their views.
          Value root = v;
          while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
            root = view.getViewSource();
          if (root.getDefiningOp<gpu::AllocOp>())
            continue;
          if (Value device = getDeviceView(v)) {
            rewriter.replaceUsesWithIf(v, device, [&](OpOperand &use) {
              return launch->isProperAncestor(use.getOwner());
            });
            continue;
          }
          auto type = cast<MemRefType>(v.getType());
          auto unranked = UnrankedMemRefType::get(type.getElementType(),
                                                  type.getMemorySpace());
          Value cast = memref::CastOp::create(rewriter, launch.getLoc(),
                                              unranked, v);
          gpu::HostRegisterOp::create(rewriter, launch.getLoc(), cast);
        }
      });
    }
  }
};

} // namespace
