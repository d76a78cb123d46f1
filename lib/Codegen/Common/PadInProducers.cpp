//===- PadInProducers.cpp - A group's result written with its halo --------===//
//
// A convolution or pool whose window reaches past the border of its input
// reads that input through a `tensor.pad`. Tiling makes the pad a padded
// window per tile: a buffer whose halo is filled and whose inside is copied
// from the input, for every tile again (4-7% of a convolution group's time
// on the CPU). When the input is another group's result, that group can
// write it straight into a buffer that has the halo already, and the reader
// reads its windows there:
//
//   %x = fuse.group ... { ... }
//   %y = fuse.group ins(%x : tensor<1x56x56x64xf32>) ... {
//   ^bb0(%a: tensor<1x56x56x64xf32>):
//     %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] { yield %zero }
//     ... linalg.conv_2d_nhwc_hwcf ins(%p, ...) ...
//   }
//
// becomes
//
//   %e = tensor.empty() : tensor<1x58x58x64xf32>
//   %h = (%e with its halo filled with %zero: a fill per slab, Halos.h)
//   %x = fuse.group ... { ... }
//   %xp = tensor.insert_slice %x into %h[0, 1, 1, 0] [1, 56, 56, 64]
//                                        [1, 1, 1, 1]
//   %y = fuse.group ins(%xp : tensor<1x58x58x64xf32>) ... {
//   ^bb0(%a: tensor<1x58x58x64xf32>):
//     ... linalg.conv_2d_nhwc_hwcf ins(%a, ...) ...
//   }
//
// Bufferization writes %x in place into %xp's buffer (empty-tensor
// elimination, as for the parts of a concat), so the halo is written once
// per call and no window is copied. The values are the same: the reader
// sees the padded tensor it built before.
//
// Where the producer writes %x in place into another group's result (a
// concat's parts, one group each: concat elimination's form), the halo is
// filled before the first group of that chain, so that every part can be
// written into the padded buffer (fuse-insert-chains-to-buffer starts the
// chain from the padded tensor's inside), none copied there.
//
// All the pads of one value with one padding value share one buffer: its
// halo is, per side and dimension, the largest of theirs, and a pad with a
// smaller one reads its box of the buffer (Inception-v3's 1x7 and 7x1
// convolutions of one input). Readers that do not pad the value, or pad it
// with another value, read %x as before, a view of the buffer.
//
// Applies to a pad of a group's input with constant sizes and a constant
// padding value (an attribute, or a splat's element as a lowered tosa.pad
// has it), where the input is a result of another group and only
// groups read it (a function's result written into the padded buffer would
// be copied out of it again).
//
//===----------------------------------------------------------------------===//

#include "PadInProducers.h"
#include "FuseDialect/Transforms/VerifyInput.h"
#include "Halos.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// `pad`'s halo on the low (`high` false) or high sides, when every side's
/// is a constant (an attribute, or a value as a lowered tosa.pad has them)
/// and not negative.
std::optional<SmallVector<int64_t>> getStaticHalo(tensor::PadOp pad,
                                                  bool high) {
  SmallVector<int64_t> halo;
  for (OpFoldResult side :
       high ? pad.getMixedHighPad() : pad.getMixedLowPad()) {
    std::optional<int64_t> size = getConstantIntValue(side);
    if (!size || *size < 0)
      return std::nullopt;
    halo.push_back(*size);
  }
  return halo;
}

/// `pad`'s padding value, when it is a constant: an attribute, or an
/// element of a splat constant (a lowered tosa.pad's pad_const).
TypedAttr getConstantPadding(tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  if (!value)
    return {};
  TypedAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  DenseElementsAttr splat;
  if (auto extract = value.getDefiningOp<tensor::ExtractOp>();
      extract && matchPattern(extract.getTensor(), m_Constant(&splat)) &&
      splat.isSplat())
    return splat.getSplatValue<TypedAttr>();
  return {};
}

/// A pad of a group's input that the input's producer can take over: static
/// sizes, its halo and padding value constants.
struct InputPad {
  GroupOp reader;
  tensor::PadOp pad;
  TypedAttr padding;
  SmallVector<int64_t> low, high;

  static std::optional<InputPad> get(GroupOp reader, tensor::PadOp pad) {
    if (!pad.getSourceType().hasStaticShape() ||
        !pad.getResultType().hasStaticShape())
      return std::nullopt;
    std::optional<SmallVector<int64_t>> low = getStaticHalo(pad, false);
    std::optional<SmallVector<int64_t>> high = getStaticHalo(pad, true);
    TypedAttr padding = getConstantPadding(pad);
    if (!low || !high || !padding)
      return std::nullopt;
    return InputPad{reader, pad, padding, std::move(*low), std::move(*high)};
  }
};

/// The first group of the chain that writes `value` (a result of
/// `producer`) in place, where the chain starts from a tensor.empty:
/// `producer` yields `value` as parts inserted into one of its inputs (a
/// concat whose other parts an earlier group wrote: concat elimination's
/// form), that input's writer likewise, and so on, while no one else reads
/// the input, back to a group that inserts its parts into a tensor.empty of
/// its own. `producer` itself otherwise: the padded tensor is then made
/// right before it, and lives no longer than it must.
GroupOp getFirstInPlaceWriter(GroupOp producer, Value value) {
  GroupOp writer = producer;
  while (true) {
    Value yielded =
        writer.getYield()->getOperand(cast<OpResult>(value).getResultNumber());
    while (auto insert = yielded.getDefiningOp<tensor::InsertSliceOp>())
      yielded = insert.getDest();
    if (yielded.getDefiningOp<tensor::EmptyOp>())
      return writer;
    auto arg = dyn_cast<BlockArgument>(yielded);
    if (!arg || arg.getOwner() != &writer.getBodyBlock())
      return producer;
    Value input = writer.getInputs()[arg.getArgNumber()];
    auto previous = input.getDefiningOp<GroupOp>();
    if (!previous || previous->getBlock() != writer->getBlock() ||
        !input.hasOneUse())
      return producer;
    writer = previous;
    value = input;
  }
}

/// The padded tensor of `value` (a result of the group `producer`), of
/// `shape`, with `value` at `low` and the halo around it of `padding`: the
/// halo filled before the chain of groups that writes `value` in place,
/// `value` inserted after `producer`. Made before the chain, the padded
/// tensor dominates the tensor.empty its first group inserts its part
/// into, which fuse-insert-chains-to-buffer then replaces with the padded
/// tensor's inside: every part is written there, none copied.
Value buildPadded(RewriterBase &rewriter, GroupOp producer, Value value,
                  TypedAttr padding, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  Location loc = value.getLoc();
  Type elementType = type.getElementType();
  SmallVector<OpFoldResult> ones(type.getRank(), rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> offsets =
      getAsIndexOpFoldResult(rewriter.getContext(), low);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());

  rewriter.setInsertionPoint(getFirstInPlaceWriter(producer, value));
  Value fillValue = arith::ConstantOp::create(rewriter, loc, padding);
  Value halo = tensor::EmptyOp::create(rewriter, loc, shape, elementType);
  forEachHaloSlab(
      rewriter, loc, shape, offsets, sizes,
      [&](ArrayRef<OpFoldResult> slabOffsets,
          ArrayRef<OpFoldResult> slabSizes) {
        SmallVector<int64_t> slabShape;
        for (OpFoldResult size : slabSizes)
          slabShape.push_back(*getConstantIntValue(size));
        Value slab =
            tensor::EmptyOp::create(rewriter, loc, slabShape, elementType);
        slab =
            linalg::FillOp::create(rewriter, loc, fillValue, slab).getResult(0);
        halo = tensor::InsertSliceOp::create(rewriter, loc, slab, halo,
                                             slabOffsets, slabSizes, ones);
      });
  rewriter.setInsertionPointAfter(producer);
  return tensor::InsertSliceOp::create(rewriter, loc, value, halo, offsets,
                                       sizes, ones);
}

/// `pads` (of `value`, one padding value) read `padded` instead, whose
/// halo is `low` on the low sides; each reader group gets it as a new
/// input, and the inputs of `value` they no longer read go.
void readPadded(RewriterBase &rewriter, ArrayRef<InputPad> pads, Value value,
                Value padded, ArrayRef<int64_t> low) {
  llvm::MapVector<Operation *, BlockArgument> argOf;
  for (const InputPad &p : pads) {
    // Op handles are values; their accessors are not const.
    GroupOp reader = p.reader;
    tensor::PadOp pad = p.pad;
    BlockArgument &arg = argOf[reader];
    if (!arg) {
      reader.getInputsMutable().append(padded);
      arg = reader.getBodyBlock().addArgument(padded.getType(), pad.getLoc());
    }
    Value replacement = arg;
    if (pad.getResultType() != padded.getType()) {
      SmallVector<int64_t> offsets;
      for (auto [l, own] : llvm::zip(low, p.low))
        offsets.push_back(l - own);
      rewriter.setInsertionPoint(pad);
      int64_t rank = offsets.size();
      replacement = tensor::ExtractSliceOp::create(
          rewriter, pad.getLoc(), pad.getResultType(), arg, ValueRange(),
          ValueRange(), ValueRange(), offsets, pad.getResultType().getShape(),
          SmallVector<int64_t>(rank, 1));
    }
    rewriter.replaceOp(pad, replacement);
  }
  for (auto [reader, arg] : argOf) {
    auto group = cast<GroupOp>(reader);
    Block &body = group.getBodyBlock();
    for (int i = body.getNumArguments() - 1; i >= 0; --i) {
      if (group.getInputs()[i] != value || !body.getArgument(i).use_empty())
        continue;
      group.getInputsMutable().erase(i);
      body.eraseArgument(i);
    }
  }
}

} // namespace

unsigned mlir::fuse::padInProducers(RewriterBase &rewriter,
                                    ArrayRef<GroupOp> groups) {
  // The pads of each group result, in program order.
  llvm::MapVector<Value, SmallVector<InputPad>> padsOf;
  for (GroupOp reader : groups) {
    for (auto pad : reader.getBodyBlock().getOps<tensor::PadOp>()) {
      auto arg = dyn_cast<BlockArgument>(pad.getSource());
      if (!arg || arg.getOwner() != &reader.getBodyBlock())
        continue;
      Value input = reader.getInputs()[arg.getArgNumber()];
      auto producer = input.getDefiningOp<GroupOp>();
      if (!producer || producer->getBlock() != reader->getBlock() ||
          !llvm::all_of(input.getUsers(),
                        [](Operation *user) { return isa<GroupOp>(user); }))
        continue;
      if (std::optional<InputPad> p = InputPad::get(reader, pad))
        padsOf[input].push_back(std::move(*p));
    }
  }

  unsigned count = 0;
  for (auto &[value, all] : padsOf) {
    // Those with the first one's padding value.
    TypedAttr padding = all.front().padding;
    SmallVector<InputPad> pads;
    llvm::copy_if(all, std::back_inserter(pads),
                  [&](const InputPad &p) { return p.padding == padding; });
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    SmallVector<int64_t> low(rank, 0), high(rank, 0);
    for (const InputPad &p : pads)
      for (int64_t d = 0; d < rank; ++d) {
        low[d] = std::max(low[d], p.low[d]);
        high[d] = std::max(high[d], p.high[d]);
      }
    // Halos of several pads add up: within the bound every pipeline keeps.
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape;
    for (auto [size, l, h] : llvm::zip(type.getShape(), low, high))
      shape.push_back(l + size + h);
    std::optional<int64_t> bytes =
        getCheckedByteSize(RankedTensorType::get(shape, type.getElementType()));
    if (!bytes || *bytes > kMaxShapedBytes)
      continue;
    Value padded = buildPadded(rewriter, value.getDefiningOp<GroupOp>(), value,
                               padding, low, shape);
    readPadded(rewriter, pads, value, padded, low);
    count += pads.size();
  }
  return count;
}
