// The machine's roofline, measured: single-core f32 FMA peak (independent
// fused multiply-adds on as many vector registers as hide the FMA latency)
// and memory bandwidth (a STREAM triad over arrays far larger than the
// caches). Compiled by bench/roofline.py with -O3 -march=native; prints
// "fma_gflops <x>" and "triad_gbs <y>", the best of several runs.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#if defined(__AVX512F__)
typedef __m512 vec;
#define LANES 16
#define FMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define SET1(x) _mm512_set1_ps(x)
#define SUM(v) _mm512_reduce_add_ps(v)
#elif defined(__AVX2__) && defined(__FMA__)
typedef __m256 vec;
#define LANES 8
#define FMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define SET1(x) _mm256_set1_ps(x)
static float SUM(__m256 v) {
  float x[8];
  _mm256_storeu_ps(x, v);
  return x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7];
}
#else
#error "needs AVX2+FMA or AVX-512"
#endif

// 12 independent accumulators: 2 FMA ports x 4-cycle latency x 1.5.
static double fmaPeak(void) {
  const long iters = 20000000;
  vec a = SET1(1.0000001f), b = SET1(0.9999999f);
  vec c0 = SET1(0), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0,
      c7 = c0, c8 = c0, c9 = c0, c10 = c0, c11 = c0;
  double start = now();
  for (long i = 0; i < iters; ++i) {
    c0 = FMA(a, b, c0); c1 = FMA(a, b, c1); c2 = FMA(a, b, c2);
    c3 = FMA(a, b, c3); c4 = FMA(a, b, c4); c5 = FMA(a, b, c5);
    c6 = FMA(a, b, c6); c7 = FMA(a, b, c7); c8 = FMA(a, b, c8);
    c9 = FMA(a, b, c9); c10 = FMA(a, b, c10); c11 = FMA(a, b, c11);
    __asm__ volatile("" : "+v"(c0), "+v"(c1), "+v"(c2), "+v"(c3), "+v"(c4),
                     "+v"(c5), "+v"(c6), "+v"(c7), "+v"(c8), "+v"(c9),
                     "+v"(c10), "+v"(c11));
  }
  double seconds = now() - start;
  volatile float sink = SUM(c0) + SUM(c11);
  (void)sink;
  return 12.0 * 2 * LANES * iters / seconds * 1e-9;
}

static double triad(void) {
  const long n = 1L << 25; // 3 x 128 MiB
  float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4),
        *c = aligned_alloc(64, n * 4);
  for (long i = 0; i < n; ++i)
    a[i] = 0, b[i] = 1, c[i] = 2;
  double start = now();
  for (long i = 0; i < n; ++i)
    a[i] = b[i] + 3.0f * c[i];
  double seconds = now() - start;
  volatile float sink = a[n / 2];
  (void)sink;
  free(a), free(b), free(c);
  return 3.0 * 4 * n / seconds * 1e-9;
}

int main(void) {
  double fma = 0, bw = 0;
  for (int r = 0; r < 5; ++r) {
    double f = fmaPeak(), t = triad();
    fma = f > fma ? f : fma;
    bw = t > bw ? t : bw;
  }
  printf("fma_gflops %.2f\ntriad_gbs %.2f\n", fma, bw);
  return 0;
}
