/* A C program that uses a compiled model through its ABI only
 * (include/FuseDialect-runtime/FuseRuntime.h), loaded with FuseLoader.h
 * (checked, then dlopen) as a program that takes any model would:
 *   abi-check MODEL.so [OUT.bin [WEIGHTS]]
 * prints the model's inputs and outputs, makes every kind of bad call and
 * prints what each returned, then runs it on inputs of seeded values
 * (fuse_dialect's tests compute the same: value(k, i) below) and writes
 * the outputs, one after the other, to OUT.bin. Exit status: 0, or 1 when
 * the library cannot be used. */
#include "FuseDialect-runtime/FuseLoader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FuseModelApi api;

static double value(int input, long i) {
  return (double)((i * 37 + input * 11) % 19 - 9) / 9.0;
}

static void fill(const FuseTensorInfo *info, void *data, long n, int input) {
  for (long i = 0; i < n; ++i) {
    double v = value(input, i);
    switch (info->element_type) {
    case FUSE_FLOAT32:
      ((float *)data)[i] = (float)v;
      break;
    case FUSE_FLOAT64:
      ((double *)data)[i] = v;
      break;
    case FUSE_INT32:
      ((int *)data)[i] = (int)(v * 9);
      break;
    case FUSE_INT64:
      ((long long *)data)[i] = (long long)(v * 9);
      break;
    default:
      memset((char *)data + i * api.fuseElementTypeSize(info->element_type), 0,
             api.fuseElementTypeSize(info->element_type));
    }
  }
}

static long count(const FuseTensorInfo *info) {
  long n = 1;
  for (int d = 0; d < info->rank; ++d)
    n *= info->shape[d];
  return n;
}

static void print(const char *what, const FuseTensorInfo *info) {
  printf("%s %s: type %d shape [", what, info->name, info->element_type);
  for (int d = 0; d < info->rank; ++d)
    printf("%s%lld", d ? ", " : "", (long long)info->shape[d]);
  printf("]\n");
}

#define EXPECT_REFUSED(what, call)                                             \
  do {                                                                         \
    int status = (call);                                                       \
    printf("%s: status %d: %s\n", what, status, api.fuseLastError());          \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: abi-check MODEL.so [OUT.bin [WEIGHTS]]\n");
    return 2;
  }
  char error[1024];
  if (!fuseLoadModel(argv[1], &api, error, sizeof error)) {
    printf("cannot load: %s\n", error);
    return 1;
  }
  printf("abi %u target %d model %s\n", api.fuseRuntimeAbiVersion(),
         api.fuseModelTarget(), api.fuseModelName());
  int nin = api.fuseModelNumInputs(), nout = api.fuseModelNumOutputs();
  FuseTensor *in = calloc(nin + 1, sizeof *in),
             *out = calloc(nout + 1, sizeof *out);
  for (int k = 0; k < nin; ++k) {
    const FuseTensorInfo *info = api.fuseModelInput(k);
    print("input", info);
    in[k].data =
        malloc(count(info) * api.fuseElementTypeSize(info->element_type) + 1);
    in[k].element_type = info->element_type;
    in[k].rank = info->rank;
    in[k].shape = info->shape;
    fill(info, in[k].data, count(info), k);
  }
  for (int k = 0; k < nout; ++k) {
    const FuseTensorInfo *info = api.fuseModelOutput(k);
    print("output", info);
    out[k].data =
        calloc(count(info) + 1, api.fuseElementTypeSize(info->element_type));
    out[k].element_type = info->element_type;
    out[k].rank = info->rank;
    out[k].shape = info->shape;
  }
  printf("input -1: %p, output %d: %p\n", (void *)api.fuseModelInput(-1), nout,
         (void *)api.fuseModelOutput(nout));

  FuseSession *session = NULL;
  EXPECT_REFUSED("null session pointer", api.fuseSessionCreate(NULL, NULL));
  FuseSessionOptions options = {sizeof options, argc > 3 ? argv[3] : NULL, 1};
  FuseSessionOptions tiny = {2, NULL, 0};
  EXPECT_REFUSED("options too small", api.fuseSessionCreate(&tiny, &session));
  FuseSessionOptions inside = {12, NULL, 0};
  EXPECT_REFUSED("options ending inside a field",
                 api.fuseSessionCreate(&inside, &session));
  FuseSessionOptions negative = {sizeof negative, NULL, -3};
  EXPECT_REFUSED("negative threads",
                 api.fuseSessionCreate(&negative, &session));
  int status = api.fuseSessionCreate(&options, &session);
  if (status != FUSE_OK) {
    printf("session: status %d: %s\n", status, api.fuseLastError());
    return 1;
  }

  EXPECT_REFUSED("null session", api.fuseSessionRun(NULL, in, nin, out, nout));
  EXPECT_REFUSED("too many inputs",
                 api.fuseSessionRun(session, in, nin + 1, out, nout));
  EXPECT_REFUSED("null inputs",
                 api.fuseSessionRun(session, NULL, nin, out, nout));
  FuseTensor saved = in[0];
  in[0].element_type = FUSE_INT64;
  EXPECT_REFUSED("wrong type", api.fuseSessionRun(session, in, nin, out, nout));
  in[0] = saved;
  in[0].rank = saved.rank + 1;
  EXPECT_REFUSED("wrong rank", api.fuseSessionRun(session, in, nin, out, nout));
  int64_t shape[16];
  memcpy(shape, saved.shape, saved.rank * sizeof *shape);
  shape[0] += 1;
  in[0] = saved;
  in[0].shape = shape;
  EXPECT_REFUSED("wrong shape",
                 api.fuseSessionRun(session, in, nin, out, nout));
  in[0] = saved;
  in[0].data = NULL;
  EXPECT_REFUSED("null data", api.fuseSessionRun(session, in, nin, out, nout));
  in[0] = saved;
  in[0].shape = NULL;
  EXPECT_REFUSED("null shape", api.fuseSessionRun(session, in, nin, out, nout));
  in[0] = saved;
  void *kept = out[0].data;
  out[0].data = NULL;
  EXPECT_REFUSED("null output",
                 api.fuseSessionRun(session, in, nin, out, nout));
  out[0].data = kept;

  status = api.fuseSessionRun(session, in, nin, out, nout);
  printf("run: status %d\n", status);
  if (argc > 2) {
    FILE *f = fopen(argv[2], "wb");
    for (int k = 0; k < nout; ++k)
      fwrite(out[k].data, api.fuseElementTypeSize(out[k].element_type),
             count(api.fuseModelOutput(k)), f);
    fclose(f);
  }
  api.fuseSessionDestroy(session);
  api.fuseSessionDestroy(NULL);
  for (int k = 0; k < nin; ++k)
    free(in[k].data);
  for (int k = 0; k < nout; ++k)
    free(out[k].data);
  free(in);
  free(out);
  fuseUnloadModel(&api);
  return status == FUSE_OK ? 0 : 1;
}
