/* Direct f32 convolution on AVX-512 over channels-last inputs (the
 * forward and input-gradient forms; conv.c plans them and falls back to
 * im2col + BLAS on machines without AVX-512, for other types and shapes).
 *
 * The kernel is packed once per run into blocks of up to 64 output
 * features, each in chunks of input features [kh][kw][ci][block width]
 * (zero past the last feature; a chunk contiguous, so that its taps do not
 * fall on the same L1 sets).
 * A work item is one output row (batch n, output row oh); per row, per
 * feature block, per chunk of input features (the chunk's weights for all
 * window taps fit in L1), the row is cut into strips of up to WB output
 * pixels whose WB x NV vectors of 16 sums stay in zmm registers: for each
 * window tap and input feature, NV weight vectors are loaded and each
 * pixel's input value is broadcast and multiplied into them. Each pixel of
 * a tap reads through its own pointer; pixels in padding read a zero row,
 * and taps whose row or whole strip is in padding are left out. The sums
 * of a row gather in the output row itself when its features are
 * contiguous and a multiple of 16, else in a channels-last row buffer
 * copied to the output (any layout) when the row is done. Rows split over the threads; every
 * row is computed the same way whatever the split.
 *
 * The sum is in f32 in the order (chunk, tap, feature), like a GEMM's
 * different from the interpreter's only in rounding. */
#include <string.h>

#include "cpu/cpu_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define DC_AVX512 1
#include <immintrin.h>
#define TGT __attribute__((target("avx512f")))
#endif

bool dconv_available(void) {
#ifdef DC_AVX512
  return __builtin_cpu_supports("avx512f");
#else
  return false;
#endif
}

#ifdef DC_AVX512

enum { BLK = 64, WB_MAX = 12, CHUNK_BYTES = 40 * 1024 };

/* Output pixels per strip for NV vectors of features: WB x NV sums in at
 * most 24 registers, the rest for weights. */
static const int wb_of_nv[5] = {0, 12, 10, 8, 6};

/* One strip: wb pixels x nv vectors of sums over ntaps taps of cc input
 * features each. px[t * wb + j]: pixel j's input features of tap t;
 * wt[t]: tap t's weights ([cc][nv * 16]). The sums start at 0 (first) or
 * at ab (row stride ldb) and end there. */
TGT static inline __attribute__((always_inline)) void tile_body(const int nv, const int wb, int64_t ntaps,
                                                                int64_t cc, const float *const *px,
                                                                const float *const *wt, float *ab, int64_t ldb,
                                                                bool first) {
  __m512 acc[WB_MAX][4];
  _Pragma("GCC unroll 12") for (int j = 0; j < wb; j++)
    _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++)
      acc[j][v] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(ab + j * ldb + 16 * v);
  for (int64_t t = 0; t < ntaps; t++) {
    const float *q[WB_MAX];
    _Pragma("GCC unroll 12") for (int j = 0; j < wb; j++) q[j] = px[t * wb + j];
    const float *w = wt[t];
    for (int64_t ci = 0; ci < cc; ci++, w += 16 * nv) {
      __m512 wv[4];
      _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) wv[v] = _mm512_loadu_ps(w + 16 * v);
      _Pragma("GCC unroll 12") for (int j = 0; j < wb; j++) {
        __m512 b = _mm512_set1_ps(q[j][ci]);
        _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) acc[j][v] = _mm512_fmadd_ps(b, wv[v], acc[j][v]);
      }
    }
  }
  _Pragma("GCC unroll 12") for (int j = 0; j < wb; j++)
    _Pragma("GCC unroll 4") for (int v = 0; v < nv; v++) _mm512_storeu_ps(ab + j * ldb + 16 * v, acc[j][v]);
}

typedef void (*TileFn)(int64_t ntaps, int64_t cc, const float *const *px, const float *const *wt, float *ab,
                       int64_t ldb, bool first);

#define DC_TILE(NV, WB)                                                                                   \
  TGT static void tile_##NV##_##WB(int64_t ntaps, int64_t cc, const float *const *px, const float *const *wt, \
                                   float *ab, int64_t ldb, bool first) {                                  \
    tile_body(NV, WB, ntaps, cc, px, wt, ab, ldb, first);                                                 \
  }
#define DC_TILES_6(NV) DC_TILE(NV, 1) DC_TILE(NV, 2) DC_TILE(NV, 3) DC_TILE(NV, 4) DC_TILE(NV, 5) DC_TILE(NV, 6)
#define DC_TILES_8(NV) DC_TILES_6(NV) DC_TILE(NV, 7) DC_TILE(NV, 8)
#define DC_TILES_10(NV) DC_TILES_8(NV) DC_TILE(NV, 9) DC_TILE(NV, 10)
#define DC_TILES_12(NV) DC_TILES_10(NV) DC_TILE(NV, 11) DC_TILE(NV, 12)
DC_TILES_12(1)
DC_TILES_10(2)
DC_TILES_8(3)
DC_TILES_6(4)

#define DC_ROW6(NV) tile_##NV##_1, tile_##NV##_2, tile_##NV##_3, tile_##NV##_4, tile_##NV##_5, tile_##NV##_6
#define DC_ROW8(NV) DC_ROW6(NV), tile_##NV##_7, tile_##NV##_8
#define DC_ROW10(NV) DC_ROW8(NV), tile_##NV##_9, tile_##NV##_10
#define DC_ROW12(NV) DC_ROW10(NV), tile_##NV##_11, tile_##NV##_12
/* tiles[nv][wb - 1] */
static const TileFn tiles[5][WB_MAX] = {
    {0}, {DC_ROW12(1)}, {DC_ROW10(2)}, {DC_ROW8(3)}, {DC_ROW6(4)},
};

typedef struct DcJob {
  const DConvPlan *p;
  const float *x, *wpk; /* input, packed kernel */
  float *o;
  int64_t nblk, opad; /* feature blocks; row buffer stride (O rounded up to 16) */
  int64_t cn;         /* input features per chunk */
} DcJob;

/* Width in floats of feature block b. */
static int64_t blk_width(const DcJob *j, int64_t b) {
  return b + 1 < j->nblk ? BLK : j->opad - b * BLK;
}

/* Packs the kernel: per feature block, per chunk of cn input features,
 * [kh][kw][ci in chunk][block width] (a chunk's weights contiguous). */
static void pack(const DConvPlan *p, const float *k, int64_t opad, int64_t cn, float *wpk) {
  float *dst = wpk;
  for (int64_t b = 0; b * BLK < opad; b++) {
    int64_t vbw = opad - b * BLK < BLK ? opad - b * BLK : BLK;
    for (int64_t c0 = 0; c0 < p->C; c0 += cn)
      for (int64_t kh = 0; kh < p->KH; kh++)
        for (int64_t kw = 0; kw < p->KW; kw++)
          for (int64_t ci = c0; ci < c0 + cn && ci < p->C; ci++, dst += vbw) {
            const float *src = k + p->kbase + kh * p->ks_h + kw * p->ks_w + ci * p->ks_i;
            for (int64_t l = 0; l < vbw; l++) {
              int64_t oc = b * BLK + l;
              dst[l] = oc < p->O ? src[oc * p->ks_o] : 0.0f;
            }
          }
  }
}

/* Rows [r0, r1) of n * OH. */
static cxla_status rows_slice(void *arg, int64_t r0, int64_t r1) {
  const DcJob *j = arg;
  const DConvPlan *p = j->p;
  int64_t taps = p->KH * p->KW, opad = j->opad;
  float *rb = cxla_malloc((size_t)(p->OW * opad) * sizeof(float));
  float *zero = cxla_calloc((size_t)p->C, sizeof(float));
  const float **px = cxla_malloc((size_t)(taps * WB_MAX) * sizeof *px);
  const float **wt = cxla_malloc((size_t)taps * sizeof *wt);
  cxla_status st = !rb || !zero || !px || !wt ? cxla_oom() : NULL;
  for (int64_t r = r0; r < r1 && !st; r++) {
    int64_t n = r / p->OH, oh = r % p->OH;
    const float *xb = j->x + n * p->xs_b;
    float *ob = j->o + p->obase + n * p->os_b + oh * p->os_h;
    /* the sums gather in the output row itself where its features are
     * contiguous and fill whole vectors, else in the row buffer */
    bool in_place = p->os_f == 1 && opad == p->O;
    float *ab = in_place ? ob : rb;
    int64_t ldb = in_place ? p->os_w : opad;
    for (int64_t b = 0; b < j->nblk; b++) {
      int64_t vbw = blk_width(j, b), nv = vbw / 16, wbm = wb_of_nv[nv];
      const float *wb_blk = j->wpk + b * BLK * taps * p->C;
      int64_t ns = (p->OW + wbm - 1) / wbm, base = p->OW / ns, extra = p->OW % ns;
      for (int64_t c0 = 0; c0 < p->C; c0 += j->cn) {
        int64_t cc = p->C - c0 < j->cn ? p->C - c0 : j->cn;
        for (int64_t s = 0, ow0 = 0; s < ns; s++) {
          int64_t wb = base + (s < extra);
          int64_t nt = 0;
          for (int64_t kh = 0; kh < p->KH; kh++) {
            int64_t ih = oh * p->sh - p->ph + kh * p->dh;
            if (ih < 0 || ih >= p->H) continue;
            for (int64_t kw = 0; kw < p->KW; kw++) {
              bool any = false;
              for (int64_t q = 0; q < wb; q++) {
                int64_t iw = (ow0 + q) * p->sw - p->pw + kw * p->dw;
                bool in = iw >= 0 && iw < p->W;
                px[nt * wb + q] = in ? xb + ih * p->xs_h + iw * p->xs_w + c0 : zero;
                any |= in;
              }
              if (!any) continue;
              wt[nt++] = wb_blk + (c0 * taps + (kh * p->KW + kw) * cc) * vbw;
            }
          }
          tiles[nv][wb - 1](nt, cc, px, wt, ab + ow0 * ldb + b * BLK, ldb, c0 == 0);
          ow0 += wb;
        }
      }
    }
    if (in_place) continue;
    if (p->os_f == 1) {
      for (int64_t ow = 0; ow < p->OW; ow++) memcpy(ob + ow * p->os_w, rb + ow * opad, (size_t)p->O * sizeof(float));
    } else {
      for (int64_t oc = 0; oc < p->O; oc++)
        for (int64_t ow = 0; ow < p->OW; ow++) ob[oc * p->os_f + ow * p->os_w] = rb[ow * opad + oc];
    }
  }
  cxla_free(rb);
  cxla_free(zero);
  cxla_free(px);
  cxla_free(wt);
  return st;
}

cxla_status dconv_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  if (p->N * p->OH * p->OW == 0 || p->O == 0) return NULL;
  if (p->C == 0 || p->KH * p->KW == 0) {
    /* an empty sum: zeros */
    for (int64_t n = 0; n < p->N; n++)
      for (int64_t oh = 0; oh < p->OH; oh++)
        for (int64_t ow = 0; ow < p->OW; ow++)
          for (int64_t oc = 0; oc < p->O; oc++)
            o[p->obase + n * p->os_b + oh * p->os_h + ow * p->os_w + oc * p->os_f] = 0.0f;
    return NULL;
  }
  DcJob j = {.p = p, .x = x, .o = o};
  j.opad = (p->O + 15) / 16 * 16;
  j.nblk = (j.opad + BLK - 1) / BLK;
  int64_t taps = p->KH * p->KW, bw = j.opad < BLK ? j.opad : BLK;
  j.cn = CHUNK_BYTES / (int64_t)(taps * bw * sizeof(float));
  if (j.cn < 4) j.cn = 4;
  if (j.cn > p->C) j.cn = p->C;
  int64_t nchunks = (p->C + j.cn - 1) / j.cn;
  j.cn = (p->C + nchunks - 1) / nchunks; /* chunks of near-equal size */
  float *wpk = cxla_malloc((size_t)(j.opad * taps * p->C) * sizeof(float));
  if (!wpk) return cxla_oom();
  pack(p, k, j.opad, j.cn, wpk);
  j.wpk = wpk;
  int64_t rows = p->N * p->OH;
  double per_row = (double)p->OW * (double)j.opad * (double)taps * (double)p->C;
  int64_t grain = per_row >= 65536.0 ? 1 : (int64_t)(65536.0 / per_row) + 1;
  cxla_status st = cx && cx->pool && cx->nthreads > 1 && rows > grain
                       ? rt_pool_parallel_for(cx->pool, rows, grain, cx->nthreads, rows_slice, &j)
                       : rows_slice(&j, 0, rows);
  cxla_free(wpk);
  return st;
}

#else

cxla_status dconv_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  (void)cx, (void)p, (void)x, (void)k, (void)o;
  return ERR(INTERNAL, "cpu backend: direct convolution needs AVX-512");
}

#endif
