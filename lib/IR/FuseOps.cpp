//===- FuseOps.cpp - fuse dialect operations ------------------------------===//

#include "FuseDialect/IR/FuseOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ParallelCombiningOpInterface.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::fuse;

void FuseDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "FuseDialect/IR/FuseOps.cpp.inc"

      >();
}

//===----------------------------------------------------------------------===//
// GroupOp
//===----------------------------------------------------------------------===//

bool mlir::fuse::isRematerializable(Operation *op) {
  return op && op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 && isMemoryEffectFree(op);
}


/// `(type, ...)`, possibly empty: a group whose results are all dead still
/// round-trips.
static ParseResult parseGroupResultTypes(OpAsmParser &parser,
                                         SmallVectorImpl<Type> &types) {
  if (parser.parseLParen())
    return failure();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  if (parser.parseTypeList(types) || parser.parseRParen())
    return failure();
  return success();
}

static void printGroupResultTypes(OpAsmPrinter &printer, Operation *,
                                  TypeRange types) {
  printer << "(";
  llvm::interleaveComma(types, printer);
  printer << ")";
}

GroupOp GroupOp::createWithEmptyBody(OpBuilder &builder, Location loc,
                                     TypeRange resultTypes, ValueRange inputs) {
  auto group = GroupOp::create(builder, loc, resultTypes, inputs,
                               /*mapping=*/MappingTypeAttr(),
                               /*input_permutations=*/ArrayAttr(),
                               /*result_permutations=*/ArrayAttr());
  Block *block = new Block();
  group.getBody().push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
  // The terminator is left to the caller, which knows what to yield.
  return group;
}

/// `type` with its dimensions permuted (result dim d is input dim perm[d]).
static Type permuteType(Type type, ArrayRef<int64_t> perm) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || static_cast<int64_t>(perm.size()) != ranked.getRank())
    return {};
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(ranked.getDimSize(p));
  return RankedTensorType::get(shape, ranked.getElementType());
}

static bool isPermutation(ArrayRef<int64_t> perm) {
  llvm::SmallBitVector seen(perm.size());
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(perm.size()) || seen[p])
      return false;
    seen.set(p);
  }
  return true;
}

/// Checks one permutation list against `count` values; `expected(i, perm)`
/// returns the error for entry i, or an empty string.
static LogicalResult
verifyPermutations(GroupOp op, ArrayAttr perms, unsigned count, StringRef what,
                   function_ref<std::string(unsigned, ArrayRef<int64_t>)> check) {
  if (!perms)
    return success();
  if (perms.size() != count)
    return op.emitOpError() << "has " << perms.size() << " " << what
                            << " permutations for " << count << " " << what
                            << "s";
  for (auto [i, attr] : llvm::enumerate(perms)) {
    auto perm = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!perm)
      return op.emitOpError() << what << " permutation #" << i
                              << " must be an array<i64>";
    if (perm.empty())
      continue;
    if (!isPermutation(perm.asArrayRef()))
      return op.emitOpError() << what << " permutation #" << i
                              << " is not a permutation";
    std::string error = check(i, perm.asArrayRef());
    if (!error.empty())
      return op.emitOpError() << error;
  }
  return success();
}

ArrayRef<int64_t> GroupOp::getInputPermutation(unsigned i) {
  if (ArrayAttr perms = getInputPermutationsAttr())
    return cast<DenseI64ArrayAttr>(perms[i]).asArrayRef();
  return {};
}

ArrayRef<int64_t> GroupOp::getResultPermutation(unsigned i) {
  if (ArrayAttr perms = getResultPermutationsAttr())
    return cast<DenseI64ArrayAttr>(perms[i]).asArrayRef();
  return {};
}

bool GroupOp::hasIndexChanges() {
  auto any = [](ArrayAttr perms) {
    return perms && llvm::any_of(perms, [](Attribute a) {
             return !cast<DenseI64ArrayAttr>(a).empty();
           });
  };
  return any(getInputPermutationsAttr()) || any(getResultPermutationsAttr());
}

YieldOp GroupOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

LogicalResult GroupOp::verify() {
  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "expects " << getInputs().size()
                         << " body arguments (one per input), got "
                         << block.getNumArguments();
  if (failed(verifyPermutations(
          *this, getInputPermutationsAttr(), getInputs().size(), "input",
          [&](unsigned i, ArrayRef<int64_t> perm) -> std::string {
            Type expected = permuteType(getInputs()[i].getType(), perm);
            if (expected && expected == block.getArgument(i).getType())
              return "";
            return "input #" + std::to_string(i) +
                   " read through its permutation does not have the type of "
                   "its body argument";
          })))
    return failure();
  if (failed(verifyPermutations(
          *this, getResultPermutationsAttr(), getNumResults(), "result",
          [](unsigned, ArrayRef<int64_t>) { return std::string(); })))
    return failure();
  for (auto [idx, input, arg] :
       llvm::enumerate(getInputs(), block.getArguments())) {
    if (getInputPermutation(idx).empty() && input.getType() != arg.getType())
      return emitOpError() << "input #" << idx << " has type "
                           << input.getType()
                           << " but its body argument has type "
                           << arg.getType();
  }
  return success();
}

LogicalResult GroupOp::verifyRegions() {
  YieldOp yield = getYield();
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError()
           << "yields " << yield.getValues().size() << " values but the group "
           << "has " << getNumResults() << " results";
  for (auto [idx, value, result] :
       llvm::enumerate(yield.getValues(), getResults())) {
    if (ArrayRef<int64_t> perm = getResultPermutation(idx); !perm.empty()) {
      if (permuteType(value.getType(), perm) != result.getType())
        return yield.emitOpError()
               << "value #" << idx << " of type " << value.getType()
               << " written through its permutation does not have the type "
               << "of group result #" << idx << ", " << result.getType();
      continue;
    }
    if (value.getType() != result.getType())
      return yield.emitOpError()
             << "value #" << idx << " has type " << value.getType()
             << " but group result #" << idx << " has type "
             << result.getType();
  }
  // The group promises to be free of side effects, and one group is one
  // kernel, so groups do not nest.
  WalkResult walk = getBody().walk([&](Operation *op) {
    if (isa<GroupOp>(op)) {
      op->emitOpError() << "cannot be nested inside another 'fuse.group'";
      return WalkResult::interrupt();
    }
    // Parallel combining ops (`tensor.parallel_insert_slice` in an
    // `scf.forall` on tensors) write into the loop's tensor results: value
    // semantics, however their effects are declared.
    if (!isMemoryEffectFree(op) && !isa<ParallelCombiningOpInterface>(op) &&
        !isa<ParallelCombiningOpInterface>(op->getParentOp())) {
      op->emitOpError()
          << "has memory effects and cannot be part of a 'fuse.group'";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

namespace {

/// Drops results that have no uses, together with the values yielded for
/// them (and their result permutations).
struct EraseUnusedGroupResults : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    llvm::SmallBitVector keep(group.getNumResults());
    for (OpResult result : group.getResults())
      keep[result.getResultNumber()] = !result.use_empty();
    if (keep.all())
      return rewriter.notifyMatchFailure(group, "all results are used");

    YieldOp yield = group.getYield();
    SmallVector<Value> keptValues;
    SmallVector<Type> keptTypes;
    for (auto [idx, value] : llvm::enumerate(yield.getValues())) {
      if (!keep[idx])
        continue;
      keptValues.push_back(value);
      // The result's own type: with an index change it is the yielded
      // value's type permuted.
      keptTypes.push_back(group.getResult(idx).getType());
    }
    ArrayAttr resultPermutations;
    if (ArrayAttr perms = group.getResultPermutationsAttr()) {
      SmallVector<Attribute> kept;
      for (auto [idx, perm] : llvm::enumerate(perms))
        if (keep[idx])
          kept.push_back(perm);
      if (llvm::any_of(kept, [](Attribute a) {
            return !cast<DenseI64ArrayAttr>(a).empty();
          }))
        resultPermutations = rewriter.getArrayAttr(kept);
    }
    auto newGroup = GroupOp::create(rewriter, group.getLoc(), keptTypes,
                                    group.getInputs(), group.getMappingAttr(),
                                    group.getInputPermutationsAttr(),
                                    resultPermutations);
    newGroup->setDiscardableAttrs(group->getDiscardableAttrDictionary());
    rewriter.inlineRegionBefore(group.getBody(), newGroup.getBody(),
                                newGroup.getBody().end());
    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, keptValues);

    SmallVector<Value> replacements(group.getNumResults(), nullptr);
    unsigned next = 0;
    for (unsigned idx = 0, e = group.getNumResults(); idx < e; ++idx)
      if (keep[idx])
        replacements[idx] = newGroup.getResult(next++);
    rewriter.replaceOp(group, replacements);
    return success();
  }
};

/// Replaces results that merely forward a body argument with the
/// corresponding input: no kernel needs to copy them.
struct ForwardPassThroughResults : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    if (group.hasIndexChanges())
      return rewriter.notifyMatchFailure(group, "has index changes");
    bool changed = false;
    for (auto [value, result] :
         llvm::zip_equal(group.getYield().getValues(), group.getResults())) {
      auto arg = dyn_cast<BlockArgument>(value);
      if (!arg || arg.getOwner() != &group.getBodyBlock() || result.use_empty())
        continue;
      rewriter.replaceAllUsesWith(result,
                                  group.getInputs()[arg.getArgNumber()]);
      changed = true;
    }
    return success(changed);
  }
};

/// Removes inputs whose body argument is unused, merges duplicate inputs and
/// clones rematerializable inputs (constants, empty tensors) into the body.
struct SimplifyGroupInputs : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    if (group.hasIndexChanges())
      return rewriter.notifyMatchFailure(group, "has index changes");
    Block &block = group.getBodyBlock();
    bool changed = false;
    DenseMap<Value, BlockArgument> firstArgForInput;
    rewriter.setInsertionPointToStart(&block);
    for (auto [input, arg] :
         llvm::zip_equal(group.getInputs(), block.getArguments())) {
      if (arg.use_empty())
        continue;
      Operation *def = input.getDefiningOp();
      if (def && isRematerializable(def)) {
        Operation *clone = rewriter.clone(*def);
        rewriter.replaceAllUsesWith(arg, clone->getResult(0));
        changed = true;
        continue;
      }
      auto [it, inserted] = firstArgForInput.try_emplace(input, arg);
      if (!inserted) {
        rewriter.replaceAllUsesWith(arg, it->second);
        changed = true;
      }
    }

    llvm::BitVector dead(block.getNumArguments());
    for (BlockArgument arg : block.getArguments())
      dead[arg.getArgNumber()] = arg.use_empty();
    if (dead.none())
      return success(changed);

    SmallVector<Value> liveInputs;
    for (auto [idx, input] : llvm::enumerate(group.getInputs()))
      if (!dead[idx])
        liveInputs.push_back(input);
    rewriter.modifyOpInPlace(group, [&] {
      group.getInputsMutable().assign(liveInputs);
      block.eraseArguments(dead);
    });
    return success();
  }
};

} // namespace

void GroupOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<EraseUnusedGroupResults, ForwardPassThroughResults,
              SimplifyGroupInputs>(context);
}

#define GET_OP_CLASSES
#include "FuseDialect/IR/FuseOps.cpp.inc"
