//===- TestEmulateLaunches.cpp - Every GPU thread as a CPU thread ---------===//
//
// `--fuse-test-emulate-launches` runs each `gpu.launch` on the CPU as the GPU
// runs it: every block in turn, and each block's threads as a team of real
// threads (one OpenMP parallel region of blockDim threads), so that the
// threads of a block interleave, meet at barriers and share memory as on the
// device. What fuse-test-serialize-launches folds away (a block as one
// thread, barriers dropped, tensor cores off) is kept:
//
//  * `gpu.barrier` waits for the whole block (GpuEmulatorRuntime.cpp); one
//    not reached by every thread is reported, not hung on.
//  * Shared memory (the launch's workgroup buffers) is one buffer per block
//    that all its threads use; every load and store of it is checked for
//    data races: two threads touching one byte between the same two
//    barriers, one writing (a missing barrier).
//  * Each kernel is first lowered as convert-gpu-to-nvvm lowers it: outlined,
//    its control flow turned into blocks, each `gpu.all_reduce` turned into
//    upstream's warp shuffles, shared buffer and barriers. A `gpu.shuffle
//    xor` is warp-wide among its member lanes (the first `width`, the mask
//    upstream gives shfl.sync): each posts its value, the members meet, each
//    reads lane ^ offset's value (its own, invalid, past `width`).
//  * `nvgpu.mma.sync` m16n8k16 on f16/bf16 fragments (f32 accumulators) is
//    warp-wide: each lane gives its A and B fragments to the warp, the warp
//    synchronizes, and each lane computes its own C/D elements from the
//    whole A and B, every fragment element placed where the PTX ISA puts it
//    (A: lane 4g+t holds rows g, g+8 and columns 2t, 2t+1, 2t+8, 2t+9; B:
//    rows 2t, 2t+1, 2t+8, 2t+9 of column g; C/D: rows g, g+8, columns 2t,
//    2t+1), summing in f32 in k order. A kernel that puts a fragment
//    element elsewhere computes wrong numbers here.
//
// Not modelled: timing, the GPU's memory model beyond barriers (warps are
// not lock-step; code that relies on implicit warp synchrony is not
// supported, as on Volta and later), global-memory races, and TF32
// mma.sync.
//
// The emulated program calls the runtime (libfuse_gpu_emulator.so) and the
// OpenMP runtime (libomp.so): both go to mlir-runner's -shared-libs.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Pipelines.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/Codegen/GPU/Pipelines.h"
#include "FuseDialect/PipelineRegistration.h"
#include "TestLaunches.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using fuse::test::hostType;

namespace {

constexpr int64_t kWarpSize = 32;

struct TestEmulateLaunchesPass
    : PassWrapper<TestEmulateLaunchesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestEmulateLaunchesPass)


  StringRef getArgument() const final { return "fuse-test-emulate-launches"; }
  StringRef getDescription() const final {
    return "Run gpu.launch ops on the CPU with every thread of a block as a "
           "thread (barriers, shared memory race checks, warp shuffles, "
           "warp-wide mma.sync)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                    func::FuncDialect,
                    memref::MemRefDialect, omp::OpenMPDialect,
                    scf::SCFDialect, vector::VectorDialect>();
  }

  /// Mutations, for showing that the tests see what they check (set by
  /// the fuse-test-emulate-gpu pipeline's options).
  struct Mutations {
    bool swapFragmentRows = false;
    int dropBarrier = -1;
  } mutations;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    if (launches.empty())
      return;
    declareRuntime(module);
    // Where each kernel is lowered as for NVVM before it is emulated.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto scratch =
        gpu::GPUModuleOp::create(builder, module.getLoc(), "fuse_emulated");
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(launch, scratch)))
        return signalPassFailure();
    scratch.erase();
    fuse::test::deviceMemoryToHost(module);
  }

  void declareRuntime(ModuleOp module) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
    auto declare = [&](StringRef name, TypeRange args, TypeRange results) {
      if (module.lookupSymbol(name))
        return;
      auto func = func::FuncOp::create(builder, module.getLoc(), name,
                                       builder.getFunctionType(args, results));
      func.setPrivate();
    };
    declare("fuse_emu_block_begin", {i32}, {});
    declare("fuse_emu_shared_buffer", {i64, i64, i32}, {});
    declare("fuse_emu_thread_begin", {i32, i32}, {});
    declare("fuse_emu_barrier", {i32}, {});
    declare("fuse_emu_warp_barrier", {i32}, {});
    declare("fuse_emu_warp_sync", {i32, i32}, {});
    declare("fuse_emu_shared_access", {i64, i64, i32, i32}, {});
    declare("omp_get_thread_num", {}, {i32});
    declare("omp_get_num_threads", {}, {i32});
  }

  static Value call(OpBuilder &builder, Location loc, StringRef name,
                    ValueRange args, TypeRange results = {}) {
    auto op = func::CallOp::create(builder, loc, name, results, args);
    return results.empty() ? Value() : op.getResult(0);
  }

  /// The launch's kernel as the GPU lowering gives it to NVVM: outlined
  /// (captured values become arguments), its structured control flow turned
  /// into blocks and each `gpu.all_reduce` into upstream's shuffles, shared
  /// buffer and barriers (what convert-gpu-to-nvvm does), in a scratch
  /// gpu.module. Null when a step fails (reported).
  gpu::GPUFuncOp lowerLikeTheKernel(gpu::LaunchOp launch,
                                    gpu::GPUModuleOp scratch,
                                    SmallVectorImpl<Value> &operands) {
    gpu::GPUFuncOp func = outlineKernelFunc(launch, "emulated", operands);
    scratch.getBody()->push_back(func);
    RewritePatternSet toBlocks(func.getContext());
    populateSCFToControlFlowConversionPatterns(toBlocks);
    ConversionTarget target(*func.getContext());
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(func, target, std::move(toBlocks))))
      return func.emitError("emulated launch: structured control flow"), nullptr;
    RewritePatternSet allReduce(func.getContext());
    populateGpuAllReducePatterns(allReduce);
    if (failed(applyPatternsGreedily(scratch, std::move(allReduce))))
      return func.emitError("emulated launch: all_reduce lowering"), nullptr;
    bool left = false;
    func.walk([&](gpu::AllReduceOp reduce) {
      reduce.emitError("emulated launch: all_reduce not lowered");
      left = true;
    });
    return left ? nullptr : func;
  }

  LogicalResult emulate(gpu::LaunchOp launch, gpu::GPUModuleOp scratch) {
    if (launch.getAsyncToken() || !launch.getPrivateAttributions().empty())
      return launch.emitError("unsupported launch");
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    std::optional<int64_t> threads = getConstantIntValue(block.x);
    if (!threads || getConstantIntValue(block.y) != 1 ||
        getConstantIntValue(block.z) != 1 || *threads < 1 || *threads > 1024)
      return launch.emitError("unsupported launch: a block of a constant "
                              "1-D size up to 1024 threads is emulated");
    SmallVector<Value> operands;
    gpu::GPUFuncOp kernel = lowerLikeTheKernel(launch, scratch, operands);
    if (!kernel)
      return failure();
    Location loc = launch.getLoc();
    OpBuilder builder(launch);
    Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    Value zero = index(0), one = index(1);
    IRMapping map;
    for (auto [argument, operand] :
         llvm::zip_equal(kernel.getArguments(), operands))
      map.map(argument, operand);

    // Buffers shared by the block's threads, allocated once per launch:
    // the workgroup buffers (the kernel's and each all_reduce's) and the
    // warps' fragments.
    SmallVector<Value> shared;
    for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
      Value host = memref::AllocOp::create(
          builder, loc, cast<MemRefType>(hostType(buffer.getType())),
          builder.getI64IntegerAttr(16));
      map.map(buffer, host);
      shared.push_back(host);
    }
    bool hasMma = false;
    kernel.walk([&](nvgpu::MmaSyncOp) { hasMma = true; });
    int64_t warps = (*threads + kWarpSize - 1) / kWarpSize;
    Value fragmentsA, fragmentsB;
    if (hasMma) {
      fragmentsA = memref::AllocOp::create(
          builder, loc,
          MemRefType::get({warps * kWarpSize * 8}, builder.getF32Type()));
      fragmentsB = memref::AllocOp::create(
          builder, loc,
          MemRefType::get({warps * kWarpSize * 4}, builder.getF32Type()));
    }

    Value threadCount = arith::ConstantIntOp::create(builder, loc, i32, *threads);
    call(builder, loc, "fuse_emu_block_begin", {threadCount});
    // The attributions past the launch's own are the all_reduce lowering's.
    size_t kernelBuffers = launch.getWorkgroupAttributions().size();
    for (auto [i, buffer] : llvm::enumerate(shared)) {
      auto type = cast<MemRefType>(buffer.getType());
      Value pointer = arith::IndexCastOp::create(
          builder, loc, i64,
          memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer));
      Value bytes = arith::ConstantIntOp::create(
          builder, loc, i64,
          type.getNumElements() * type.getElementTypeBitWidth() / 8);
      Value warpOrdered = arith::ConstantIntOp::create(
          builder, loc, i32, i >= kernelBuffers ? 1 : 0);
      call(builder, loc, "fuse_emu_shared_buffer",
           {pointer, bytes, warpOrdered});
    }

    // Threads that synchronize (barriers, warp-wide ops) are one team of
    // real threads for the whole launch, which runs the blocks one after
    // another, meeting at a barrier between two blocks (the next block
    // reuses the shared buffers). Independent threads (exactly the kernel's
    // semantics) are a loop inside each block.
    bool cooperative = false;
    kernel.walk([&](Operation *op) {
      if (isa<gpu::BarrierOp, gpu::SubgroupReduceOp, gpu::ShuffleOp,
              nvgpu::MmaSyncOp>(op))
        cooperative = true;
    });
    Value tid, tid32;
    // Where per-launch buffers go: before the team or the block loops.
    Operation *blockLoops = nullptr;
    if (cooperative) {
      omp::ParallelOperands clauses;
      clauses.numThreads = threadCount;
      auto team = omp::ParallelOp::create(builder, loc, clauses);
      blockLoops = team;
      Block *body = builder.createBlock(&team.getRegion());
      builder.setInsertionPointToStart(body);
      omp::TerminatorOp::create(builder, loc);
      builder.setInsertionPointToStart(body);
      tid32 = call(builder, loc, "omp_get_thread_num", {}, {i32});
      Value teamSize = call(builder, loc, "omp_get_num_threads", {}, {i32});
      call(builder, loc, "fuse_emu_thread_begin", {tid32, teamSize});
      tid = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                       tid32);
    }
    SmallVector<Value> bounds = {grid.z, grid.y, grid.x};
    SmallVector<Value> blockIds(3);
    for (auto [i, bound] : llvm::enumerate(bounds)) {
      auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
      if (!blockLoops)
        blockLoops = loop;
      blockIds[2 - i] = loop.getInductionVar();
      builder.setInsertionPointToStart(loop.getBody());
    }
    if (cooperative) {
      // The block boundary, before the block's first op.
      call(builder, loc, "fuse_emu_barrier", {tid32});
    } else {
      auto loop = scf::ForOp::create(builder, loc, zero, block.x, one);
      builder.setInsertionPointToStart(loop.getBody());
      tid = loop.getInductionVar();
      tid32 = arith::IndexCastOp::create(builder, loc, i32, tid);
    }

    // The kernel's blocks, run by each thread: one region whose returns
    // end the thread's part of the block; the kernel's ids and sizes are
    // the loops' and the launch's.
    auto body = scf::ExecuteRegionOp::create(builder, loc, TypeRange{});
    IRRewriter rewriter(launch.getContext());
    rewriter.cloneRegionBefore(kernel.getBody(), body.getRegion(),
                               body.getRegion().end(), map);
    SmallVector<Value> threadIds = {tid, zero, zero};
    SmallVector<Value> blockSizes = {block.x, block.y, block.z};
    SmallVector<Value> gridSizes = {grid.x, grid.y, grid.z};
    WalkResult unsupported = body.walk([&](Operation *op) -> WalkResult {
      rewriter.setInsertionPoint(op);
      for (Value result : op->getResults())
        result.setType(hostType(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &nested : region)
          for (BlockArgument argument : nested.getArguments())
            argument.setType(hostType(argument.getType()));
      auto dimension = [](auto dimOp) {
        return static_cast<unsigned>(dimOp.getDimension());
      };
      if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
        rewriter.replaceOp(op, threadIds[dimension(id)]);
      else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
        rewriter.replaceOp(op, blockIds[dimension(id)]);
      else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
        rewriter.replaceOp(op, blockSizes[dimension(size)]);
      else if (auto size = dyn_cast<gpu::GridDimOp>(op))
        rewriter.replaceOp(op, gridSizes[dimension(size)]);
      else if (isa<gpu::ReturnOp>(op))
        rewriter.replaceOpWithNewOp<scf::YieldOp>(op);
      else if (isa<gpu::GPUDialect>(op->getDialect()) &&
               !isa<gpu::BarrierOp, gpu::ShuffleOp>(op))
        return op->emitError("emulated launch: unsupported ") << op->getName();
      return WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return failure();

    // Synchronization, shared-memory checks and warp-wide ops, per thread.
    llvm::SmallPtrSet<Value, 8> sharedSet(shared.begin(), shared.end());
    SmallVector<Operation *> toRewrite;
    body.walk([&](Operation *op) { toRewrite.push_back(op); });
    int barrierIndex = 0;
    for (Operation *op : toRewrite) {
      rewriter.setInsertionPoint(op);
      Location opLoc = op->getLoc();
      if (isa<gpu::BarrierOp>(op)) {
        if (barrierIndex++ != mutations.dropBarrier)
          call(rewriter, opLoc, "fuse_emu_barrier", {tid32});
        rewriter.eraseOp(op);
      } else if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
        if (failed(emulateShuffle(rewriter, shuffle, blockLoops, tid, tid32,
                                  warps)))
          return failure();
      } else if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op)) {
        if (failed(emulateMma(rewriter, mma, tid, tid32, fragmentsA,
                              fragmentsB)))
          return failure();
      } else {
        checkSharedAccess(rewriter, op, sharedSet, tid32);
      }
    }
    rewriter.eraseOp(kernel);
    rewriter.eraseOp(launch);
    return success();
  }

  /// The root buffer of `value` through views.
  static Value getRoot(Value value) {
    while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
      value = view.getViewSource();
    return value;
  }

  /// Reports a load or store of shared memory to the race checker.
  void checkSharedAccess(OpBuilder &builder, Operation *op,
                         const llvm::SmallPtrSetImpl<Value> &shared,
                         Value tid32) {
    Value memref;
    ValueRange indices;
    int64_t elements = 1;
    bool write = false;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      memref = load.getMemRef();
      indices = load.getIndices();
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      memref = store.getMemRef();
      indices = store.getIndices();
      write = true;
    } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
      memref = load.getBase();
      indices = load.getIndices();
      elements = load.getVectorType().getNumElements();
    } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
      memref = store.getBase();
      indices = store.getIndices();
      elements = store.getVectorType().getNumElements();
      write = true;
    } else {
      return;
    }
    if (!shared.contains(getRoot(memref)))
      return;
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(memref.getType());
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    auto metadata =
        memref::ExtractStridedMetadataOp::create(builder, loc, memref);
    Value linear = metadata.getOffset();
    for (auto [i, index] : llvm::enumerate(indices))
      linear = arith::AddIOp::create(
          builder, loc, linear,
          arith::MulIOp::create(builder, loc, index, metadata.getStrides()[i]));
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc,
                                                                memref);
    Value address = arith::AddIOp::create(
        builder, loc, base,
        arith::MulIOp::create(
            builder, loc, linear,
            arith::ConstantIndexOp::create(builder, loc, elementBytes)));
    Type i64 = builder.getI64Type(), i32 = builder.getI32Type();
    call(builder, loc, "fuse_emu_shared_access",
         {arith::IndexCastOp::create(builder, loc, i64, address),
          arith::ConstantIntOp::create(builder, loc, i64,
                                       elements * elementBytes),
          arith::ConstantIntOp::create(builder, loc, i32, write ? 1 : 0),
          tid32});
  }

  /// `gpu.shuffle xor` as PTX's `shfl.sync.bfly` with the member mask
  /// upstream's NVVM lowering gives it (the first `width` lanes of the
  /// warp): each member lane posts its value, the members meet, each reads
  /// lane `lane ^ offset`'s value if that lane is below `width` (else its
  /// own, valid = false), and the members meet again before the slots are
  /// reused. A lane outside the mask that shuffles, or a member that does
  /// not, is reported by the runtime.
  LogicalResult emulateShuffle(IRRewriter &rewriter, gpu::ShuffleOp shuffle,
                               Operation *blockLoops, Value tid, Value tid32,
                               int64_t warps) {
    Location loc = shuffle.getLoc();
    Type type = shuffle.getShuffleResult().getType();
    if (shuffle.getMode() != gpu::ShuffleMode::XOR || !type.isIntOrFloat())
      return shuffle.emitError("emulated gpu.shuffle: xor of a scalar only");
    // A slot per lane for the op, before the launch's block loops.
    Value slots;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(blockLoops);
      slots = memref::AllocOp::create(rewriter, loc,
                                      MemRefType::get({warps * kWarpSize}, type));
    }
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto toIndex = [&](Value v) {
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        v)
          .getResult();
    };
    Value lane = arith::RemUIOp::create(rewriter, loc, tid, index(kWarpSize));
    Value warpBase = arith::SubIOp::create(rewriter, loc, tid, lane);
    Value source = arith::XOrIOp::create(rewriter, loc, lane,
                                         toIndex(shuffle.getOffset()));
    Value width = toIndex(shuffle.getWidth());
    Value valid = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, source,
                              width),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, source,
                              index(kWarpSize)));
    memref::StoreOp::create(rewriter, loc, shuffle.getValue(), slots, tid);
    call(rewriter, loc, "fuse_emu_warp_sync", {tid32, shuffle.getWidth()});
    Value from = arith::SelectOp::create(
        rewriter, loc, valid,
        arith::AddIOp::create(rewriter, loc, warpBase, source), tid);
    Value value = memref::LoadOp::create(rewriter, loc, slots, from);
    call(rewriter, loc, "fuse_emu_warp_sync", {tid32, shuffle.getWidth()});
    rewriter.replaceOp(shuffle, {value, valid});
    return success();
  }

  /// One lane's part of a warp's mma.sync m16n8k16 (see the file header).
  LogicalResult emulateMma(IRRewriter &rewriter, nvgpu::MmaSyncOp mma,
                           Value tid, Value tid32, Value fragmentsA,
                           Value fragmentsB) {
    VectorType a = mma.getMatrixA().getType();
    VectorType b = mma.getMatrixB().getType();
    VectorType c = mma.getMatrixC().getType();
    Type element = a.getElementType();
    if (mma.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        !(element.isF16() || element.isBF16()) ||
        a.getShape() != ArrayRef<int64_t>{4, 2} ||
        b.getShape() != ArrayRef<int64_t>{2, 2} ||
        c.getShape() != ArrayRef<int64_t>{2, 2})
      return mma.emitError("emulated mma.sync: m16n8k16 on f16/bf16 "
                           "fragments only");
    Location loc = mma.getLoc();
    Type f32 = rewriter.getF32Type();
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto add = [&](Value x, Value y) {
      return arith::AddIOp::create(rewriter, loc, x, y).getResult();
    };
    auto mul = [&](Value x, int64_t y) {
      return arith::MulIOp::create(rewriter, loc, x, index(y)).getResult();
    };
    auto div = [&](Value x, int64_t y) {
      return arith::DivUIOp::create(rewriter, loc, x, index(y)).getResult();
    };
    auto rem = [&](Value x, int64_t y) {
      return arith::RemUIOp::create(rewriter, loc, x, index(y)).getResult();
    };
    Value lane = rem(tid, kWarpSize);
    Value warpBase = mul(div(tid, kWarpSize), kWarpSize);
    // The lane's fragments to the warp.
    auto toF32 = [&](Value v) -> Value {
      return v.getType() == f32 ? v
                                : arith::ExtFOp::create(rewriter, loc, f32, v)
                                      .getResult();
    };
    // Fragment `value` (registers x 2 elements) to the lane's slots.
    auto give = [&](Value value, Value slots) {
      int64_t registers = cast<VectorType>(value.getType()).getDimSize(0);
      for (int64_t r = 0; r < registers; ++r)
        for (int64_t e = 0; e < 2; ++e) {
          Value v = vector::ExtractOp::create(rewriter, loc, value,
                                              ArrayRef<int64_t>{r, e});
          Value slot = add(mul(add(warpBase, lane), registers * 2),
                           index(r * 2 + e));
          memref::StoreOp::create(rewriter, loc, toF32(v), slots,
                                  ValueRange{slot});
        }
    };
    give(mma.getMatrixA(), fragmentsA);
    give(mma.getMatrixB(), fragmentsB);
    call(rewriter, loc, "fuse_emu_warp_barrier", {tid32});
    // The lane's C/D elements: rows g and g+8, columns 2t and 2t+1.
    Value g = div(lane, 4), t = rem(lane, 4);
    SmallVector<Value> results;
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t e = 0; e < 2; ++e) {
        Value row = add(g, index(8 * r));
        Value col = add(mul(t, 2), index(e));
        Value init = toF32(vector::ExtractOp::create(
            rewriter, loc, mma.getMatrixC(), ArrayRef<int64_t>{r, e}));
        auto loop = scf::ForOp::create(rewriter, loc, index(0), index(16),
                                       index(1), ValueRange{init});
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(loop.getBody());
        Value k = loop.getInductionVar();
        Value kPair = div(rem(k, 8), 2), kHigh = div(k, 8), kOdd = rem(k, 2);
        // A[row][k]: lane 4 (row % 8) + (k % 8) / 2, register
        // row / 8 + 2 (k / 8), element k % 2.
        Value aRowHalf = div(row, 8);
        if (mutations.swapFragmentRows)
          aRowHalf = arith::SubIOp::create(rewriter, loc, index(1), aRowHalf);
        Value aLane = add(mul(rem(row, 8), 4), kPair);
        Value aSlot = add(mul(add(aRowHalf, mul(kHigh, 2)), 2), kOdd);
        Value aValue = memref::LoadOp::create(
            rewriter, loc, fragmentsA,
            ValueRange{add(mul(add(warpBase, aLane), 8), aSlot)});
        // B[k][col]: lane 4 col + (k % 8) / 2, register k / 8, element
        // k % 2.
        Value bLane = add(mul(col, 4), kPair);
        Value bSlot = add(mul(kHigh, 2), kOdd);
        Value bValue = memref::LoadOp::create(
            rewriter, loc, fragmentsB,
            ValueRange{add(mul(add(warpBase, bLane), 4), bSlot)});
        Value product = arith::MulFOp::create(rewriter, loc, aValue, bValue);
        Value sum = arith::AddFOp::create(rewriter, loc,
                                          loop.getRegionIterArgs()[0], product);
        scf::YieldOp::create(rewriter, loc, sum);
        rewriter.setInsertionPointAfter(loop);
        results.push_back(loop.getResult(0));
      }
    // No lane's fragments may be overwritten before every lane has read.
    call(rewriter, loc, "fuse_emu_warp_barrier", {tid32});
    Type cElement = c.getElementType();
    if (cElement != f32)
      for (Value &v : results)
        v = arith::TruncFOp::create(rewriter, loc, cElement, v);
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(mma, c, results);
    return success();
  }
};

/// The GPU lowering's options, and the emulator's mutations.
struct EmulateGpuOptions : fuse::LowerToNVVMOptions {
  Option<bool> mutateFragmentRows{
      *this, "mutate-fragment-rows",
      llvm::cl::desc("Test only: the emulator swaps rows g and g+8 of the "
                     "A fragment (a wrong lane layout)"),
      llvm::cl::init(false)};
  Option<int> dropBarrier{
      *this, "drop-barrier",
      llvm::cl::desc("Test only: drop the N-th gpu.barrier of each launch"),
      llvm::cl::init(-1)};
};

void buildEmulateGpuPipeline(OpPassManager &pm,
                             const EmulateGpuOptions &options) {
  fuse::buildGroupsToGpuLaunches(pm, options, options.tensorCores);
  auto emulate = std::make_unique<TestEmulateLaunchesPass>();
  emulate->mutations = {options.mutateFragmentRows, options.dropBarrier};
  pm.addPass(std::move(emulate));
  pm.addPass(fuse::createFuseEmulateGpuFloatArithPass());
  fuse::buildLoopsToLLVMPipeline(pm, /*parallel=*/false);
}

} // namespace

void fuse::test::registerTestEmulateLaunchesPasses() {
  PassRegistration<TestEmulateLaunchesPass>();
  fuse::registerModulePipeline<EmulateGpuOptions>(
      "fuse-test-emulate-gpu",
      "The GPU lowering up to its launches, run on the CPU with every thread "
      "of a block as a thread (fuse-test-emulate-launches), then the CPU "
      "lowering; link libomp and libfuse_gpu_emulator",
      buildEmulateGpuPipeline);
}
