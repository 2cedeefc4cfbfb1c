/* f64 GEMMs of large products on an AVX-512 micro-kernel of our own:
 * the f64 counterpart of fgemm.c's f32_gemm_kernel_big (same layout,
 * same reasons; see there), where OpenBLAS's dgemm split over the
 * threads packs all of B in every thread and needs the operand scan
 * (BLAS may skip a zero factor).
 *
 * B is packed once, over the threads, into panels of NR = 32 columns
 * (4 vectors of 8 doubles; zero-padded past n): panel p's step k at
 * pb + (p * K + k) * NR. The rows of C are split into blocks whose rows
 * of A, packed into MR-row tiles step after step (the broadcasts then
 * read consecutive doubles), stay in L2 while every panel of B passes
 * under them, KC steps at a time (KC x NR doubles: 32 KiB, in L1); the
 * next slice of B is prefetched into L2 meanwhile. The micro-kernel
 * keeps MR x 4 = 24 vector accumulators (of 32 registers: 4 for B, 1
 * broadcast), stored once per slice with the edge columns masked; C
 * accumulates in place over the slices. Every element of C is the fused
 * multiply-add chain over k = 0, 1, ... from +0 whatever the split, so
 * results do not depend on the thread count, and every product is taken
 * (no zero skipped: inf and NaN propagate). */
#include <string.h>

#include "cpu/fgemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))

enum { MR = 6, NV = 4, NR = 8 * NV, KC = 128 };
/* packed A per block of rows: 1 MiB, half the L2 */
#define BIG_A_DOUBLES ((int64_t)1 << 17)

/* steps per block of A */
#define BIG_KB 1024
#define BIG_MIN 256
#define BIG_MAX_N 1024

/* The rows x NR tile of C at c (row stride ldc; columns masked by st) =
 * (when accum, the tile itself +) the packed tile of A at a (step k's
 * rows at a + k * MR) times K rows of the packed panel at b. */
#define DEFINE_KERNEL(ROWS)                                                                                  \
  TGT static void kernel_##ROWS(int64_t K, const double *a, const double *b, double *c, int64_t ldc,         \
                                const __mmask8 *st, bool accum) {                                             \
    __m512d acc[ROWS][NV];                                                                                    \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] =                                        \
          accum ? _mm512_maskz_loadu_pd(st[v], c + r * ldc + 8 * v) : _mm512_setzero_pd();                    \
    }                                                                                                         \
    _Pragma("GCC unroll 4") for (int64_t k = 0; k < K; k++) {                                                 \
      const double *bk = b + k * NR, *ak = a + k * MR;                                                        \
      __m512d bv[NV] = {_mm512_load_pd(bk), _mm512_load_pd(bk + 8), _mm512_load_pd(bk + 16),                  \
                        _mm512_load_pd(bk + 24)};                                                             \
      _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                \
        __m512d av = _mm512_set1_pd(ak[r]);                                                                   \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] = _mm512_fmadd_pd(av, bv[v], acc[r][v]); \
      }                                                                                                       \
    }                                                                                                         \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++)                                                    \
          _mm512_mask_storeu_pd(c + r * ldc + 8 * v, st[v], acc[r][v]);                                       \
    }                                                                                                         \
  }
DEFINE_KERNEL(1)
DEFINE_KERNEL(2)
DEFINE_KERNEL(3)
DEFINE_KERNEL(4)
DEFINE_KERNEL(5)
DEFINE_KERNEL(6)

typedef void (*Kernel)(int64_t, const double *, const double *, double *, int64_t, const __mmask8 *, bool);
static const Kernel kernels[MR + 1] = {NULL, kernel_1, kernel_2, kernel_3, kernel_4, kernel_5, kernel_6};

/* n doubles of scratch starting on a 64-byte boundary (*raw: what to
 * cxla_free), or NULL (fgemm.c's alloc_lines: aligned packed rows). */
static double *alloc_lines(int64_t n, void **raw) {
  *raw = cxla_malloc((size_t)n * sizeof(double) + 64);
  return *raw ? (double *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63) : NULL;
}

/* A's row stride (not transposed: lda, else k; transposed, its rows are
 * the steps and lda is ignored). */
static int64_t a_lda(const F32Gemm *g) { return g->lda && !g->trans_a ? g->lda : g->k; }

typedef struct Job {
  const F32Gemm *g;
  const double *a; /* this batch element's A */
  const double *pb; /* its B, packed */
  double *c;
  int64_t mb; /* rows per block, a multiple of MR */
  unsigned csr;
} Job;

/* Rows [i0, i1) of A (row i, step k at i * sai + k * sak), K steps, as
 * tiles of MR rows: tile t's step k at dst + (t * K + k) * MR; the rows
 * past i1 in the last tile are not written (the kernel reads only its
 * rows). */
TGT static void pack_a(const double *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1,
                       double *dst) {
  for (int64_t i = i0; i < i1; i += MR) {
    int64_t rows = i1 - i < MR ? i1 - i : MR;
    double *d = dst + (i - i0) * K;
    if (sak == 1 && rows == MR) {
      const double *r0 = A + i * sai;
      for (int64_t k = 0; k < K; k++)
        for (int r = 0; r < MR; r++) d[k * MR + r] = r0[r * sai + k];
      continue;
    }
    if (sai == 1) {
      /* A transposed: a step's rows are consecutive doubles */
      const __mmask8 mk = (__mmask8)((1u << rows) - 1);
      for (int64_t k = 0; k < K; k++) _mm512_mask_storeu_pd(d + k * MR, mk, _mm512_maskz_loadu_pd(mk, A + i + k * sak));
      continue;
    }
    for (int64_t r = 0; r < rows; r++)
      for (int64_t k = 0; k < K; k++) d[k * MR + r] = A[(i + r) * sai + k * sak];
  }
}

TGT static cxla_status run_blocks(void *arg, int64_t lo, int64_t hi) {
  const Job *j = arg;
  const F32Gemm *g = j->g;
  int64_t M = g->m, N = g->n, K = g->k, ldc = g->ldc ? g->ldc : N, npanels = (N + NR - 1) / NR;
  int64_t sai = g->trans_a ? 1 : a_lda(g), sak = g->trans_a ? M : 1, kb = K < BIG_KB ? K : BIG_KB;
  void *pa_raw;
  double *pa = alloc_lines(j->mb * kb, &pa_raw);
  if (!pa) return cxla_oom();
  unsigned old = _mm_getcsr();
  _mm_setcsr(j->csr);
  for (int64_t rb = lo; rb < hi; rb++) {
    int64_t i0 = rb * j->mb, i1 = i0 + j->mb < M ? i0 + j->mb : M, ntiles = (i1 - i0 + MR - 1) / MR;
    for (int64_t kb0 = 0; kb0 < K; kb0 += kb) {
      int64_t kbl = K - kb0 < kb ? K - kb0 : kb;
      pack_a(j->a + kb0 * sak, sai, sak, kbl, i0, i1, pa);
      for (int64_t pn = 0; pn < npanels; pn++) {
        int64_t j0 = pn * NR, nc = N - j0 < NR ? N - j0 : NR;
        const double *pp = j->pb + pn * K * NR + kb0 * NR;
        double *C = j->c + j0;
        __mmask8 st[NV];
        for (int v = 0; v < NV; v++) {
          int64_t left = nc - 8 * v;
          st[v] = left >= 8 ? (__mmask8)0xff : left <= 0 ? (__mmask8)0 : (__mmask8)((1u << left) - 1);
        }
        for (int64_t k0 = 0; k0 < kbl; k0 += KC) {
          int64_t kc = kbl - k0 < KC ? kbl - k0 : KC;
          /* the next slice of B (these steps' next KC, else the next
           * panel's first), fetched into L2 a share per tile of rows */
          const double *nx = k0 + KC < kbl ? pp + (k0 + KC) * NR : pn + 1 < npanels ? pp + K * NR : NULL;
          int64_t nk = k0 + KC < kbl ? kbl - k0 - KC : kbl;
          int64_t nlines = nx ? (nk < KC ? nk : KC) * NR / 8 : 0, per = (nlines + ntiles - 1) / ntiles, done = 0;
          for (int64_t i = i0; i < i1; i += MR) {
            int64_t rows = i1 - i < MR ? i1 - i : MR;
            for (int64_t q = 0; q < per && done < nlines; q++, done++)
              _mm_prefetch((const char *)nx + done * 64, _MM_HINT_T1);
            kernels[rows](kc, pa + (i - i0) * kbl + k0 * MR, pp + k0 * NR, C + i * ldc, ldc, st, kb0 + k0 > 0);
          }
        }
      }
    }
  }
  _mm_setcsr(old);
  cxla_free(pa_raw);
  return NULL;
}

/* B (k x n, row stride ldb; stored n x k when trans) packed into panels,
 * steps [lo, hi) each: row k of B read along once across all panels (not
 * transposed), or column k of B^T gathered (transposed). */
/* rows of B per pass over the panels in pack_b */
#define PACK_ROWS 32
typedef struct PackB {
  const double *b;
  int64_t ldb, n, k;
  bool trans;
  double *dst;
} PackB;

TGT static cxla_status pack_b(void *arg, int64_t lo, int64_t hi) {
  const PackB *p = arg;
  int64_t np = (p->n + NR - 1) / NR, full = p->n / 8;
  __mmask8 tail = (__mmask8)((1u << (p->n % 8)) - 1);
  /* PACK_ROWS rows at a time, panel after panel: each panel's rows are
   * written as one contiguous run (row after row across all panels
   * writes to np places 8 KiB and more apart: 2.2 ms for 1024 x 1024 on
   * one thread) while the rows read stay in L1 */
  for (int64_t k0 = lo; k0 < hi; k0 += PACK_ROWS)
    for (int64_t pn = 0; pn < np; pn++)
      for (int64_t k = k0; k < hi && k < k0 + PACK_ROWS; k++) {
        const double *s = p->b + k * p->ldb;
        double *d = p->dst + (pn * p->k + k) * NR;
        if (p->trans) {
          for (int64_t jj = 0; jj < NR; jj++) d[jj] = pn * NR + jj < p->n ? p->b[(pn * NR + jj) * p->k + k] : 0.0;
          continue;
        }
        for (int v = 0; v < NV; v++) {
          int64_t q = pn * NV + v;
          __m512d x = q < full ? _mm512_loadu_pd(s + 8 * q)
                               : q == full ? _mm512_maskz_loadu_pd(tail, s + 8 * q) : _mm512_setzero_pd();
          _mm512_store_pd(d + 8 * v, x);
        }
      }
  return NULL;
}

/* Per core, 1024^3 against OpenBLAS's dgemm: see f64_gemm_big_fits in
 * fgemm.h. Transposed operands run (pack_a / pack_b gather them) but are
 * left to BLAS: the gathers are not tuned. */
bool f64_gemm_big_fits(const F32Gemm *g) {
  return f32_gemm_kernel_available() && !g->trans_a && !g->trans_b && !g->lda && !g->ldb && !g->ldc &&
         g->m >= BIG_MIN && g->n >= BIG_MIN && g->k >= BIG_MIN && g->k <= BIG_KB && g->n <= BIG_MAX_N;
}

cxla_status f64_gemm_kernel_big(const F32Gemm *g, const double *a, const double *b, double *c, RtPool *pool,
                                int nthreads) {
  if (!f32_gemm_kernel_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX-512");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  int64_t M = g->m, N = g->n, K = g->k, ldb = g->ldb && !g->trans_b ? g->ldb : N, ldc = g->ldc ? g->ldc : N;
  int64_t lda = a_lda(g);
  if (K <= 0) {
    /* empty sums: +0 */
    for (int64_t bi = 0; bi < g->batch; bi++)
      for (int64_t i = 0; i < M; i++) memset(c + (bi * M + i) * ldc, 0, (size_t)N * sizeof(double));
    return NULL;
  }
  int64_t np = (N + NR - 1) / NR;
  void *pb_raw;
  double *pb = alloc_lines(np * K * NR, &pb_raw);
  if (!pb) return cxla_oom();
  /* blocks of rows whose packed A is at most BIG_A_DOUBLES, at least two
   * per thread when there are rows enough */
  int64_t mb = BIG_A_DOUBLES / (K < BIG_KB ? K : BIG_KB), th = pool && nthreads > 1 ? nthreads : 1;
  if (mb > (M + 2 * th - 1) / (2 * th)) mb = (M + 2 * th - 1) / (2 * th);
  mb = mb < MR ? MR : mb / MR * MR;
  Job j = {.g = g, .pb = pb, .mb = mb, .csr = _mm_getcsr()};
  cxla_status s = NULL;
  for (int64_t bi = 0; bi < g->batch && !s; bi++) {
    PackB pk = {.b = b + bi * K * ldb, .ldb = ldb, .n = N, .k = K, .trans = g->trans_b, .dst = pb};
    s = rt_pool_parallel_for(pool, K, 64, nthreads, pack_b, &pk);
    j.a = a + bi * M * lda;
    j.c = c + bi * M * ldc;
    if (!s) s = rt_pool_parallel_for(pool, (M + mb - 1) / mb, 1, nthreads, run_blocks, &j);
  }
  cxla_free(pb_raw);
  return s;
}

#else

bool f64_gemm_big_fits(const F32Gemm *g) {
  (void)g;
  return false;
}

cxla_status f64_gemm_kernel_big(const F32Gemm *g, const double *a, const double *b, double *c, RtPool *pool,
                                int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f64 GEMM kernel is built for x86-64 only");
}

#endif
