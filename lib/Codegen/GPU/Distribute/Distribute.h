//===- Distribute.h - fuse-distribute-tiles, shared parts -------*- C++ -*-===//
//
// What the files of fuse-distribute-tiles share (lib/Codegen/GPU/Distribute):
// the thread context a tile's code is emitted in, the plans of the
// contraction strategies (staged, register-tiled, on tensor cores), and each
// file's entry points. The algorithm is described in DistributeTiles.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_LIB_CODEGEN_GPU_DISTRIBUTE_DISTRIBUTE_H
#define FUSEDIALECT_LIB_CODEGEN_GPU_DISTRIBUTE_DISTRIBUTE_H

#include "FuseDialect/Codegen/Common/TileLoops.h"
#include "FuseDialect/Target/TargetDescription.h"
#include "FuseDialect/Target/TilePolicy.h"
#include "FuseDialect/Utils/ShapeUtils.h"

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

namespace mlir::fuse::distribute {

/// Of the block's shared memory the temporaries take what they need first;
/// what is left pays for staged matmul operands and the bytes the lowering
/// of each split reduction's gpu.all_reduce adds.
constexpr int64_t kSharedMemoryBytes = GpuDescription::kSharedMemoryPerBlock;
constexpr int64_t kSharedAlignment = GpuDescription::kSharedAlignment;
constexpr int64_t kScratchAlignment = GpuDescription::kScratchAlignment;
constexpr int64_t kMinBlocksPerSM = GpuDescription::kMinBlocksPerSM;
constexpr int64_t kWarpSize = GpuDescription::kWarpSize;

/// Which register-tiled contractions run on tensor cores (mma.sync).
struct TensorCores {
  /// f32 operands, cut to TF32 (changes values: opt-in).
  bool tf32;
  /// f16 and bf16 operands: exact products, summed in f32.
  bool lowPrecision;
};

struct RegisterTiling;

/// What the code of one tile is emitted with: the thread's id and the
/// block's size (static where known), the strategies allowed, and the
/// shared memory still free.
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

/// How a contraction's chunks run on tensor cores: one mma.sync of shape
/// m16n8k`k` per 16x8 piece of the tile and `k` steps of a chunk.
struct MmaShape {
  /// The operands' element type: f32 (as TF32), f16 or bf16.
  Type operandType;
  /// 8 for TF32, 16 for f16 and bf16.
  int64_t k;
};

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

/// The reduction of a contraction or convolution whose operands can be
/// staged in shared memory: the loop staged a chunk of steps at a time and
/// the reduction loops outside it (a convolution's window loops, empty for
/// a matmul).
struct StagedReduction {
  unsigned kDim;
  int64_t chunk;
  SmallVector<unsigned> outer;
};

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

/// Where the absorbed ends of a register tiling meet its temporary: the
/// initializer's and the epilogue's iteration points at an element of it
/// (their maps of it are permutations: findAbsorbedEnds), and which input
/// of the epilogue reads it.
struct AbsorbedPoints {
  AffineMap initializer, epilogue;
  unsigned tempInput = 0;
};

/// Elements per vector access: 16 bytes of 32-bit elements.
constexpr int64_t kVectorWidth = GpuDescription::kVectorBytes / 4;

/// How an operand of an elementwise op is read or written with vectors: a
/// contiguous vector along the innermost loop, or one scalar broadcast.
enum class VectorAccess { Contiguous, Broadcast };

/// An input of a tile that several of its ops read from global memory: the
/// ops' operands that read it, and its bytes.
struct StagedInput {
  Value buffer;
  SmallVector<OpOperand *> reads;
  int64_t bytes;
};

//===----------------------------------------------------------------------===//
// Where a tile's temporaries live (Memory.cpp)
//===----------------------------------------------------------------------===//

int64_t elementBytes(MemRefType type);

/// Whether every op in `region` (a tile body or a branch of an `scf.if` in
/// it) can run on all threads of a block: structured ops (shared out below),
/// uniform `scf.if`s, the tile's temporaries (their bytes at most recorded
/// in `tempBytes`), and ops that write nothing.
bool isDistributable(Region &region, scf::ForallOp loop,
                     DenseMap<Operation *, int64_t> &tempBytes);

/// Whether `value`, once in shared memory, can change its memory space
/// through all its uses: views of it change theirs, structured ops, loads,
/// stores and deallocations do not care. A branch result moves only with a
/// temporary it yields directly (a padded window, or its border case;
/// getSharedUnit finds the other branch's temporary).
bool canChangeMemorySpace(Value value);

/// Moves what changes memory space with `value`, now in `space`, there too.
void propagateMemorySpace(Value value, Attribute space);

/// The temporaries that share one shared-memory buffer with `alloc`: itself,
/// and for each branch result it is yielded as, the temporary the other
/// branch yields there (only one branch runs). Empty if a partner is not a
/// temporary of the same type.
SmallVector<memref::AllocOp> getSharedUnit(memref::AllocOp alloc);

//===----------------------------------------------------------------------===//
// Code every thread of a block runs (ThreadCode.cpp)
//===----------------------------------------------------------------------===//

Value constantIndex(OpBuilder &b, Location loc, int64_t v);

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes);

SmallVector<Value> indicesOf(OpBuilder &b, Location loc, AffineMap map,
                             ValueRange ivs);

/// The payload of `op` at iteration `ivs`, with `outs` as the current values
/// of its outputs (null where the payload does not read them); returns the
/// yielded values. Input i is `values[i]` where given (already loaded), else
/// read from `inputs[i]` where given (a staged copy indexed like the
/// original), else from the op's own operand.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ValueRange outs,
                               ArrayRef<Value> inputs = {},
                               ArrayRef<Value> values = {});

/// The values of `op`'s outputs at `ivs`: loaded where the payload reads
/// them (or `always`), null otherwise.
SmallVector<Value> loadOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, bool always);

void storeOutputs(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  ValueRange ivs, ValueRange results);

/// The iteration point with `parallel` and `reduction` indices in place.
SmallVector<Value> mergeIndices(ArrayRef<utils::IteratorType> iterators,
                                ArrayRef<Value> parallel,
                                ArrayRef<Value> reduction);

/// The one combiner of a single-output reduction (`out = combiner(f(ins),
/// out)`) whose neutral element is known, so that partial results can start
/// from it; null otherwise.
Operation *getCombiner(linalg::LinalgOp op);

/// Clones `combiner` over (lhs, rhs) in place of its (value, accumulator).
Value combine(OpBuilder &b, Operation *combiner, Value accumulatorArg,
              Value lhs, Value rhs);

/// Lets the floating-point ops in `region` contract: a multiply and the add
/// of its product become one fused multiply-add (rounded once).
void allowContraction(Region &region);

/// Whether `op` touches no memory (index arithmetic, views): a barrier
/// separates nothing across it.
bool touchesNoMemory(Operation *op);

bool endsWithBarrier(Operation *op);

/// Whether an op every thread runs on its own (a load, or an op holding
/// one) reads memory after the last barrier before `op` in its block (a
/// branch or loop that ends with one counts as one, see endsWithBarrier):
/// the threads writing through `op` must then wait for all of them.
bool readsSinceBarrier(Operation *op);

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
                      const ThreadContext &threads);

//===----------------------------------------------------------------------===//
// 16-byte accesses of elementwise ops (VectorAccesses.cpp)
//===----------------------------------------------------------------------===//

/// The access of each operand of `op` when its innermost loop is
/// vectorized, or nothing when it cannot be: an op without reductions,
/// static, its innermost loop a multiple of the vector width, a payload of
/// elementwise-mappable ops, 32-bit operands read along the innermost loop
/// with unit stride or not at all.
std::optional<SmallVector<VectorAccess>>
getVectorAccesses(linalg::LinalgOp op);

/// Whether every contiguous operand of `op` starts on a 16-byte boundary
/// and keeps it from row to row (offset and outer strides multiples of the
/// vector width): a value computed on the block's threads alike.
Value getVectorCondition(IRRewriter &rewriter, linalg::LinalgOp op,
                         ArrayRef<VectorAccess> accesses);

/// The thread loop of an elementwise op over vectors of 4 along its
/// innermost loop, its operands accessed as `accesses` says.
void emitVectorLoop(IRRewriter &rewriter, linalg::LinalgOp op,
                    ArrayRef<VectorAccess> accesses,
                    const ThreadContext &threads);

//===----------------------------------------------------------------------===//
// Contractions staged in shared memory (Contraction.cpp)
//===----------------------------------------------------------------------===//

/// The M and N loops of contraction `op` (loop ranges `ranges`, reduction
/// loop `kDim`) when they are its only loops longer than 1 besides the
/// reduction (and a convolution's window loops `outer`): one N and, with
/// `allowFlatM`, any number of M loops (their points taken as one row
/// index: a convolution's output pixels), else exactly one.
std::optional<MatmulLoops>
getMatmulLoops(linalg::LinalgOp op, ArrayRef<int64_t> ranges, unsigned kDim,
               bool allowFlatM = false, ArrayRef<unsigned> outer = {});

UnrolledShare createUnrolledShare(RewriterBase &rewriter, Location loc,
                                  Value count, const ThreadContext &threads,
                                  Value init = Value());

/// `op`'s staged reduction, if its operands can be staged: a contraction
/// with two inputs read through projected permutations, one output, one
/// reduction loop and static shapes, or a convolution of one image and
/// one filter as getConvolutionReduction says, whose staged loop has a
/// chunk: the largest divisor of its length up to 32, unless only short
/// chunks divide a long loop (or there is nothing to reduce).
std::optional<StagedReduction> getStagedReduction(linalg::LinalgOp op);

SmallVector<StagedSlice> getStagedSlices(linalg::LinalgOp op,
                                         ArrayRef<int64_t> ranges,
                                         const StagedReduction &reduction,
                                         int64_t chunk, bool padRows);

/// Shared bytes the slices take.
int64_t getStagedBytes(ArrayRef<StagedSlice> slices);

/// The launch's shared buffers for `slices`, as views of each slice's shape.
SmallVector<Value> createStagedBuffers(RewriterBase &rewriter, Location loc,
                                       ArrayRef<StagedSlice> slices,
                                       ThreadContext &threads);

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
                    ArrayRef<Value> outerIvs = {});

/// Stages a contraction's operands in shared memory: for each chunk of up
/// to 32 steps of the reduction, the block copies the slices of both
/// operands the tile reads, then every thread accumulates the chunk into its
/// own points of the output (the tile's temporary, in shared memory, or the
/// result), reading the operands from shared memory. The order of each
/// point's reduction is unchanged.
LogicalResult stageContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                               ThreadContext &threads);

//===----------------------------------------------------------------------===//
// Contractions tiled in registers (RegisterTiling.cpp)
//===----------------------------------------------------------------------===//

/// The buffer `value` is a view of (through subviews, reshapes, casts).
Value getRootBuffer(Value value);

/// The rows of a register-tiled contraction's tile: the points of its M
/// loops `m` (loop ranges `ranges`), taken as one index.
int64_t countRows(ArrayRef<int64_t> ranges, ArrayRef<unsigned> m);

/// The 16x8 pieces of a `rows` x `cols` tile on tensor cores, the last row
/// and column of pieces partial.
int64_t countMmaPieces(int64_t rows, int64_t cols);

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
                                                bool convolutions);

AbsorbedPoints getAbsorbedPoints(const RegisterTiling &tiling);

/// An accumulator's first value at output indices `out`: the output's value
/// there, or what the absorbed initializer would have written.
Value emitInitialValue(OpBuilder &b, Location loc, OpOperand &init,
                       const RegisterTiling &tiling,
                       const AbsorbedPoints &points, ValueRange out);

/// Stores accumulator `acc` at output indices `out`, through the absorbed
/// epilogue when there is one (its point reading the temporary at `out`).
void emitFinalValue(OpBuilder &b, Location loc, OpOperand &init,
                    const RegisterTiling &tiling, const AbsorbedPoints &points,
                    Value acc, ValueRange out);

/// The loop over the chunks of `tiling`'s staged loop, for each window point
/// in order (a convolution's kh, kw: the order of each point's reduction is
/// kept), carrying `accs`; the insertion point is left in its body, after
/// the chunk's staged copy and a barrier, with `outerIvs` the window point.
scf::ForOp emitStagedChunks(RewriterBase &rewriter, Location loc,
                            linalg::LinalgOp op, const RegisterTiling &tiling,
                            ArrayRef<Value> staged,
                            const ThreadContext &threads, ValueRange accs,
                            SmallVectorImpl<Value> &outerIvs);

/// Erases `op`, now emitted register-tiled, and what it absorbed.
void eraseRegisterTiled(RewriterBase &rewriter, linalg::LinalgOp op,
                        const RegisterTiling &tiling);

/// Emits `op` register-tiled as `tiling` says (in place of its epilogue, when
/// it absorbs one), and erases what it absorbs. The threads' micro-tiles are
/// a loop from the thread id to the static block size, strided by the block
/// size: one iteration per thread on the GPU, every micro-tile when the
/// launch is run as a single thread (fuse-test-serialize-launches). Threads
/// beyond the micro-tiles take part in the copies and barriers only.
void emitRegisterTiled(IRRewriter &rewriter, linalg::LinalgOp op,
                       RegisterTiling tiling, ThreadContext &threads);

//===----------------------------------------------------------------------===//
// Contraction tiles on tensor cores (TensorCores.cpp)
//===----------------------------------------------------------------------===//

/// Whether the staged contraction `op` can run on tensor cores: operands
/// of one type that `cores` allows (f32 as TF32; f16, bf16), an f32
/// accumulator or one of the operands' type, and a body that is exactly
/// out + a * b (the operands extended to the accumulator's type first, if
/// narrower). The tile's shape and chunks are the caller's to check.
std::optional<MmaShape> getMmaShape(linalg::LinalgOp op, TensorCores cores);

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
                  const RegisterTiling &tiling, ThreadContext &threads);

//===----------------------------------------------------------------------===//
// Inputs several ops of a tile read (StagedInputs.cpp)
//===----------------------------------------------------------------------===//

/// Stages the inputs getStagedInputs finds in shared buffers of `launch`
/// while `budget` bytes last (after what the tile's ops need): each is
/// copied by the block before its first reader (a linalg.copy, distributed
/// like the other ops) and read from there. Returns the bytes taken.
int64_t
stageSharedInputs(IRRewriter &rewriter, gpu::LaunchOp launch,
                  const DenseMap<Operation *, RegisterTiling> &registerTilings,
                  const DenseSet<Operation *> &absorbed, int64_t budget);

} // namespace mlir::fuse::distribute

#endif // FUSEDIALECT_LIB_CODEGEN_GPU_DISTRIBUTE_DISTRIBUTE_H
