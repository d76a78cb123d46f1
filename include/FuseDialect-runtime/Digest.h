/*===- Digest.h - The checksum of model libraries and weights files -------===*
 *
 * fuse-compile appends to every model library a trailer with the digest of
 * the bytes before it, and `--fuse-externalize-weights` writes the digest
 * of the weights into the weights file's header; the loaders
 * (FuseLoader.h, fuse_dialect.runtime) and the runtime (Session.cpp) check
 * them before anything of the file is used. It detects damage (any one
 * changed 8-byte word, always), not tampering:
 *
 *   the bytes, zero-padded to whole 8-byte little-endian words w_0..w_n-1:
 *   digest = (sum of w_i * (2i + 1)) xor (bytes * 0x9E3779B97F4A7C15),
 *   all modulo 2^64 (fuse_dialect.runtime.digest computes it in Python).
 *
 *===----------------------------------------------------------------------===*/

#ifndef FUSEDIALECT_RUNTIME_DIGEST_H
#define FUSEDIALECT_RUNTIME_DIGEST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sum over `bytes` bytes at `data`, whose first word is word `first`
   of the whole (a chunk of a longer file: `first` counts the words before
   it, and every chunk but the last is whole words). */
static inline uint64_t fuseDigestSum(uint64_t sum, uint64_t first,
                                     const unsigned char *data,
                                     uint64_t bytes) {
  for (uint64_t i = 0; i < bytes; i += 8) {
    uint64_t word = 0;
    for (int b = 7; b >= 0; --b)
      word = (word << 8) | (i + b < bytes ? data[i + b] : 0);
    sum += word * (2 * (first + i / 8) + 1);
  }
  return sum;
}

static inline uint64_t fuseDigestFinish(uint64_t sum, uint64_t bytes) {
  return sum ^ (bytes * 0x9E3779B97F4A7C15ull);
}

static inline uint64_t fuseDigest(const unsigned char *data, uint64_t bytes) {
  return fuseDigestFinish(fuseDigestSum(0, 0, data, bytes), bytes);
}

/* The trailer fuse-compile appends to a model library. */
#define FUSE_LIBRARY_MAGIC 0x3142494c45535546ull /* "FUSELIB1" */
typedef struct FuseLibraryTrailer {
  uint64_t magic, bytes, digest; /* digest of the `bytes` bytes before it */
} FuseLibraryTrailer;

#ifdef __cplusplus
}
#endif

#endif /* FUSEDIALECT_RUNTIME_DIGEST_H */
