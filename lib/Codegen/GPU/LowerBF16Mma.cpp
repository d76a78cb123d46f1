//===- LowerBF16Mma.cpp - bf16 nvgpu.mma.sync to nvvm.mma.sync ------------===//
//
// Upstream's convert-nvgpu-to-nvvm lowers `nvgpu.mma.sync` on f16 and TF32
// fragments but not on bf16 ones (it cannot deduce their PTX type: NVVM
// takes bf16 multiplicands packed two to an i32, with the type stated on
// the op). This pass lowers exactly those, before it, to `nvvm.mma.sync`
// m16n8k16 .bf16 with f32 accumulators.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSELOWERBF16MMAPASS
#include "FuseDialect/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// `nvgpu.mma.sync` m16n8k16 on bf16 fragments (A vector<4x2xbf16>, B
/// vector<2x2xbf16>) with an f32 accumulator (vector<2x2xf32>): each pair
/// of bf16 elements becomes one i32 register, the accumulator four f32s.
struct LowerBF16MmaSync : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    VectorType a = op.getMatrixA().getType();
    VectorType b = op.getMatrixB().getType();
    VectorType c = op.getMatrixC().getType();
    if (!a.getElementType().isBF16() || !b.getElementType().isBF16() ||
        !c.getElementType().isF32() ||
        op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16} ||
        a.getShape() != ArrayRef<int64_t>{4, 2} ||
        b.getShape() != ArrayRef<int64_t>{2, 2} ||
        c.getShape() != ArrayRef<int64_t>{2, 2})
      return rewriter.notifyMatchFailure(op, "not a bf16 m16n8k16 mma.sync");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto registers = [&](Value fragment, int64_t count) {
      SmallVector<Value> values;
      for (int64_t r = 0; r < count; ++r) {
        Value pair = vector::ExtractOp::create(rewriter, loc, fragment, r);
        Value packed = vector::BitCastOp::create(
            rewriter, loc, VectorType::get({1}, i32), pair);
        values.push_back(vector::ExtractOp::create(rewriter, loc, packed, 0));
      }
      return values;
    };
    SmallVector<Value> aRegisters = registers(op.getMatrixA(), 4);
    SmallVector<Value> bRegisters = registers(op.getMatrixB(), 2);
    SmallVector<Value> cValues;
    for (int64_t i = 0; i < 4; ++i)
      cValues.push_back(vector::ExtractOp::create(
          rewriter, loc, op.getMatrixC(), ArrayRef<int64_t>{i / 2, i % 2}));
    Type f32 = rewriter.getF32Type();
    auto resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    auto mma = NVVM::MmaOp::create(
        rewriter, loc, resultType, aRegisters, bRegisters, cValues,
        /*shape=*/{16, 8, 16}, /*b1Op=*/std::nullopt,
        /*intOverflow=*/std::nullopt,
        /*multiplicandPtxTypes=*/
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                      NVVM::MMATypes::bf16},
        /*multiplicandLayouts=*/
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    SmallVector<Value> results;
    for (int64_t i = 0; i < 4; ++i)
      results.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, i));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, c, results);
    return success();
  }
};

struct FuseLowerBF16MmaPass final
    : fuse::impl::FuseLowerBF16MmaPassBase<FuseLowerBF16MmaPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerBF16MmaSync>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
