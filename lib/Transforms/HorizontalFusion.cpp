//===- HorizontalFusion.cpp - Merge same-input convs and matmuls ----------===//
//
// For every value, its users that are mergeable (same op kind and
// attributes, constant weights, zero zero-points) are grouped by a key of
// their attributes and kernel shape; each group of two or more becomes one
// op over concatenated weights, followed by one `tosa.slice` per original
// result.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Passes.h"
#include "FuseDialect/Utils/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>

#define DEBUG_TYPE "fuse-horizontal"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEHORIZONTALPASS
#include "FuseDialect/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

DenseElementsAttr getConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  return attr;
}

/// Concatenates element lists of `parts` (row-major, `outer` rows before
/// the concatenated axis) into one list.
template <typename T>
SmallVector<T> interleaveChunks(ArrayRef<DenseElementsAttr> parts,
                                int64_t outer) {
  SmallVector<SmallVector<T>> values;
  SmallVector<int64_t> chunk;
  int64_t total = 0;
  for (DenseElementsAttr part : parts) {
    // Splats expand to their full size.
    auto type = cast<ShapedType>(part.getType());
    values.emplace_back(part.getValues<T>().begin(), part.getValues<T>().end());
    if (static_cast<int64_t>(values.back().size()) != type.getNumElements())
      values.back().assign(type.getNumElements(), values.back().front());
    chunk.push_back(values.back().size() / outer);
    total += values.back().size();
  }
  SmallVector<T> out;
  out.reserve(total);
  for (int64_t o = 0; o < outer; ++o)
    for (auto [k, part] : llvm::enumerate(values))
      out.append(part.begin() + o * chunk[k], part.begin() + (o + 1) * chunk[k]);
  return out;
}

/// Concatenates constants along `axis` (all other dims equal), element
/// values as APFloat/APInt (no per-element attributes).
DenseElementsAttr concatConstants(ArrayRef<DenseElementsAttr> parts,
                                  int64_t axis) {
  auto first = cast<RankedTensorType>(parts.front().getType());
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (DenseElementsAttr part : parts)
    shape[axis] += cast<ShapedType>(part.getType()).getDimSize(axis);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  auto type = RankedTensorType::get(shape, first.getElementType());
  if (isa<FloatType>(first.getElementType()))
    return DenseElementsAttr::get(type, interleaveChunks<APFloat>(parts, outer));
  return DenseElementsAttr::get(type, interleaveChunks<APInt>(parts, outer));
}

Value buildShape(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = tosa::shapeType::get(b.getContext(), values.size());
  auto attrType = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                        b.getIndexType());
  return tosa::ConstShapeOp::create(b, loc, type,
                                    DenseIntElementsAttr::get(attrType, values));
}

/// Replaces `ops` (results concatenated along the last axis into `wide`) by
/// slices of `wide`.
void replaceBySlices(OpBuilder &b, ArrayRef<Operation *> ops, Value wide) {
  auto wideType = cast<RankedTensorType>(wide.getType());
  int64_t offset = 0;
  for (Operation *op : ops) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> start(type.getRank(), 0);
    start.back() = offset;
    Value slice = tosa::SliceOp::create(
        b, op->getLoc(), type, wide, buildShape(b, op->getLoc(), start),
        buildShape(b, op->getLoc(), type.getShape()));
    op->getResult(0).replaceAllUsesWith(slice);
    offset += type.getShape().back();
  }
  (void)wideType;
  for (Operation *op : ops)
    op->erase();
}

/// Convolutions mergeable with others: constant weights and bias, zero
/// zero-points, float. Key: attributes and kernel shape.
std::optional<std::string> convKey(tosa::Conv2DOp conv) {
  if (!getConstant(conv.getWeight()) || !getConstant(conv.getBias()) ||
      !isZeroSplatConstant(conv.getInputZp()) ||
      !isZeroSplatConstant(conv.getWeightZp()))
    return std::nullopt;
  auto w = cast<RankedTensorType>(conv.getWeight().getType());
  auto bias = cast<RankedTensorType>(conv.getBias().getType());
  auto result = cast<RankedTensorType>(conv.getType());
  if (!w.hasStaticShape() || !result.hasStaticShape() ||
      bias.getDimSize(0) != w.getDimSize(0))
    return std::nullopt;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << conv->getPropertiesAsAttribute() << w.getDimSize(1) << "x"
     << w.getDimSize(2) << "x" << w.getDimSize(3) << w.getElementType()
     << bias.getElementType() << result.getElementType();
  return key;
}

std::optional<std::string> matmulKey(tosa::MatMulOp matmul) {
  if (!getConstant(matmul.getB()) || !isZeroSplatConstant(matmul.getAZp()) ||
      !isZeroSplatConstant(matmul.getBZp()))
    return std::nullopt;
  auto b = cast<RankedTensorType>(matmul.getB().getType());
  if (!b.hasStaticShape())
    return std::nullopt;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << "matmul" << b.getDimSize(0) << "x" << b.getDimSize(1)
     << b.getElementType()
     << cast<ShapedType>(matmul.getType()).getElementType();
  return key;
}

struct FuseHorizontalPass final
    : fuse::impl::FuseHorizontalPassBase<FuseHorizontalPass> {
  using Base::Base;

  void runOnOperation() override {
    // One visit per value. Merging erases users (convs/matmuls), which may
    // themselves be on the list: those are skipped by pointer, never
    // dereferenced.
    SmallVector<Value> args;
    SmallVector<Operation *> producers;
    getOperation()->walk([&](Operation *op) {
      producers.push_back(op);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            args.push_back(arg);
    });
    for (Value arg : args)
      while (mergeUsers(arg)) {
      }
    for (Operation *op : producers) {
      if (erased.contains(op))
        continue;
      for (Value result : op->getResults())
        while (mergeUsers(result)) {
        }
    }
  }

  /// Merges one bucket of `value`'s users; true if it did.
  bool mergeUsers(Value value) {
    llvm::MapVector<std::string, SmallVector<Operation *>,
                    std::map<std::string, unsigned>>
        buckets;
    for (Operation *user : value.getUsers()) {
      if (auto conv = dyn_cast<tosa::Conv2DOp>(user);
          conv && conv.getInput() == value)
        if (std::optional<std::string> key = convKey(conv))
          buckets[*key].push_back(user);
      if (auto matmul = dyn_cast<tosa::MatMulOp>(user);
          matmul && matmul.getA() == value && matmul.getB() != value)
        if (std::optional<std::string> key = matmulKey(matmul))
          buckets[*key].push_back(user);
    }
    for (auto &[key, ops] : buckets) {
      // Users may sit in different blocks; merge those of one block only.
      llvm::erase_if(ops, [&](Operation *op) {
        return op->getBlock() != ops.front()->getBlock();
      });
      if (ops.size() < 2)
        continue;
      // Insert before the first of them: the shared input and the zero
      // points (constants) dominate it, and so will every slice's users.
      llvm::sort(ops, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      OpBuilder b(ops.front());
      for (Operation *op : ops)
        erased.insert(op);
      if (isa<tosa::Conv2DOp>(ops.front()))
        mergeConvs(b, ops);
      else
        mergeMatmuls(b, ops);
      numMerged += ops.size();
      return true;
    }
    return false;
  }

  /// Ops erased by merging (compared by pointer only).
  llvm::DenseSet<Operation *> erased;

  void mergeConvs(OpBuilder &b, SmallVector<Operation *> &ops) {
    SmallVector<DenseElementsAttr> weights, biases;
    for (Operation *op : ops) {
      auto conv = cast<tosa::Conv2DOp>(op);
      weights.push_back(getConstant(conv.getWeight()));
      biases.push_back(getConstant(conv.getBias()));
    }
    // Weights [OC, KH, KW, IC] and bias [OC] concatenate on OC.
    auto first = cast<tosa::Conv2DOp>(ops.front());
    DenseElementsAttr w = concatConstants(weights, 0);
    emitWide(b, ops, cast<ShapedType>(w.getType()).getDimSize(0),
             {{first.getWeightMutable().getOperandNumber(), w},
              {first.getBiasMutable().getOperandNumber(),
               concatConstants(biases, 0)}});
  }

  void mergeMatmuls(OpBuilder &b, SmallVector<Operation *> &ops) {
    SmallVector<DenseElementsAttr> weights;
    for (Operation *op : ops)
      weights.push_back(getConstant(cast<tosa::MatMulOp>(op).getB()));
    // B [N, K, C] concatenates on C.
    auto first = cast<tosa::MatMulOp>(ops.front());
    DenseElementsAttr w = concatConstants(weights, 2);
    emitWide(b, ops, cast<ShapedType>(w.getType()).getDimSize(2),
             {{first.getBMutable().getOperandNumber(), w}});
  }

  /// Clones the first of `ops` with the given operands replaced by new
  /// constants (the concatenated weights), widens its result's last axis to
  /// `channels` and turns every op of `ops` into a slice of it.
  void emitWide(OpBuilder &b, ArrayRef<Operation *> ops, int64_t channels,
                ArrayRef<std::pair<unsigned, DenseElementsAttr>> constants) {
    Operation *first = ops.front();
    Location loc = first->getLoc();
    // Constants first, so that they dominate the wide op.
    SmallVector<Value> values;
    for (auto [index, attr] : constants)
      values.push_back(tosa::ConstOp::create(b, loc, attr.getType(), attr));
    Operation *wide = b.clone(*first);
    for (auto [entry, value] : llvm::zip(constants, values))
      wide->setOperand(entry.first, value);
    auto resultType = cast<RankedTensorType>(first->getResult(0).getType());
    SmallVector<int64_t> shape(resultType.getShape());
    shape.back() = channels;
    wide->getResult(0).setType(
        RankedTensorType::get(shape, resultType.getElementType()));
    b.setInsertionPointAfter(wide);
    replaceBySlices(b, ops, wide->getResult(0));
  }
};

} // namespace
