/* peak: what this machine can do at best, for bench/run.py to measure
 * cxla and XLA:CPU against.
 *
 *   memory bandwidth  a STREAM-style triad, a[i] = b[i] + s * c[i] on
 *                     doubles, three arrays of 128 MiB each (far above any
 *                     cache); counted as STREAM does, 24 bytes per element
 *                     (write-allocate traffic is not counted). Best of 10
 *                     passes, on every online core and on one core.
 *                     Then, on every core, the two patterns most kernels
 *                     have, over the same arrays: a copy a[i] = b[i] with
 *                     non-temporal stores (16 bytes per element, all of
 *                     them moved: no line is read before it is written)
 *                     and a read, the sum of b (8 bytes per element).
 *   compute           OpenBLAS sgemm and dgemm (through CBLAS), square,
 *                     n = 1024, 1536, 2048, 2n^3 flops each; best of 3
 *                     runs after a warm-up, with all of OpenBLAS's threads
 *                     and with one.
 *
 * Prints one JSON object on stdout. `--quick` uses small sizes (a smoke run
 * for CI: seconds, meaningless numbers). Built by `make bench` as
 * BUILD/bench/peak, linked with -lopenblas. */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>

/* OpenBLAS's own controls; declared here because Debian's cblas.h may be
 * the reference one, which lacks them. */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int online_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  return 1;
}

/* ---- triad ------------------------------------------------------------------ */

enum { TRIAD_PASSES = 10 };

enum { K_TRIAD, K_COPY_NT, K_READ };

typedef struct Triad {
  double *a, *b, *c;
  size_t n;
  int nthreads, kind;
  double sums[64]; /* K_READ: each thread's sum (kept: the loop is not dead) */
  pthread_barrier_t barrier;
  double best; /* seconds for the fastest pass */
} Triad;

typedef struct Worker {
  Triad *t;
  int id;
} Worker;

#if defined(__x86_64__)
#include <emmintrin.h>
/* a[lo, hi) = b[lo, hi) by non-temporal stores (from the first 16-byte
 * boundary; malloc's arrays are 16-byte aligned) */
static void copy_nt(double *a, const double *b, size_t lo, size_t hi) {
  size_t i = lo;
  if (i < hi && ((uintptr_t)(a + i) & 15)) a[i] = b[i], i++;
  for (; i + 2 <= hi; i += 2) _mm_stream_pd(a + i, _mm_loadu_pd(b + i));
  for (; i < hi; i++) a[i] = b[i];
  _mm_sfence();
}
static double sum(const double *b, size_t lo, size_t hi) {
  __m128d s0 = _mm_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
  size_t i = lo;
  for (; i + 8 <= hi; i += 8) {
    s0 = _mm_add_pd(s0, _mm_loadu_pd(b + i));
    s1 = _mm_add_pd(s1, _mm_loadu_pd(b + i + 2));
    s2 = _mm_add_pd(s2, _mm_loadu_pd(b + i + 4));
    s3 = _mm_add_pd(s3, _mm_loadu_pd(b + i + 6));
  }
  double r[2];
  _mm_storeu_pd(r, _mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)));
  double t = r[0] + r[1];
  for (; i < hi; i++) t += b[i];
  return t;
}
#else
static void copy_nt(double *a, const double *b, size_t lo, size_t hi) { memcpy(a + lo, b + lo, (hi - lo) * sizeof *a); }
static double sum(const double *b, size_t lo, size_t hi) {
  double s[4] = {0};
  size_t i = lo;
  for (; i + 4 <= hi; i += 4)
    for (int k = 0; k < 4; k++) s[k] += b[i + k];
  for (; i < hi; i++) s[0] += b[i];
  return s[0] + s[1] + s[2] + s[3];
}
#endif

/* Each thread touches its own slice first, so that its pages are local to
 * it, then runs the passes; thread 0 times them between two barriers. */
static void *triad_worker(void *arg) {
  Worker *w = arg;
  Triad *t = w->t;
  size_t lo = t->n * (size_t)w->id / (size_t)t->nthreads;
  size_t hi = t->n * (size_t)(w->id + 1) / (size_t)t->nthreads;
  double *a = t->a, *b = t->b, *c = t->c;
  for (size_t i = lo; i < hi; i++) a[i] = 0.0, b[i] = 1.0, c[i] = 2.0;
  const double s = 3.0;
  for (int pass = 0; pass < TRIAD_PASSES; pass++) {
    pthread_barrier_wait(&t->barrier);
    double t0 = now();
    if (t->kind == K_TRIAD) {
      for (size_t i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
    } else if (t->kind == K_COPY_NT) {
      copy_nt(a, b, lo, hi);
    } else if (w->id < 64) {
      t->sums[w->id] += sum(b, lo, hi);
    }
    pthread_barrier_wait(&t->barrier);
    double dt = now() - t0;
    if (w->id == 0 && dt < t->best) t->best = dt;
  }
  return NULL;
}

/* Returns GB/s (1e9 bytes) of pattern `kind`, or a negative number on
 * failure. */
static double bandwidth(size_t n, int nthreads, int kind) {
  Triad t = {.n = n, .nthreads = nthreads, .kind = kind, .best = 1e30};
  t.a = malloc(n * sizeof(double));
  t.b = malloc(n * sizeof(double));
  t.c = malloc(n * sizeof(double));
  Worker *w = calloc((size_t)nthreads, sizeof *w);
  pthread_t *th = calloc((size_t)nthreads, sizeof *th);
  double gbs = -1.0;
  if (!t.a || !t.b || !t.c || !w || !th) goto done;
  if (pthread_barrier_init(&t.barrier, NULL, (unsigned)nthreads) != 0) goto done;
  int started = 0;
  for (int i = 0; i < nthreads; i++) {
    w[i] = (Worker){&t, i};
    if (i > 0 && pthread_create(&th[i], NULL, triad_worker, &w[i]) != 0) break;
    started = i + 1;
  }
  if (started == nthreads) triad_worker(&w[0]);
  for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
  pthread_barrier_destroy(&t.barrier);
  /* A check that the loop ran and was not optimised away. */
  double sum_all = 0;
  for (int i = 0; i < nthreads && i < 64; i++) sum_all += t.sums[i];
  bool ran = kind == K_TRIAD ? t.a[n / 2] == 7.0 : kind == K_COPY_NT ? t.a[n / 2] == 1.0 : sum_all == TRIAD_PASSES * (double)n;
  double bytes = (kind == K_TRIAD ? 3.0 : kind == K_COPY_NT ? 2.0 : 1.0) * sizeof(double) * (double)n;
  if (started == nthreads && ran) gbs = bytes / t.best / 1e9;
done:
  free(t.a), free(t.b), free(t.c), free(w), free(th);
  return gbs;
}

/* ---- gemm ------------------------------------------------------------------- */

/* Best GFLOP/s of 3 runs (after one warm-up) of C = A B, n x n, in single
 * (dbl = 0) or double precision; negative on allocation failure. */
static double gemm(int n, int dbl) {
  size_t nn = (size_t)n * (size_t)n, esz = dbl ? sizeof(double) : sizeof(float);
  void *a = malloc(nn * esz), *b = malloc(nn * esz), *c = malloc(nn * esz);
  double best = 1e30;
  if (!a || !b || !c) {
    free(a), free(b), free(c);
    return -1.0;
  }
  for (size_t i = 0; i < nn; i++) {
    double v = (double)((i * 7919u) % 1000u) / 1000.0 - 0.5;
    if (dbl) ((double *)a)[i] = v, ((double *)b)[i] = -v, ((double *)c)[i] = 0;
    else ((float *)a)[i] = (float)v, ((float *)b)[i] = (float)-v, ((float *)c)[i] = 0;
  }
  for (int rep = 0; rep < 4; rep++) {
    double t0 = now();
    if (dbl)
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    else
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double dt = now() - t0;
    if (rep > 0 && dt < best) best = dt;
  }
  free(a), free(b), free(c);
  return 2.0 * (double)n * (double)n * (double)n / best / 1e9;
}

/* ---- main ------------------------------------------------------------------- */

static double max2(double a, double b) { return a > b ? a : b; }

int main(int argc, char **argv) {
  int quick = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) {
      quick = 1;
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: peak [--quick]\n"
             "Measures memory bandwidth (STREAM triad) and BLAS GFLOP/s on all\n"
             "cores and on one; prints JSON. --quick: tiny sizes, for smoke tests.\n");
      return 0;
    } else {
      fprintf(stderr, "error: unknown option '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  int cores = online_cores();
  size_t n = quick ? (size_t)1 << 18 : (size_t)1 << 24; /* doubles per array */
  static const int sizes_full[] = {1024, 1536, 2048}, sizes_quick[] = {128};
  const int *sizes = quick ? sizes_quick : sizes_full;
  int nsizes = quick ? 1 : 3;

  double triad_all = bandwidth(n, cores, K_TRIAD), triad_one = bandwidth(n, 1, K_TRIAD);
  double copy_all = bandwidth(n, cores, K_COPY_NT), read_all = bandwidth(n, cores, K_READ);
  if (triad_all < 0 || triad_one < 0 || copy_all < 0 || read_all < 0) {
    fprintf(stderr, "error: triad failed (out of memory or threads)\n");
    return 1;
  }
  int blas_threads = openblas_get_num_threads();
  double best[2][2] = {{0}}; /* [dbl][one core] */
  printf("{\n  \"cores\": %d,\n  \"quick\": %s,\n", cores, quick ? "true" : "false");
  printf("  \"triad_array_bytes\": %zu,\n", n * sizeof(double));
  printf("  \"triad_gbs\": {\"all\": %.3f, \"one\": %.3f},\n", triad_all, triad_one);
  printf("  \"copy_nt_gbs\": {\"all\": %.3f},\n  \"read_gbs\": {\"all\": %.3f},\n", copy_all, read_all);
  printf("  \"gemm\": [");
  for (int one = 0; one < 2; one++) {
    openblas_set_num_threads(one ? 1 : blas_threads);
    for (int dbl = 0; dbl < 2; dbl++)
      for (int k = 0; k < nsizes; k++) {
        double g = gemm(sizes[k], dbl);
        if (g < 0) {
          fprintf(stderr, "error: gemm n=%d: out of memory\n", sizes[k]);
          return 1;
        }
        best[dbl][one] = max2(best[dbl][one], g);
        printf("%s\n    {\"type\": \"%s\", \"n\": %d, \"threads\": %d, \"gflops\": %.3f}",
               one || dbl || k ? "," : "", dbl ? "f64" : "f32", sizes[k], one ? 1 : blas_threads, g);
      }
  }
  openblas_set_num_threads(blas_threads);
  printf("\n  ],\n");
  printf("  \"sgemm_gflops\": {\"all\": %.3f, \"one\": %.3f},\n", best[0][0], best[0][1]);
  printf("  \"dgemm_gflops\": {\"all\": %.3f, \"one\": %.3f},\n", best[1][0], best[1][1]);
  printf("  \"blas_threads\": %d,\n", blas_threads);
  const char *cfg = openblas_get_config();
  printf("  \"blas\": \"");
  for (const char *p = cfg ? cfg : ""; *p; p++)
    if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20) putchar(*p);
  printf("\"\n}\n");
  return 0;
}
