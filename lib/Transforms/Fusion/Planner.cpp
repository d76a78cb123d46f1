//===- Planner.cpp - DNNFusion's group-growing fusion planner -------------===//
//
// 1. Plannable ops: classified computations (a mapping type) on statically
//    shaped tensors in the function's top-level block.
// 2. Anchors first: every Many-to-Many op (conv, matmul, reduction), in
//    program order, absorbs its consumers (its epilogue); then each anchor
//    group also grows through producers. Taking epilogues before DNNFusion's
//    seeds get to them computes an activation once, in the producer's
//    kernel, instead of once per read in the next conv's prologue, and keeps
//    a concat from claiming the epilogues of all its branches.
// 3. Seeds (DNNFusion): One-to-One ops, smallest result first; then every op
//    still alone, in program order, so that every plannable op lands in a
//    group.
// 4. Growth: a group absorbs consumers of its values, then producers of its
//    operands, until nothing more joins. Each step asks the lattice; the
//    uncertain cells (and the never-cells a specialized kernel can serve) ask
//    the cost model, and a profile database overrides both. A step is taken
//    only if the group stays convex and under the size cap.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Transforms/FusionPlanner.h"

#include "FuseDialect/Analysis/MappingAnalysis.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Fusion/OpTraits.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fuse-form-groups"

using namespace mlir;
using namespace mlir::fuse;

namespace {

bool hasStaticTensorTypes(Operation *op) {
  auto isStatic = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return !shaped || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getResultTypes(), isStatic) &&
         llvm::all_of(op->getOperandTypes(), isStatic);
}

struct GroupState {
  llvm::SetVector<Operation *> ops;
  MappingType type = MappingType::OneToOne;
  Operation *reduction = nullptr;
  Operation *contraction = nullptr;
};

class Planner {
public:
  Planner(func::FuncOp func, const FusionPlannerOptions &options)
      : block(func.getBody().front()), options(options) {
    unsigned position = 0;
    for (Operation &op : block) {
      order[&op] = position++;
      if (isa<GroupOp>(op) || !hasStaticTensorTypes(&op))
        continue;
      std::optional<MappingType> type = getAnnotatedMappingType(&op);
      if (!type)
        type = classifyMappingType(&op);
      if (type)
        types[&op] = *type;
    }
  }

  FusionPlan run() {
    // Anchors and their epilogues, then their prologues.
    for (Operation &op : block) {
      if (!types.count(&op) || groupOf.count(&op) ||
          types[&op] != MappingType::ManyToMany)
        continue;
      unsigned id = groups.size();
      groups.emplace_back();
      add(id, &op);
      while (growConsumers(id)) {
      }
    }
    for (unsigned id = 0, e = groups.size(); id < e; ++id)
      grow(id);

    // Seeds: One-to-One ops with the smallest intermediate results first.
    SmallVector<Operation *> seeds;
    for (Operation &op : block)
      if (types.count(&op) && types[&op] == MappingType::OneToOne)
        seeds.push_back(&op);
    llvm::stable_sort(seeds, [](Operation *a, Operation *b) {
      return resultBytes(a) < resultBytes(b);
    });
    for (Operation &op : block)
      if (types.count(&op) && types[&op] != MappingType::OneToOne)
        seeds.push_back(&op);

    for (Operation *seed : seeds) {
      if (groupOf.count(seed))
        continue;
      unsigned id = groups.size();
      groups.emplace_back();
      add(id, seed);
      grow(id);
    }

    FusionPlan plan;
    for (GroupState &state : groups) {
      PlannedGroup group;
      group.ops.assign(state.ops.begin(), state.ops.end());
      llvm::sort(group.ops,
                 [&](Operation *a, Operation *b) { return order[a] < order[b]; });
      group.type = state.type;
      for (Operation *op : group.ops)
        if (types[op] == state.type) {
          group.root = op;
          break;
        }
      plan.groups.push_back(std::move(group));
    }
    llvm::sort(plan.groups, [&](const PlannedGroup &a, const PlannedGroup &b) {
      return order[a.ops.front()] < order[b.ops.front()];
    });
    for (Operation &op : block)
      if (!types.count(&op) && !op.hasTrait<OpTrait::ConstantLike>() &&
          !op.hasTrait<OpTrait::IsTerminator>() && op.getNumResults() > 0 &&
          !isa<GroupOp, tensor::EmptyOp>(op) &&
          llvm::any_of(op.getResultTypes(), [](Type t) {
            return isa<TensorType>(t);
          }))
        plan.ungrouped.push_back(&op);
    return plan;
  }

private:
  static int64_t resultBytes(Operation *op) {
    int64_t bytes = 0;
    for (Type t : op->getResultTypes())
      bytes += getNumElements(t) * getElementBytes(t);
    return bytes;
  }

  /// The op of this block that contains `op` (users may sit in regions).
  Operation *inBlock(Operation *op) { return block.findAncestorOpInBlock(*op); }

  bool isPlannable(Operation *op) { return op && types.count(op); }

  void add(unsigned id, Operation *op) {
    GroupState &group = groups[id];
    group.ops.insert(op);
    groupOf[op] = id;
    group.type = group.ops.size() == 1 ? types[op]
                                       : joinMappingTypes(group.type, types[op]);
    if (!group.reduction && getRowReduction(op))
      group.reduction = op;
    if (!group.contraction && isContraction(op))
      group.contraction = op;
  }

  /// One sweep over the consumers of the group; true if one joined.
  bool growConsumers(unsigned id) {
    llvm::SetVector<Operation *> consumers;
    for (Operation *op : groups[id].ops)
      for (Operation *user : op->getUsers())
        if (Operation *u = inBlock(user); isPlannable(u) && !groupOf.count(u))
          consumers.insert(u);
    bool changed = false;
    for (Operation *candidate : sorted(consumers))
      changed |= tryAdd(id, candidate, /*asConsumer=*/true);
    return changed;
  }

  void grow(unsigned id) {
    bool changed = true;
    while (changed) {
      // Consumers first, then producers (DNNFusion's order).
      changed = growConsumers(id);

      llvm::SetVector<Operation *> producers;
      for (Operation *op : groups[id].ops)
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp();
              isPlannable(def) && !groupOf.count(def))
            producers.insert(def);
      for (Operation *candidate : sorted(producers))
        changed |= tryAdd(id, candidate, /*asConsumer=*/false);
    }
  }

  SmallVector<Operation *> sorted(const llvm::SetVector<Operation *> &ops) {
    SmallVector<Operation *> result(ops.begin(), ops.end());
    llvm::sort(result,
               [&](Operation *a, Operation *b) { return order[a] < order[b]; });
    return result;
  }

  /// The edge between the group and `candidate`: the largest tensor flowing
  /// between them.
  FusionEdge makeEdge(unsigned id, Operation *candidate, bool asConsumer) {
    GroupState &group = groups[id];
    FusionEdge edge;
    int64_t best = -1;
    if (asConsumer) {
      edge.consumer = candidate;
      for (Value operand : candidate->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || !group.ops.contains(def))
          continue;
        int64_t bytes = getNumElements(operand.getType());
        if (bytes > best) {
          best = bytes;
          edge.producer = def;
          edge.value = operand;
        }
      }
      edge.producerType = group.type;
      edge.consumerType = types[candidate];
    } else {
      edge.producer = candidate;
      for (Value result : candidate->getResults())
        for (Operation *user : result.getUsers())
          if (Operation *u = inBlock(user); u && group.ops.contains(u)) {
            int64_t bytes = getNumElements(result.getType());
            if (bytes > best) {
              best = bytes;
              edge.consumer = u;
              edge.value = result;
            }
          }
      edge.producerType = types[candidate];
      edge.consumerType = group.type;
    }
    edge.lattice = classifyFusion(edge.producerType, edge.consumerType);
    edge.groupReduction = group.reduction;
    edge.groupContraction = group.contraction;
    if (!asConsumer) {
      // Seen from a producer, the group is the consumer side.
      edge.groupReduction = nullptr;
      edge.groupContraction = nullptr;
    }
    return edge;
  }

  bool tryAdd(unsigned id, Operation *candidate, bool asConsumer) {
    if (groups[id].ops.size() >= options.maxGroupSize)
      return false;
    // An insert into a concat destination belongs to the kernel that
    // computes what it inserts: that kernel then writes in place.
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(candidate)) {
      Operation *source = insert.getSource().getDefiningOp();
      if (!source || !groups[id].ops.contains(source))
        return false;
    }
    FusionEdge edge = makeEdge(id, candidate, asConsumer);
    if (!edge.producer || !edge.consumer)
      return false;
    bool fuse;
    std::optional<bool> measured =
        options.profile ? options.profile->lookup(edge) : std::nullopt;
    if (measured) {
      fuse = *measured;
    } else if (edge.lattice == FusionProfitability::Always) {
      fuse = true;
    } else {
      FusionCostModel defaultModel;
      const FusionCostModel &model =
          options.costModel ? *options.costModel : defaultModel;
      FusionVerdict verdict = model.evaluate(edge);
      LLVM_DEBUG(llvm::dbgs() << edge.getSignature() << ": "
                              << (verdict.fuse ? "fuse" : "keep apart")
                              << " (" << verdict.reason << ")\n");
      fuse = verdict.fuse;
    }
    if (!fuse || !staysConvex(id, candidate))
      return false;
    add(id, candidate);
    return true;
  }

  /// Whether the group plus `candidate` has no path that leaves it and comes
  /// back: no outside op both depends on a member and is depended on.
  bool staysConvex(unsigned id, Operation *candidate) {
    llvm::SmallPtrSet<Operation *, 16> members(groups[id].ops.begin(),
                                                groups[id].ops.end());
    members.insert(candidate);
    unsigned lo = ~0u, hi = 0;
    for (Operation *op : members) {
      lo = std::min(lo, order[op]);
      hi = std::max(hi, order[op]);
    }
    // Outside ops reachable forward from the members (within [lo, hi]).
    llvm::DenseSet<Operation *> after;
    SmallVector<Operation *> work(members.begin(), members.end());
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Operation *user : op->getUsers()) {
        Operation *u = inBlock(user);
        if (!u || members.contains(u) || order[u] > hi || !after.insert(u).second)
          continue;
        work.push_back(u);
      }
    }
    if (after.empty())
      return true;
    // Forming the group moves these ops below it; only side-effect-free ops
    // may move (anything else would reorder side effects).
    for (Operation *op : after)
      if (!isMemoryEffectFree(op))
        return false;
    // ... and backward from the members.
    llvm::DenseSet<Operation *> before;
    work.assign(members.begin(), members.end());
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      SmallVector<Value> operands(op->getOperands());
      for (Value v : operands) {
        Operation *def = v.getDefiningOp();
        if (!def || members.contains(def) || order[def] < lo ||
            !before.insert(def).second)
          continue;
        if (after.contains(def))
          return false;
        work.push_back(def);
      }
    }
    return true;
  }

  Block &block;
  const FusionPlannerOptions &options;
  DenseMap<Operation *, unsigned> order;
  DenseMap<Operation *, MappingType> types;
  DenseMap<Operation *, unsigned> groupOf;
  std::vector<GroupState> groups;
};

} // namespace

FusionPlan mlir::fuse::planFusion(func::FuncOp func,
                                  const FusionPlannerOptions &options) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return {};
  return Planner(func, options).run();
}
