//===- InitAllPasses.h - Register every fuse pass and pipeline --*- C++ -*-===//

#ifndef FUSEDIALECT_INITALLPASSES_H
#define FUSEDIALECT_INITALLPASSES_H

namespace mlir::fuse {

/// Registers every fuse pass (transforms and conversions) and pipeline
/// (`--fuse-ops`, `--fuse-lower-to-cpu`, `--fuse-lower-to-nvvm`) with MLIR's
/// global registry, for command lines and textual pipelines.
void registerAllFusePasses();

} // namespace mlir::fuse

#endif // FUSEDIALECT_INITALLPASSES_H
