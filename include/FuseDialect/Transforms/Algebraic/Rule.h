//===- Rule.h - The algebraic rule catalogue --------------------*- C++ -*-===//

#ifndef FUSEDIALECT_TRANSFORMS_ALGEBRAIC_RULE_H
#define FUSEDIALECT_TRANSFORMS_ALGEBRAIC_RULE_H

#include "FuseDialect/Transforms/Algebraic/Pattern.h"

namespace mlir::fuse::algebra {

/// DNNFusion's three rule families.
enum class RuleFamily { Associative, Distributive, Commutative };

StringRef stringifyRuleFamily(RuleFamily family);

/// How exact a rule is (see Rules.def).
enum RuleFlags : unsigned {
  Exact = 0,
  Reassoc = 1u << 0,
  Special = 1u << 1,
  Positive = (1u << 2) | Special,
  IntOnly = 1u << 3,
};

/// One declared rule, parsed.
struct Rule {
  RuleFamily family;
  StringRef name;
  StringRef lhsText;
  StringRef rhsText;
  unsigned flags;
  Pattern lhs;
  Pattern rhs;

  /// Rules that may change values (rounding or special values) are off in
  /// strict mode.
  bool isStrictSafe() const { return (flags & (Reassoc | Special)) == 0; }
  bool isIntegerOnly() const { return flags & IntOnly; }
  bool needsPositiveInputs() const { return (flags & Positive) == Positive; }
  /// A short description of the flags for the catalogue ("exact", ...).
  std::string describeExactness() const;
};

/// Returns every rule of Rules.def, parsed. Aborts with a message if a
/// declaration does not parse (a programming error caught by every test).
ArrayRef<Rule> getRuleCatalogue();

} // namespace mlir::fuse::algebra

#endif // FUSEDIALECT_TRANSFORMS_ALGEBRAIC_RULE_H
