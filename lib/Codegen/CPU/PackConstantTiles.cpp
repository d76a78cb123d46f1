//===- PackConstantTiles.cpp - One contiguous block of a constant per tile ===//
//
// After `--fuse-tile-groups` a group's tiles read a constant weight through
// slices: the tile at offset `n` of the N loop reads columns `n : n + t` of
// every row of a filter or weight matrix. Those are `rows` runs of `t`
// elements a whole row apart, and a tile streams them from memory at the
// cost of one page walk and one unprefetched line per run. The constant is
// rewritten at compile time tile-major, `T x rows x t`, and each slice reads
// its tile's block, which is contiguous:
//
//   %w = arith.constant dense<...> : tensor<1024x2048xf32>
//   scf.forall (%n) = (0) to (2048) step (64) {
//     %s = tensor.extract_slice %w[0, %n] [1024, 64] [1, 1]
//
// becomes
//
//   %w = arith.constant dense<...> : tensor<32x1024x64xf32>
//   scf.forall (%n) = (0) to (2048) step (64) {
//     %t = arith.divui %n, %c64
//     %s = tensor.extract_slice %w[%t, 0, 0] [1, 1024, 64] [1, 1, 1]
//         : tensor<32x1024x64xf32> to tensor<1024x64xf32>
//
// A constant is packed only when every use is such a slice, with the same
// tile width, or a view of its first columns (a permuted filter's rows
// without their padding, which packing drops) read only by such slices;
// other constants are left as they are.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPACKCONSTANTTILESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The tile index of a slice's offset along the constant's innermost
/// dimension, tiles of `width`: a constant multiple of `width`, or an
/// induction variable of an `scf.forall` from 0 by `width` whose last tile
/// ends within `extent`. Returns the tile index as a constant (`constant`)
/// or the induction variable (`iv`); false when the offset is neither.
bool getTileIndex(OpFoldResult offset, int64_t width, int64_t extent,
                  std::optional<int64_t> &constant, Value &iv) {
  if (std::optional<int64_t> value = getConstantIntValue(offset)) {
    if (*value < 0 || *value % width != 0 || *value + width > extent)
      return false;
    constant = *value / width;
    return true;
  }
  auto arg = dyn_cast<BlockArgument>(cast<Value>(offset));
  if (!arg)
    return false;
  auto forall = dyn_cast<scf::ForallOp>(arg.getOwner()->getParentOp());
  if (!forall || arg.getOwner() != forall.getBody())
    return false;
  unsigned i = arg.getArgNumber();
  if (i >= forall.getRank())
    return false;
  std::optional<int64_t> lower =
      getConstantIntValue(forall.getMixedLowerBound()[i]);
  std::optional<int64_t> upper =
      getConstantIntValue(forall.getMixedUpperBound()[i]);
  std::optional<int64_t> step = getConstantIntValue(forall.getMixedStep()[i]);
  if (!lower || !upper || !step || *lower != 0 || *step != width ||
      *upper % width != 0 || *upper > extent)
    return false;
  iv = arg;
  return true;
}

/// Whether `slice` reads one tile of its constant source of type `type`:
/// unit strides, every dimension but the innermost whole, the innermost
/// `width` (set from the first slice) at a tile offset.
bool isTileSlice(tensor::ExtractSliceOp slice, RankedTensorType type,
                 int64_t &width) {
  if (!slice.hasUnitStride())
    return false;
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (!isConstantIntValue(offsets[d], 0) ||
        !isConstantIntValue(sizes[d], type.getDimSize(d)))
      return false;
  std::optional<int64_t> size = getConstantIntValue(sizes.back());
  if (!size || *size <= 0 || *size >= type.getShape().back() ||
      (width != 0 && *size != width))
    return false;
  width = *size;
  std::optional<int64_t> constant;
  Value iv;
  return getTileIndex(offsets.back(), width, type.getShape().back(), constant,
                      iv);
}

/// `attr` (whole-byte elements, not a splat) tile-major: `tiles` blocks of
/// rows x `width`, block t holding columns [t * width, (t + 1) * width) of
/// every row.
DenseElementsAttr packTiles(DenseElementsAttr attr, int64_t width,
                            int64_t tiles) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t elementBytes = getElementBytes(type);
  int64_t columns = type.getShape().back();
  int64_t rows = type.getNumElements() / columns;
  int64_t runBytes = width * elementBytes;
  ArrayRef<char> raw = attr.getRawData();
  std::vector<char> data;
  data.reserve(tiles * rows * runBytes);
  for (int64_t t = 0; t < tiles; ++t)
    for (int64_t r = 0; r < rows; ++r) {
      const char *run = raw.data() + (r * columns + t * width) * elementBytes;
      data.insert(data.end(), run, run + runBytes);
    }
  SmallVector<int64_t> shape = {tiles};
  llvm::append_range(shape, type.getShape().drop_back());
  shape.push_back(width);
  return DenseElementsAttr::getFromRawBuffer(type.clone(shape), data);
}

/// Whether `slice` is a view of the first columns of its source of type
/// `type` (a permuted filter's rows without their padding): zero offsets,
/// unit strides, every dimension but the innermost whole, same rank.
bool isColumnPrefix(tensor::ExtractSliceOp slice, RankedTensorType type) {
  RankedTensorType result = slice.getResultType();
  if (!slice.hasUnitStride() || !slice.hasZeroOffset() ||
      !result.hasStaticShape() || result.getRank() != type.getRank())
    return false;
  return result.getShape().drop_back() == type.getShape().drop_back();
}

/// Packs `constant` when every use reads one tile of it (isTileSlice), or
/// is a column prefix of it (isColumnPrefix) every use of which does.
void packConstant(RewriterBase &rewriter, arith::ConstantOp constant) {
  auto attr = dyn_cast<DenseIntOrFPElementsAttr>(constant.getValue());
  if (!attr || attr.isSplat())
    return;
  auto type = cast<RankedTensorType>(attr.getType());
  Type element = type.getElementType();
  if (type.getRank() < 2 || !type.hasStaticShape() ||
      type.getNumElements() == type.getShape().back() ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return;
  // The tiles are counted in the columns the slices see: all of them, or
  // those of one prefix (the padding dropped).
  std::optional<int64_t> columns;
  int64_t width = 0;
  SmallVector<tensor::ExtractSliceOp> slices, prefixes;
  auto addTileSlices = [&](Value source, RankedTensorType seen) {
    if (columns && *columns != seen.getShape().back())
      return false;
    columns = seen.getShape().back();
    for (Operation *user : source.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || !isTileSlice(slice, seen, width))
        return false;
      slices.push_back(slice);
    }
    return true;
  };
  for (Operation *user : constant->getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (slice && isColumnPrefix(slice, type)) {
      if (!addTileSlices(slice.getResult(), slice.getResultType()))
        return;
      prefixes.push_back(slice);
    } else if (!slice || !isTileSlice(slice, type, width)) {
      return;
    } else {
      if (columns && *columns != type.getShape().back())
        return;
      columns = type.getShape().back();
      slices.push_back(slice);
    }
  }
  if (slices.empty())
    return;
  int64_t tiles = *columns / width;
  rewriter.setInsertionPoint(constant);
  Value packed = arith::ConstantOp::create(rewriter, constant.getLoc(),
                                           packTiles(attr, width, tiles));
  int64_t rank = type.getRank();
  for (tensor::ExtractSliceOp slice : slices) {
    std::optional<int64_t> index;
    Value iv;
    (void)getTileIndex(slice.getMixedOffsets().back(), width, *columns, index,
                       iv);
    rewriter.setInsertionPoint(slice);
    Location loc = slice.getLoc();
    OpFoldResult tile;
    if (index) {
      tile = rewriter.getIndexAttr(*index);
    } else {
      Value divisor = arith::ConstantIndexOp::create(rewriter, loc, width);
      tile = arith::DivUIOp::create(rewriter, loc, iv, divisor).getResult();
    }
    SmallVector<OpFoldResult> offsets(rank + 1, rewriter.getIndexAttr(0));
    offsets[0] = tile;
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
    for (int64_t d = 0; d + 1 < rank; ++d)
      sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
    sizes.push_back(rewriter.getIndexAttr(width));
    SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getResultType(), packed, offsets, sizes, strides);
  }
  for (tensor::ExtractSliceOp prefix : prefixes)
    rewriter.eraseOp(prefix);
  rewriter.eraseOp(constant);
}

struct FusePackConstantTilesPass final
    : fuse::impl::FusePackConstantTilesPassBase<FusePackConstantTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation()->walk([&](GroupOp group) {
      for (auto constant : group.getBodyBlock().getOps<arith::ConstantOp>())
        constants.push_back(constant);
    });
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp constant : constants)
      packConstant(rewriter, constant);
  }
};

} // namespace
