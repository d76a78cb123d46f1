//===- ShapeUtils.cpp - Element counts, sizes and divisors ----------------===//

#include "FuseDialect/Utils/ShapeUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

int64_t mlir::fuse::getNumElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 1;
  return shaped.getNumElements();
}

int64_t mlir::fuse::getElementBytes(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrFloat())
    return 4;
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::fuse::getLargestDivisorOf(int64_t range, int64_t limit,
                                        int64_t multiple) {
  if (multiple < 1)
    return 0;
  for (int64_t d = std::min(range, limit) / multiple * multiple; d > 0;
       d -= multiple)
    if (range % d == 0)
      return d;
  return 0;
}

int64_t mlir::fuse::getLargestDivisor(int64_t range, int64_t limit,
                                      bool powerOfTwo) {
  int64_t d = std::max<int64_t>(1, std::min(range, limit));
  while (d > 1 && (range % d != 0 || (powerOfTwo && !llvm::isPowerOf2_64(d))))
    --d;
  return d;
}
