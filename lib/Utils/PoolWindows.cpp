//===- PoolWindows.cpp - Pools whose windows tile their input -------------===//

#include "FuseDialect/Utils/PoolWindows.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;

/// The window's shape and placement along the spatial dimensions, and the
/// extents of the input and output there.
struct Windows {
  SmallVector<int64_t> window, strides, dilations, pads, input, output;
};

static bool tilesExactly(const Windows &w) {
  if (w.window.empty() || w.window.size() != w.strides.size() ||
      w.window.size() != w.input.size() || w.window.size() != w.output.size())
    return false;
  for (auto [i, k] : llvm::enumerate(w.window)) {
    if (k < 1 || w.strides[i] != k ||
        (!w.dilations.empty() && w.dilations[i] != 1) ||
        w.input[i] != w.output[i] * k)
      return false;
  }
  return llvm::all_of(w.pads, [](int64_t p) { return p == 0; });
}

/// The spatial extents `dims` of `value`, when its shape is static.
static std::optional<SmallVector<int64_t>> getExtents(Value value,
                                                      ArrayRef<int64_t> dims) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> extents;
  for (int64_t d : dims) {
    if (d >= type.getRank())
      return std::nullopt;
    extents.push_back(type.getDimSize(d));
  }
  return extents;
}

template <typename PoolOp>
static std::optional<Windows> getTosaWindows(PoolOp pool) {
  std::optional<SmallVector<int64_t>> input = getExtents(pool.getInput(), {1, 2});
  std::optional<SmallVector<int64_t>> output =
      getExtents(pool->getResult(0), {1, 2});
  if (!input || !output)
    return std::nullopt;
  return Windows{llvm::to_vector(pool.getKernel()),
                 llvm::to_vector(pool.getStride()),
                 {},
                 llvm::to_vector(pool.getPad()),
                 *input,
                 *output};
}

static std::optional<Windows> getLinalgWindows(linalg::LinalgOp op,
                                               ArrayRef<int64_t> dims) {
  auto window = dyn_cast<ShapedType>(op.getDpsInputs()[1].getType());
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  std::optional<SmallVector<int64_t>> input =
      getExtents(op.getDpsInputs()[0], dims);
  std::optional<SmallVector<int64_t>> output =
      getExtents(op.getDpsInits()[0], dims);
  if (!window || !window.hasStaticShape() || !strides || !dilations ||
      !input || !output)
    return std::nullopt;
  return Windows{llvm::to_vector(window.getShape()),
                 llvm::to_vector(strides.getValues<int64_t>()),
                 llvm::to_vector(dilations.getValues<int64_t>()),
                 {},
                 *input,
                 *output};
}

bool mlir::fuse::isDisjointWindowPool(Operation *op) {
  std::optional<Windows> windows;
  if (auto pool = dyn_cast<tosa::MaxPool2dOp>(op))
    windows = getTosaWindows(pool);
  else if (auto pool = dyn_cast<tosa::AvgPool2dOp>(op))
    windows = getTosaWindows(pool);
  else if (isa<linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp,
               linalg::PoolingNhwcMinOp>(op))
    windows = getLinalgWindows(cast<linalg::LinalgOp>(op), {1, 2});
  else if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op))
    windows = getLinalgWindows(cast<linalg::LinalgOp>(op), {2, 3});
  return windows && tilesExactly(*windows);
}
