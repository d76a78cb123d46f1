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
  check(cuModuleUnload(module), "cuModuleUnload");
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

FUSE_EXPORT CUstream mgpuStreamCreate() {
  ensureContext();
  CUstream stream = nullptr;
  check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return stream;
}

FUSE_EXPORT void mgpuStreamDestroy(CUstream stream) {
  check(cuStreamDestroy(stream), "cuStreamDestroy");
}

FUSE_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
}

FUSE_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/,
                               bool isHostShared) {
  ensureContext();
  CUdeviceptr ptr = 0;
  if (bytes == 0)
    return nullptr;
  if (isHostShared)
    check(cuMemAllocManaged(&ptr, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(ptr);
}

FUSE_EXPORT void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  if (ptr)
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
  CUresult result = cuMemHostRegister(begin, bytes, CU_MEMHOSTREGISTER_PORTABLE);
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
