//===- Domain.h - IR dialects seen through the term language ----*- C++ -*-===//
//
// An `AlgebraDomain` connects the dialect-independent rule terms to IR: it
// says which ops are instances of which `OpKind` (and which of their operands
// the term's operands bind to), builds ops of a kind, builds constants, and
// prices ops for the cost model. There is one domain for TOSA, one for
// arith/math (scalars inside linalg.generic bodies, or tensors) and one for
// named linalg elementwise ops.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_ALGEBRAIC_DOMAIN_H
#define FUSEDIALECT_TRANSFORMS_ALGEBRAIC_DOMAIN_H

#include "FuseDialect/Transforms/Algebraic/Pattern.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::fuse::algebra {

/// The price of one op: arithmetic and memory traffic.
struct OpCost {
  int64_t flops = 0;
  int64_t bytes = 0;

  OpCost &operator+=(const OpCost &other) {
    flops += other.flops;
    bytes += other.bytes;
    return *this;
  }
  /// One scalar for comparisons: a flop, or four bytes moved, count as one.
  int64_t weighted() const { return flops + bytes / 4; }
};

class AlgebraDomain {
public:
  virtual ~AlgebraDomain();

  virtual StringRef getName() const = 0;

  /// Whether ops of `kind` exist in this domain (rules that use other kinds
  /// do not apply).
  virtual bool supports(OpKind kind) const = 0;

  /// Whether `kind` is a single op here rather than an idiom of several
  /// (TOSA spells division as a multiplication by a reciprocal and the square
  /// root as a power of 0.5).
  virtual bool isNative(OpKind kind) const { return supports(kind); }

  /// The kinds `op` is an instance of (an op may be several: `1 / x` is both
  /// a division and a reciprocal).
  virtual SmallVector<OpKind, 2> getKinds(Operation *op) const = 0;

  /// The operands a term's operands bind to when `op` is seen as `kind`, or
  /// std::nullopt if it is not an instance of `kind`.
  virtual std::optional<SmallVector<Value, 3>>
  getTermOperands(Operation *op, OpKind kind) const = 0;

  /// Ops other than `op` itself that belong to the instance of `kind` rooted
  /// at `op` (TOSA's division is a multiplication by a reciprocal: the
  /// reciprocal dies with it).
  virtual SmallVector<Operation *, 1> getHelperOps(Operation *op,
                                                   OpKind kind) const {
    return {};
  }

  /// The value of `value` if it is a splat constant.
  virtual std::optional<double> getSplatValue(Value value) const = 0;

  /// The elements of `value` if it is a float constant (splat or not).
  DenseElementsAttr getConstantElements(Value value) const;

  /// Materializes `attr` as a constant of this domain (default:
  /// `arith.constant`).
  virtual Value buildConstantFromAttr(OpBuilder &builder, Location loc,
                                      DenseElementsAttr attr,
                                      SmallVectorImpl<Operation *> &created) const;

  /// Builds `kind` over `operands` (attributes such as an axis come from
  /// `attrSource`, an op of this domain, when given). Returns a null value if
  /// the op cannot be built (e.g. incompatible shapes). Every op created is
  /// appended to `created`.
  virtual Value build(OpBuilder &builder, Location loc, OpKind kind,
                      ArrayRef<Value> operands, Operation *attrSource,
                      SmallVectorImpl<Operation *> &created) const = 0;

  /// Builds a splat constant of `type`.
  virtual Value buildConstant(OpBuilder &builder, Location loc, double value,
                              Type type,
                              SmallVectorImpl<Operation *> &created) const = 0;

  /// The type of a literal used next to an operand of type `siblingType`
  /// (same element type; a shape that broadcasts).
  virtual Type getLiteralType(Type siblingType) const = 0;

  /// The type of a folded constant combining `operandTypes`.
  virtual Type getFoldedType(ArrayRef<Type> operandTypes) const = 0;

  /// The price of `op` (an op of this domain, or a constant).
  virtual OpCost getCost(Operation *op) const = 0;

  /// Whether two ops of `kind` carry the same attributes (axis, permutation,
  /// bounds, ...), so that one label may match both.
  virtual bool haveSameAttributes(Operation *lhs, Operation *rhs) const;
};

/// The TOSA domain.
const AlgebraDomain &getTosaDomain();
/// The arith/math domain (scalars, or tensors of arith/math ops).
const AlgebraDomain &getArithDomain();
/// Named linalg elementwise ops on tensors (linalg.add, linalg.exp, ...).
const AlgebraDomain &getLinalgDomain();

} // namespace mlir::fuse::algebra

#endif // FUSEDIALECT_TRANSFORMS_ALGEBRAIC_DOMAIN_H
