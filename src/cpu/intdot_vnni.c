/* s8/u8 x s8/u8 -> s32 GEMM on AVX512-VNNI (vpdpbusd: 16 lanes, each
 * adding four u8 x s8 products to an s32 with wraparound).
 *
 * Goto-style blocking: for each block of KC contraction steps the whole
 * rhs block is packed into panels of NR columns ([k/4][column][4 bytes]),
 * then for each block of MC rows the lhs into panels of MR rows
 * (rows of 4 ceil(KC/4) bytes; row-major lhs rows that need no change are
 * read in place instead); an MR x NR micro-kernel keeps its tile of C in
 * registers over the block, the rhs panel staying in L1 while the row
 * panels stream from L2. The blocks of MC rows are split over the
 * threads (1024^3 s8 on two Zen 5 threads in 0.6x the time of one). Edge
 * tiles are zero-padded in the packing and computed into a scratch tile.
 * The correction terms below are the initial values of the first block's
 * accumulators.
 *
 * vpdpbusd multiplies u8 by s8. The packed rhs vectors are the s8 side
 * when the lhs is u8 (broadcast as the u8 side), else the u8 side; where
 * both operands have the same type the rhs is shifted by 128 (xor 0x80)
 * to make it so and a row term corrects the sum:
 *   s8 x s8: C = A.(B+128) - 128 rowsum(A)
 *   s8 x u8: C = A.B
 *   u8 x s8: C = A.B
 *   u8 x u8: C = A.(B-128) + 128 rowsum(A)
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
 * rinit[row] when given, else 0. Row r of the lhs panel starts at
 * ap + r * ars. */
#define DEFINE_KERNEL(NAME, SWAP)                                                                      \
  TGT static void NAME(int64_t G, const uint8_t *ap, int64_t ars, const uint8_t *bp, int32_t *c, int64_t ldc, \
                       bool acc, const int32_t *rinit) {                                              \
    __m512i r[MR][NV];                                                                                 \
    _Pragma("GCC unroll 8") for (int i = 0; i < MR; i++)                                               \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) r[i][v] =                                   \
          acc     ? _mm512_loadu_si512(c + i * ldc + 16 * v)                                           \
          : rinit ? _mm512_set1_epi32(rinit[i])                                                        \
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

/* The 4-byte groups (s[c], s[stride + c], s[2 stride + c], s[3 stride + c])
 * xor x of the 16 columns c < 16, in column order in q[0..3]. */
TGT static inline void quads16(const uint8_t *s, int64_t stride, __m128i x, __m128i q[4]) {
  __m128i r0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)s), x);
  __m128i r1 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(s + stride)), x);
  __m128i r2 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(s + 2 * stride)), x);
  __m128i r3 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(s + 3 * stride)), x);
  __m128i l01 = _mm_unpacklo_epi8(r0, r1), h01 = _mm_unpackhi_epi8(r0, r1);
  __m128i l23 = _mm_unpacklo_epi8(r2, r3), h23 = _mm_unpackhi_epi8(r2, r3);
  q[0] = _mm_unpacklo_epi16(l01, l23);
  q[1] = _mm_unpackhi_epi16(l01, l23);
  q[2] = _mm_unpacklo_epi16(h01, h23);
  q[3] = _mm_unpackhi_epi16(h01, h23);
}

/* Packs rows [i0, i0+mc) x steps [k0, k0+kc) of the lhs (m x k, stored
 * k x m when trans) into ceil(mc/MR) * MR rows of 4G bytes (zero-padded). */
TGT static void pack_a(const uint8_t *a, int64_t M, int64_t K, bool trans, int64_t i0, int64_t mc, int64_t k0,
                       int64_t kc, uint8_t *dst) {
  int64_t G = (kc + 3) / 4, rows = (mc + MR - 1) / MR * MR;
  if (!trans) {
    for (int64_t r = 0; r < rows; r++) {
      uint8_t *d = dst + r * 4 * G;
      if (r < mc) memcpy(d, a + (i0 + r) * K + k0, (size_t)kc);
      memset(d + (r < mc ? kc : 0), 0, (size_t)(4 * G - (r < mc ? kc : 0)));
    }
    return;
  }
  /* stored k x m: four storage rows k..k+3 interleave into the 4-byte
   * groups of 16 lhs rows at a time */
  for (int64_t gi = 0; gi < G; gi++) {
    const uint8_t *s = a + (k0 + 4 * gi) * M + i0;
    bool fullg = 4 * gi + 4 <= kc;
    for (int64_t r = 0; r < rows; r += 16) {
      if (fullg && r + 16 <= mc) {
        __m128i qv[4];
        uint32_t q[16];
        quads16(s + r, M, _mm_setzero_si128(), qv);
        memcpy(q, qv, sizeof q);
        for (int t = 0; t < 16; t++) memcpy(dst + (r + t) * 4 * G + 4 * gi, &q[t], 4);
        continue;
      }
      for (int64_t t = r; t < r + 16 && t < rows; t++)
        for (int64_t k = 4 * gi; k < 4 * gi + 4; k++)
          dst[t * 4 * G + k] = t < mc && k < kc ? a[(k0 + k) * M + i0 + t] : 0;
    }
  }
}

/* Packs steps [k0, k0+kc) of panels [p0, p1) of the rhs (k x n, stored
 * n x k when trans), each byte xor x, into the ceil(n/NR) panels of G
 * groups at dst. */
TGT static void pack_b(const uint8_t *b, int64_t K, int64_t N, bool trans, int64_t k0, int64_t kc, uint8_t x,
                       int64_t p0, int64_t p1, uint8_t *dst) {
  int64_t G = (kc + 3) / 4;
  if (!trans) {
    __m128i xv = _mm_set1_epi8((char)x);
    for (int64_t g = 0; g < G; g++) {
      const uint8_t *row[4];
      bool fullg = 4 * g + 4 <= kc;
      for (int q = 0; q < 4; q++) row[q] = 4 * g + q < kc ? b + (k0 + 4 * g + q) * N : b;
      for (int64_t p = p0; p < p1; p++) {
        uint8_t *d = dst + (p * G + g) * NR * 4;
        for (int64_t jj = 0; jj < NR; jj += 16) {
          int64_t j = p * NR + jj;
          if (fullg && j + 16 <= N) {
            __m128i q[4];
            quads16(row[0] + j, N, xv, q);
            for (int t = 0; t < 4; t++) _mm_storeu_si128((__m128i *)(d + 4 * jj + 16 * t), q[t]);
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
  for (int64_t p = p0; p < p1; p++)
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

/* One block of contraction steps [k0, k0 + kc) of one batch element,
 * its rhs packed at bpk: blocks of MC rows split over the threads (each
 * packs its own lhs panels; the rhs block, a few hundred KiB, once for
 * all of them). */
typedef struct VnniJob {
  const uint8_t *A, *B;
  uint8_t *bpk; /* the rhs block, packed */
  uint8_t xb;   /* what B's bytes are xor-ed with */
  bool trans_b;
  int32_t *C;
  const int32_t *fix; /* the correction terms, or NULL */
  int64_t M, N, K, k0, kc, Gmax;
  bool trans_a, swap;
} VnniJob;

/* panels [lo, hi) of the job's rhs block */
TGT static cxla_status vnni_pack(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  pack_b(j->B, j->K, j->N, j->trans_b, j->k0, j->kc, j->xb, lo, hi, j->bpk);
  return NULL;
}

TGT static cxla_status vnni_rows(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  int64_t M = j->M, N = j->N, K = j->K, k0 = j->k0, kc = j->kc, G = (kc + 3) / 4, NP = (N + NR - 1) / NR;
  int64_t MP = ((M < MC ? M : MC) + MR - 1) / MR;
  uint8_t *apk = cxla_malloc((size_t)(MP * j->Gmax * MR * 4));
  if (!apk) return cxla_oom();
  int32_t tile[MR * NR];
  /* the lhs is read in place where its rows need no change */
  bool direct = !j->trans_a && kc % 4 == 0;
  for (int64_t blk = lo; blk < hi; blk++) {
    int64_t i0 = blk * MC, mc = M - i0 < MC ? M - i0 : MC, mfull = mc / MR * MR;
    if (!direct) pack_a(j->A, M, K, j->trans_a, i0, mc, k0, kc, apk);
    else if (mfull < mc) pack_a(j->A, M, K, false, i0 + mfull, mc - mfull, k0, kc, apk);
    for (int64_t p = 0; p < NP; p++) {
      int64_t j0 = p * NR, nr = N - j0 < NR ? N - j0 : NR;
      const uint8_t *bp = j->bpk + p * G * NR * 4;
      for (int64_t r0 = 0; r0 < mc; r0 += MR) {
        int64_t mr = mc - r0 < MR ? mc - r0 : MR;
        const int32_t *rinit = k0 == 0 && j->fix ? j->fix + i0 + r0 : NULL;
        const uint8_t *ap = !direct ? apk + r0 * 4 * G : mr == MR ? j->A + (i0 + r0) * K + k0 : apk;
        int64_t ars = direct && mr == MR ? K : 4 * G;
        int32_t *ct = j->C + (i0 + r0) * N + j0;
        if (mr == MR && nr == NR) {
          (j->swap ? kernel_au : kernel_bu)(G, ap, ars, bp, ct, N, k0 > 0, rinit);
          continue;
        }
        (j->swap ? kernel_au : kernel_bu)(G, ap, ars, bp, tile, NR, false, rinit);
        for (int64_t i = 0; i < mr; i++)
          for (int64_t jj = 0; jj < nr; jj++) {
            uint32_t v = (uint32_t)tile[i * NR + jj];
            if (k0 > 0) v += (uint32_t)ct[i * N + jj];
            ct[i * N + jj] = (int32_t)v;
          }
      }
    }
  }
  cxla_free(apk);
  return NULL;
}

cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c, RtPool *pool,
                           int nthreads) {
  int64_t M = g->m, N = g->n, K = g->k;
  bool au = g->a_unsigned, bu = g->b_unsigned;
  bool row_fix = au == bu;
  uint8_t xb = row_fix ? 0x80 : 0;
  int64_t Gmax = ((K < KC ? K : KC) + 3) / 4, NP = (N + NR - 1) / NR;
  uint8_t *bpk = cxla_malloc((size_t)(NP * Gmax * NR * 4));
  int32_t *fix = row_fix ? cxla_calloc((size_t)(M + MR), sizeof *fix) : NULL;
  if (!bpk || (row_fix && !fix)) {
    cxla_free(bpk);
    cxla_free(fix);
    return cxla_oom();
  }
  cxla_status s = NULL;
  for (int64_t bi = 0; bi < g->batch && !s; bi++) {
    const uint8_t *A = a + bi * M * K, *B = b + bi * K * N;
    /* the first contraction block starts from the correction term,
     * -+128 rowsum(A) */
    if (row_fix) {
      uint32_t *ufix = (uint32_t *)fix, f = au ? 128u : 0u - 128u;
      if (g->trans_a) byte_sums(A, K, M, au, false, ufix);
      else byte_sums(A, M, K, au, true, ufix);
      for (int64_t i = 0; i < M; i++) ufix[i] *= f;
    }
    for (int64_t k0 = 0; k0 < K && !s; k0 += KC) {
      int64_t kc = K - k0 < KC ? K - k0 : KC;
      VnniJob j = {.A = A, .B = B, .bpk = bpk, .xb = xb, .trans_b = g->trans_b, .C = c + bi * M * N, .fix = fix,
                   .M = M, .N = N, .K = K, .k0 = k0, .kc = kc, .Gmax = Gmax, .trans_a = g->trans_a, .swap = au};
      s = rt_pool_parallel_for(pool, NP, 1, nthreads, vnni_pack, &j);
      if (!s) s = rt_pool_parallel_for(pool, (M + MC - 1) / MC, 1, nthreads, vnni_rows, &j);
    }
  }
  cxla_free(bpk);
  cxla_free(fix);
  return s;
}

#else

cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c, RtPool *pool,
                           int nthreads) {
  return ERR(UNAVAILABLE, "AVX512-VNNI kernels are built for x86-64 only");
}

#endif
