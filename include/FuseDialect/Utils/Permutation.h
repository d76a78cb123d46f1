//===- Permutation.h - Dimension permutations -------------------*- C++ -*-===//
//
// One convention throughout, that of `tosa.transpose`: applying `perm` to a
// tensor gives a tensor whose dim i is the input's dim perm[i]. Also the
// op predicates the layout passes and the report share.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_UTILS_PERMUTATION_H
#define FUSEDIALECT_UTILS_PERMUTATION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::fuse {

using Permutation = SmallVector<int64_t, 6>;

bool isIdentityPermutation(ArrayRef<int64_t> perm);
Permutation getIdentityPermutation(int64_t rank);
Permutation invertPermutation(ArrayRef<int64_t> perm);

/// Applying `first`, then `second`, is applying the result.
Permutation composePermutations(ArrayRef<int64_t> first,
                                ArrayRef<int64_t> second);

/// The permutation of a `tosa.transpose`.
Permutation getPermutation(tosa::TransposeOp transpose);

/// `type` with `perm` applied to its shape.
RankedTensorType permuteType(RankedTensorType type, ArrayRef<int64_t> perm);

/// The elements `data` of a row-major tensor of `shape`, with `perm`
/// applied, in row-major order of the permuted shape.
template <typename T>
SmallVector<T> permuteElements(ArrayRef<T> data, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> perm) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  SmallVector<int64_t> newShape =
      llvm::map_to_vector(perm, [&](int64_t p) { return shape[p]; });
  SmallVector<T> permuted;
  permuted.reserve(data.size());
  // `index` walks the permuted shape; its dim i is dim perm[i] of `shape`.
  SmallVector<int64_t> index(perm.size(), 0);
  for (size_t n = 0; n < data.size(); ++n) {
    int64_t offset = 0;
    for (auto [i, p] : llvm::enumerate(perm))
      offset += index[i] * strides[p];
    permuted.push_back(data[offset]);
    for (int64_t i = static_cast<int64_t>(perm.size()) - 1; i >= 0; --i) {
      if (++index[i] < newShape[i])
        break;
      index[i] = 0;
    }
  }
  return permuted;
}

/// The constant `attr` with `perm` applied (its shape and its elements).
/// Whole-byte int and float elements are moved as raw data, so that
/// weights of millions of elements permute at compile time in moments.
DenseElementsAttr permuteConstant(DenseElementsAttr attr,
                                  ArrayRef<int64_t> perm);

/// `tosa.transpose` of `value` by `perm`, or `value` itself when `perm` is
/// the identity.
Value createTranspose(OpBuilder &builder, Location loc, Value value,
                      ArrayRef<int64_t> perm);

/// Operands of a TOSA elementwise op that are parameters rather than data
/// (the shift of `tosa.mul`, the zero points of `tosa.negate`, the padding
/// and pad value of `tosa.pad`, the start and size of `tosa.slice`): they
/// have their own shape and keep it whatever the data's layout.
bool isParameterOperand(Operation *op, unsigned operandNumber);

/// A single-result TOSA elementwise op (or `tosa.mul`) whose data operands
/// all have the result's rank: it computes the same values in any dimension
/// order, so a permutation moves through it.
bool isRankPreservingElementwise(Operation *op);

/// A generic that only copies its single input to its single output, each
/// read through a permutation (a transpose; a plain copy if the two agree).
bool isPermutationCopy(linalg::GenericOp op);

/// Whether `map` reads every loop of more than one point (of `ranges`, an
/// op's static loop ranges) once and any other dimension at 0: a
/// permutation up to unit dimensions (an NCHW image read as
/// (0, d3, d1, d2) by its NHWC tile).
bool isPermutationUpToUnits(AffineMap map, ArrayRef<int64_t> ranges);

/// The loop of `map`'s innermost result over more than one point (of
/// `ranges`), past results read at a constant (unit dimensions read at 0):
/// the loop along which an operand so read has its rows. None where every
/// loop it reads is a unit, or where a result is neither a loop nor a
/// constant.
std::optional<unsigned> getInnermostWideLoop(AffineMap map,
                                             ArrayRef<int64_t> ranges);

/// An op that only moves data through a non-identity permutation:
/// `tosa.transpose`, `linalg.transpose`, or a permutation copy whose maps
/// differ.
bool isTranspose(Operation *op);

} // namespace mlir::fuse

#endif // FUSEDIALECT_UTILS_PERMUTATION_H
