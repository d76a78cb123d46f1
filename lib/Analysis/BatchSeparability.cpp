//===- BatchSeparability.cpp - Samples of a batch computed apart ----------===//
//
// A model compiled once for every batch size is compiled for one sample and
// run once per sample (fuse-compile, for an ONNX model whose inputs have a
// symbolic first dimension; TensorRT's implicit batch). That is right only
// when the model computes sample n of every result from sample n of its
// inputs alone, the same way for every n: no reduction, slice, gather or
// constant that tells samples apart. This file proves it on linalg on
// tensors, for the model at one batch size B > 1 (fuse-compile imports it at
// B = 3; the shapes at a second size are compared by the importer):
//
//  * every value has a batch axis or none. None: the value is the same for
//    every sample (computed from constants and non-batch arguments). A
//    batch axis of size outer * B * inner holds the batch as one factor of
//    its index (o * B * inner + b * inner + r): a collapse merges the batch
//    with the axes around it (attention's batch and heads), an expand splits
//    it off again where the sizes allow;
//  * the batch arguments have axis 0 (outer and inner 1);
//  * a linalg op: every operand with a batch axis holds it at one parallel
//    loop dimension d, as a bare `d` in its map and nowhere else in it, with
//    the same factors for all; every other operand the body reads and whose map
//    uses d reads it as a bare `d` at an axis along which it is uniform (the
//    same at every index: empty tensors, fills, splats, values broadcast
//    along it); the body reads linalg.index d only as the batch index of a
//    tensor.extract of a tensor with a batch axis (a resize's input) read
//    whole along it. Each result gets the axis where its map has d;
//  * collapses and expands move the axis as above; pads, slices, inserts
//    and concats keep it whole (offset 0, full size, no padding);
//  * every result of the function has the batch at axis 0 (outer, inner 1);
//  * any other op that reads a value with a batch axis is refused.
//
// A refusal is an error at the op, saying why; the IR is never changed.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Analysis/BatchSeparability.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cstring>

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Where a value holds the batch: axis `axis`, of size outer * batch *
/// inner, index o * batch * inner + b * inner + r for sample b.
struct BatchAxis {
  int64_t axis = 0;
  int64_t outer = 1, inner = 1;

  bool sameFactors(const BatchAxis &other) const {
    return outer == other.outer && inner == other.inner;
  }
  bool isPlain() const { return outer == 1 && inner == 1; }
};

class Prover {
public:
  explicit Prover(int64_t batch) : batch(batch) {}

  LogicalResult run(func::FuncOp func, ArrayRef<unsigned> batchArgs);

private:
  std::optional<BatchAxis> axisOf(Value v) const {
    auto it = axes.find(v);
    return it == axes.end() ? std::nullopt : std::optional(it->second);
  }
  bool isUniform(Value v, int64_t axis, unsigned depth = 0);
  LogicalResult visit(Operation *op);
  LogicalResult visitLinalg(linalg::LinalgOp op);
  LogicalResult visitCollapse(tensor::CollapseShapeOp op, BatchAxis in);
  LogicalResult visitExpand(tensor::ExpandShapeOp op, BatchAxis in);
  LogicalResult visitInsert(tensor::InsertSliceOp op);
  LogicalResult visitConcat(tensor::ConcatOp op);

  int64_t batch;
  DenseMap<Value, BatchAxis> axes;
};

/// Whether the slice `op` (extract or insert) takes axis `axis` of the
/// larger tensor, of size `full`, whole.
bool takesWhole(OffsetSizeAndStrideOpInterface op, int64_t axis, int64_t full) {
  return getConstantIntValue(op.getMixedOffsets()[axis]) == 0 &&
         getConstantIntValue(op.getMixedSizes()[axis]) == full &&
         getConstantIntValue(op.getMixedStrides()[axis]) == 1;
}

/// Whether the dense constant `dense` holds the same values at every index
/// along `axis`.
bool isUniformConstant(DenseElementsAttr dense, int64_t axis) {
  if (dense.isSplat())
    return true;
  auto type = dense.getType();
  unsigned bits = type.getElementTypeBitWidth();
  if (!type.hasStaticShape() || bits % 8 != 0 ||
      isa<ComplexType>(type.getElementType()))
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t outer = 1, row = bits / 8;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    row *= shape[d];
  ArrayRef<char> data = dense.getRawData();
  for (int64_t o = 0; o < outer; ++o) {
    const char *first = data.data() + o * shape[axis] * row;
    for (int64_t i = 1; i < shape[axis]; ++i)
      if (std::memcmp(first, first + i * row, row) != 0)
        return false;
  }
  return true;
}

/// The axes of a rank-reduced slice's smaller tensor in the larger one.
SmallVector<int64_t> keptAxes(const llvm::SmallBitVector &dropped) {
  SmallVector<int64_t> kept;
  for (unsigned d = 0; d < dropped.size(); ++d)
    if (!dropped.test(d))
      kept.push_back(d);
  return kept;
}

} // namespace

/// Whether `v` (no batch axis) is the same at every index along `axis`.
bool Prover::isUniform(Value v, int64_t axis, unsigned depth) {
  if (depth > 32)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::EmptyOp, linalg::FillOp>(def))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return dense && isUniformConstant(dense, axis);
  }
  if (auto cast = dyn_cast<tensor::CastOp>(def))
    return isUniform(cast.getSource(), axis, depth + 1);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
    SmallVector<int64_t> kept = keptAxes(insert.getDroppedDims());
    auto it = llvm::find(kept, axis);
    return it != kept.end() &&
           takesWhole(insert, axis, insert.getDestType().getDimSize(axis)) &&
           isUniform(insert.getSource(), it - kept.begin(), depth + 1) &&
           isUniform(insert.getDest(), axis, depth + 1);
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
    for (auto [from, group] : llvm::enumerate(expand.getReassociationIndices()))
      if (llvm::is_contained(group, axis))
        return isUniform(expand.getSrc(), from, depth + 1);
    return false;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
    return llvm::all_of(collapse.getReassociationIndices()[axis],
                        [&](int64_t from) {
                          return isUniform(collapse.getSrc(), from, depth + 1);
                        });
  auto linalgOp = dyn_cast<linalg::LinalgOp>(def);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return false;
  // The loop dimension the result's `axis` is, read the same way by every
  // operand the body reads (and by no linalg.index).
  AffineMap resultMap =
      linalgOp.getIndexingMapMatchingResult(cast<OpResult>(v));
  auto dim = dyn_cast<AffineDimExpr>(resultMap.getResult(axis));
  if (!dim)
    return false;
  unsigned d = dim.getPosition();
  bool readsIndex = false;
  linalgOp->walk(
      [&](linalg::IndexOp index) { readsIndex |= index.getDim() == d; });
  if (readsIndex)
    return false;
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!linalgOp.payloadUsesValueFromOperand(&operand))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (auto [at, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(d))
        continue;
      auto bare = dyn_cast<AffineDimExpr>(expr);
      if (!bare || !isUniform(operand.get(), at, depth + 1))
        return false;
    }
  }
  return true;
}

LogicalResult Prover::visitLinalg(linalg::LinalgOp op) {
  // The loop dimension of the batch, from the operands that have one.
  std::optional<unsigned> batchDim;
  BatchAxis factors;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<BatchAxis> in = axisOf(operand.get());
    if (!in)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(in->axis));
    if (!dim)
      return op->emitError("operand ")
             << operand.getOperandNumber()
             << " is indexed along its batch axis by an expression, not by "
                "one loop dimension";
    unsigned d = dim.getPosition();
    for (auto [at, expr] : llvm::enumerate(map.getResults()))
      if (at != static_cast<size_t>(in->axis) && expr.isFunctionOfDim(d))
        return op->emitError("operand ")
               << operand.getOperandNumber()
               << " is indexed by its batch loop dimension d" << d
               << " along another axis too";
    if (batchDim && (*batchDim != d || !factors.sameFactors(*in)))
      return op->emitError("operands hold the batch on different loop "
                           "dimensions (d")
             << *batchDim << " and d" << d << "): samples would mix";
    batchDim = d;
    factors = *in;
  }
  // Tensors with a batch axis the body reads from outside (a resize's
  // input): each by tensor.extract at the index of one loop dimension
  // along the batch axis.
  SmallVector<tensor::ExtractOp> batchReads;
  WalkResult captured = op->walk([&](Operation *nested) {
    if (nested == op.getOperation())
      return WalkResult::advance();
    for (Value value : nested->getOperands()) {
      std::optional<BatchAxis> at = axisOf(value);
      if (!at)
        continue;
      auto read = dyn_cast<tensor::ExtractOp>(nested);
      auto index =
          read && read.getTensor() == value
              ? read.getIndices()[at->axis].getDefiningOp<linalg::IndexOp>()
              : nullptr;
      if (!index || index->getParentOp() != op.getOperation()) {
        nested->emitError("reads a batch tensor at an index that is not "
                          "one loop dimension's");
        return WalkResult::interrupt();
      }
      if (batchDim &&
          (*batchDim != index.getDim() || !factors.sameFactors(*at))) {
        nested->emitError("reads the batch at another loop dimension than "
                          "the operands hold it: samples would mix");
        return WalkResult::interrupt();
      }
      // The loop runs over the whole batch axis (its extent is a result's
      // size where the result's map has it).
      std::optional<int64_t> extent;
      for (OpResult result : op->getResults()) {
        AffineMap map = op.getIndexingMapMatchingResult(result);
        for (auto [k, expr] : llvm::enumerate(map.getResults()))
          if (expr == getAffineDimExpr(index.getDim(), op.getContext()))
            extent = cast<ShapedType>(result.getType()).getDimSize(k);
      }
      if (extent != read.getTensor().getType().getDimSize(at->axis)) {
        nested->emitError("reads a part of the batch axis ") << at->axis;
        return WalkResult::interrupt();
      }
      batchDim = index.getDim();
      factors = *at;
      batchReads.push_back(read);
    }
    return WalkResult::advance();
  });
  if (captured.wasInterrupted())
    return failure();
  if (!batchDim)
    return success();
  unsigned d = *batchDim;
  if (!op.hasPureTensorSemantics())
    return op->emitError("reads a batch tensor with buffer semantics");
  if (op.getIteratorTypesArray()[d] != utils::IteratorType::parallel)
    return op->emitError("reduces over the batch (loop dimension d")
           << d << "): samples would mix";
  // The index of d is read only as the batch index of those reads.
  bool readsIndex = false;
  op->walk([&](linalg::IndexOp index) {
    if (index.getDim() != d)
      return;
    for (OpOperand &use : index->getUses()) {
      auto read = dyn_cast<tensor::ExtractOp>(use.getOwner());
      readsIndex |=
          !read || !llvm::is_contained(batchReads, read) ||
          use.getOperandNumber() != 1 + axisOf(read.getTensor())->axis;
    }
  });
  if (readsIndex)
    return op->emitError("reads the index of the batch loop dimension d")
           << d << ": samples would differ";
  for (OpOperand &operand : op->getOpOperands()) {
    if (axisOf(operand.get()) || !op.payloadUsesValueFromOperand(&operand))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [at, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(d))
        continue;
      if (!isa<AffineDimExpr>(expr) || !isUniform(operand.get(), at))
        return op->emitError("operand ")
               << operand.getOperandNumber()
               << " has no batch axis but differs along the batch loop "
                  "dimension d"
               << d << " (axis " << at << "): samples would differ";
    }
  }
  for (OpResult result : op->getResults()) {
    AffineMap map = op.getIndexingMapMatchingResult(result);
    std::optional<int64_t> at;
    for (auto [k, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (dim && dim.getPosition() == d && !at)
        at = k;
      else if (expr.isFunctionOfDim(d))
        return op->emitError("result ")
               << result.getResultNumber()
               << " is indexed by the batch loop dimension d" << d
               << " along more than one axis";
    }
    if (!at)
      return op->emitError("result ")
             << result.getResultNumber() << " has no batch axis";
    axes[result] = {*at, factors.outer, factors.inner};
  }
  return success();
}

LogicalResult Prover::visitCollapse(tensor::CollapseShapeOp op, BatchAxis in) {
  // Merged with axes before it (sizes multiplying `outer`) and after it
  // (multiplying `inner`): o' * (size * after) + i * after + r'.
  ArrayRef<int64_t> shape = op.getSrcType().getShape();
  for (auto [to, group] : llvm::enumerate(op.getReassociationIndices())) {
    if (!llvm::is_contained(group, in.axis))
      continue;
    BatchAxis out{static_cast<int64_t>(to), in.outer, in.inner};
    for (int64_t from : group) {
      if (ShapedType::isDynamic(shape[from]))
        return op->emitError("merges the batch axis with a dynamic one");
      if (from < in.axis)
        out.outer *= shape[from];
      else if (from > in.axis)
        out.inner *= shape[from];
    }
    axes[op.getResult()] = out;
    return success();
  }
  return op->emitError("has no reassociation group for axis ") << in.axis;
}

LogicalResult Prover::visitExpand(tensor::ExpandShapeOp op, BatchAxis in) {
  // Split in row-major order, the batch must fall within one new axis j:
  // the product of the sizes before j divides `outer`, and outer * batch
  // divides the product up to j. Then axis j holds it with outer' =
  // outer / before and inner' = upTo / (outer * batch).
  ArrayRef<int64_t> shape = op.getResultType().getShape();
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  int64_t before = 1;
  for (int64_t to : groups[in.axis]) {
    if (ShapedType::isDynamic(shape[to]))
      return op->emitError("splits the batch axis into a dynamic one");
    int64_t upTo = before * shape[to];
    if (in.outer % before == 0 && upTo % (in.outer * batch) == 0) {
      axes[op.getResult()] = {to, in.outer / before, upTo / (in.outer * batch)};
      return success();
    }
    before = upTo;
  }
  return op->emitError("splits the batch axis ")
         << in.axis << " so that no axis holds whole samples";
}

LogicalResult Prover::visitInsert(tensor::InsertSliceOp op) {
  std::optional<BatchAxis> source = axisOf(op.getSource());
  std::optional<BatchAxis> dest = axisOf(op.getDest());
  if (!source && !dest)
    return success();
  SmallVector<int64_t> kept = keptAxes(op.getDroppedDims());
  ArrayRef<int64_t> destShape = op.getDestType().getShape();
  auto inDest = [&](int64_t sourceAxis) { return kept[sourceAxis]; };
  auto inSource = [&](int64_t destAxis) -> std::optional<int64_t> {
    auto it = llvm::find(kept, destAxis);
    if (it == kept.end())
      return std::nullopt;
    return it - kept.begin();
  };
  BatchAxis out = dest ? *dest : *source;
  if (!dest)
    out.axis = inDest(source->axis);
  if (!takesWhole(op, out.axis, destShape[out.axis]))
    return op->emitError("inserts a part of the batch axis ") << out.axis;
  std::optional<int64_t> sourceAxis = inSource(out.axis);
  if (!sourceAxis)
    return op->emitError("drops the batch axis");
  if (source && (source->axis != *sourceAxis || !source->sameFactors(out)))
    return op->emitError("inserts a batch along another axis: samples "
                         "would mix");
  if (!source && !isUniform(op.getSource(), *sourceAxis))
    return op->emitError("inserts a tensor with no batch axis that differs "
                         "along the batch");
  if (!dest && !isUniform(op.getDest(), out.axis))
    return op->emitError("inserts into a tensor with no batch axis that "
                         "differs along the batch");
  axes[op.getResult()] = out;
  return success();
}

LogicalResult Prover::visitConcat(tensor::ConcatOp op) {
  std::optional<BatchAxis> out;
  for (Value input : op.getInputs())
    if (std::optional<BatchAxis> in = axisOf(input)) {
      if (out && (out->axis != in->axis || !out->sameFactors(*in)))
        return op->emitError("joins batches along different axes");
      out = in;
    }
  if (!out)
    return success();
  if (static_cast<int64_t>(op.getDim()) == out->axis)
    return op->emitError("concatenates along the batch axis: samples "
                         "would mix");
  for (Value input : op.getInputs())
    if (!axisOf(input) && !isUniform(input, out->axis))
      return op->emitError("joins a tensor with no batch axis that differs "
                           "along the batch");
  axes[op.getResult()] = *out;
  return success();
}

LogicalResult Prover::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitInsert(insert);
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return visitConcat(concat);
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (auto [k, value] : llvm::enumerate(ret.getOperands())) {
      std::optional<BatchAxis> at = axisOf(value);
      if (!at || at->axis != 0 || !at->isPlain())
        return op->emitError("result ")
               << k << " does not hold the batch as its first dimension";
    }
    return success();
  }
  // The ops below have one source operand; anything else that reads a
  // value with a batch axis is refused.
  std::optional<BatchAxis> in;
  for (Value operand : op->getOperands())
    if ((in = axisOf(operand)))
      break;
  if (!in)
    return success();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse, *in);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand, *in);
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    axes[cast.getResult()] = *in;
    return success();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    if (getConstantIntValue(pad.getMixedLowPad()[in->axis]) != 0 ||
        getConstantIntValue(pad.getMixedHighPad()[in->axis]) != 0)
      return op->emitError("pads the batch axis ") << in->axis;
    axes[pad.getResult()] = *in;
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    int64_t full = slice.getSourceType().getDimSize(in->axis);
    if (!takesWhole(slice, in->axis, full))
      return op->emitError("takes a part of the batch axis ") << in->axis;
    SmallVector<int64_t> kept = keptAxes(slice.getDroppedDims());
    auto it = llvm::find(kept, in->axis);
    if (it == kept.end())
      return op->emitError("drops the batch axis");
    axes[slice.getResult()] = {it - kept.begin(), in->outer, in->inner};
    return success();
  }
  return op->emitError("reads a batch tensor in a way not known to keep the "
                       "samples apart");
}

LogicalResult Prover::run(func::FuncOp func, ArrayRef<unsigned> batchArgs) {
  for (unsigned k : batchArgs) {
    if (k >= func.getNumArguments())
      return func.emitError("no argument ") << k;
    auto type = dyn_cast<RankedTensorType>(func.getArgument(k).getType());
    if (!type || type.getRank() == 0 || type.getDimSize(0) != batch)
      return func.emitError("argument ")
             << k << " does not have the batch size " << batch
             << " as its first dimension";
    axes[func.getArgument(k)] = {0};
  }
  // A linalg op's body is its own to check (visitLinalg).
  WalkResult walk =
      func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (failed(visit(op)))
          return WalkResult::interrupt();
        return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                         : WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

LogicalResult mlir::fuse::proveBatchSeparable(func::FuncOp func,
                                              ArrayRef<unsigned> batchArgs,
                                              int64_t batch) {
  if (batch < 2)
    return func.emitError("the batch size must be at least 2 to tell the "
                          "batch from other axes, not ")
           << batch;
  return Prover(batch).run(func, batchArgs);
}
