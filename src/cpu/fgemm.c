/* f32 GEMMs of small and batched products on an AVX-512 micro-kernel
 * (and its AVX2 twin for CPUs without AVX-512, below: the same results).
 *
 * The work is split into units, one per batch element and panel of
 * NR = 64 columns of C (and block of rows, when there are too few
 * panels for the threads); units are spread over the threads (a batch of
 * small products runs one product per thread at a time instead of every
 * thread on each). A unit packs its panel of B (K x 64, zero-padded past
 * n; a transposed B is transposed there) unless B is read in place (not
 * transposed and at most MR rows of C: nothing would reuse the copy) or
 * was packed once before (f32_gemm_pack_b: all its panels, back to back,
 * for the products that read the same B again: a loop's weights),
 * then runs the MR x 64 micro-kernel down the rows of C: MR x 4 vector
 * accumulators over the whole contraction, one broadcast of A per row
 * and step (A is read where it is, any transposition: it is only
 * broadcast), stored once with the edge columns masked. Every element of
 * C is the fused multiply-add chain over k = 0, 1, ... from +0, whatever
 * the split, so results do not depend on the thread count, and every
 * product is taken (no zero is skipped: inf and NaN propagate). */
#include <stdlib.h>
#include <string.h>

#include "base/transpose16.h"
#include "cpu/blas.h"
#include "cpu/fgemm.h"
#include "cpu/gemm_big.h"
#include "codegen/codegen.h"
#include "cpu/isa.h"
#include "runtime/scratch.h"

cxla_status f32_gemm_blas(const F32Gemm *g, const float *a, const float *b, float *c, bool finite, RtPool *pool,
                          int nthreads) {
  int64_t M = g->m, N = g->n, K = g->k;
  if (g->ldb || g->ldc || g->lda) return ERR(INTERNAL, "f32_gemm_blas: dense operands only");
  if (finite) {
    CpuBlasGemm bg = {.type = T_F32, .trans_a = g->trans_a, .trans_b = g->trans_b, .batch = g->batch,
                      .m = (int)M, .n = (int)N, .k = (int)K, .a = a, .b = b, .c = c,
                      .lda = g->trans_a ? (int)M : (int)K, .ldb = g->trans_b ? (int)K : (int)N, .ldc = (int)N,
                      .stride_a = M * K, .stride_b = K * N, .stride_c = M * N};
    return cpu_blas_gemm(&bg, pool, nthreads);
  }
  for (int64_t bi = 0; bi < g->batch; bi++) {
    const float *A = a + bi * M * K, *B = b + bi * K * N;
    float *C = c + bi * M * N;
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        float acc = 0;
        for (int64_t k = 0; k < K; k++)
          acc += A[g->trans_a ? k * M + i : i * K + k] * B[g->trans_b ? j * K + k : k * N + j];
        C[i * N + j] = acc;
      }
  }
  return NULL;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))

enum { MR = 6, NV = 4, NR = 16 * NV, KC = 128 };
/* Steps per block on the AVX2 kernels: each vector of 16 columns of a
 * panel runs down the rows over a block (kc x 64 bytes of the panel), and
 * fewer blocks are fewer loads and stores of each tile of C between them;
 * the same chain of multiply-adds per element whatever the block. Zen 2,
 * two threads (cxla bench of lone dots, alternated, KC then 512):
 * 256 x 512 x 2048 3.19 -> 2.83 ms, 256 x 2048 x 512 3.55 -> 3.12,
 * 256 x 1024 x 1024 3.40 -> 3.01, 1024 x 1024 x 128 1.71 -> 1.45,
 * 256^3 0.20 -> 0.19 (2048: 256 x 2048 x 512 no faster than 128) */
#define KC_AVX2 512
/* Steps per block of the kernels of instruction set isa (2: AVX-512). */
static inline int64_t block_steps(int isa) { return isa == 2 ? KC : KC_AVX2; }
/* gemm_run: products whose A is larger than GROUP_A_BYTES run in units
 * of several panels (run_group), GROUP_UNITS units per thread */
#define GROUP_A_BYTES (1 << 20)
#define GROUP_UNITS 2
/* steps per block of A in f32_gemm_kernel_big: each block of steps
 * after the first reads back all of C and writes it again (2048^3 in
 * blocks of 512 steps: 10% slower than of 1024); all 2048 steps of
 * 2048^3 at once, in blocks of 21-22 tiles (1 MiB of A) instead of
 * 2 x 1024 steps: 1-4% less CPU time, one thread */
#define BIG_KB 2048
/* A's elements ahead of the step fetched into L1 by big_tile6 (16 steps) */
#define BIG_A_AHEAD (16 * MR)
/* f32_gemm_big_fits: every side at least GEMM_BIG_MIN, n and k at most
 * BIG_MAX_N and BIG_MAX_K. Per core against OpenBLAS's sgemm on half the
 * rows: 1024 x 1024 x 1024 0.93-1.0x, 1024 x 768 x 768 0.94x, and (before
 * the A packing, scratch and block changes below) n = 2304 and 3072
 * (k = 768) 1.02-1.08x (every block of rows streams all of the packed B
 * from L3). 2048^3: 0.96-1.0x the CPU time of
 * OpenBLAS's own sgemm on one thread, and on two 0.89-0.94x the CPU time
 * of f32_gemm_blas's split (each half a BLAS call that packs all of B),
 * which also scans both operands for infinities first; whole cxla bench
 * processes on two threads sharing the machine: median 0.99-1.03x the
 * BLAS split's wall time (noise about as large). With A packed by
 * pack_a_rows6, the scratch and tiles dealt out evenly, n = 2304 and
 * 3072 (gpt2's 1024 x 768 x 3072, 1024 x 3072 x 768, 1024 x 768 x 2304; k = 3072 in
 * two blocks of steps) take 0.94-0.97x the BLAS split's wall time, two
 * threads, whole processes alternated (gpt2_block_1024 0.92-0.95x). */
#define BIG_MAX_N 4096
#define BIG_MAX_K 4096

bool f32_gemm_kernel_available(void) { return __builtin_cpu_supports("avx512f"); }

/* 2: the AVX-512 kernels, 1: the AVX2 ones (below), 0: neither (isa.h);
 * $CXLA_CPU_GEMM_ISA = "avx2" caps it at AVX2. */
static int small_isa(void) { return cpu_fma_isa("CXLA_CPU_GEMM_ISA"); }

bool f32_gemm_small_available(void) { return small_isa() > 0; }

/* The rows x 16 NVU tile of C at c (row stride ldc; columns masked by
 * st) = (when acc, the tile itself +) rows of A (row r at a + r * sai,
 * step k at + k * sak) times K rows of the first 16 NVU columns of the
 * 64-column panel at b: packed (row stride 64), or read in place (row
 * stride ldb, the loads masked by st). A panel's last columns (n = 10: a
 * classifier's logits) take the kernel of as many vectors as they fill:
 * four vectors a row when one holds them all multiplied 48 zero lanes.
 * Two threads (GFLOP/s, best of 200 calls): 256 x 10 x 512 16 -> 93,
 * 512 x 10 x 256 with A transposed 17 -> 58-109, 256 x 100 x 512 83 ->
 * 145, 64 x 40 x 64 67 -> 88; mlp_train_step 4.88-5.09 -> 4.80-4.91 ms,
 * vae_train_step 3.81-3.84 -> 3.59-3.60 ms (alternated). Every element's
 * sum is the same chain of multiply-adds whichever kernel computes it. */
#define LOAD_PACKED(p, v) _mm512_loadu_ps((p) + 16 * (v))
#define LOAD_DIRECT(p, v) _mm512_maskz_loadu_ps(st[v], (p) + 16 * (v))
#define DEFINE_KERNEL(NAME, ROWS, NVU, LOAD, LDB)                                                            \
  TGT static void NAME(int64_t K, const float *a, int64_t sai, int64_t sak, const float *b, int64_t ldb,      \
                       float *c, int64_t ldc, const __mmask16 *st, bool accum) {                            \
    (void)ldb;                                                                                              \
    __m512 acc[ROWS][NVU];                                                                                  \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                \
      _Pragma("GCC unroll 4") for (int v = 0; v < NVU; v++)                                                 \
        acc[r][v] = accum ? _mm512_maskz_loadu_ps(st[v], c + r * ldc + 16 * v) : _mm512_setzero_ps();       \
    }                                                                                                       \
    for (int64_t k = 0; k < K; k++) {                                                                       \
      const float *bk = b + k * (LDB);                                                                      \
      __m512 bv[NVU];                                                                                       \
      _Pragma("GCC unroll 4") for (int v = 0; v < NVU; v++) bv[v] = LOAD(bk, v);                            \
      const float *ak = a + k * sak;                                                                        \
      _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                              \
        __m512 av = _mm512_set1_ps(ak[r * sai]);                                                            \
        _Pragma("GCC unroll 4") for (int v = 0; v < NVU; v++) acc[r][v] = _mm512_fmadd_ps(av, bv[v], acc[r][v]); \
      }                                                                                                     \
    }                                                                                                       \
    _Pragma("GCC unroll 8") for (int r = 0; r < ROWS; r++) {                                                \
      _Pragma("GCC unroll 4") for (int v = 0; v < NVU; v++)                                                 \
        _mm512_mask_storeu_ps(c + r * ldc + 16 * v, st[v], acc[r][v]);                                     \
    }                                                                                                       \
  }

#define DEFINE_KERNELS_NV(ROWS, NVU)                                           \
  DEFINE_KERNEL(packed_##ROWS##_##NVU, ROWS, NVU, LOAD_PACKED, NR)             \
  DEFINE_KERNEL(direct_##ROWS##_##NVU, ROWS, NVU, LOAD_DIRECT, ldb)
#define DEFINE_KERNELS(ROWS) \
  DEFINE_KERNELS_NV(ROWS, 1) DEFINE_KERNELS_NV(ROWS, 2) DEFINE_KERNELS_NV(ROWS, 3) DEFINE_KERNELS_NV(ROWS, 4)
DEFINE_KERNELS(1)
DEFINE_KERNELS(2)
DEFINE_KERNELS(3)
DEFINE_KERNELS(4)
DEFINE_KERNELS(5)
DEFINE_KERNELS(6)

typedef void (*Kernel)(int64_t, const float *, int64_t, int64_t, const float *, int64_t, float *, int64_t,
                       const __mmask16 *, bool);
#define KERNEL_ROW(P, NVU) {NULL, P##_1_##NVU, P##_2_##NVU, P##_3_##NVU, P##_4_##NVU, P##_5_##NVU, P##_6_##NVU}
/* [vectors - 1][rows] */
static const Kernel packed_k[NV][MR + 1] = {KERNEL_ROW(packed, 1), KERNEL_ROW(packed, 2), KERNEL_ROW(packed, 3),
                                             KERNEL_ROW(packed, 4)};
static const Kernel direct_k[NV][MR + 1] = {KERNEL_ROW(direct, 1), KERNEL_ROW(direct, 2), KERNEL_ROW(direct, 3),
                                             KERNEL_ROW(direct, 4)};

/* The vectors of a panel that its columns (masks st) fill. */
static int panel_vectors(const __mmask16 *st) {
  int n = NV;
  while (n > 1 && !st[n - 1]) n--;
  return n;
}

/* ---- the AVX2 kernels (CPUs with AVX2 and FMA but no AVX-512) ----
 * The same panels of 64 columns, tiles of up to MR rows: with 16 ymm
 * registers a tile keeps MR x 16 columns of sums (12 registers) and runs
 * once per vector of 16 columns its panel's columns fill, A read again
 * from L1 each time. Each element's sum is the AVX-512 kernel's chain of
 * multiply-adds, so results are bit for bit the same. Packing is plain C
 * (pack_panel_plain). */
#define TGT2 __attribute__((target("avx2,fma")))

/* Lanes [0, n) of 8 as a maskload / maskstore mask. */
TGT2 static inline __m256i mask8(int n) {
  n = n < 0 ? 0 : n > 8 ? 8 : n;
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

TGT2 static inline __attribute__((always_inline)) void tile16_avx2(const int rows, const bool packed, int64_t K,
                                                                   const float *a, int64_t sai, int64_t sak,
                                                                   const float *b, int64_t ldb, float *c,
                                                                   int64_t ldc, int cols, bool accum) {
  const bool full = cols >= 16;
  const __m256i m0 = mask8(cols), m1 = mask8(cols - 8);
  __m256 acc[MR][2];
  _Pragma("GCC unroll 8") for (int r = 0; r < rows; r++) {
    if (!accum) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
    else if (full) acc[r][0] = _mm256_loadu_ps(c + r * ldc), acc[r][1] = _mm256_loadu_ps(c + r * ldc + 8);
    else acc[r][0] = _mm256_maskload_ps(c + r * ldc, m0), acc[r][1] = _mm256_maskload_ps(c + r * ldc + 8, m1);
  }
  for (int64_t k = 0; k < K; k++) {
    const float *bk = b + k * ldb;
    __m256 b0, b1;
    if (packed || full) b0 = _mm256_loadu_ps(bk), b1 = _mm256_loadu_ps(bk + 8);
    else b0 = _mm256_maskload_ps(bk, m0), b1 = _mm256_maskload_ps(bk + 8, m1);
    const float *ak = a + k * sak;
    _Pragma("GCC unroll 8") for (int r = 0; r < rows; r++) {
      __m256 av = _mm256_broadcast_ss(ak + r * sai);
      acc[r][0] = _mm256_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  _Pragma("GCC unroll 8") for (int r = 0; r < rows; r++) {
    if (full) {
      _mm256_storeu_ps(c + r * ldc, acc[r][0]);
      _mm256_storeu_ps(c + r * ldc + 8, acc[r][1]);
    } else {
      _mm256_maskstore_ps(c + r * ldc, m0, acc[r][0]);
      _mm256_maskstore_ps(c + r * ldc + 8, m1, acc[r][1]);
    }
  }
}

/* The Kernel of ROWS rows on AVX2 reading B in place (direct_k's): the
 * panel's vectors of 16 columns in turn (st: their lanes, a prefix each;
 * an empty one ends the panel). */
#define DEFINE_DIRECT2(ROWS)                                                                                  \
  TGT2 static void direct2_##ROWS(int64_t K, const float *a, int64_t sai, int64_t sak, const float *b,       \
                                  int64_t ldb, float *c, int64_t ldc, const __mmask16 *st, bool accum) {     \
    for (int v = 0; v < NV && st[v]; v++)                                                                    \
      tile16_avx2(ROWS, false, K, a, sai, sak, b + 16 * v, ldb, c + 16 * v, ldc, __builtin_popcount(st[v]),  \
                  accum);                                                                                    \
  }
/* One vector of 16 columns of a packed panel, ROWS rows (cols: its
 * columns in C) */
#define DEFINE_TILE16(ROWS)                                                                                   \
  TGT2 static void packed16_##ROWS(int64_t K, const float *a, int64_t sai, int64_t sak, const float *b,      \
                                   float *c, int64_t ldc, int cols, bool accum) {                             \
    tile16_avx2(ROWS, true, K, a, sai, sak, b, NR, c, ldc, cols, accum);                                      \
  }
#define DEFINE_KERNELS2(ROWS) \
  DEFINE_DIRECT2(ROWS) DEFINE_TILE16(ROWS)
DEFINE_KERNELS2(1)
DEFINE_KERNELS2(2)
DEFINE_KERNELS2(3)
DEFINE_KERNELS2(4)
DEFINE_KERNELS2(5)
DEFINE_KERNELS2(6)
#define KERNEL2_ROW(P) {NULL, P##_1, P##_2, P##_3, P##_4, P##_5, P##_6}
/* [vectors - 1][rows], as direct_k: every row the same (the kernel reads
 * the vectors from st) */
static const Kernel direct2_k[NV][MR + 1] = {KERNEL2_ROW(direct2), KERNEL2_ROW(direct2), KERNEL2_ROW(direct2),
                                              KERNEL2_ROW(direct2)};
typedef void (*Tile16)(int64_t, const float *, int64_t, int64_t, const float *, float *, int64_t, int, bool);
/* [rows] */
static const Tile16 packed16_k[MR + 1] = KERNEL2_ROW(packed16);

/* Steps [k0, k0 + kc) of rows [i0, i1) of C's panel (masks st) from the
 * packed panel pp (all K steps): on AVX-512 tile after tile, all of the
 * panel's vectors at once; on AVX2 vector after vector of 16 columns,
 * each down all the rows (its kc x 16 floats of the panel stay in L1,
 * where a whole block of the panel, 32 KiB, filled a Zen 2's L1 with
 * the rows of A and C beside it: 256^3 1.3x BLAS's time, tile after
 * tile). Either order computes each element's chain alike. */
static void panel_steps(int isa, int64_t k0, int64_t kc, int64_t i0, int64_t i1, const float *A, int64_t sai,
                        int64_t sak, const float *pp, float *C, int64_t ldc, const __mmask16 *st) {
  int nvec = panel_vectors(st);
  if (isa == 2) {
    for (int64_t i = i0; i < i1; i += MR) {
      int64_t rows = i1 - i < MR ? i1 - i : MR;
      packed_k[nvec - 1][rows](kc, A + i * sai + k0 * sak, sai, sak, pp + k0 * NR, NR, C + i * ldc, ldc, st, k0 > 0);
    }
    return;
  }
  for (int v = 0; v < nvec; v++)
    for (int64_t i = i0; i < i1; i += MR) {
      int64_t rows = i1 - i < MR ? i1 - i : MR;
      packed16_k[rows](kc, A + i * sai + k0 * sak, sai, sak, pp + k0 * NR + 16 * v, C + i * ldc + 16 * v, ldc,
                       __builtin_popcount(st[v]), k0 > 0);
    }
}

/* pack_panel_steps in plain C (the AVX2 kernels' packing): the same
 * panel. */
static void pack_panel_plain(const float *B, int64_t K, int64_t ldb, bool trans, int64_t j0, int64_t nc, int64_t k0,
                             int64_t k1, float *dst) {
  for (int64_t k = k0; k < k1; k++) {
    float *d = dst + k * NR;
    if (!trans) memcpy(d, B + k * ldb + j0, (size_t)nc * sizeof(float));
    memset(d + nc, 0, (size_t)(NR - nc) * sizeof(float));
  }
  if (trans)
    /* B's rows j0.. are the panel's columns: each read along, written
     * down the panel */
    for (int64_t q = 0; q < nc; q++) {
      const float *src = B + (j0 + q) * K;
      for (int64_t k = k0; k < k1; k++) dst[k * NR + q] = src[k];
    }
}

typedef struct Job {
  const F32Gemm *g;
  const float *a, *b;
  const float *pb; /* B already packed (f32_gemm_pack_b), or NULL */
  float *c;
  int64_t npanels;
  int64_t mb, nrb; /* rows of C per unit (a multiple of MR), row blocks */
  int64_t group;   /* > 1: a unit is this many panels of one product (run_group) */
  bool pack;
  unsigned csr; /* the caller's MXCSR (FTZ/DAZ) */
  int isa;      /* small_isa(): the kernels and packing to use */
  RtPool *pool; /* the scratch's (rt_scratch_alloc), or NULL */
} Job;

/* Steps [k0, k1) of columns [j0, j0 + nc) of B (K x n, row stride ldb;
 * stored n x K when trans) into the K x 64 panel dst (step k at dst +
 * 64 k), zero past nc. */
TGT static void pack_panel_steps(const float *B, int64_t K, int64_t ldb, bool trans, int64_t j0, int64_t nc,
                                 int64_t k0, int64_t k1, float *dst) {
  if (!trans) {
    __mmask16 m[NV];
    for (int v = 0; v < NV; v++) {
      int64_t left = nc - 16 * v;
      m[v] = left >= 16 ? (__mmask16)0xffff : left <= 0 ? (__mmask16)0 : (__mmask16)((1u << left) - 1);
    }
    for (int64_t k = k0; k < k1; k++) {
      const float *s = B + k * ldb + j0;
      float *d = dst + k * NR;
      for (int v = 0; v < NV; v++) _mm512_storeu_ps(d + 16 * v, _mm512_maskz_loadu_ps(m[v], s + 16 * v));
    }
    return;
  }
  /* B's rows j0.. are the panel's columns: 16 of them by 16 steps at a
   * time, loaded as 16 rows of 16 steps (masked past K) and transposed
   * in registers (transpose16) into 16 steps of 16 columns, each stored
   * as one line of the panel; the columns past nc are zero (never stored
   * to C; zeros keep garbage, subnormals: slow, out of the arithmetic).
   * One 16-lane gather per step and 16 columns, as before, cost more:
   * one thread, B transposed, 256 x 512 x 512 0.85-0.95 -> 0.72-0.76 ms,
   * 256 x 2048 x 512 3.65 -> 3.3-3.5 ms, 256 x 512 x 2048 3.9-4.1 ->
   * 3.75 ms. */
  for (int v = 0; v < NV; v++) {
    int64_t c0 = 16 * v, cols = nc - c0 < 16 ? nc - c0 : 16;
    if (cols <= 0) {
      for (int64_t k = k0; k < k1; k++) _mm512_storeu_ps(dst + k * NR + c0, _mm512_setzero_ps());
      continue;
    }
    const float *src = B + (j0 + c0) * K;
    for (int64_t q0 = k0; q0 < k1; q0 += 16) {
      int64_t kl = k1 - q0 < 16 ? k1 - q0 : 16;
      __mmask16 km = (__mmask16)(kl == 16 ? 0xffffu : (1u << kl) - 1);
      __m512 r[16];
      for (int q = 0; q < 16; q++)
        r[q] = q < cols ? _mm512_maskz_loadu_ps(km, src + q * K + q0) : _mm512_setzero_ps();
      transpose16(r);
      for (int64_t t = 0; t < kl; t++) _mm512_storeu_ps(dst + (q0 + t) * NR + c0, r[t]);
    }
  }
}

/* All K steps of the panel: pack_panel_steps over [0, K). */
TGT static void pack_panel(const float *B, int64_t K, int64_t ldb, bool trans, int64_t j0, int64_t nc, float *dst) {
  pack_panel_steps(B, K, ldb, trans, j0, nc, 0, K, dst);
}

/* pack_panel for the kernels of small_isa() isa. */
static void pack_any(int isa, const float *B, int64_t K, int64_t ldb, bool trans, int64_t j0, int64_t nc,
                     float *dst) {
  if (isa == 2) pack_panel(B, K, ldb, trans, j0, nc, dst);
  else pack_panel_plain(B, K, ldb, trans, j0, nc, 0, K, dst);
}

/* The lanes of a panel's NV vectors that its nc columns fill. */
static void panel_masks(int64_t nc, __mmask16 *st) {
  for (int v = 0; v < NV; v++) {
    int64_t left = nc - 16 * v;
    st[v] = left >= 16 ? (__mmask16)0xffff : left <= 0 ? (__mmask16)0 : (__mmask16)((1u << left) - 1);
  }
}

/* n floats of scratch starting on a 64-byte boundary (rt_scratch_alloc;
 * NULL without memory). malloc's blocks start 16 bytes past one (glibc;
 * its large blocks 16 bytes into a page): every 64-byte load of a packed
 * panel row would then straddle two cache lines, which costs the kernel
 * an L1 access per load more. */
static float *alloc_lines(RtPool *pool, int64_t n) { return rt_scratch_alloc(pool, (size_t)n * sizeof(float)); }

/* Units of j->group panels each (one product, all of its rows, B
 * packed here): the unit's panels packed first, then for each block of
 * KC steps every panel in turn runs down the rows. The block of A those
 * steps read (all rows x KC steps) then serves every panel of the unit
 * from L2, where one panel at a time reads all of A again per panel:
 * from L3 once A outgrows L2 (256 x 2048, 2 MiB). Each micro-kernel call
 * is the one run_slice makes (the same steps, the same accumulation into
 * C), so the results are bit for bit the same. */
static cxla_status run_group(const Job *j, int64_t lo, int64_t hi) {
  const F32Gemm *g = j->g;
  int64_t M = g->m, N = g->n, K = g->k;
  int64_t ldb = g->ldb && !g->trans_b ? g->ldb : N, ldc = g->ldc ? g->ldc : N;
  float *panels = alloc_lines(j->pool, j->group * K * NR);
  if (!panels) return cxla_oom();
  unsigned old = _mm_getcsr();
  _mm_setcsr(j->csr);
  int64_t lda = f32_gemm_a_lda(g), sai = g->trans_a ? 1 : lda, sak = g->trans_a ? M : 1;
  for (int64_t t = lo; t < hi; t++) {
    int64_t p0 = t * j->group, p1 = p0 + j->group < j->npanels ? p0 + j->group : j->npanels;
    for (int64_t pn = p0; pn < p1; pn++) {
      int64_t j0 = pn * NR;
      pack_any(j->isa, j->b, K, ldb, g->trans_b, j0, N - j0 < NR ? N - j0 : NR, panels + (pn - p0) * K * NR);
    }
    int64_t bk = block_steps(j->isa);
    for (int64_t k0 = 0; k0 < K; k0 += bk) {
      int64_t kc = K - k0 < bk ? K - k0 : bk;
      for (int64_t pn = p0; pn < p1; pn++) {
        int64_t j0 = pn * NR;
        const float *pp = panels + (pn - p0) * K * NR;
        __mmask16 st[NV];
        panel_masks(N - j0 < NR ? N - j0 : NR, st);
        panel_steps(j->isa, k0, kc, 0, M, j->a, sai, sak, pp, j->c + j0, ldc, st);
      }
    }
  }
  _mm_setcsr(old);
  rt_scratch_free(j->pool, panels);
  return NULL;
}

/* Whether B (not transposed, rows ldb apart) is its own packed panel:
 * exactly NR columns, rows NR floats apart (an attention head's V of
 * width 64), which pack_panel would copy as it is. */
static bool b_is_panel(const F32Gemm *g, int64_t ldb) { return !g->trans_b && g->n == NR && ldb == NR; }

static cxla_status run_slice(void *arg, int64_t lo, int64_t hi) {
  const Job *j = arg;
  if (j->group > 1) return run_group(j, lo, hi);
  const F32Gemm *g = j->g;
  int64_t M = g->m, N = g->n, K = g->k;
  int64_t ldb = g->ldb && !g->trans_b ? g->ldb : N, ldc = g->ldc ? g->ldc : N;
  float *panel = NULL;
  if (j->pack && !j->pb && !b_is_panel(g, ldb) && !(panel = alloc_lines(j->pool, K * NR))) return cxla_oom();
  unsigned old = _mm_getcsr();
  _mm_setcsr(j->csr);
  /* A: row i, step k at i * sai + k * sak */
  int64_t lda = f32_gemm_a_lda(g), sai = g->trans_a ? 1 : lda, sak = g->trans_a ? M : 1;
  for (int64_t t = lo; t < hi; t++) {
    int64_t rb = t % j->nrb, pn = t / j->nrb;
    int64_t bi = pn / j->npanels, j0 = pn % j->npanels * NR, nc = N - j0 < NR ? N - j0 : NR;
    int64_t i0 = rb * j->mb, i1 = i0 + j->mb < M ? i0 + j->mb : M;
    const float *A = j->a + bi * M * lda, *B = j->pb ? NULL : j->b + bi * K * ldb;
    float *C = j->c + bi * M * ldc + j0;
    __mmask16 st[NV];
    panel_masks(nc, st);
    int nvec = panel_vectors(st);
    if (!j->pack) {
      for (int64_t i = i0; i < i1; i += MR) {
        int64_t rows = i1 - i < MR ? i1 - i : MR;
        Kernel kf = j->isa == 2 ? direct_k[nvec - 1][rows] : direct2_k[nvec - 1][rows];
        kf(K, A + i * sai, sai, sak, B + j0, ldb, C + i * ldc, ldc, st, false);
      }
      continue;
    }
    /* KC steps of the panel at a time (32 KiB: stays in L1 while the
     * rows pass under it; KC_AVX2 on AVX2); C's tile accumulates in place
     * over the blocks, which keeps each element's chain of multiply-adds
     * in step order */
    const float *pp = panel;
    if (j->pb) pp = j->pb + pn * K * NR;
    else if (b_is_panel(g, ldb)) pp = B;
    else pack_any(j->isa, B, K, ldb, g->trans_b, j0, nc, panel);
    int64_t bk = block_steps(j->isa);
    for (int64_t k0 = 0; k0 < K; k0 += bk) {
      int64_t kc = K - k0 < bk ? K - k0 : bk;
      panel_steps(j->isa, k0, kc, i0, i1, A, sai, sak, pp, C, ldc, st);
    }
  }
  _mm_setcsr(old);
  rt_scratch_free(j->pool, panel);
  return NULL;
}

/* Past m n k = 2^27, products of 128 to 256 rows and k <= 2048 (A at
 * most 2 MiB; a transformer's MLP at 256 tokens: 256 x 2048 x 512, 256 x 512 x
 * 2048, either B transposed) stay here too: every panel of B reads all of
 * A from L2 or L3, which costs less than BLAS's split and its operand
 * scan; two threads, each side's best of 40 alternating runs: 1.85 against
 * 2.12 ms, 2.05 against 2.43, 2.04 against 2.44 (n 2048, B transposed),
 * 2.20 against 2.21 (k 2048, B transposed). Except those of k >= 1024
 * that f32_gemm_big_fits (256 rows): 256 x 512 x 2048 (a transformer's
 * MLP down projection, A its 2 MiB of activations) there packs A once per
 * block of rows and reads B's cached packed form (routines.c) where here
 * every panel reads all of A again, 6 rows 8 KiB apart: in
 * transformer_fwd 1.90-2.02 -> 1.72-1.87 ms, two threads, 8 alternations
 * of 30 runs; bit for bit the same result. */
bool f32_gemm_kernel_fits(const F32Gemm *g) {
  if (!f32_gemm_small_available()) return false;
  if (g->m <= 1024 && g->k <= 1024 && g->m * g->n * g->k <= (int64_t)1 << 27) return true;
  return g->m >= 128 && g->m <= 256 && g->k <= 2048 && !(g->k >= 1024 && f32_gemm_big_fits(g));
}

/* f32_gemm_kernel, with B's panels read from pb (f32_gemm_pack_b's
 * layout) when pb is not NULL. */
/* ---- A stored transposed ----
 * A stored K x M is read down its columns: a tile's step k reads MR
 * floats M apart from the step before, and at M a multiple of 512 (2
 * KiB) every step of a column falls in the same few sets of L1, which
 * holds 16 of a row block's 256 or more lines: each step misses. Such an
 * A is transposed into scratch first (16 x 16 blocks,
 * cxla_cg_rt_transpose32), the same values in the same order: the same
 * results, bit for bit. Zen 2, two threads, m x n x k: 512 x 512 x 256
 * from A^T 0.99 -> 0.72 ms (A not transposed 0.69), with B^T too 1.06 ->
 * 0.75; 256 x 512 x 2048 from A^T 3.58 -> 3.07 (not transposed 2.93).
 * (B^T the same way: no faster, 256 x 512 x 2048 3.41 -> 3.43: its
 * panels are packed once per panel, and transposing all of B costs what
 * that packing's strides did.) */
typedef struct Trans {
  const float *src; /* batch x cols x rows */
  float *out;       /* batch x rows x cols */
  int64_t rows, cols, nrb; /* nrb: blocks of 16 output rows per batch element */
} Trans;

static cxla_status trans_slice(void *arg, int64_t lo, int64_t hi) {
  const Trans *t = arg;
  int64_t R = t->rows, C = t->cols;
  for (int64_t u = lo; u < hi; u++) {
    int64_t bi = u / t->nrb, i0 = u % t->nrb * 16, i1 = i0 + 16 < R ? i0 + 16 : R, done = 0;
    const float *src = t->src + bi * C * R;
    float *out = t->out + bi * R * C;
    if (i1 - i0 == 16 && C >= 16) {
      done = C / 16 * 16;
      cxla_cg_rt_transpose32(src, out, R, C, i0, 1, 0, C / 16, 0);
    }
    /* the columns past the last whole block; a last block of fewer
     * than 16 rows whole */
    for (int64_t i = i0; i < i1; i++)
      for (int64_t k = done; k < C; k++) out[i * C + k] = src[k * R + i];
  }
  return NULL;
}

/* The batch of rows x cols transposes of src (batch x cols x rows) in
 * new scratch (*out; NULL on failure). */
static cxla_status transposed(const float *src, int64_t batch, int64_t rows, int64_t cols, float **out, RtPool *pool,
                              int nthreads) {
  Trans t = {.src = src, .rows = rows, .cols = cols, .nrb = (rows + 15) / 16};
  *out = t.out = rt_scratch_alloc(pool, (size_t)(batch * rows * cols) * sizeof(float));
  if (!t.out) return cxla_oom();
  cxla_status s = rt_pool_parallel_for(pool, batch * t.nrb, 1 + 4096 / cols, nthreads, trans_slice, &t);
  if (s) {
    rt_scratch_free(pool, t.out);
    *out = NULL;
  }
  return s;
}

static cxla_status gemm_run_a(const F32Gemm *g, const float *a, const float *b, const float *pb, float *c,
                              RtPool *pool, int nthreads);

/* Whether the lines a column of A^T (steps M floats apart) spans over a
 * block of steps outnumber those its L1 sets hold (64 sets of 8 ways,
 * lines of 64 bytes: a stride of 2^p bytes, p > 6, visits 64 >> (p - 6)
 * sets). 784 x 512 x 128 from A^T (a 3136-byte stride, every set): 0.60
 * ms as it is, 0.65 transposed first. */
static bool a_column_conflicts(const F32Gemm *g) {
  uint64_t stride = (uint64_t)g->m * sizeof(float);
  int p = __builtin_ctzll(stride);
  int64_t sets = p <= 6 ? 64 : p >= 12 ? 1 : 64 >> (p - 6), steps = g->k < KC_AVX2 ? g->k : KC_AVX2;
  return 8 * sets < steps;
}

static cxla_status gemm_run(const F32Gemm *g, const float *a, const float *b, const float *pb, float *c,
                            RtPool *pool, int nthreads) {
  if (g->k <= 0 || g->batch <= 0 || !g->trans_a || g->m < 16 || g->n < 32 || !a_column_conflicts(g))
    return gemm_run_a(g, a, b, pb, c, pool, nthreads);
  float *at;
  cxla_status s = transposed(a, g->batch, g->m, g->k, &at, pool, nthreads);
  F32Gemm gt = *g;
  gt.trans_a = false;
  gt.lda = 0;
  if (!s) s = gemm_run_a(&gt, at, b, pb, c, pool, nthreads);
  rt_scratch_free(pool, at);
  return s;
}

static cxla_status gemm_run_a(const F32Gemm *g, const float *a, const float *b, const float *pb, float *c,
                              RtPool *pool, int nthreads) {
  int isa = small_isa();
  if (!isa) return ERR(UNAVAILABLE, "this CPU lacks AVX-512 and AVX2");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  if (g->k <= 0) {
    int64_t ldc = g->ldc ? g->ldc : g->n;
    for (int64_t r = 0; r < g->batch * g->m; r++) memset(c + r * ldc, 0, (size_t)g->n * sizeof *c);
    return NULL;
  }
  Job j = {.g = g, .a = a, .b = b, .pb = pb, .c = c, .npanels = (g->n + NR - 1) / NR, .csr = _mm_getcsr(), .isa = isa,
           .pool = pool};
  /* a packed B is always read packed (no masked loads, no row stride of
   * B's width) */
  j.pack = pb || g->trans_b || g->m > MR;
  /* Too few panels for the threads (one product of a few panels): the
   * rows of C are split too, into blocks of at least 4 MR rows, so that
   * there are about 4 units per thread and a thread that starts late
   * leaves less for the others to wait on (each block packs its panel of
   * B again: K x 64 copies against MR-row tiles of K x 64 multiply-adds) */
  j.nrb = 1;
  j.mb = g->m;
  int64_t units = g->batch * j.npanels, want = 4 * (int64_t)(nthreads > 1 ? nthreads : 1);
  if (nthreads > 1 && pool && units < want) {
    int64_t nrb = (want + units - 1) / units, max_nrb = g->m / (4 * MR);
    if (nrb > max_nrb) nrb = max_nrb;
    int64_t mb = nrb > 1 ? ((g->m + nrb - 1) / nrb + MR - 1) / MR * MR : g->m;
    /* only blocks worth a slice of their own (below, slices group units
     * of less than ~256K multiply-adds, and each block packs its panel) */
    if (mb < g->m && mb * g->k * NR >= (int64_t)1 << 18) {
      j.mb = mb;
      j.nrb = (g->m + mb - 1) / mb;
    }
  }
  /* One product whose A outgrows half of L2 (GROUP_A_BYTES; 256 x 2048
   * and up), all rows per unit: units of two or more panels each
   * (run_group), GROUP_UNITS per thread. transformer_fwd's 256 x 2048 x
   * 512 (8 panels, 2 threads: 4 units of 2): CPU time of the whole case
   * 12.06 -> 11.54 ms (6 alternating runs of 100 each); units of 4
   * panels (one per thread) 11.88 */
  int64_t want_units = (int64_t)(pool && nthreads > 1 ? nthreads : 1) * GROUP_UNITS;
  if (g->batch == 1 && !pb && j.pack && j.nrb == 1 && (double)g->m * (double)g->k * 4 > GROUP_A_BYTES &&
      j.npanels >= 2 * want_units) {
    j.group = (j.npanels + want_units - 1) / want_units;
    return rt_pool_parallel_for(pool, (j.npanels + j.group - 1) / j.group, 1, nthreads, run_slice, &j);
  }
  /* slices of at least ~256K multiply-adds */
  int64_t unit = j.mb * g->k * NR, min_slice = ((int64_t)1 << 18) / unit + 1;
  return rt_pool_parallel_for(pool, units * j.nrb, min_slice, nthreads, run_slice, &j);
}

cxla_status f32_gemm_kernel(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                            int nthreads) {
  return gemm_run(g, a, b, NULL, c, pool, nthreads);
}

int64_t f32_gemm_packed_floats(const F32Gemm *g) { return g->batch * ((g->n + NR - 1) / NR) * g->k * NR; }

typedef struct PackJob {
  const F32Gemm *g;
  const float *b;
  float *dst;
  int isa;
} PackJob;

static cxla_status pack_slice(void *arg, int64_t lo, int64_t hi) {
  const PackJob *p = arg;
  const F32Gemm *g = p->g;
  int64_t N = g->n, K = g->k, np = (N + NR - 1) / NR, ldb = g->ldb && !g->trans_b ? g->ldb : N;
  for (int64_t t = lo; t < hi; t++) {
    int64_t bi = t / np, j0 = t % np * NR;
    pack_any(p->isa, p->b + bi * K * ldb, K, ldb, g->trans_b, j0, N - j0 < NR ? N - j0 : NR, p->dst + t * K * NR);
  }
  return NULL;
}

cxla_status f32_gemm_pack_b(const F32Gemm *g, const float *b, float *dst, RtPool *pool, int nthreads) {
  int isa = small_isa();
  if (!isa) return ERR(UNAVAILABLE, "this CPU lacks AVX-512 and AVX2");
  if (g->batch <= 0 || g->n <= 0 || g->k <= 0) return NULL;
  PackJob p = {.g = g, .b = b, .dst = dst, .isa = isa};
  /* panels of at least ~64K floats per slice */
  int64_t min_slice = ((int64_t)1 << 16) / (g->k * NR) + 1;
  return rt_pool_parallel_for(pool, g->batch * ((g->n + NR - 1) / NR), min_slice, nthreads, pack_slice, &p);
}

cxla_status f32_gemm_kernel_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                   int nthreads) {
  return gemm_run(g, a, NULL, pb, c, pool, nthreads);
}

/* ---- large products: B packed once, A in L2-sized blocks of rows ----
 *
 * f32_gemm_kernel walks all of A under each panel of B: past the L2
 * (1024 x 1024: 4 MiB of A against 2 MiB of L2) A streams from L3 for
 * every panel (1024^3: 124 GFLOP/s per core where 512^3 runs at 160).
 * gemm_big_run (gemm_big.c) packs B once, over the threads (no thread
 * packs what another did: the row blocks of the BLAS split each pack all
 * of B), and keeps blocks of A in L2, on this file's packed kernel: the
 * same chain of multiply-adds per element (over blocks of steps in
 * order), bit for bit f32_gemm_kernel's results. Per core, 1024^3:
 * 0.93-1.0x the time of OpenBLAS's sgemm on half the rows (what each
 * thread of the BLAS split runs; the two halves together run 3-5% slower
 * than one alone), 0.97-1.02x OpenBLAS's full product on one thread. */

/* K steps of 6 rows of A (sai apart, steps consecutive) interleaved
 * step after step into dst (step k's rows at dst + 6 k), 16 steps at a
 * time from one vector per row: of the 96 floats, vector j (floats 16 j
 * to 16 j + 15) takes lane l from row (16 j + l) % 6 at step
 * (16 j + l) / 6. The lane's index into a pair of rows (r & 1) * 16 + step
 * is the same for the three pairs (rows 0-1, 2-3, 4-5): one two-row
 * permute per pair under one index vector, two blends pick each lane's
 * pair. Steps past K in the last block load as zeros and are not stored.
 * Against a float at a time (6 rows of loads 4 KiB apart per step):
 * 1024 x 1024 packed in 0.36 against 0.5 ms, one thread. */
TGT static void pack_a_rows6(const float *r0, int64_t sai, int64_t K, float *dst) {
  __m512i idx[MR];
  __mmask16 pair1[MR], pair2[MR];
  for (int j = 0; j < MR; j++) {
    int32_t ix[16];
    unsigned b1 = 0, b2 = 0;
    for (int l = 0; l < 16; l++) {
      int pos = 16 * j + l, r = pos % MR, k = pos / MR;
      ix[l] = (r & 1) * 16 + k;
      b1 |= (unsigned)(r / 2 == 1) << l;
      b2 |= (unsigned)(r / 2 == 2) << l;
    }
    idx[j] = _mm512_loadu_si512(ix);
    pair1[j] = (__mmask16)b1;
    pair2[j] = (__mmask16)b2;
  }
  for (int64_t k0 = 0; k0 < K; k0 += 16) {
    int64_t kl = K - k0 < 16 ? K - k0 : 16;
    __mmask16 km = (__mmask16)(kl == 16 ? 0xffffu : (1u << kl) - 1);
    __m512 r[MR];
    for (int q = 0; q < MR; q++) r[q] = _mm512_maskz_loadu_ps(km, r0 + q * sai + k0);
    float *d = dst + k0 * MR;
    int64_t left = kl * MR;
    for (int j = 0; j < MR && left > 0; j++, left -= 16) {
      __m512 t0 = _mm512_permutex2var_ps(r[0], idx[j], r[1]);
      __m512 t1 = _mm512_permutex2var_ps(r[2], idx[j], r[3]);
      __m512 t2 = _mm512_permutex2var_ps(r[4], idx[j], r[5]);
      __m512 o = _mm512_mask_blend_ps(pair2[j], _mm512_mask_blend_ps(pair1[j], t0, t1), t2);
      _mm512_mask_storeu_ps(d + 16 * j, (__mmask16)(left >= 16 ? 0xffffu : (1u << left) - 1), o);
    }
  }
}

/* The MR x 64 full tile of f32_gemm_kernel_big: c (row stride ldc, columns
 * masked by st) = (when accum, the tile at ci, row stride ldi, +) K steps
 * of a tile of packed A (step k's MR rows at a + MR k) times K rows of a
 * packed panel of B (row k at b + 64 k): packed_6's multiply-adds in the
 * same order, with fixed strides, two steps per trip of the loop, and
 * the tile read from one place and written to another (gemm_big.c's
 * per-thread scratch between passes over the steps, C itself only on the
 * first and last). */
TGT static void big_tile6(int64_t K, const float *a, const float *b, const float *ci, int64_t ldi, float *c,
                          int64_t ldc, const __mmask16 *st, bool accum, const char *pf, int64_t npf) {
  __mmask16 m[NV] = {st[0], st[1], st[2], st[3]};
  __m512 acc[MR][NV];
  _Pragma("GCC unroll 8") for (int r = 0; r < MR; r++) {
    _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) {
      acc[r][v] = accum ? _mm512_maskz_loadu_ps(m[v], ci + r * ldi + 16 * v) : _mm512_setzero_ps();
    }
  }
#define BIG_STEP(o)                                                                        \
  do {                                                                                     \
    __m512 bv[NV];                                                                         \
    _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) bv[v] = _mm512_loadu_ps(b + NR * (o) + 16 * v); \
    _Pragma("GCC unroll 8") for (int r = 0; r < MR; r++) {                                 \
      __m512 av = _mm512_set1_ps(a[MR * (o) + r]);                                         \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[r][v] = _mm512_fmadd_ps(av, bv[v], acc[r][v]); \
    }                                                                                      \
  } while (0)
  const float *end = a + MR * K, *end2 = a + MR * (K & ~(int64_t)1);
  /* the lines at pf, one per step; then A's lines BIG_A_AHEAD elements
   * ahead fetched into L1, one per two steps (A streams from L2: 2048^3
   * 1% faster; the address as an integer: past the tile's end it points
   * nowhere) */
  for (; a < end2 && npf >= 2; a += 2 * MR, b += 2 * NR, pf += 128, npf -= 2) {
    _mm_prefetch(pf, _MM_HINT_T1);
    BIG_STEP(0);
    _mm_prefetch(pf + 64, _MM_HINT_T1);
    BIG_STEP(1);
  }
  for (int64_t q = 0; q < npf; q++) _mm_prefetch(pf + 64 * q, _MM_HINT_T1);
  for (; a < end2; a += 2 * MR, b += 2 * NR) {
    _mm_prefetch((const char *)((uintptr_t)a + BIG_A_AHEAD * sizeof(float)), _MM_HINT_T0);
    BIG_STEP(0);
    BIG_STEP(1);
  }
  if (a < end) BIG_STEP(0);
#undef BIG_STEP
  _Pragma("GCC unroll 8") for (int r = 0; r < MR; r++) {
    _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) _mm512_mask_storeu_ps(c + r * ldc + 16 * v, m[v], acc[r][v]);
  }
}

/* Full tiles on big_tile6 (in its scratch between passes); partial ones
 * in place on packed_1 .. packed_5 (ci == c). */
TGT static void big_tile(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi, void *c,
                         int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf) {
  const __mmask16 st[NV] = {(__mmask16)cols, (__mmask16)(cols >> 16), (__mmask16)(cols >> 32),
                            (__mmask16)(cols >> 48)};
  if (rows == MR) {
    big_tile6(k, a, b, ci, ldi, c, ldc, st, accum, pf, npf);
    return;
  }
  for (int64_t q = 0; q < npf; q++) _mm_prefetch(pf + 64 * q, _MM_HINT_T1);
  packed_k[panel_vectors(st) - 1][rows](k, a, 1, MR, b, NR, c, ldc, st, accum);
}

/* A's full tiles with steps consecutive (sak == 1) on pack_a_rows6, the
 * rest (a partial last tile, A transposed) on gemm_big_pack_a: the same
 * layout. */
TGT static void big_pack_a(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst) {
  if (sak != 1) {
    gemm_big_pack_a(sizeof(float), MR, A, sai, sak, K, i0, i1, dst);
    return;
  }
  int64_t i = i0;
  for (; i1 - i >= MR; i += MR) pack_a_rows6((const float *)A + i * sai, sai, K, (float *)dst + (i - i0) * K);
  if (i < i1) gemm_big_pack_a(sizeof(float), MR, A, sai, sak, K, i, i1, (float *)dst + (i - i0) * K);
}

void f32_gemm_big_pack_a(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst) {
  big_pack_a(A, sai, sak, K, i0, i1, dst);
}

/* GemmBigType.pack_slice: pack_panel_steps (B transposed 16 x 16 in
 * registers), f32_gemm_pack_b's layout. */
TGT static void big_pack_slice(const void *b, int64_t ldb, bool trans, int64_t n, int64_t k, int64_t j0, int64_t k0,
                               int64_t k1, void *dst) {
  pack_panel_steps(b, k, ldb, trans, j0, n - j0 < NR ? n - j0 : NR, k0, k1, dst);
}

/* packed A per block of rows: 1 MiB, half the L2 (512 KiB measured the
 * same, 256 KiB 3% slower at 1024^3) */
static const GemmBigType big_f32 = {.esize = sizeof(float), .mr = MR, .nr = NR, .kc = KC, .kb = BIG_KB,
                                    .a_bytes = (int64_t)1 << 20, .scratch = true, .tile = big_tile,
                                    .pack_a = big_pack_a, .pack_slice = big_pack_slice};

bool f32_gemm_big_fits(const F32Gemm *g) {
  return f32_gemm_kernel_available() && g->m >= GEMM_BIG_MIN && g->n >= GEMM_BIG_MIN && g->k >= GEMM_BIG_MIN &&
         g->k <= BIG_MAX_K && g->n <= BIG_MAX_N;
}

cxla_status f32_gemm_kernel_big(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                                int nthreads) {
  if (!f32_gemm_kernel_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX-512");
  return gemm_big_run(&big_f32, g, a, b, NULL, c, pool, nthreads);
}

cxla_status f32_gemm_kernel_big_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                       int nthreads) {
  if (!f32_gemm_kernel_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX-512");
  return gemm_big_run(&big_f32, g, a, NULL, pb, c, pool, nthreads);
}

#else

bool f32_gemm_kernel_available(void) { return false; }

bool f32_gemm_small_available(void) { return false; }

bool f32_gemm_kernel_fits(const F32Gemm *g) {
  (void)g;
  return false;
}

cxla_status f32_gemm_kernel(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                            int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f32 GEMM kernel is built for x86-64 only");
}

int64_t f32_gemm_packed_floats(const F32Gemm *g) { return g->batch * ((g->n + 63) / 64) * g->k * 64; }

cxla_status f32_gemm_pack_b(const F32Gemm *g, const float *b, float *dst, RtPool *pool, int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f32 GEMM kernel is built for x86-64 only");
}

cxla_status f32_gemm_kernel_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                   int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f32 GEMM kernel is built for x86-64 only");
}

bool f32_gemm_big_fits(const F32Gemm *g) {
  (void)g;
  return false;
}

cxla_status f32_gemm_kernel_big(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                                int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f32 GEMM kernel is built for x86-64 only");
}

cxla_status f32_gemm_kernel_big_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                       int nthreads) {
  return ERR(UNAVAILABLE, "the AVX-512 f32 GEMM kernel is built for x86-64 only");
}

#endif
