//===- Pipelines.h - The stages both lowerings share ------------*- C++ -*-===//

#ifndef FUSEDIALECT_CODEGEN_COMMON_PIPELINES_H
#define FUSEDIALECT_CODEGEN_COMMON_PIPELINES_H

#include "FuseDialect/Target/TilePolicy.h"

#include <optional>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::fuse {

/// The `partial-tiles` option both lowerings have.
inline constexpr const char *kPartialTilesHelp =
    "fuse-tile-groups: a range without a divisor of more than half the "
    "wanted tile is tiled by the wanted tile, the partial last tile peeled "
    "into a nest of its own (false: by the largest divisor)";

/// The first stage of both lowerings: the input verified (sizes, attributes)
/// and its run-time gather/scatter indices clamped; then, with a `policy`,
/// each group one loop nest over the tiles of its root
/// (fuse-tile-groups), everything else computed per tile. A target may
/// rewrite the tiles' bodies before `buildBufferizeGroupsPipeline`.
void buildTileGroupsPipeline(OpPassManager &pm,
                             std::optional<TilePolicy> policy);

/// The second stage of both lowerings: groups dissolved in place
/// (fuse-inline-groups), TOSA to linalg/arith/tensor, one-shot
/// bufferization with identity layouts at function boundaries (concat
/// destinations written in place).
void buildBufferizeGroupsPipeline(OpPassManager &pm);

} // namespace mlir::fuse

#endif // FUSEDIALECT_CODEGEN_COMMON_PIPELINES_H
