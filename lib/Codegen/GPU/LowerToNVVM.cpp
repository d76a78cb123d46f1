//===- LowerToNVVM.cpp - The --fuse-lower-to-nvvm pipeline ----------------===//
//
// Lowers a module of TOSA, linalg-on-tensors and `fuse.group` ops to host
// code with one `gpu.launch_func` per group (per loop nest of a group, see
// fuse-tile-groups) and a `gpu.binary` holding the kernels for an NVIDIA
// target. `format=isa` (PTX text) needs no GPU and no CUDA runtime.
//
//  1. Each group becomes one `scf.forall` over its tiles (fuse-tile-groups:
//     up to `tile-elements` results per tile, rows of a reduction whole,
//     matmuls and their epilogues in `contraction-tile` squares), then is
//     dissolved in place.
//  2. The rest of the module goes to linalg, and everything is bufferized
//     with identity layouts at function boundaries.
//  3. Each tile loop becomes one `gpu.launch` with a block per tile
//     (fuse-distribute-tiles): the tile's temporaries in shared memory (or a
//     per-block slice of device scratch), each structured op a loop strided
//     by the block size with a barrier after it, elementwise ops on 16-byte
//     vectors where the buffers are aligned, row reductions split among the
//     threads (gpu.all_reduce: warp shuffles and shared memory), matmul
//     and convolution operands staged in shared memory chunk by chunk and
//     register-tiled (on tensor cores, mma.sync, for f16 and bf16 operands
//     and, with `tf32`, f32 ones). A tile loop the pass
//     cannot take (and every loop with `distribute=false`) runs one tile per
//     thread instead: a one-dimensional `scf.parallel` split into blocks of
//     `block-size` tiles, mapped to blocks and threads. Host buffers the
//     launches touch become managed or registered memory
//     (fuse-gpu-host-memory).
//  4. Upstream's gpu-lower-to-nvvm-pipeline steps: outlining (a launch
//     whose captured buffers would exceed PTX's parameter space first
//     compacted by fuse-compact-kernel-arguments; shared-memory
//     buffers aligned to 16 bytes), NVVM (bf16 mma.sync first, by
//     fuse-lower-bf16-mma), host calls to the mgpu* runtime (lib/Runtime),
//     serialization for `chip`, with libdevice from `cuda-path` linked for
//     math functions.
//
// Not yet: wgmma; ops left outside groups run as host loops.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Pipelines.h"

#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/Codegen/GPU/Passes.h"
#include "FuseDialect/PipelineRegistration.h"
#include "FuseDialect/Target/TargetDescription.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::fuse;

/// Whether a temporary may become a per-thread stack buffer: statically
/// shaped, at most 64 KiB, and never merged with other buffers (yielded
/// out of a region, passed into a loop or a call, selected). Upstream's
/// promotion skips an allocation with a deallocation of its own, but not
/// one whose deallocation is that of a value merging it with others (a
/// branch of a partial tile's `scf.if` yielding it): the merged value would
/// still be freed, and freeing a stack buffer corrupts the heap.
static bool isPromotableToStack(Value alloc) {
  auto type = dyn_cast<MemRefType>(alloc.getType());
  Operation *def = alloc.getDefiningOp();
  if (!type || !type.hasStaticShape() || !isa_and_present<memref::AllocOp>(def))
    return false;
  unsigned bits =
      DataLayout::closest(def).getTypeSizeInBits(type.getElementType());
  if (type.getNumElements() * bits > (int64_t{1} << 16) * 8)
    return false;
  SmallVector<Value> worklist = {alloc};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<RegionBranchOpInterface, CallOpInterface, arith::SelectOp>(user))
        return false;
      if (isa<ViewLikeOpInterface, memref::CastOp>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return true;
}

void mlir::fuse::buildGroupsToGpuLaunches(OpPassManager &pm,
                                          const LowerToNVVMOptions &options,
                                          bool tensorCores) {
  // 1-2. One loop nest per group, a tile per output element (or row);
  //      everything else to linalg; bufferize, with deallocation.
  //      Without distribute, a tile is one output element (or row).
  TilePolicy policy = TilePolicy::forGpu();
  policy.minTileElements = options.distribute ? options.tileElements : 1;
  policy.contractionTile = options.distribute ? options.contractionTile : 0;
  policy.contractionTiles = options.contractionTiles;
  policy.partialTiles = options.partialTiles;
  buildTileGroupsPipeline(pm, policy);
  buildBufferizeGroupsPipeline(pm);
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  // 3. Tile loops to blocks and threads, one gpu.launch per loop nest.
  OpPassManager &gpuPm = pm.nest<func::FuncOp>();
  gpuPm.addPass(createFuseCopiesToLinalgPass());
  if (options.distribute) {
    FuseDistributeTilesPassOptions distributeOptions;
    distributeOptions.blockSize = options.blockSize;
    distributeOptions.cooperativeReductions = options.cooperativeReductions;
    distributeOptions.tf32 = tensorCores && options.tf32;
    distributeOptions.tensorCores = tensorCores && options.tensorCores;
    distributeOptions.fma = options.fma;
    distributeOptions.stageInputs = options.stageInputs;
    distributeOptions.implicitGemm = options.implicitGemm;
    gpuPm.addPass(createFuseDistributeTilesPass(distributeOptions));
    gpuPm.addPass(createFuseMergeGroupLaunchesPass());
  }
  gpuPm.addPass(createForallToParallelLoopPass());
  gpuPm.addPass(createFuseLinearizeTileLoopsPass());
  gpuPm.addPass(createConvertLinalgToLoopsPass());
  gpuPm.addPass(
      bufferization::createPromoteBuffersToStackPass(isPromotableToStack));
  gpuPm.addPass(createParallelLoopTilingPass(
      {static_cast<int64_t>(options.blockSize)}, /*noMinMaxBounds=*/true));
  // No canonicalization here: it would merge the two levels back into one.
  gpuPm.addPass(createGpuMapParallelLoopsPass());
  gpuPm.addPass(createConvertParallelLoopToGpuPass());
}

void mlir::fuse::buildLowerToNVVMPipeline(OpPassManager &pm,
                                          const LowerToNVVMOptions &options) {
  buildGroupsToGpuLaunches(pm, options);
  pm.addPass(createFuseGpuHostMemoryPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());

  // 4. Kernels to NVVM and a binary for the chip; host code to LLVM. This
  //    is upstream's gpu-lower-to-nvvm-pipeline, plus libdevice (math
  //    functions such as __nv_expf) and the toolkit for ptxas.
  pm.addPass(createFuseLowerBF16MmaPass());
  pm.addPass(createConvertNVGPUToNVVMPass());
  // Constants the canonicalizer hoisted out of the launches go back in:
  // outlined, they would be kernel parameters, and the kernels' index
  // arithmetic (tile and thread delinearization) would divide by values
  // unknown to the backend (64-bit divisions instead of shifts and
  // multiplications).
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(
      createFuseCompactKernelArgumentsPass({options.kernelParameterBytes}));
  pm.addPass(createGpuKernelOutliningPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createFuseAnnotateKernelsPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  std::string libdevice =
      options.cudaPath.getValue() + "/nvvm/libdevice/libdevice.10.bc";
  if (llvm::sys::fs::exists(libdevice))
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.cudaPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult LowerToNVVMOptions::validate(OptionError error) const {
  if (failed(checkOptionRange(error, "block-size", blockSize, 1,
                              GpuDescription::kMaxBlockThreads)) ||
      failed(checkOptionRange(error, "opt-level", optLevel, 0, 3)) ||
      failed(checkOptionRange(error, "kernel-parameter-bytes",
                              kernelParameterBytes, 0, int64_t(1) << 20)) ||
      failed(checkOptionRange(error, "tile-elements", tileElements, 1,
                              int64_t(1) << 40)) ||
      failed(checkOptionRange(error, "contraction-tile", contractionTile, 1,
                              1 << 16)) ||
      failed(checkOptionRange(error, "contraction-tiles", contractionTiles, 1,
                              1 << 30)))
    return failure();
  StringRef kind = format;
  if (kind != "isa" && kind != "bin" && kind != "fatbin")
    return error("option 'format' must be isa, bin or fatbin, not '" + kind +
                 "'");
  // The chip and features the NVPTX back end knows (one source: LLVM).
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return error("the NVPTX back end is not available: " + lookupError);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(chip))
    return error("option 'chip': '" + chip +
                 "' is not an NVIDIA chip LLVM knows (e.g. sm_90)");
  SmallVector<StringRef> requested;
  StringRef(features).split(requested, ',', -1, /*KeepEmpty=*/false);
  for (StringRef feature : requested) {
    StringRef name = feature.drop_front();
    bool known = llvm::any_of(subtarget->getAllProcessorFeatures(),
                              [&](const llvm::SubtargetFeatureKV &kv) {
                                return name == kv.Key;
                              });
    if (!(feature.starts_with("+") || feature.starts_with("-")) || !known)
      return error("option 'features': '" + feature +
                   "' is not +/- an NVPTX feature (e.g. +ptx80)");
  }
  return success();
}

void mlir::fuse::registerLowerToNVVMPipeline() {
  registerModulePipeline<LowerToNVVMOptions>(
      "fuse-lower-to-nvvm",
      "Lower TOSA, linalg-on-tensors and fuse.group ops to host code with "
      "one gpu.launch_func per group and a gpu.binary for an NVIDIA chip",
      buildLowerToNVVMPipeline);
}
