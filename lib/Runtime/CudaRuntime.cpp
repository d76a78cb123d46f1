//===- CudaRuntime.cpp - What --fuse-lower-to-nvvm host code calls --------===//
//
// The `mgpu*` entry points that MLIR's GPU-to-LLVM lowering and the
// `gpu.binary` offloading translation emit, implemented on the CUDA driver
// API. Build: lib/Runtime/CMakeLists.txt (only when the CUDA toolkit is
// found; links the driver stub libcuda.so, the real driver is loaded at run
// time). Use: `mlir-runner --shared-libs=libfuse_cuda_runtime.so,...`, or
// link it with a model compiled by `utils/fuse-compile`.
//
// One context (device 0, primary context) per process, created on first
// use. Errors are reported on stderr with the call that failed and abort:
// the generated host code has no way to handle them.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

#define FUSE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

void check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "fuse_cuda_runtime: %s failed: %s\n", what,
               name ? name : "unknown error");
  std::abort();
}

int defaultDevice = 0;

/// Makes the primary context of the default device current.
void ensureContext() {
  static std::once_flag once;
  static CUcontext context = nullptr;
  std::call_once(once, [] {
    check(cuInit(0), "cuInit");
    CUdevice device;
    check(cuDeviceGet(&device, defaultDevice), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&context, device),
          "cuDevicePrimaryCtxRetain");
  });
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

/// The ranked memref descriptor the lowering passes for host registration:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[1];
};

int64_t getSpanBytes(int64_t rank, const Descriptor *d, int64_t elementBytes) {
  int64_t span = 1; // in elements, from the aligned pointer + offset
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = d->sizesAndStrides[i];
    int64_t stride = d->sizesAndStrides[rank + i];
    if (size == 0)
      return 0;
    span += (size - 1) * stride;
  }
  return span * elementBytes;
}

/// Per-launch timing (fuseProfileBegin/End): a pair of events around every
/// kernel launched in between, on the launch's stream.
struct LaunchEvents {
  CUevent start, stop;
};
std::mutex profileMutex;
bool profiling = false;
std::vector<LaunchEvents> launches;

/// The stream pool and the allocation cache (mgpuStreamCreate,
/// mgpuMemAlloc).
std::mutex poolMutex;
std::vector<CUstream> freeStreams;
struct BlockKey {
  uint64_t bytes;
  bool managed;
  bool operator<(const BlockKey &other) const {
    return bytes != other.bytes ? bytes < other.bytes : managed < other.managed;
  }
};
std::map<BlockKey, std::vector<void *>> freeBlocks;
std::map<void *, BlockKey> liveBlocks;

bool cachingEnabled() {
  static const bool enabled = [] {
    const char *off = std::getenv("FUSE_CUDA_NO_CACHE");
    return !(off && *off && *off != '0');
  }();
  return enabled;
}

void destroyEvents() {
  for (LaunchEvents &e : launches) {
    cuEventDestroy(e.start);
    cuEventDestroy(e.stop);
  }
  launches.clear();
}

} // namespace

/// Starts timing every kernel launch until fuseProfileEnd.
FUSE_EXPORT void fuseProfileBegin() {
  std::lock_guard<std::mutex> lock(profileMutex);
  ensureContext();
  destroyEvents();
  profiling = true;
}

/// Waits for the launches timed since fuseProfileBegin, writes at most `max`
/// of their durations in microseconds (launch order) and returns how many
/// there were.
FUSE_EXPORT int32_t fuseProfileEnd(double *microseconds, int32_t max) {
  std::lock_guard<std::mutex> lock(profileMutex);
  ensureContext();
  profiling = false;
  int32_t n = 0;
  for (LaunchEvents &e : launches) {
    check(cuEventSynchronize(e.stop), "cuEventSynchronize");
    float ms = 0;
    check(cuEventElapsedTime(&ms, e.start, e.stop), "cuEventElapsedTime");
    if (n < max)
      microseconds[n] = 1000.0 * ms;
    ++n;
  }
  destroyEvents();
  return n;
}

FUSE_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

FUSE_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  ensureContext();
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

FUSE_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ensureContext();
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result = cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    std::fprintf(stderr, "fuse_cuda_runtime: PTX JIT log:\n%s\n", log);
  check(result, "cuModuleLoadDataEx");
  return module;
}

FUSE_EXPORT void mgpuModuleUnload(CUmodule module) {
  // Called from the host code's global destructors, when the driver may
  // already be shutting down: a failure here changes nothing.
  (void)cuModuleUnload(module);
}

FUSE_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  CUfunction function = nullptr;
  check(cuModuleGetFunction(&function, module, name), "cuModuleGetFunction");
  return function;
}

FUSE_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t sharedBytes,
                                  CUstream stream, void **params,
                                  void **extra, size_t /*paramsCount*/) {
  ensureContext();
  std::unique_lock<std::mutex> lock(profileMutex);
  LaunchEvents events{};
  if (profiling) {
    check(cuEventCreate(&events.start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventCreate(&events.stop, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventRecord(events.start, stream), "cuEventRecord");
  }
  check(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                       sharedBytes, stream, params, extra),
        "cuLaunchKernel");
  if (profiling) {
    check(cuEventRecord(events.stop, stream), "cuEventRecord");
    launches.push_back(events);
  }
}

/// Streams are pooled: the lowered host code creates and destroys one
/// around every synchronous launch and every free, and cuStreamCreate costs
/// more than a small kernel. A stream handed back may still have work
/// queued; whoever takes it next queues behind that work, which only orders
/// more than asked.
FUSE_EXPORT CUstream mgpuStreamCreate() {
  ensureContext();
  {
    std::lock_guard<std::mutex> lock(poolMutex);
    if (!freeStreams.empty()) {
      CUstream stream = freeStreams.back();
      freeStreams.pop_back();
      return stream;
    }
  }
  CUstream stream = nullptr;
  check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

FUSE_EXPORT void mgpuStreamDestroy(CUstream stream) {
  std::lock_guard<std::mutex> lock(poolMutex);
  freeStreams.push_back(stream);
}

FUSE_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

/// Allocations are cached, like PyTorch's allocator does: the lowered host
/// code allocates every intermediate and result on each call and frees it
/// at the end, and cuMemAlloc/cuMemFree (which synchronizes the device)
/// would otherwise cost more than the kernels of a small model. A freed
/// block waits for the device to be idle, as cuMemFree would, and is then
/// reused for a request of the same size and kind (device or managed).
/// FUSE_CUDA_NO_CACHE=1 turns the cache off.
FUSE_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/,
                               bool isHostShared) {
  ensureContext();
  if (bytes == 0)
    return nullptr;
  BlockKey key{bytes, isHostShared};
  if (cachingEnabled()) {
    std::lock_guard<std::mutex> lock(poolMutex);
    auto it = freeBlocks.find(key);
    if (it != freeBlocks.end() && !it->second.empty()) {
      void *ptr = it->second.back();
      it->second.pop_back();
      liveBlocks[ptr] = key;
      return ptr;
    }
  }
  CUdeviceptr ptr = 0;
  auto allocate = [&] {
    return isHostShared ? cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL)
                        : cuMemAlloc(&ptr, bytes);
  };
  CUresult result = allocate();
  if (result == CUDA_ERROR_OUT_OF_MEMORY && cachingEnabled()) {
    // Give the cached blocks back and try once more.
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    std::lock_guard<std::mutex> lock(poolMutex);
    for (auto &[key, blocks] : freeBlocks)
      for (void *block : blocks)
        check(cuMemFree(reinterpret_cast<CUdeviceptr>(block)), "cuMemFree");
    freeBlocks.clear();
    result = allocate();
  }
  check(result, isHostShared ? "cuMemAllocManaged" : "cuMemAlloc");
  void *block = reinterpret_cast<void *>(ptr);
  if (cachingEnabled()) {
    std::lock_guard<std::mutex> lock(poolMutex);
    liveBlocks[block] = key;
  }
  return block;
}

FUSE_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (!ptr)
    return;
  if (cachingEnabled()) {
    ensureContext();
    // What cuMemFree guarantees: no queued kernel still uses the block.
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    std::lock_guard<std::mutex> lock(poolMutex);
    auto it = liveBlocks.find(ptr);
    if (it != liveBlocks.end()) {
      freeBlocks[it->second].push_back(ptr);
      liveBlocks.erase(it);
      return;
    }
  }
  check(cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

FUSE_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                            CUstream stream) {
  check(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                      reinterpret_cast<CUdeviceptr>(src), bytes, stream),
        "cuMemcpyAsync");
}

FUSE_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                              CUstream stream) {
  check(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value, count,
                         stream),
        "cuMemsetD32Async");
}

/// Host memory the kernels read or write (function arguments, constants)
/// is page-locked and mapped into the device's address space; with unified
/// addressing the device uses the same pointer. Registering memory twice
/// is not an error here: the same buffer reaches many launches.
FUSE_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                           int64_t elementBytes) {
  ensureContext();
  auto *d = static_cast<Descriptor *>(descriptor);
  int64_t bytes = getSpanBytes(rank, d, elementBytes);
  if (bytes == 0)
    return;
  void *begin = d->aligned + d->offset * elementBytes;
  // Memory CUDA already knows (device or managed allocations, host memory
  // registered by an earlier launch) is reachable as it is.
  unsigned memoryType = 0;
  if (cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                            reinterpret_cast<CUdeviceptr>(begin)) ==
      CUDA_SUCCESS)
    return;
  CUresult result = cuMemHostRegister(begin, bytes, CU_MEMHOSTREGISTER_PORTABLE);
  // Read-only pages (a constant the host code did not hand to
  // fuse_device_constant) can only be registered as such.
  if (result == CUDA_ERROR_INVALID_VALUE)
    result = cuMemHostRegister(begin, bytes,
                               CU_MEMHOSTREGISTER_PORTABLE |
                                   CU_MEMHOSTREGISTER_READ_ONLY);
  if (result == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    return;
  check(result, "cuMemHostRegister");
}

FUSE_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                             int64_t elementBytes) {
  auto *d = static_cast<Descriptor *>(descriptor);
  if (getSpanBytes(rank, d, elementBytes) == 0)
    return;
  void *begin = d->aligned + d->offset * elementBytes;
  CUresult result = cuMemHostUnregister(begin);
  if (result == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
    return;
  check(result, "cuMemHostUnregister");
}

/// The device copy of a constant global (`fuse-gpu-host-memory` calls this
/// through `_mlir_ciface_fuse_device_constant_<element type>` for every
/// constant a kernel reads): copied to device memory on the first call for
/// that host address and size, then returned as it is. The copies live as
/// long as the process, like the module's globals.
namespace {
struct Descriptor1D {
  char *allocated;
  char *aligned;
  int64_t offset, size, stride;
};
// Keyed by host address and size: the globals of the model's host code,
// which stays loaded for the process's lifetime.
std::map<std::pair<const void *, int64_t>, CUdeviceptr> deviceConstants;

void getDeviceConstant(Descriptor1D *result, const Descriptor1D *host,
                       int64_t elementBytes) {
  ensureContext();
  const char *begin = host->aligned + host->offset * elementBytes;
  int64_t bytes = host->size * elementBytes;
  CUdeviceptr copy = 0;
  if (bytes > 0) {
    std::lock_guard<std::mutex> lock(poolMutex);
    CUdeviceptr &cached = deviceConstants[{begin, bytes}];
    if (!cached) {
      check(cuMemAlloc(&cached, bytes), "cuMemAlloc");
      check(cuMemcpyHtoD(cached, begin, bytes), "cuMemcpyHtoD");
      // From pageable memory the copy may still be in flight when
      // cuMemcpyHtoD returns, and the kernels run on non-blocking streams,
      // which do not wait for it.
      check(cuCtxSynchronize(), "cuCtxSynchronize");
    }
    copy = cached;
  }
  result->allocated = result->aligned = reinterpret_cast<char *>(copy);
  result->offset = 0;
  result->size = host->size;
  result->stride = 1;
}
} // namespace

#define FUSE_DEVICE_CONSTANT(type, bytes)                                      \
  FUSE_EXPORT void _mlir_ciface_fuse_device_constant_##type(                  \
      Descriptor1D *result, Descriptor1D *host) {                             \
    getDeviceConstant(result, host, bytes);                                    \
  }
FUSE_DEVICE_CONSTANT(f16, 2)
FUSE_DEVICE_CONSTANT(bf16, 2)
FUSE_DEVICE_CONSTANT(f32, 4)
FUSE_DEVICE_CONSTANT(f64, 8)
FUSE_DEVICE_CONSTANT(i1, 1)
FUSE_DEVICE_CONSTANT(i8, 1)
FUSE_DEVICE_CONSTANT(i16, 2)
FUSE_DEVICE_CONSTANT(i32, 4)
FUSE_DEVICE_CONSTANT(i64, 8)
#undef FUSE_DEVICE_CONSTANT
