//===- TestSerializeLaunches.cpp - Run GPU launches as CPU loops ----------===//
//
// Lets the CPU check the numbers of the GPU lowering's kernels, which no test
// machine can run. `--fuse-test-serialize-launches` turns each `gpu.launch`
// into host loops over its blocks:
//
//  * A launch without barriers or block reductions (threads independent: the
//    thread-per-tile mapping) loops over every thread of every block:
//    exactly the kernel's semantics.
//  * A launch whose threads cooperate (fuse-distribute-tiles) runs each
//    block as a block of one thread: thread id 0, block size 1, barriers
//    dropped, `gpu.all_reduce` of one value is that value. Every iteration
//    the kernel shares among threads is then done by that thread, through
//    the same code: tile indexing, shared-memory and scratch temporaries,
//    payloads, the split reductions' neutral elements and final combine.
//
// Shared memory becomes a stack buffer per block, device scratch a heap
// buffer. `--fuse-test-lower-to-cpu-via-gpu` is --fuse-lower-to-nvvm up to
// the launches, this pass, then the CPU lowering; fuse-diff runs it against
// the unfused program.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Pipelines.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/Codegen/GPU/Pipelines.h"
#include "FuseDialect/PipelineRegistration.h"
#include "TestLaunches.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using fuse::test::hostType;

Type fuse::test::hostType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return type;
  return MemRefType::Builder(memref).setMemorySpace(Attribute());
}

void fuse::test::deviceMemoryToHost(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<Operation *> gpuOps;
  root->walk([&](Operation *op) {
    if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::WaitOp, gpu::HostRegisterOp>(
            op))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    rewriter.setInsertionPoint(op);
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      Value buffer = memref::AllocOp::create(
          rewriter, op->getLoc(), alloc.getMemref().getType(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          rewriter.getI64IntegerAttr(64));
      rewriter.replaceAllUsesWith(alloc.getMemref(), buffer);
    } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
      memref::DeallocOp::create(rewriter, op->getLoc(), dealloc.getMemref());
    }
  }
  // Last first: a token's users go before the op producing it.
  for (Operation *op : llvm::reverse(gpuOps))
    rewriter.eraseOp(op);
}

namespace {

struct TestSerializeLaunchesPass
    : PassWrapper<TestSerializeLaunchesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSerializeLaunchesPass)

  StringRef getArgument() const final {
    return "fuse-test-serialize-launches";
  }
  StringRef getDescription() const final {
    return "Run gpu.launch ops as host loops (to check kernels on the CPU)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      launches.push_back(launch);
    });
    for (gpu::LaunchOp launch : launches)
      if (failed(serialize(rewriter, launch)))
        return signalPassFailure();
    fuse::test::deviceMemoryToHost(getOperation());
  }

  LogicalResult serialize(IRRewriter &rewriter, gpu::LaunchOp launch) {
    if (launch.getAsyncToken() || !launch.getPrivateAttributions().empty() ||
        !launch.getBody().hasOneBlock())
      return launch.emitError("unsupported launch");
    // Warp-wide ops need the warp's 32 threads at once.
    WalkResult warpWide = launch.getBody().walk([](Operation *op) {
      return op->getDialect() && op->getDialect()->getNamespace() == "nvgpu"
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (warpWide.wasInterrupted())
      return launch.emitError("unsupported launch: nvgpu ops (warp-wide "
                              "mma.sync) cannot run one thread at a time");
    bool cooperative = false;
    launch.getBody().walk([&](Operation *op) {
      if (isa<gpu::BarrierOp, gpu::AllReduceOp, gpu::SubgroupReduceOp,
              gpu::ShuffleOp>(op))
        cooperative = true;
    });
    Location loc = launch.getLoc();
    rewriter.setInsertionPoint(launch);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    IRMapping map;
    gpu::KernelDim3 gridArgs = launch.getGridSize();
    gpu::KernelDim3 blockArgs = launch.getBlockSize();
    map.map(gridArgs.x, grid.x);
    map.map(gridArgs.y, grid.y);
    map.map(gridArgs.z, grid.z);
    SmallVector<Value> bounds = {grid.z, grid.y, grid.x};
    SmallVector<Value> ids = {launch.getBlockIds().z, launch.getBlockIds().y,
                              launch.getBlockIds().x};
    if (cooperative) {
      map.map(blockArgs.x, one);
      map.map(blockArgs.y, one);
      map.map(blockArgs.z, one);
      map.map(launch.getThreadIds().x, zero);
      map.map(launch.getThreadIds().y, zero);
      map.map(launch.getThreadIds().z, zero);
    } else {
      map.map(blockArgs.x, block.x);
      map.map(blockArgs.y, block.y);
      map.map(blockArgs.z, block.z);
      bounds.append({block.z, block.y, block.x});
      ids.append({launch.getThreadIds().z, launch.getThreadIds().y,
                  launch.getThreadIds().x});
    }
    // One buffer per shared-memory attribution, reused by every block.
    for (BlockArgument buffer : launch.getWorkgroupAttributions())
      map.map(buffer, memref::AllocaOp::create(
                          rewriter, loc,
                          cast<MemRefType>(hostType(buffer.getType())),
                          /*alignment=*/rewriter.getI64IntegerAttr(16)));
    for (auto [bound, id] : llvm::zip(bounds, ids)) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, bound, one);
      map.map(id, loop.getInductionVar());
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    for (Operation &op : launch.getBody().front().without_terminator()) {
      Operation *copy = rewriter.clone(op, map);
      copy->walk([&](Operation *nested) {
        for (Value result : nested->getResults())
          result.setType(hostType(result.getType()));
      });
    }
    // Inside the copy: one thread per block for cooperating threads.
    Operation *parent = rewriter.getInsertionBlock()->getParentOp();
    SmallVector<Operation *> threadOps;
    parent->walk([&](Operation *op) {
      if (isa<gpu::BarrierOp, gpu::AllReduceOp>(op))
        threadOps.push_back(op);
    });
    for (Operation *op : threadOps) {
      if (auto reduce = dyn_cast<gpu::AllReduceOp>(op))
        rewriter.replaceOp(reduce, reduce.getValue());
      else
        rewriter.eraseOp(op);
    }
    rewriter.eraseOp(launch);
    return success();
  }
};

void buildLowerToCPUViaGpuPipeline(OpPassManager &pm,
                                   const fuse::LowerToNVVMOptions &options) {
  // A block runs as one thread: a warp's mma.sync cannot, so the matmuls
  // that would take tensor cores take the scalar path here.
  fuse::buildGroupsToGpuLaunches(pm, options, /*tensorCores=*/false);
  // Launches over the parameter limit rebuilt as the kernels rebuild them.
  pm.addPass(fuse::createFuseCompactKernelArgumentsPass(
      {options.kernelParameterBytes}));
  pm.addPass(std::make_unique<TestSerializeLaunchesPass>());
  // The kernels' float arithmetic as the PTX computes it, on any host.
  pm.addPass(fuse::createFuseEmulateGpuFloatArithPass());
  fuse::buildLoopsToLLVMPipeline(pm, /*parallel=*/false);
}

} // namespace

namespace mlir::fuse::test {
void registerTestSerializeLaunchesPasses() {
  registerTestEmulateLaunchesPasses();
  PassRegistration<TestSerializeLaunchesPass>();
  fuse::registerModulePipeline<fuse::LowerToNVVMOptions>(
      "fuse-test-lower-to-cpu-via-gpu",
      "The GPU lowering up to its launches, run on the CPU: each launch as "
      "host loops (fuse-test-serialize-launches), then the CPU lowering",
      buildLowerToCPUViaGpuPipeline);
}
} // namespace mlir::fuse::test
