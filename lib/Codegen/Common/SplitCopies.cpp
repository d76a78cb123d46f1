//===- SplitCopies.cpp - A group's copy chains as pieces ------------------===//
//
// A result is traced backwards from its full index space, a "box" whose
// coordinates b_0, b_1, ... each index of the result and of the value read
// so far is an affine expression of. Each op of the chain rewrites the
// expressions from its result's indices to its operand's:
//   - transpose: permutes them;
//   - extract_slice: offset + stride * index (dropped dims at their offset);
//   - expand_shape: a group's indices linearized;
//   - collapse_shape: an index delinearized, which is affine only on boxes
//     that stay within one row of the inner dims, or whose coordinate is
//     split in two (b = inner * q + r: the row and the position in it);
//   - insert_slice and concat: the box is cut where the inserted part
//     starts and ends; the parts inside read the inserted value, the others
//     the destination (an empty destination reads nothing: that part of
//     the result is undefined, as it was).
// Tracing stops at any other op (a piece's source). A piece whose
// coordinates each index one dim of the result and one of the source
// becomes a copy: a strided slice of the source, permuted, inserted into
// the result at a strided offset.
//
// For ShuffleNetV2's shuffle of (passthrough, branch) into two halves, each
// half is two pieces: even channels from the passthrough, odd ones from the
// branch, each a stride-2 insert.
//
//===----------------------------------------------------------------------===//

#include "SplitCopies.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// At most this many pieces per result: more would be more nests than the
/// dependence they remove is worth.
constexpr size_t kMaxPieces = 16;

/// At most this many coordinate splits per collapse_shape (each restarts
/// the delinearization).
constexpr int kMaxCollapseSplits = 8;

/// constant + sum of coefficient * box coordinate (coefficients positive).
struct IndexExpr {
  int64_t constant = 0;
  SmallVector<std::pair<unsigned, int64_t>> terms;
};

/// A box of the result and the value it reads, through `index`.
struct Piece {
  Value value;
  SmallVector<IndexExpr> index;
  SmallVector<IndexExpr> resultIndex;
  SmallVector<int64_t> sizes;
  /// Whether the trace went through a view or transpose (not only inserts).
  bool viewed = false;

  /// The largest value of `e` over the box.
  int64_t max(const IndexExpr &e) const {
    int64_t m = e.constant;
    for (auto [dim, coeff] : e.terms)
      m += coeff * (sizes[dim] - 1);
    return m;
  }

  /// Applies `f` to every expression of the piece.
  void forEachExpr(function_ref<void(IndexExpr &)> f) {
    for (IndexExpr &e : index)
      f(e);
    for (IndexExpr &e : resultIndex)
      f(e);
  }

  /// Restricts coordinate `dim` to [lo, lo + size), renumbered from 0.
  void restrict(unsigned dim, int64_t lo, int64_t size) {
    forEachExpr([&](IndexExpr &e) {
      for (auto [d, coeff] : e.terms)
        if (d == dim)
          e.constant += coeff * lo;
    });
    sizes[dim] = size;
    if (size == 1)
      forEachExpr([&](IndexExpr &e) {
        llvm::erase_if(e.terms, [&](auto t) { return t.first == dim; });
      });
  }

  /// Splits coordinate `dim` as inner * q + r: q keeps `dim`, r is new.
  void split(unsigned dim, int64_t inner) {
    unsigned r = sizes.size();
    sizes.push_back(inner);
    sizes[dim] /= inner;
    forEachExpr([&](IndexExpr &e) {
      SmallVector<std::pair<unsigned, int64_t>> terms;
      for (auto [d, coeff] : e.terms) {
        if (d != dim) {
          terms.push_back({d, coeff});
          continue;
        }
        if (sizes[dim] > 1)
          terms.push_back({d, coeff * inner});
        terms.push_back({r, coeff});
      }
      e.terms = std::move(terms);
    });
  }
};

/// `e` scaled by `scale` and offset by `offset`.
IndexExpr affine(const IndexExpr &e, int64_t scale, int64_t offset) {
  IndexExpr result{e.constant * scale + offset, {}};
  for (auto [dim, coeff] : e.terms)
    result.terms.push_back({dim, coeff * scale});
  return result;
}

/// The shape of `value`, when static and without empty dims.
std::optional<ArrayRef<int64_t>> getStaticShape(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || llvm::is_contained(type.getShape(), 0))
    return std::nullopt;
  return type.getShape();
}

/// The piece reading `collapse`'s result, reading its source instead;
/// coordinates are split where a collapsed index must be delinearized.
LogicalResult traceCollapse(tensor::CollapseShapeOp collapse, Piece &piece) {
  std::optional<ArrayRef<int64_t>> shape = getStaticShape(collapse.getSrc());
  if (!shape)
    return failure();
  // A split renumbers coordinates: start over after each (bounded by the
  // number of coordinates a split can add).
  for (int attempt = 0; attempt <= kMaxCollapseSplits; ++attempt) {
    SmallVector<IndexExpr> index(shape->size());
    bool restart = false;
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      IndexExpr rest = piece.index[g];
      for (auto [k, d] : llvm::enumerate(ArrayRef<int64_t>(group))) {
        if (k + 1 == group.size()) {
          index[d] = rest;
          break;
        }
        int64_t inner = 1;
        for (int64_t later : ArrayRef<int64_t>(group).drop_front(k + 1))
          inner *= (*shape)[later];
        // Terms that step whole rows go to this dim; the rest stay in the
        // row, which they must not leave.
        IndexExpr row{rest.constant / inner, {}};
        IndexExpr within{rest.constant % inner, {}};
        for (auto [dim, coeff] : rest.terms) {
          if (coeff % inner == 0)
            row.terms.push_back({dim, coeff / inner});
          else
            within.terms.push_back({dim, coeff});
        }
        if (piece.max(within) < inner) {
          index[d] = std::move(row);
          rest = std::move(within);
          continue;
        }
        // One coordinate crossing rows from a row start: split it into the
        // row and the position in it.
        if (within.terms.size() != 1 || within.constant != 0)
          return failure();
        auto [dim, coeff] = within.terms.front();
        if (inner % coeff != 0 || (coeff * piece.sizes[dim]) % inner != 0)
          return failure();
        piece.split(dim, inner / coeff);
        restart = true;
        break;
      }
      if (restart)
        break;
    }
    if (!restart) {
      piece.index = std::move(index);
      piece.value = collapse.getSrc();
      return success();
    }
  }
  return failure();
}

/// Cuts `piece`, reading a tensor of which the box [offsets, offsets +
/// sizes) is another value, into the parts inside the box (`inside`, still
/// reading the whole tensor's indices) and outside it (`outside`).
LogicalResult cut(Piece piece, ArrayRef<int64_t> offsets,
                  ArrayRef<int64_t> sizes, SmallVectorImpl<Piece> &inside,
                  SmallVectorImpl<Piece> &outside) {
  SmallVector<Piece> current = {std::move(piece)};
  for (auto [j, offset] : llvm::enumerate(offsets)) {
    int64_t end = offset + sizes[j];
    SmallVector<Piece> next;
    for (Piece &p : current) {
      IndexExpr e = p.index[j];
      int64_t lo = e.constant, hi = p.max(e);
      if (hi < offset || lo >= end) {
        outside.push_back(std::move(p));
        continue;
      }
      if (lo >= offset && hi < end) {
        next.push_back(std::move(p));
        continue;
      }
      // Cut along the coordinate of the largest step; for each of its
      // values the other terms must stay on one side of each bound.
      auto largest = llvm::max_element(
          e.terms, [](auto a, auto b) { return a.second < b.second; });
      auto [dim, coeff] = *largest;
      IndexExpr others = e;
      others.terms.erase(others.terms.begin() + (largest - e.terms.begin()));
      int64_t othersLo = others.constant, othersHi = p.max(others);
      // Values of the coordinate whose indices are all in [offset, end).
      int64_t first = std::clamp<int64_t>(
          llvm::divideCeilSigned(offset - othersLo, coeff), 0, p.sizes[dim]);
      int64_t last = std::clamp<int64_t>(
          llvm::divideCeilSigned(end - othersHi, coeff), first, p.sizes[dim]);
      bool straddles =
          (first > 0 && othersHi + coeff * (first - 1) >= offset) ||
          (last < p.sizes[dim] && othersLo + coeff * last < end);
      if (straddles)
        return failure();
      if (first > 0) {
        Piece before = p;
        before.restrict(dim, 0, first);
        outside.push_back(std::move(before));
      }
      if (last < p.sizes[dim]) {
        Piece after = p;
        after.restrict(dim, last, p.sizes[dim] - last);
        outside.push_back(std::move(after));
      }
      if (first < last) {
        p.restrict(dim, first, last - first);
        next.push_back(std::move(p));
      }
    }
    current = std::move(next);
  }
  llvm::append_range(inside, current);
  return success();
}

/// One step back from `piece.value` to the value(s) it is computed from.
/// Returns false (in `moved`) at a source; the traced pieces are appended
/// to `out` (none for an undefined part). `throughInsert` is set at an
/// insert or concat below a view.
LogicalResult traceStep(Piece piece, SmallVectorImpl<Piece> &out, bool &moved,
                        bool &throughInsert) {
  Operation *def = piece.value.getDefiningOp();
  moved = true;
  if (isa_and_nonnull<linalg::TransposeOp, tensor::ExtractSliceOp,
                      tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
    piece.viewed = true;
  // An insert or concat below a view: the concatenation would have to be
  // whole before the view reads it. (One right at the result is written
  // in place, which the nests already handle.)
  if (isa_and_nonnull<tensor::InsertSliceOp, tensor::ConcatOp>(def) &&
      piece.viewed)
    throughInsert = true;
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(def)) {
    if (!transpose.hasPureTensorSemantics())
      return failure();
    SmallVector<IndexExpr> index(piece.index.size());
    for (auto [i, p] : llvm::enumerate(transpose.getPermutation()))
      index[p] = piece.index[i];
    piece.index = std::move(index);
    piece.value = transpose.getInput();
    out.push_back(std::move(piece));
    return success();
  }
  if (auto slice = dyn_cast_or_null<tensor::ExtractSliceOp>(def)) {
    if (ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        ShapedType::isDynamicShape(slice.getStaticStrides()) ||
        !getStaticShape(slice.getSource()))
      return failure();
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<IndexExpr> index;
    unsigned k = 0;
    for (auto [j, offset] : llvm::enumerate(slice.getStaticOffsets())) {
      if (dropped.test(j)) {
        index.push_back(IndexExpr{offset, {}});
        continue;
      }
      int64_t stride = slice.getStaticStrides()[j];
      if (stride <= 0)
        return failure();
      index.push_back(affine(piece.index[k++], stride, offset));
    }
    piece.index = std::move(index);
    piece.value = slice.getSource();
    out.push_back(std::move(piece));
    return success();
  }
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def)) {
    std::optional<ArrayRef<int64_t>> shape = getStaticShape(expand.getResult());
    if (!shape || !getStaticShape(expand.getSrc()))
      return failure();
    SmallVector<IndexExpr> index;
    for (const ReassociationIndices &group : expand.getReassociationIndices()) {
      IndexExpr sum;
      int64_t inner = 1;
      for (int64_t d : llvm::reverse(group)) {
        IndexExpr scaled = affine(piece.index[d], inner, 0);
        sum.constant += scaled.constant;
        llvm::append_range(sum.terms, scaled.terms);
        inner *= (*shape)[d];
      }
      index.push_back(std::move(sum));
    }
    piece.index = std::move(index);
    piece.value = expand.getSrc();
    out.push_back(std::move(piece));
    return success();
  }
  if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def)) {
    if (failed(traceCollapse(collapse, piece)))
      return failure();
    out.push_back(std::move(piece));
    return success();
  }
  if (auto insert = dyn_cast_or_null<tensor::InsertSliceOp>(def)) {
    if (ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
        ShapedType::isDynamicShape(insert.getStaticSizes()) ||
        !insert.hasUnitStride() ||
        insert.getSourceType().getRank() != insert.getType().getRank() ||
        !getStaticShape(insert.getSource()))
      return failure();
    SmallVector<Piece> inside, outside;
    if (failed(cut(std::move(piece), insert.getStaticOffsets(),
                   insert.getStaticSizes(), inside, outside)))
      return failure();
    for (Piece &p : inside) {
      for (auto [j, offset] : llvm::enumerate(insert.getStaticOffsets()))
        p.index[j].constant -= offset;
      p.value = insert.getSource();
      out.push_back(std::move(p));
    }
    for (Piece &p : outside) {
      p.value = insert.getDest();
      out.push_back(std::move(p));
    }
    return success();
  }
  if (auto concat = dyn_cast_or_null<tensor::ConcatOp>(def)) {
    int64_t rank = concat.getResultType().getRank();
    SmallVector<int64_t> offsets(rank, 0);
    SmallVector<Piece> rest = {std::move(piece)};
    for (Value input : concat.getInputs()) {
      std::optional<ArrayRef<int64_t>> shape = getStaticShape(input);
      if (!shape)
        return failure();
      SmallVector<Piece> remaining;
      for (Piece &p : rest) {
        SmallVector<Piece> inside;
        if (failed(cut(std::move(p), offsets, *shape, inside, remaining)))
          return failure();
        for (Piece &q : inside) {
          q.index[concat.getDim()].constant -= offsets[concat.getDim()];
          q.value = input;
          out.push_back(std::move(q));
        }
      }
      rest = std::move(remaining);
      offsets[concat.getDim()] += (*shape)[concat.getDim()];
    }
    return success(rest.empty());
  }
  if (isa_and_nonnull<tensor::EmptyOp>(def))
    return success(); // undefined: nothing to copy
  moved = false;
  out.push_back(std::move(piece));
  return success();
}

/// The pieces of `result` (static shape), or nothing when it is not a copy
/// chain through an insert or concat below another data movement op, or of
/// the group's inputs alone.
std::optional<SmallVector<Piece>> tracePieces(Value result, Block &body) {
  std::optional<ArrayRef<int64_t>> shape = getStaticShape(result);
  if (!shape || shape->empty())
    return std::nullopt;
  Piece whole;
  whole.value = result;
  for (auto [d, size] : llvm::enumerate(*shape)) {
    IndexExpr e;
    if (size != 1)
      e.terms.push_back({static_cast<unsigned>(d), 1});
    whole.index.push_back(e);
    whole.sizes.push_back(size);
  }
  whole.resultIndex = whole.index;
  SmallVector<Piece> done, pending = {std::move(whole)};
  bool splitsLater = false;
  unsigned steps = 0;
  while (!pending.empty()) {
    Piece piece = pending.pop_back_val();
    // Only the group's own ops: a block argument or an op outside is a
    // source.
    Operation *def = piece.value.getDefiningOp();
    if (!def || def->getBlock() != &body) {
      done.push_back(std::move(piece));
      continue;
    }
    bool moved = false, throughInsert = false;
    SmallVector<Piece> next;
    if (failed(traceStep(std::move(piece), next, moved, throughInsert)))
      return std::nullopt;
    splitsLater |= throughInsert;
    if (!moved) {
      llvm::append_range(done, next);
      continue;
    }
    ++steps;
    llvm::append_range(pending, next);
    if (done.size() + pending.size() > kMaxPieces || steps > 64)
      return std::nullopt;
  }
  // A result moved out of the group's inputs alone would be a copy outside
  // any loop nest (a host copy on the GPU path): as pieces, it is copy
  // kernels. (An input updated in place keeps its other parts: see
  // splitCopyChains.)
  bool onlyInputs =
      steps > 0 && !done.empty() && llvm::all_of(done, [&](const Piece &p) {
        auto argument = dyn_cast<BlockArgument>(p.value);
        return argument && argument.getOwner() == &body;
      });
  if (!splitsLater && !onlyInputs)
    return std::nullopt;
  return done;
}

/// Whether `piece` is a copy: each coordinate indexes exactly one dim of
/// the result and one of the source, each index at most one coordinate.
bool isCopy(const Piece &piece) {
  auto usesOnce = [&](ArrayRef<IndexExpr> index) {
    SmallVector<unsigned> uses(piece.sizes.size(), 0);
    for (const IndexExpr &e : index) {
      if (e.terms.size() > 1 || e.constant < 0)
        return false;
      for (auto [dim, coeff] : e.terms) {
        if (coeff <= 0)
          return false;
        ++uses[dim];
      }
    }
    for (auto [dim, size] : llvm::enumerate(piece.sizes))
      if (uses[dim] != (size > 1 ? 1u : 0u))
        return false;
    return true;
  };
  return llvm::any_of(piece.sizes, [](int64_t s) { return s > 1; }) &&
         usesOnce(piece.index) && usesOnce(piece.resultIndex);
}

/// Offsets, sizes and strides of the box `index` spans (a coordinate or a
/// constant per dim).
void getBox(const Piece &piece, ArrayRef<IndexExpr> index, OpBuilder &b,
            SmallVectorImpl<OpFoldResult> &offsets,
            SmallVectorImpl<OpFoldResult> &sizes,
            SmallVectorImpl<OpFoldResult> &strides) {
  for (const IndexExpr &e : index) {
    offsets.push_back(b.getIndexAttr(e.constant));
    int64_t size = 1, stride = 1;
    if (!e.terms.empty()) {
      size = piece.sizes[e.terms.front().first];
      stride = e.terms.front().second;
    }
    sizes.push_back(b.getIndexAttr(size));
    strides.push_back(b.getIndexAttr(stride));
  }
}

/// The coordinate `e` reads, if any.
std::optional<unsigned> getCoordinate(const IndexExpr &e) {
  if (e.terms.empty())
    return std::nullopt;
  return e.terms.front().first;
}

/// The group input `result` updates in place, if any: the destination of
/// the insert chain that computes it (a concat across groups writes this
/// group's part into another group's result).
Value getUpdatedInput(Value result, Block &body) {
  Value base = result;
  while (auto insert = base.getDefiningOp<tensor::InsertSliceOp>())
    base = insert.getDest();
  auto argument = dyn_cast<BlockArgument>(base);
  if (base == result || !argument || argument.getOwner() != &body)
    return Value();
  return base;
}

/// Whether `piece` reads `base` where it writes the result.
bool isUnmoved(const Piece &piece, Value base) {
  return piece.value == base &&
         llvm::all_of(llvm::zip_equal(piece.index, piece.resultIndex),
                      [](auto pair) {
                        auto [a, b] = pair;
                        return a.constant == b.constant && a.terms == b.terms;
                      });
}

/// `result` as the insertion of one copy per piece into `base` (an input
/// updated in place, whose unmoved parts need no copy and are not among
/// `pieces`) or an empty tensor. A piece of an op of the group in the
/// result's order is a slice of that op (which then computes only the
/// slice); any other piece is a copy, a loop nest of its own.
Value emitPieces(RewriterBase &rewriter, Location loc, Value result,
                 ArrayRef<Piece> pieces, Value base, Block &body) {
  auto type = cast<RankedTensorType>(result.getType());
  Value dest =
      base ? base
           : tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                     type.getElementType(), type.getEncoding())
                 .getResult();
  for (const Piece &piece : pieces) {
    SmallVector<OpFoldResult> offsets, sizes, strides;
    getBox(piece, piece.index, rewriter, offsets, sizes, strides);
    Value source = tensor::ExtractSliceOp::create(rewriter, loc, piece.value,
                                                  offsets, sizes, strides);
    auto sourceType = cast<RankedTensorType>(source.getType());
    offsets.clear();
    sizes.clear();
    strides.clear();
    getBox(piece, piece.resultIndex, rewriter, offsets, sizes, strides);
    SmallVector<int64_t> boxShape = llvm::map_to_vector(
        sizes, [](OpFoldResult s) { return *getConstantIntValue(s); });
    // The copy's loops are the result's dims; the source slice is read at
    // the loop of each of its coordinates, its unit dims at 0.
    unsigned rank = type.getRank();
    SmallVector<AffineExpr> reads;
    for (const IndexExpr &e : piece.index) {
      std::optional<unsigned> coordinate = getCoordinate(e);
      if (!coordinate) {
        reads.push_back(rewriter.getAffineConstantExpr(0));
        continue;
      }
      auto dim = llvm::find_if(piece.resultIndex, [&](const IndexExpr &r) {
        return getCoordinate(r) == coordinate;
      });
      reads.push_back(
          rewriter.getAffineDimExpr(dim - piece.resultIndex.begin()));
    }
    AffineMap readMap = AffineMap::get(rank, 0, reads, rewriter.getContext());
    Operation *def = piece.value.getDefiningOp();
    // The same shape, read in order (unit dims read at 0 alike).
    bool identity =
        sourceType.getShape() == ArrayRef<int64_t>(boxShape) &&
        llvm::all_of(llvm::enumerate(reads), [&](auto read) {
          return boxShape[read.index()] == 1 ||
                 read.value() == rewriter.getAffineDimExpr(read.index());
        });
    Value copy;
    if (identity && isa_and_nonnull<TilingInterface>(def) &&
        def->getBlock() == &body) {
      copy = source;
    } else {
      Value init = tensor::EmptyOp::create(rewriter, loc, boxShape,
                                           type.getElementType());
      if (identity) {
        // Not a generic: an identity generic folds away.
        copy = linalg::CopyOp::create(rewriter, loc, source, init).getResult(0);
      } else {
        SmallVector<AffineMap> maps = {readMap,
                                       rewriter.getMultiDimIdentityMap(rank)};
        copy = linalg::GenericOp::create(
                   rewriter, loc, TypeRange{init.getType()}, ValueRange{source},
                   ValueRange{init}, maps,
                   SmallVector<utils::IteratorType>(
                       rank, utils::IteratorType::parallel),
                   [](OpBuilder &b, Location l, ValueRange args) {
                     linalg::YieldOp::create(b, l, args.front());
                   })
                   .getResult(0);
      }
    }
    dest = tensor::InsertSliceOp::create(rewriter, loc, copy, dest, offsets,
                                         sizes, strides);
  }
  return dest;
}

} // namespace

unsigned mlir::fuse::splitCopyChains(RewriterBase &rewriter, GroupOp group) {
  Block &body = group.getBodyBlock();
  YieldOp yield = group.getYield();
  unsigned rewritten = 0;
  for (OpOperand &operand : yield->getOpOperands()) {
    std::optional<SmallVector<Piece>> pieces = tracePieces(operand.get(), body);
    if (!pieces)
      continue;
    Value base = getUpdatedInput(operand.get(), body);
    if (base)
      llvm::erase_if(
          *pieces, [&](const Piece &piece) { return isUnmoved(piece, base); });
    if (pieces->empty() || !llvm::all_of(*pieces, isCopy))
      continue;
    rewriter.setInsertionPoint(yield);
    Value split = emitPieces(rewriter, operand.get().getLoc(), operand.get(),
                             *pieces, base, body);
    rewriter.modifyOpInPlace(yield, [&] { operand.set(split); });
    ++rewritten;
  }
  return rewritten;
}
