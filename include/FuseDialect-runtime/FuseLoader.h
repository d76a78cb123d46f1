/*===- FuseLoader.h - Load a compiled model with dlopen, safely -----------===*
 *
 * Header-only C for a program that takes any model library at run time
 * (several in one process: each is opened RTLD_LOCAL):
 *
 *   FuseModelApi api;
 *   char error[512];
 *   if (!fuseLoadModel("model.so", &api, error, sizeof error))
 *     return puts(error);
 *   api.fuseSessionCreate(NULL, &session);   // FuseRuntime.h, through api
 *   ...
 *   fuseUnloadModel(&api);
 *
 * Before dlopen, the file's trailer (Digest.h, appended by fuse-compile)
 * is checked against its bytes: the dynamic loader dies of SIGBUS on a
 * library cut short and of an assertion or a segmentation fault on many a
 * damaged one, and this check turns each into an error. Then every
 * function of FuseRuntime.h is looked up and the ABI version compared.
 * As with any dlopen, a path loaded before returns the library loaded
 * then, even if the file has changed since: load a recompiled model from a
 * new path (fuse_dialect.load does so by itself).
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSEDIALECT_RUNTIME_FUSELOADER_H
#define FUSEDIALECT_RUNTIME_FUSELOADER_H

#include "FuseDialect-runtime/Digest.h"
#include "FuseDialect-runtime/FuseRuntime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct FuseModelApi {
  void *handle;
  uint32_t (*fuseRuntimeAbiVersion)(void);
  int32_t (*fuseModelTarget)(void);
  const char *(*fuseModelName)(void);
  int32_t (*fuseModelNumInputs)(void);
  int32_t (*fuseModelNumOutputs)(void);
  const FuseTensorInfo *(*fuseModelInput)(int32_t);
  const FuseTensorInfo *(*fuseModelOutput)(int32_t);
  size_t (*fuseElementTypeSize)(int32_t);
  FuseStatus (*fuseSessionCreate)(const FuseSessionOptions *, FuseSession **);
  void (*fuseSessionDestroy)(FuseSession *);
  FuseStatus (*fuseSessionRun)(FuseSession *, const FuseTensor *, int32_t,
                               const FuseTensor *, int32_t);
  const char *(*fuseLastError)(void);
} FuseModelApi;

/* Checks that `path` ends with the trailer fuse-compile appends and that
   its digest matches the bytes before it; writes the reason to `error`
   otherwise. */
static inline int fuseCheckLibrary(const char *path, char *error, size_t size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(error, size, "%s: cannot open", path);
    return 0;
  }
  FuseLibraryTrailer trailer;
  long end = -1;
  int found = 0, ok = 0;
  if (fseek(f, 0, SEEK_END) == 0)
    end = ftell(f);
  if (end >= (long)sizeof trailer &&
      fseek(f, end - (long)sizeof trailer, SEEK_SET) == 0 &&
      fread(&trailer, sizeof trailer, 1, f) == 1 &&
      trailer.magic == FUSE_LIBRARY_MAGIC &&
      trailer.bytes == (uint64_t)end - sizeof trailer &&
      fseek(f, 0, SEEK_SET) == 0) {
    found = 1;
    unsigned char chunk[1 << 16];
    uint64_t sum = 0, done = 0;
    while (done < trailer.bytes) {
      uint64_t want = trailer.bytes - done;
      size_t n = fread(chunk, 1, want < sizeof chunk ? want : sizeof chunk, f);
      if (n == 0)
        break;
      sum = fuseDigestSum(sum, done / 8, chunk, n);
      done += n;
    }
    ok = done == trailer.bytes &&
         fuseDigestFinish(sum, trailer.bytes) == trailer.digest;
  }
  fclose(f);
  if (!ok)
    snprintf(error, size,
             found ? "%s: the library is damaged (its digest does not match)"
                   : "%s: not a model library written by fuse-compile (no "
                     "trailer: cut short, changed since, or another file)",
             path);
  return ok;
}

/* Loads the model library `path` into `api`; 0 with the reason in `error`
   when it cannot be used. */
static inline int fuseLoadModel(const char *path, FuseModelApi *api,
                                char *error, size_t size) {
  memset(api, 0, sizeof *api);
  /* The file checked is the file loaded: dlopen searches the library path
     for a name without a slash, fopen the current folder. */
  char local[4096];
  if (!strchr(path, '/')) {
    if (snprintf(local, sizeof local, "./%s", path) >= (int)sizeof local) {
      snprintf(error, size, "%s: the path is too long", path);
      return 0;
    }
    path = local;
  }
  if (!fuseCheckLibrary(path, error, size))
    return 0;
  api->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!api->handle) {
    snprintf(error, size, "%s", dlerror());
    return 0;
  }
#define FUSE_LOADER_LOOKUP(name)                                               \
  *(void **)(&api->name) = dlsym(api->handle, #name);                          \
  if (!api->name) {                                                            \
    snprintf(error, size, "%s is not a FuseDialect model: no %s", path,        \
             #name);                                                           \
    dlclose(api->handle);                                                      \
    memset(api, 0, sizeof *api);                                               \
    return 0;                                                                  \
  }
  FUSE_LOADER_LOOKUP(fuseRuntimeAbiVersion)
  FUSE_LOADER_LOOKUP(fuseModelTarget)
  FUSE_LOADER_LOOKUP(fuseModelName)
  FUSE_LOADER_LOOKUP(fuseModelNumInputs)
  FUSE_LOADER_LOOKUP(fuseModelNumOutputs)
  FUSE_LOADER_LOOKUP(fuseModelInput)
  FUSE_LOADER_LOOKUP(fuseModelOutput)
  FUSE_LOADER_LOOKUP(fuseElementTypeSize)
  FUSE_LOADER_LOOKUP(fuseSessionCreate)
  FUSE_LOADER_LOOKUP(fuseSessionDestroy)
  FUSE_LOADER_LOOKUP(fuseSessionRun)
  FUSE_LOADER_LOOKUP(fuseLastError)
#undef FUSE_LOADER_LOOKUP
  if (api->fuseRuntimeAbiVersion() != FUSE_RUNTIME_ABI_VERSION) {
    snprintf(error, size, "%s: runtime ABI version %u, this program reads %u",
             path, api->fuseRuntimeAbiVersion(), FUSE_RUNTIME_ABI_VERSION);
    dlclose(api->handle);
    memset(api, 0, sizeof *api);
    return 0;
  }
  return 1;
}

static inline void fuseUnloadModel(FuseModelApi *api) {
  if (api->handle)
    dlclose(api->handle);
  memset(api, 0, sizeof *api);
}

#ifdef __cplusplus
}
#endif

#endif /* FUSEDIALECT_RUNTIME_FUSELOADER_H */
