//===- GpuEmulatorRuntime.cpp - Barriers and race checks for emulated blocks -===//
//
// The runtime of `--fuse-test-emulate-launches` (TestEmulateLaunches.cpp):
// a block's threads are real threads (an OpenMP team of blockDim threads);
// this library gives them CUDA's synchronization and checks the kernel's use
// of it:
//
//  * `__syncthreads` (gpu.barrier): all threads of the block. A barrier some
//    thread never reaches (a barrier under a branch threads take
//    differently) is reported after a timeout instead of hanging.
//  * warp synchronization for warp-wide ops: the warp's threads (mma.sync)
//    or a shuffle's member lanes (shfl.sync's mask); a lane outside the
//    mask that shuffles is reported.
//  * shared memory accesses: every load and store of a workgroup buffer is
//    reported with its byte range; two threads touching one byte between
//    the same two barriers, one of them writing, is a data race (a missing
//    barrier) and is reported with both threads. Only block barriers
//    separate accesses here: a warp-wide op's own synchronization does not
//    (its fragments go through the emulator's buffers, not the kernel's
//    shared memory).
//
// FUSE_EMU_NO_RACE_CHECK=1 in the environment skips the race checks (to
// time a run without them).
//
// Any report prints one line on stderr and exits with status 3, so the
// differential harness fails. Blocks run one after another; one state.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <climits>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace {

constexpr int kWarpSize = 32;
constexpr auto kTimeout = std::chrono::seconds(60);

/// A reusable barrier for `count` threads that reports a thread that never
/// comes. Waiters sleep on a futex (no mutex: with hundreds of threads on
/// a few cores, a mutex handed from waiter to waiter dominates the run).
struct Barrier {
  int count = 0;
  std::atomic<int> arrived{0};
  /// The futex word: changes when the barrier opens.
  std::atomic<uint32_t> open{0};
  /// Barriers completed (never reset: epochs stay distinct across blocks).
  std::atomic<uint64_t> generation{0};

  void reset(int n) {
    count = n;
    arrived = 0;
  }
  /// Waits for `count` threads, or `members` when given (a subset that
  /// every member names the same).
  void wait(const char *what, int tid, int members = 0) {
    int expected = members > 0 ? members : count;
    uint32_t ticket = open.load(std::memory_order_acquire);
    if (arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == expected) {
      arrived.store(0, std::memory_order_relaxed);
      generation.fetch_add(1, std::memory_order_relaxed);
      open.fetch_add(1, std::memory_order_release);
      syscall(SYS_futex, reinterpret_cast<uint32_t *>(&open),
              FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
      return;
    }
    auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (open.load(std::memory_order_acquire) == ticket) {
      auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::nanoseconds(0)) {
        std::fprintf(stderr,
                     "fuse-gpu-emulator: %s not reached by every thread "
                     "(thread %d waited %lld s; %d of %d arrived): a barrier "
                     "under a branch the threads take differently\n",
                     what, tid, (long long)kTimeout.count(), arrived.load(),
                     expected);
        std::fflush(stderr);
        std::_Exit(3);
      }
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left);
      timespec timeout{time_t(ns.count() / 1000000000),
                       long(ns.count() % 1000000000)};
      syscall(SYS_futex, reinterpret_cast<uint32_t *>(&open),
              FUTEX_WAIT_PRIVATE, ticket, &timeout, nullptr, 0);
    }
  }
};

struct Block {
  int threads = 0;
  Barrier block;
  std::vector<Barrier> warps = std::vector<Barrier>(1024 / kWarpSize);
  /// Shared memory: the registered buffers and a shadow per byte.
  struct Region {
    uintptr_t begin, end;
    /// Accesses by lanes of one warp are ordered by the warp's shuffles
    /// (upstream's all_reduce buffer, below).
    bool warpOrdered;
  };
  std::vector<Region> regions;
  struct Shadow {
    uint64_t writeEpoch = UINT64_MAX, readEpoch = UINT64_MAX;
    int writer = -1, reader = -1; // -2: several readers
    int readerWarp = -1;          // -2: readers in several warps
  };
  std::vector<std::vector<Shadow>> shadows;
  std::mutex shadowMutex;
} state;

} // namespace

extern "C" {

/// Before a block's threads start: `threads` threads, shared memory not yet
/// registered.
void fuse_emu_block_begin(int32_t threads) {
  if (threads <= 0 || threads > 1024) {
    std::fprintf(stderr, "fuse-gpu-emulator: bad block size %d\n", threads);
    std::_Exit(3);
  }
  state.threads = threads;
  state.block.reset(threads);
  for (int w = 0; w * kWarpSize < threads; ++w)
    state.warps[w].reset(std::min(kWarpSize, threads - w * kWarpSize));
  state.regions.clear();
  state.shadows.clear();
}

/// A shared-memory buffer of the block, `bytes` long at `address`.
/// `warpOrdered`: the buffer of upstream's gpu.all_reduce lowering, whose
/// lanes exchange partial results through it around warp shuffles (lane 0
/// loads word 0, then after the shuffles every reducing lane stores its
/// copy of the total there; the copies are equal for a power-of-two number
/// of warps). CUDA orders those accesses only through the shuffles' data
/// dependence, so within one warp they are not reported; across warps a
/// barrier is still required (the check of the kernel's barrier between
/// two reductions that reuse the buffer).
void fuse_emu_shared_buffer(int64_t address, int64_t bytes,
                            int32_t warpOrdered) {
  state.regions.push_back(
      {uintptr_t(address), uintptr_t(address + bytes), warpOrdered != 0});
  state.shadows.emplace_back(size_t(bytes));
}

/// Checks that the team has the block's threads (the OpenMP runtime may give
/// fewer than asked).
void fuse_emu_thread_begin(int32_t tid, int32_t teamSize) {
  if (teamSize != state.threads) {
    std::fprintf(stderr,
                 "fuse-gpu-emulator: %d threads run a block of %d (raise "
                 "OMP_THREAD_LIMIT)\n",
                 teamSize, state.threads);
    std::_Exit(3);
  }
  (void)tid;
}

/// The block's barrier; its generation (barriers completed) is the epoch of
/// the shared-memory accesses that follow.
void fuse_emu_barrier(int32_t tid) { state.block.wait("gpu.barrier", tid); }

void fuse_emu_warp_barrier(int32_t tid) {
  state.warps[tid / kWarpSize].wait("a warp-wide op (mma.sync)", tid);
}

/// The synchronization of a `shfl.sync` whose member mask is the first
/// `width` lanes of the warp (those the block has).
void fuse_emu_warp_sync(int32_t tid, int32_t width) {
  int lane = tid % kWarpSize;
  int lanes = std::min(kWarpSize, state.threads - (tid - lane));
  int members = std::min(width, lanes);
  if (lane >= members) {
    std::fprintf(stderr,
                 "fuse-gpu-emulator: thread %d shuffles as lane %d of a "
                 "warp whose shuffle has %d member lanes\n",
                 tid, lane, members);
    std::fflush(stderr);
    std::_Exit(3);
  }
  state.warps[tid / kWarpSize].wait("gpu.shuffle", tid, members);
}

/// A load (`write` 0) or store (1) of `bytes` bytes at `address` by `tid`.
void fuse_emu_shared_access(int64_t address, int64_t bytes, int32_t write,
                            int32_t tid) {
  static const bool off = std::getenv("FUSE_EMU_NO_RACE_CHECK") != nullptr;
  if (off)
    return;
  std::lock_guard<std::mutex> lock(state.shadowMutex);
  uint64_t epoch = state.block.generation.load();
  for (size_t r = 0; r < state.regions.size(); ++r) {
    const Block::Region &region = state.regions[r];
    uintptr_t begin = uintptr_t(address);
    if (begin < region.begin || begin >= region.end)
      continue;
    if (begin + uintptr_t(bytes) > region.end) {
      std::fprintf(stderr,
                   "fuse-gpu-emulator: thread %d accesses %lld bytes past "
                   "the end of a shared buffer\n",
                   tid, (long long)(begin + bytes - region.end));
      std::_Exit(3);
    }
    int warp = tid / kWarpSize;
    // Whether an access by `other` (a thread, or -2: several) conflicts.
    auto conflicts = [&](int other, int otherWarp) {
      if (region.warpOrdered)
        return otherWarp == -2 || otherWarp != warp;
      return other == -2 || other != tid;
    };
    for (int64_t i = 0; i < bytes; ++i) {
      Block::Shadow &s = state.shadows[r][begin - region.begin + i];
      int other = -1;
      const char *kind = nullptr;
      if (s.writeEpoch == epoch && conflicts(s.writer, s.writer / kWarpSize)) {
        other = s.writer;
        kind = write ? "write after write" : "read after write";
      } else if (write && s.readEpoch == epoch &&
                 conflicts(s.reader, s.readerWarp)) {
        other = s.reader;
        kind = "write after read";
      }
      if (kind) {
        std::string others =
            other == -2 ? "other threads" : "thread " + std::to_string(other);
        std::fprintf(stderr,
                     "fuse-gpu-emulator: data race on shared memory (%s): "
                     "byte %lld of buffer %zu, thread %d and %s between the "
                     "same two barriers\n",
                     kind, (long long)(begin - region.begin + i), r, tid,
                     others.c_str());
        std::fflush(stderr);
        std::_Exit(3);
      }
      if (write) {
        s.writeEpoch = epoch;
        s.writer = tid;
      } else if (s.readEpoch != epoch) {
        s.readEpoch = epoch;
        s.reader = tid;
        s.readerWarp = warp;
      } else if (s.reader != tid) {
        s.reader = -2;
        if (s.readerWarp != warp)
          s.readerWarp = -2;
      }
    }
    return;
  }
}

} // extern "C"
