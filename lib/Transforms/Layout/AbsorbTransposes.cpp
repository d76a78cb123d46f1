//===- AbsorbTransposes.cpp - Transposes as their neighbours' index maps --===//
//
// DNNFusion's data-movement elimination (Fig. 5) for the transposes that no
// local move removes: those between contractions and reductions. Multi-head
// attention is the typical case: heads are split by reshape -> transpose ->
// reshape after the Q/K/V projections, K is transposed for Q.K^T, and heads
// are merged by the reverse chain before the output projection. Each such
// transpose is a copy through memory; the computation next to it can read
// (or write) through a permuted indexing map instead.
//
// 1. Clusters. From each transpose, the pass walks reshapes and transposes in
//    both directions. The ops met at the ends are the cluster's producers
//    and consumers. A cluster is lifted only if every transpose in it can be
//    absorbed: all its consumers (through reshapes) are absorbers, or its
//    single-use producer chain starts at one. Absorbers are the ops that
//    become one linalg structured op: matmul, elementwise ops, reductions.
// 2. Lift. Upstream TOSA conversion patterns, applied to the cluster's ops
//    only: matmul -> linalg.batch_matmul, transpose -> linalg.transpose,
//    reshape -> tensor.expand_shape / collapse_shape (views, no copy),
//    elementwise ops and reductions -> linalg.generic / linalg.reduce.
// 3. Absorb. Upstream patterns on the lifted ops and on what they create:
//    named ops are generalized; reshapes move through generics by expanding
//    the generics' iteration spaces, so that each transpose meets its
//    neighbour's loops; a transpose is fused into its consumers (elementwise
//    fusion, restricted to pure permutations, so the fusion planner still
//    decides every other fusion); a transpose of a single-use generic's
//    result is folded into that generic's output indexing map.
//
// Shapes must be static; nothing else is touched.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Transforms/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "fuse-absorb-transposes"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEABSORBTRANSPOSESPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

bool hasStaticTensorTypes(Operation *op) {
  auto isStatic = [](Type t) {
    auto ranked = dyn_cast<RankedTensorType>(t);
    return ranked && ranked.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(),
                      [&](Type t) { return !isa<TensorType>(t) || isStatic(t); }) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

/// Ops moved by a cluster: reshapes and transposes of non-constant values.
bool isDataMovement(Operation *op) {
  return isa_and_nonnull<tosa::ReshapeOp, tosa::TransposeOp>(op) &&
         hasStaticTensorTypes(op);
}

/// Ops that lift to one linalg structured op whose indexing maps can absorb
/// a permutation. Float only: integer matmuls lift to quantized forms and
/// integer elementwise ops may carry rounding or shift semantics.
bool isAbsorber(Operation *op) {
  if (!op || op->getNumResults() != 1 || !hasStaticTensorTypes(op) ||
      !isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return false;
  if (isa<tosa::MatMulOp, tosa::ReduceSumOp, tosa::ReduceMaxOp,
          tosa::ReduceMinOp, tosa::ReduceProductOp>(op))
    return true;
  // Float elementwise ops whose data operands all have the result's rank
  // (TOSA broadcasts only along size-1 dims of equal-rank operands).
  return fuse::isRankPreservingElementwise(op) &&
         llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
           return fuse::isParameterOperand(op, operand.getOperandNumber()) ||
                  isa<FloatType>(getElementTypeOrSelf(operand.get()));
         });
}

/// Every path from `v` down through reshapes ends at an absorber or at
/// another transpose of the cluster (which composes with this one).
bool consumersAbsorb(Value v) {
  if (v.use_empty())
    return false;
  return llvm::all_of(v.getUsers(), [](Operation *user) {
    if (isa<tosa::TransposeOp>(user) && isDataMovement(user))
      return true;
    if (isa<tosa::ReshapeOp>(user) && isDataMovement(user))
      return consumersAbsorb(user->getResult(0));
    return isAbsorber(user);
  });
}

/// `v` is computed, through single-use reshapes, by a single-use absorber.
bool producerAbsorbs(Value v) {
  if (!v.hasOneUse())
    return false;
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<tosa::ReshapeOp>(def) && isDataMovement(def))
    return producerAbsorbs(def->getOperand(0));
  return isAbsorber(def);
}

/// Grows the cluster of `seed` and adds its ops, plus the absorbers at its
/// ends, to `toLift` when every transpose in it can be absorbed.
bool collectCluster(tosa::TransposeOp seed, DenseSet<Operation *> &visited,
                    SetVector<Operation *> &toLift) {
  SmallVector<Operation *> members, worklist{seed};
  SetVector<Operation *> ends;
  visited.insert(seed);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    members.push_back(op);
    auto visit = [&](Operation *next) {
      if (!next)
        return;
      if (isDataMovement(next)) {
        if (visited.insert(next).second)
          worklist.push_back(next);
      } else if (isAbsorber(next)) {
        ends.insert(next);
      }
    };
    visit(op->getOperand(0).getDefiningOp());
    for (Operation *user : op->getResult(0).getUsers())
      visit(user);
  }
  for (Operation *op : members) {
    auto transpose = dyn_cast<tosa::TransposeOp>(op);
    if (!transpose)
      continue;
    // A transpose of a constant is folded by the canonicalizer, not here.
    if (matchPattern(transpose.getInput1(), m_Constant()))
      return false;
    if (!consumersAbsorb(transpose.getResult()) &&
        !producerAbsorbs(transpose.getInput1()))
      return false;
  }
  toLift.insert(members.begin(), members.end());
  toLift.insert(ends.begin(), ends.end());
  return true;
}

//===----------------------------------------------------------------------===//
// Absorption patterns
//===----------------------------------------------------------------------===//

/// Named structured ops become generics so that their indexing maps can
/// take a permutation. Fills stay named: they only initialize accumulators.
struct GeneralizeNamedOp : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp, linalg::FillOp>(op))
      return failure();
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

/// transpose(generic(...)) -> generic(...) writing through the permuted
/// output map, when the transpose is the generic's only reader and the
/// generic's init is an empty or filled tensor (rebuilt in the new shape).
/// Rooted at either op, so that it fires whichever of the two the driver
/// visits last (reshape propagation rebuilds producers).
struct FoldTransposeIntoProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    linalg::GenericOp transpose, producer;
    if (fuse::isPermutationCopy(op)) {
      transpose = op;
      producer = op.getDpsInputs()[0].getDefiningOp<linalg::GenericOp>();
    } else if (op->getNumResults() == 1 && op->getResult(0).hasOneUse()) {
      producer = op;
      transpose = dyn_cast<linalg::GenericOp>(*op->getUsers().begin());
      if (!transpose || !fuse::isPermutationCopy(transpose) ||
          transpose.getDpsInputs()[0] != op->getResult(0))
        return failure();
    }
    if (!producer || !transpose || producer->getNumResults() != 1 ||
        !producer->getResult(0).hasOneUse())
      return failure();
    // Rebuild the producer's init in the transposed shape: it must hold no
    // data but a fill value (reshape propagation may have reshaped it).
    Value init = producer.getDpsInits()[0];
    while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
        init.getDefiningOp()))
      init = init.getDefiningOp()->getOperand(0);
    auto fill = init.getDefiningOp<linalg::FillOp>();
    if (fill)
      init = fill.getOutputs()[0];
    if (!init.getDefiningOp<tensor::EmptyOp>())
      return failure();
    auto resultType = cast<RankedTensorType>(transpose.getResult(0).getType());
    Location loc = producer.getLoc();
    rewriter.setInsertionPoint(producer);
    Value newInit = tensor::EmptyOp::create(
        rewriter, loc, resultType.getShape(), resultType.getElementType());
    if (fill)
      newInit = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0],
                                       newInit)
                    .getResult(0);
    // The producer writes r = out(l); the transpose moves r to O(I^-1(r)).
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    SmallVector<AffineMap> transposeMaps = transpose.getIndexingMapsArray();
    AffineMap moved = transposeMaps[1].compose(
        inversePermutation(transposeMaps[0]).compose(maps.back()));
    maps.back() = moved;
    auto newProducer = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, producer.getDpsInputs(),
        ValueRange{newInit}, maps, producer.getIteratorTypesArray());
    rewriter.inlineRegionBefore(producer.getRegion(), newProducer.getRegion(),
                                newProducer.getRegion().begin());
    rewriter.replaceOp(transpose, newProducer->getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

struct FuseAbsorbTransposesPass
    : fuse::impl::FuseAbsorbTransposesPassBase<FuseAbsorbTransposesPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();

    SetVector<Operation *> toLift;
    DenseSet<Operation *> visited;
    root->walk([&](tosa::TransposeOp transpose) {
      // A group already formed (a second --fuse-ops) is a planned kernel:
      // its body is left as it is, so that the pipeline is idempotent.
      if (transpose->getParentOfType<fuse::GroupOp>())
        return;
      if (isDataMovement(transpose) && !visited.contains(transpose) &&
          collectCluster(transpose, visited, toLift))
        ++numClusters;
    });
    if (toLift.empty())
      return;

    // Structured ops that exist now; everything structured after the lift
    // that is not among them was made by it.
    DenseSet<Operation *> before;
    root->walk([&](Operation *op) {
      if (isa<linalg::LinalgDialect, tensor::TensorDialect>(op->getDialect()))
        before.insert(op);
    });

    TypeConverter converter;
    tosa::populateTosaTypeConversion(converter);
    RewritePatternSet lift(ctx);
    tosa::populateTosaToLinalgNamedConversionPatterns(converter, &lift, {});
    tosa::populateTosaToLinalgConversionPatterns(converter, &lift);
    tosa::populateTosaToTensorConversionPatterns(converter, &lift);
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return !toLift.contains(op); });
    // A cluster op the upstream patterns cannot lower rolls the whole
    // conversion back: the IR is left as it was.
    if (failed(applyPartialConversion(root, target, std::move(lift))))
      return;

    SmallVector<Operation *> lifted;
    root->walk([&](Operation *op) {
      if (isa<linalg::LinalgDialect, tensor::TensorDialect>(op->getDialect()) &&
          !before.contains(op))
        lifted.push_back(op);
    });

    RewritePatternSet absorb(ctx);
    absorb.add<GeneralizeNamedOp, FoldTransposeIntoProducer>(ctx);
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        absorb, [](OpOperand *) { return true; });
    linalg::populateElementwiseOpsFusionPatterns(
        absorb, [](OpOperand *fused) {
          auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
          return producer && fuse::isPermutationCopy(producer);
        });
    tensor::populateFoldTensorEmptyPatterns(absorb);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(absorb, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(absorb, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(absorb, ctx);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(lifted, std::move(absorb), config)))
      root->emitWarning("fuse-absorb-transposes: absorption did not converge");

    root->walk([&](linalg::GenericOp op) {
      if (fuse::isPermutationCopy(op))
        ++numLeft;
    });
  }
};

} // namespace
