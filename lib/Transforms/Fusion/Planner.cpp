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

#include "FuseDialect/Transforms/Fusion/FusionPlanner.h"

#include "FuseDialect/Analysis/MappingAnalysis.h"
#include "FuseDialect/IR/FuseOps.h"
#include "FuseDialect/Transforms/Fusion/OpQueries.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "fuse-form-groups"

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// Static shapes, none of them zero-sized: a zero-sized tensor computes
/// nothing, and upstream tiling does not handle empty loop ranges.
bool hasStaticTensorTypes(Operation *op) {
  auto isStatic = [](Type t) {
    auto shaped = dyn_cast<ShapedType>(t);
    return !shaped ||
           (shaped.hasStaticShape() && shaped.getNumElements() != 0);
  };
  return llvm::all_of(op->getResultTypes(), isStatic) &&
         llvm::all_of(op->getOperandTypes(), isStatic);
}

struct GroupState {
  llvm::SetVector<Operation *> ops;
  /// Program-order span of the members.
  unsigned minOrder = ~0u, maxOrder = 0;
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
      if (isa<GroupOp>(op) || !hasStaticTensorTypes(&op) ||
          isFreeInitializer(&op))
        continue;
      // Classify afresh: an annotation may be stale if a pass changed the op
      // after `--fuse-annotate-mapping` (annotations are for display).
      if (std::optional<MappingType> type = classifyMappingType(&op))
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

    moveViewsToReaders();

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
          !isa<GroupOp, tensor::EmptyOp>(op) && !isFreeInitializer(&op) &&
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

  /// Ops that only move data: reorganize and shuffle ops (slices,
  /// reshapes, transposes) and pads.
  bool isDataMovement(Operation *op) {
    MappingType type = types[op];
    return type == MappingType::Reorganize || type == MappingType::Shuffle ||
           isa<tosa::PadOp, tensor::PadOp>(op);
  }

  /// A group that returns a value and also a view of it (a crop, a padded
  /// or transposed copy) read by one other group needs two loop nests: one
  /// writes the value, one the copy. Such a view moves into the group that
  /// reads it, which then reads the value through it (tile-and-fuse takes
  /// views as producers): the kernels stay as many, the copy is not
  /// written. A view moves when all its readers are in one other group, it
  /// reads only its own group's values, arguments and constants (the only
  /// group edge is the one already there), and its group then returns the
  /// viewed value only if it does anyway or that is no bigger than the
  /// view (no crop traded for the whole). Repeated, so that chains of views
  /// move whole.
  void moveViewsToReaders() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned g = 0; g < groups.size(); ++g) {
        SmallVector<Operation *> members = sorted(groups[g].ops);
        for (Operation *view : llvm::reverse(members)) {
          std::optional<unsigned> reader = getViewReaderGroup(g, view);
          if (!reader)
            continue;
          // Group g without the view: its members added afresh, so that
          // its type, bounds and anchors are theirs alone.
          SmallVector<Operation *> rest = sorted(groups[g].ops);
          llvm::erase(rest, view);
          groups[g] = GroupState();
          for (Operation *op : rest)
            add(g, op);
          add(*reader, view);
          changed = true;
        }
      }
    }
  }

  /// The group `view` (a member of group `g`) moves to under
  /// moveViewsToReaders; nothing when it stays.
  std::optional<unsigned> getViewReaderGroup(unsigned g, Operation *view) {
    if (!isDataMovement(view) || view->getNumRegions() != 0 ||
        groups[g].ops.size() < 2)
      return std::nullopt;
    std::optional<unsigned> reader;
    for (Operation *user : view->getUsers()) {
      Operation *u = inBlock(user);
      auto it = u ? groupOf.find(u) : groupOf.end();
      if (it == groupOf.end() || it->second == g ||
          (reader && *reader != it->second))
        return std::nullopt;
      reader = it->second;
    }
    if (!reader)
      return std::nullopt;
    // Whether `value` is read outside group g by another op than `except`.
    auto isReturned = [&](Value value, Operation *except) {
      return llvm::any_of(value.getUsers(), [&](Operation *u) {
        Operation *user = inBlock(u);
        return user != except && !groups[g].ops.contains(user);
      });
    };
    for (Value operand : view->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->hasTrait<OpTrait::ConstantLike>() ||
          isa<tosa::ConstShapeOp>(def))
        continue;
      if (!groups[g].ops.contains(def))
        return std::nullopt;
      // The group returns the viewed value instead of the view: only when
      // it does anyway (or it is a chain of views, each read only by the
      // next, of a value it returns anyway: the chain moves step by step),
      // or the value is no bigger (a transpose, a reshape, a pad's input;
      // not the whole of a crop).
      bool returned = isReturned(operand, view);
      for (Value v = operand; !returned && v.hasOneUse();) {
        Operation *up = v.getDefiningOp();
        if (!up || !groups[g].ops.contains(up) || !isDataMovement(up) ||
            up->getNumOperands() == 0)
          break;
        v = up->getOperand(0);
        returned = isReturned(v, up);
      }
      if (!returned && getNumElements(operand.getType()) >
                           getNumElements(view->getResult(0).getType()))
        return std::nullopt;
    }
    return reader;
  }

  /// The op of this block that contains `op` (users may sit in regions).
  Operation *inBlock(Operation *op) { return block.findAncestorOpInBlock(*op); }

  bool isPlannable(Operation *op) { return op && types.count(op); }

  void add(unsigned id, Operation *op) {
    GroupState &group = groups[id];
    group.ops.insert(op);
    groupOf[op] = id;
    group.minOrder = std::min(group.minOrder, order[op]);
    group.maxOrder = std::max(group.maxOrder, order[op]);
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
    // Recomputing the value means recomputing everything it depends on in
    // the producing group.
    if (asConsumer)
      edge.producerFlopsPerElement = getSliceFlopsPerElement(group, edge.value);
    edge.groupReduction = group.reduction;
    edge.groupContraction = group.contraction;
    if (!asConsumer) {
      // Seen from a producer, the group is the consumer side.
      edge.groupReduction = nullptr;
      edge.groupContraction = nullptr;
    }
    return edge;
  }

  /// Flops per element of `value` summed over the group members it depends
  /// on (each member's flops scaled to `value`'s element count).
  static double getSliceFlopsPerElement(const GroupState &group, Value value) {
    double elements = std::max<int64_t>(1, getNumElements(value.getType()));
    double flops = 0;
    llvm::SmallPtrSet<Operation *, 16> seen;
    SmallVector<Value> work{value};
    while (!work.empty()) {
      Operation *op = work.pop_back_val().getDefiningOp();
      if (!op || !group.ops.contains(op) || !seen.insert(op).second)
        continue;
      double opElements =
          std::max<int64_t>(1, getNumElements(op->getResult(0).getType()));
      flops += getFlopsPerResultElement(op) * opElements / elements;
      work.append(op->operand_begin(), op->operand_end());
    }
    return flops;
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

  /// The values `op` reads: its operands and what its regions capture.
  static SmallVector<Value> getReadValues(Operation *op) {
    SmallVector<Value> values(op->getOperands());
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    values.append(above.begin(), above.end());
    return values;
  }

  /// Whether the group plus `candidate` keeps the kernels acyclic: no path
  /// leaves the group and comes back, either through plain ops or through
  /// another group (each group becomes one op, so reaching any member of a
  /// group reaches all of it). Also refuses when an op with side effects
  /// would have to move below the group.
  bool staysConvex(unsigned id, Operation *candidate) {
    llvm::SmallPtrSet<Operation *, 16> members(groups[id].ops.begin(),
                                                groups[id].ops.end());
    members.insert(candidate);
    unsigned lo = std::min(groups[id].minOrder, order[candidate]);
    unsigned hi = std::max(groups[id].maxOrder, order[candidate]);
    // A path that leaves the group and returns stays within [lo', hi']: the
    // window grown until no other group straddles its ends (plain ops only
    // lead forward in program order, so a path above hi' can only come back
    // through a group reaching below hi').
    unsigned loWindow = lo, hiWindow = hi;
    for (bool grew = true; grew;) {
      grew = false;
      for (auto [g, state] : llvm::enumerate(groups)) {
        if (g == id || state.ops.empty())
          continue;
        if (state.minOrder <= hiWindow && state.maxOrder > hiWindow &&
            state.maxOrder >= loWindow) {
          hiWindow = state.maxOrder;
          grew = true;
        }
        if (state.maxOrder >= loWindow && state.minOrder < loWindow &&
            state.minOrder <= hiWindow) {
          loWindow = state.minOrder;
          grew = true;
        }
      }
    }
    // Reaching a member of another group reaches the whole group.
    auto visit = [&](Operation *op, llvm::DenseSet<Operation *> &seen,
                     SmallVectorImpl<Operation *> &work) {
      if (!op || members.contains(op) || order[op] > hiWindow ||
          order[op] < loWindow || !seen.insert(op).second)
        return;
      work.push_back(op);
      auto it = groupOf.find(op);
      if (it == groupOf.end() || it->second == id)
        return;
      for (Operation *m : groups[it->second].ops)
        if (seen.insert(m).second)
          work.push_back(m);
    };
    // Everything that depends on the members.
    llvm::DenseSet<Operation *> after;
    SmallVector<Operation *> work;
    for (Operation *op : members)
      for (Operation *user : op->getUsers())
        visit(inBlock(user), after, work);
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Operation *user : op->getUsers())
        visit(inBlock(user), after, work);
    }
    if (after.empty())
      return true;
    // Dependents placed above the group move below it: only side-effect-free
    // ops may move (anything else would reorder side effects).
    for (Operation *op : after)
      if (order[op] < hi && !isMemoryEffectFree(op))
        return false;
    // Nothing the members depend on may depend on them.
    llvm::DenseSet<Operation *> before;
    auto visitDef = [&](Value v) -> bool {
      Operation *def = v.getDefiningOp();
      def = def ? inBlock(def) : nullptr;
      if (!def || members.contains(def))
        return true;
      size_t mark = work.size();
      visit(def, before, work);
      for (size_t i = mark; i < work.size(); ++i)
        if (after.contains(work[i]))
          return false;
      return true;
    };
    for (Operation *op : members)
      for (Value v : getReadValues(op))
        if (!visitDef(v))
          return false;
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Value v : getReadValues(op))
        if (!visitDef(v))
          return false;
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
