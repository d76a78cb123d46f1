//===- TensorCores.cpp - Contraction tiles on tensor cores ----------------===//
//
// Each warp takes 16x8 pieces of a contraction tile, its lanes'
// accumulator fragments in registers, one mma.sync per piece and k steps
// (f16 and bf16 operands; f32 as TF32 with `tf32`).
//
//===----------------------------------------------------------------------===//

#include "Distribute.h"

using namespace mlir;

namespace mlir::fuse::distribute {

/// Whether `value` is block argument `arg` or its extension (arith.extf)
/// to the accumulator's type.
static bool isOperandOrExtension(Value value, BlockArgument arg) {
  if (value == arg)
    return true;
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg && ext->hasOneUse();
}

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
static Value emitMmaStep(OpBuilder &b, Location loc, const MmaShape &mma, Value t,
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

void emitMmaTiled(IRRewriter &rewriter, linalg::LinalgOp op,
                  const RegisterTiling &tiling, ThreadContext &threads) {
  Location loc = op.getLoc();
  const MmaShape &mma = *tiling.mma;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rows = countRows(ranges, tiling.m), cols = ranges[tiling.n];
  int64_t piecesN = llvm::divideCeil(cols, 8);
  int64_t pieces = countMmaPieces(rows, cols);
  int64_t warps = threads.staticBlockSize / kWarpSize;
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
  Value lane = arith::RemUIOp::create(rewriter, loc, threads.threadId, c(kWarpSize));
  Value warp = arith::DivUIOp::create(rewriter, loc, threads.threadId, c(kWarpSize));
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

} // namespace mlir::fuse::distribute
