//===- TileLoops.cpp - Helpers for a group's tile loops -------------------===//

#include "FuseDialect/Codegen/Common/TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numeric>

using namespace mlir;

bool fuse::isSharedOutputSlice(OpOperand &use) {
  Operation *user = use.getOwner();
  return (isa<tensor::ExtractSliceOp>(user) && use.getOperandNumber() == 0) ||
         (isa<tensor::ParallelInsertSliceOp>(user) &&
          use.getOperandNumber() == 1);
}

void fuse::replaceSharedOutputSlice(RewriterBase &rewriter,
                                    OffsetSizeAndStrideOpInterface slice,
                                    Value output,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> strides) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(slice);
  if (auto extract = dyn_cast<tensor::ExtractSliceOp>(*slice)) {
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        extract, extract.getType(), output, offsets, extract.getMixedSizes(),
        strides);
    return;
  }
  auto insert = cast<tensor::ParallelInsertSliceOp>(*slice);
  rewriter.replaceOpWithNewOp<tensor::ParallelInsertSliceOp>(
      insert, insert.getSource(), output, offsets, insert.getMixedSizes(),
      strides);
}

std::optional<fuse::StaticBounds> fuse::getStaticBounds(scf::ForallOp loop) {
  std::optional<SmallVector<int64_t>> lbs =
      getConstantIntValues(loop.getMixedLowerBound());
  std::optional<SmallVector<int64_t>> ubs =
      getConstantIntValues(loop.getMixedUpperBound());
  std::optional<SmallVector<int64_t>> steps =
      getConstantIntValues(loop.getMixedStep());
  if (!lbs || !ubs || !steps)
    return std::nullopt;
  return StaticBounds{*lbs, *ubs, *steps};
}

std::optional<SmallVector<int64_t>>
fuse::getStaticTileCounts(scf::ForallOp loop) {
  std::optional<StaticBounds> bounds = getStaticBounds(loop);
  if (!bounds)
    return std::nullopt;
  SmallVector<int64_t> counts;
  for (auto [lb, ub, step] :
       llvm::zip_equal(bounds->lbs, bounds->ubs, bounds->steps)) {
    if (step <= 0 || ub <= lb)
      return std::nullopt;
    counts.push_back(llvm::divideCeil(ub - lb, step));
  }
  return counts;
}

SmallVector<Value> fuse::delinearize(OpBuilder &b, Location loc, Value linear,
                                     ArrayRef<Value> sizes) {
  SmallVector<Value> indices(sizes.size());
  for (int i = static_cast<int>(sizes.size()) - 1; i >= 0; --i) {
    if (isConstantIntValue(sizes[i], 1)) {
      indices[i] = arith::ConstantIndexOp::create(b, loc, 0);
      continue;
    }
    if (i == 0) {
      indices[i] = linear;
      break;
    }
    indices[i] = b.createOrFold<arith::RemUIOp>(loc, linear, sizes[i]);
    linear = b.createOrFold<arith::DivUIOp>(loc, linear, sizes[i]);
  }
  return indices;
}

void fuse::inlineTileLoopBody(RewriterBase &rewriter, scf::ForallOp loop,
                              Value linear, ArrayRef<int64_t> counts,
                              Operation *point) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(point);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  std::optional<StaticBounds> bounds = getStaticBounds(loop);
  assert(bounds && "tile loop without constant bounds");
  SmallVector<Value> sizes = llvm::map_to_vector(counts, constant);
  SmallVector<Value> tile = delinearize(rewriter, loc, linear, sizes);
  SmallVector<Value> ivs;
  for (auto [index, lb, step] : llvm::zip(tile, bounds->lbs, bounds->steps)) {
    Value scaled = arith::MulIOp::create(rewriter, loc, index, constant(step));
    ivs.push_back(arith::AddIOp::create(rewriter, loc, scaled, constant(lb)));
  }
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, point, ivs);
}

void mlir::fuse::keepOneTileLoop(scf::ForallOp loop) {
  std::optional<SmallVector<int64_t>> counts = getStaticTileCounts(loop);
  if (!counts || llvm::any_of(*counts, [](int64_t c) { return c != 1; }) ||
      loop.getMapping() || counts->size() > 10)
    return;
  SmallVector<Attribute> mapping;
  for (unsigned d = 0; d < counts->size(); ++d)
    mapping.push_back(gpu::GPUBlockMappingAttr::get(
        loop.getContext(),
        static_cast<gpu::MappingId>(
            static_cast<unsigned>(gpu::MappingId::LinearDim0) + d)));
  loop.setMappingAttr(ArrayAttr::get(loop.getContext(), mapping));
}

bool mlir::fuse::isPlainTileLoop(scf::ForallOp loop) {
  std::optional<ArrayAttr> mapping = loop.getMapping();
  if (!mapping)
    return true;
  return llvm::all_of(llvm::enumerate(*mapping), [](auto indexed) {
    auto block = dyn_cast<gpu::GPUBlockMappingAttr>(indexed.value());
    return block && static_cast<unsigned>(block.getBlock()) ==
                        static_cast<unsigned>(gpu::MappingId::LinearDim0) +
                            indexed.index();
  });
}
