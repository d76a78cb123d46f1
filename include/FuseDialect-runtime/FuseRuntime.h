/*===- FuseRuntime.h - The C ABI of a compiled FuseDialect model ----------===*
 *
 * `fuse-compile MODEL -o model.so` writes a shared library that exports
 * exactly the functions below and nothing else: C, no C++ types, stable
 * across releases of the same FUSE_RUNTIME_ABI_VERSION (a new field goes at
 * the end of FuseSessionOptions, whose `struct_size` tells the library which
 * fields the caller knows).
 *
 * Use: link the library (`-l:model.so`, one model per program), or dlopen()
 * it with RTLD_LOCAL and look the functions up (any number of models in one
 * process: each library keeps its symbols to itself).
 *
 *   FuseSession *session;
 *   if (fuseSessionCreate(NULL, &session) != FUSE_OK)
 *     return puts(fuseLastError());
 *   const FuseTensorInfo *in = fuseModelInput(0);   // name, type, shape
 *   const FuseTensorInfo *out = fuseModelOutput(0);
 *   FuseTensor x = {pixels, FUSE_FLOAT32, in->rank, in->shape};
 *   FuseTensor y = {scores, FUSE_FLOAT32, out->rank, out->shape};
 *   if (fuseSessionRun(session, &x, 1, &y, 1) != FUSE_OK)
 *     puts(fuseLastError());
 *   fuseSessionDestroy(session);
 *
 * (A model compiled for any batch size declares FUSE_DYNAMIC_DIM as the
 * first dimension of its batch inputs and of its outputs: pass a shape
 * array with the batch there instead of in->shape.)
 *
 * Buffers belong to the caller: dense, row-major, of the element type and
 * shape the model declares (host memory for the CPU target; device, managed
 * or host memory for the CUDA target). Every argument is checked before
 * anything runs: a wrong count, rank, shape or element type, or a null
 * pointer, is FUSE_ERROR_INVALID_ARGUMENT with a message naming the tensor.
 * A session may run from several threads at once. Errors are reported per
 * thread: fuseLastError() is the message of the calling thread's last call
 * that did not return FUSE_OK.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSEDIALECT_RUNTIME_FUSERUNTIME_H
#define FUSEDIALECT_RUNTIME_FUSERUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FUSE_RUNTIME_ABI_VERSION 1
#define FUSE_MAX_THREADS 1024
/* A size in FuseTensorInfo.shape: the batch of a model compiled for any
   batch size (an ONNX model whose inputs keep a symbolic first dimension).
   Only a first dimension is dynamic; a run's tensors that have one all take
   the same size N >= 0, and the model runs once per sample. */
#define FUSE_DYNAMIC_DIM (-1)

typedef enum FuseStatus {
  FUSE_OK = 0,
  /* Counts, shapes, element types, null pointers. */
  FUSE_ERROR_INVALID_ARGUMENT = 1,
  /* The weights file: missing, damaged, another model's. */
  FUSE_ERROR_WEIGHTS = 2,
  FUSE_ERROR_OUT_OF_MEMORY = 3,
  /* The target's runtime: no CUDA device. */
  FUSE_ERROR_DEVICE = 4
} FuseStatus;

typedef enum FuseElementType {
  FUSE_FLOAT32 = 1,
  FUSE_FLOAT16 = 2,
  FUSE_BFLOAT16 = 3,
  FUSE_FLOAT64 = 4,
  FUSE_INT8 = 5,
  FUSE_INT16 = 6,
  FUSE_INT32 = 7,
  FUSE_INT64 = 8,
  FUSE_BOOL = 9, /* one byte per element, 0 or 1 */
  FUSE_UINT8 = 10
} FuseElementType;

typedef enum FuseTarget {
  FUSE_TARGET_CPU = 0,
  FUSE_TARGET_CUDA = 1
} FuseTarget;

/* An input or output as the model declares it. */
typedef struct FuseTensorInfo {
  const char *name;
  int32_t element_type; /* FuseElementType */
  int32_t rank;
  const int64_t *shape; /* rank sizes; FUSE_DYNAMIC_DIM: any */
} FuseTensorInfo;

/* A caller's buffer and what the caller says it holds. */
typedef struct FuseTensor {
  void *data;
  int32_t element_type; /* FuseElementType */
  int32_t rank;
  const int64_t *shape;
} FuseTensor;

typedef struct FuseSessionOptions {
  uint32_t struct_size; /* sizeof(FuseSessionOptions) of the caller */
  /* A model compiled with --weights=external: its weights file. NULL: the
     file next to the library, `model.weights` for `model.so` (or, once a
     session has loaded them, the weights already loaded). Read once per
     process, checked against the digest compiled into the library; a later
     session naming another file is refused. */
  const char *weights_path;
  /* CPU threads a run uses (0: OpenMP's default, OMP_NUM_THREADS or every
     core; at most FUSE_MAX_THREADS). Outputs do not depend on it. */
  int32_t num_threads;
} FuseSessionOptions;

typedef struct FuseSession FuseSession;

/* FUSE_RUNTIME_ABI_VERSION of the library. */
uint32_t fuseRuntimeAbiVersion(void);

/* What the library was compiled for. */
int32_t fuseModelTarget(void); /* FuseTarget */
const char *fuseModelName(void);
int32_t fuseModelNumInputs(void);
int32_t fuseModelNumOutputs(void);
/* The i-th input or output; NULL when i is out of range. */
const FuseTensorInfo *fuseModelInput(int32_t i);
const FuseTensorInfo *fuseModelOutput(int32_t i);
/* Bytes of one element of a FuseElementType; 0 for an unknown one. */
size_t fuseElementTypeSize(int32_t element_type);

/* `options` may be NULL (the defaults). On success *session is a new
   session; otherwise it is NULL. */
FuseStatus fuseSessionCreate(const FuseSessionOptions *options,
                             FuseSession **session);
void fuseSessionDestroy(FuseSession *session);

/* Runs the model on `inputs` (fuseModelNumInputs() of them, in order) and
   writes `outputs` (fuseModelNumOutputs(), in order). Nothing is written
   when an argument is refused. An output may share bytes with an input or
   another output: the values are those separate buffers would get (on the
   CPU the program computes into an output's buffer as it goes, but into a
   buffer of its own, copied after, for one that overlaps another). */
FuseStatus fuseSessionRun(FuseSession *session, const FuseTensor *inputs,
                          int32_t num_inputs, const FuseTensor *outputs,
                          int32_t num_outputs);

/* The calling thread's last error message ("" when none). Valid until the
   thread's next call into the library. */
const char *fuseLastError(void);

#ifdef __cplusplus
}
#endif

#endif /* FUSEDIALECT_RUNTIME_FUSERUNTIME_H */
