//===- MappingAnalysis.cpp - Classify ops by mapping type -----------------===//
//
// The classification follows what each op computes, in this order:
//
//  1. Structured ops (`linalg::LinalgOp`, generic and named): from iterator
//     types and indexing maps. Any reduction loop, or any map that is not a
//     projected permutation (convolution windows, strides), is many-to-many.
//     An all-parallel op is classified input by input against the output map
//     (classifyParallelAccess) and the most complex input wins. A payload
//     that reads a tensor captured from above with `tensor.extract` is a
//     gather and counts as one-to-many.
//  2. Data movement with known semantics (`tensor` and `tosa` reshapes,
//     transposes, slices, concats, pads, tiles, gathers, resizes) by what the
//     op does with indices; each choice is documented next to it and in
//     docs/MappingTypes.md.
//  3. Elementwise ops (`OpTrait::Elementwise`, TOSA's broadcasting
//     elementwise trait) from shapes: every data operand has the result's
//     shape → one-to-one; any operand broadcast → one-to-many.
//  4. Windowed and reducing TOSA ops (conv, matmul, pooling, reductions, FFT,
//     argmax) are many-to-many.
//
// Everything else (unknown ops, constants, ops with memory effects or on
// non-tensor values) is unclassified and never touched by the pipeline.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Analysis/MappingAnalysis.h"

#include "FuseDialect/IR/FuseDialect.h"
#include "FuseDialect/IR/MappingType.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse;

//===----------------------------------------------------------------------===//
// Structured ops
//===----------------------------------------------------------------------===//

/// Returns the loop dimensions read by `map` as a bit vector, or std::nullopt
/// when `map` is not a projected permutation (constant zero results, which
/// index a size-1 dimension, are allowed and ignored).
static std::optional<llvm::SmallBitVector> getAccessedDims(AffineMap map) {
  if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
    return std::nullopt;
  llvm::SmallBitVector dims(map.getNumDims());
  for (AffineExpr expr : map.getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      dims.set(dim.getPosition());
  return dims;
}

MappingType mlir::fuse::classifyParallelAccess(AffineMap inputMap,
                                               AffineMap outputMap) {
  if (inputMap == outputMap)
    return MappingType::OneToOne;
  std::optional<llvm::SmallBitVector> in = getAccessedDims(inputMap);
  std::optional<llvm::SmallBitVector> out = getAccessedDims(outputMap);
  if (!in || !out)
    return MappingType::ManyToMany;
  // An input loop that does not index the output would be a reduction.
  if ((*in & ~*out).any())
    return MappingType::ManyToMany;
  // Fewer loops than the output: each input element feeds several outputs.
  // A constant index (size-1 dimension) also broadcasts.
  bool readsConstant = llvm::any_of(inputMap.getResults(), [](AffineExpr e) {
    return isa<AffineConstantExpr>(e);
  });
  if (*in != *out || readsConstant)
    return MappingType::OneToMany;
  // Same loops, different order (or a different output order).
  return MappingType::Shuffle;
}

/// Returns true if the payload of `op` reads elements of a tensor defined
/// outside the op by computed indices (a gather).
static bool payloadGathers(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body)
    return false;
  bool gathers = false;
  body->walk([&](tensor::ExtractOp extract) {
    if (!op->isAncestor(extract.getTensor().getParentBlock()->getParentOp()))
      gathers = true;
  });
  return gathers;
}

static MappingType classifyLinalgOp(linalg::LinalgOp op) {
  if (op.getNumLoops() != op.getNumParallelLoops())
    return MappingType::ManyToMany;
  MappingType result = MappingType::OneToOne;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap outputMap = op.getMatchingIndexingMap(&init);
    for (OpOperand *input : op.getDpsInputOperands()) {
      // A scalar input is broadcast to every output element.
      AffineMap inputMap = op.getMatchingIndexingMap(input);
      result = joinMappingTypes(result,
                                classifyParallelAccess(inputMap, outputMap));
    }
    // Different output maps for different inits (multi-result ops) relate
    // the outputs to each other by the same rules.
    AffineMap firstOutputMap =
        op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    result = joinMappingTypes(
        result, classifyParallelAccess(outputMap, firstOutputMap));
  }
  // An op without inputs that fills its output from scalars (linalg.fill
  // with a constant, linalg.index-only generics) generates data.
  if (op.getNumDpsInputs() == 0)
    result = joinMappingTypes(result, MappingType::OneToMany);
  if (payloadGathers(op))
    result = joinMappingTypes(result, MappingType::OneToMany);
  return result;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// Returns the operands of an elementwise op that carry data, skipping
/// quantization parameters (zero points, shifts, multipliers) and lookup
/// tables, which are operands in TOSA 1.0 but not part of the mapping.
static SmallVector<Value> getElementwiseDataOperands(Operation *op) {
  return TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([](tosa::MulOp mul) {
        return SmallVector<Value>{mul.getInput1(), mul.getInput2()};
      })
      .Case([](tosa::NegateOp neg) {
        return SmallVector<Value>{neg.getInput1()};
      })
      .Case([](tosa::RescaleOp rescale) {
        return SmallVector<Value>{rescale.getInput()};
      })
      .Case([](tosa::TableOp table) {
        return SmallVector<Value>{table.getInput1()};
      })
      .Default([](Operation *op) {
        return SmallVector<Value>(op->getOperands());
      });
}

/// Elementwise by trait; the few TOSA ops that compute elementwise but do not
/// carry TOSA's broadcasting-elementwise trait (it would reject their
/// parameter operands) are listed by class.
static bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
         isa<tosa::MulOp, tosa::CastOp, tosa::RescaleOp, tosa::TableOp,
             tosa::IdentityOp>(op);
}

/// Elementwise with equal shapes is one-to-one; any broadcast operand makes
/// it one-to-many. A dynamic dimension that could be a runtime broadcast
/// (TOSA broadcasts size-1 dimensions) is treated as one.
static MappingType classifyElementwise(Operation *op) {
  // The verifier already guarantees equal shapes, static or not.
  if (op->hasTrait<OpTrait::SameOperandsAndResultShape>())
    return MappingType::OneToOne;
  auto resultType = dyn_cast<ShapedType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasRank())
    return MappingType::OneToMany;
  for (Value operand : getElementwiseDataOperands(op)) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    if (!type) // A scalar operand is broadcast to every element.
      return MappingType::OneToMany;
    if (!type.hasRank() || type.getRank() != resultType.getRank())
      return MappingType::OneToMany;
    for (auto [dim, resultDim] :
         llvm::zip_equal(type.getShape(), resultType.getShape())) {
      if (ShapedType::isDynamic(dim) || ShapedType::isDynamic(resultDim)) {
        if (dim != resultDim || ShapedType::isDynamic(dim))
          return MappingType::OneToMany;
        continue;
      }
      if (dim != resultDim)
        return MappingType::OneToMany;
    }
  }
  return MappingType::OneToOne;
}

//===----------------------------------------------------------------------===//
// Ops with known data-movement or windowed semantics
//===----------------------------------------------------------------------===//

static std::optional<MappingType> classifyKnownOp(Operation *op) {
  using MT = MappingType;
  return TypeSwitch<Operation *, std::optional<MappingType>>(op)
      // Shuffle: a bijection between input and output elements that keeps
      // the shape's rank and moves whole axes.
      .Case<tosa::TransposeOp, tosa::ReverseOp>(
          [](Operation *) { return MT::Shuffle; })
      // Reorganize: every output element is exactly one input element (or
      // a padding constant) at an index computed from its own; no element is
      // read twice and nothing is computed.
      .Case<tosa::ReshapeOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
            tensor::ReshapeOp, tosa::SliceOp, tensor::ExtractSliceOp,
            tensor::InsertSliceOp, tosa::ConcatOp, tensor::ConcatOp,
            tosa::PadOp, tensor::PadOp>(
          [](Operation *) { return MT::Reorganize; })
      // A cast that only refines static shape information moves nothing.
      .Case<tensor::CastOp>([](Operation *) { return MT::OneToOne; })
      // One-to-many: an input element may feed several output elements
      // (tiling repeats the input; gathers may repeat indices; nearest
      // resize replicates pixels).
      .Case<tosa::TileOp, tosa::GatherOp, tensor::GatherOp>(
          [](Operation *) { return MT::OneToMany; })
      // Bilinear resize blends four input pixels into each output pixel,
      // and each input pixel feeds several outputs.
      .Case([](tosa::ResizeOp resize) {
        return resize.getMode() == tosa::ResizeMode::NEAREST_NEIGHBOR
                   ? MT::OneToMany
                   : MT::ManyToMany;
      })
      // Many-to-many: windows, contractions and reductions.
      .Case<tosa::Conv2DOp, tosa::Conv3DOp, tosa::DepthwiseConv2DOp,
            tosa::TransposeConv2DOp, tosa::MatMulOp, tosa::AvgPool2dOp,
            tosa::MaxPool2dOp, tosa::FFT2dOp, tosa::RFFT2dOp, tosa::ArgMaxOp,
            tosa::ReduceAllOp, tosa::ReduceAnyOp, tosa::ReduceMaxOp,
            tosa::ReduceMinOp, tosa::ReduceProductOp, tosa::ReduceSumOp>(
          [](Operation *) { return MT::ManyToMany; })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Only side-effect-free computations on ranked tensors are classified.
static bool isClassifiable(Operation *op) {
  if (op->getNumResults() == 0 || op->hasTrait<OpTrait::ConstantLike>())
    return false;
  if (!llvm::all_of(op->getResultTypes(),
                    [](Type t) { return isa<RankedTensorType>(t); }))
    return false;
  // Ops that read no tensor (tensor.empty, tosa.const_shape, ...) compute
  // nothing from other ops' elements; linalg.fill reads its init's shape only
  // and is handled as a structured op.
  if (!isa<linalg::LinalgOp>(op) &&
      llvm::none_of(op->getOperandTypes(),
                    [](Type t) { return isa<TensorType>(t); }))
    return false;
  return isMemoryEffectFree(op);
}

std::optional<MappingType> mlir::fuse::classifyMappingType(Operation *op) {
  if (!isClassifiable(op))
    return std::nullopt;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics())
      return std::nullopt;
    return classifyLinalgOp(linalgOp);
  }
  if (std::optional<MappingType> known = classifyKnownOp(op))
    return known;
  if (isElementwise(op))
    return classifyElementwise(op);
  return std::nullopt;
}

std::optional<MappingType> mlir::fuse::getAnnotatedMappingType(Operation *op) {
  if (auto attr =
          op->getAttrOfType<MappingTypeAttr>(FuseDialect::kMappingAttrName))
    return attr.getValue();
  return std::nullopt;
}

void mlir::fuse::setAnnotatedMappingType(Operation *op, MappingType type) {
  op->setAttr(FuseDialect::kMappingAttrName,
              MappingTypeAttr::get(op->getContext(), type));
}
