/* Runs a model of one f32 input and one f32 output of the same size with
 * the output in a buffer of its own, then in the input's buffer, then in
 * one that overlaps the input's second half; prints whether each gave the
 * same values as the first:
 *   in-place MODEL.so
 * A program may compute into the caller's output as it goes only where it
 * reads no byte of that buffer (FuseRuntime.h): an input read after a part
 * of the output was written would read the program's results instead. */
#include "FuseDialect-runtime/FuseLoader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FuseModelApi api;

static void fill(float *x, long n) {
  for (long i = 0; i < n; ++i)
    x[i] = (float)((i * 37) % 19 - 9) / 9.0f;
}

static int run(FuseSession *session, const FuseTensorInfo *in,
               const FuseTensorInfo *out, float *x, float *y) {
  FuseTensor input = {x, in->element_type, in->rank, in->shape};
  FuseTensor output = {y, out->element_type, out->rank, out->shape};
  return api.fuseSessionRun(session, &input, 1, &output, 1);
}

int main(int argc, char **argv) {
  char error[512];
  if (argc != 2 || !fuseLoadModel(argv[1], &api, error, sizeof error)) {
    fprintf(stderr, "in-place: %s\n", argc == 2 ? error : "usage: MODEL.so");
    return 1;
  }
  const FuseTensorInfo *in = api.fuseModelInput(0), *out = api.fuseModelOutput(0);
  long n = 1;
  for (int d = 0; d < in->rank; ++d)
    n *= in->shape[d];
  FuseSession *session = NULL;
  if (api.fuseSessionCreate(NULL, &session) != FUSE_OK)
    return 1;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *both = malloc(2 * n * sizeof(float));
  fill(x, n);
  if (run(session, in, out, x, y) != FUSE_OK)
    return 1;
  /* The output is the input. */
  fill(both, n);
  if (run(session, in, out, both, both) != FUSE_OK)
    return 1;
  printf("same buffer: %s\n", memcmp(both, y, n * sizeof(float)) ? "differs" : "same");
  /* The output starts in the middle of the input. */
  fill(both, n);
  if (run(session, in, out, both, both + n / 2) != FUSE_OK)
    return 1;
  printf("overlapping: %s\n",
         memcmp(both + n / 2, y, n * sizeof(float)) ? "differs" : "same");
  api.fuseSessionDestroy(session);
  free(x);
  free(y);
  free(both);
  return 0;
}
