//===- TestLaunches.h - Running GPU launches on the CPU ----------*- C++ -*-===//
//
// What the two CPU runs of the GPU lowering's launches share:
// fuse-test-serialize-launches (a cooperating block as one thread) and
// fuse-test-emulate-launches (every thread of a block, warp-wide ops and
// barriers as on the GPU).
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_TEST_LIB_TESTLAUNCHES_H
#define FUSEDIALECT_TEST_LIB_TESTLAUNCHES_H

#include "mlir/IR/Operation.h"

namespace mlir::fuse::test {

/// `type` in the default memory space (a GPU address space dropped).
Type hostType(Type type);

/// Device allocations and deallocations under `root` become host ones;
/// waits and host registrations go.
void deviceMemoryToHost(Operation *root);

/// Registers fuse-test-emulate-launches and its pipeline.
void registerTestEmulateLaunchesPasses();

} // namespace mlir::fuse::test

#endif // FUSEDIALECT_TEST_LIB_TESTLAUNCHES_H
