//===- HostCpu.cpp - The CPU description of the compiling machine ---------===//
//
// What `-march=native` would target: the widest vector unit the host's
// features enable. The CPU lowering sizes its register blocks from it; the
// JIT (`mlir-runner`) generates code for the same host.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect/Target/TargetDescription.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#if defined(__linux__)
#include <unistd.h>
#endif

using namespace mlir::fuse;

CpuDescription CpuDescription::host() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  CpuDescription cpu;
  if (features.lookup("avx512f")) {
    cpu.vectorBytes = 64;
    cpu.vectorRegisters = 32;
  } else if (features.lookup("avx") || features.lookup("avx2")) {
    cpu.vectorBytes = 32;
    cpu.vectorRegisters = 16;
  } else if (features.lookup("sse2")) {
    cpu.vectorBytes = 16;
    cpu.vectorRegisters = 16;
  } else if (features.lookup("neon")) {
    cpu.vectorBytes = 16;
    cpu.vectorRegisters = 32;
  }
#if defined(__linux__) && defined(_SC_LEVEL2_CACHE_SIZE)
  // 0 or -1 where the kernel does not say (some virtual machines).
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 >= 64 * 1024 && l2 <= 64 * 1024 * 1024)
    cpu.l2Bytes = l2;
#endif
  return cpu;
}
