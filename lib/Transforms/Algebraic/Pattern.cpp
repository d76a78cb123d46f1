//===- Pattern.cpp - Terms of the algebraic rule language -----------------===//

#include "FuseDialect/Transforms/Algebraic/Pattern.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <sstream>

using namespace mlir;
using namespace mlir::fuse::algebra;

namespace {
struct KindInfo {
  OpKind kind;
  StringLiteral mnemonic;
  unsigned arity;
  bool commutative;
  bool elementwise;
  int64_t flops;
};
} // namespace

static constexpr KindInfo kKinds[] = {
#define FUSE_OP_KIND(Name, Mnemonic, Arity, Commutative, Elementwise, Flops)   \
  {OpKind::Name, Mnemonic, Arity, Commutative, Elementwise, Flops},
#include "FuseDialect/Transforms/Algebraic/OpKinds.def"
};

static const KindInfo &getInfo(OpKind kind) {
  for (const KindInfo &info : kKinds)
    if (info.kind == kind)
      return info;
  llvm_unreachable("unknown op kind");
}

StringRef mlir::fuse::algebra::getMnemonic(OpKind kind) {
  return getInfo(kind).mnemonic;
}

std::optional<OpKind> mlir::fuse::algebra::parseMnemonic(StringRef mnemonic) {
  for (const KindInfo &info : kKinds)
    if (info.mnemonic == mnemonic)
      return info.kind;
  return std::nullopt;
}

unsigned mlir::fuse::algebra::getArity(OpKind kind) {
  return getInfo(kind).arity;
}

bool mlir::fuse::algebra::isCommutative(OpKind kind) {
  return getInfo(kind).commutative;
}

bool mlir::fuse::algebra::isElementwise(OpKind kind) {
  return getInfo(kind).elementwise;
}

int64_t mlir::fuse::algebra::getFlopsPerElement(OpKind kind) {
  return getInfo(kind).flops;
}

std::optional<double> mlir::fuse::algebra::evaluate(OpKind kind,
                                                    ArrayRef<double> x) {
  switch (kind) {
  case OpKind::Add:
    return x[0] + x[1];
  case OpKind::Sub:
    return x[0] - x[1];
  case OpKind::Mul:
    return x[0] * x[1];
  case OpKind::Div:
    return x[0] / x[1];
  // NaN-propagating, like tosa.maximum (PROPAGATE) and arith.maximumf.
  case OpKind::Max:
    return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::fmax(x[0], x[1]);
  case OpKind::Min:
    return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::fmin(x[0], x[1]);
  case OpKind::Pow:
    return std::pow(x[0], x[1]);
  case OpKind::Neg:
    return -x[0];
  case OpKind::Abs:
    return std::fabs(x[0]);
  case OpKind::Exp:
    return std::exp(x[0]);
  case OpKind::Log:
    return std::log(x[0]);
  case OpKind::Sqrt:
    return std::sqrt(x[0]);
  case OpKind::Rsqrt:
    return 1.0 / std::sqrt(x[0]);
  case OpKind::Recip:
    return 1.0 / x[0];
  case OpKind::Tanh:
    return std::tanh(x[0]);
  case OpKind::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x[0]));
  case OpKind::Erf:
    return std::erf(x[0]);
  case OpKind::Sin:
    return std::sin(x[0]);
  case OpKind::Cos:
    return std::cos(x[0]);
  case OpKind::Floor:
    return std::floor(x[0]);
  case OpKind::Ceil:
    return std::ceil(x[0]);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
class Parser {
public:
  Parser(StringRef text, Pattern &pattern, std::string &error)
      : text(text), pattern(pattern), error(error) {}

  std::optional<unsigned> parseTerm() {
    skipSpace();
    if (text.empty())
      return fail("unexpected end of term");
    if (text.consume_front("(")) {
      StringRef head = lexWord();
      TermNode node;
      node.kind = TermNode::Kind::Op;
      auto [mnemonic, rest] = splitLabel(head, node);
      std::optional<OpKind> kind = parseMnemonic(mnemonic);
      if (!kind)
        return fail("unknown operator '" + mnemonic.str() + "'");
      node.op = *kind;
      (void)rest;
      while (true) {
        skipSpace();
        if (text.consume_front(")"))
          break;
        std::optional<unsigned> operand = parseTerm();
        if (!operand)
          return std::nullopt;
        node.operands.push_back(*operand);
      }
      if (node.operands.size() != getArity(node.op))
        return fail("'" + mnemonic.str() + "' takes " +
                    std::to_string(getArity(node.op)) + " operands");
      return add(std::move(node));
    }
    StringRef word = lexWord();
    if (word.empty())
      return fail("expected a term at '" + text.take_front(10).str() + "'");
    TermNode node;
    if (word.consume_front("$")) {
      node.kind = TermNode::Kind::Reuse;
      node.name = word.str();
      return add(std::move(node));
    }
    if (isdigit(word.front()) || word.front() == '-') {
      node.kind = TermNode::Kind::Literal;
      if (word.getAsDouble(node.literal))
        return fail("bad number '" + word.str() + "'");
      return add(std::move(node));
    }
    node.name = word.str();
    if (word.front() == 'k' || word.front() == 'p') {
      node.kind = TermNode::Kind::ConstVar;
      node.positive = word.front() == 'p';
    } else {
      node.kind = TermNode::Kind::Var;
    }
    return add(std::move(node));
  }

  bool atEnd() {
    skipSpace();
    return text.empty();
  }

private:
  std::pair<StringRef, StringRef> splitLabel(StringRef head, TermNode &node) {
    size_t colon = head.find(':');
    if (colon != StringRef::npos) {
      node.name = head.drop_front(colon + 1).str();
      return {head.take_front(colon), ""};
    }
    size_t at = head.find('@');
    if (at != StringRef::npos) {
      node.attrLabel = head.drop_front(at + 1).str();
      return {head.take_front(at), ""};
    }
    return {head, ""};
  }

  StringRef lexWord() {
    skipSpace();
    size_t n = 0;
    while (n < text.size() && !isspace(text[n]) && text[n] != '(' &&
           text[n] != ')')
      ++n;
    StringRef word = text.take_front(n);
    text = text.drop_front(n);
    return word;
  }

  void skipSpace() { text = text.ltrim(); }

  std::optional<unsigned> add(TermNode node) {
    pattern.nodes.push_back(std::move(node));
    return pattern.nodes.size() - 1;
  }

  std::optional<unsigned> fail(const std::string &message) {
    if (error.empty())
      error = message;
    return std::nullopt;
  }

  StringRef text;
  Pattern &pattern;
  std::string &error;
};
} // namespace

std::optional<Pattern>
mlir::fuse::algebra::parsePattern(StringRef text, std::string &error) {
  Pattern pattern;
  Parser parser(text, pattern, error);
  std::optional<unsigned> root = parser.parseTerm();
  if (!root)
    return std::nullopt;
  if (!parser.atEnd()) {
    error = "trailing characters after term";
    return std::nullopt;
  }
  pattern.root = *root;
  return pattern;
}

unsigned Pattern::getNumOps() const {
  return llvm::count_if(
      nodes, [](const TermNode &n) { return n.kind == TermNode::Kind::Op; });
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static int getPrecedence(const TermNode &node) {
  if (node.kind != TermNode::Kind::Op)
    return 4;
  switch (node.op) {
  case OpKind::Add:
  case OpKind::Sub:
    return 1;
  case OpKind::Mul:
  case OpKind::Div:
    return 2;
  default:
    return 3;
  }
}

static void printNode(const Pattern &p, unsigned idx, std::ostringstream &os,
                      const Pattern *lhs) {
  const TermNode &node = p.nodes[idx];
  switch (node.kind) {
  case TermNode::Kind::Var:
  case TermNode::Kind::ConstVar:
    os << node.name;
    return;
  case TermNode::Kind::Reuse:
    // Print the left-hand side subterm the label names.
    if (lhs) {
      for (auto [i, lhsNode] : llvm::enumerate(lhs->nodes)) {
        if (lhsNode.kind == TermNode::Kind::Op && lhsNode.name == node.name) {
          printNode(*lhs, i, os, nullptr);
          return;
        }
      }
    }
    os << node.name;
    return;
  case TermNode::Kind::Literal: {
    std::ostringstream num;
    num << node.literal;
    os << num.str();
    return;
  }
  case TermNode::Kind::Op:
    break;
  }
  auto printOperand = [&](unsigned operand, bool rightOfNonCommutative) {
    int outer = getPrecedence(node), inner = getPrecedence(p.nodes[operand]);
    // A reused subterm prints as the subterm it names.
    if (p.nodes[operand].kind == TermNode::Kind::Reuse && lhs)
      for (const TermNode &lhsNode : lhs->nodes)
        if (lhsNode.kind == TermNode::Kind::Op &&
            lhsNode.name == p.nodes[operand].name)
          inner = getPrecedence(lhsNode);
    bool parens = inner < outer || (rightOfNonCommutative && inner == outer);
    if (parens)
      os << "(";
    printNode(p, operand, os, lhs);
    if (parens)
      os << ")";
  };
  const char *infix = nullptr;
  switch (node.op) {
  case OpKind::Add:
    infix = " + ";
    break;
  case OpKind::Sub:
    infix = " - ";
    break;
  case OpKind::Mul:
    infix = " * ";
    break;
  case OpKind::Div:
    infix = " / ";
    break;
  case OpKind::Shl:
    infix = " << ";
    break;
  default:
    break;
  }
  if (infix) {
    printOperand(node.operands[0], false);
    os << infix;
    // Parenthesize a right operand of equal precedence even for + and *:
    // the grouping is what associative rules change.
    printOperand(node.operands[1], /*rightOfNonCommutative=*/true);
    return;
  }
  if (node.op == OpKind::Neg) {
    os << "-";
    printOperand(node.operands[0], true);
    return;
  }
  os << getMnemonic(node.op).str() << "(";
  llvm::interleave(
      node.operands, [&](unsigned operand) { printNode(p, operand, os, lhs); },
      [&] { os << ", "; });
  os << ")";
}

std::string Pattern::toInfix(const Pattern *lhs) const {
  std::ostringstream os;
  printNode(*this, root, os, lhs);
  return os.str();
}
