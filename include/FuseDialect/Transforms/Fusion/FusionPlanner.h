//===- FusionPlanner.h - Decide fuse.groups, then form them -----*- C++ -*-===//
//
// The planner follows DNNFusion, anchors first: every Many-to-Many op takes
// its epilogue, then DNNFusion's seeds (One-to-One ops, smallest results
// first) grow through consumers, then producers. Each step asks the
// mapping-type lattice (FuseDialect/IR/MappingType.h) and, for the uncertain
// cells, the `FusionCostModel`. Groups stay convex (no path leaves and
// re-enters a group, region captures included), are capped in size and may
// have several outputs.
//
// The plan is decided in the C++ structures below and only then materialized
// as `fuse.group` ops: every planned op ends up in exactly one group.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TRANSFORMS_FUSION_FUSIONPLANNER_H
#define FUSEDIALECT_TRANSFORMS_FUSION_FUSIONPLANNER_H

#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/IR/MappingType.h"
#include "FuseDialect/Target/TargetDescription.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::fuse {



/// One candidate fusion step: `consumer` would join `producer`'s group (or
/// the other way round), `value` being the largest tensor between them.
struct FusionEdge {
  Operation *producer = nullptr;
  Operation *consumer = nullptr;
  Value value;
  MappingType producerType = MappingType::OneToOne;
  MappingType consumerType = MappingType::OneToOne;
  /// What the lattice says about (producerType, consumerType).
  FusionProfitability lattice = FusionProfitability::Maybe;
  /// Flops per element of `value` over everything the producing group
  /// computes it from; negative when unknown (the producer op's own flops
  /// are used then).
  double producerFlopsPerElement = -1;
  /// A row reduction and a contraction already in the producer's group, if
  /// any (row-wise kernels can take more reductions over the same rows).
  Operation *groupReduction = nullptr;
  Operation *groupContraction = nullptr;

  /// A stable key for profile databases: "producer(type)->consumer(type)".
  std::string getSignature() const;
};

/// The cost model's verdict, with the numbers behind it.
struct FusionVerdict {
  bool fuse = false;
  /// Bytes-equivalent saved and spent (flops converted at the target's
  /// flops-per-byte ratio).
  double benefit = 0, penalty = 0;
  std::string reason;
};

/// Decides the uncertain cells of the lattice, and the few never-cells that a
/// specialized kernel makes profitable (see `evaluate`), pricing for a
/// TargetDescription (FuseDialect/Target/TargetDescription.h: an H200 by
/// default). Subclass it to plug in another model; `ProfileOverrides` lets
/// measured decisions win.
class FusionCostModel {
public:
  explicit FusionCostModel(TargetDescription target = {}) : target(target) {}
  virtual ~FusionCostModel();

  /// Prices one fusion step. The default model:
  ///   benefit = 2 * bytes(edge)          (the intermediate is neither stored
  ///             + one kernel launch       nor loaded again)
  ///   penalty = recomputation: the producer's flops per element times the
  ///             times the consumer reads each element beyond the first,
  ///             converted to bytes at `flopsPerByte`; zero when the
  ///             producer is a row reduction whose result a row-wise kernel
  ///             keeps on chip for its broadcast consumer.
  /// Never-cells are refused, except (a) a reduction feeding a reduction over
  /// the same rows (Softmax, LayerNorm: one row-wise kernel) and (b) a
  /// contraction feeding a reduction along its last axis when a row of the
  /// contraction's result fits on chip (attention scores never reach global
  /// memory).
  virtual FusionVerdict evaluate(const FusionEdge &edge) const;

  const TargetDescription &getTarget() const { return target; }

protected:
  TargetDescription target;
};

/// Measured decisions keyed by `FusionEdge::getSignature()`, read from a
/// JSON object {"signature": true|false, ...}.
class ProfileOverrides {
public:
  /// Parses `path`; on failure returns an error message.
  static FailureOr<ProfileOverrides> load(StringRef path, std::string &error);
  std::optional<bool> lookup(const FusionEdge &edge) const;
  bool empty() const { return decisions.empty(); }

private:
  llvm::StringMap<bool> decisions;
};

struct FusionPlannerOptions {
  /// Largest number of ops in one group by default: room for DenseNet's
  /// groups, where a layer's convolution also normalizes its output for
  /// every later layer of its dense block and writes it into each of their
  /// concatenations (4 ops per later layer: DenseNet-121's 24-layer block
  /// needs 97, DenseNet-201's 48-layer block 193). At 64, DenseNet-121 took
  /// 288 kernels, 118 of them copies of one concat part; at 256, 123.
  static constexpr unsigned kDefaultMaxGroupSize = 256;
  /// Largest number of ops in one group.
  unsigned maxGroupSize = kDefaultMaxGroupSize;
  const FusionCostModel *costModel = nullptr;
  const ProfileOverrides *profile = nullptr;
};

/// One planned kernel.
struct PlannedGroup {
  SmallVector<Operation *> ops; ///< in program order
  MappingType type = MappingType::OneToOne;
  /// The op the kernel is tiled around: the first op of the most complex
  /// mapping type.
  Operation *root = nullptr;
};

/// The plan for one block.
struct FusionPlan {
  SmallVector<PlannedGroup> groups;
  /// Compute ops the planner left alone (dynamic shapes, side effects,
  /// unclassified ops).
  SmallVector<Operation *> ungrouped;
};

/// Plans the top-level block of `func`. The IR is not changed.
FusionPlan planFusion(func::FuncOp func, const FusionPlannerOptions &options);

/// Replaces every planned group by a `fuse.group` (constants are cloned into
/// the groups that use them) and restores a topological order that keeps
/// side effects in order. Returns the groups created, in plan order, or
/// failure (with a diagnostic) if the plan had a cycle between kernels.
FailureOr<SmallVector<GroupOp>> materializeFusionPlan(func::FuncOp func,
                                                      const FusionPlan &plan);

/// Bytes of intermediates that a group keeps out of memory: values produced
/// and consumed inside it and not yielded, counted once each.
int64_t getSavedIntermediateBytes(GroupOp group);

} // namespace mlir::fuse

#endif // FUSEDIALECT_TRANSFORMS_FUSION_FUSIONPLANNER_H
