//===- Session.cpp - The C ABI of a compiled model ------------------------===//
//
// FuseRuntime.h's functions on top of what fuse-compile links beside this
// file (ModelDescription.h): the model's description `__fuse_model` and,
// for --weights=external, the table of its externalized constants.
//
// A run checks every argument against the description before anything
// runs, builds MLIR's memref descriptors for the caller's buffers (dense,
// row-major: offset 0, strides the suffix products) and calls the model.
// On the CPU the outputs' descriptors are arguments too: the program writes
// its results into the caller's buffers (no copy), except into one that
// shares bytes with an input or another output, which gets a buffer of its
// own copied there after the call. Otherwise (the CUDA target) the program
// returns its results: each is copied into the caller's output and its
// buffer released unless it is not the program's to free (an input returned
// as it is, or a constant of the library). Weights come from the file once
// per process, under a lock, checked against the digest the library holds.
//
// Built twice (lib/Runtime/CMakeLists.txt): for the CPU, and with
// FUSE_RUNTIME_CUDA for the CUDA target, where results are copied with the
// mgpu* runtime (CudaRuntime.cpp) and freed to it.
//
//===----------------------------------------------------------------------===//

#include "FuseDialect-runtime/ModelDescription.h"
#include "HugePages.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef FUSE_RUNTIME_CUDA
#include <cuda.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#define FUSE_ABI extern "C" __attribute__((visibility("default")))

extern "C" {
// Present only in a model compiled with --weights=external.
extern const FuseWeightsHeader __fuse_weights_header
    __attribute__((weak, visibility("hidden")));
extern const FuseWeight __fuse_weights[]
    __attribute__((weak, visibility("hidden")));
#ifdef FUSE_RUNTIME_CUDA
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuMemFree(void *ptr, void *stream);
#else
// The OpenMP runtime the model links.
void omp_set_num_threads(int);
int omp_get_max_threads(void);
#endif
}

struct FuseSession {
  int32_t numThreads = 0;
};

namespace {

thread_local std::string lastError;

FuseStatus fail(FuseStatus status, std::string message) {
  lastError = std::move(message);
  return status;
}

std::string shapeString(int32_t rank, const int64_t *shape) {
  std::string s = "[";
  for (int32_t i = 0; i < rank; ++i)
    s += (i ? ", " : "") + (shape[i] == FUSE_DYNAMIC_DIM
                                ? std::string("?")
                                : std::to_string(shape[i]));
  return s + "]";
}

const char *typeName(int32_t type) {
  static const char *names[] = {"?",       "float32", "float16", "bfloat16",
                                "float64", "int8",    "int16",   "int32",
                                "int64",   "bool",    "uint8"};
  return type >= 1 && type <= FUSE_UINT8 ? names[type] : "unknown";
}

int64_t elementCount(const FuseTensorInfo &info) {
  int64_t n = 1;
  for (int32_t i = 0; i < info.rank; ++i)
    n *= info.shape[i];
  return n;
}

/// Whether `given` is a buffer for `declared`; the reason in lastError.
bool matches(const char *what, int32_t index, const FuseTensor &given,
             const FuseTensorInfo &declared) {
  std::string tensor = std::string(what) + " " + std::to_string(index) + " ('" +
                       declared.name + "')";
  if (given.element_type != declared.element_type) {
    fail(FUSE_ERROR_INVALID_ARGUMENT,
         tensor + ": element type " + typeName(given.element_type) +
             ", the model takes " + typeName(declared.element_type));
    return false;
  }
  if (given.rank != declared.rank || (given.rank > 0 && !given.shape)) {
    fail(FUSE_ERROR_INVALID_ARGUMENT,
         tensor + ": rank " + std::to_string(given.rank) +
             (given.rank > 0 && !given.shape ? " with a null shape" : "") +
             ", the model takes " + shapeString(declared.rank, declared.shape));
    return false;
  }
  for (int32_t d = 0; d < given.rank; ++d)
    if (declared.shape[d] == FUSE_DYNAMIC_DIM
            ? given.shape[d] < 0
            : given.shape[d] != declared.shape[d]) {
      fail(FUSE_ERROR_INVALID_ARGUMENT,
           tensor + ": shape " + shapeString(given.rank, given.shape) +
               ", the model takes " +
               shapeString(declared.rank, declared.shape));
      return false;
    }
  FuseTensorInfo givenInfo = declared;
  givenInfo.shape = given.shape;
  if (!given.data && elementCount(givenInfo) > 0) {
    fail(FUSE_ERROR_INVALID_ARGUMENT, tensor + ": null data pointer");
    return false;
  }
  return true;
}

/// MLIR's ranked memref descriptor as 8-byte words: allocated, aligned,
/// offset, sizes[rank], strides[rank].
void describe(int64_t *words, void *data, const FuseTensorInfo &info) {
  words[0] = words[1] = reinterpret_cast<int64_t>(data);
  words[2] = 0;
  int64_t stride = 1;
  for (int32_t d = info.rank - 1; d >= 0; --d) {
    words[3 + d] = info.shape[d];
    words[3 + info.rank + d] = stride;
    stride *= info.shape[d];
  }
}

/// Copies a result (descriptor `words`) into the caller's dense `out`.
void copyResult(const int64_t *words, const FuseTensorInfo &info, void *out) {
  size_t item = fuseElementTypeSize(info.element_type);
  const char *base = reinterpret_cast<const char *>(words[1]) + words[2] * item;
  int64_t count = elementCount(info);
#ifdef FUSE_RUNTIME_CUDA
  // Results of the GPU program are dense buffers it allocated.
  if (count > 0)
    mgpuMemcpy(out, const_cast<char *>(base), count * item, nullptr);
#else
  int32_t rank = info.rank;
  const int64_t *strides = words + 3 + rank;
  bool dense = true;
  for (int64_t d = rank - 1, expect = 1; d >= 0; --d) {
    dense &= info.shape[d] == 1 || strides[d] == expect;
    expect *= info.shape[d];
  }
  if (dense) {
    std::memcpy(out, base, count * item);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  char *to = static_cast<char *>(out);
  for (int64_t n = 0; n < count; ++n) {
    int64_t at = 0;
    for (int32_t d = 0; d < rank; ++d)
      at += index[d] * strides[d];
    std::memcpy(to + n * item, base + at * item, item);
    for (int32_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < info.shape[d])
        break;
      index[d] = 0;
    }
  }
#endif
}

std::mutex weightsMutex;
bool weightsLoaded = false;
// The file they came from (device and inode): a later session that names
// another file is refused rather than silently given these.
dev_t weightsDevice;
ino_t weightsInode;

/// The library's path, for the default weights file beside it: recorded
/// when it is loaded (dladdr gives the name it was opened by, relative to
/// the folder current then).
std::string &libraryPath() {
  static std::string path;
  return path;
}

__attribute__((constructor)) void recordLibraryPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<const void *>(&recordLibraryPath), &info) ||
      !info.dli_fname)
    return;
  std::string name = info.dli_fname;
  if (!name.empty() && name[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd))
      name = std::string(cwd) + "/" + name;
  }
  libraryPath() = name;
}

/// Asks the kernel for transparent huge pages under the weights' globals,
/// before the first write faults them in (HugePages.h): their span lies
/// inside the library's zero-initialized segment.
void adviseWeightHugePages() {
  uintptr_t low = UINTPTR_MAX, high = 0;
  for (uint64_t i = 0; i < __fuse_weights_header.count; ++i) {
    auto address = reinterpret_cast<uintptr_t>(__fuse_weights[i].address);
    low = std::min(low, address);
    high = std::max<uintptr_t>(high, address + __fuse_weights[i].bytes);
  }
  if (low < high)
    fuse::runtime::adviseHugePages(reinterpret_cast<const void *>(low),
                                   high - low);
}

/// The default weights file of the library at `library`: its extension
/// (a dot after the first character of its last component) replaced by
/// `.weights` (fuse_dialect.aot.weights_path, the one that writes it,
/// follows the same rule: os.path.splitext's).
std::string defaultWeightsPath(std::string library) {
  size_t slash = library.rfind('/');
  size_t base = slash == std::string::npos ? 0 : slash + 1;
  size_t dot = library.rfind('.');
  if (dot != std::string::npos && dot > base &&
      library.find_first_not_of('.', base) < dot)
    library.resize(dot);
  return library + ".weights";
}

FuseStatus loadWeights(const char *path) {
  std::lock_guard<std::mutex> lock(weightsMutex);
  const FuseWeightsHeader &expected = __fuse_weights_header;
  std::string file = path ? path : defaultWeightsPath(libraryPath());
  if (weightsLoaded) {
    struct stat st;
    if (!path || (stat(file.c_str(), &st) == 0 && st.st_dev == weightsDevice &&
                  st.st_ino == weightsInode))
      return FUSE_OK;
    return fail(FUSE_ERROR_WEIGHTS,
                "the weights are already loaded from another file than '" +
                    file + "' (a process loads a model's weights once)");
  }
  std::FILE *f = std::fopen(file.c_str(), "rb");
  if (!f)
    return fail(FUSE_ERROR_WEIGHTS, "cannot open the weights file '" + file +
                                        "': " + std::strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0) {
    std::fclose(f);
    return fail(FUSE_ERROR_WEIGHTS, "cannot read the weights file '" + file +
                                        "': " + std::strerror(errno));
  }
  FuseWeightsHeader header;
  bool ok = std::fread(&header, sizeof header, 1, f) == 1 &&
            header.magic == FUSE_WEIGHTS_MAGIC &&
            std::fseek(f, FUSE_WEIGHTS_DATA_OFFSET, SEEK_SET) == 0;
  if (ok && (header.count != expected.count ||
             header.data_bytes != expected.data_bytes ||
             header.digest != expected.digest)) {
    std::fclose(f);
    return fail(FUSE_ERROR_WEIGHTS,
                "'" + file + "' holds the weights of another model");
  }
  // The data in chunks of whole words through one buffer: each chunk is
  // added to the digest and its bytes copied to the globals it overlaps
  // (the table is in file order), so the weights are never in memory twice.
  uint64_t sum = 0, done = 0;
  if (ok) {
    adviseWeightHugePages();
    std::vector<unsigned char> chunk(1 << 20);
    uint64_t entry = 0;
    while (ok && done < header.data_bytes) {
      uint64_t n = std::min<uint64_t>(chunk.size(), header.data_bytes - done);
      ok = std::fread(chunk.data(), 1, n, f) == n;
      if (!ok)
        break;
      sum = fuseDigestSum(sum, done / 8, chunk.data(), n);
      for (uint64_t i = entry; i < expected.count; ++i) {
        const FuseWeight &w = __fuse_weights[i];
        uint64_t from = std::max(w.offset, done);
        uint64_t to = std::min(w.offset + w.bytes, done + n);
        if (from < to)
          std::memcpy(static_cast<char *>(w.address) + (from - w.offset),
                      chunk.data() + (from - done), to - from);
        if (w.offset + w.bytes <= done + n)
          entry = i + 1; // done with it
        if (w.offset >= done + n)
          break;
      }
      done += n;
    }
    ok = ok && std::fgetc(f) == EOF;
  }
  std::fclose(f);
  if (!ok)
    return fail(FUSE_ERROR_WEIGHTS, "'" + file +
                                        "' is not a FuseDialect weights file "
                                        "or is truncated or extended");
  if (fuseDigestFinish(sum, done) != expected.digest) {
    // Nothing of a file with a wrong digest stays (a short one may leave
    // part of its bytes, never used): the next session reads it again.
    for (uint64_t i = 0; i < expected.count; ++i)
      std::memset(__fuse_weights[i].address, 0, __fuse_weights[i].bytes);
    return fail(FUSE_ERROR_WEIGHTS,
                "'" + file + "' is corrupted (its digest does not match)");
  }
  weightsLoaded = true;
  weightsDevice = st.st_dev;
  weightsInode = st.st_ino;
  return FUSE_OK;
}

} // namespace

FUSE_ABI uint32_t fuseRuntimeAbiVersion(void) {
  return FUSE_RUNTIME_ABI_VERSION;
}
FUSE_ABI int32_t fuseModelTarget(void) { return __fuse_model.target; }
FUSE_ABI const char *fuseModelName(void) { return __fuse_model.name; }
FUSE_ABI int32_t fuseModelNumInputs(void) { return __fuse_model.num_inputs; }
FUSE_ABI int32_t fuseModelNumOutputs(void) { return __fuse_model.num_outputs; }

FUSE_ABI const FuseTensorInfo *fuseModelInput(int32_t i) {
  return i >= 0 && i < __fuse_model.num_inputs ? &__fuse_model.inputs[i]
                                               : nullptr;
}

FUSE_ABI const FuseTensorInfo *fuseModelOutput(int32_t i) {
  return i >= 0 && i < __fuse_model.num_outputs ? &__fuse_model.outputs[i]
                                                : nullptr;
}

FUSE_ABI size_t fuseElementTypeSize(int32_t type) {
  switch (type) {
  case FUSE_FLOAT64:
  case FUSE_INT64:
    return 8;
  case FUSE_FLOAT32:
  case FUSE_INT32:
    return 4;
  case FUSE_FLOAT16:
  case FUSE_BFLOAT16:
  case FUSE_INT16:
    return 2;
  case FUSE_INT8:
  case FUSE_BOOL:
  case FUSE_UINT8:
    return 1;
  default:
    return 0;
  }
}

namespace {

FuseStatus sessionCreate(const FuseSessionOptions *options,
                         FuseSession **session) {
  if (!session)
    return fail(FUSE_ERROR_INVALID_ARGUMENT,
                "fuseSessionCreate: null session pointer");
  *session = nullptr;
  // Fields the caller's (possibly older) struct does not have keep their
  // defaults.
  FuseSessionOptions o{sizeof(FuseSessionOptions), nullptr, 0};
  if (options) {
    // Whole fields only: a size that ends inside one is refused.
    size_t size = options->struct_size;
    size_t ends[] = {
        sizeof(o.struct_size),
        offsetof(FuseSessionOptions, weights_path) + sizeof(o.weights_path),
        offsetof(FuseSessionOptions, num_threads) + sizeof(o.num_threads)};
    if (size < ends[1] ||
        (size < sizeof(o) &&
         std::find(std::begin(ends), std::end(ends), size) == std::end(ends)))
      return fail(FUSE_ERROR_INVALID_ARGUMENT,
                  "fuseSessionCreate: options.struct_size " +
                      std::to_string(size) + " does not end a field");
    if (size >= ends[1])
      o.weights_path = options->weights_path;
    if (size >= ends[2])
      o.num_threads = options->num_threads;
  }
  if (const char *feature = __fuse_model.missing_cpu_feature())
    return fail(FUSE_ERROR_DEVICE,
                std::string("fuseSessionCreate: the model was compiled for a "
                            "CPU with ") +
                    feature + ", which this one lacks (fuse-compile --cpu)");
  if (o.num_threads < 0 || o.num_threads > FUSE_MAX_THREADS)
    return fail(FUSE_ERROR_INVALID_ARGUMENT,
                "fuseSessionCreate: num_threads " +
                    std::to_string(o.num_threads) + " is not in [0, " +
                    std::to_string(FUSE_MAX_THREADS) + "]");
#ifdef FUSE_RUNTIME_CUDA
  // The mgpu* runtime aborts on a CUDA error (the generated host code
  // cannot handle one): find out now whether there is a device to run on.
  int devices = 0;
  CUresult result = cuInit(0);
  if (result == CUDA_SUCCESS)
    result = cuDeviceGetCount(&devices);
  if (result != CUDA_SUCCESS || devices == 0) {
    const char *name = nullptr;
    if (result != CUDA_SUCCESS)
      cuGetErrorName(result, &name);
    return fail(FUSE_ERROR_DEVICE,
                std::string("fuseSessionCreate: no CUDA device (") +
                    (name ? name : "none found") + ")");
  }
#endif
  if (&__fuse_weights_header) {
    FuseStatus status = loadWeights(o.weights_path);
    if (status != FUSE_OK)
      return status;
  } else if (o.weights_path) {
    return fail(FUSE_ERROR_INVALID_ARGUMENT,
                "fuseSessionCreate: the model's weights are in the library; "
                "it takes no weights file");
  }
  auto *s = new (std::nothrow) FuseSession;
  if (!s)
    return fail(FUSE_ERROR_OUT_OF_MEMORY, "fuseSessionCreate: no memory");
  s->numThreads = o.num_threads;
  *session = s;
  return FUSE_OK;
}

/// One call of the compiled program: `inputs` and `outputs` (the caller's
/// dense buffers) of the shapes `inputInfo` and `outputInfo` declare. The
/// program writes into output i's buffer itself where `direct[i]`.
void runOnce(const std::vector<FuseTensorInfo> &inputInfo,
             const std::vector<void *> &inputs,
             const std::vector<FuseTensorInfo> &outputInfo,
             const std::vector<void *> &outputs,
             const std::vector<bool> &direct) {
  const FuseModelDescription &m = __fuse_model;
  int32_t numInputs = inputInfo.size(), numOutputs = outputInfo.size();
  std::vector<std::vector<int64_t>> args(numInputs);
  std::vector<void *> argPointers(numInputs);
  for (int32_t i = 0; i < numInputs; ++i) {
    args[i].assign(3 + 2 * inputInfo[i].rank, 0);
    describe(args[i].data(), inputs[i], inputInfo[i]);
    argPointers[i] = args[i].data();
  }

  if (m.outputs_as_arguments) {
    // The outputs' descriptors are arguments too: the program computes its
    // results in the caller's buffers, or in one of its own for an output
    // not `direct`, copied there after the call.
    std::vector<std::vector<int64_t>> outs(numOutputs);
    std::vector<void *> outPointers(numOutputs);
    std::vector<std::vector<char>> own(numOutputs);
    for (int32_t i = 0; i < numOutputs; ++i) {
      void *data = outputs[i];
      if (!direct[i]) {
        own[i].resize(elementCount(outputInfo[i]) *
                      fuseElementTypeSize(outputInfo[i].element_type));
        data = own[i].data();
      }
      outs[i].assign(3 + 2 * outputInfo[i].rank, 0);
      describe(outs[i].data(), data, outputInfo[i]);
      outPointers[i] = outs[i].data();
    }
    m.entry(outPointers.data(), argPointers.data());
    for (int32_t i = 0; i < numOutputs; ++i)
      if (!own[i].empty())
        std::memcpy(outputs[i], own[i].data(), own[i].size());
    return;
  }

  // Descriptors of the results the program returns, one after the other,
  // as the C wrapper's struct of results lays them out.
  std::vector<size_t> resultAt(numOutputs);
  size_t words = 0;
  for (int32_t i = 0; i < numOutputs; ++i) {
    resultAt[i] = words;
    words += 3 + 2 * outputInfo[i].rank;
  }
  std::vector<int64_t> results(words, 0);
  m.entry(results.data(), argPointers.data());

  // Every result copied before any buffer is freed: results may be views
  // of one buffer (a result and its reshape or transpose).
  for (int32_t i = 0; i < numOutputs; ++i)
    copyResult(results.data() + resultAt[i], outputInfo[i], outputs[i]);
#ifdef FUSE_RUNTIME_CUDA
  mgpuStreamSynchronize(nullptr);
#endif
  std::vector<void *> released;
  for (int32_t i = 0; i < numOutputs; ++i) {
    int64_t allocatedWord = results[resultAt[i]];
    void *allocated = reinterpret_cast<void *>(allocatedWord);
    // A view of a global (memref.get_global's lowering marks its allocated
    // pointer 0xdeadbeef) or of an input is not the program's to free.
    bool notOurs =
        !allocated || allocatedWord == static_cast<int64_t>(0xdeadbeef);
    for (int32_t j = 0; j < numInputs && !notOurs; ++j)
      notOurs = allocated == inputs[j];
    for (void *p : released)
      notOurs |= p == allocated;
    if (notOurs)
      continue;
    released.push_back(allocated);
#ifdef FUSE_RUNTIME_CUDA
    mgpuMemFree(allocated, nullptr);
#else
    std::free(allocated);
#endif
  }
#ifdef FUSE_RUNTIME_CUDA
  mgpuStreamSynchronize(nullptr);
#endif
}

#ifndef FUSE_RUNTIME_CUDA
/// `run(n)` for n in [0, count) on `width` threads, each with one OpenMP
/// thread for the program's own parallel loops; an exception in any is
/// rethrown here after all have ended.
template <typename Run>
void runSamplesInParallel(int64_t count, int width, Run &run) {
  std::atomic<bool> failed{false};
  std::vector<std::thread> workers;
  auto work = [&](int w) {
    omp_set_num_threads(1);
    try {
      for (int64_t n = w; n < count && !failed; n += width)
        run(n);
    } catch (...) {
      failed = true;
    }
  };
  try {
    for (int w = 1; w < width; ++w)
      workers.emplace_back(work, w);
  } catch (...) {
    failed = true;
  }
  int callerThreads = omp_get_max_threads();
  work(0);
  omp_set_num_threads(callerThreads);
  for (std::thread &worker : workers)
    worker.join();
  if (failed)
    throw std::bad_alloc();
}
#endif

FuseStatus sessionRun(FuseSession *session, const FuseTensor *inputs,
                      int32_t numInputs, const FuseTensor *outputs,
                      int32_t numOutputs) {
  const FuseModelDescription &m = __fuse_model;
  if (!session)
    return fail(FUSE_ERROR_INVALID_ARGUMENT, "fuseSessionRun: null session");
  if (numInputs != m.num_inputs || numOutputs != m.num_outputs)
    return fail(FUSE_ERROR_INVALID_ARGUMENT,
                "fuseSessionRun: " + std::to_string(numInputs) +
                    " inputs and " + std::to_string(numOutputs) +
                    " outputs, the model takes " +
                    std::to_string(m.num_inputs) + " and " +
                    std::to_string(m.num_outputs));
  if ((numInputs && !inputs) || (numOutputs && !outputs))
    return fail(FUSE_ERROR_INVALID_ARGUMENT,
                std::string("fuseSessionRun: null ") +
                    (numInputs && !inputs ? "inputs" : "outputs") + " array");
  for (int32_t i = 0; i < numInputs; ++i)
    if (!matches("input", i, inputs[i], m.inputs[i]))
      return FUSE_ERROR_INVALID_ARGUMENT;
  for (int32_t i = 0; i < numOutputs; ++i)
    if (!matches("output", i, outputs[i], m.outputs[i]))
      return FUSE_ERROR_INVALID_ARGUMENT;

  // A model compiled for any batch size runs once per sample: the batch
  // (every dynamic first dimension, all the same) and the bytes a sample
  // of each tensor takes.
  int64_t batch = -1;
  std::vector<FuseTensorInfo> sampleInputs(m.inputs, m.inputs + numInputs);
  std::vector<FuseTensorInfo> sampleOutputs(m.outputs, m.outputs + numOutputs);
  std::vector<size_t> inputStep(numInputs, 0), outputStep(numOutputs, 0);
  std::vector<std::vector<int64_t>> sampleShapes;
  sampleShapes.reserve(numInputs + numOutputs);
  auto perSample = [&](const char *what, int32_t i, const FuseTensor &given,
                       FuseTensorInfo &info, size_t &step) {
    if (info.rank == 0 || info.shape[0] != FUSE_DYNAMIC_DIM)
      return true;
    std::string tensor = std::string("fuseSessionRun: ") + what + " " +
                         std::to_string(i) + " ('" + info.name + "')";
    if (batch >= 0 && given.shape[0] != batch) {
      fail(FUSE_ERROR_INVALID_ARGUMENT,
           tensor + " has a batch of " + std::to_string(given.shape[0]) +
               ", another tensor " + std::to_string(batch));
      return false;
    }
    batch = given.shape[0];
    sampleShapes.emplace_back(info.shape, info.shape + info.rank);
    sampleShapes.back()[0] = 1;
    info.shape = sampleShapes.back().data();
    step = elementCount(info) * fuseElementTypeSize(info.element_type);
    size_t total;
    if (__builtin_mul_overflow(step, static_cast<uint64_t>(batch), &total)) {
      fail(FUSE_ERROR_INVALID_ARGUMENT, tensor + ": a batch of " +
                                            std::to_string(batch) +
                                            " is more bytes than memory has");
      return false;
    }
    return true;
  };
  for (int32_t i = 0; i < numInputs; ++i)
    if (!perSample("input", i, inputs[i], sampleInputs[i], inputStep[i]))
      return FUSE_ERROR_INVALID_ARGUMENT;
  for (int32_t i = 0; i < numOutputs; ++i)
    if (!perSample("output", i, outputs[i], sampleOutputs[i], outputStep[i]))
      return FUSE_ERROR_INVALID_ARGUMENT;

  // The program may write straight into an output (outputs_as_arguments)
  // that shares no byte with an input or another output: a caller's
  // in-place buffer must not be written while it is still being read.
  auto bytesOf = [](const FuseTensor &t, const FuseTensorInfo &info) {
    FuseTensorInfo given = info;
    given.shape = t.shape;
    return elementCount(given) * fuseElementTypeSize(info.element_type);
  };
  auto overlap = [&](const FuseTensor &a, const FuseTensorInfo &aInfo,
                     const FuseTensor &b, const FuseTensorInfo &bInfo) {
    // As addresses: pointers into different objects do not compare.
    auto aBegin = reinterpret_cast<uintptr_t>(a.data);
    auto bBegin = reinterpret_cast<uintptr_t>(b.data);
    size_t aBytes = bytesOf(a, aInfo), bBytes = bytesOf(b, bInfo);
    return aBytes && bBytes && aBegin < bBegin + bBytes &&
           bBegin < aBegin + aBytes;
  };
  std::vector<bool> direct(numOutputs, true);
  for (int32_t i = 0; i < numOutputs; ++i) {
    for (int32_t j = 0; j < numInputs && direct[i]; ++j)
      direct[i] = !overlap(outputs[i], m.outputs[i], inputs[j], m.inputs[j]);
    for (int32_t j = 0; j < numOutputs && direct[i]; ++j)
      direct[i] = j == i ||
                  !overlap(outputs[i], m.outputs[i], outputs[j], m.outputs[j]);
  }

  // Sample n of every tensor with a batch (the whole of every other one).
  auto runSample = [&](int64_t n) {
    std::vector<void *> inputData(numInputs), outputData(numOutputs);
    for (int32_t i = 0; i < numInputs; ++i)
      inputData[i] = static_cast<char *>(inputs[i].data) + n * inputStep[i];
    for (int32_t i = 0; i < numOutputs; ++i)
      outputData[i] = static_cast<char *>(outputs[i].data) + n * outputStep[i];
    runOnce(sampleInputs, inputData, sampleOutputs, outputData, direct);
  };
  int64_t runs = batch < 0 ? 1 : batch, first = 0;
#ifndef FUSE_RUNTIME_CUDA
  // The session's threads for this call; the calling thread's own OpenMP
  // setting (the application's) is restored after it.
  int threads = session->numThreads, callerThreads = omp_get_max_threads();
  if (threads > 0)
    omp_set_num_threads(threads);
  // As many samples as threads or more: whole samples in parallel, each on
  // one thread (one sample's tile loops scale less well than whole samples
  // do), then the samples left over one at a time on all threads. The
  // program's outputs do not depend on its thread count.
  int width = threads > 0 ? threads : callerThreads;
  first = batch >= width && width >= 2 ? batch / width * width : 0;
  if (first > 0)
    runSamplesInParallel(first, width, runSample);
#endif
  // One run, or one per sample (none for an empty batch).
  for (int64_t n = first; n < runs; ++n)
    runSample(n);
#ifndef FUSE_RUNTIME_CUDA
  if (threads > 0)
    omp_set_num_threads(callerThreads);
#endif
  return FUSE_OK;
}

/// `call()`, with no C++ exception leaving the C ABI: running out of memory
/// is FUSE_ERROR_OUT_OF_MEMORY (its message preallocated), anything else
/// FUSE_ERROR_DEVICE.
template <typename Call> FuseStatus guarded(Call call) {
  try {
    return call();
  } catch (const std::bad_alloc &) {
    static const char *message = "out of memory";
    try {
      lastError = message;
    } catch (...) {
    }
    return FUSE_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception &e) {
    try {
      lastError = e.what();
    } catch (...) {
    }
    return FUSE_ERROR_DEVICE;
  }
}

} // namespace

FUSE_ABI FuseStatus fuseSessionCreate(const FuseSessionOptions *options,
                                      FuseSession **session) {
  return guarded([&] { return sessionCreate(options, session); });
}

FUSE_ABI void fuseSessionDestroy(FuseSession *session) { delete session; }

FUSE_ABI FuseStatus fuseSessionRun(FuseSession *session,
                                   const FuseTensor *inputs, int32_t numInputs,
                                   const FuseTensor *outputs,
                                   int32_t numOutputs) {
  return guarded([&] {
    return sessionRun(session, inputs, numInputs, outputs, numOutputs);
  });
}

FUSE_ABI const char *fuseLastError(void) { return lastError.c_str(); }
