/* s8/u8 x s8/u8 -> s32 GEMM on AVX512-VNNI (vpdpbusd: 16 lanes, each
 * adding four u8 x s8 products to an s32 with wraparound).
 *
 * Goto-style blocking: for each block of KC contraction steps the whole
 * rhs block is packed into panels of NR columns ([k/4][column][4 bytes]),
 * then for each block of MC rows the lhs into panels of MR rows
 * ([k/4][row][4 bytes]); an MR x NR micro-kernel keeps its tile of C in
 * registers over the block, the rhs panel staying in L1 while the row
 * panels stream from L2. Edge tiles are zero-padded in the packing.
 *
 * vpdpbusd multiplies u8 by s8, so the packed rhs is always the u8 side
 * (lanes over columns) and the broadcast lhs the s8 side, except for
 * u8 x s8, which swaps the roles instead:
 *   s8 x s8: rhs + 128 (xor 0x80) is u8; C = A.(B+128) - 128 rowsum(A)
 *   s8 x u8: as is
 *   u8 x s8: lhs broadcast as the u8 side, rhs vectors as the s8 side
 *   u8 x u8: lhs - 128 (xor 0x80) is s8; C = (A-128).B + 128 colsum(B)
 * Every sum is taken mod 2^32, so the result equals the wrapping s32
 * sum of the products whatever K is. */
#include <string.h>

#include "cpu/intdot.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512bw,avx512vnni")))

enum { MR = 6, NV = 4, NR = 16 * NV, KC = 512, MC = 48 };

static inline uint32_t load4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* The MR x NR tile C[0..MR)[0..NR) (row stride ldc) = (acc ? C : 0) +
 * ap . bp over G groups of 4 contraction steps. */
#define DEFINE_KERNEL(NAME, SWAP)                                                                      \
  TGT static void NAME(int64_t G, const uint8_t *ap, const uint8_t *bp, int32_t *c, int64_t ldc, bool acc) { \
    __m512i r[MR][NV];                                                                                 \
    _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                               \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) r[i][v] = _mm512_setzero_si512();           \
    for (int64_t g = 0; g < G; g++) {                                                                  \
      __m512i bv[NV];                                                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) bv[v] = _mm512_loadu_si512(bp + 64 * v);    \
      _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++) {                                           \
        __m512i av = _mm512_set1_epi32((int)load4(ap + 4 * i));                                        \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) r[i][v] =                                 \
            SWAP ? _mm512_dpbusd_epi32(r[i][v], av, bv[v]) : _mm512_dpbusd_epi32(r[i][v], bv[v], av);  \
      }                                                                                                \
      ap += 4 * MR;                                                                                    \
      bp += 4 * NR;                                                                                    \
    }                                                                                                  \
    _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                               \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) {                                           \
        int32_t *p = c + i * ldc + 16 * v;                                                             \
        __m512i x = acc ? _mm512_add_epi32(r[i][v], _mm512_loadu_si512(p)) : r[i][v];                  \
        _mm512_storeu_si512(p, x);                                                                     \
      }                                                                                                \
  }

DEFINE_KERNEL(kernel_bu, 0) /* packed rhs u8, broadcast lhs s8 */
DEFINE_KERNEL(kernel_au, 1) /* broadcast lhs u8, packed rhs s8 */

/* Packs rows [i0, i0+mc) x steps [k0, k0+kc) of the lhs (m x k, stored
 * k x m when trans), each byte xor x, into ceil(mc/MR) panels of G groups. */
static void pack_a(const uint8_t *a, int64_t M, int64_t K, bool trans, int64_t i0, int64_t mc, int64_t k0,
                   int64_t kc, uint8_t x, uint8_t *dst) {
  int64_t G = (kc + 3) / 4, full = kc / 4;
  uint32_t x4 = x * 0x01010101u;
  for (int64_t r0 = 0; r0 < mc; r0 += MR) {
    uint8_t *d = dst + r0 / MR * G * MR * 4;
    for (int r = 0; r < MR; r++) {
      int64_t i = i0 + r0 + r;
      uint8_t *dr = d + 4 * r;
      if (r0 + r >= mc) {
        for (int64_t g = 0; g < G; g++) memset(dr + g * MR * 4, 0, 4);
      } else if (!trans) {
        const uint8_t *s = a + i * K + k0;
        for (int64_t g = 0; g < full; g++) {
          uint32_t v = load4(s + 4 * g) ^ x4;
          memcpy(dr + g * MR * 4, &v, 4);
        }
        for (int64_t g = full; g < G; g++)
          for (int q = 0; q < 4; q++) dr[g * MR * 4 + q] = 4 * g + q < kc ? s[4 * g + q] ^ x : 0;
      } else {
        for (int64_t g = 0; g < G; g++)
          for (int q = 0; q < 4; q++) {
            int64_t k = k0 + 4 * g + q;
            dr[g * MR * 4 + q] = 4 * g + q < kc ? a[k * M + i] ^ x : 0;
          }
      }
    }
  }
}

/* Packs steps [k0, k0+kc) of the whole rhs (k x n, stored n x k when
 * trans), each byte xor x, into ceil(n/NR) panels of G groups. */
TGT static void pack_b(const uint8_t *b, int64_t K, int64_t N, bool trans, int64_t k0, int64_t kc, uint8_t x,
                       uint8_t *dst) {
  int64_t G = (kc + 3) / 4, NP = (N + NR - 1) / NR;
  if (!trans) {
    __m128i xv = _mm_set1_epi8((char)x);
    for (int64_t g = 0; g < G; g++) {
      const uint8_t *row[4];
      bool fullg = 4 * g + 4 <= kc;
      for (int q = 0; q < 4; q++) row[q] = 4 * g + q < kc ? b + (k0 + 4 * g + q) * N : b;
      for (int64_t p = 0; p < NP; p++) {
        uint8_t *d = dst + (p * G + g) * NR * 4;
        for (int64_t jj = 0; jj < NR; jj += 16) {
          int64_t j = p * NR + jj;
          if (fullg && j + 16 <= N) {
            __m128i r0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row[0] + j)), xv);
            __m128i r1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row[1] + j)), xv);
            __m128i r2 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row[2] + j)), xv);
            __m128i r3 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row[3] + j)), xv);
            __m128i l01 = _mm_unpacklo_epi8(r0, r1), h01 = _mm_unpackhi_epi8(r0, r1);
            __m128i l23 = _mm_unpacklo_epi8(r2, r3), h23 = _mm_unpackhi_epi8(r2, r3);
            _mm_storeu_si128((__m128i *)(d + 4 * jj), _mm_unpacklo_epi16(l01, l23));
            _mm_storeu_si128((__m128i *)(d + 4 * jj + 16), _mm_unpackhi_epi16(l01, l23));
            _mm_storeu_si128((__m128i *)(d + 4 * jj + 32), _mm_unpacklo_epi16(h01, h23));
            _mm_storeu_si128((__m128i *)(d + 4 * jj + 48), _mm_unpackhi_epi16(h01, h23));
          } else {
            for (int64_t t = jj; t < jj + 16; t++)
              for (int q = 0; q < 4; q++)
                d[4 * t + q] = p * NR + t < N && 4 * g + q < kc ? row[q][p * NR + t] ^ x : 0;
          }
        }
      }
    }
    return;
  }
  uint32_t x4 = x * 0x01010101u;
  for (int64_t p = 0; p < NP; p++)
    for (int64_t t = 0; t < NR; t++) {
      int64_t j = p * NR + t;
      const uint8_t *s = b + j * K + k0;
      for (int64_t g = 0; g < G; g++) {
        uint8_t *d = dst + (p * G + g) * NR * 4 + 4 * t;
        if (j >= N) {
          memset(d, 0, 4);
        } else if (4 * g + 4 <= kc) {
          uint32_t v = load4(s + 4 * g) ^ x4;
          memcpy(d, &v, 4);
        } else {
          for (int q = 0; q < 4; q++) d[q] = 4 * g + q < kc ? s[4 * g + q] ^ x : 0;
        }
      }
    }
}

/* Sums of a rows x cols row-major byte matrix (s8 or u8), mod 2^32:
 * out[r] = the sum of row r when along_rows, else out[c] = the sum of
 * column c. */
TGT static void byte_sums(const uint8_t *m, int64_t rows, int64_t cols, bool is_unsigned, bool along_rows,
                          uint32_t *out) {
  if (!along_rows) {
    memset(out, 0, (size_t)cols * sizeof *out);
    for (int64_t r = 0; r < rows; r++) {
      const uint8_t *s = m + r * cols;
      if (is_unsigned)
        for (int64_t c = 0; c < cols; c++) out[c] += s[c];
      else
        for (int64_t c = 0; c < cols; c++) out[c] += (uint32_t)(int32_t)(int8_t)s[c];
    }
    return;
  }
  __m512i ones = _mm512_set1_epi8(1);
  for (int64_t r = 0; r < rows; r++) {
    const uint8_t *s = m + r * cols;
    __m512i acc = _mm512_setzero_si512();
    for (int64_t c = 0; c < cols; c += 64) {
      __mmask64 k = cols - c >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (cols - c)) - 1);
      __m512i v = _mm512_maskz_loadu_epi8(k, s + c);
      acc = is_unsigned ? _mm512_dpbusd_epi32(acc, v, ones) : _mm512_dpbusd_epi32(acc, ones, v);
    }
    out[r] = (uint32_t)_mm512_reduce_add_epi32(acc);
  }
}

cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c) {
  int64_t M = g->m, N = g->n, K = g->k;
  bool au = g->a_unsigned, bu = g->b_unsigned;
  bool swap = au && !bu, row_fix = !au && !bu, col_fix = au && bu;
  uint8_t xa = col_fix ? 0x80 : 0, xb = row_fix ? 0x80 : 0;
  int64_t Gmax = ((K < KC ? K : KC) + 3) / 4, NP = (N + NR - 1) / NR, MP = ((M < MC ? M : MC) + MR - 1) / MR;
  uint8_t *bpk = cxla_malloc((size_t)(NP * Gmax * NR * 4)), *apk = cxla_malloc((size_t)(MP * Gmax * MR * 4));
  uint32_t *fix = row_fix || col_fix ? cxla_malloc((size_t)(row_fix ? M : N) * sizeof *fix) : NULL;
  if (!bpk || !apk || ((row_fix || col_fix) && !fix)) {
    cxla_free(bpk);
    cxla_free(apk);
    cxla_free(fix);
    return cxla_oom();
  }
  int32_t tile[MR * NR];
  for (int64_t bi = 0; bi < g->batch; bi++) {
    const uint8_t *A = a + bi * M * K, *B = b + bi * K * N;
    int32_t *C = c + bi * M * N;
    for (int64_t k0 = 0; k0 < K; k0 += KC) {
      int64_t kc = K - k0 < KC ? K - k0 : KC, G = (kc + 3) / 4;
      pack_b(B, K, N, g->trans_b, k0, kc, xb, bpk);
      for (int64_t i0 = 0; i0 < M; i0 += MC) {
        int64_t mc = M - i0 < MC ? M - i0 : MC;
        pack_a(A, M, K, g->trans_a, i0, mc, k0, kc, xa, apk);
        for (int64_t p = 0; p < NP; p++) {
          int64_t j0 = p * NR, nr = N - j0 < NR ? N - j0 : NR;
          const uint8_t *bp = bpk + p * G * NR * 4;
          for (int64_t r0 = 0; r0 < mc; r0 += MR) {
            int64_t mr = mc - r0 < MR ? mc - r0 : MR;
            const uint8_t *ap = apk + r0 / MR * G * MR * 4;
            int32_t *ct = C + (i0 + r0) * N + j0;
            if (mr == MR && nr == NR) {
              (swap ? kernel_au : kernel_bu)(G, ap, bp, ct, N, k0 > 0);
              continue;
            }
            (swap ? kernel_au : kernel_bu)(G, ap, bp, tile, NR, false);
            for (int64_t i = 0; i < mr; i++)
              for (int64_t j = 0; j < nr; j++) {
                uint32_t v = (uint32_t)tile[i * NR + j];
                if (k0 > 0) v += (uint32_t)ct[i * N + j];
                ct[i * N + j] = (int32_t)v;
              }
          }
        }
      }
    }
    if (row_fix) {
      /* C -= 128 rowsum(A) */
      if (g->trans_a) byte_sums(A, K, M, false, false, fix);
      else byte_sums(A, M, K, false, true, fix);
      for (int64_t i = 0; i < M; i++) {
        uint32_t d = 0u - 128u * fix[i];
        uint32_t *cr = (uint32_t *)C + i * N;
        for (int64_t j = 0; j < N; j++) cr[j] += d;
      }
    } else if (col_fix) {
      /* C += 128 colsum(B) */
      if (g->trans_b) byte_sums(B, N, K, true, true, fix);
      else byte_sums(B, K, N, true, false, fix);
      for (int64_t j = 0; j < N; j++) fix[j] *= 128u;
      for (int64_t i = 0; i < M; i++) {
        uint32_t *cr = (uint32_t *)C + i * N;
        for (int64_t j = 0; j < N; j++) cr[j] += fix[j];
      }
    }
  }
  cxla_free(bpk);
  cxla_free(apk);
  cxla_free(fix);
  return NULL;
}

#else

cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c) {
  return ERR(UNAVAILABLE, "AVX512-VNNI kernels are built for x86-64 only");
}

#endif
