//===- DistributeTiles.cpp - One GPU block per tile, its threads inside ---===//
//
// After bufferization a group is one `scf.forall` over its tiles whose body
// computes a tile with structured ops on memrefs: the group's inputs and
// outputs as subviews of global buffers, its intermediates in the tile's own
// temporaries (`memref.alloc` in the body). This pass makes each such loop
// one `gpu.launch` with one block per tile, and shares each op of the tile
// among the block's threads:
//
//  * The tile's temporaries live in shared memory (workgroup attributions of
//    the launch) when their shapes are static and they fit in 48 KiB (the
//    two that the branches of a tiled pad yield share one buffer); the
//    others (dynamic sizes, bounded by the tile) in a device scratch buffer
//    with one slice per block, allocated around the launch.
//  * Each structured op becomes a loop over its parallel iteration points,
//    linearized and strided by the block size (consecutive threads take
//    consecutive points: coalesced accesses on the innermost dimension),
//    with its reduction loops inside. A `gpu.barrier` after each op makes
//    its writes visible to the next op's threads (inside a branch of the
//    tile body when the op is in one: its condition is the same on every
//    thread); one before an op guards what every thread loaded on its own.
//  * An elementwise op whose innermost loop is a multiple of 4 reads and
//    writes 16-byte vectors when every buffer's address, offset and row
//    strides allow (checked at run time, the same on all threads), scalars
//    otherwise.
//  * An input of the tile that a reduction and other ops read (a softmax or
//    LayerNorm row) is copied to shared memory once, before its first
//    reader, and read there: one pass over global memory instead of one
//    per op.
//  * A contraction (matmul) stages the slices of both operands its tile
//    reads in shared memory, chunk by chunk of its reduction, each copied
//    by the whole block; each thread then accumulates its points from
//    shared memory, a micro-tile of them in registers where the tile is
//    M x N. A convolution is such a matmul (output pixels by filters), its
//    window loops outside the chunks of channels. On tensor cores (f16 and
//    bf16 operands; f32 as TF32 with `tf32`) each warp takes 16x8 pieces of
//    the tile instead, its lanes' accumulator fragments in registers, one
//    mma.sync per piece and k steps.
//  * A reduction whose parallel points would leave most threads idle (a
//    tile's rows in softmax, LayerNorm, a global pool) is split across the
//    threads
//    instead: each thread reduces a strided part of every row from the
//    combiner's neutral element, `gpu.all_reduce` (warp shuffles and shared
//    memory) combines the partial results, and one thread combines the total
//    into the output; a barrier ends each row (the next row's all_reduce
//    reuses the lowering's buffer). This reassociates the reduction, as
//    every parallel reduction does: floating-point sums can differ from the
//    sequential order in the last bits (`cooperative-reductions=false`
//    keeps the order).
//
// Tiles whose body this cannot distribute (ops with other regions or side
// effects, outputs that several points write, dynamic tile counts,
// temporaries without a constant bound) are left to the thread-per-tile
// mapping that follows in --fuse-lower-to-nvvm.
//
// A second pass here, fuse-annotate-kernels, sets what the NVVM backend
// reads on the outlined kernels: 16-byte aligned shared buffers and the
// blocks to keep resident per SM.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Conversion/Passes.h"
#include "FuseDialect/IR/FuseDialect.h"
#include "TileLoops.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <algorithm>
#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEDISTRIBUTETILESPASS
#define GEN_PASS_DEF_FUSEANNOTATEKERNELSPASS
#include "FuseDialect/Conversion/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using fuse::delinearize;
using fuse::getStaticBounds;
using fuse::getStaticTileCounts;
using fuse::inlineTileLoopBody;
using fuse::StaticBounds;

namespace {

/// Of the block's kSharedMemoryBytes (TileLoops.h) the temporaries take
/// what they need first; what is left pays for staged matmul operands and
/// the bytes the lowering of each split reduction's gpu.all_reduce adds.
using fuse::kSharedMemoryBytes;
/// Shared-memory buffers are aligned to this (fuse-annotate-kernels).
constexpr int64_t kSharedAlignment = 16;
/// Blocks a kernel asks to keep resident per SM (fuse-annotate-kernels).
constexpr int64_t kMinBlocksPerSM = 4;
/// Alignment of each temporary in the scratch buffer.
constexpr int64_t kScratchAlignment = 64;

//===----------------------------------------------------------------------===//
// Which tile bodies can be shared among threads
//===----------------------------------------------------------------------===//

int64_t elementBytes(MemRefType type) {
  return llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// The value of the index `value` with the values in `env` (the tile loop's
/// induction variables) known, by folding its pure producers.
std::optional<int64_t> evaluate(Value value, DenseMap<Value, int64_t> &env) {
  if (auto known = env.find(value); known != env.end())
    return known->second;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def))
    return std::nullopt;
  Builder b(value.getContext());
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> v = getConstantIntValue(operand);
    if (!v && operand.getType().isIndex())
      v = evaluate(operand, env);
    if (!v)
      return std::nullopt;
    operands.push_back(b.getIndexAttr(*v));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) ||
      results.size() != def->getNumResults())
    return std::nullopt;
  OpFoldResult result = results[cast<OpResult>(value).getResultNumber()];
  std::optional<int64_t> v =
      isa<Value>(result) ? evaluate(cast<Value>(result), env)
                         : getConstantIntValue(result);
  if (v)
    env[value] = *v;
  return v;
}

/// The largest value `size` takes in any tile of `loop`: a constant bound if
/// the value-bounds analysis finds one, else the maximum over every tile
/// (sizes of padded windows at the borders are maxima and minima the
/// analysis does not bound).
FailureOr<int64_t> boundSize(Value size, scf::ForallOp loop) {
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, size, /*stopCondition=*/nullptr,
      /*closedUB=*/true);
  if (succeeded(bound))
    return bound;
  std::optional<StaticBounds> bounds = getStaticBounds(loop);
  if (!bounds)
    return failure();
  ArrayRef<int64_t> lbs = bounds->lbs, ubs = bounds->ubs,
                    steps = bounds->steps;
  SmallVector<int64_t> point(lbs);
  int64_t largest = 0;
  for (int64_t visited = 0; visited < (1 << 16); ++visited) {
    DenseMap<Value, int64_t> env;
    for (auto [iv, v] : llvm::zip(loop.getInductionVars(), point))
      env[iv] = v;
    std::optional<int64_t> v = evaluate(size, env);
    if (!v)
      return failure();
    largest = std::max(largest, *v);
    // Next tile, last loop fastest.
    int d = static_cast<int>(point.size()) - 1;
    for (; d >= 0; --d) {
      point[d] += steps[d];
      if (point[d] < ubs[d])
        break;
      point[d] = lbs[d];
    }
    if (d < 0)
      return largest;
  }
  return failure();
}

/// Bytes a temporary of a tile of `loop` takes at most.
FailureOr<int64_t> boundBytes(memref::AllocOp alloc, scf::ForallOp loop) {
  MemRefType type = alloc.getType();
  int64_t elements = 1;
  unsigned dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> bound =
          boundSize(alloc.getDynamicSizes()[dynamic++], loop);
      if (failed(bound) || *bound < 0)
        return failure();
      size = *bound;
    }
    elements *= size;
  }
  return elements * elementBytes(type);
}

/// Whether every op in `region` (a tile body or a branch of an `scf.if` in
/// it) can run on all threads of a block: structured ops (shared out below),
/// uniform `scf.if`s, the tile's temporaries (their bytes at most recorded
/// in `tempBytes`), and ops that write nothing.
bool isDistributable(Region &region, scf::ForallOp loop,
                     DenseMap<Operation *, int64_t> &tempBytes) {
  for (Operation &op : region.getOps()) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (!linalgOp.hasPureBufferSemantics())
        return false;
      // Each parallel point writes its own output elements (threads take
      // distinct points): every output index uses every parallel loop but
      // unit ones (a batch of one that only the inputs index).
      SmallVector<unsigned> parallel;
      linalgOp.getParallelDims(parallel);
      SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
      for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
        AffineMap map = linalgOp.getMatchingIndexingMap(&init);
        if (!map.isProjectedPermutation() ||
            llvm::any_of(parallel, [&](unsigned d) {
              return ranges[d] != 1 && !map.isFunctionOfDim(d);
            }))
          return false;
      }
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (!isDistributable(ifOp.getThenRegion(), loop, tempBytes) ||
          !isDistributable(ifOp.getElseRegion(), loop, tempBytes))
        return false;
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat())
        return false;
      FailureOr<int64_t> bytes = boundBytes(alloc, loop);
      if (failed(bytes))
        return false;
      tempBytes[alloc] = *bytes;
      continue;
    }
    if (isa<memref::DeallocOp, scf::YieldOp, scf::InParallelOp>(op))
      continue;
    if (op.getNumRegions() != 0)
      return false;
    // Pure ops and reads run redundantly on every thread.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (isMemoryEffectFree(&op) ||
        (effects && effects.onlyHasEffect<MemoryEffects::Read>()))
      continue;
    return false;
  }
  return true;
}

/// The value that changes memory space with the operand of `use`: the
/// result of a view of it, the base buffer of its metadata, or the result
/// of the branch that yields it; null for any other use.
Value getMovedValue(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::CastOp, memref::ExtractStridedMetadataOp>(user))
    return user->getResult(0);
  if (isa<scf::YieldOp>(user) && isa<scf::IfOp>(user->getParentOp()))
    return user->getParentOp()->getResult(use.getOperandNumber());
  return Value();
}

/// Whether `value`, once in shared memory, can change its memory space
/// through all its uses: views of it change theirs, structured ops, loads,
/// stores and deallocations do not care. A branch result moves only with a
/// temporary it yields directly (a padded window, or its border case;
/// getSharedUnit finds the other branch's temporary).
bool canChangeMemorySpace(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<linalg::LinalgOp, memref::LoadOp, memref::StoreOp,
            memref::DeallocOp>(user))
      continue;
    Value moved = getMovedValue(use);
    if (!moved ||
        (isa<scf::YieldOp>(user) && !value.getDefiningOp<memref::AllocOp>()) ||
        !canChangeMemorySpace(moved))
      return false;
  }
  return true;
}

/// Moves what changes memory space with `value`, now in `space`, there too.
void propagateMemorySpace(Value value, Attribute space) {
  for (OpOperand &use : value.getUses()) {
    Value moved = getMovedValue(use);
    if (!moved)
      continue;
    auto type = cast<MemRefType>(moved.getType());
    if (type.getMemorySpace() == space)
      continue; // the other branch's temporary moved it already
    moved.setType(MemRefType::Builder(type).setMemorySpace(space));
    propagateMemorySpace(moved, space);
  }
}

/// The temporaries that share one shared-memory buffer with `alloc`: itself,
/// and for each branch result it is yielded as, the temporary the other
/// branch yields there (only one branch runs). Empty if a partner is not a
/// temporary of the same type.
SmallVector<memref::AllocOp> getSharedUnit(memref::AllocOp alloc) {
  SmallVector<memref::AllocOp> unit = {alloc};
  for (OpOperand &use : alloc->getUses()) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    auto ifOp = yield ? dyn_cast<scf::IfOp>(yield->getParentOp()) : nullptr;
    if (!ifOp)
      continue;
    // Defined in the branch that yields it, so it is not alive while the
    // other branch runs.
    if (alloc->getBlock() != yield->getBlock())
      return {};
    Block *other = yield->getBlock() == ifOp.thenBlock() ? ifOp.elseBlock()
                                                         : ifOp.thenBlock();
    if (!other)
      return {};
    Value partner = other->getTerminator()->getOperand(use.getOperandNumber());
    auto partnerAlloc = partner.getDefiningOp<memref::AllocOp>();
    auto isYield = [](Operation *user) { return isa<scf::YieldOp>(user); };
    if (!partnerAlloc || partnerAlloc.getType() != alloc.getType() ||
        partnerAlloc->getBlock() != other ||
        llvm::count_if(partnerAlloc->getUsers(), isYield) != 1 ||
        llvm::count_if(alloc->getUsers(), isYield) != 1)
      return {};
    unit.push_back(partnerAlloc);
  }
  return unit;
}

//===----------------------------------------------------------------------===//
// Structured ops as thread loops
//===----------------------------------------------------------------------===//

Value constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value result = constantIndex(b, loc, 1);
  for (Value size : sizes)
    result = b.createOrFold<arith::MulIOp>(loc, result, size);
  return result;
}

SmallVector<Value> indicesOf(OpBuilder &b, Location loc, AffineMap map,
                             ValueRange ivs) {
  return *affine::expandAffineMap(b, loc, map, ivs);
}

/// The payload of `op` at iteration `ivs`, with `outs` as the current values
/// of its outputs (null where the payload does not read them); returns the
/// yielded values. Input i is `values[i]` where given (already loaded), else
/// read from `inputs[i]` where given (a staged copy indexed like the
/// original), else from the op's own operand.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ValueRange outs,
                               ArrayRef<Value> inputs = {},
                               ArrayRef<Value> values = {}) {
  IRMapping map;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    unsigned i = input->getOperandNumber();
    if (i < values.size() && values[i]) {
      map.map(arg, values[i]);
      continue;
    }
    if (!isa<MemRefType>(input->get().getType())) {
      map.map(arg, input->get());
      continue;
    }
    if (arg.use_empty())
      continue;
    Value buffer = i < inputs.size() && inputs[i] ? inputs[i] : input->get();
    map.map(arg, memref::LoadOp::create(
                     b, loc, buffer,
                     indicesOf(b, loc, op.getMatchingIndexingMap(input), ivs)));
  }
  for (auto [arg, value] : llvm::zip(op.getRegionOutputArgs(), outs))
    if (value)
      map.map(arg, value);
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  return llvm::map_to_vector(body->getTerminator()->getOperands(),
                             [&](Value v) { return map.lookupOrDefault(v); });
}

/// The values of `op`'s outputs at `ivs`: loaded where the payload reads
/// them (or `always`), null otherwise.
SmallVector<Value> loadOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, bool always) {
  SmallVector<Value> outs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!always && !op.payloadUsesValueFromOperand(&init)) {
      outs.push_back(Value());
      continue;
    }
    outs.push_back(memref::LoadOp::create(
        b, loc, init.get(),
        indicesOf(b, loc, op.getMatchingIndexingMap(&init), ivs)));
  }
  return outs;
}

void storeOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  ValueRange ivs, ValueRange results) {
  for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results))
    memref::StoreOp::create(
        b, loc, result, init.get(),
        indicesOf(b, loc, op.getMatchingIndexingMap(&init), ivs));
}

/// The iteration point with `parallel` and `reduction` indices in place.
SmallVector<Value> mergeIndices(ArrayRef<utils::IteratorType> iterators,
                                ArrayRef<Value> parallel,
                                ArrayRef<Value> reduction) {
  SmallVector<Value> ivs;
  unsigned p = 0, r = 0;
  for (utils::IteratorType iterator : iterators)
    ivs.push_back(iterator == utils::IteratorType::parallel ? parallel[p++]
                                                            : reduction[r++]);
  return ivs;
}

/// The one combiner of a single-output reduction (`out = combiner(f(ins),
/// out)`) whose neutral element is known, so that partial results can start
/// from it; null otherwise.
Operation *getCombiner(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return nullptr;
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return nullptr;
  Operation *combiner = combiners.front();
  Type type = combiner->getResult(0).getType();
  // gpu.all_reduce shuffles 32-bit values.
  if (combiner->getNumOperands() != 2 || !type.isIntOrFloat() ||
      type.getIntOrFloatBitWidth() != 32 || !arith::getNeutralElement(combiner))
    return nullptr;
  return combiner;
}

/// Clones `combiner` over (lhs, rhs) in place of its (value, accumulator).
Value combine(OpBuilder &b, Operation *combiner, Value accumulatorArg,
              Value lhs, Value rhs) {
  IRMapping map;
  for (Value operand : combiner->getOperands())
    map.map(operand, operand == accumulatorArg ? rhs : lhs);
  return b.clone(*combiner, map)->getResult(0);
}

/// Lets the floating-point ops in `region` contract: a multiply and the add
/// of its product become one fused multiply-add (rounded once).
void allowContraction(Region &region) {
  region.walk([](arith::ArithFastMathInterface op) {
    // Ops whose flags are optional (arith.extf, arith.truncf) have none to
    // contract, and their lowering to LLVM would not take them.
    arith::FastMathFlagsAttr flags = op.getFastMathFlagsAttr();
    if (!flags)
      return;
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(
                    op->getContext(),
                    flags.getValue() | arith::FastMathFlags::contract));
  });
}

/// Which register-tiled contractions run on tensor cores (mma.sync).
struct TensorCores {
  /// f32 operands, cut to TF32 (changes values: opt-in).
  bool tf32;
  /// f16 and bf16 operands: exact products, summed in f32.
  bool lowPrecision;
};

struct RegisterTiling;

struct ThreadContext {
  Value threadId;
  Value blockSize;
  int64_t staticBlockSize;
  bool cooperativeReductions;
  /// A staged matmul's multiplies and adds may fuse (fastmath<contract>).
  bool fma;
  gpu::LaunchOp launch;
  /// Shared memory the launch may still take (beyond what the register-tiled
  /// contractions reserved).
  int64_t sharedBytesLeft;
  /// The contractions register-tiled, and the ops they absorb.
  const DenseMap<Operation *, RegisterTiling> *registerTilings;
};

/// The loops a matmul tile spans: the M loops (read by the first input
/// only: one for a matmul, none in a tile of one row, the rows and columns
/// of pixels for a 1x1 convolution), outermost first, and N (read by the
/// second only).
struct MatmulLoops {
  SmallVector<unsigned> m;
  unsigned n;
};

/// The M and N loops of contraction `op` (loop ranges `ranges`, reduction
/// loop `kDim`) when they are its only loops longer than 1 besides the
/// reduction (and a convolution's window loops `outer`): one N and, with
/// `allowFlatM`, any number of M loops (their points taken as one row
/// index: a convolution's output pixels), else exactly one.
std::optional<MatmulLoops>
getMatmulLoops(linalg::LinalgOp op, ArrayRef<int64_t> ranges, unsigned kDim,
               bool allowFlatM = false, ArrayRef<unsigned> outer = {}) {
  AffineMap a = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap b = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  SmallVector<unsigned> m;
  std::optional<unsigned> n;
  for (unsigned dim = 0; dim < ranges.size(); ++dim) {
    if (dim == kDim || ranges[dim] == 1 || llvm::is_contained(outer, dim))
      continue;
    bool inA = a.isFunctionOfDim(dim), inB = b.isFunctionOfDim(dim);
    if (inA && !inB)
      m.push_back(dim);
    else if (inB && !inA && !n)
      n = dim;
    else
      return std::nullopt;
  }
  if ((m.size() != 1 && !allowFlatM) || !n)
    return std::nullopt;
  return MatmulLoops{m, *n};
}

/// How a contraction's chunks run on tensor cores: one mma.sync of shape
/// m16n8k`k` per 16x8 piece of the tile and `k` steps of a chunk.
struct MmaShape {
  /// The operands' element type: f32 (as TF32), f16 or bf16.
  Type operandType;
  /// 8 for TF32, 16 for f16 and bf16.
  int64_t k;
};

/// Whether `value` is block argument `arg` or its extension (arith.extf)
/// to the accumulator's type.
bool isOperandOrExtension(Value value, BlockArgument arg) {
  if (value == arg)
    return true;
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg && ext->hasOneUse();
}

/// Whether the staged contraction `op` can run on tensor cores: operands
/// of one type that `cores` allows (f32 as TF32; f16, bf16), an f32
/// accumulator or one of the operands' type, and a body that is exactly
/// out + a * b (the operands extended to the accumulator's type first, if
/// narrower). The tile's shape and chunks are the caller's to check.
std::optional<MmaShape> getMmaShape(linalg::LinalgOp op, TensorCores cores) {
  Type a = getElementTypeOrSelf(op.getDpsInputOperand(0)->get().getType());
  Type b = getElementTypeOrSelf(op.getDpsInputOperand(1)->get().getType());
  Type out = getElementTypeOrSelf(op.getDpsInitsMutable()[0].get().getType());
  if (a != b)
    return std::nullopt;
  int64_t k;
  if (a.isF32() && out.isF32() && cores.tf32)
    k = 8;
  else if ((a.isF16() || a.isBF16()) && (out == a || out.isF32()) &&
           cores.lowPrecision)
    k = 16;
  else
    return std::nullopt;
  // Exactly out + a * b (a contraction may apply other unary ops to its
  // operands or result, which mma.sync would not; a product rounded to a
  // narrow type before its extension would not be mma.sync's exact one).
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto addf = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!addf)
    return std::nullopt;
  BlockArgument in0 = body->getArgument(0), in1 = body->getArgument(1),
                acc = body->getArgument(2);
  Value product = addf.getLhs() == acc ? addf.getRhs() : addf.getLhs();
  auto mulf = product.getDefiningOp<arith::MulFOp>();
  size_t extensions = out == a ? 0 : 2;
  if ((addf.getLhs() != acc && addf.getRhs() != acc) || !mulf ||
      body->getOperations().size() != 3 + extensions ||
      !((isOperandOrExtension(mulf.getLhs(), in0) &&
         isOperandOrExtension(mulf.getRhs(), in1)) ||
        (isOperandOrExtension(mulf.getLhs(), in1) &&
         isOperandOrExtension(mulf.getRhs(), in0))))
    return std::nullopt;
  return MmaShape{a, k};
}

/// The k steps from `step` of one 16x8 piece on tensor cores: A and B
/// fragments read through `loadA(half, step)` (half 0: rows g, 1: rows
/// g + 8) and `loadB(step)` (column g), one mma.sync into accumulator
/// fragment `acc`; returns the new fragment. Fragment layouts (PTX ISA,
/// mma.m16n8k8 .tf32 and mma.m16n8k16 .f16/.bf16), with g = lane / 4,
/// t = lane % 4, and E = 32 / operand bits elements per 32-bit register
/// (1 for TF32, 2 for f16 and bf16), element e of register r at: A (row,
/// step) = (g + 8 (r % 2), k/2 (r / 2) + E t + e), r < 4; B (step, column)
/// = (k/2 r + E t + e, g), r < 2; C (row, column) = (g + 8 (r / 2), 2t +
/// r % 2), r < 4, one f32 each.
Value emitMmaStep(OpBuilder &b, Location loc, const MmaShape &mma, Value t,
                  Value step, Value acc,
                  function_ref<Value(int64_t, Value)> loadA,
                  function_ref<Value(Value)> loadB) {
  int64_t perRegister = 32 / mma.operandType.getIntOrFloatBitWidth();
  auto c = [&](int64_t v) { return constantIndex(b, loc, v); };
  Value kt = b.createOrFold<arith::AddIOp>(
      loc, step, b.createOrFold<arith::MulIOp>(loc, t, c(perRegister)));
  // stepOf[half][e]: the step of element e of the registers of either half
  // of the k steps (A's registers r / 2, B's registers r).
  SmallVector<SmallVector<Value, 2>, 2> stepOf(2);
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t e = 0; e < perRegister; ++e)
      stepOf[half].push_back(
          b.createOrFold<arith::AddIOp>(loc, kt, c(half * mma.k / 2 + e)));
  SmallVector<Value> aValues, bValues;
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t e = 0; e < perRegister; ++e)
      aValues.push_back(loadA(r % 2, stepOf[r / 2][e]));
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < perRegister; ++e)
      bValues.push_back(loadB(stepOf[r][e]));
  Value aFragment = vector::FromElementsOp::create(
      b, loc, VectorType::get({4, perRegister}, mma.operandType), aValues);
  Value bFragment = vector::FromElementsOp::create(
      b, loc, VectorType::get({2, perRegister}, mma.operandType), bValues);
  return nvgpu::MmaSyncOp::create(b, loc, aFragment, bFragment, acc,
                                  ArrayRef<int64_t>{16, 8, mma.k},
                                  /*tf32Enabled=*/mma.operandType.isF32());
}

/// Steps of a thread's share of a loop (a split reduction, a staged copy)
/// taken per iteration, so that their loads are in flight together.
constexpr int64_t kMaxShareUnroll = 8;

/// A thread's share of `count` iterations strided by the block size B,
/// unrolled: a loop from the thread id to `count` with step U * B (U = the
/// thread's share when `count` is known, at most kMaxShareUnroll), whose
/// body sees step u at iteration + u * B. A step past `count` is given the
/// loop's own iteration instead (in bounds: it repeats step 0) and an
/// `inBounds` flag to discard or repeat its effect with. With an `init`,
/// each step has its own iteration argument starting from it.
struct UnrolledShare {
  scf::ForOp loop;
  int64_t unroll;
  /// Per step: its iteration, and whether it is in bounds (null for step 0).
  SmallVector<std::pair<Value, Value>> steps;
};

UnrolledShare createUnrolledShare(RewriterBase &rewriter, Location loc,
                                  Value count, const ThreadContext &threads,
                                  Value init = Value()) {
  int64_t unroll = kMaxShareUnroll;
  if (std::optional<int64_t> known = getConstantIntValue(count))
    unroll = std::clamp<int64_t>(
        llvm::divideCeil(*known, threads.staticBlockSize), 1, kMaxShareUnroll);
  SmallVector<Value> loopInits(init ? unroll : 0, init);
  UnrolledShare share;
  share.unroll = unroll;
  share.loop = scf::ForOp::create(
      rewriter, loc, threads.threadId, count,
      arith::MulIOp::create(rewriter, loc, threads.blockSize,
                            constantIndex(rewriter, loc, unroll)),
      loopInits);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(share.loop.getBody());
  Value first = share.loop.getInductionVar();
  share.steps.push_back({first, Value()});
  for (int64_t u = 1; u < unroll; ++u) {
    Value next = arith::AddIOp::create(
        rewriter, loc, first,
        arith::MulIOp::create(rewriter, loc, threads.blockSize,
                              constantIndex(rewriter, loc, u)));
    Value inBounds = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, next, count);
    share.steps.push_back(
        {arith::SelectOp::create(rewriter, loc, inBounds, next, first),
         inBounds});
  }
  return share;
}

/// The reduction of a contraction or convolution whose operands can be
/// staged in shared memory: the loop staged a chunk of steps at a time and
/// the reduction loops outside it (a convolution's window loops, empty for
/// a matmul).
struct StagedReduction {
  unsigned kDim;
  int64_t chunk;
  SmallVector<unsigned> outer;
};

/// The one loop of `expr` (an index of an operand) besides `outer`, when
/// `expr` is a sum of loops times constants (plus a constant): nothing if
/// it has no such loop, failure if it has several or is not such a sum.
FailureOr<std::optional<unsigned>> getSliceDim(AffineExpr expr,
                                               ArrayRef<unsigned> outer) {
  std::optional<unsigned> dim;
  bool linear = true, single = true;
  expr.walk([&](AffineExpr e) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (llvm::is_contained(outer, d.getPosition()))
        return;
      single &= !dim || *dim == d.getPosition();
      dim = d.getPosition();
      return;
    }
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(e))
      linear &= e.getKind() == AffineExprKind::Add ||
                (e.getKind() == AffineExprKind::Mul &&
                 (isa<AffineConstantExpr>(bin.getLHS()) ||
                  isa<AffineConstantExpr>(bin.getRHS())));
  });
  if (!linear || !single)
    return failure();
  return dim;
}

/// The staged loop and window loops of convolution `op` (static loop
/// ranges): the last reduction loop, when it is the last index of both
/// inputs (the channels of an NHWC image and of its filter: contiguous),
/// the other reduction loops before it in loop order (so that each point's
/// reduction keeps its order), and every input index a sum of at most one
/// loop besides the window loops (the image's row `oh * stride + kh`).
std::optional<StagedReduction> getConvolutionReduction(linalg::LinalgOp op) {
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  if (reductionDims.empty() ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  unsigned kDim = *llvm::max_element(reductionDims);
  SmallVector<unsigned> outer;
  for (unsigned d : reductionDims)
    if (d != kDim)
      outer.push_back(d);
  AffineExpr k = getAffineDimExpr(kDim, op.getContext());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || map.getResults().back() != k)
      return std::nullopt;
    for (AffineExpr expr : map.getResults())
      if (failed(getSliceDim(expr, outer)))
        return std::nullopt;
  }
  return StagedReduction{kDim, 0, outer};
}

/// `op`'s staged reduction, if its operands can be staged: a contraction
/// with two inputs read through projected permutations, one output, one
/// reduction loop and static shapes, or a convolution of one image and
/// one filter as getConvolutionReduction says, whose staged loop has a
/// chunk: the largest divisor of its length up to 32, unless only short
/// chunks divide a long loop (or there is nothing to reduce).
std::optional<StagedReduction> getStagedReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumDpsInputs() != 2 ||
      !llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return isa<MemRefType>(input->get().getType());
      }))
    return std::nullopt;
  std::optional<StagedReduction> reduction;
  if (linalg::isaContractionOpInterface(op)) {
    if (op.getNumReductionLoops() != 1 || op.hasDynamicShape() ||
        !llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          return op.getMatchingIndexingMap(input).isProjectedPermutation();
        }))
      return std::nullopt;
    SmallVector<unsigned> reductionDims;
    op.getReductionDims(reductionDims);
    reduction = StagedReduction{reductionDims.front(), 0, {}};
  } else if (linalg::isaConvolutionOpInterface(op)) {
    reduction = getConvolutionReduction(op);
  }
  if (!reduction)
    return std::nullopt;
  unsigned kDim = reduction->kDim;
  // The payload would see each step's position in its chunk, not in the
  // loop (the interfaces' multiply-add bodies read no index: a guard).
  bool readsStagedIndex = false;
  op.getBlock()->walk([&](linalg::IndexOp index) {
    readsStagedIndex |= index.getDim() == kDim;
  });
  if (readsStagedIndex)
    return std::nullopt;
  int64_t numReduced = op.getStaticLoopRanges()[kDim];
  int64_t chunk = 1;
  for (int64_t d = std::min<int64_t>(numReduced, 32); d > 1; --d)
    if (numReduced % d == 0) {
      chunk = d;
      break;
    }
  if (numReduced < 2 || (chunk < 4 && numReduced > 32))
    return std::nullopt;
  reduction->chunk = chunk;
  return reduction;
}

/// A staged slice of each input of `op`: its shape over the input's own
/// dimensions, the reduction cut to `chunk`, the loop that indexes it along
/// each (`map`: for a convolution's image, `oh` where the image is read at
/// `oh * stride + kh`; the window loops fixed while a slice is used), and
/// the shared buffer holding it. With `padRows`, a buffer whose rows run
/// along the reduction is one element wider than the slice: threads that
/// read down one of its columns (consecutive points, the same reduction
/// step) then hit distinct banks instead of one bank `chunk` words apart.
struct StagedSlice {
  SmallVector<int64_t> shape;
  AffineMap map;
  MemRefType buffer;
};

SmallVector<StagedSlice> getStagedSlices(linalg::LinalgOp op,
                                         ArrayRef<int64_t> ranges,
                                         const StagedReduction &reduction,
                                         int64_t chunk, bool padRows) {
  auto workgroup = gpu::AddressSpaceAttr::get(
      op.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  MLIRContext *ctx = op.getContext();
  unsigned kDim = reduction.kDim;
  SmallVector<StagedSlice> slices;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    StagedSlice slice;
    SmallVector<AffineExpr> indices;
    for (AffineExpr expr : map.getResults()) {
      // Checked by getStagedReduction.
      std::optional<unsigned> dim = *getSliceDim(expr, reduction.outer);
      slice.shape.push_back(!dim ? 1 : *dim == kDim ? chunk : ranges[*dim]);
      indices.push_back(dim ? getAffineDimExpr(*dim, ctx)
                            : getAffineConstantExpr(0, ctx));
    }
    slice.map = AffineMap::get(map.getNumDims(), 0, indices, ctx);
    SmallVector<int64_t> bufferShape = slice.shape;
    if (padRows && !bufferShape.empty() &&
        indices.back() == getAffineDimExpr(kDim, ctx))
      ++bufferShape.back();
    slice.buffer = MemRefType::get(bufferShape,
                                   getElementTypeOrSelf(input->get().getType()),
                                   MemRefLayoutAttrInterface(), workgroup);
    slices.push_back(std::move(slice));
  }
  return slices;
}

/// Shared bytes the slices take.
int64_t getStagedBytes(ArrayRef<StagedSlice> slices) {
  int64_t bytes = 0;
  for (const StagedSlice &slice : slices)
    bytes += llvm::alignTo(slice.buffer.getNumElements() *
                               elementBytes(slice.buffer),
                           kSharedAlignment);
  return bytes;
}

/// The launch's shared buffers for `slices`, as views of each slice's shape.
SmallVector<Value> createStagedBuffers(RewriterBase &rewriter, Location loc,
                                       ArrayRef<StagedSlice> slices,
                                       ThreadContext &threads) {
  SmallVector<Value> views;
  for (const StagedSlice &slice : slices) {
    Value buffer = threads.launch.addWorkgroupAttribution(slice.buffer, loc);
    if (slice.buffer.getShape() == ArrayRef<int64_t>(slice.shape)) {
      views.push_back(buffer);
      continue;
    }
    SmallVector<OpFoldResult> offsets(slice.shape.size(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(slice.shape.size(),
                                      rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        llvm::map_to_vector(slice.shape, [&](int64_t s) -> OpFoldResult {
          return rewriter.getIndexAttr(s);
        });
    views.push_back(memref::SubViewOp::create(rewriter, loc, buffer, offsets,
                                              sizes, strides));
  }
  return views;
}

/// The block copies the chunk of the reduction starting at `chunkStart`
/// (at window point `outerIvs` of the loops `outer`) from each input of
/// `op` into its staged slice (coalesced: consecutive threads, consecutive
/// elements). A thread takes U elements per iteration (U = its share, at
/// most 8), all loaded before any is stored, so that the loads are in
/// flight together; a step past the end copies the first step's element
/// again (the same value to the same place).
void emitStagedCopy(RewriterBase &rewriter, Location loc, linalg::LinalgOp op,
                    unsigned kDim, Value chunkStart, ArrayRef<Value> staged,
                    ArrayRef<StagedSlice> slices, const ThreadContext &threads,
                    ArrayRef<unsigned> outer = {},
                    ArrayRef<Value> outerIvs = {}) {
  for (auto [input, buffer, slice] :
       llvm::zip(op.getDpsInputOperands(), staged, slices)) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> shape =
        llvm::map_to_vector(slice.shape, [&](int64_t size) {
          return constantIndex(rewriter, loc, size);
        });
    Value count =
        constantIndex(rewriter, loc,
                      std::accumulate(slice.shape.begin(), slice.shape.end(),
                                      int64_t(1), std::multiplies<int64_t>()));
    UnrolledShare copy = createUnrolledShare(rewriter, loc, count, threads);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(copy.loop.getBody()->getTerminator());
    SmallVector<SmallVector<Value>> locals;
    SmallVector<Value> values;
    for (auto [step, inBounds] : copy.steps) {
      SmallVector<Value> local = delinearize(rewriter, loc, step, shape);
      // The iteration point: the slice's loops at the local indices (the
      // chunk's offset added), the window loops at `outerIvs`; the input's
      // indices there (a matmul's are the point's own loops). Loops the
      // input does not read stay unset.
      SmallVector<Value> ivs(map.getNumDims());
      for (auto [d, iv] : llvm::zip(outer, outerIvs))
        ivs[d] = iv;
      for (auto [i, expr] : llvm::enumerate(slice.map.getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          ivs[dim.getPosition()] =
              dim.getPosition() == kDim
                  ? arith::AddIOp::create(rewriter, loc, local[i], chunkStart)
                  : local[i];
      SmallVector<Value> global = indicesOf(rewriter, loc, map, ivs);
      values.push_back(
          memref::LoadOp::create(rewriter, loc, input->get(), global));
      locals.push_back(std::move(local));
    }
    for (auto [value, local] : llvm::zip(values, locals))
      memref::StoreOp::create(rewriter, loc, value, buffer, local);
  }
}

/// Stages a contraction's operands in shared memory: for each chunk of up
/// to 32 steps of the reduction, the block copies the slices of both
/// operands the tile reads, then every thread accumulates the chunk into its
/// own points of the output (the tile's temporary, in shared memory, or the
/// result), reading the operands from shared memory. The order of each
/// point's reduction is unchanged.
LogicalResult stageContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                               ThreadContext &threads) {
  std::optional<StagedReduction> reduction = getStagedReduction(op);
  // (Convolutions only register-tiled.)
  if (!reduction || !reduction->outer.empty())
    return failure();
  unsigned kDim = reduction->kDim;
  int64_t chunk = reduction->chunk;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t numReduced = ranges[kDim];
  int64_t numPoints = 1;
  for (auto [range, iterator] : llvm::zip(ranges, iterators))
    if (iterator == utils::IteratorType::parallel)
      numPoints *= range;
  SmallVector<StagedSlice> slices =
      getStagedSlices(op, ranges, *reduction, chunk, /*padRows=*/false);
  int64_t bytes = getStagedBytes(slices);
  if (bytes > threads.sharedBytesLeft)
    return failure();
  threads.sharedBytesLeft -= bytes;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> staged =
      createStagedBuffers(rewriter, loc, slices, threads);
  Value zero = constantIndex(rewriter, loc, 0);
  Value one = constantIndex(rewriter, loc, 1);
  SmallVector<Value> parallelSizes;
  for (auto [range, iterator] : llvm::zip(ranges, iterators))
    if (iterator == utils::IteratorType::parallel)
      parallelSizes.push_back(constantIndex(rewriter, loc, range));
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  Value numPointsValue = constantIndex(rewriter, loc, numPoints);

  auto chunks = scf::ForOp::create(rewriter, loc, zero,
                                   constantIndex(rewriter, loc, numReduced),
                                   constantIndex(rewriter, loc, chunk));
  rewriter.setInsertionPointToStart(chunks.getBody());
  emitStagedCopy(rewriter, loc, op, kDim, chunks.getInductionVar(), staged,
                 slices, threads);
  gpu::BarrierOp::create(rewriter, loc);
  // Each thread's points (the same ones every chunk) over the chunk, read
  // from shared memory, accumulated in the output. A thread takes U points
  // per iteration (U = its share, at most 8) and steps them together, so
  // that their U accumulations are independent chains; a point past the
  // end repeats the first one (the same value stored to the same place).
  UnrolledShare points =
      createUnrolledShare(rewriter, loc, numPointsValue, threads);
  int64_t unroll = points.unroll;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(points.loop.getBody()->getTerminator());
    SmallVector<SmallVector<Value>> pointIvs, outIndices;
    SmallVector<Value> accs;
    for (auto [point, inBounds] : points.steps) {
      pointIvs.push_back(mergeIndices(
          iterators, delinearize(rewriter, loc, point, parallelSizes),
          {zero}));
      outIndices.push_back(indicesOf(rewriter, loc, outMap, pointIvs.back()));
      accs.push_back(
          memref::LoadOp::create(rewriter, loc, init.get(), outIndices.back()));
    }
    auto steps = scf::ForOp::create(rewriter, loc, zero,
                                    constantIndex(rewriter, loc, chunk), one,
                                    accs);
    rewriter.setInsertionPointToStart(steps.getBody());
    SmallVector<Value> results;
    for (int64_t u = 0; u < unroll; ++u) {
      pointIvs[u][kDim] = steps.getInductionVar();
      results.push_back(emitPayload(rewriter, loc, op, pointIvs[u],
                                    steps.getRegionIterArgs()[u], staged)[0]);
    }
    scf::YieldOp::create(rewriter, loc, results);
    if (threads.fma)
      allowContraction(steps.getRegion());
    rewriter.setInsertionPointAfter(steps);
    for (int64_t u = 0; u < unroll; ++u)
      memref::StoreOp::create(rewriter, loc, steps.getResult(u), init.get(),
                              outIndices[u]);
  }
  // The next chunk overwrites the slices once every thread is done.
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.setInsertionPointAfter(chunks);
  return success();
}

/// A staged contraction whose threads keep their output points in registers
/// over the whole reduction: the M x N tile of its two non-unit parallel
/// loops (M read by the first input only, N by the second only; M = 1 in a
/// tile of one row, when M has no better divisor) is cut in
/// TM x TN micro-tiles, one per thread, whose rows and columns are strided
/// by the number of micro-tiles along each side (thread (y, x) takes rows
/// y, y + M/TM, ... and columns x, x + N/TN, ...: consecutive threads,
/// consecutive columns). Per reduction step a thread loads TM + TN staged
/// elements for TM * TN multiply-adds, where one point per thread loads two
/// per multiply-add, and it loads and stores its accumulators once instead
/// of once per chunk.
///
/// When the output is a temporary that an elementwise op initializes (a
/// fill, a bias broadcast) and one elementwise op reads (a matmul's bias and
/// activation), the accumulators start from the initializer's value and the
/// elementwise op is applied to them before anything is stored: the
/// temporary is never written.
struct RegisterTiling {
  /// The M loops (taken as one row index), N, the staged reduction loop and
  /// the reduction loops outside it (a convolution's window).
  SmallVector<unsigned> m;
  unsigned n, kDim;
  SmallVector<unsigned> outer;
  int64_t tm, tn, chunk;
  /// On tensor cores: the mma.sync shape (tm and tn unused).
  std::optional<MmaShape> mma;
  SmallVector<StagedSlice> slices;
  int64_t stagedBytes;
  /// The absorbed initializer (a fill, a bias broadcast), epilogue and
  /// temporary (all null or all set).
  linalg::LinalgOp initializer;
  linalg::LinalgOp epilogue;
  memref::AllocOp temp;
};

/// Accumulators a thread may keep (each a register; the kernels are held
/// to 64 registers a thread by `nvvm.minctasm`).
constexpr int64_t kMaxAccumulators = 16;

/// The buffer `value` is a view of (through subviews, reshapes, casts).
Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether `value` is a buffer from outside the tile loop (an argument, a
/// constant, or a view of one): nothing in a tile writes it before the
/// group's results.
bool isFromOutsideTile(Value value, Operation *tileLoop) {
  value = getRootBuffer(value);
  return !tileLoop->isAncestor(value.getParentRegion()->getParentOp());
}

/// Whether `init` only initializes `temp` elementwise: all loops parallel,
/// `temp` its one output, written through a permutation, its old values
/// unread, its inputs scalars or buffers from outside the tile (bias
/// vectors, constants: still the same when the initialization is computed
/// later, in registers).
bool isInitializer(linalg::LinalgOp init, memref::AllocOp temp) {
  Operation *tileLoop = temp->getParentOp();
  if (!isa<scf::ForallOp>(tileLoop) || init.getNumDpsInits() != 1 ||
      init.getDpsInits()[0] != temp.getResult() ||
      init.getNumReductionLoops() != 0 || !init.hasPureBufferSemantics() ||
      init.payloadUsesValueFromOperand(init.getDpsInitOperand(0)) ||
      !init.getMatchingIndexingMap(init.getDpsInitOperand(0)).isPermutation())
    return false;
  return llvm::all_of(init.getDpsInputs(), [&](Value input) {
    return !isa<MemRefType>(input.getType()) ||
           isFromOutsideTile(input, tileLoop);
  });
}

/// The initializer (a fill, or a bias broadcast) and the one elementwise
/// reader of `op`'s temporary output, when they are all that touch it: the
/// initializer before `op`, then `op`, then the reader, with only
/// memory-free ops between `op` and the reader, which reads the temporary
/// through a permutation of its loops.
void findAbsorbedEnds(linalg::LinalgOp op, RegisterTiling &tiling) {
  auto temp = op.getDpsInits()[0].getDefiningOp<memref::AllocOp>();
  if (!temp || temp->getBlock() != op->getBlock())
    return;
  linalg::LinalgOp initializer;
  linalg::LinalgOp epilogue;
  for (Operation *user : temp->getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    if (auto f = dyn_cast<linalg::LinalgOp>(user);
        f && f->getBlock() == op->getBlock() && f->isBeforeInBlock(op)) {
      if (initializer || !isInitializer(f, temp))
        return;
      initializer = f;
      continue;
    }
    auto reader = dyn_cast<linalg::LinalgOp>(user);
    if (epilogue || !reader || reader->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(reader) || !reader.hasPureBufferSemantics() ||
        reader.getNumReductionLoops() != 0 || reader.hasDynamicShape())
      return;
    int uses = 0;
    for (OpOperand &operand : reader->getOpOperands()) {
      if (operand.get() != temp.getResult())
        continue;
      if (reader.isDpsInit(&operand) ||
          !reader.getMatchingIndexingMap(&operand).isPermutation())
        return;
      ++uses;
    }
    if (uses != 1)
      return;
    epilogue = reader;
  }
  if (!initializer || !epilogue)
    return;
  for (Operation *between = op->getNextNode(); between != epilogue;
       between = between->getNextNode())
    if (!isMemoryEffectFree(between))
      return;
  // The initializer's reads move to the epilogue's place: nothing between
  // may write memory but the tile's own temporaries (its inputs come from
  // outside the tile, so they are none of those).
  for (Operation *between = initializer->getNextNode(); between != op;
       between = between->getNextNode()) {
    if (isMemoryEffectFree(between) ||
        isa<memref::AllocOp, memref::DeallocOp>(between))
      continue;
    auto writer = dyn_cast<linalg::LinalgOp>(between);
    if (!writer || !writer.hasPureBufferSemantics() ||
        !llvm::all_of(writer.getDpsInits(), [&](Value out) {
          auto alloc = out.getDefiningOp<memref::AllocOp>();
          return alloc && alloc->getBlock() == op->getBlock();
        }))
      return;
  }
  tiling.initializer = initializer;
  tiling.epilogue = epilogue;
  tiling.temp = temp;
}

/// 16x8 pieces a warp may take on tensor cores (four f32 accumulators a
/// lane each: kMaxAccumulators in all).
constexpr int64_t kMaxMmaPieces = kMaxAccumulators / 4;

/// The rows of a register-tiled contraction's tile: the points of its M
/// loops `m` (loop ranges `ranges`), taken as one index.
int64_t countRows(ArrayRef<int64_t> ranges, ArrayRef<unsigned> m) {
  int64_t rows = 1;
  for (unsigned d : m)
    rows *= ranges[d];
  return rows;
}

/// The 16x8 pieces of a `rows` x `cols` tile on tensor cores, the last row
/// and column of pieces partial.
int64_t countMmaPieces(int64_t rows, int64_t cols) {
  return llvm::divideCeil(rows, 16) * llvm::divideCeil(cols, 8);
}

/// How `op` is register-tiled for blocks of `blockSize` threads, if it is:
/// a stageable contraction whose only non-unit parallel loops are M and N
/// (or N alone), either on tensor cores (getMmaShape; chunks a multiple of
/// k steps; at most kMaxMmaPieces 16x8 pieces per warp, M and N rounded
/// up) or with a micro-tile of at most kMaxAccumulators points that leaves
/// at most one per thread. The smallest such micro-tile is taken (the most
/// threads busy), the squarest among equals (the fewest loads).
std::optional<RegisterTiling> getRegisterTiling(linalg::LinalgOp op,
                                                int64_t blockSize,
                                                TensorCores tensorCores,
                                                bool convolutions) {
  std::optional<StagedReduction> reduction = getStagedReduction(op);
  if (reduction && !reduction->outer.empty() && !convolutions)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!reduction)
    return std::nullopt;
  RegisterTiling tiling;
  tiling.kDim = reduction->kDim;
  tiling.chunk = reduction->chunk;
  tiling.outer = reduction->outer;
  std::optional<MatmulLoops> loops = getMatmulLoops(
      op, ranges, tiling.kDim, /*allowFlatM=*/true, tiling.outer);
  if (!loops)
    return std::nullopt;
  tiling.m = loops->m;
  tiling.n = loops->n;
  int64_t rows = countRows(ranges, tiling.m), cols = ranges[tiling.n];
  std::optional<MmaShape> mma = getMmaShape(op, tensorCores);
  if (!mma || blockSize < 32 || blockSize % 32 != 0 ||
      llvm::divideCeil(countMmaPieces(rows, cols), blockSize / 32) >
          kMaxMmaPieces)
    mma.reset();
  // Tensor cores take chunks of a multiple of k steps: the largest up to
  // 32 that divides the reduction (getStagedReduction's largest divisor up
  // to 32 may not be one: 24 of 48 channels).
  int64_t numReduced = ranges[tiling.kDim];
  if (mma && tiling.chunk % mma->k != 0) {
    int64_t chunk = 32 / mma->k * mma->k;
    while (chunk >= mma->k && numReduced % chunk != 0)
      chunk -= mma->k;
    if (chunk >= mma->k)
      tiling.chunk = chunk;
    else
      mma.reset();
  }
  std::optional<std::pair<int64_t, int64_t>> best;
  for (int64_t tm = 1; tm <= kMaxAccumulators; tm *= 2)
    for (int64_t tn = 1; tm * tn <= kMaxAccumulators; tn *= 2) {
      if (rows % tm != 0 || cols % tn != 0 ||
          (rows / tm) * (cols / tn) > blockSize)
        continue;
      auto key = [](int64_t x, int64_t y) {
        return std::make_pair(x * y, std::max(x, y));
      };
      if (!best || key(tm, tn) < key(best->first, best->second))
        best = {tm, tn};
    }
  if (!best && !mma)
    return std::nullopt;
  tiling.tm = best ? best->first : 0;
  tiling.tn = best ? best->second : 0;
  // A convolution's chunks take slices that fit in half the shared memory
  // (its filter slice holds every output channel of the tile: 512 channels
  // of 32 steps would take 66 KiB), the rest left to its padded window.
  while (true) {
    tiling.slices = getStagedSlices(op, ranges, *reduction, tiling.chunk,
                                    /*padRows=*/true);
    tiling.stagedBytes = getStagedBytes(tiling.slices);
    if (tiling.outer.empty() || tiling.stagedBytes <= kSharedMemoryBytes / 2)
      break;
    // (Multiples of k for tensor cores while there is one; then any.)
    int64_t step = mma ? mma->k : 1;
    int64_t chunk = tiling.chunk - step;
    while (chunk > 1 && numReduced % chunk != 0)
      chunk -= step;
    if (mma && chunk < mma->k) {
      mma.reset();
      continue;
    }
    if (chunk < 2)
      return std::nullopt;
    tiling.chunk = chunk;
  }
  if (mma && tiling.chunk % mma->k == 0)
    tiling.mma = mma;
  else if (!best)
    return std::nullopt;
  findAbsorbedEnds(op, tiling);
  return tiling;
}

/// Where the absorbed ends of a register tiling meet its temporary: the
/// initializer's and the epilogue's iteration points at an element of it
/// (their maps of it are permutations: findAbsorbedEnds), and which input
/// of the epilogue reads it.
struct AbsorbedPoints {
  AffineMap initializer, epilogue;
  unsigned tempInput = 0;
};

AbsorbedPoints getAbsorbedPoints(const RegisterTiling &tiling) {
  AbsorbedPoints points;
  // (Handles: copies.)
  linalg::LinalgOp initializer = tiling.initializer, epilogue = tiling.epilogue;
  memref::AllocOp temp = tiling.temp;
  if (!epilogue)
    return points;
  points.initializer = inversePermutation(
      initializer.getMatchingIndexingMap(initializer.getDpsInitOperand(0)));
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == temp.getResult())
      points.tempInput = input->getOperandNumber();
  points.epilogue = inversePermutation(epilogue.getMatchingIndexingMap(
      epilogue.getDpsInputOperand(points.tempInput)));
  return points;
}

/// An accumulator's first value at output indices `out`: the output's value
/// there, or what the absorbed initializer would have written.
Value emitInitialValue(OpBuilder &b, Location loc, OpOperand &init,
                       const RegisterTiling &tiling,
                       const AbsorbedPoints &points, ValueRange out) {
  if (!tiling.initializer)
    return memref::LoadOp::create(b, loc, init.get(), out);
  SmallVector<Value> ivs = indicesOf(b, loc, points.initializer, out);
  return emitPayload(b, loc, tiling.initializer, ivs, {Value()})[0];
}

/// Stores accumulator `acc` at output indices `out`, through the absorbed
/// epilogue when there is one (its point reading the temporary at `out`).
void emitFinalValue(OpBuilder &b, Location loc, OpOperand &init,
                    const RegisterTiling &tiling, const AbsorbedPoints &points,
                    Value acc, ValueRange out) {
  if (!tiling.epilogue) {
    memref::StoreOp::create(b, loc, acc, init.get(), out);
    return;
  }
  linalg::LinalgOp epilogue = tiling.epilogue;
  SmallVector<Value> values(epilogue.getNumDpsInputs());
  values[points.tempInput] = acc;
  SmallVector<Value> ivs = indicesOf(b, loc, points.epilogue, out);
  SmallVector<Value> outs =
      loadOutputs(b, loc, epilogue, ivs, /*always=*/false);
  storeOutputs(b, loc, epilogue, ivs,
               emitPayload(b, loc, epilogue, ivs, outs, {}, values));
}

/// The loop over the chunks of `tiling`'s staged loop, for each window point
/// in order (a convolution's kh, kw: the order of each point's reduction is
/// kept), carrying `accs`; the insertion point is left in its body, after
/// the chunk's staged copy and a barrier, with `outerIvs` the window point.
scf::ForOp emitStagedChunks(RewriterBase &rewriter, Location loc,
                            linalg::LinalgOp op, const RegisterTiling &tiling,
                            ArrayRef<Value> staged,
                            const ThreadContext &threads, ValueRange accs,
                            SmallVectorImpl<Value> &outerIvs) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto c = [&](int64_t v) { return constantIndex(rewriter, loc, v); };
  int64_t numReduced = ranges[tiling.kDim], windowPoints = 1;
  for (unsigned d : tiling.outer)
    windowPoints *= ranges[d];
  auto chunks = scf::ForOp::create(
      rewriter, loc, c(0), c(numReduced * windowPoints), c(tiling.chunk), accs);
  rewriter.setInsertionPointToStart(chunks.getBody());
  Value chunkStart = chunks.getInductionVar();
  if (!tiling.outer.empty()) {
    SmallVector<Value> windowSizes = llvm::map_to_vector(
        tiling.outer, [&](unsigned d) { return c(ranges[d]); });
    outerIvs.assign(delinearize(
        rewriter, loc,
        arith::DivUIOp::create(rewriter, loc, chunkStart, c(numReduced)),
        windowSizes));
    chunkStart =
        arith::RemUIOp::create(rewriter, loc, chunkStart, c(numReduced));
  }
  emitStagedCopy(rewriter, loc, op, tiling.kDim, chunkStart, staged,
                 tiling.slices, threads, tiling.outer, outerIvs);
  gpu::BarrierOp::create(rewriter, loc);
  return chunks;
}

/// Erases `op`, now emitted register-tiled, and what it absorbed.
void eraseRegisterTiled(RewriterBase &rewriter, linalg::LinalgOp op,
                        const RegisterTiling &tiling) {
  memref::AllocOp temp = tiling.temp;
  if (tiling.epilogue) {
    rewriter.eraseOp(tiling.epilogue);
    rewriter.eraseOp(tiling.initializer);
  }
  rewriter.eraseOp(op);
  if (temp && temp->use_empty())
    rewriter.eraseOp(temp);
}

/// Emits `op` register-tiled as `tiling` says (in place of its epilogue, when
/// it absorbs one), and erases what it absorbs. The threads' micro-tiles are
/// a loop from the thread id to the static block size, strided by the block
/// size: one iteration per thread on the GPU, every micro-tile when the
/// launch is run as a single thread (fuse-test-serialize-launches). Threads
/// beyond the micro-tiles take part in the copies and barriers only.
void emitRegisterTiled(IRRewriter &rewriter, linalg::LinalgOp op,
                       RegisterTiling tiling, ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t totalRows = countRows(ranges, tiling.m);
  int64_t cols = ranges[tiling.n] / tiling.tn, rows = totalRows / tiling.tm;
  int64_t numTiles = rows * cols;
  auto c = [&](int64_t v) { return constantIndex(rewriter, loc, v); };
  rewriter.setInsertionPoint(tiling.epilogue ? tiling.epilogue.getOperation()
                                             : op.getOperation());
  // (Its bytes were reserved before the launch's other shared memory.)
  SmallVector<Value> staged =
      createStagedBuffers(rewriter, loc, tiling.slices, threads);

  auto microTiles =
      scf::ForOp::create(rewriter, loc, threads.threadId,
                         c(threads.staticBlockSize), threads.blockSize);
  rewriter.setInsertionPointToStart(microTiles.getBody());
  Value t = microTiles.getInductionVar();
  Value active;
  if (numTiles < threads.staticBlockSize) {
    active = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, t,
                                   c(numTiles));
    t = arith::SelectOp::create(rewriter, loc, active, t, c(0));
  }
  Value y = arith::DivUIOp::create(rewriter, loc, t, c(cols));
  Value x = arith::RemUIOp::create(rewriter, loc, t, c(cols));
  // The iteration point of micro-tile element (i, j), unit loops at 0: row
  // y + i * rows is a point of the M loops (row-major), column x + j * cols
  // one of N.
  SmallVector<Value> mSizes = llvm::map_to_vector(
      tiling.m, [&](unsigned d) { return c(ranges[d]); });
  SmallVector<SmallVector<Value>> rowIvs;
  SmallVector<Value> colIndex;
  for (int64_t i = 0; i < tiling.tm; ++i)
    rowIvs.push_back(delinearize(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, y, c(i * rows)),
        mSizes));
  for (int64_t j = 0; j < tiling.tn; ++j)
    colIndex.push_back(arith::AddIOp::create(rewriter, loc, x, c(j * cols)));
  // The window point of the chunk being computed (inside the chunk loop).
  SmallVector<Value> outerIvs;
  auto pointAt = [&](int64_t i, int64_t j, Value k) {
    SmallVector<Value> ivs(ranges.size(), c(0));
    for (auto [d, index] : llvm::zip(tiling.outer, outerIvs))
      ivs[d] = index;
    for (auto [d, index] : llvm::zip(tiling.m, rowIvs[i]))
      ivs[d] = index;
    ivs[tiling.n] = colIndex[j];
    ivs[tiling.kDim] = k;
    return ivs;
  };
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  AbsorbedPoints points = getAbsorbedPoints(tiling);
  // The accumulators start from the output's values, or from what the
  // absorbed initializer would have written there.
  SmallVector<Value> accs;
  for (int64_t i = 0; i < tiling.tm; ++i)
    for (int64_t j = 0; j < tiling.tn; ++j)
      accs.push_back(emitInitialValue(
          rewriter, loc, init, tiling, points,
          indicesOf(rewriter, loc, outMap, pointAt(i, j, c(0)))));

  scf::ForOp chunks = emitStagedChunks(rewriter, loc, op, tiling, staged,
                                       threads, accs, outerIvs);
  // The chunk's steps: TM elements of the first input and TN of the second
  // from shared memory, then the TM x TN payloads.
  auto emitSteps = [&](ValueRange inits) -> SmallVector<Value> {
    auto steps =
        scf::ForOp::create(rewriter, loc, c(0), c(tiling.chunk), c(1), inits);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value k = steps.getInductionVar();
    AffineMap aMap = tiling.slices[0].map, bMap = tiling.slices[1].map;
    SmallVector<Value> as, bs;
    for (int64_t i = 0; i < tiling.tm; ++i)
      as.push_back(memref::LoadOp::create(
          rewriter, loc, staged[0],
          indicesOf(rewriter, loc, aMap, pointAt(i, 0, k))));
    for (int64_t j = 0; j < tiling.tn; ++j)
      bs.push_back(memref::LoadOp::create(
          rewriter, loc, staged[1],
          indicesOf(rewriter, loc, bMap, pointAt(0, j, k))));
    SmallVector<Value> results;
    for (int64_t i = 0; i < tiling.tm; ++i)
      for (int64_t j = 0; j < tiling.tn; ++j)
        results.push_back(
            emitPayload(rewriter, loc, op, pointAt(i, j, k),
                        steps.getRegionIterArgs()[i * tiling.tn + j], {},
                        {as[i], bs[j]})[0]);
    scf::YieldOp::create(rewriter, loc, results);
    if (threads.fma)
      allowContraction(steps.getRegion());
    return llvm::to_vector_of<Value>(steps.getResults());
  };
  SmallVector<Value> results;
  ValueRange chunkAccs = chunks.getRegionIterArgs();
  if (active) {
    auto ifActive = scf::IfOp::create(rewriter, loc, chunkAccs.getTypes(),
                                      active, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifActive.thenBlock());
    scf::YieldOp::create(rewriter, loc, emitSteps(chunkAccs));
    rewriter.setInsertionPointToStart(ifActive.elseBlock());
    scf::YieldOp::create(rewriter, loc, chunkAccs);
    rewriter.setInsertionPointAfter(ifActive);
    results = llvm::to_vector_of<Value>(ifActive.getResults());
  } else {
    results = emitSteps(chunkAccs);
  }
  // The next chunk overwrites the slices once every thread is done.
  gpu::BarrierOp::create(rewriter, loc);
  scf::YieldOp::create(rewriter, loc, results);
  rewriter.setInsertionPointAfter(chunks);
  outerIvs.clear();

  // The accumulators stored, through the epilogue when absorbed.
  if (active) {
    auto ifActive = scf::IfOp::create(rewriter, loc, active);
    rewriter.setInsertionPointToStart(ifActive.thenBlock());
  }
  for (int64_t i = 0; i < tiling.tm; ++i)
    for (int64_t j = 0; j < tiling.tn; ++j)
      emitFinalValue(rewriter, loc, init, tiling, points,
                     chunks.getResult(i * tiling.tn + j),
                     indicesOf(rewriter, loc, outMap, pointAt(i, j, c(0))));
  rewriter.setInsertionPointAfter(microTiles);
  eraseRegisterTiled(rewriter, op, tiling);
}

/// Emits `op` on tensor cores as `tiling` says (`tiling.mma`; in place of
/// its epilogue, when it absorbs one): the tile's rows (the M loops' points,
/// row-major) and columns cut into 16x8 pieces, warp w taking pieces w,
/// w + W, ... (W warps; at most kMaxMmaPieces slots), each lane keeping
/// its four f32 accumulators of each (the C fragment) in registers across
/// every chunk and window point of the reduction. Each chunk is staged as
/// for the scalar micro-tiles; then every warp runs one mma.sync per k
/// steps per piece, its fragments read from the staged slices
/// (emitMmaStep). A piece past the tile's last row or column (M or N not a
/// multiple of 16 or 8) reads the last one instead, whose products land
/// only in results that are not stored; a warp skips a slot past the last
/// piece. The accumulators start from the output (or the absorbed
/// initializer) and go out through the absorbed epilogue, per lane.
void emitMmaTiled(IRRewriter &rewriter, linalg::LinalgOp op,
                  const RegisterTiling &tiling, ThreadContext &threads) {
  Location loc = op.getLoc();
  const MmaShape &mma = *tiling.mma;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = countRows(ranges, tiling.m), cols = ranges[tiling.n];
  int64_t piecesN = llvm::divideCeil(cols, 8);
  int64_t pieces = countMmaPieces(rows, cols);
  int64_t warps = threads.staticBlockSize / 32;
  int64_t piecesPerWarp = llvm::divideCeil(pieces, warps);
  auto c = [&](int64_t v) { return constantIndex(rewriter, loc, v); };
  auto cmp = [&](arith::CmpIPredicate predicate, Value x, Value y) {
    return arith::CmpIOp::create(rewriter, loc, predicate, x, y);
  };
  linalg::LinalgOp epilogue = tiling.epilogue;
  rewriter.setInsertionPoint(epilogue ? epilogue.getOperation()
                                      : op.getOperation());
  // (Its bytes were reserved before the launch's other shared memory.)
  SmallVector<Value> staged =
      createStagedBuffers(rewriter, loc, tiling.slices, threads);
  Value lane = arith::RemUIOp::create(rewriter, loc, threads.threadId, c(32));
  Value warp = arith::DivUIOp::create(rewriter, loc, threads.threadId, c(32));
  Value g = arith::DivUIOp::create(rewriter, loc, lane, c(4));
  Value t = arith::RemUIOp::create(rewriter, loc, lane, c(4));
  Value twoT = arith::MulIOp::create(rewriter, loc, t, c(2));

  // Per slot: whether the warp has a piece there (null: always), and the
  // rows (g, g + 8) and columns (2t, 2t + 1, and g for B) of its lane,
  // each with its in-range flag (null: always) and its clamped value.
  struct Index {
    Value value, inRange, clamped;
  };
  auto index = [&](Value value, int64_t bound, bool mayExceed) {
    if (!mayExceed)
      return Index{value, Value(), value};
    Value last = c(bound - 1);
    return Index{value, cmp(arith::CmpIPredicate::ult, value, c(bound)),
                 arith::MinUIOp::create(rewriter, loc, value, last)};
  };
  bool rowsExceed = rows % 16 != 0, colsExceed = cols % 8 != 0;
  struct Slot {
    Value valid;
    Index rows[2], cols[2], colB;
  };
  SmallVector<Slot> slots;
  for (int64_t s = 0; s < piecesPerWarp; ++s) {
    Slot slot;
    Value piece = s == 0
                      ? warp
                      : arith::AddIOp::create(rewriter, loc, warp, c(s * warps))
                            .getResult();
    if ((s + 1) * warps > pieces) {
      slot.valid = cmp(arith::CmpIPredicate::ult, piece, c(pieces));
      piece = arith::SelectOp::create(rewriter, loc, slot.valid, piece, c(0));
    }
    Value m0 = arith::MulIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, piece, c(piecesN)),
        c(16));
    Value n0 = arith::MulIOp::create(
        rewriter, loc, arith::RemUIOp::create(rewriter, loc, piece, c(piecesN)),
        c(8));
    Value row = arith::AddIOp::create(rewriter, loc, m0, g);
    slot.rows[0] = index(row, rows, rowsExceed);
    slot.rows[1] = index(arith::AddIOp::create(rewriter, loc, row, c(8)), rows,
                         rowsExceed);
    Value col = arith::AddIOp::create(rewriter, loc, n0, twoT);
    slot.cols[0] = index(col, cols, colsExceed);
    slot.cols[1] = index(arith::AddIOp::create(rewriter, loc, col, c(1)), cols,
                         colsExceed);
    slot.colB =
        index(arith::AddIOp::create(rewriter, loc, n0, g), cols, colsExceed);
    slots.push_back(slot);
  }
  // The iteration point at (row, column, step), unit loops at 0: the row a
  // point of the M loops (row-major). (The staged slices' maps ignore the
  // window loops; the accumulator's and the absorbed ops' ignore the
  // reduction.)
  SmallVector<Value> mSizes =
      llvm::map_to_vector(tiling.m, [&](unsigned d) { return c(ranges[d]); });
  auto pointAt = [&](Value row, Value col, Value k) {
    SmallVector<Value> ivs(ranges.size(), c(0));
    if (row)
      for (auto [d, index] :
           llvm::zip(tiling.m, delinearize(rewriter, loc, row, mSizes)))
        ivs[d] = index;
    if (col)
      ivs[tiling.n] = col;
    if (k)
      ivs[tiling.kDim] = k;
    return ivs;
  };
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  AbsorbedPoints points = getAbsorbedPoints(tiling);
  Type f32 = rewriter.getF32Type();
  Type accType = getElementTypeOrSelf(init.get().getType());
  auto fragmentType = VectorType::get({2, 2}, f32);
  // C fragment element e: row half e / 2, column e % 2.
  SmallVector<Value> accs;
  for (Slot &slot : slots) {
    SmallVector<Value> values;
    for (int64_t e = 0; e < 4; ++e) {
      Value value = emitInitialValue(
          rewriter, loc, init, tiling, points,
          indicesOf(rewriter, loc, outMap,
                    pointAt(slot.rows[e / 2].clamped, slot.cols[e % 2].clamped,
                            Value())));
      if (accType != f32)
        value = arith::ExtFOp::create(rewriter, loc, f32, value);
      values.push_back(value);
    }
    accs.push_back(
        vector::FromElementsOp::create(rewriter, loc, fragmentType, values));
  }

  SmallVector<Value> outerIvs;
  scf::ForOp chunks = emitStagedChunks(rewriter, loc, op, tiling, staged,
                                       threads, accs, outerIvs);
  AffineMap aMap = tiling.slices[0].map, bMap = tiling.slices[1].map;
  SmallVector<Value> results;
  for (auto [slot, acc] : llvm::zip(slots, chunks.getRegionIterArgs())) {
    auto emitSteps = [&, &slot = slot, acc = acc]() -> Value {
      auto steps = scf::ForOp::create(rewriter, loc, c(0), c(tiling.chunk),
                                      c(mma.k), ValueRange{acc});
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(steps.getBody());
      Value d = emitMmaStep(
          rewriter, loc, mma, t, steps.getInductionVar(),
          steps.getRegionIterArgs()[0],
          [&](int64_t half, Value k) -> Value {
            return memref::LoadOp::create(
                rewriter, loc, staged[0],
                indicesOf(rewriter, loc, aMap,
                          pointAt(slot.rows[half].clamped, Value(), k)));
          },
          [&](Value k) -> Value {
            return memref::LoadOp::create(
                rewriter, loc, staged[1],
                indicesOf(rewriter, loc, bMap,
                          pointAt(Value(), slot.colB.clamped, k)));
          });
      scf::YieldOp::create(rewriter, loc, d);
      return steps.getResult(0);
    };
    if (!slot.valid) {
      results.push_back(emitSteps());
      continue;
    }
    // (Warp-uniform: every lane of a warp has the same slots.)
    auto ifValid = scf::IfOp::create(rewriter, loc, TypeRange{fragmentType},
                                     slot.valid, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifValid.thenBlock());
    scf::YieldOp::create(rewriter, loc, emitSteps());
    rewriter.setInsertionPointToStart(ifValid.elseBlock());
    scf::YieldOp::create(rewriter, loc, acc);
    rewriter.setInsertionPointAfter(ifValid);
    results.push_back(ifValid.getResult(0));
  }
  // The next chunk overwrites the slices once every warp is done.
  gpu::BarrierOp::create(rewriter, loc);
  scf::YieldOp::create(rewriter, loc, results);
  rewriter.setInsertionPointAfter(chunks);

  // Each lane's results stored (those in the tile), through the epilogue
  // when absorbed.
  for (auto [slot, fragment] : llvm::zip(slots, chunks.getResults())) {
    for (int64_t e = 0; e < 4; ++e) {
      const Index &row = slot.rows[e / 2], &col = slot.cols[e % 2];
      Value store;
      for (Value flag : {slot.valid, row.inRange, col.inRange})
        if (flag)
          store = store ? arith::AndIOp::create(rewriter, loc, store, flag)
                              .getResult()
                        : flag;
      OpBuilder::InsertionGuard guard(rewriter);
      if (store) {
        auto ifStore = scf::IfOp::create(rewriter, loc, store);
        rewriter.setInsertionPointToStart(ifStore.thenBlock());
      }
      Value value = vector::ExtractOp::create(rewriter, loc, fragment,
                                              ArrayRef<int64_t>{e / 2, e % 2});
      if (accType != f32)
        value = arith::TruncFOp::create(rewriter, loc, accType, value);
      emitFinalValue(rewriter, loc, init, tiling, points, value,
                     indicesOf(rewriter, loc, outMap,
                               pointAt(row.value, col.value, Value())));
    }
  }
  eraseRegisterTiled(rewriter, op, tiling);
}

/// Elements per vector access: 16 bytes of 32-bit elements.
constexpr int64_t kVectorWidth = 4;

/// How an operand of an elementwise op is read or written with vectors: a
/// contiguous vector along the innermost loop, or one scalar broadcast.
enum class VectorAccess { Contiguous, Broadcast };

/// The access of each operand of `op` when its innermost loop is
/// vectorized, or nothing when it cannot be: an op without reductions,
/// static, its innermost loop a multiple of the vector width, a payload of
/// elementwise-mappable ops, 32-bit operands read along the innermost loop
/// with unit stride or not at all.
std::optional<SmallVector<VectorAccess>>
getVectorAccesses(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() != 0 || op.hasDynamicShape() ||
      op.getNumLoops() == 0)
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned innermost = op.getNumLoops() - 1;
  if (ranges[innermost] % kVectorWidth != 0)
    return std::nullopt;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&inner) ||
        inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(),
                     [](Type t) { return !t.isIntOrIndexOrFloat(); }))
      return std::nullopt;
  SmallVector<VectorAccess> accesses;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      accesses.push_back(VectorAccess::Broadcast); // a scalar input
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() != 32)
      return std::nullopt;
    bool usesInnermost = map.isFunctionOfDim(innermost);
    if (!usesInnermost && !op.isDpsInit(&operand)) {
      accesses.push_back(VectorAccess::Broadcast);
      continue;
    }
    // The innermost loop only as the last index, with unit stride.
    SmallVector<int64_t> strides;
    int64_t offset;
    if (map.getNumResults() == 0 ||
        map.getResults().back() != getAffineDimExpr(innermost, op.getContext()) ||
        llvm::any_of(map.getResults().drop_back(),
                     [&](AffineExpr e) {
                       return e.isFunctionOfDim(innermost);
                     }) ||
        failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return std::nullopt;
    accesses.push_back(VectorAccess::Contiguous);
  }
  return accesses;
}

/// Whether every contiguous operand of `op` starts on a 16-byte boundary
/// and keeps it from row to row (offset and outer strides multiples of the
/// vector width): a value computed on the block's threads alike.
Value getVectorCondition(IRRewriter &rewriter, linalg::LinalgOp op,
                         ArrayRef<VectorAccess> accesses) {
  Location loc = op.getLoc();
  Value width = constantIndex(rewriter, loc, kVectorWidth);
  Value bytes = constantIndex(rewriter, loc, kVectorWidth * 4);
  Value zero = constantIndex(rewriter, loc, 0);
  Value aligned = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  auto isMultiple = [&](Value v, Value of) {
    Value rem = rewriter.createOrFold<arith::RemUIOp>(loc, v, of);
    return rewriter.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                rem, zero);
  };
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), accesses)) {
    if (access != VectorAccess::Contiguous)
      continue;
    Value buffer = operand.get();
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, buffer);
    SmallVector<Value> checks = {isMultiple(pointer, bytes),
                                 isMultiple(metadata.getOffset(), width)};
    for (Value stride : ValueRange(metadata.getStrides()).drop_back())
      checks.push_back(isMultiple(stride, width));
    for (Value check : checks)
      aligned = rewriter.createOrFold<arith::AndIOp>(loc, aligned, check);
  }
  return aligned;
}

/// The thread loop of an elementwise op over vectors of 4 along its
/// innermost loop, its operands accessed as `accesses` says.
void emitVectorLoop(IRRewriter &rewriter, linalg::LinalgOp op,
                    ArrayRef<VectorAccess> accesses,
                    const ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  ranges.back() /= kVectorWidth;
  SmallVector<Value> sizes = llvm::map_to_vector(
      ranges, [&](int64_t r) { return constantIndex(rewriter, loc, r); });
  auto points = scf::ForOp::create(rewriter, loc, threads.threadId,
                                   product(rewriter, loc, sizes),
                                   threads.blockSize);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(points.getBody());
  SmallVector<Value> ivs =
      delinearize(rewriter, loc, points.getInductionVar(), sizes);
  ivs.back() = arith::MulIOp::create(rewriter, loc, ivs.back(),
                                     constantIndex(rewriter, loc,
                                                   kVectorWidth));
  auto vectorOf = [](Type t) { return VectorType::get({kVectorWidth}, t); };
  auto alignment = rewriter.getI64IntegerAttr(kVectorWidth * 4);
  IRMapping map;
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), accesses)) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    Value value;
    if (!isa<MemRefType>(operand.get().getType())) {
      value = vector::BroadcastOp::create(
          rewriter, loc, vectorOf(operand.get().getType()), operand.get());
    } else {
      SmallVector<Value> indices = indicesOf(
          rewriter, loc, op.getMatchingIndexingMap(&operand), ivs);
      Type element = arg.getType();
      if (access == VectorAccess::Contiguous) {
        auto load = vector::LoadOp::create(rewriter, loc, vectorOf(element),
                                           operand.get(), indices);
        load->setAttr("alignment", alignment);
        value = load;
      } else {
        value = vector::BroadcastOp::create(
            rewriter, loc, vectorOf(element),
            memref::LoadOp::create(rewriter, loc, operand.get(), indices));
      }
    }
    map.map(arg, value);
  }
  // The payload on vectors: each op with vector types, values from outside
  // (constants) broadcast.
  for (Operation &inner : op.getBlock()->without_terminator()) {
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      if (Value mapped = map.lookupOrNull(v)) {
        operands.push_back(mapped);
        continue;
      }
      Value broadcast =
          vector::BroadcastOp::create(rewriter, loc, vectorOf(v.getType()), v);
      map.map(v, broadcast);
      operands.push_back(broadcast);
    }
    OperationState state(inner.getLoc(), inner.getName());
    state.addOperands(operands);
    state.addAttributes(inner.getAttrs());
    for (Type t : inner.getResultTypes())
      state.addTypes(vectorOf(t));
    Operation *vectorOp = rewriter.create(state);
    map.map(inner.getResults(), vectorOp->getResults());
  }
  for (auto [init, yielded] :
       llvm::zip(op.getDpsInitsMutable(),
                 op.getBlock()->getTerminator()->getOperands())) {
    Value value = map.lookupOrNull(yielded);
    if (!value) // a value from outside the payload
      value = vector::BroadcastOp::create(
          rewriter, loc, vectorOf(yielded.getType()), yielded);
    auto store = vector::StoreOp::create(
        rewriter, loc, value, init.get(),
        indicesOf(rewriter, loc, op.getMatchingIndexingMap(&init), ivs));
    store->setAttr("alignment", alignment);
  }
}

/// Whether `op` touches no memory (index arithmetic, views): a barrier
/// separates nothing across it.
bool touchesNoMemory(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp>(op) ||
         (op->getNumRegions() == 0 && isMemoryEffectFree(op));
}

/// Whether every path through `op` ends with a barrier that no memory
/// access follows: a barrier; a branch whose two paths do; a loop that runs
/// at least once and whose body does.
bool endsWithBarrier(Operation *op);

/// Whether the last op of `block` before its terminator that touches
/// memory ends with a barrier.
bool blockEndsWithBarrier(Block &block) {
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    if (touchesNoMemory(&op))
      continue;
    return endsWithBarrier(&op);
  }
  return false;
}

bool endsWithBarrier(Operation *op) {
  if (isa<gpu::BarrierOp>(op))
    return true;
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return !branch.getElseRegion().empty() &&
           blockEndsWithBarrier(*branch.thenBlock()) &&
           blockEndsWithBarrier(*branch.elseBlock());
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
    return lb && ub && !loop.getUnsignedCmp() && *lb < *ub &&
           blockEndsWithBarrier(*loop.getBody());
  }
  return false;
}

/// Whether an op every thread runs on its own (a load, or an op holding
/// one) reads memory after the last barrier before `op` in its block (a
/// branch or loop that ends with one counts as one, see endsWithBarrier):
/// the threads writing through `op` must then wait for all of them.
bool readsSinceBarrier(Operation *op) {
  Operation *prev = op->getPrevNode();
  while (true) {
    // Out of a branch of the tile body: on before the branch.
    if (!prev) {
      Operation *parent = op->getParentOp();
      if (!isa<scf::IfOp>(parent))
        return false;
      op = parent;
      prev = op->getPrevNode();
      continue;
    }
    if (endsWithBarrier(prev))
      return false;
    if (!isMemoryEffectFree(prev))
      return true;
    prev = prev->getPrevNode();
  }
}

/// One thread's partial result of a split reduction at the point
/// `parallelIvs`: the combination of the steps tid, tid + B, tid + 2B, ...
/// of the `numReduced` reduced iterations (B the block size). The loop takes
/// U steps per iteration (U = the steps each thread takes, at most 8), each
/// into its own accumulator, so that the U steps' loads are independent and
/// in flight together: with one accumulator each load waits for the
/// previous step's combine, and a 2048-element row costs a thread eight
/// memory latencies in a row. A step past the end reads the first step's
/// element (in bounds) and keeps its accumulator. The accumulators are
/// combined at the end; the order of the combination changes, as splitting
/// the reduction among threads already does.
Value emitThreadShare(IRRewriter &rewriter, linalg::LinalgOp op,
                      Operation *combiner, Value neutral,
                      ArrayRef<Value> parallelIvs,
                      ArrayRef<Value> reductionSizes, Value numReduced,
                      const ThreadContext &threads) {
  Location loc = op.getLoc();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  UnrolledShare share =
      createUnrolledShare(rewriter, loc, numReduced, threads, neutral);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(share.loop.getBody());
    SmallVector<Value> yielded;
    for (auto [u, stepAndBounds] : llvm::enumerate(share.steps)) {
      auto [step, inBounds] = stepAndBounds;
      Value accumulator = share.loop.getRegionIterArgs()[u];
      SmallVector<Value> ivs = mergeIndices(
          iterators, parallelIvs,
          delinearize(rewriter, loc, step, reductionSizes));
      Value result = emitPayload(rewriter, loc, op, ivs, {accumulator})[0];
      if (inBounds)
        result = arith::SelectOp::create(rewriter, loc, inBounds, result,
                                         accumulator);
      yielded.push_back(result);
    }
    scf::YieldOp::create(rewriter, loc, yielded);
  }
  Value accumulatorArg = op.getRegionOutputArgs()[0];
  Value partial = share.loop.getResult(0);
  for (Value other : share.loop.getResults().drop_front())
    partial = combine(rewriter, combiner, accumulatorArg, other, partial);
  return partial;
}

/// Replaces `op` by loops that share its iterations among the block's
/// threads, followed by a barrier.
void distribute(IRRewriter &rewriter, linalg::LinalgOp op,
                ThreadContext &threads) {
  Location loc = op.getLoc();
  if (readsSinceBarrier(op)) {
    rewriter.setInsertionPoint(op);
    gpu::BarrierOp::create(rewriter, loc);
  }
  if (auto it = threads.registerTilings->find(op);
      it != threads.registerTilings->end()) {
    if (it->second.mma)
      emitMmaTiled(rewriter, op, it->second, threads);
    else
      emitRegisterTiled(rewriter, op, it->second, threads);
    gpu::BarrierOp::create(rewriter, loc);
    return;
  }
  if (succeeded(stageContraction(rewriter, op, threads))) {
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return;
  }
  rewriter.setInsertionPoint(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<Value> parallelSizes, reductionSizes;
  for (auto [range, iterator] :
       llvm::zip(op.createLoopRanges(rewriter, loc), iterators)) {
    Value size = getValueOrCreateConstantIndexOp(rewriter, loc, range.size);
    (iterator == utils::IteratorType::parallel ? parallelSizes
                                               : reductionSizes)
        .push_back(size);
  }
  Value numPoints = product(rewriter, loc, parallelSizes);
  Value numReduced = product(rewriter, loc, reductionSizes);
  Value zero = constantIndex(rewriter, loc, 0);
  Value one = constantIndex(rewriter, loc, 1);

  // Split the reduction when that shortens the longest thread: each of the
  // P points then takes ceil(R/B) steps plus a block reduction (about 16
  // steps: five shuffles, a barrier, five more), against ceil(P/B) * R
  // steps when each thread reduces its own points.
  Operation *combiner =
      threads.cooperativeReductions ? getCombiner(op) : nullptr;
  bool cooperative = false;
  // Each gpu.all_reduce's lowering takes shared memory. That lowering
  // (upstream's, in convert-gpu-to-nvvm) ends with every lane of the first
  // warp that reduced a warp's partial storing its result to one word; the
  // lanes agree only when the number of warps is a power of two (with 3
  // warps, lane 1 misses warp 2's partial), so other block sizes reduce
  // per thread.
  constexpr int64_t kAllReduceBytes = fuse::kAllReduceSharedBytes;
  int64_t warps = llvm::divideCeil(threads.staticBlockSize, 32);
  if (combiner && llvm::isPowerOf2_64(warps) &&
      threads.sharedBytesLeft >= kAllReduceBytes) {
    std::optional<int64_t> points = getConstantIntValue(numPoints);
    std::optional<int64_t> reduced = getConstantIntValue(numReduced);
    int64_t threadCount = threads.staticBlockSize;
    cooperative =
        points && reduced &&
        *points * (llvm::divideCeil(*reduced, threadCount) + 16) <
            llvm::divideCeil(*points, threadCount) * *reduced;
    if (cooperative)
      threads.sharedBytesLeft -= kAllReduceBytes;
  }

  if (cooperative) {
    // for each parallel point (the same on every thread):
    //   partial = reduce(neutral, this thread's strided share of the row)
    //   total = all_reduce(partial); out = combine(total, out) by thread 0
    Value accumulatorArg = op.getRegionOutputArgs()[0];
    Type type = combiner->getResult(0).getType();
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, *arith::getNeutralElement(combiner));
    auto points = scf::ForOp::create(rewriter, loc, zero, numPoints, one);
    rewriter.setInsertionPointToStart(points.getBody());
    SmallVector<Value> parallelIvs =
        delinearize(rewriter, loc, points.getInductionVar(), parallelSizes);
    Value partial = emitThreadShare(rewriter, op, combiner, neutral,
                                    parallelIvs, reductionSizes, numReduced,
                                    threads);
    auto allReduce = gpu::AllReduceOp::create(
        rewriter, loc, type, partial, gpu::AllReduceOperationAttr(),
        /*uniform=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *block = rewriter.createBlock(&allReduce.getBody(), {},
                                          {type, type}, {loc, loc});
      Value combined = combine(rewriter, combiner, accumulatorArg,
                               block->getArgument(0), block->getArgument(1));
      gpu::YieldOp::create(rewriter, loc, combined);
    }
    SmallVector<Value> zeros(reductionSizes.size(), zero);
    SmallVector<Value> ivs = mergeIndices(iterators, parallelIvs, zeros);
    Value first = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, threads.threadId, zero);
    auto ifFirst = scf::IfOp::create(rewriter, loc, first);
    rewriter.setInsertionPointToStart(ifFirst.thenBlock());
    Value init = loadOutputs(rewriter, loc, op, ivs, /*always=*/true)[0];
    Value result =
        combine(rewriter, combiner, accumulatorArg, allReduce.getResult(), init);
    storeOutputs(rewriter, loc, op, ivs, result);
    // The next point's all_reduce reuses the lowering's shared buffer: no
    // warp may write its share before every warp has read this total.
    if (!isConstantIntValue(numPoints, 1)) {
      rewriter.setInsertionPointAfter(ifFirst);
      gpu::BarrierOp::create(rewriter, loc);
    }
    rewriter.setInsertionPointAfter(points);
  } else {
    // for each parallel point of this thread (strided by the block size):
    //   out = the op at that point, its reductions sequential.
    // An elementwise op over aligned rows takes vectors of 4 instead (one
    // 16-byte access per operand), when the buffers' alignment allows.
    scf::IfOp ifAligned;
    if (std::optional<SmallVector<VectorAccess>> accesses =
            getVectorAccesses(op)) {
      ifAligned = scf::IfOp::create(
          rewriter, loc, getVectorCondition(rewriter, op, *accesses),
          /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(ifAligned.thenBlock());
      emitVectorLoop(rewriter, op, *accesses, threads);
      rewriter.setInsertionPointToStart(ifAligned.elseBlock());
    }
    auto points = scf::ForOp::create(rewriter, loc, threads.threadId,
                                     numPoints, threads.blockSize);
    rewriter.setInsertionPointToStart(points.getBody());
    SmallVector<Value> parallelIvs =
        delinearize(rewriter, loc, points.getInductionVar(), parallelSizes);
    SmallVector<Value> zeros(reductionSizes.size(), zero);
    bool reduces = !reductionSizes.empty();
    SmallVector<Value> outs = loadOutputs(
        rewriter, loc, op, mergeIndices(iterators, parallelIvs, zeros),
        /*always=*/reduces);
    SmallVector<Value> reductionIvs;
    SmallVector<scf::ForOp> nest;
    for (Value size : reductionSizes) {
      auto loop = scf::ForOp::create(rewriter, loc, zero, size, one,
                                     nest.empty() ? ValueRange(outs)
                                                  : nest.back().getRegionIterArgs());
      if (!nest.empty())
        scf::YieldOp::create(rewriter, loc, loop.getResults());
      nest.push_back(loop);
      reductionIvs.push_back(loop.getInductionVar());
      rewriter.setInsertionPointToStart(loop.getBody());
    }
    SmallVector<Value> ivs = mergeIndices(iterators, parallelIvs, reductionIvs);
    SmallVector<Value> results = emitPayload(
        rewriter, loc, op, ivs,
        nest.empty() ? ValueRange(outs) : nest.back().getRegionIterArgs());
    if (!nest.empty()) {
      scf::YieldOp::create(rewriter, loc, results);
      results = llvm::to_vector_of<Value>(nest.front().getResults());
      rewriter.setInsertionPointAfter(nest.front());
    }
    storeOutputs(rewriter, loc, op,
                 mergeIndices(iterators, parallelIvs, zeros), results);
    rewriter.setInsertionPointAfter(ifAligned ? ifAligned.getOperation()
                                              : points.getOperation());
  }
  gpu::BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(op);
}

//===----------------------------------------------------------------------===//
// Inputs that several ops of a tile read, staged once
//===----------------------------------------------------------------------===//

/// Whether buffers `a` and `b` (roots) may share memory. They do not when
/// they live in different memory spaces (shared memory against global), or
/// when one is a fresh allocation and the other a buffer known not to be
/// derived from it (another allocation, a function argument, a global);
/// two function arguments may alias, and so may anything the view walk
/// stopped at (a branch result).
bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  if (cast<BaseMemRefType>(a.getType()).getMemorySpace() !=
      cast<BaseMemRefType>(b.getType()).getMemorySpace())
    return false;
  auto isFresh = [](Value v) {
    return isa_and_present<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(
        v.getDefiningOp());
  };
  auto isKnown = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
    return isFresh(v) || v.getDefiningOp<memref::GetGlobalOp>();
  };
  return !((isFresh(a) && isKnown(b)) || (isFresh(b) && isKnown(a)));
}

/// An input of a tile that several of its ops read from global memory: the
/// ops' operands that read it, and its bytes.
struct StagedInput {
  Value buffer;
  SmallVector<OpOperand *> reads;
  int64_t bytes;
};

/// The inputs of the tile in `body` (a launch's body) worth staging in
/// shared memory, most re-read bytes first: a static buffer in global
/// memory that at least two of the body's ops read (ops at its top level,
/// not in a branch), one of them a reduction whose row every thread
/// reads in turn, and that no op of the tile writes. A softmax or
/// LayerNorm tile reads its row once per reduction and once more for the
/// result: three passes over global memory, two of them after a whole-row
/// pass (and a barrier) that evicts what a thread cached; staged, the row
/// is read once, with 16-byte loads where aligned, and the passes read
/// shared memory. Contractions that stage or register-tile their own
/// operands are not readers here.
SmallVector<StagedInput>
getStagedInputs(Block &body,
                const DenseMap<Operation *, RegisterTiling> &registerTilings,
                const DenseSet<Operation *> &absorbed) {
  // Buffers the tile writes.
  SmallVector<Value> written;
  body.walk([&](linalg::LinalgOp op) {
    for (Value init : op.getDpsInits())
      written.push_back(getRootBuffer(init));
  });
  llvm::MapVector<Value, StagedInput> inputs;
  DenseSet<Value> rejected;
  for (Operation &op : body) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || absorbed.contains(linalgOp))
      continue;
    std::optional<StagedReduction> reduction = getStagedReduction(linalgOp);
    bool stagesItself = registerTilings.contains(linalgOp) ||
                        (reduction && reduction->outer.empty());
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      Value buffer = input->get();
      auto type = dyn_cast<MemRefType>(buffer.getType());
      if (!type || rejected.contains(buffer))
        continue;
      if (stagesItself || !type.hasStaticShape() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementTypeBitWidth() % 8 != 0 ||
          llvm::any_of(written, [&](Value w) {
            return mayAlias(w, getRootBuffer(buffer));
          })) {
        rejected.insert(buffer);
        inputs.erase(buffer);
        continue;
      }
      StagedInput &staged = inputs[buffer];
      staged.buffer = buffer;
      staged.bytes = type.getNumElements() * elementBytes(type);
      staged.reads.push_back(input);
    }
  }
  SmallVector<StagedInput> result;
  for (auto &[buffer, staged] : inputs) {
    SmallPtrSet<Operation *, 4> readers;
    bool reduces = false;
    for (OpOperand *read : staged.reads) {
      readers.insert(read->getOwner());
      reduces |=
          cast<linalg::LinalgOp>(read->getOwner()).getNumReductionLoops() != 0;
    }
    if (readers.size() >= 2 && reduces)
      result.push_back(std::move(staged));
  }
  llvm::stable_sort(result, [](const StagedInput &a, const StagedInput &b) {
    return a.bytes * static_cast<int64_t>(a.reads.size()) >
           b.bytes * static_cast<int64_t>(b.reads.size());
  });
  return result;
}

/// Shared memory the ops of `body` take as they are distributed: a staged
/// contraction's slices, a split reduction's all_reduce buffer (counted
/// for every reduction that could split).
int64_t getSharedBytesNeeded(
    Block &body, const DenseMap<Operation *, RegisterTiling> &registerTilings,
    const DenseSet<Operation *> &absorbed) {
  int64_t bytes = 0;
  body.walk([&](linalg::LinalgOp op) {
    if (absorbed.contains(op) || registerTilings.contains(op))
      return;
    if (std::optional<StagedReduction> reduction = getStagedReduction(op);
        reduction && reduction->outer.empty()) {
      bytes += getStagedBytes(getStagedSlices(op, op.getStaticLoopRanges(),
                                              *reduction, reduction->chunk,
                                              /*padRows=*/false));
      return;
    }
    if (getCombiner(op))
      bytes += fuse::kAllReduceSharedBytes;
  });
  return bytes;
}

/// Stages the inputs getStagedInputs finds in shared buffers of `launch`
/// while `budget` bytes last (after what the tile's ops need): each is
/// copied by the block before its first reader (a linalg.copy, distributed
/// like the other ops) and read from there. Returns the bytes taken.
int64_t
stageSharedInputs(IRRewriter &rewriter, gpu::LaunchOp launch,
                  const DenseMap<Operation *, RegisterTiling> &registerTilings,
                  const DenseSet<Operation *> &absorbed, int64_t budget) {
  Block &body = launch.getBody().front();
  budget -= getSharedBytesNeeded(body, registerTilings, absorbed);
  auto workgroup = gpu::AddressSpaceAttr::get(
      rewriter.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  int64_t taken = 0;
  for (StagedInput &input : getStagedInputs(body, registerTilings, absorbed)) {
    int64_t bytes = llvm::alignTo(input.bytes, kSharedAlignment);
    if (taken + bytes > budget)
      continue;
    taken += bytes;
    auto type = cast<MemRefType>(input.buffer.getType());
    Value buffer = launch.addWorkgroupAttribution(
        MemRefType::get(type.getShape(), type.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup),
        input.buffer.getLoc());
    Operation *first = input.reads.front()->getOwner();
    for (OpOperand *read : input.reads)
      if (read->getOwner()->isBeforeInBlock(first))
        first = read->getOwner();
    rewriter.setInsertionPoint(first);
    linalg::CopyOp::create(rewriter, input.buffer.getLoc(), input.buffer,
                           buffer);
    for (OpOperand *read : input.reads)
      rewriter.modifyOpInPlace(read->getOwner(), [&] { read->set(buffer); });
  }
  return taken;
}

//===----------------------------------------------------------------------===//
// Tile loops as launches
//===----------------------------------------------------------------------===//

/// Erases the barriers of `launch` that follow another barrier with no
/// memory access between: after a loop or a branch that ends with one (a
/// chunk loop's closing barrier, then the epilogue's), the second waits for
/// nothing.
void eraseRedundantBarriers(gpu::LaunchOp launch) {
  SmallVector<gpu::BarrierOp> redundant;
  launch.getBody().walk([&](gpu::BarrierOp barrier) {
    for (Operation *op = barrier->getPrevNode(); op; op = op->getPrevNode()) {
      if (touchesNoMemory(op))
        continue;
      if (endsWithBarrier(op))
        redundant.push_back(barrier);
      return;
    }
  });
  for (gpu::BarrierOp barrier : redundant)
    barrier->erase();
}

struct FuseDistributeTilesPass final
    : fuse::impl::FuseDistributeTilesPassBase<FuseDistributeTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > fuse::kMaxBlockThreads) {
      emitError(getOperation()->getLoc())
          << "fuse-distribute-tiles: block-size must be in [1, "
          << fuse::kMaxBlockThreads << "], not "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ForallOp> loops;
    getOperation()->walk([&](scf::ForallOp loop) {
      if (!loop->getParentOfType<scf::ForallOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>() && loop.getNumResults() == 0)
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp loop : loops)
      (void)distributeLoop(rewriter, loop);
    getOperation()->walk(
        [](gpu::LaunchOp launch) { eraseRedundantBarriers(launch); });
  }

  /// The contractions tensor cores take: none with fma=false (their sums
  /// are not separately rounded IEEE additions).
  TensorCores getTensorCores() const {
    return TensorCores{tf32 && fma, tensorCores && fma};
  }

  LogicalResult distributeLoop(IRRewriter &rewriter, scf::ForallOp loop) {
    std::optional<SmallVector<int64_t>> tripCounts = getStaticTileCounts(loop);
    DenseMap<Operation *, int64_t> tempBytes;
    if (!tripCounts || !fuse::isPlainTileLoop(loop) ||
        !isDistributable(loop.getRegion(), loop, tempBytes))
      return failure();
    int64_t numTiles = 1;
    for (int64_t count : *tripCounts) {
      numTiles *= count;
      if (numTiles >= (int64_t(1) << 31))
        return failure();
    }

    // Register-tiled contractions first: their staged slices are reserved
    // before the temporaries take shared memory, and the temporaries they
    // absorb take none.
    DenseMap<Operation *, RegisterTiling> registerTilings;
    DenseSet<Operation *> absorbed;
    int64_t reservedBytes = 0;
    loop.getBody()->walk([&](linalg::LinalgOp op) {
      std::optional<RegisterTiling> tiling =
          getRegisterTiling(op, blockSize, getTensorCores(), implicitGemm);
      if (!tiling || reservedBytes + tiling->stagedBytes > kSharedMemoryBytes)
        return;
      reservedBytes += tiling->stagedBytes;
      if (tiling->epilogue)
        for (Operation *end :
             {tiling->initializer.getOperation(),
              tiling->epilogue.getOperation(), tiling->temp.getOperation()})
          absorbed.insert(end);
      registerTilings[op] = std::move(*tiling);
    });

    // Temporaries: shared memory while it lasts (static shapes; the
    // temporaries two branches yield as one result share a buffer), the
    // rest in scratch.
    SmallVector<SmallVector<memref::AllocOp>> shared;
    SmallVector<memref::AllocOp> scratch;
    DenseSet<Operation *> inShared;
    SmallVector<int64_t> scratchOffsets;
    int64_t sharedBytes = 0, scratchBytes = 0;
    loop.getBody()->walk([&](memref::AllocOp alloc) {
      if (inShared.contains(alloc) || absorbed.contains(alloc))
        return; // a partner of an earlier branch's temporary, or absorbed
      int64_t bytes = tempBytes.lookup(alloc);
      int64_t padded = llvm::alignTo(bytes, kSharedAlignment);
      if (alloc.getType().hasStaticShape() &&
          sharedBytes + padded <= kSharedMemoryBytes - reservedBytes &&
          canChangeMemorySpace(alloc.getResult())) {
        SmallVector<memref::AllocOp> unit = getSharedUnit(alloc);
        if (!unit.empty() && llvm::all_of(unit, [&](memref::AllocOp a) {
              return !inShared.contains(a) &&
                     canChangeMemorySpace(a.getResult());
            })) {
          sharedBytes += padded;
          for (memref::AllocOp a : unit)
            inShared.insert(a);
          shared.push_back(unit);
          return;
        }
      }
      scratch.push_back(alloc);
      scratchOffsets.push_back(scratchBytes);
      scratchBytes += llvm::alignTo(bytes, kScratchAlignment);
    });

    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    Value one = constantIndex(rewriter, loc, 1);
    Value scratchBuffer;
    if (!scratch.empty()) {
      // Device memory (the runtime lowering allocates it on a stream: wait,
      // allocate, wait).
      Value size = constantIndex(rewriter, loc, numTiles * scratchBytes);
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value ready = gpu::WaitOp::create(rewriter, loc, token, ValueRange{})
                        .getAsyncToken();
      auto alloc = gpu::AllocOp::create(
          rewriter, loc,
          MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
          token, ValueRange{ready}, ValueRange{size}, ValueRange{},
          /*hostShared=*/false);
      gpu::WaitOp::create(rewriter, loc, Type(),
                          ValueRange{alloc.getAsyncToken()});
      scratchBuffer = alloc.getMemref();
    }
    auto launch = gpu::LaunchOp::create(
        rewriter, loc, constantIndex(rewriter, loc, numTiles), one, one,
        constantIndex(rewriter, loc, blockSize), one, one);
    if (Attribute group = loop->getAttr(fuse::FuseDialect::kGroupNestAttrName))
      launch->setAttr(fuse::FuseDialect::kGroupNestAttrName, group);
    Block &body = launch.getBody().front();
    rewriter.setInsertionPointToStart(&body);

    // The tile of this block.
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    inlineTileLoopBody(rewriter, loop, launch.getBlockIds().x, *tripCounts,
                       terminator);

    // Temporaries in shared memory, or views of this block's scratch slice.
    auto workgroup = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    for (MutableArrayRef<memref::AllocOp> unit : shared) {
      BlockArgument buffer = launch.addWorkgroupAttribution(
          MemRefType::Builder(unit.front().getType())
              .setMemorySpace(workgroup),
          unit.front().getLoc());
      for (memref::AllocOp alloc : unit) {
        rewriter.replaceAllUsesWith(alloc.getResult(), buffer);
        rewriter.eraseOp(alloc);
      }
      // Its views, and the branch results it is, are in shared memory too.
      propagateMemorySpace(buffer, workgroup);
    }
    if (!scratch.empty()) {
      rewriter.setInsertionPoint(&body.front());
      Value base = arith::MulIOp::create(
          rewriter, loc, launch.getBlockIds().x,
          constantIndex(rewriter, loc, scratchBytes));
      rewriter.setInsertionPointAfter(base.getDefiningOp());
      for (auto [alloc, offset] : llvm::zip(scratch, scratchOffsets)) {
        rewriter.setInsertionPoint(alloc);
        Value at = arith::AddIOp::create(rewriter, alloc.getLoc(), base,
                                         constantIndex(rewriter, loc, offset));
        rewriter.replaceOpWithNewOp<memref::ViewOp>(
            alloc, alloc.getType(), scratchBuffer, at, alloc.getDynamicSizes());
      }
    }
    // Nothing in the body owns memory any more.
    SmallVector<memref::DeallocOp> deallocs;
    launch.getBody().walk(
        [&](memref::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (memref::DeallocOp dealloc : deallocs)
      rewriter.eraseOp(dealloc);

    // Inputs several ops read, in shared memory with what is left.
    int64_t sharedBytesLeft = kSharedMemoryBytes - sharedBytes - reservedBytes;
    if (stageInputs)
      sharedBytesLeft -= stageSharedInputs(rewriter, launch, registerTilings,
                                           absorbed, sharedBytesLeft);

    // Every structured op shared among the threads.
    ThreadContext threads{launch.getThreadIds().x,
                          launch.getBlockSize().x,
                          blockSize,
                          cooperativeReductions,
                          fma,
                          launch,
                          sharedBytesLeft,
                          &registerTilings};
    SmallVector<linalg::LinalgOp> ops;
    launch.getBody().walk([&](linalg::LinalgOp op) {
      if (!absorbed.contains(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      distribute(rewriter, op, threads);
    // The last barrier guards nothing.
    if (auto last = dyn_cast_or_null<gpu::BarrierOp>(
            terminator->getPrevNode()))
      rewriter.eraseOp(last);

    rewriter.eraseOp(loop);
    if (scratchBuffer) {
      // Freed once the launch is done: wait, free, wait.
      rewriter.setInsertionPointAfter(launch);
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value ready = gpu::WaitOp::create(rewriter, loc, token, ValueRange{})
                        .getAsyncToken();
      Value freed = gpu::DeallocOp::create(rewriter, loc, token,
                                           ValueRange{ready}, scratchBuffer)
                        .getAsyncToken();
      gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{freed});
    }
    return success();
  }
};

struct FuseAnnotateKernelsPass final
    : fuse::impl::FuseAnnotateKernelsPassBase<FuseAnnotateKernelsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      if (!func->hasAttr("nvvm.minctasm"))
        func->setAttr("nvvm.minctasm",
                      IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                       kMinBlocksPerSM));
      for (unsigned i = 0; i < func.getNumWorkgroupAttributions(); ++i)
        if (!func.getWorkgroupAttributionAttr(i, "llvm.align"))
          func.setWorkgroupAttributionAttr(
              i, "llvm.align",
              IntegerAttr::get(IntegerType::get(&getContext(), 64),
                               kVectorWidth * 4));
    });
  }
};

} // namespace
