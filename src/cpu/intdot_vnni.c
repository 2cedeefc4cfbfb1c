/* s8/u8 x s8/u8 -> s32 GEMM on AVX512-VNNI (vpdpbusd: 16 lanes, each
 * adding four u8 x s8 products to an s32 with wraparound).
 *
 * Goto-style blocking: for each block of KC contraction steps the whole
 * rhs block is packed into panels of NR columns ([k/4][column][4 bytes]),
 * then for each block of MC rows the lhs into panels of MR rows
 * (rows of 4 ceil(KC/4) bytes; row-major lhs rows that need no change are
 * read in place instead); an MR x NR micro-kernel keeps its tile of C in
 * registers over the block, the rhs panel staying in L1 while the row
 * panels stream from L2. Edge tiles are zero-padded in the packing and
 * computed into a scratch tile. The correction terms below are the
 * initial values of the first block's accumulators.
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

/* The MR x NR tile C[0..MR)[0..NR) (row stride ldc) = init + ap . bp over
 * G groups of 4 contraction steps, where init is C itself when acc, else
 * rinit[row] when given, else cinit[column] when given, else 0. Row r of
 * the lhs panel starts at ap + r * ars. */
#define DEFINE_KERNEL(NAME, SWAP)                                                                      \
  TGT static void NAME(int64_t G, const uint8_t *ap, int64_t ars, const uint8_t *bp, int32_t *c, int64_t ldc, \
                       bool acc, const int32_t *rinit, const int32_t *cinit) {                        \
    __m512i r[MR][NV];                                                                                 \
    _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                               \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) r[i][v] =                                   \
          acc     ? _mm512_loadu_si512(c + i * ldc + 16 * v)                                           \
          : rinit ? _mm512_set1_epi32(rinit[i])                                                        \
          : cinit ? _mm512_loadu_si512(cinit + 16 * v)                                                 \
                  : _mm512_setzero_si512();                                                            \
    for (int64_t g = 0; g < G; g++) {                                                                  \
      __m512i bv[NV];                                                                                  \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) bv[v] = _mm512_loadu_si512(bp + 64 * v);    \
      _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++) {                                           \
        __m512i av = _mm512_set1_epi32((int)load4(ap + i * ars + 4 * g));                              \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) r[i][v] =                                 \
            SWAP ? _mm512_dpbusd_epi32(r[i][v], av, bv[v]) : _mm512_dpbusd_epi32(r[i][v], bv[v], av);  \
      }                                                                                                \
      bp += 4 * NR;                                                                                    \
    }                                                                                                  \
    _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                               \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) _mm512_storeu_si512(c + i * ldc + 16 * v, r[i][v]); \
  }

DEFINE_KERNEL(kernel_bu, 0) /* packed rhs u8, broadcast lhs s8 */
DEFINE_KERNEL(kernel_au, 1) /* broadcast lhs u8, packed rhs s8 */

/* Packs rows [i0, i0+mc) x steps [k0, k0+kc) of the lhs (m x k, stored
 * k x m when trans), each byte xor x, into ceil(mc/MR) panels of MR rows
 * of 4G bytes (zero-padded). */
static void pack_a(const uint8_t *a, int64_t M, int64_t K, bool trans, int64_t i0, int64_t mc, int64_t k0,
                   int64_t kc, uint8_t x, uint8_t *dst) {
  int64_t G = (kc + 3) / 4, P = (mc + MR - 1) / MR;
  for (int64_t r = 0; r < P * MR; r++) {
    uint8_t *d = dst + r * 4 * G;
    int64_t i = i0 + r;
    if (r >= mc) {
      memset(d, 0, (size_t)(4 * G));
    } else if (!trans) {
      const uint8_t *s = a + i * K + k0;
      for (int64_t k = 0; k < kc; k++) d[k] = s[k] ^ x;
      memset(d + kc, 0, (size_t)(4 * G - kc));
    } else {
      for (int64_t k = 0; k < kc; k++) d[k] = a[(k0 + k) * M + i] ^ x;
      memset(d + kc, 0, (size_t)(4 * G - kc));
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
  int64_t nfix = row_fix ? M + MR : col_fix ? NP * NR : 0;
  uint8_t *bpk = cxla_malloc((size_t)(NP * Gmax * NR * 4)), *apk = cxla_malloc((size_t)(MP * Gmax * MR * 4));
  int32_t *fix = nfix ? cxla_calloc((size_t)nfix, sizeof *fix) : NULL;
  if (!bpk || !apk || (nfix && !fix)) {
    cxla_free(bpk);
    cxla_free(apk);
    cxla_free(fix);
    return cxla_oom();
  }
  int32_t tile[MR * NR];
  for (int64_t bi = 0; bi < g->batch; bi++) {
    const uint8_t *A = a + bi * M * K, *B = b + bi * K * N;
    int32_t *C = c + bi * M * N;
    /* the first contraction block starts from the correction term:
     * -128 rowsum(A) (s8 x s8) or 128 colsum(B) (u8 x u8) */
    uint32_t *ufix = (uint32_t *)fix;
    if (row_fix) {
      if (g->trans_a) byte_sums(A, K, M, false, false, ufix);
      else byte_sums(A, M, K, false, true, ufix);
      for (int64_t i = 0; i < M; i++) ufix[i] = 0u - 128u * ufix[i];
    } else if (col_fix) {
      if (g->trans_b) byte_sums(B, N, K, true, true, ufix);
      else byte_sums(B, K, N, true, false, ufix);
      for (int64_t j = 0; j < N; j++) ufix[j] *= 128u;
    }
    for (int64_t k0 = 0; k0 < K; k0 += KC) {
      int64_t kc = K - k0 < KC ? K - k0 : KC, G = (kc + 3) / 4;
      /* the lhs is read in place where its rows need no change */
      bool direct = !g->trans_a && !xa && kc % 4 == 0;
      pack_b(B, K, N, g->trans_b, k0, kc, xb, bpk);
      for (int64_t i0 = 0; i0 < M; i0 += MC) {
        int64_t mc = M - i0 < MC ? M - i0 : MC, mfull = mc / MR * MR;
        if (!direct) pack_a(A, M, K, g->trans_a, i0, mc, k0, kc, xa, apk);
        else if (mfull < mc) pack_a(A, M, K, false, i0 + mfull, mc - mfull, k0, kc, 0, apk);
        for (int64_t p = 0; p < NP; p++) {
          int64_t j0 = p * NR, nr = N - j0 < NR ? N - j0 : NR;
          const uint8_t *bp = bpk + p * G * NR * 4;
          const int32_t *cinit = k0 == 0 && col_fix ? fix + j0 : NULL;
          for (int64_t r0 = 0; r0 < mc; r0 += MR) {
            int64_t mr = mc - r0 < MR ? mc - r0 : MR;
            const int32_t *rinit = k0 == 0 && row_fix ? fix + i0 + r0 : NULL;
            const uint8_t *ap = !direct ? apk + r0 * 4 * G : mr == MR ? A + (i0 + r0) * K + k0 : apk;
            int64_t ars = direct && mr == MR ? K : 4 * G;
            int32_t *ct = C + (i0 + r0) * N + j0;
            if (mr == MR && nr == NR) {
              (swap ? kernel_au : kernel_bu)(G, ap, ars, bp, ct, N, k0 > 0, rinit, cinit);
              continue;
            }
            (swap ? kernel_au : kernel_bu)(G, ap, ars, bp, tile, NR, false, rinit, cinit);
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
