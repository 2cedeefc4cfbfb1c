/* transpose16.h: a 16 x 16 block of 32-bit elements transposed in
 * AVX-512 registers, for the routines that move such blocks (cpu/fgemm.c
 * packing a transposed B, cpu/dconv.c's channels-last rows to planes,
 * codegen/rt_transpose.c's transposes). Bits are moved, never computed
 * on: any 32-bit element type goes through as floats. x86-64 only; the
 * caller is compiled for, and has checked, AVX-512F. */
#ifndef CXLA_BASE_TRANSPOSE16_H
#define CXLA_BASE_TRANSPOSE16_H

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* One round of transpose16: rows i and i + B (bit B of i clear) exchange
 * their halves at bit B of the lane index. */
#define TRANSPOSE16_ROUND(r, B)                                                                        \
  do {                                                                                                 \
    int lo_[16], hi_[16];                                                                              \
    _Pragma("GCC unroll 16") for (int j_ = 0; j_ < 16; j_++) {                                         \
      lo_[j_] = (j_ & (B)) ? 16 + j_ - (B) : j_;                                                       \
      hi_[j_] = (j_ & (B)) ? 16 + j_ : j_ + (B);                                                       \
    }                                                                                                  \
    __m512i ml_ = _mm512_loadu_si512((const void *)lo_), mh_ = _mm512_loadu_si512((const void *)hi_);  \
    _Pragma("GCC unroll 16") for (int i_ = 0; i_ < 16; i_++) {                                         \
      if (i_ & (B)) continue;                                                                          \
      __m512 a_ = (r)[i_], c_ = (r)[i_ + (B)];                                                         \
      (r)[i_] = _mm512_permutex2var_ps(a_, ml_, c_);                                                   \
      (r)[i_ + (B)] = _mm512_permutex2var_ps(a_, mh_, c_);                                             \
    }                                                                                                  \
  } while (0)

/* r[i] lane j becomes r[j] lane i: four rounds of two-vector permutes,
 * round B swapping bit B of the row index with bit B of the lane index
 * (64 permutes). Against unpacks, in-lane shuffles and 128-bit lane
 * shuffles (64 too), f32[4096,4096] transposed on one thread in slices
 * of 8 row blocks, streamed (codegen/rt_transpose.c), 3 alternations:
 * 14.5-15.9 against 18.9-19.9 ms. */
__attribute__((target("avx512f"))) static inline __attribute__((always_inline)) void transpose16(__m512 r[16]) {
  TRANSPOSE16_ROUND(r, 8);
  TRANSPOSE16_ROUND(r, 4);
  TRANSPOSE16_ROUND(r, 2);
  TRANSPOSE16_ROUND(r, 1);
}

#endif
#endif
