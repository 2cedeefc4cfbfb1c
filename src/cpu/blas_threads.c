/* blas_threads.c: OpenBLAS inside cxla's threads.
 *
 * cxla runs every OpenBLAS call on one OpenBLAS thread and splits a GEMM
 * over the execution's own thread pool itself: each slice is one
 * single-threaded call on a block of rows (or columns) of C.
 *
 * Why not OpenBLAS's own threads: after each call that uses them,
 * OpenBLAS's worker threads busy-wait (a sched_yield loop) for about
 * 0.1 s before they sleep -- and they do the same for 0.1 s after the
 * library loads. While they spin they take cores from the execution's
 * pool, whose next kernels then run up to 2x slower (measured: a 3x3
 * convolution 4 -> 8 ms in the first 0.1 s of a process; the fused kernels
 * after each BLAS GEMM of a transformer block likewise). With one pool
 * doing all the work there is nothing to fight over. A split GEMM packs
 * its shared operand once per slice where OpenBLAS shares the packing:
 * 2-5% slower on a lone 1024-2048 GEMM on 2 cores (measured), against
 * the fight it removes.
 *
 * The thread count is one process-wide setting of OpenBLAS's
 * (openblas_set_num_threads). The application may have chosen its own
 * count for its own BLAS calls: cxla sets 1 only while at least one of
 * its executions runs (cpu_blas_enter / cpu_blas_leave), and when the
 * last of them ends, puts back the count that was set when the first of
 * them changed it. That bookkeeping is the one mutable global state of
 * the library: a count of running executions and the count to restore,
 * under a mutex. A change the application makes from another thread
 * while an execution runs is overwritten when the last execution ends. */
#include <cblas.h>
#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "cpu/cpu_internal.h"

static pthread_mutex_t g_blas_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_blas_users;       /* executions running */
static int g_blas_saved = -1;  /* the count before cxla changed it, or -1: not changed */

void cpu_blas_enter(void) {
  pthread_mutex_lock(&g_blas_mu);
  if (g_blas_users++ == 0) {
    int now = openblas_get_num_threads();
    if (now != 1) {
      g_blas_saved = now;
      openblas_set_num_threads(1);
    }
  }
  pthread_mutex_unlock(&g_blas_mu);
}

void cpu_blas_leave(void) {
  pthread_mutex_lock(&g_blas_mu);
  if (--g_blas_users == 0 && g_blas_saved >= 0) {
    if (openblas_get_num_threads() != g_blas_saved) openblas_set_num_threads(g_blas_saved);
    g_blas_saved = -1;
  }
  pthread_mutex_unlock(&g_blas_mu);
}

/* ---- GEMMs split over the execution's threads ---- */

/* Below this many multiply-adds per product a split costs more than it
 * saves (a pool dispatch is a few microseconds). */
#define SPLIT_MIN_MACS ((int64_t)1 << 18)
/* Blocks of rows or columns start at multiples of this (OpenBLAS's
 * register tiles are at most 16 wide). */
#define SPLIT_ALIGN 16

typedef struct {
  const CpuBlasGemm *g;
  int64_t parts;   /* slices per batch element */
  int64_t chunk;   /* rows (or columns) of C per slice */
  bool rows;       /* slices are blocks of rows of C, else of columns */
  size_t es;       /* bytes per element */
  unsigned csr;    /* the caller's FTZ/DAZ mode */
} Split;

/* y = op(M) x as a GEMV of g's type: M rows x cols of op(M), M stored
 * with leading dim ldm (transposed when tm); x's elements inc apart,
 * y's incy apart. */
static void gemv(const CpuBlasGemm *g, bool tm, int rows, int cols, const char *M, int ldm, const char *x, int inc,
                 char *y, int incy) {
  enum CBLAS_TRANSPOSE t = tm ? CblasTrans : CblasNoTrans;
  int r = tm ? cols : rows, c = tm ? rows : cols; /* M as stored */
  switch (g->type) {
  case T_F32:
    cblas_sgemv(CblasRowMajor, t, r, c, 1.0f, (const float *)M, ldm, (const float *)x, inc, 0.0f, (float *)y, incy);
    break;
  case T_F64:
    cblas_dgemv(CblasRowMajor, t, r, c, 1.0, (const double *)M, ldm, (const double *)x, inc, 0.0, (double *)y, incy);
    break;
  case T_C64: {
    float one[2] = {1, 0}, zero[2] = {0, 0};
    cblas_cgemv(CblasRowMajor, t, r, c, one, M, ldm, x, inc, zero, y, incy);
    break;
  }
  default: {
    double one[2] = {1, 0}, zero[2] = {0, 0};
    cblas_zgemv(CblasRowMajor, t, r, c, one, M, ldm, x, inc, zero, y, incy);
    break;
  }
  }
}

/* One block of C = op(A) op(B), m x n. A matrix times a vector (n or m
 * is 1) is a GEMV: OpenBLAS's GEMM would pack the whole matrix first for
 * one column of work (f32 4096 x 4096 times a vector, one thread: 5.8 ms,
 * 11 GB/s of a matrix it reads once). */
static void gemm_block(const CpuBlasGemm *g, int m, int n, const char *A, const char *B, char *C) {
  enum CBLAS_TRANSPOSE ta = g->trans_a ? CblasTrans : CblasNoTrans, tb = g->trans_b ? CblasTrans : CblasNoTrans;
  if (g->k > 0 && n == 1) { /* C's column = op(A) times B's column (B[k, 1]: elements ldb apart) */
    gemv(g, g->trans_a, m, g->k, A, g->lda, B, g->trans_b ? 1 : g->ldb, C, g->ldc);
    return;
  }
  if (g->k > 0 && m == 1) { /* C's row = op(B)^T times A's row */
    gemv(g, !g->trans_b, n, g->k, B, g->ldb, A, g->trans_a ? g->lda : 1, C, 1);
    return;
  }
  /* C zeroed here and the product added to it (beta 1: the same values
   * as beta 0, which never reads C): OpenBLAS zeroes C for beta 0 with a
   * scalar store per element before its kernel, and over a C that is not
   * in the cache (a kernel's scratch, kept from an earlier call) those
   * stores wait on memory: a bf16 1024^3 product's f32 C on a Zen 2, 10%
   * of its time in sgemm_beta; memset's wide stores: 13.0-13.7 -> 11.9
   * ms. */
  size_t es = (size_t)type_bytes(g->type);
  for (int i = 0; i < m; i++) memset(C + (size_t)i * (size_t)g->ldc * es, 0, (size_t)n * es);
  switch (g->type) {
  case T_F32:
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, g->k, 1.0f, (const float *)A, g->lda, (const float *)B, g->ldb, 1.0f,
                (float *)C, g->ldc);
    break;
  case T_F64:
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, g->k, 1.0, (const double *)A, g->lda, (const double *)B, g->ldb, 1.0,
                (double *)C, g->ldc);
    break;
  case T_C64: {
    float one[2] = {1, 0};
    cblas_cgemm(CblasRowMajor, ta, tb, m, n, g->k, one, A, g->lda, B, g->ldb, one, C, g->ldc);
    break;
  }
  default: {
    double one[2] = {1, 0};
    cblas_zgemm(CblasRowMajor, ta, tb, m, n, g->k, one, A, g->lda, B, g->ldb, one, C, g->ldc);
    break;
  }
  }
}

static cxla_status split_slice(void *arg, int64_t lo, int64_t hi) {
  const Split *s = arg;
  const CpuBlasGemm *g = s->g;
#if defined(__x86_64__)
  unsigned old = _mm_getcsr();
  _mm_setcsr(s->csr);
#endif
  for (int64_t u = lo; u < hi; u++) {
    int64_t bi = u / s->parts, p = u % s->parts, at = p * s->chunk;
    int64_t dim = s->rows ? g->m : g->n;
    if (at >= dim) continue;
    int64_t len = dim - at < s->chunk ? dim - at : s->chunk;
    const char *A = (const char *)g->a + (size_t)(bi * g->stride_a) * s->es;
    const char *B = (const char *)g->b + (size_t)(bi * g->stride_b) * s->es;
    char *C = (char *)g->c + (size_t)(bi * g->stride_c) * s->es;
    if (s->rows) {
      /* rows at.. of C: rows of A, or its columns when it is stored transposed */
      A += (size_t)(g->trans_a ? at : at * g->lda) * s->es;
      C += (size_t)(at * g->ldc) * s->es;
      gemm_block(g, (int)len, g->n, A, B, C);
    } else {
      /* columns at.. of C: columns of B, or its rows when stored transposed */
      B += (size_t)(g->trans_b ? at * g->ldb : at) * s->es;
      C += (size_t)at * s->es;
      gemm_block(g, g->m, (int)len, A, B, C);
    }
  }
#if defined(__x86_64__)
  _mm_setcsr(old);
#endif
  return NULL;
}

cxla_status cpu_blas_gemm(const CpuBlasGemm *g, RtPool *pool, int nthreads) {
  if (g->type != T_F32 && g->type != T_F64 && g->type != T_C64 && g->type != T_C128)
    return ERR(INTERNAL, "cpu_blas_gemm: no BLAS GEMM for this element type");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  Split s = {.g = g, .parts = 1, .rows = g->m >= g->n, .es = (size_t)type_bytes(g->type)};
  s.chunk = s.rows ? g->m : g->n;
#if defined(__x86_64__)
  s.csr = _mm_getcsr();
#endif
  int64_t macs = (int64_t)g->m * g->n * (g->k > 0 ? g->k : 1);
  if (pool && nthreads > 1 && g->batch < nthreads && macs >= SPLIT_MIN_MACS) {
    /* too few batch elements to go round: each product in blocks */
    int64_t dim = s.rows ? g->m : g->n, parts = nthreads;
    int64_t chunk = (dim + parts - 1) / parts;
    if (dim >= parts * SPLIT_ALIGN) chunk = (chunk + SPLIT_ALIGN - 1) / SPLIT_ALIGN * SPLIT_ALIGN;
    s.parts = (dim + chunk - 1) / chunk;
    s.chunk = chunk;
  }
  int64_t units = g->batch * s.parts;
  if (!pool || nthreads <= 1 || units <= 1 || (s.parts == 1 && macs * g->batch < SPLIT_MIN_MACS))
    return split_slice(&s, 0, units);
  return rt_pool_parallel_for(pool, units, 1, nthreads, split_slice, &s);
}
