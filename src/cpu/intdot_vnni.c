/* s8/u8 x s8/u8 -> s32 GEMM on AVX512-VNNI (vpdpbusd: 16 lanes, each
 * adding four u8 x s8 products to an s32 with wraparound).
 *
 * Goto-style blocking: for each block of KC contraction steps the whole
 * rhs block is packed into panels of NR columns ([k/4][column][4 bytes]),
 * then for each block of MC rows the lhs into panels of MR rows
 * (rows of 4 ceil(KC/4) bytes; row-major lhs rows that need no change are
 * read in place instead); an MR x NR micro-kernel keeps its tile of C in
 * registers over the block, the rhs panel staying in L1 while the row
 * panels stream from L2. Where the rhs panels divide evenly over the
 * threads, each thread packs and keeps its own panels and computes their
 * columns (no barrier between blocks of steps); else the rhs block is
 * packed by all threads and the row tiles are split evenly. 1024^3 s8 on
 * two Zen 5 threads: 1.10 ms, 95% of vpdpbusd's rate (two a cycle per
 * core), against 1.40 ms with blocks of 48 rows claimed dynamically (the
 * last one left a thread idle), 512-step blocks and 128-bit packing. Edge
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
#include "runtime/scratch.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f,avx512bw,avx512vnni")))

enum { MR = 6, NV = 4, NR = 16 * NV, KC = 1024, MC = 48 };

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

/* The same for the 64 columns c < 64 (one panel, NR = 64): q[v] holds
 * columns 16v .. 16v + 15. */
TGT static inline void quads64(const uint8_t *s, int64_t stride, __m512i x, __m512i q[4]) {
  __m512i r0 = _mm512_xor_si512(_mm512_loadu_si512(s), x);
  __m512i r1 = _mm512_xor_si512(_mm512_loadu_si512(s + stride), x);
  __m512i r2 = _mm512_xor_si512(_mm512_loadu_si512(s + 2 * stride), x);
  __m512i r3 = _mm512_xor_si512(_mm512_loadu_si512(s + 3 * stride), x);
  __m512i l01 = _mm512_unpacklo_epi8(r0, r1), h01 = _mm512_unpackhi_epi8(r0, r1);
  __m512i l23 = _mm512_unpacklo_epi8(r2, r3), h23 = _mm512_unpackhi_epi8(r2, r3);
  /* in each 128-bit lane L: the quads of columns 16L + 4t .. 16L + 4t + 3 */
  __m512i q0 = _mm512_unpacklo_epi16(l01, l23), q1 = _mm512_unpackhi_epi16(l01, l23);
  __m512i q2 = _mm512_unpacklo_epi16(h01, h23), q3 = _mm512_unpackhi_epi16(h01, h23);
  /* a 4 x 4 transpose of the lanes */
  __m512i t0 = _mm512_shuffle_i64x2(q0, q1, 0x44), t1 = _mm512_shuffle_i64x2(q2, q3, 0x44);
  __m512i t2 = _mm512_shuffle_i64x2(q0, q1, 0xEE), t3 = _mm512_shuffle_i64x2(q2, q3, 0xEE);
  q[0] = _mm512_shuffle_i64x2(t0, t1, 0x88);
  q[1] = _mm512_shuffle_i64x2(t0, t1, 0xDD);
  q[2] = _mm512_shuffle_i64x2(t2, t3, 0x88);
  q[3] = _mm512_shuffle_i64x2(t2, t3, 0xDD);
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
 * n x k when trans), each byte xor x, into the ceil(n/NR) panels at dst,
 * G groups each, panel p at group p * gs (gs >= G, the same for every
 * block of steps: a thread packing its panels of the next block cannot
 * write over panels another thread still reads). */
TGT static void pack_b(const uint8_t *b, int64_t K, int64_t N, bool trans, int64_t k0, int64_t kc, uint8_t x,
                       int64_t p0, int64_t p1, int64_t gs, uint8_t *dst) {
  int64_t G = (kc + 3) / 4;
  if (!trans) {
    __m128i xv = _mm_set1_epi8((char)x);
    __m512i xz = _mm512_set1_epi8((char)x);
    for (int64_t g = 0; g < G; g++) {
      const uint8_t *row[4];
      bool fullg = 4 * g + 4 <= kc;
      for (int q = 0; q < 4; q++) row[q] = 4 * g + q < kc ? b + (k0 + 4 * g + q) * N : b;
      for (int64_t p = p0; p < p1; p++) {
        uint8_t *d = dst + (p * gs + g) * NR * 4;
        if (NR == 64 && fullg && (p + 1) * NR <= N) {
          __m512i q[4];
          quads64(row[0] + p * NR, N, xz, q);
          for (int t = 0; t < 4; t++) _mm512_storeu_si512(d + 64 * t, q[t]);
          continue;
        }
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
        uint8_t *d = dst + (p * gs + g) * NR * 4 + 4 * t;
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

/* Sums of a rows x cols byte matrix (s8 or u8) with row stride ld, mod
 * 2^32: out[r] = the sum of row r when along_rows, else out[c] = the sum
 * of column c. */
TGT static void byte_sums(const uint8_t *m, int64_t rows, int64_t cols, int64_t ld, bool is_unsigned,
                          bool along_rows, uint32_t *out) {
  if (!along_rows) {
    memset(out, 0, (size_t)cols * sizeof *out);
    for (int64_t r = 0; r < rows; r++) {
      const uint8_t *s = m + r * ld;
      if (is_unsigned)
        for (int64_t c = 0; c < cols; c++) out[c] += s[c];
      else
        for (int64_t c = 0; c < cols; c++) out[c] += (uint32_t)(int32_t)(int8_t)s[c];
    }
    return;
  }
  __m512i ones = _mm512_set1_epi8(1);
  for (int64_t r = 0; r < rows; r++) {
    const uint8_t *s = m + r * ld;
    __m512i acc = _mm512_setzero_si512();
    for (int64_t c = 0; c < cols; c += 64) {
      __mmask64 k = cols - c >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (cols - c)) - 1);
      __m512i v = _mm512_maskz_loadu_epi8(k, s + c);
      acc = is_unsigned ? _mm512_dpbusd_epi32(acc, v, ones) : _mm512_dpbusd_epi32(acc, ones, v);
    }
    out[r] = (uint32_t)_mm512_reduce_add_epi32(acc);
  }
}

/* One batch element's product. Split over the threads either by rows
 * (per block of contraction steps, the rhs block is packed by all
 * threads, then each computes its rows against all of it) or, where the
 * rhs panels divide evenly, by panels (each thread packs and keeps its
 * own panels and computes their columns for all rows, with no barrier
 * between blocks of steps). */
typedef struct VnniJob {
  const uint8_t *A, *B;
  uint8_t *bpk; /* the rhs block, packed */
  uint8_t xb;   /* what B's bytes are xor-ed with */
  bool trans_b;
  int32_t *C;
  int32_t *fix; /* the correction terms, or NULL */
  bool a_unsigned;
  int64_t M, N, K, k0, kc, Gmax;
  bool trans_a, swap;
} VnniJob;

/* panels [lo, hi) of the job's rhs block */
TGT static cxla_status vnni_pack(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  pack_b(j->B, j->K, j->N, j->trans_b, j->k0, j->kc, j->xb, lo, hi, j->Gmax, j->bpk);
  return NULL;
}

/* The correction terms of row tiles [lo, hi): -+128 rowsum(A). */
TGT static cxla_status vnni_fix(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  int64_t M = j->M, K = j->K, r0 = lo * MR, rend = hi * MR < M ? hi * MR : M;
  uint32_t *ufix = (uint32_t *)j->fix + r0, f = j->a_unsigned ? 128u : 0u - 128u;
  if (j->trans_a) byte_sums(j->A + r0, K, rend - r0, M, j->a_unsigned, false, ufix);
  else byte_sums(j->A + r0 * K, rend - r0, K, K, j->a_unsigned, true, ufix);
  for (int64_t i = 0; i < rend - r0; i++) ufix[i] *= f;
  return NULL;
}

/* Rows [rlo, rend) x panels [plo, phi) of C over steps [k0, k0 + kc),
 * in blocks of MC rows; apk holds MC rows of packed lhs. */
TGT static void vnni_block(const VnniJob *j, int64_t rlo, int64_t rend, int64_t plo, int64_t phi, int64_t k0,
                           int64_t kc, uint8_t *apk) {
  int64_t M = j->M, N = j->N, K = j->K, G = (kc + 3) / 4;
  int32_t tile[MR * NR];
  /* the lhs is read in place where its rows need no change */
  bool direct = !j->trans_a && kc % 4 == 0;
  for (int64_t i0 = rlo; i0 < rend; i0 += MC) {
    int64_t mc = rend - i0 < MC ? rend - i0 : MC, mfull = mc / MR * MR;
    if (!direct) pack_a(j->A, M, K, j->trans_a, i0, mc, k0, kc, apk);
    else if (mfull < mc) pack_a(j->A, M, K, false, i0 + mfull, mc - mfull, k0, kc, apk);
    for (int64_t p = plo; p < phi; p++) {
      int64_t j0 = p * NR, nr = N - j0 < NR ? N - j0 : NR;
      const uint8_t *bp = j->bpk + p * j->Gmax * NR * 4;
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
}

static uint8_t *vnni_apk(const VnniJob *j) {
  int64_t MP = ((j->M < MC ? j->M : MC) + MR - 1) / MR;
  return cxla_malloc((size_t)(MP * j->Gmax * MR * 4));
}

/* Row tiles [lo, hi) (rows [lo MR, hi MR) of C) over the job's block of
 * steps, against all of its packed rhs block. */
TGT static cxla_status vnni_rows(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  uint8_t *apk = vnni_apk(j);
  if (!apk) return cxla_oom();
  vnni_block(j, lo * MR, hi * MR < j->M ? hi * MR : j->M, 0, (j->N + NR - 1) / NR, j->k0, j->kc, apk);
  cxla_free(apk);
  return NULL;
}

/* Panels [lo, hi) (columns [lo NR, hi NR) of C), all rows, all steps. */
TGT static cxla_status vnni_cols(void *arg, int64_t lo, int64_t hi) {
  const VnniJob *j = arg;
  uint8_t *apk = vnni_apk(j);
  if (!apk) return cxla_oom();
  for (int64_t k0 = 0; k0 < j->K; k0 += KC) {
    int64_t kc = j->K - k0 < KC ? j->K - k0 : KC;
    pack_b(j->B, j->K, j->N, j->trans_b, k0, kc, j->xb, lo, hi, j->Gmax, j->bpk);
    vnni_block(j, 0, j->M, lo, hi, k0, kc, apk);
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
  /* the threads rt_pool_parallel_for will use: the pool's, at most nthreads */
  int64_t tiles = (M + MR - 1) / MR, nt = pool ? rt_pool_size(pool) : 1;
  if (nthreads > 0 && nthreads < nt) nt = nthreads;
  uint8_t *bpk = rt_scratch_alloc(pool, (size_t)(NP * Gmax * NR * 4));
  int32_t *fix = row_fix ? cxla_calloc((size_t)(M + MR), sizeof *fix) : NULL;
  if (!bpk || (row_fix && !fix)) {
    rt_scratch_free(pool, bpk);
    cxla_free(fix);
    return cxla_oom();
  }
  /* by panels where they divide evenly, each thread getting several */
  bool by_cols = nt > 1 && NP % nt == 0 && NP >= 4 * nt;
  cxla_status s = NULL;
  for (int64_t bi = 0; bi < g->batch && !s; bi++) {
    VnniJob j = {.A = a + bi * M * K, .B = b + bi * K * N, .bpk = bpk, .xb = xb, .trans_b = g->trans_b,
                 .C = c + bi * M * N, .fix = fix, .a_unsigned = au, .M = M, .N = N, .K = K, .Gmax = Gmax,
                 .trans_a = g->trans_a, .swap = au};
    if (row_fix) s = rt_pool_parallel_for(pool, tiles, 8, nthreads, vnni_fix, &j);
    if (s) break;
    if (by_cols) {
      s = rt_pool_parallel_for(pool, NP, NP / nt, nthreads, vnni_cols, &j);
      continue;
    }
    for (int64_t k0 = 0; k0 < K && !s; k0 += KC) {
      j.k0 = k0;
      j.kc = K - k0 < KC ? K - k0 : KC;
      s = rt_pool_parallel_for(pool, NP, 1, nthreads, vnni_pack, &j);
      /* the row tiles split evenly, one slice per thread */
      if (!s) s = rt_pool_parallel_for(pool, tiles, (tiles + nt - 1) / nt, nthreads, vnni_rows, &j);
    }
  }
  rt_scratch_free(pool, bpk);
  cxla_free(fix);
  return s;
}

#else

cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c, RtPool *pool,
                           int nthreads) {
  return ERR(UNAVAILABLE, "AVX512-VNNI kernels are built for x86-64 only");
}

#endif
