//===- Pattern.h - Terms of the algebraic rule language ---------*- C++ -*-===//
//
// The rules of `--fuse-algebraic-simplify` are written as pairs of terms
// (see Rules.def for the syntax). A term is parsed once into a flat `Pattern`
// whose nodes refer to their operands by index. Terms are independent of any
// dialect: an `AlgebraDomain` (Domain.h) says which IR op is an instance of
// which `OpKind` and how to build one.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_ALGEBRAIC_PATTERN_H
#define FUSEDIALECT_TRANSFORMS_ALGEBRAIC_PATTERN_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::fuse::algebra {

/// The operators terms are built from (OpKinds.def).
enum class OpKind {
#define FUSE_OP_KIND(Name, ...) Name,
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
};

/// Returns the mnemonic used in terms ("add", "rsum", ...).
StringRef getMnemonic(OpKind kind);
/// Parses a mnemonic.
std::optional<OpKind> parseMnemonic(StringRef mnemonic);
/// Number of operands of `kind`.
unsigned getArity(OpKind kind);
/// a ∘ b == b ∘ a.
bool isCommutative(OpKind kind);
/// Elementwise ops (everything but reductions, movement and matmul).
bool isElementwise(OpKind kind);
/// Flops per result element (the cost model's unit).
int64_t getFlopsPerElement(OpKind kind);
/// Evaluates an elementwise `kind` on scalars, for compile-time folding of
/// constants; std::nullopt for kinds that are not folded (clamp, select, ...).
std::optional<double> evaluate(OpKind kind, ArrayRef<double> operands);

/// One node of a term.
struct TermNode {
  enum class Kind {
    Op,       ///< `(op operand...)`
    Var,      ///< any value (`a`, `b`, ...)
    ConstVar, ///< any splat constant (`k...`), positive if `p...`
    Literal,  ///< a splat constant of a given value
    Reuse,    ///< `$L`: the value matched by the op labelled L
  };
  Kind kind = Kind::Var;
  OpKind op = OpKind::Add;
  /// Variable name, or the label of an op (`op:L`) or of a reuse (`$L`).
  std::string name;
  /// For `op@L` in a right-hand side: take attributes from the op labelled L.
  std::string attrLabel;
  bool positive = false;
  double literal = 0.0;
  SmallVector<unsigned, 3> operands;
};

/// A parsed term; node `root` is the whole term.
struct Pattern {
  SmallVector<TermNode> nodes;
  unsigned root = 0;

  const TermNode &getRoot() const { return nodes[root]; }
  /// Number of op nodes (the operations the term computes).
  unsigned getNumOps() const;
  /// Prints the term in conventional infix notation ("a * (b + c)"); `$L`
  /// reuses print as the subterm labelled L in `lhs`.
  std::string toInfix(const Pattern *lhs = nullptr) const;
};

/// Parses `text`; on failure returns std::nullopt and sets `error`.
std::optional<Pattern> parsePattern(StringRef text, std::string &error);

} // namespace mlir::fuse::algebra

#endif // FUSEDIALECT_TRANSFORMS_ALGEBRAIC_PATTERN_H
