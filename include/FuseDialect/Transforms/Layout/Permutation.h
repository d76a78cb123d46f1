//===- Permutation.h - Dimension permutations for the layout passes -*- C++ -*-===//
//
// One convention throughout, that of `tosa.transpose`: applying `perm` to a
// tensor gives a tensor whose dim i is the input's dim perm[i].
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_LAYOUT_PERMUTATION_H
#define FUSEDIALECT_TRANSFORMS_LAYOUT_PERMUTATION_H

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

/// `tosa.transpose` of `value` by `perm`, or `value` itself when `perm` is
/// the identity.
Value createTranspose(OpBuilder &builder, Location loc, Value value,
                      ArrayRef<int64_t> perm);

/// Operands of a TOSA elementwise op that are parameters rather than data
/// (the shift of `tosa.mul`, the zero points of `tosa.negate`): they have
/// their own shape and keep it whatever the data's layout.
bool isParameterOperand(Operation *op, unsigned operandNumber);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_LAYOUT_PERMUTATION_H
