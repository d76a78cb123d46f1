//===- OpQueries.cpp - What the fusion planner asks of an op --------------===//

#include "FuseDialect/Transforms/Fusion/OpQueries.h"

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Algebraic/Pattern.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::fuse;

std::optional<RowReduction> mlir::fuse::getRowReduction(Operation *op) {
  if (!op || op->getNumOperands() == 0)
    return std::nullopt;
  auto inputOf = [](Value v) -> std::optional<SmallVector<int64_t>> {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    return SmallVector<int64_t>(type.getShape());
  };
  if (isa<tosa::ReduceSumOp, tosa::ReduceProductOp, tosa::ReduceMaxOp,
          tosa::ReduceMinOp, tosa::ReduceAllOp, tosa::ReduceAnyOp,
          tosa::ArgMaxOp>(op)) {
    auto axis = op->getAttrOfType<IntegerAttr>("axis");
    std::optional<SmallVector<int64_t>> shape = inputOf(op->getOperand(0));
    if (!axis || !shape)
      return std::nullopt;
    return RowReduction{*shape, axis.getInt()};
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumReductionLoops() != 1 ||
      linalgOp.getNumDpsInputs() != 1 ||
      !linalgOp.hasOnlyProjectedPermutations())
    return std::nullopt;
  OpOperand *input = linalgOp.getDpsInputOperand(0);
  AffineMap map = linalgOp.getMatchingIndexingMap(input);
  SmallVector<unsigned> reductionDims;
  linalgOp.getReductionDims(reductionDims);
  std::optional<SmallVector<int64_t>> shape = inputOf(input->get());
  if (!shape || !map.isPermutation())
    return std::nullopt;
  std::optional<unsigned> pos =
      map.getResultPosition(getAffineDimExpr(reductionDims[0], op->getContext()));
  if (!pos)
    return std::nullopt;
  return RowReduction{*shape, static_cast<int64_t>(*pos)};
}

bool mlir::fuse::isFreeInitializer(Operation *op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op);
  if (!fill || fill->getNumResults() != 1)
    return false;
  auto isRematerializableValue = [](Value v) {
    Operation *def = v.getDefiningOp();
    return def && isRematerializable(def);
  };
  return isRematerializableValue(fill.getInputs()[0]) &&
         isRematerializableValue(fill.getOutputs()[0]);
}

bool mlir::fuse::isContraction(Operation *op) {
  if (!op)
    return false;
  if (isa<tosa::MatMulOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

bool mlir::fuse::isElementwiseLike(Operation *op) {
  if (op->hasTrait<OpTrait::Elementwise>() ||
      op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>() ||
      isa<tosa::MulOp, tosa::CastOp, tosa::RescaleOp, tosa::TableOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         linalgOp.hasOnlyProjectedPermutations();
}

double mlir::fuse::getReadsPerElement(Operation *consumer, Value value) {
  int64_t operandElements = getNumElements(value.getType());
  if (operandElements == 0 || consumer->getNumResults() == 0)
    return 1.0;
  int64_t resultElements = getNumElements(consumer->getResult(0).getType());
  if (auto matmul = dyn_cast<tosa::MatMulOp>(consumer)) {
    auto a = cast<ShapedType>(matmul.getA().getType());
    auto b = cast<ShapedType>(matmul.getB().getType());
    if (value == matmul.getA())
      return b.getDimSize(2); // each A element meets N columns
    return a.getDimSize(1);   // each B element meets M rows
  }
  if (auto conv = dyn_cast<tosa::Conv2DOp>(consumer)) {
    auto w = cast<ShapedType>(conv.getWeight().getType()); // [OC,KH,KW,IC]
    ArrayRef<int64_t> stride = conv.getStride();
    if (value == conv.getInput())
      return double(w.getDimSize(0) * w.getDimSize(1) * w.getDimSize(2)) /
             double(stride[0] * stride[1]);
    return double(resultElements) / double(w.getDimSize(0));
  }
  if (auto conv = dyn_cast<tosa::DepthwiseConv2DOp>(consumer)) {
    auto w = cast<ShapedType>(conv.getWeight().getType()); // [KH,KW,C,M]
    ArrayRef<int64_t> stride = conv.getStride();
    if (value == conv.getInput())
      return double(w.getDimSize(0) * w.getDimSize(1) * w.getDimSize(3)) /
             double(stride[0] * stride[1]);
    // Each weight element [kh, kw, c, m] is used once per output pixel.
    return double(resultElements) / double(w.getDimSize(2) * w.getDimSize(3));
  }
  if (getRowReduction(consumer))
    return 1.0;
  // Ops that place each input element once in a larger result: the rest is
  // other parts (a concat, the destination of an insert) or constants (a
  // pad), not copies of the input.
  if (isa<tosa::ConcatOp, tosa::PadOp, tensor::InsertSliceOp, tensor::ConcatOp,
          tensor::PadOp>(consumer))
    return 1.0;
  // Elementwise, broadcasts, tiles, data movement: output per input element.
  return std::max(1.0, double(resultElements) / double(operandElements));
}

double mlir::fuse::getFlopsPerResultElement(Operation *op) {
  if (op->getNumResults() == 0)
    return 0;
  int64_t resultElements = std::max<int64_t>(
      1, getNumElements(op->getResult(0).getType()));
  return TypeSwitch<Operation *, double>(op)
      .Case([](tosa::MatMulOp matmul) {
        return 2.0 * cast<ShapedType>(matmul.getA().getType()).getDimSize(2);
      })
      .Case([](tosa::Conv2DOp conv) {
        auto w = cast<ShapedType>(conv.getWeight().getType());
        return 2.0 * w.getDimSize(1) * w.getDimSize(2) * w.getDimSize(3);
      })
      .Case([](tosa::DepthwiseConv2DOp conv) {
        auto w = cast<ShapedType>(conv.getWeight().getType());
        return 2.0 * w.getDimSize(0) * w.getDimSize(1);
      })
      // Elementwise math: the algebra's table (OpKinds.def), one per op.
#define FUSE_TOSA_UNARY(Name, Op)                                              \
  .Case<Op>([](Operation *) {                                                  \
    return double(algebra::getFlopsPerElement(algebra::OpKind::Name));         \
  })
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
      .Case<tosa::PowOp>([](Operation *) {
        return double(algebra::getFlopsPerElement(algebra::OpKind::Pow));
      })
      .Case<tosa::TransposeOp, tosa::ReshapeOp, tosa::SliceOp, tosa::TileOp,
            tosa::ConcatOp, tosa::PadOp, tosa::ReverseOp, tosa::GatherOp>(
          [](Operation *) { return 0.0; })
      .Default([&](Operation *op) {
        if (getRowReduction(op))
          return double(getNumElements(op->getOperand(0).getType())) /
                 double(resultElements);
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
          SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
          double iterations = 1;
          for (int64_t r : ranges)
            iterations *= ShapedType::isDynamic(r) ? 1 : r;
          double bodyOps = linalgOp.getBlock()
                               ? std::max<size_t>(
                                     1, linalgOp.getBlock()->getOperations().size() - 1)
                               : 1;
          return iterations * bodyOps / double(resultElements);
        }
        return 1.0;
      });
}
