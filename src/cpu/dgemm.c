/* f64 GEMMs of large products: gemm_big.c's driver (B packed once, A in
 * L2-sized blocks of rows; see gemm_big.h) on an AVX-512 micro-kernel of
 * doubles, where OpenBLAS's dgemm split over the threads packs all of B
 * in every thread and needs the operand scan (BLAS may skip a zero
 * factor). Every element of C is the fused multiply-add chain over
 * k = 0, 1, ... from +0 whatever the split, so results do not depend on
 * the thread count, and every product is taken (inf and NaN propagate). */

#include "cpu/gemm_big.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))

enum { MR = 6, NV = 4, NR = 8 * NV, KC = 128 };
/* steps per block of A, at most: k = 1024 in one block (C written once;
 * twice as many blocks of rows, each streaming all of the packed B from
 * L3). Zen 5 (1 MiB L2), 1024^3: 9.4 against 10.0 ms in two blocks of
 * 512 steps (6 alternations of 20 runs); an Intel core with AMX (2 MiB
 * L2) had measured two blocks 1% faster. */
#define BIG_KB 1024
/* f64_gemm_big_fits: k at most */
#define BIG_MAX_K 1024
/* A's steps ahead fetched into L1 (A streams from L2) */
#define A_AHEAD 16

/* The rows x NR tile at c (row stride ldc; columns masked by st) =
 * (when accum, the tile at ci, row stride ldi, +) the packed tile of A at
 * a (step k's rows at a + k * MR) times K rows of the packed panel at b. */
#define DEFINE_KERNEL(ROWS)                                                                                   \
  TGT static void kernel_##ROWS(int64_t K, const double *a, const double *b, const double *ci, int64_t ldi,   \
                                double *c, int64_t ldc, const __mmask8 *st, bool accum, const char *pf,       \
                                int64_t npf) {                                                                \
    __m512d acc[ROWS][NV];                                                                                    \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] =                                        \
          accum ? _mm512_maskz_loadu_pd(st[v], ci + r * ldi + 8 * v) : _mm512_setzero_pd();                   \
    }                                                                                                         \
    /* the lines at pf, one per step; then A's lines A_AHEAD steps ahead,                                     \
     * three per four steps (the address as an integer: past the tile's end                                   \
     * it points nowhere) */                                                                                  \
    GEMM_BIG_PREFETCH_STEPS(k, K, pf, npf, STEP_##ROWS);                                                      \
    for (; k + 4 <= K; k += 4) {                                                                              \
      uintptr_t pa = (uintptr_t)(a + k * MR) + A_AHEAD * MR * sizeof(double);                                 \
      _mm_prefetch((const char *)pa, _MM_HINT_T0);                                                            \
      STEP_D(k, ROWS);                                                                                        \
      _mm_prefetch((const char *)(pa + 64), _MM_HINT_T0);                                                     \
      STEP_D(k + 1, ROWS);                                                                                    \
      _mm_prefetch((const char *)(pa + 128), _MM_HINT_T0);                                                    \
      STEP_D(k + 2, ROWS);                                                                                    \
      STEP_D(k + 3, ROWS);                                                                                    \
    }                                                                                                         \
    for (; k < K; k++) STEP_D(k, ROWS);                                                                       \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++)                                                    \
          _mm512_mask_storeu_pd(c + r * ldc + 8 * v, st[v], acc[r][v]);                                       \
    }                                                                                                         \
  }
/* step k of a kernel of ROWS rows: acc += A's step-k column times B's row */
#define STEP_D(k, ROWS)                                                                                       \
  do {                                                                                                        \
    const double *bk = b + (k) * NR, *ak = a + (k) * MR;                                                      \
    __m512d bv[NV] = {_mm512_load_pd(bk), _mm512_load_pd(bk + 8), _mm512_load_pd(bk + 16),                    \
                      _mm512_load_pd(bk + 24)};                                                               \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                  \
      __m512d av = _mm512_set1_pd(ak[r]);                                                                     \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] = _mm512_fmadd_pd(av, bv[v], acc[r][v]); \
    }                                                                                                         \
  } while (0)
#define STEP_1(k) STEP_D(k, 1)
#define STEP_2(k) STEP_D(k, 2)
#define STEP_3(k) STEP_D(k, 3)
#define STEP_4(k) STEP_D(k, 4)
#define STEP_5(k) STEP_D(k, 5)
#define STEP_6(k) STEP_D(k, 6)
DEFINE_KERNEL(1)
DEFINE_KERNEL(2)
DEFINE_KERNEL(3)
DEFINE_KERNEL(4)
DEFINE_KERNEL(5)
DEFINE_KERNEL(6)

typedef void (*Kernel)(int64_t, const double *, const double *, const double *, int64_t, double *, int64_t,
                       const __mmask8 *, bool, const char *, int64_t);
static const Kernel kernels[MR + 1] = {NULL, kernel_1, kernel_2, kernel_3, kernel_4, kernel_5, kernel_6};

TGT static void big_tile(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi, void *c,
                         int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf) {
  const __mmask8 st[NV] = {(__mmask8)cols, (__mmask8)(cols >> 8), (__mmask8)(cols >> 16), (__mmask8)(cols >> 24)};
  kernels[rows](k, a, b, ci, ldi, c, ldc, st, accum, pf, npf);
}

TGT static void big_pack_a(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst) {
  gemm_big_pack_a(sizeof(double), MR, A, sai, sak, K, i0, i1, dst);
}

TGT static void big_pack_slice(const void *b, int64_t ldb, bool trans, int64_t n, int64_t k, int64_t j0, int64_t k0,
                               int64_t k1, void *dst) {
  gemm_big_pack_slice(sizeof(double), NR, b, ldb, trans, n, k, j0, k0, k1, dst);
}

/* packed A per block of rows: 512 KiB, a quarter of this Intel core's L2
 * and half of Zen 5's (two threads, each side's median of 150-250
 * calls alternated in one process: 1024^3 11.96 -> 11.74 ms, 768 x 1024 x 1024
 * 9.16 -> 8.97, against 1 MiB, half this L2); B transposed
 * gathered by gemm_big_pack_slice (not tuned: f64_gemm_big_fits leaves
 * it to BLAS). B packed a slice at a time as first needed: 1024^3 on two
 * threads, whole processes alternated, 10.8 against 11.2 ms */
static const GemmBigType big_f64 = {.esize = sizeof(double), .mr = MR, .nr = NR, .kc = KC, .kb = BIG_KB,
                                    .a_bytes = (int64_t)1 << 19, .scratch = true, .tile = big_tile, .pack_a = big_pack_a,
                                    .pack_slice = big_pack_slice};

/* Per core, 1024^3 against OpenBLAS's dgemm: see f64_gemm_big_fits in
 * fgemm.h. Transposed operands run (pack_a / pack_slice gather them) but are
 * left to BLAS: the gathers are not tuned. */
bool f64_gemm_big_fits(const F32Gemm *g) {
  return f32_gemm_kernel_available() && !g->trans_a && !g->trans_b && !g->lda && !g->ldb && !g->ldc &&
         g->m >= GEMM_BIG_MIN && g->n >= GEMM_BIG_MIN && g->k >= GEMM_BIG_MIN && g->k <= BIG_MAX_K &&
         g->n <= GEMM_BIG_MAX_N;
}

cxla_status f64_gemm_kernel_big(const F32Gemm *g, const double *a, const double *b, double *c, RtPool *pool,
                                int nthreads) {
  if (!f32_gemm_kernel_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX-512");
  return gemm_big_run(&big_f64, g, a, b, NULL, c, pool, nthreads);
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
