/* intdot.h: low-precision GEMMs: 8-bit integers accumulated in s32
 * (s8/u8 x s8/u8 -> s32, wrapping on overflow as XLA's s32 accumulation
 * does) and bf16 x bf16 accumulated in f32. Internal to src/cpu; free of
 * LLVM so that unit tests can call each kernel directly. */
#ifndef CXLA_CPU_INTDOT_H
#define CXLA_CPU_INTDOT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "cpu/amx.h"

/* C[b] = A[b] x B[b] for b < batch: A is m x k (stored k x m when
 * trans_a), B is k x n (stored n x k when trans_b), C is m x n, all row
 * major and densely packed batch after batch. */
typedef struct Int8Gemm {
  int64_t batch, m, n, k;
  bool trans_a, trans_b;
  bool a_unsigned, b_unsigned; /* u8 operands (else s8) */
} Int8Gemm;

typedef enum Int8Kernel {
  INT8_AUTO,  /* the fastest this CPU runs */
  INT8_SGEMM, /* f32 BLAS over exact contraction chunks (any CPU) */
  INT8_VNNI,  /* AVX512-VNNI micro-kernel (UNAVAILABLE where the CPU lacks it) */
  INT8_AMX,   /* AMX tiles, over the pool's threads (amx.c; UNAVAILABLE likewise) */
} Int8Kernel;

/* pool: the threads the AMX kernel may use (at most nthreads; NULL: the
 * caller's); the others run on the caller. */
cxla_status int8_gemm(const Int8Gemm *g, const void *a, const void *b, int32_t *c, Int8Kernel kernel, RtPool *pool,
                      int nthreads);

/* bf16 x bf16 accumulated in f32 (g->a and g->b AMX_BF16; C f32, or bf16
 * rounded once when g->out_bf16). */
typedef enum Bf16Kernel {
  BF16_AUTO,  /* the fastest this CPU runs */
  BF16_SGEMM, /* operands widened to f32, the f32 GEMM (fgemm.c; any CPU) */
  BF16_AMX,   /* AMX tiles (UNAVAILABLE where the CPU lacks them) */
  BF16_AVX512, /* AVX512-BF16 vdpbf16ps on gemm_big.c's driver (bgemm.c; likewise) */
} Bf16Kernel;
cxla_status bf16_gemm(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, Bf16Kernel kernel,
                      RtPool *pool, int nthreads);

#if defined(__x86_64__) && defined(__GNUC__)
/* Rounds n f32 values to bf16 as f32_to_bf16 does (to nearest even; NaN
 * stays NaN, quiet), 16 at a time: the bf16 results of amx.c and
 * bgemm.c. Needs AVX512F and BW (the caller checked). */
void bf16_round_avx512(const float *s, uint16_t *d, int64_t n);

#include <immintrin.h>

/* 16 f32 values (their bits u) rounded to bf16 as f32_to_bf16 does: the
 * bf16 bits in each lane's low 16 (the high 16 zero). AVX512F. */
__attribute__((target("avx512f"))) static inline __m512i bf16_round16(__m512i u) {
  const __m512i one = _mm512_set1_epi32(1), half = _mm512_set1_epi32(0x7fff);
  const __m512i abs = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000),
                quiet = _mm512_set1_epi32(0x00400000);
  __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(half, _mm512_and_si512(_mm512_srli_epi32(u, 16), one)));
  __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, abs), inf);
  return _mm512_srli_epi32(_mm512_mask_mov_epi32(r, nan, _mm512_or_si512(u, quiet)), 16);
}
#endif

/* Whether this CPU runs BF16_AVX512 (AVX512F, BW and BF16). */
bool bf16_gemm_avx512_available(void);
/* bgemm.c: the AVX512-BF16 kernel, any layout and k (UNAVAILABLE where
 * the CPU lacks it), over at most nthreads of pool's threads. */
cxla_status bf16_gemm_avx512(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, RtPool *pool,
                             int nthreads);

/* Whether this CPU runs INT8_VNNI. */
bool int8_gemm_vnni_available(void);

/* intdot_vnni.c: the VNNI kernel, split by column panels or by rows over
 * at most nthreads of pool's threads; the caller checked availability. */
cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c, RtPool *pool,
                           int nthreads);

#endif
