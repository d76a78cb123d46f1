//===- Rule.cpp - The algebraic rule catalogue ----------------------------===//

#include "FuseDialect/Transforms/Algebraic/Rule.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::fuse::algebra;

StringRef mlir::fuse::algebra::stringifyRuleFamily(RuleFamily family) {
  switch (family) {
  case RuleFamily::Associative:
    return "associative";
  case RuleFamily::Distributive:
    return "distributive";
  case RuleFamily::Commutative:
    return "commutative";
  }
  llvm_unreachable("unknown rule family");
}

std::string Rule::describeExactness() const {
  std::string text;
  if ((flags & Positive) == Positive)
    text = "positive inputs only; NaN/Inf may change elsewhere";
  else if (flags & Special)
    text = "may change NaN/Inf/-0 results";
  else if (flags & Reassoc)
    text = "reassociates (rounding)";
  else
    text = "exact";
  if (flags & IntOnly)
    text += "; integers";
  return text;
}

namespace {
struct RuleDecl {
  RuleFamily family;
  StringLiteral name;
  StringLiteral lhs;
  StringLiteral rhs;
  unsigned flags;
};
} // namespace

static constexpr RuleDecl kDecls[] = {
#define FUSE_ALGEBRAIC_RULE(FAMILY, NAME, LHS, RHS, FLAGS)                     \
  {RuleFamily::FAMILY, #NAME, LHS, RHS, FLAGS},
#include "FuseDialect/Transforms/Algebraic/Rules.def"
};

static std::vector<Rule> parseCatalogue() {
  std::vector<Rule> rules;
  rules.reserve(std::size(kDecls));
  for (const RuleDecl &decl : kDecls) {
    std::string error;
    std::optional<Pattern> lhs = parsePattern(decl.lhs, error);
    std::optional<Pattern> rhs =
        lhs ? parsePattern(decl.rhs, error) : std::nullopt;
    if (!lhs || !rhs || lhs->getRoot().kind != TermNode::Kind::Op) {
      llvm::errs() << "fuse: algebraic rule '" << decl.name
                   << "' does not parse: "
                   << (error.empty() ? "left-hand side must be an op" : error)
                   << "\n";
      llvm::report_fatal_error("malformed algebraic rule catalogue");
    }
    rules.push_back(Rule{decl.family, decl.name, decl.lhs, decl.rhs,
                         decl.flags, std::move(*lhs), std::move(*rhs)});
  }
  return rules;
}

ArrayRef<Rule> mlir::fuse::algebra::getRuleCatalogue() {
  static const std::vector<Rule> rules = parseCatalogue();
  return rules;
}
