/* Runs a model of one f32 input and one f32 output seven times, on two
 * inputs, and prints how much of the heap (mallinfo2: mapped and in-use
 * bytes) the first call left held, how much the six after it added, and
 * whether each call gave the values the first call on its input gave:
 *   workspace MODEL.so
 * The library keeps its workspace (lib/Runtime/Workspace.cpp): after the
 * first call the heap holds the model's temporaries, and the calls after it
 * reuse them instead of allocating more; what they held from an earlier
 * call never shows in a result. */
#include "FuseDialect-runtime/FuseLoader.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FuseModelApi api;

static void fill(float *x, long n, int seed) {
  for (long i = 0; i < n; ++i)
    x[i] = (float)((i * (37 + seed)) % 19 - 9) / 9.0f;
}

static size_t heapBytes(void) {
  struct mallinfo2 info = mallinfo2();
  return info.hblkhd + info.uordblks;
}

int main(int argc, char **argv) {
  char error[512];
  if (argc != 2 || !fuseLoadModel(argv[1], &api, error, sizeof error)) {
    fprintf(stderr, "workspace: %s\n", argc == 2 ? error : "usage: MODEL.so");
    return 1;
  }
  const FuseTensorInfo *in = api.fuseModelInput(0), *out = api.fuseModelOutput(0);
  long n = 1, m = 1;
  for (int d = 0; d < in->rank; ++d)
    n *= in->shape[d];
  for (int d = 0; d < out->rank; ++d)
    m *= out->shape[d];
  FuseSession *session = NULL;
  if (api.fuseSessionCreate(NULL, &session) != FUSE_OK)
    return 1;
  float *x[2], *first[2], *y = malloc(m * sizeof(float));
  for (int k = 0; k < 2; ++k) {
    x[k] = malloc(n * sizeof(float));
    first[k] = malloc(m * sizeof(float));
    fill(x[k], n, k);
  }
  FuseTensor input = {NULL, in->element_type, in->rank, in->shape};
  FuseTensor output = {NULL, out->element_type, out->rank, out->shape};
  size_t before = heapBytes(), afterFirst = 0;
  int same = 1;
  for (int call = 0; call < 7; ++call) {
    int k = call % 2;
    input.data = x[k];
    output.data = call < 2 ? first[k] : y;
    if (api.fuseSessionRun(session, &input, 1, &output, 1) != FUSE_OK)
      return 1;
    if (call == 0)
      afterFirst = heapBytes();
    if (call >= 2)
      same &= memcmp(y, first[k], m * sizeof(float)) == 0;
  }
  size_t after = heapBytes();
  printf("held after the first call: %zu MiB\n",
         (afterFirst > before ? afterFirst - before : 0) >> 20);
  printf("added by the six after it: %zu MiB\n",
         (after > afterFirst ? after - afterFirst : 0) >> 20);
  printf("results: %s\n", same ? "same" : "differ");
  api.fuseSessionDestroy(session);
  return 0;
}
