//===- CostModel.cpp - The analytical fusion cost model -------------------===//
//
// Prices a fusion step in bytes of global-memory traffic: what fusing saves
// (the intermediate is neither written nor read back, and one kernel launch
// disappears) against what it costs (recomputing the producer for every
// extra read of the consumer). See FusionCostModel::evaluate for the model
// and docs/CostModel.md for its derivation and limits.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "FuseDialect/Utils/PoolWindows.h"
#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::fuse;

FusionCostModel::~FusionCostModel() = default;

std::string FusionEdge::getSignature() const {
  auto describe = [](Operation *op, MappingType type) {
    return (op->getName().getStringRef() + "(" + stringifyMappingType(type) +
            ")")
        .str();
  };
  return describe(producer, producerType) + "->" +
         describe(consumer, consumerType);
}

/// A reduction in `group` feeding `consumer`, a reduction over the same axis
/// of a tensor of the same shape: one row-wise kernel computes both.
static bool isSameRowsReduction(Operation *groupReduction, Operation *consumer) {
  std::optional<RowReduction> a = getRowReduction(groupReduction);
  std::optional<RowReduction> b = getRowReduction(consumer);
  return a && b && a->axis == b->axis && a->inputShape == b->inputShape;
}

/// A contraction feeding a reduction along the last axis of its result: a
/// kernel that keeps one row of the result on chip reduces it in place.
static bool isRowOfContraction(Operation *contraction, Operation *consumer,
                               const TargetDescription &target) {
  std::optional<RowReduction> red = getRowReduction(consumer);
  if (!contraction || !red || contraction->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(contraction->getResult(0).getType());
  // The reduction reads the contraction's rows: same elements, same row
  // length, last axis. Reshapes in between that keep the last dimension
  // (e.g. dropping a unit batch dim) keep every row whole and contiguous.
  auto rows = ArrayRef<int64_t>(red->inputShape);
  if (!type || !type.hasStaticShape() || rows.empty() ||
      red->axis != static_cast<int64_t>(rows.size()) - 1 ||
      rows.back() != type.getShape().back() ||
      ShapedType::getNumElements(rows) != type.getNumElements())
    return false;
  int64_t rowBytes = type.getShape().back() * getElementBytes(type);
  // A block holds a tile of rows; leave room for the operands' tiles.
  return rowBytes * 32 <= target.onChipBytes();
}

FusionVerdict FusionCostModel::evaluate(const FusionEdge &edge) const {
  FusionVerdict verdict;
  if (edge.lattice == FusionProfitability::Always) {
    verdict.fuse = true;
    verdict.reason = "lattice: always";
    return verdict;
  }
  if (edge.lattice == FusionProfitability::Never) {
    if (edge.groupReduction &&
        isSameRowsReduction(edge.groupReduction, edge.consumer)) {
      verdict.fuse = true;
      verdict.reason = "reduction over the same rows as the group's";
      return verdict;
    }
    if (isContraction(edge.producer) &&
        isRowOfContraction(edge.producer, edge.consumer, target)) {
      verdict.fuse = true;
      verdict.reason = "row reduction of a contraction, row fits on chip";
      return verdict;
    }
    if (edge.groupContraction && !edge.groupReduction &&
        isRowOfContraction(edge.groupContraction, edge.consumer, target)) {
      verdict.fuse = true;
      verdict.reason = "row reduction of a contraction epilogue, row fits on chip";
      return verdict;
    }
    // Not after a reduction in the group: the pool's tiles would each
    // recompute it (instance norm, ReLU, pool).
    if (!edge.groupReduction && isDisjointWindowPool(edge.consumer)) {
      verdict.fuse = true;
      verdict.reason = "pool over disjoint windows: no recomputation";
      return verdict;
    }
    verdict.reason = "lattice: never";
    return verdict;
  }

  int64_t elements = getNumElements(edge.value.getType());
  int64_t bytes = elements * getElementBytes(edge.value.getType());
  verdict.benefit = 2.0 * bytes + target.launchBytes();

  double reuse = getReadsPerElement(edge.consumer, edge.value);
  double flops = edge.producerFlopsPerElement >= 0
                     ? edge.producerFlopsPerElement
                     : getFlopsPerResultElement(edge.producer);
  bool keptOnChip = false;
  // A row-wise kernel computes a reduction once per row and reuses it for the
  // broadcast that consumes it along the same rows.
  Operation *reduction = getRowReduction(edge.producer) ? edge.producer
                                                        : edge.groupReduction;
  if (reduction && isElementwiseLike(edge.consumer)) {
    std::optional<RowReduction> red = getRowReduction(reduction);
    auto result = dyn_cast<ShapedType>(edge.consumer->getResult(0).getType());
    keptOnChip = red && result && ArrayRef<int64_t>(red->inputShape) == result.getShape();
  }
  if (!keptOnChip && reuse > 1.0)
    verdict.penalty = flops * elements * (reuse - 1.0) / target.flopsPerByte();
  verdict.fuse = verdict.benefit > verdict.penalty;
  verdict.reason = llvm::formatv(
      "maybe: saves {0:F0} B, recomputes {1:F0} B-equivalent ({2:F1} reads "
      "per element{3})",
      verdict.benefit, verdict.penalty, reuse,
      keptOnChip ? ", reduction kept on chip" : "");
  return verdict;
}

/// A profile is at most this big: a decision per fusion edge of a model.
constexpr uint64_t kMaxProfileBytes = 64 << 20;

/// The contents of the regular file `path`, at most `maxBytes` long: a FIFO,
/// a device or a directory is refused without blocking on it.
static FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readRegularFile(StringRef path, uint64_t maxBytes, std::string &error) {
  std::string name = path.str();
  int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot read '" + name + "': " + std::strerror(errno);
    return failure();
  }
  auto closeFd = llvm::make_scope_exit([&] { ::close(fd); });
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "'" + name + "' is not a regular file";
    return failure();
  }
  if (static_cast<uint64_t>(st.st_size) > maxBytes) {
    error = "'" + name + "' is larger than " + std::to_string(maxBytes) +
            " bytes";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getOpenFile(fd, name, st.st_size,
                                                /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = "cannot read '" + name + "': " + buffer.getError().message();
    return failure();
  }
  return std::move(*buffer);
}

/// The deepest nesting of JSON arrays and objects in `text` (strings
/// skipped): llvm::json::parse recurses once per level.
static int64_t getJsonDepth(StringRef text) {
  int64_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

FailureOr<ProfileOverrides> ProfileOverrides::load(StringRef path,
                                                   std::string &error) {
  FailureOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readRegularFile(path, kMaxProfileBytes, error);
  if (failed(buffer)) {
    error = "profile: " + error;
    return failure();
  }
  // A profile is one object of decisions: anything deeper is not one (and
  // a deep enough nesting would exhaust the parser's stack).
  if (getJsonDepth((*buffer)->getBuffer()) > 1) {
    error = "profile '" + path.str() +
            "' must be one JSON object of true/false decisions";
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = "profile '" + path.str() + "' is not JSON: " +
            llvm::toString(json.takeError());
    return failure();
  }
  const llvm::json::Object *object = json->getAsObject();
  if (!object) {
    error = "profile '" + path.str() + "' must be a JSON object";
    return failure();
  }
  ProfileOverrides overrides;
  for (const auto &[key, value] : *object) {
    std::optional<bool> decision = value.getAsBoolean();
    if (!decision) {
      error = "profile entry '" + key.str() + "' must be true or false";
      return failure();
    }
    overrides.decisions[key.str()] = *decision;
  }
  return overrides;
}

std::optional<bool> ProfileOverrides::lookup(const FusionEdge &edge) const {
  auto it = decisions.find(edge.getSignature());
  if (it == decisions.end())
    return std::nullopt;
  return it->second;
}
