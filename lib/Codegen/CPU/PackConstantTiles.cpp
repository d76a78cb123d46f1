//===- PackConstantTiles.cpp - Constants laid out as their reads walk them ===//
//
// Two passes lay out a group's constant weights for the reads the CPU code
// makes of them. Both rewrite the constant at compile time, block after
// block, and the reads to index their block; the same elements are read.
//
// fuse-pack-constant-tiles, after `--fuse-tile-groups`: a tile reads a
// weight through a slice, the tile at offset `n` of the N loop columns
// `n : n + t` of every row of a filter or weight matrix. Those are `rows`
// runs of `t` elements a whole row apart, and a tile streams them from
// memory at the cost of one page walk and one unprefetched line per run.
// The constant becomes tile-major, `T x rows x t`, and each slice reads its
// tile's block, which is contiguous:
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
// without their padding, which packing drops) read only by such slices.
// The nest of a partial last tile (1000 classes in tiles of 256: three and
// one of 232, peeled apart) slices fewer columns at a constant offset up
// to the end: its block is padded with zeros to the width, and it reads
// the block's first columns.
// A slice may also take one index of other dimensions (ViT's QKV weight,
// 1 x 768 x 3 x 768, read by tiles of one of Q, K and V: [0, 0, q, n]
// [1, 768, 1, 64]); those dimensions go before the tiles, so that a
// tile's block is still contiguous (3 x 12 x 1 x 768 x 64), and the slice
// reads its block and expands it back to its own shape.
//
// fuse-pack-constant-panels, after `--fuse-vectorize-tiles`: a register
// block reads its vector of B at every reduction step, `v` lanes at
// `[.., k, n]`. Where the tile reads the weight whole (rows of a result
// kept whole for a LayerNorm, several roots of a QKV projection), or its
// tile is wider than a block, those are runs of `v` elements a row apart:
// 128 bytes every 3 KB down GPT-2's 3072 x 768 projection. The constant
// becomes panel-major, `N/v x rows x v`, and each read indexes its panel
// (the layout of tiles of width `v`, see packColumns):
//
//   %b = vector.transfer_read %w[%k, %n] : tensor<3072x768xf32>, vector<32xf32>
//
// becomes
//
//   %p = arith.divui %n, %c32
//   %b = vector.transfer_read %w[%p, %k, %c0]
//       : tensor<24x3072x32xf32>, vector<32xf32>
//
// only when every use is such a read, at an innermost index known to be a
// multiple of its own `v` (getKnownDivisor); reads of several widths share
// panels of the widest, which every other divides (a narrower read indexes
// its offset inside its panel). The panel index
// goes after the leading dimensions that no loop around the reads changes
// (getInvariantPrefix): a tile's block from fuse-pack-constant-tiles,
// `T x rows x t`, becomes `T x t/v x rows x v`, each tile's panels still
// one block.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/CPU/Passes.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Utils/Permutation.h"
#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPACKCONSTANTPANELSPASS
#define GEN_PASS_DEF_FUSEPACKCONSTANTTILESPASS
#include "FuseDialect/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The constant bounds of the `scf.forall` loop whose induction variable
/// `offset` is (not one of its shared outputs, also arguments of its body).
struct ForallRange {
  BlockArgument iv;
  int64_t lower, upper, step;
};
std::optional<ForallRange> getForallRange(OpFoldResult offset) {
  auto iv = dyn_cast_if_present<BlockArgument>(dyn_cast<Value>(offset));
  scf::ForallOp forall = iv ? scf::getForallOpThreadIndexOwner(iv) : nullptr;
  unsigned i = iv ? iv.getArgNumber() : 0;
  if (!forall || i >= forall.getRank())
    return std::nullopt;
  std::optional<int64_t> lower =
      getConstantIntValue(forall.getMixedLowerBound()[i]);
  std::optional<int64_t> upper =
      getConstantIntValue(forall.getMixedUpperBound()[i]);
  std::optional<int64_t> step = getConstantIntValue(forall.getMixedStep()[i]);
  if (!lower || !upper || !step)
    return std::nullopt;
  return ForallRange{iv, *lower, *upper, *step};
}

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
  std::optional<ForallRange> range = getForallRange(offset);
  if (!range || range->lower != 0 || range->step != width ||
      range->upper % width != 0 || range->upper > extent)
    return false;
  iv = range->iv;
  return true;
}

/// The value of `offset` when it has one: a constant, or the induction
/// variable of an `scf.forall` loop of one iteration from a constant (the
/// nest peeled for a partial last tile).
std::optional<int64_t> getOnlyValue(OpFoldResult offset) {
  if (std::optional<int64_t> value = getConstantIntValue(offset))
    return value;
  std::optional<ForallRange> range = getForallRange(offset);
  if (!range || range->step <= 0 || range->lower >= range->upper ||
      range->upper - range->lower > range->step)
    return std::nullopt;
  return range->lower;
}

/// Whether `slice` reads one tile of its constant source of type `type`:
/// unit strides, every dimension but the innermost whole or one index of
/// it (`moved`, set from the first slice: those dimensions, which packing
/// moves before the tiles; a QKV projection's tile reads one of Q, K and
/// V), the innermost `width` at a tile offset, or fewer at a tile's offset
/// up to the end of the innermost dimension (the partial last tile of a
/// nest whose tiles do not divide it, at a constant offset or in a loop of
/// one iteration: getOnlyValue; `partial` set).
bool isTileSlice(tensor::ExtractSliceOp slice, RankedTensorType type,
                 int64_t width, std::optional<SmallVector<bool>> &moved,
                 bool &partial) {
  if (!slice.hasUnitStride())
    return false;
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  SmallVector<bool> indexed(rank, false);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    if (isConstantIntValue(offsets[d], 0) &&
        isConstantIntValue(sizes[d], type.getDimSize(d)))
      continue;
    if (!isConstantIntValue(sizes[d], 1))
      return false;
    indexed[d] = true;
  }
  if (moved && *moved != indexed)
    return false;
  moved = indexed;
  std::optional<int64_t> size = getConstantIntValue(sizes.back());
  int64_t extent = type.getShape().back();
  if (!size || *size <= 0 || *size >= extent || *size > width)
    return false;
  if (*size < width) {
    std::optional<int64_t> offset = getOnlyValue(offsets.back());
    partial = true;
    return offset && *offset >= 0 && *offset % width == 0 &&
           *offset + *size == extent;
  }
  std::optional<int64_t> constant;
  Value iv;
  return getTileIndex(offsets.back(), width, type.getShape().back(), constant,
                      iv);
}

/// `attr` (whole-byte elements, not a splat) in `blocks` blocks of `width`
/// columns (its innermost dimension's first blocks x width), the block index
/// placed after the `outer` leading dimensions, the columns of each block
/// innermost: d0 x .. x d(outer-1) x N/width x d(outer) x .. x width. Block
/// b of each leading index holds columns [b * width, (b + 1) * width) of
/// every row under it; those past the innermost dimension (a partial last
/// block) hold zeros, which no slice reads.
DenseElementsAttr packColumns(DenseElementsAttr attr, int64_t width,
                              int64_t blocks, unsigned outer) {
  auto type = cast<RankedTensorType>(attr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t elementBytes = getElementBytes(type);
  int64_t columns = shape.back();
  int64_t leading = 1;
  for (int64_t size : shape.take_front(outer))
    leading *= size;
  int64_t rows = type.getNumElements() / columns / leading;
  int64_t runBytes = width * elementBytes;
  ArrayRef<char> raw = attr.getRawData();
  std::vector<char> data;
  data.reserve(leading * blocks * rows * runBytes);
  for (int64_t l = 0; l < leading; ++l)
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t copied = std::min(width, columns - b * width) * elementBytes;
      for (int64_t r = 0; r < rows; ++r) {
        const char *run =
            raw.data() + ((l * rows + r) * columns + b * width) * elementBytes;
        data.insert(data.end(), run, run + copied);
        data.insert(data.end(), runBytes - copied, 0);
      }
    }
  SmallVector<int64_t> packed(shape.take_front(outer));
  packed.push_back(blocks);
  llvm::append_range(packed, shape.drop_front(outer).drop_back());
  packed.push_back(width);
  return DenseElementsAttr::getFromRawBuffer(type.clone(packed), data);
}

/// The value of `constant` when packColumns can lay it out: a dense tensor
/// (not a vector constant, which is registers, not memory), not a splat, of
/// static shape with more than one row, of whole-byte int or float
/// elements. Null otherwise.
DenseIntOrFPElementsAttr getPackableAttr(arith::ConstantOp constant) {
  auto attr = dyn_cast<DenseIntOrFPElementsAttr>(constant.getValue());
  if (!attr || attr.isSplat())
    return {};
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type)
    return {};
  Type element = type.getElementType();
  if (type.getRank() < 2 || !type.hasStaticShape() ||
      type.getNumElements() == type.getShape().back() ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  return attr;
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
  auto attr = getPackableAttr(constant);
  if (!attr)
    return;
  auto type = cast<RankedTensorType>(attr.getType());
  // The tiles are counted in the columns the slices see: all of them, or
  // those of one prefix (the padding dropped).
  std::optional<int64_t> columns;
  // A view of the first columns: the constant's only use (a permuted
  // filter without its row padding, which keeps its layout unless slices
  // read the view), or one that only slices read. Beside other slices, a
  // zero-offset slice that something else reads is the first tile (of a
  // nest of one iteration, before a partial last tile).
  auto isPrefixView = [&](tensor::ExtractSliceOp slice) {
    return slice && isColumnPrefix(slice, type) &&
           (constant->hasOneUse() ||
            llvm::all_of(slice->getUsers(),
                         llvm::IsaPred<tensor::ExtractSliceOp>));
  };
  // The tiles' width: the widest slice's (a partial last tile is narrower).
  int64_t width = 0;
  auto widen = [&](Operation *user) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      if (std::optional<int64_t> size =
              getConstantIntValue(slice.getMixedSizes().back()))
        width = std::max(width, *size);
  };
  for (Operation *user : constant->getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (isPrefixView(slice))
      llvm::for_each(slice->getUsers(), widen);
    else
      widen(user);
  }
  std::optional<SmallVector<bool>> moved;
  bool partial = false;
  SmallVector<tensor::ExtractSliceOp> slices, prefixes;
  auto addTileSlices = [&](Value source, RankedTensorType seen) {
    if (columns && *columns != seen.getShape().back())
      return false;
    columns = seen.getShape().back();
    for (Operation *user : source.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || !isTileSlice(slice, seen, width, moved, partial))
        return false;
      slices.push_back(slice);
    }
    return true;
  };
  for (Operation *user : constant->getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (isPrefixView(slice)) {
      if (!addTileSlices(slice.getResult(), slice.getResultType()))
        return;
      prefixes.push_back(slice);
    } else if (!slice || !isTileSlice(slice, type, width, moved, partial)) {
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
  // The dimensions the slices index go first, then the tiles: a tile's
  // block is contiguous.
  int64_t rank = type.getRank();
  SmallVector<int64_t> permutation;
  for (int64_t d = 0; d < rank; ++d)
    if ((*moved)[d])
      permutation.push_back(d);
  unsigned outer = permutation.size();
  for (int64_t d = 0; d < rank; ++d)
    if (!(*moved)[d])
      permutation.push_back(d);
  // A tile's block is the slice with its moved dimensions dropped; the
  // slice is that block expanded (checked here, before anything changes).
  SmallVector<int64_t> blockShape;
  for (int64_t d : ArrayRef<int64_t>(permutation).drop_front(outer))
    blockShape.push_back(d + 1 == rank ? width : type.getDimSize(d));
  auto blockType = RankedTensorType::get(blockShape, type.getElementType());
  if (outer != 0 && (!prefixes.empty() || partial ||
                     llvm::any_of(slices, [&](tensor::ExtractSliceOp slice) {
                       return slice.getResultType().getRank() != rank ||
                              !getReassociationIndicesForReshape(
                                  blockType, slice.getResultType());
                     })))
    return;
  DenseElementsAttr ordered =
      outer == 0 ? attr : permuteConstant(attr, permutation);
  // Columns past the last tile that no slice reads (row padding) are
  // dropped; a partial last tile's block is padded to the width.
  int64_t tiles =
      partial ? llvm::divideCeil(*columns, width) : *columns / width;
  rewriter.setInsertionPoint(constant);
  Value packed = arith::ConstantOp::create(
      rewriter, constant.getLoc(), packColumns(ordered, width, tiles, outer));
  for (tensor::ExtractSliceOp slice : slices) {
    std::optional<int64_t> index;
    Value iv;
    // A partial tile reads the first columns of its block.
    int64_t size = *getConstantIntValue(slice.getMixedSizes().back());
    if (size < width)
      index = *getOnlyValue(slice.getMixedOffsets().back()) / width;
    else
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
    // Offsets, sizes: the moved dimensions' indices, the tile, then the
    // other dimensions whole.
    SmallVector<OpFoldResult> offsets, sizes;
    for (unsigned i = 0; i < outer; ++i) {
      offsets.push_back(slice.getMixedOffsets()[permutation[i]]);
      sizes.push_back(rewriter.getIndexAttr(1));
    }
    offsets.push_back(tile);
    sizes.push_back(rewriter.getIndexAttr(1));
    for (int64_t extent : blockShape) {
      offsets.push_back(rewriter.getIndexAttr(0));
      sizes.push_back(rewriter.getIndexAttr(extent));
    }
    sizes.back() = rewriter.getIndexAttr(size);
    SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
    if (outer == 0) {
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          slice, slice.getResultType(), packed, offsets, sizes, strides);
      continue;
    }
    // The block without the leading unit dimensions, expanded back to the
    // slice's shape (its moved dimensions of one index in place).
    Value read = tensor::ExtractSliceOp::create(
        rewriter, loc, blockType, packed, offsets, sizes, strides);
    SmallVector<ReassociationIndices> groups =
        *getReassociationIndicesForReshape(blockType, slice.getResultType());
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        slice, slice.getResultType(), read, groups);
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

/// A number `value` is known to be a multiple of (0: the value is 0, a
/// multiple of every number; 1: nothing is known): constants, induction
/// variables of `scf.for` and `scf.forall` (their lower bound and step),
/// and sums and products of those, as `arith` ops or `affine.apply`.
int64_t getKnownDivisor(Value value, unsigned depth = 0);

int64_t getKnownDivisor(OpFoldResult value, unsigned depth) {
  if (auto v = dyn_cast<Value>(value))
    return getKnownDivisor(v, depth);
  return std::abs(*getConstantIntValue(value));
}

int64_t getKnownDivisor(AffineExpr expr, ValueRange dims, ValueRange symbols,
                        unsigned depth) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return std::abs(constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return getKnownDivisor(dims[dim.getPosition()], depth);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return getKnownDivisor(symbols[symbol.getPosition()], depth);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = getKnownDivisor(binary.getLHS(), dims, symbols, depth);
  int64_t rhs = getKnownDivisor(binary.getRHS(), dims, symbols, depth);
  if (expr.getKind() == AffineExprKind::Add)
    return std::gcd(lhs, rhs);
  int64_t product;
  if (expr.getKind() == AffineExprKind::Mul &&
      !llvm::MulOverflow(lhs, rhs, product))
    return product;
  return 1;
}

int64_t getKnownDivisor(Value value, unsigned depth) {
  if (++depth > 8)
    return 1;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return std::abs(*constant);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent);
        loop && arg == loop.getInductionVar())
      return std::gcd(getKnownDivisor(loop.getLowerBound(), depth),
                      getKnownDivisor(loop.getStep(), depth));
    if (auto forall = dyn_cast<scf::ForallOp>(parent);
        forall && arg.getArgNumber() < forall.getRank()) {
      unsigned i = arg.getArgNumber();
      return std::gcd(
          getKnownDivisor(forall.getMixedLowerBound()[i], depth),
          getKnownDivisor(forall.getMixedStep()[i], depth));
    }
    return 1;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return 1;
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return std::gcd(getKnownDivisor(add.getLhs(), depth),
                    getKnownDivisor(add.getRhs(), depth));
  int64_t product;
  if (auto mul = dyn_cast<arith::MulIOp>(def);
      mul && !llvm::MulOverflow(getKnownDivisor(mul.getLhs(), depth),
                                getKnownDivisor(mul.getRhs(), depth), product))
    return product;
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    return getKnownDivisor(map.getResult(0),
                           apply.getMapOperands().take_front(map.getNumDims()),
                           apply.getMapOperands().drop_front(map.getNumDims()),
                           depth);
  }
  return 1;
}

/// The known divisor of `read`'s innermost index (getKnownDivisor) when
/// `read` reads one vector along the innermost dimension of `type` at a
/// multiple of its width: in bounds, unmasked, a minor-identity map, unit
/// dimensions before the lanes (not a 0-d vector, a scalar); 0 otherwise.
int64_t getPanelReadDivisor(vector::TransferReadOp read,
                            RankedTensorType type) {
  VectorType vector = read.getVectorType();
  if (vector.getRank() == 0 || read.getMask() ||
      !read.getPermutationMap().isMinorIdentity() || vector.isScalable() ||
      llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }) ||
      llvm::any_of(vector.getShape().drop_back(),
                   [](int64_t size) { return size != 1; }))
    return 0;
  int64_t width = vector.getShape().back();
  if (width <= 1 || type.getShape().back() % width != 0)
    return 0;
  int64_t divisor = getKnownDivisor(read.getIndices().back());
  // Index 0 (a tile's first block, the rest of a partial tile read from its
  // start) is at the start of every panel: any multiple of the width.
  if (divisor == 0)
    divisor = type.getShape().back();
  return divisor % width == 0 ? divisor : 0;
}

/// How many leading dimensions `read` indexes with values that no `scf.for`
/// around it changes (the tile index into a constant that
/// fuse-pack-constant-tiles laid out in tiles, unit dimensions): the panels
/// are laid out after them, so that what one tile reads stays one block.
unsigned getInvariantPrefix(vector::TransferReadOp read) {
  SmallVector<scf::ForOp> loops;
  for (Operation *op = read->getParentOp(); op; op = op->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      loops.push_back(loop);
  unsigned prefix = 0;
  for (Value index : read.getIndices().drop_back()) {
    if (!llvm::all_of(loops, [&](scf::ForOp loop) {
          return loop.isDefinedOutsideOfLoop(index);
        }))
      break;
    ++prefix;
  }
  return prefix;
}

/// Lays out `constant` in panels when every use is a panel read. Reads of
/// several widths (the register blocks of a head of whole blocks, 64 lanes,
/// and of its rest, 32: ViT's 53-token row tiles, 48 + 5 rows) share panels
/// of the widest where it is a multiple of every other: a narrower read,
/// at a multiple of its own width, stays inside one panel, at its offset
/// there. Before, a constant read at two widths kept its rows, and every
/// reduction step of a block read a vector from a new 3 KB row.
void packPanels(RewriterBase &rewriter, arith::ConstantOp constant) {
  auto attr = getPackableAttr(constant);
  if (!attr)
    return;
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t lanes = 0;
  unsigned outer = type.getRank() - 1;
  // Each read with the known divisor of its innermost index.
  SmallVector<std::pair<vector::TransferReadOp, int64_t>> reads;
  for (Operation *user : constant->getUsers()) {
    auto read = dyn_cast<vector::TransferReadOp>(user);
    int64_t divisor = read && read.getBase() == constant.getResult()
                          ? getPanelReadDivisor(read, type)
                          : 0;
    if (!divisor)
      return;
    lanes = std::max(lanes, read.getVectorType().getShape().back());
    reads.push_back({read, divisor});
    outer = std::min(outer, getInvariantPrefix(read));
  }
  int64_t columns = type.getShape().back();
  int64_t rows = type.getNumElements() / columns;
  for (int64_t size : type.getShape().take_front(outer))
    rows /= size;
  // Panels of one row (a bias, a row of its tile) are the layout it has.
  if (reads.empty() || lanes == columns || rows == 1 || columns % lanes != 0 ||
      llvm::any_of(reads, [&](auto &entry) {
        return lanes % entry.first.getVectorType().getShape().back() != 0;
      }))
    return;
  rewriter.setInsertionPoint(constant);
  Value packed = arith::ConstantOp::create(
      rewriter, constant.getLoc(),
      packColumns(attr, lanes, columns / lanes, outer));
  int64_t rank = type.getRank();
  for (auto [read, known] : reads) {
    rewriter.setInsertionPoint(read);
    Location loc = read.getLoc();
    Value divisor = arith::ConstantIndexOp::create(rewriter, loc, lanes);
    ValueRange old = read.getIndices();
    SmallVector<Value> indices(old.take_front(outer));
    indices.push_back(
        arith::DivUIOp::create(rewriter, loc, old.back(), divisor));
    llvm::append_range(indices, old.drop_front(outer).drop_back());
    // The offset inside the panel: 0 for a read of the panel's width.
    indices.push_back(
        known % lanes == 0
            ? Value(arith::ConstantIndexOp::create(rewriter, loc, 0))
            : Value(
                  arith::RemUIOp::create(rewriter, loc, old.back(), divisor)));
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        read, read.getVectorType(), packed, indices,
        AffineMapAttr::get(AffineMap::getMinorIdentityMap(
            rank + 1, read.getVectorType().getRank(), rewriter.getContext())),
        read.getPadding(), /*mask=*/Value(), read.getInBoundsAttr());
  }
  rewriter.eraseOp(constant);
}

struct FusePackConstantPanelsPass final
    : fuse::impl::FusePackConstantPanelsPassBase<FusePackConstantPanelsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> constants;
    getOperation()->walk(
        [&](arith::ConstantOp constant) { constants.push_back(constant); });
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp constant : constants)
      packPanels(rewriter, constant);
  }
};

} // namespace
