/* gemm_big.h: the driver of the GEMMs of large products (gemm_big.c),
 * shared by the element types: f32 (fgemm.c's f32_gemm_kernel_big), f64
 * (dgemm.c's f64_gemm_kernel_big) and pairs of bf16 (bgemm.c). Internal
 * to src/cpu.
 *
 * B is packed once into panels of nr columns (zero-padded past n): panel
 * p's step k at pb + (p * K + k) * nr; a slice of kc steps at a time,
 * where a thread first needs it, for a type with pack_slice and no more
 * threads than processors, else all of it over the threads first. The
 * rows of C are split into blocks whose rows of A, packed into mr-row
 * tiles step after step (the micro-kernel's broadcasts then read
 * consecutive elements), stay in L2 while every panel of B passes under
 * them, kc steps at a time (kc x nr elements, in L1); the next slice of
 * B is prefetched into L2 meanwhile. A tile accumulates over the slices
 * (in C, or in a scratch: GemmBigType.scratch), and over the blocks of
 * steps in C, so every element of C is the chain of fused multiply-adds over
 * k = 0, 1, ... from +0 whatever the blocking and the thread count (the
 * micro-kernels take every product: inf and NaN propagate).
 *
 * A type is a GemmBigType: its sizes and its routines, the packing ones
 * instantiated from the inline generics below with its constants. */
#ifndef CXLA_CPU_GEMM_BIG_H
#define CXLA_CPU_GEMM_BIG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/fgemm.h"

/* Products the big path takes (f32_gemm_big_fits, f64_gemm_big_fits):
 * every side at least GEMM_BIG_MIN; f64 n at most GEMM_BIG_MAX_N (past it
 * every block of rows streams all of the packed B from L3; f32 has its
 * own bounds, fgemm.c). */
#define GEMM_BIG_MIN 256
#define GEMM_BIG_MAX_N 1024

typedef struct GemmBigType {
  int64_t esize; /* bytes per element */
  int64_t mr, nr; /* rows per micro-tile; columns per panel of B (at most 64) */
  int64_t kc; /* steps per slice of a panel (kc x nr elements: L1) */
  int64_t kb; /* steps per block of A (the rest in further blocks) */
  int64_t a_bytes; /* packed A per block of rows about (L2) */
  /* Whether full tiles keep their partial sums between the passes over
   * a block's kc-step slices in a contiguous per-thread scratch (mr x nr
   * per tile) rather than in C, whose rows ldc apart (4 KiB and more)
   * all fall on a few cache sets and push one another and B's slice out
   * of L1 and L2: C read on the first pass (blocks of steps after the
   * first), written on the last. */
  bool scratch;
  /* The rows x nr tile at c (row stride ldc elements; the columns whose
   * bit is set in cols stored, the others untouched) = (when accum, the
   * tile at ci, row stride ldi, +) the packed tile of A at a (step k's
   * rows at a + k * mr) times k rows of the packed panel at b. ci != c
   * only for full tiles (rows == mr) of a type with scratch set; partial
   * tiles get ci == c, ldi == ldc (read and written in place). The npf
   * lines from pf on (part of the next slice of B) are to be fetched
   * into L2 meanwhile, spread over the steps: issued all at once before
   * the tile, they stall on the line fill buffers. */
  void (*tile)(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi, void *c,
               int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf);
  /* NULL, or a tile whose store (the rest as tile's) writes C in elements
   * of out_esize bytes, c and ldc counted in them: the type's results in
   * a narrower type (bgemm.c: f32 sums rounded to bf16). A type with one
   * has scratch set and k of at most kb steps (one block of steps: C
   * written once, by the last pass over the slices); every tile then
   * keeps its partial sums in the scratch, partial ones too. */
  void (*tile_out)(int64_t rows, int64_t k, const void *a, const void *b, const void *ci, int64_t ldi, void *c,
                   int64_t ldc, uint64_t cols, bool accum, const char *pf, int64_t npf);
  int64_t out_esize;
  /* gemm_big_pack_a of the type */
  void (*pack_a)(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst);
  /* A type without pack_slice (B packed before the products, over the
   * threads): rows [lo, hi) of B (k x n, row stride ldb) into the panels
   * at dst (bgemm.c's pairs of rows) */
  void (*pack_b)(const void *b, int64_t ldb, int64_t n, int64_t k, int64_t lo, int64_t hi, void *dst);
  /* NULL, or steps [k0, k1) of the panel of columns j0.. of B (k x n,
   * row stride ldb; stored n x k, row stride k, when trans) into that
   * panel at dst (step q at dst + q * nr; zero past n): B then packed
   * slice by slice where first needed (gemm_big_run) */
  void (*pack_slice)(const void *b, int64_t ldb, bool trans, int64_t n, int64_t k, int64_t j0, int64_t k0, int64_t k1,
                     void *dst);
} GemmBigType;

/* Runs g (every F32Gemm field honoured; C of out_esize elements when
 * t->tile_out, INVALID_ARGUMENT if g->k is past t->kb then) with
 * elements of type t; B read
 * from its panels at pb (batch element after batch element, each its
 * ceil(n / nr) panels of k x nr elements, as above) when pb is not
 * NULL, else packed here from b. */
cxla_status gemm_big_run(const GemmBigType *t, const F32Gemm *g, const void *a, const void *b, const void *pb,
                         void *c, RtPool *pool, int nthreads);

/* The blocks of rows gemm_big_run splits M rows of K steps into for th
 * threads (th >= 1): a multiple of th (each thread's share equal), unless
 * there are fewer mr-row tiles than that (a block per tile then). */
int64_t gemm_big_blocks(const GemmBigType *t, int64_t M, int64_t K, int64_t th);

/* The f32 type's pack_a (fgemm.c; the caller checked for AVX-512): any
 * 32-bit elements, moved bit for bit (bgemm.c's pairs of bf16). */
void f32_gemm_big_pack_a(const void *A, int64_t sai, int64_t sak, int64_t K, int64_t i0, int64_t i1, void *dst);

/* Rows [i0, i1) of A (row i, step k at element i * sai + k * sak), K
 * steps, as tiles of mr rows: tile t's step k at dst + (t * K + k) * mr;
 * the rows past i1 in the last tile are not written (the kernel reads
 * only its rows). Step after step, a step's rows at once: A's lines are
 * walked once whichever of sai and sak is 1. es and mr are the type's
 * constants (the copies become moves, the row loop unrolls). */
static inline __attribute__((always_inline)) void gemm_big_pack_a(int64_t es, int64_t mr, const void *A,
                                                                  int64_t sai, int64_t sak, int64_t K,
                                                                  int64_t i0, int64_t i1, void *dst) {
  for (int64_t i = i0; i < i1; i += mr) {
    int64_t rows = i1 - i < mr ? i1 - i : mr;
    char *d = (char *)dst + (i - i0) * K * es;
    const char *s = (const char *)A + i * sai * es;
    if (rows == mr) {
      for (int64_t k = 0; k < K; k++)
        for (int64_t r = 0; r < mr; r++) memcpy(d + (k * mr + r) * es, s + (r * sai + k * sak) * es, (size_t)es);
      continue;
    }
    for (int64_t k = 0; k < K; k++)
      for (int64_t r = 0; r < rows; r++) memcpy(d + (k * mr + r) * es, s + (r * sai + k * sak) * es, (size_t)es);
  }
}

/* A micro-kernel's first steps, while it fetches the npf lines at pf into
 * L2 (GemmBigType.tile), one line per step: STEP(k) runs step k of K;
 * the lines left past the last step go at once. Leaves k after the steps
 * run (at most K), for the kernel's own loop over the rest. */
#define GEMM_BIG_PREFETCH_STEPS(k, K, pf, npf, STEP)            \
  int64_t k = 0;                                                \
  for (; k < (npf) && k < (K); k++) {                           \
    _mm_prefetch((pf) + 64 * k, _MM_HINT_T1);                   \
    STEP(k);                                                    \
  }                                                             \
  for (int64_t q_ = k; q_ < (npf); q_++) _mm_prefetch((pf) + 64 * q_, _MM_HINT_T1)

/* Rows of B packed per pass over the panels by a type's pack_b (bgemm.c):
 * GEMM_BIG_PACK_ROWS rows at a time, panel after panel, each panel's rows
 * written as one contiguous run (row after row across all panels writes
 * to as many places 8 KiB and more apart: f64, 1024 x 1024 on one
 * thread, 2.2 ms) while the rows read stay in L1. */
#define GEMM_BIG_PACK_ROWS 32

/* GemmBigType.pack_slice for any type: steps [k0, k1) of the panel of
 * columns [j0, j0 + nr) of B (k x n, row stride ldb; stored n x k when
 * trans, an element at a time then) into the panel at dst (step q at dst
 * + q * nr), zero past n. */
static inline __attribute__((always_inline)) void gemm_big_pack_slice(int64_t es, int64_t nr, const void *b,
                                                                      int64_t ldb, bool trans, int64_t n,
                                                                      int64_t k, int64_t j0, int64_t k0,
                                                                      int64_t k1, void *dst) {
  int64_t nc = n - j0 < nr ? n - j0 : nr;
  for (int64_t q = k0; q < k1; q++) {
    char *d = (char *)dst + q * nr * es;
    if (!trans) memcpy(d, (const char *)b + (q * ldb + j0) * es, (size_t)(nc * es));
    else
      for (int64_t jj = 0; jj < nc; jj++) memcpy(d + jj * es, (const char *)b + ((j0 + jj) * k + q) * es, (size_t)es);
    if (nc < nr) memset(d + nc * es, 0, (size_t)((nr - nc) * es));
  }
}

#endif
