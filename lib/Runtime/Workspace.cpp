//===- Workspace.cpp - A compiled model's heap memory, kept between calls -===//
//
// A compiled model allocates its temporaries on every call: the function's
// as one buffer (fuse-plan-buffers; U-Net's is 68 MB at 256 x 256), some
// tiles' scratch per tile. glibc's malloc serves a block above its mmap
// threshold (32 MB at most, whatever GLIBC_TUNABLES asks) with new pages
// from the kernel each time, and the kernel zeroes every page the call
// touches: U-Net at two threads took 7% longer per call in a process with
// malloc's defaults than with its memory kept.
//
// fuse-compile lowers with `--fuse-lower-to-cpu=runtime-allocator=true`, so
// that the model's memref.alloc and memref.dealloc call upstream's generic
// allocation functions, defined here. Each thread keeps the largest block
// of at least kMinKeptBytes it freed, and hands it out again for a request
// that fits it and needs more than half of it; any other request is
// malloc's. The kept block is freed when its thread exits. A process holds
// at most one such block per thread that ran a model (the ONNX Runtime
// keeps an arena of its peak use the same way).
//
// A block of 4 MB or more is aligned to 2 MB and advised to be backed by
// transparent huge pages (madvise): Inception-v3 at one thread 0.99x the
// time (thirty-fourth session), U-Net level.
//
// Every block is malloc's (malloc or aligned_alloc), so free() may release
// one (the runtime frees a result buffer the program returned with
// std::free), and a block's size is malloc_usable_size's.
//
//===----------------------------------------------------------------------===//

#include "HugePages.h"

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

/// Blocks smaller than this are malloc's to keep (its bins serve them
/// without the kernel).
constexpr size_t kMinKeptBytes = size_t(1) << 20;

using fuse::runtime::kHugePageBytes;

/// Blocks at least this large are aligned to huge pages and advised to be
/// backed by them (HugePages.h): a 68 MB arena is 17,000 small pages, more
/// than the core's TLB holds.
constexpr size_t kMinHugeBytes = 2 * kHugePageBytes;

/// A thread's kept block.
struct KeptBlock {
  void *block = nullptr;
  size_t bytes = 0;
  ~KeptBlock() {
    std::free(block);
    block = nullptr;
    bytes = 0;
  }
};

thread_local KeptBlock kept;

/// The kept block when it is aligned to `alignment`, holds `bytes` and
/// `bytes` is more than half of it; null otherwise.
void *takeKept(size_t bytes, size_t alignment) {
  if (!kept.block || kept.bytes < bytes || bytes <= kept.bytes / 2 ||
      reinterpret_cast<uintptr_t>(kept.block) % alignment != 0)
    return nullptr;
  void *block = kept.block;
  kept.block = nullptr;
  kept.bytes = 0;
  return block;
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  if (void *block = takeKept(bytes, alignof(std::max_align_t)))
    return block;
  if (bytes < kMinHugeBytes)
    return std::malloc(bytes);
  if (bytes > SIZE_MAX - kHugePageBytes)
    return nullptr;
  size_t rounded =
      (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void *block = std::aligned_alloc(kHugePageBytes, rounded);
  if (block)
    fuse::runtime::adviseHugePages(block, rounded);
  return block;
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t bytes) {
  // What aligned_alloc accepts: a power of two, at least malloc's.
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    return nullptr;
  if (alignment < alignof(std::max_align_t))
    alignment = alignof(std::max_align_t);
  if (void *block = takeKept(bytes, alignment))
    return block;
  // aligned_alloc wants a size that is a multiple of the alignment.
  if (bytes > SIZE_MAX - alignment)
    return nullptr;
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded);
}

void _mlir_memref_to_llvm_free(void *block) {
  if (!block)
    return;
  size_t bytes = malloc_usable_size(block);
  if (bytes < kMinKeptBytes || bytes <= kept.bytes) {
    std::free(block);
    return;
  }
  std::free(kept.block);
  kept.block = block;
  kept.bytes = bytes;
}

} // extern "C"
