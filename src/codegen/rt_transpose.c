/* The block moves of 2-D transposes of 32-bit elements (cg.c
 * emit_transpose), compiled with the library rather than emitted per
 * kernel: the emitted kernel splits the work and calls this for its
 * blocks. The unrolled groups of four 16 x 16 blocks (256 two-vector
 * shuffles) cost LLVM 45-50 ms per kernel (transpose_4096: most of a
 * 57 ms compile, against XLA's 44), and the same code every time. */
#include <stdbool.h>
#include <stdint.h>

#include "base/transpose16.h"
#include "codegen/codegen.h"

#define TB CG_TBLOCK /* a block: 16 x 16 elements (codegen.h) */
/* Streamed blocks go TGROUP column blocks at a time, the group's blocks
 * one after the other: each output row then takes 256 contiguous bytes
 * a step instead of one 64-byte line. f32[4096,4096] transposed (the
 * blocks then emitted by LLVM), one thread: 5.31-5.51 ms -> 4.04-4.15 (a
 * group of 2: 4.37-4.64; of 8: 4.30-4.54); two threads 3.36-3.61 ->
 * 2.72-2.85. Plain stores (outputs read back from the caches soon) keep
 * one block a step. */
#define TGROUP 4
/* AVX2's streamed blocks (8-lane halves) go 2 at a time: 16 x 2 input
 * rows read side by side rather than 64. f32[4096,4096] on a Zen 2, two
 * threads (the blocks called directly, best of 15): groups of 4 5.64-5.66
 * ms, 2 4.88-4.98, 1 5.36-5.43, 8 5.78. */
#define TGROUP8 2
/* Streamed AVX2 blocks prefetch each of their 16 input rows TPF elements
 * (two blocks, 128 bytes) ahead: a group reads 32 input rows side by
 * side, more streams than the hardware prefetcher follows.
 * f32[4096,4096] on a Zen 2, two threads, four alternations of
 * transpose_4096: 4.66-5.35 ms -> 4.25-4.85 (4 blocks ahead 4.65-5.39;
 * 8 and 16 slower than none). */
#define TPF 32

/* One block without vectors: the 16 x 16 output elements from o (rows
 * cols apart) = the transpose of the 16 x 16 from s (rows rows apart). */
static inline void block_plain(const uint32_t *s, uint32_t *o, int64_t rows, int64_t cols) {
  for (int64_t t = 0; t < TB; t++)
    for (int64_t k = 0; k < TB; k++) o[t * cols + k] = s[k * rows + t];
}

/* The blocks of output rows [i_lo, i_lo + 16 nb) by columns [j_lo, j_lo +
 * 16 nj) with BLOCK: groups of G column blocks (input rows outer, read in
 * order; output rows inner), then the column blocks after the last
 * group. A block's rows lie in one matrix of the batch (rows a multiple
 * of 16 where there are several): its matrix and row within it are
 * stepped, not divided out per block. */
#define BLOCKS(BLOCK, G)                                                                                \
  do {                                                                                                  \
    int64_t ng_ = nj / (G), m0_ = i_lo / rows, r0_ = i_lo - m0_ * rows;                                 \
    for (int64_t q_ = 0; q_ < nj; q_ += q_ < ng_ * (G) ? (G) : 1) {                                     \
      int64_t w_ = q_ < ng_ * (G) ? (G) : 1, m_ = m0_, r_ = r0_;                                        \
      for (int64_t b_ = 0; b_ < nb; b_++) {                                                             \
        int64_t i0_ = i_lo + b_ * TB;                                                                   \
        for (int64_t u_ = 0; u_ < w_; u_++) {                                                           \
          int64_t j0_ = j_lo + (q_ + u_) * TB;                                                          \
          BLOCK(src + m_ * rows * cols + j0_ * rows + r_, out + i0_ * cols + j0_, rows, cols);           \
        }                                                                                               \
        if ((r_ += TB) >= rows) r_ -= rows, m_++;                                                       \
      }                                                                                                 \
    }                                                                                                   \
  } while (0)

static void blocks_plain(const uint32_t *src, uint32_t *out, int64_t rows, int64_t cols, int64_t i_lo, int64_t nb,
                         int64_t j_lo, int64_t nj) {
  BLOCKS(block_plain, 1);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))
#define TGT2 __attribute__((target("avx2")))

/* 16 rows of 16 loaded as vectors, transposed in registers
 * (base/transpose16.h), stored as 16 rows: each cache line of both arrays
 * read or written whole, once. */
#define DEFINE_BLOCK(NAME, STORE)                                                                       \
  TGT static inline __attribute__((always_inline)) void NAME(const uint32_t *s, uint32_t *o, int64_t rows, \
                                                             int64_t cols) {                           \
    __m512 r[TB];                                                                                       \
    _Pragma("GCC unroll 16") for (int k = 0; k < TB; k++) r[k] =                                        \
        _mm512_loadu_ps((const float *)(s + k * rows));                                                 \
    transpose16(r);                                                                                     \
    _Pragma("GCC unroll 16") for (int k = 0; k < TB; k++) STORE((float *)(o + k * cols), r[k]);        \
  }
DEFINE_BLOCK(block_vec, _mm512_storeu_ps)
DEFINE_BLOCK(block_stream, _mm512_stream_ps)

TGT static void blocks_vec(const uint32_t *src, uint32_t *out, int64_t rows, int64_t cols, int64_t i_lo, int64_t nb,
                           int64_t j_lo, int64_t nj) {
  BLOCKS(block_vec, 1);
}

TGT static void blocks_stream(const uint32_t *src, uint32_t *out, int64_t rows, int64_t cols, int64_t i_lo,
                              int64_t nb, int64_t j_lo, int64_t nj) {
  BLOCKS(block_stream, TGROUP);
  _mm_sfence(); /* visible when the slice returns */
}

/* Without AVX-512 (AVX2): the transpose of the 8 x 8 at s (rows rows
 * apart) into t, its 8 rows loaded and transposed by three rounds of
 * shuffles (pairs of elements, pairs of pairs, halves). */
TGT2 static inline __attribute__((always_inline)) void tr8(const uint32_t *s, int64_t rows, __m256 *t) {
  __m256 r[8], p[8], q[8];
  _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_ps((const float *)(s + k * rows));
  _Pragma("GCC unroll 4") for (int k = 0; k < 8; k += 2) {
    p[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    p[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  _Pragma("GCC unroll 2") for (int k = 0; k < 8; k += 4) {
    q[k] = _mm256_shuffle_ps(p[k], p[k + 2], 0x44);
    q[k + 1] = _mm256_shuffle_ps(p[k], p[k + 2], 0xee);
    q[k + 2] = _mm256_shuffle_ps(p[k + 1], p[k + 3], 0x44);
    q[k + 3] = _mm256_shuffle_ps(p[k + 1], p[k + 3], 0xee);
  }
  _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
    t[k] = _mm256_permute2f128_ps(q[k], q[k + 4], 0x20);
    t[k + 4] = _mm256_permute2f128_ps(q[k], q[k + 4], 0x31);
  }
}

/* A block as four 8 x 8 quarters, each half of output rows (8 rows) from
 * its two quarters, every row's two halves stored one after the other
 * (streamed, a 64-byte line then fills at once: f32[4096,4096] on one
 * thread, slices of 8 row blocks, 17 ms, against 33 stored quarter after
 * quarter and 12-14 with AVX-512). */
#define DEFINE_BLOCK8(NAME, STORE, PF)                                                                    \
  TGT2 static inline __attribute__((always_inline)) void NAME(const uint32_t *s, uint32_t *o, int64_t rows, \
                                                              int64_t cols) {                          \
    _Pragma("GCC unroll 2") for (int a = 0; a < TB; a += 8) {                                           \
      __m256 x[8], y[8];                                                                                \
      _Pragma("GCC unroll 8") for (int k = 0; PF && k < 8; k++)                                         \
        _mm_prefetch((const char *)(s + (a + k) * rows + PF), _MM_HINT_T0);                             \
      tr8(s + a, rows, x);                                                                              \
      tr8(s + 8 * rows + a, rows, y);                                                                   \
      _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) {                                             \
        STORE((float *)(o + (a + k) * cols), x[k]);                                                     \
        STORE((float *)(o + (a + k) * cols + 8), y[k]);                                                 \
      }                                                                                                 \
    }                                                                                                   \
  }
DEFINE_BLOCK8(block8_vec, _mm256_storeu_ps, 0)
DEFINE_BLOCK8(block8_stream, _mm256_stream_ps, TPF)

TGT2 static void blocks8_vec(const uint32_t *src, uint32_t *out, int64_t rows, int64_t cols, int64_t i_lo,
                             int64_t nb, int64_t j_lo, int64_t nj) {
  BLOCKS(block8_vec, 1);
}

TGT2 static void blocks8_stream(const uint32_t *src, uint32_t *out, int64_t rows, int64_t cols, int64_t i_lo,
                                int64_t nb, int64_t j_lo, int64_t nj) {
  BLOCKS(block8_stream, TGROUP8);
  _mm_sfence();
}

#endif

void codegen_rt_transpose32_path(int path, const void *src, void *out, int64_t rows, int64_t cols, int64_t i_lo,
                                 int64_t nb, int64_t j_lo, int64_t nj, bool nt) {
  const uint32_t *s = src;
  uint32_t *o = out;
#if defined(__x86_64__) && defined(__GNUC__)
  /* streaming stores want every output row 64-byte aligned */
  bool stream = nt && ((uintptr_t)out & 63) == 0 && cols % TB == 0;
  if (path == CG_TPATH_AVX512) {
    if (stream) blocks_stream(s, o, rows, cols, i_lo, nb, j_lo, nj);
    else blocks_vec(s, o, rows, cols, i_lo, nb, j_lo, nj);
    return;
  }
  if (path == CG_TPATH_AVX2) {
    if (stream) blocks8_stream(s, o, rows, cols, i_lo, nb, j_lo, nj);
    else blocks8_vec(s, o, rows, cols, i_lo, nb, j_lo, nj);
    return;
  }
#endif
  (void)path;
  (void)nt;
  blocks_plain(s, o, rows, cols, i_lo, nb, j_lo, nj);
}

void cxla_cg_rt_transpose32(const void *src, void *out, int64_t rows, int64_t cols, int64_t i_lo, int64_t nb,
                            int64_t j_lo, int64_t nj, int32_t nt) {
  int path = CG_TPATH_PLAIN;
#if defined(__x86_64__) && defined(__GNUC__)
  path = __builtin_cpu_supports("avx512f") ? CG_TPATH_AVX512 : __builtin_cpu_supports("avx2") ? CG_TPATH_AVX2 : path;
#endif
  codegen_rt_transpose32_path(path, src, out, rows, cols, i_lo, nb, j_lo, nj, nt != 0);
}
