//===- Pipelines.cpp - The stages both lowerings share --------------------===//
//
// Both lowerings start the same way: verify the input, clamp run-time
// indices, tile every group into one loop nest (fuse-tile-groups, with the
// target's TilePolicy), dissolve the groups, lower the rest of TOSA and
// bufferize the module. Between tiling and dissolving, a target may rewrite
// the tiles' bodies (the CPU vectorizes them).
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/Common/Pipelines.h"

#include "FuseDialect/Codegen/Common/Passes.h"
#include "FuseDialect/Transforms/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::fuse;

void mlir::fuse::buildTileGroupsPipeline(OpPassManager &pm,
                                         std::optional<TilePolicy> policy) {
  // 0. Nothing too large or malformed for the passes below; run-time
  //    gather/scatter indices kept inside their buffers.
  pm.addPass(createFuseVerifyInputPass());
  pm.addPass(createFuseClampIndicesPass());
  // 1. One group is one kernel: one loop nest over the tiles of its root,
  //    everything else computed per tile; then the nest is emitted in place.
  if (!policy)
    return;
  FuseTileGroupsPassOptions tileOptions;
  tileOptions.minTileElements = policy->minTileElements;
  tileOptions.contractionTile = policy->contractionTile;
  tileOptions.contractionTiles = policy->contractionTiles;
  tileOptions.partialTiles = policy->partialTiles;
  tileOptions.convolutionsAsMatmuls = policy->convolutionsAsMatmuls;
  tileOptions.contiguousFilters = policy->contiguousFilters;
  tileOptions.widenRowsFirst = policy->widenRowsFirst;
  tileOptions.windowTileElements = policy->windowTileElements;
  tileOptions.weightRowTileElements = policy->weightRowTileElements;
  tileOptions.oneWeightRowTile = policy->oneWeightRowTile;
  tileOptions.wideSideFactor = policy->wideSideFactor;
  tileOptions.mergeSiblingReaders = policy->mergeSiblingReaders;
  tileOptions.streamedWeightBytes = policy->streamedWeightBytes;
  tileOptions.padInProducers = policy->padInProducers;
  tileOptions.halveOddTiles = policy->halveOddTiles;
  tileOptions.transposeBlock = policy->transposeBlock;
  pm.addPass(createFuseTileGroupsPass(tileOptions));
  // No CSE from here to bufferization: merged nests write their results
  // into distinct empty tensors, which CSE would make one buffer.
  pm.addPass(createCanonicalizerPass());
}

void mlir::fuse::buildBufferizeGroupsPipeline(OpPassManager &pm) {
  pm.addPass(createFuseInlineGroupsPass());

  // 2. TOSA to linalg-on-tensors, arith and tensor; elementwise arith/math on
  //    tensors to linalg.
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createTosaToSCFPass());
  funcPm.addPass(tosa::createTosaToLinalgNamed());
  funcPm.addPass(tosa::createTosaToLinalg());
  // Quantized ops (mul with a shift, rescale) lower through tosa.apply_scale.
  TosaToArithPassOptions arithOptions;
  arithOptions.includeApplyRescale = true;
  funcPm.addPass(createTosaToArithPass(arithOptions));
  funcPm.addPass(createTosaToTensorPass());
  // arith/math ops on tensors become linalg.generic so they bufferize.
  funcPm.addPass(createConvertElementwiseToLinalgPass());

  // 3. Bufferize the whole module, function boundaries included, with
  //    identity layouts so that `printMemrefF32` and friends can be called.
  //    Ops that fill a tensor.empty later inserted into a bigger tensor
  //    write into that tensor directly (concats become in-place writes).
  //    Long insert chains (concats of many parts) are written into their
  //    buffer first: upstream's analysis is cubic in their length.
  pm.addPass(createFuseInsertChainsToBufferPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
}
