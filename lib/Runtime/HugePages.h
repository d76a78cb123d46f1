//===- HugePages.h - Asking for transparent huge pages ---------*- C++ -*-===//
//
// The runtime's one way to ask the kernel for transparent huge pages under
// memory the model streams (weights, the workspace): where they are on only
// on request (`madvise`, Debian's default), nothing else asks, and a
// contraction streaming hundreds of MB takes one TLB entry per 4 KB page.
// Only the 2 MB-aligned part of a span is advised; a kernel that refuses
// (no transparent huge pages) changes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef FUSEDIALECT_RUNTIME_HUGEPAGES_H
#define FUSEDIALECT_RUNTIME_HUGEPAGES_H

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace fuse::runtime {

/// A transparent huge page's size on x86-64 and AArch64 with 4 KB pages.
constexpr size_t kHugePageBytes = size_t(2) << 20;

/// Advises the huge-page-aligned part of [begin, begin + bytes).
inline void adviseHugePages(const void *begin, size_t bytes) {
  auto low = reinterpret_cast<uintptr_t>(begin);
  uintptr_t high = low + bytes;
  low = (low + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
  high &= ~uintptr_t(kHugePageBytes - 1);
  if (low < high)
    (void)madvise(reinterpret_cast<void *>(low), high - low, MADV_HUGEPAGE);
}

} // namespace fuse::runtime

#endif // FUSEDIALECT_RUNTIME_HUGEPAGES_H
