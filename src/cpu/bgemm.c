/* bf16 x bf16 GEMMs accumulated in f32 on AVX512-BF16 (vdpbf16ps), for
 * the CPUs that have it and no AMX (intdot.c's bf16_gemm picks): AMD's
 * Zen 4 and 5, Intel's Cooper Lake. One vdpbf16ps adds to each of 16 f32
 * lanes the products of a pair of bf16 steps, so the product runs as an
 * f32-sized GEMM over ceil(k / 2) pair steps on gemm_big.c's driver (B
 * packed once, A in L2-sized blocks of rows): an element of A is the pair
 * (A[i][2q], A[i][2q + 1]) as one 32-bit word, broadcast; B's panels hold
 * (B[2q][j], B[2q + 1][j]) in lane j. Twice the f32 kernel's products per
 * instruction: 1024^3 on two Zen 5 cores in about half its time.
 *
 * Numerics are the instruction's (as amx.h's tile unit): each product is
 * exact in f32, the pair added to the lane as b[2q+1] a[2q+1] then
 * b[2q] a[2q], each addition rounded to nearest even, subnormal bf16
 * inputs read as zero and subnormal sums flushed to zero; inf and NaN
 * propagate. A bf16 result is the f32 sum rounded once, to nearest even
 * (f32_to_bf16). */
#include <string.h>

#include "cpu/gemm_big.h"
#include "cpu/intdot.h"
#include "runtime/scratch.h"

bool bf16_gemm_avx512_available(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512bw,avx512bf16")))

/* 6 x 64 tiles (24 accumulators), 128 pair steps of a panel per slice
 * (32 KiB: L1), all of k up to 2 x 2048 in one block of steps */
enum { MR = 6, NV = 4, NR = 16 * NV, KC = 128, KB = 2048 };
/* A's pair steps ahead of the step fetched into L1 (A streams from L2) */
#define A_AHEAD 16

/* step k of a kernel of ROWS rows: acc += A's pairs of step k times B's */
#define STEP_BF(k, ROWS)                                                                                  \
  do {                                                                                                    \
    const uint32_t *ak = a + (k) * MR;                                                                    \
    const __m512i *bk = (const __m512i *)(b + (k) * NR);                                                  \
    __m512i bv[NV] = {_mm512_load_si512(bk), _mm512_load_si512(bk + 1), _mm512_load_si512(bk + 2),       \
                      _mm512_load_si512(bk + 3)};                                                         \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                              \
      __m512i av = _mm512_set1_epi32((int)ak[r]);                                                         \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] =                                    \
          _mm512_dpbf16_ps(acc[r][v], (__m512bh)av, (__m512bh)bv[v]);                                     \
    }                                                                                                     \
  } while (0)

/* The ROWS x 64 tile at c (row stride ldc; columns masked by st; f32, or
 * bf16 rounded from the f32 sums when out16) = (when accum, the f32 tile
 * at ci, row stride ldi, +) K pair steps of the packed tile of A at a
 * (step k's rows at a + k * MR) times the packed panel at b (step k at
 * b + k * NR); the npf lines at pf fetched into L2 meanwhile
 * (gemm_big.h). */
#define DEFINE_KERNEL(ROWS)                                                                                 \
  TGT static void kernel_##ROWS(int64_t K, const uint32_t *a, const uint32_t *b, const float *ci,           \
                                int64_t ldi, void *c, int64_t ldc, const __mmask16 *st, bool accum,         \
                                const char *pf, int64_t npf, bool out16) {                                  \
    __m512 acc[ROWS][NV];                                                                                   \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] =                                      \
          accum ? _mm512_maskz_loadu_ps(st[v], ci + r * ldi + 16 * v) : _mm512_setzero_ps();                \
    }                                                                                                       \
    GEMM_BIG_PREFETCH_STEPS(k, K, pf, npf, STEP_##ROWS);                                                    \
    for (; k + 2 <= K; k += 2) {                                                                            \
      _mm_prefetch((const char *)((uintptr_t)(a + k * MR) + A_AHEAD * MR * 4), _MM_HINT_T0);                \
      STEP_BF(k, ROWS);                                                                                     \
      STEP_BF(k + 1, ROWS);                                                                                 \
    }                                                                                                       \
    for (; k < K; k++) STEP_BF(k, ROWS);                                                                    \
    if (out16) {                                                                                            \
      _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                              \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) _mm512_mask_cvtepi32_storeu_epi16(             \
            (uint16_t *)c + r * ldc + 16 * v, st[v], bf16_round16(_mm512_castps_si512(acc[r][v])));         \
      }                                                                                                     \
      return;                                                                                               \
    }                                                                                                       \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++)                                                  \
          _mm512_mask_storeu_ps((float *)c + r * ldc + 16 * v, st[v], acc[r][v]);                          \
    }                                                                                                       \
  }
#define STEP_1(k) STEP_BF(k, 1)
#define STEP_2(k) STEP_BF(k, 2)
#define STEP_3(k) STEP_BF(k, 3)
#define STEP_4(k) STEP_BF(k, 4)
#define STEP_5(k) STEP_BF(k, 5)
#define STEP_6(k) STEP_BF(k, 6)
DEFINE_KERNEL(1)
DEFINE_KERNEL(2)
DEFINE_KERNEL(3)
DEFINE_KERNEL(4)
DEFINE_KERNEL(5)
DEFINE_KERNEL(6)
#undef DEFINE_KERNEL

typedef void (*Kernel)(int64_t, const uint32_t *, const uint32_t *, const float *, int64_t, void *, int64_t,
                       const __mmask16 *, bool, const char *, int64_t, bool);
static const Kernel kernels[MR + 1] = {NULL, kernel_1, kernel_2, kernel_3, kernel_4, kernel_5, kernel_6};

static inline void tile_as(bool out16, int64_t rows, int64_t k, const void *a, const void *b, const void *ci,
                           int64_t ldi, void *c, int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf) {
  const __mmask16 st[NV] = {(__mmask16)cols, (__mmask16)(cols >> 16), (__mmask16)(cols >> 32),
                            (__mmask16)(cols >> 48)};
  kernels[rows](k, a, b, ci, ldi, c, ldc, st, accum, pf, npf, out16);
}

static void big_tile(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi, void *c,
                     int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf) {
  tile_as(false, rows, k, a, b, ci, ldi, c, ldc, cols, accum, pf, npf);
}

/* big_tile storing bf16 (c, ldc in bf16 elements): the last pass of the
 * bf16-result type */
static void big_tile_out(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi,
                         void *c, int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf) {
  tile_as(true, rows, k, a, b, ci, ldi, c, ldc, cols, accum, pf, npf);
}

/* Pair rows [lo, hi) of B (2 k x n bf16, row stride ldb) into panels of
 * 64 columns: pair row q of panel p at dst + (p * k + q) * 64 words, word
 * j = B[2q][64 p + j] | B[2q + 1][64 p + j] << 16 (zero past n). Two rows
 * of 32 columns interleave in one two-source permute per 16 words. */
TGT static void big_pack_b(const void *b, int64_t ldb, int64_t n, int64_t k, int64_t lo, int64_t hi, void *dst) {
  int16_t lo_ix[32], hi_ix[32];
  for (int j = 0; j < 16; j++) {
    lo_ix[2 * j] = (int16_t)j, lo_ix[2 * j + 1] = (int16_t)(32 + j);
    hi_ix[2 * j] = (int16_t)(16 + j), hi_ix[2 * j + 1] = (int16_t)(48 + j);
  }
  const __m512i ilo = _mm512_loadu_si512(lo_ix), ihi = _mm512_loadu_si512(hi_ix);
  int64_t np = (n + NR - 1) / NR;
  const uint16_t *B = b;
  for (int64_t q0 = lo; q0 < hi; q0 += GEMM_BIG_PACK_ROWS)
    for (int64_t pn = 0; pn < np; pn++) {
      int64_t j0 = pn * NR, nc = n - j0 < NR ? n - j0 : NR;
      __mmask32 m0 = nc >= 32 ? 0xffffffffu : (__mmask32)((1u << nc) - 1);
      __mmask32 m1 = nc >= 64 ? 0xffffffffu : nc <= 32 ? 0 : (__mmask32)((1u << (nc - 32)) - 1);
      for (int64_t q = q0; q < hi && q < q0 + GEMM_BIG_PACK_ROWS; q++) {
        const uint16_t *r0 = B + 2 * q * ldb + j0, *r1 = r0 + ldb;
        __m512i *d = (__m512i *)((uint32_t *)dst + (pn * k + q) * NR);
        for (int h = 0; h < 2; h++) {
          __mmask32 m = h ? m1 : m0;
          __m512i x = _mm512_maskz_loadu_epi16(m, r0 + 32 * h), y = _mm512_maskz_loadu_epi16(m, r1 + 32 * h);
          _mm512_store_si512(d + 2 * h, _mm512_permutex2var_epi16(x, ilo, y));
          _mm512_store_si512(d + 2 * h + 1, _mm512_permutex2var_epi16(x, ihi, y));
        }
      }
    }
}

/* A's pairs are 32-bit words moved as they are: the f32 type's packing
 * (a permute moves bits unchanged) */
static void big_pack_a(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst) {
  f32_gemm_big_pack_a(A, sai, sak, K, i0, i1, dst);
}

/* packed A per block of rows: 512 KiB, half of Zen 5's L2 */
static const GemmBigType big_bf16 = {.esize = 4, .mr = MR, .nr = NR, .kc = KC, .kb = KB,
                                     .a_bytes = (int64_t)1 << 19, .scratch = true, .tile = big_tile,
                                     .pack_a = big_pack_a, .pack_b = big_pack_b};
/* the same with bf16 results, each tile's f32 sums rounded in its last
 * store (k up to KB pair steps): no f32 C written, read and rounded in a
 * pass of its own (1024^3: 4 MiB each way) */
static const GemmBigType big_bf16_out = {.esize = 4, .mr = MR, .nr = NR, .kc = KC, .kb = KB,
                                         .a_bytes = (int64_t)1 << 19, .scratch = true, .tile = big_tile,
                                         .tile_out = big_tile_out, .out_esize = 2, .pack_a = big_pack_a,
                                         .pack_b = big_pack_b};

/* ---- the f32 result rounded to bf16 ---- */

typedef struct RoundJob {
  const float *src;
  uint16_t *dst;
} RoundJob;

static cxla_status round_slice(void *arg, int64_t lo, int64_t hi) {
  const RoundJob *j = arg;
  bf16_round_avx512(j->src + lo, j->dst + lo, hi - lo);
  return NULL;
}

/* ---- operands the driver does not read as they are ---- */

/* A (m x k, or k x m when trans_a) as m x 2p, p = ceil(k / 2), with a
 * zero step past k; B (k x n, or n x k when trans_b) as 2p x n, a zero
 * row past k. Batch element after batch element. */
static void canon_a(const AmxGemm *g, const uint16_t *a, int64_t p, uint16_t *d) {
  int64_t M = g->m, K = g->k;
  for (int64_t bi = 0; bi < g->batch; bi++) {
    const uint16_t *s = a + bi * M * K;
    uint16_t *o = d + bi * M * 2 * p;
    for (int64_t i = 0; i < M; i++) {
      for (int64_t q = 0; q < K; q++) o[i * 2 * p + q] = g->trans_a ? s[q * M + i] : s[i * K + q];
      if (K & 1) o[i * 2 * p + K] = 0;
    }
  }
}

static void canon_b(const AmxGemm *g, const uint16_t *b, int64_t p, uint16_t *d) {
  int64_t N = g->n, K = g->k;
  for (int64_t bi = 0; bi < g->batch; bi++) {
    const uint16_t *s = b + bi * K * N;
    uint16_t *o = d + bi * 2 * p * N;
    for (int64_t q = 0; q < K; q++)
      for (int64_t j = 0; j < N; j++) o[q * N + j] = g->trans_b ? s[j * K + q] : s[q * N + j];
    if (K & 1) memset(o + K * N, 0, (size_t)N * sizeof *o);
  }
}

cxla_status bf16_gemm_avx512(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, RtPool *pool,
                             int nthreads) {
  if (!bf16_gemm_avx512_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX512-BF16");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  int64_t p = (g->k + 1) / 2, nc = g->batch * g->m * g->n;
  uint16_t *A = (uint16_t *)a, *B = (uint16_t *)b, *ca = NULL, *cb = NULL;
  float *C = c, *cc = NULL;
  cxla_status s = NULL;
  /* the common case (k even, neither operand transposed) as it is */
  if (g->trans_a || (g->k & 1))
    if (!(A = ca = rt_scratch_alloc(pool, (size_t)(g->batch * g->m * 2 * p) * 2))) s = cxla_oom();
  if (!s && (g->trans_b || (g->k & 1)))
    if (!(B = cb = rt_scratch_alloc(pool, (size_t)(g->batch * 2 * p * g->n) * 2))) s = cxla_oom();
  /* bf16 results rounded by the tiles where k is one block of steps,
   * else summed into an f32 C and rounded after */
  bool round_after = g->out_bf16 && p > KB;
  if (!s && round_after)
    if (!(C = cc = rt_scratch_alloc(pool, (size_t)nc * sizeof *C))) s = cxla_oom();
  if (!s) {
    if (ca) canon_a(g, a, p, A);
    if (cb) canon_b(g, b, p, B);
    F32Gemm f = {.batch = g->batch, .m = g->m, .n = g->n, .k = p};
    s = gemm_big_run(g->out_bf16 && !round_after ? &big_bf16_out : &big_bf16, &f, A, B, NULL, C, pool, nthreads);
  }
  if (!s && round_after) {
    RoundJob j = {C, c};
    s = rt_pool_parallel_for(pool, nc, 1 << 16, nthreads, round_slice, &j);
  }
  rt_scratch_free(pool, ca);
  rt_scratch_free(pool, cb);
  rt_scratch_free(pool, cc);
  return s;
}

#else

cxla_status bf16_gemm_avx512(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, RtPool *pool,
                             int nthreads) {
  return ERR(UNAVAILABLE, "the AVX512-BF16 kernel is built for x86-64 only");
}

#endif
