//===- LowerToCPU.cpp - The --fuse-lower-to-cpu pipeline ------------------===//
//
// Lowers a module of TOSA, linalg-on-tensors and `fuse.group` ops to the LLVM
// dialect so that it runs under `mlir-runner`. After dissolving the groups the
// stages are exactly the upstream TOSA → linalg → loops lowering, so the
// output of a fused program can be compared number for number with the
// unfused one (utils/fuse-diff).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Pipelines.h"

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/PipelineRegistration.h"
#include "FuseDialect/Transforms/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::buildLowerToCPUPipeline(OpPassManager &pm,
                                         const LowerToCPUOptions &options) {
  // 1-3. One loop nest per group, vector code inside the tiles (the tile's
  //      intermediates are registers), TOSA to linalg, bufferization.
  std::optional<TilePolicy> policy;
  if (options.tileGroups) {
    policy = TilePolicy::forCpu();
    policy->minTileElements = options.minTileElements;
    policy->partialTiles = options.partialTiles;
    policy->contractionTile = options.contractionTile;
    policy->padInProducers = options.padInProducers;
  }
  buildTileGroupsPipeline(pm, policy);
  if (options.tileGroups && options.packConstantTiles)
    pm.addPass(createFusePackConstantTilesPass());
  if (options.tileGroups && options.vectorize) {
    FuseVectorizeTilesPassOptions vectorOptions;
    vectorOptions.reassociate = options.reassociate;
    vectorOptions.fma = options.fma;
    vectorOptions.packOperands = options.pack;
    vectorOptions.blockRows = options.blockRows;
    vectorOptions.blockCols = options.blockCols;
    vectorOptions.reductionChunk = options.reductionChunk;
    vectorOptions.l2Bytes = options.l2Bytes;
    vectorOptions.fuseEpilogues = options.epilogues;
    pm.addPass(createFuseVectorizeTilesPass(vectorOptions));
    if (options.packConstantPanels)
      pm.addPass(createFusePackConstantPanelsPass());
  }
  buildBufferizeGroupsPipeline(pm);
  //    With out-params, a result's own buffer becomes the caller's (no
  //    copy after the call); before deallocation, which then frees every
  //    buffer the function allocates.
  //    The caller's buffers overlap nothing else (llvm.noalias), so a
  //    group computing a result still merges its nests below.
  if (options.outParams)
    pm.addPass(createFuseResultsToOutParamsPass());

  // 4. A tile's temporaries are allocated once, outside the tile loops.
  //    Free what bufferization allocated; lower the clones it leaves (e.g.
  //    for a returned constant).
  //    The independent tile loops of one group become one loop. In
  //    parallel, a loop big enough for the cores keeps its temporaries per
  //    tile (heap); smaller ones run on the calling thread (ThreadTiles.cpp).
  if (options.tileGroups)
    pm.addNestedPass<func::FuncOp>(createFuseMergeGroupNestsPass());
  if (options.parallel) {
    FuseThreadTilesPassOptions threadOptions;
    threadOptions.minParallelWork = options.minParallelWork;
    pm.addNestedPass<func::FuncOp>(createFuseThreadTilesPass(threadOptions));
  } else {
    pm.addNestedPass<func::FuncOp>(createForallToForLoopPass());
    pm.addNestedPass<func::FuncOp>(
        bufferization::createBufferLoopHoistingPass());
  }
  bufferization::buildBufferDeallocationPipeline(pm);
  // A padded window's buffer filled only outside the box its copy writes,
  // while the copy is still one op (memref.copy) to match.
  if (options.fillHalos)
    pm.addNestedPass<func::FuncOp>(createFuseFillHalosPass());
  // Strided copies (a convolution tile's padded window) as vectorizable
  // loops instead of the runtime's element-by-element memrefCopy.
  FuseCopiesToLinalgPassOptions copyOptions;
  copyOptions.stridedOnly = true;
  if (options.tileGroups && options.vectorize)
    copyOptions.vectorBytes = 2 * CpuDescription::host().vectorBytes;
  pm.addNestedPass<func::FuncOp>(createFuseCopiesToLinalgPass(copyOptions));
  pm.addPass(createConvertBufferizationToMemRefPass());
  //    Deallocation frees each buffer at the end of its block: the
  //    function's temporaries instead share one buffer by liveness.
  if (options.planBuffers)
    pm.addNestedPass<func::FuncOp>(createFusePlanBuffersPass());
  //    A transposed chunk of short rows (an NCHW image's 16 pixels by its
  //    3 channels, in a first convolution's tile) written as one flat
  //    vector where its rows lie end to end.
  if (options.tileGroups && options.vectorize)
    pm.addNestedPass<func::FuncOp>(createFuseFlattenNarrowRowsPass());
  //    A register block's epilogue reads and stores asked for before its
  //    reduction loop, so that their misses overlap the multiplies.
  if (options.tileGroups && options.vectorize && options.prefetchEpilogues)
    pm.addNestedPass<func::FuncOp>(createFusePrefetchEpiloguesPass());
  //    The right operand each block step reads, asked for 4 KB ahead (or,
  //    for a run-time B's column panel, the next panel), so that a weight
  //    streamed from L3 or memory keeps the loads fed.
  if (options.tileGroups && options.vectorize && options.prefetchStreams)
    pm.addNestedPass<func::FuncOp>(createFusePrefetchStreamsPass());

  // 5. Vector code (from fuse-vectorize-tiles) to 1-D vectors: n-D transfers
  //    unrolled, reductions along the innermost dimension as ordered
  //    `vector.reduction`s (the same summation order as a scalar loop).
  if (options.tileGroups && options.vectorize) {
    pm.addPass(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
    pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
        vector::VectorMultiReductionLowering::InnerReduction));
  }

  // 6. f32 transcendental functions as polynomials (vector code stays
  //    vector code), loops, then the LLVM dialect.
  if (options.approximateMath)
    pm.addPass(createFuseApproximateMathPass());
  buildLoopsToLLVMPipeline(pm, options.parallel, options.runtimeAllocator);
}

void mlir::fuse::buildLoopsToLLVMPipeline(OpPassManager &pm, bool parallel,
                                          bool runtimeAllocator) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  if (parallel) {
    // Tile loops to OpenMP worksharing loops; their alloca scopes (empty:
    // temporaries are on the heap) fold away before scf-to-cf.
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Math ops with an LLVM intrinsic first (rsqrt has no libm symbol), the
  // rest (erf, ...) as libm calls.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Vector ops need their own lowering to 1-D LLVM vectors first
  // (broadcasts, transposes, shape casts); ordered FP reductions.
  pm.addPass(createConvertVectorToLLVMPass());
  // Heap memory through functions the runtime defines (a workspace kept
  // between calls) before convert-to-llvm lowers it to malloc and free.
  if (runtimeAllocator) {
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    memrefOptions.useGenericFunctions = true;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  }
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult LowerToCPUOptions::validate(OptionError error) const {
  if (failed(checkOptionRange(error, "min-tile-elements", minTileElements, 1,
                              int64_t(1) << 40)))
    return failure();
  if (failed(checkOptionRange(error, "block-rows", blockRows, 0, 64)) ||
      failed(checkOptionRange(error, "block-cols", blockCols, 0, 1024)) ||
      failed(checkOptionRange(error, "reduction-chunk", reductionChunk, 0,
                              int64_t(1) << 40)) ||
      failed(checkOptionRange(error, "l2-bytes", l2Bytes, 0, int64_t(1) << 40)))
    return failure();
  if (failed(checkOptionRange(error, "min-parallel-work", minParallelWork, 0,
                              std::numeric_limits<int64_t>::max())))
    return failure();
  return checkOptionRange(error, "contraction-tile", contractionTile, 0,
                          1 << 16);
}

void mlir::fuse::registerLowerToCPUPipeline() {
  registerModulePipeline<LowerToCPUOptions>(
      "fuse-lower-to-cpu",
      "Lower TOSA, linalg-on-tensors and fuse.group ops to the LLVM dialect "
      "for execution with mlir-runner",
      buildLowerToCPUPipeline);
}
