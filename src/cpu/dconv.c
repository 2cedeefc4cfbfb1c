/* Direct f32 convolution on AVX-512 over channels-last inputs (the
 * forward and input-gradient forms; conv.c plans them and falls back to
 * im2col + BLAS on machines without AVX-512, for other types and shapes),
 * and Winograd F(2x2, 3x3) for 3x3 windows with unit stride (below).
 *
 * The kernel is packed once per run into blocks of up to 64 output
 * features, each in chunks of input features [kh][kw][ci][block width]
 * (zero past the last feature; a chunk contiguous, so that its taps do not
 * fall on the same L1 sets). A work item is one output row (batch n,
 * output row oh); per feature block (for a group of rows while the block's
 * weights are in L2), per row, per chunk of input features (the chunk's
 * weights for all window taps fit in L1), the row is cut into strips of
 * up to WB output pixels whose WB x NV vectors of 16 sums stay in zmm
 * registers: for each window tap and input feature, NV weight vectors are
 * loaded and each pixel's input value is broadcast and multiplied into
 * them. Each pixel of a tap reads through its own pointer; pixels in
 * padding read a zero row, and taps whose row or whole strip is in padding
 * are left out. The sums of a row gather in the output row itself when its
 * features are contiguous and a multiple of 16, else in a channels-last
 * row buffer copied to the output (any layout) when the row is done. Rows
 * split over the threads; every row is computed the same way whatever the
 * split.
 *
 * The sum is in f32 in the order (chunk, tap, feature), like a GEMM's
 * different from the interpreter's only in rounding. */
#include <string.h>

#include "base/transpose16.h"
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

bool dconv_winograd(const DConvPlan *p) {
  /* the transformed kernel (16 C O floats) is read whole per pass of
   * tiles: at most 1 MiB, to stay in L2 */
  return p->KH == 3 && p->KW == 3 && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1 && p->C >= 16 &&
         p->C * ((p->O + 15) / 16 * 16) <= 16384;
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

/* Width in floats of feature block b of nblk over opad features. */
static int64_t blk_width(int64_t nblk, int64_t opad, int64_t b) {
  return b + 1 < nblk ? BLK : opad - b * BLK;
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

/* The first n of 16 lanes. */
static inline __mmask16 lanes(int64_t n) {
  return (__mmask16)(n >= 16 ? 0xffff : (1u << n) - 1);
}

/* Copies a channels-last row buffer (row stride opad) to output row ob. */
static void put_row(const DConvPlan *p, float *ob, const float *rb, int64_t opad) {
  if (p->os_f == 1) {
    for (int64_t ow = 0; ow < p->OW; ow++) memcpy(ob + ow * p->os_w, rb + ow * opad, (size_t)p->O * sizeof(float));
  } else {
    for (int64_t oc = 0; oc < p->O; oc++)
      for (int64_t ow = 0; ow < p->OW; ow++) ob[oc * p->os_f + ow * p->os_w] = rb[ow * opad + oc];
  }
}

/* put_row for nrows consecutive output rows from ob on (row buffers OW *
 * opad apart). Features outer, columns contiguous (NCHW): per block of 16
 * features, row after row, so that each feature plane is written in
 * order (16 streams the prefetchers follow, not one short run in each of
 * O planes per row). */
TGT static void put_rows(const DConvPlan *p, float *ob, const float *rb, int64_t nrows, int64_t opad) {
  if (!(p->os_f != 1 && p->os_w == 1)) {
    for (int64_t k = 0; k < nrows; k++) put_row(p, ob + k * p->os_h, rb + k * p->OW * opad, opad);
    return;
  }
  for (int64_t o0 = 0; o0 < p->O; o0 += 16) {
    int64_t no = p->O - o0 < 16 ? p->O - o0 : 16;
    for (int64_t k = 0; k < nrows; k++)
      for (int64_t w0 = 0; w0 < p->OW; w0 += 16) {
        int64_t nw = p->OW - w0 < 16 ? p->OW - w0 : 16;
        const float *src = rb + (k * p->OW + w0) * opad + o0;
        __m512 r[16];
        _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
          r[i] = i < nw ? _mm512_loadu_ps(src + i * opad) : _mm512_setzero_ps();
        transpose16(r);
        float *dst = ob + k * p->os_h + o0 * p->os_f + w0;
        _Pragma("GCC unroll 16") for (int i = 0; i < no; i++)
          _mm512_mask_storeu_ps(dst + i * p->os_f, lanes(nw), r[i]);
      }
  }
}

/* Rows [r0, r1) of n * OH, in groups of rg rows: with several feature
 * blocks, each block's weights serve the whole group while they are in
 * L2. */
static cxla_status rows_slice(void *arg, int64_t r0, int64_t r1) {
  const DcJob *j = arg;
  const DConvPlan *p = j->p;
  int64_t taps = p->KH * p->KW, opad = j->opad, row = p->OW * opad;
  /* the sums gather in the output rows themselves where their features
   * are contiguous and fill whole vectors, else in row buffers */
  bool in_place = p->os_f == 1 && opad == p->O;
  int64_t rg = j->nblk > 1 ? (64 * 1024) / row : 1;
  if (rg < 1) rg = 1;
  if (rg > 16) rg = 16;
  float *rb = in_place ? NULL : cxla_malloc((size_t)(rg * row) * sizeof(float));
  float *zero = cxla_calloc((size_t)p->C, sizeof(float));
  const float **px = cxla_malloc((size_t)(taps * WB_MAX) * sizeof *px);
  const float **wt = cxla_malloc((size_t)taps * sizeof *wt);
  cxla_status st = (!in_place && !rb) || !zero || !px || !wt ? cxla_oom() : NULL;
  for (int64_t g0 = r0; g0 < r1 && !st; g0 += rg) {
    int64_t g1 = g0 + rg < r1 ? g0 + rg : r1;
    for (int64_t b = 0; b < j->nblk; b++) {
      int64_t vbw = blk_width(j->nblk, opad, b), nv = vbw / 16, wbm = wb_of_nv[nv];
      const float *wb_blk = j->wpk + b * BLK * taps * p->C;
      int64_t ns = (p->OW + wbm - 1) / wbm, base = p->OW / ns, extra = p->OW % ns;
      for (int64_t r = g0; r < g1; r++) {
        int64_t n = r / p->OH, oh = r % p->OH;
        const float *xb = j->x + n * p->xs_b;
        float *ab = in_place ? j->o + p->obase + n * p->os_b + oh * p->os_h : rb + (r - g0) * row;
        int64_t ldb = in_place ? p->os_w : opad;
        for (int64_t c0 = 0; c0 < p->C; c0 += j->cn) {
          int64_t cc = p->C - c0 < j->cn ? p->C - c0 : j->cn;
          for (int64_t s = 0, ow0 = 0; s < ns; s++) {
            int64_t wb = base + (s < extra);
            int64_t nt = 0;
            for (int64_t kh = 0; kh < p->KH; kh++) {
              int64_t ih = oh * p->sh - p->ph + kh * p->dh;
              if (ih < 0 || ih >= p->H) continue;
              const float *xr = xb + ih * p->xs_h + c0;
              for (int64_t kw = 0; kw < p->KW; kw++) {
                int64_t iw0 = ow0 * p->sw - p->pw + kw * p->dw, step = p->sw * p->xs_w;
                if (iw0 >= 0 && iw0 + (wb - 1) * p->sw < p->W) {
                  /* the whole strip inside the input row: no checks (with
                   * few input features these pointers cost as much as the
                   * products) */
                  const float *x0 = xr + iw0 * p->xs_w;
                  for (int64_t q = 0; q < wb; q++) px[nt * wb + q] = x0 + q * step;
                  wt[nt++] = wb_blk + (c0 * taps + (kh * p->KW + kw) * cc) * vbw;
                  continue;
                }
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
    }
    if (!in_place)
      for (int64_t r = g0; r < g1; r++)
        put_rows(p, j->o + p->obase + r / p->OH * p->os_b + r % p->OH * p->os_h, rb + (r - g0) * row, 1, opad);
  }
  cxla_free(rb);
  cxla_free(zero);
  cxla_free(px);
  cxla_free(wt);
  return st;
}

/* ---- Winograd F(2x2, 3x3) ----
 * For a 3x3 window with unit stride and no dilation, each 2x2 output tile
 * is A^T [(G g G^T) . (B^T d B)] A over the 4x4 input patch d at its
 * corner (Lavin & Gray): 16 products per input feature where the direct
 * sum has 36. Per tile row (n, th) and pass of up to WT_MAX tiles: the
 * patches are transformed (16 lanes of input features at a time) into
 * V[e][tile][C], each of the 16 elements e is a product V[e] U[e] (the
 * direct kernel's strips, one tap of C features) into M[e][tile][O], and
 * M is transformed back into 2x2 outputs. U (the transformed kernel,
 * [e][feature block][C][block width]) is computed once per run, in
 * double. The transforms add a few roundings; the sums stay in f32. */
enum { WT_MAX = 12 }; /* tiles per pass: V and M stay near L1 */

typedef struct WgJob {
  const DConvPlan *p;
  const float *x, *U;
  float *o;
  int64_t nblk, opad, TH, TW;
} WgJob;

typedef struct WgPack {
  const DConvPlan *p;
  const float *k;
  int64_t opad;
  float *U;
} WgPack;

/* Transforms the kernel for input features [c0, c1). */
static cxla_status wino_pack(void *arg, int64_t c0, int64_t c1) {
  const WgPack *w = arg;
  const DConvPlan *p = w->p;
  const float *k = w->k;
  int64_t opad = w->opad, per_e = opad * p->C;
  float *U = w->U;
  for (int64_t b = 0; b * BLK < opad; b++) {
    int64_t vbw = opad - b * BLK < BLK ? opad - b * BLK : BLK;
    for (int64_t ci = c0; ci < c1; ci++)
      for (int64_t l = 0; l < vbw; l++) {
        int64_t oc = b * BLK + l;
        double g[3][3], t[4][3];
        for (int kh = 0; kh < 3; kh++)
          for (int kw = 0; kw < 3; kw++)
            g[kh][kw] = oc < p->O ? k[p->kbase + oc * p->ks_o + ci * p->ks_i + kh * p->ks_h + kw * p->ks_w] : 0.0;
        for (int c = 0; c < 3; c++) {
          t[0][c] = g[0][c];
          t[1][c] = (g[0][c] + g[1][c] + g[2][c]) * 0.5;
          t[2][c] = (g[0][c] - g[1][c] + g[2][c]) * 0.5;
          t[3][c] = g[2][c];
        }
        for (int r = 0; r < 4; r++) {
          double u[4] = {t[r][0], (t[r][0] + t[r][1] + t[r][2]) * 0.5, (t[r][0] - t[r][1] + t[r][2]) * 0.5, t[r][2]};
          for (int c = 0; c < 4; c++) U[(r * 4 + c) * per_e + b * BLK * p->C + ci * vbw + l] = (float)u[c];
        }
      }
  }
  return NULL;
}

/* B^T d B of the 4x4 patch of 16 input features at column iw0 of the
 * input rows rows[0..3] (NULL: outside the input; columns cs apart), zeros
 * outside the input, into V[e * vs]. */
TGT static void wino_in(const DConvPlan *p, const float *const *rows, int64_t cs, int64_t iw0, int64_t c0,
                        __mmask16 m, float *V, int64_t vs) {
  __m512 d[4][4], t[4][4];
  if (m == 0xffff && rows[0] && rows[1] && rows[2] && rows[3] && iw0 >= 0 && iw0 + 3 < p->W) {
    /* inside the input, 16 whole features: plain loads */
    for (int i = 0; i < 4; i++)
      for (int c = 0; c < 4; c++) d[i][c] = _mm512_loadu_ps(rows[i] + (iw0 + c) * cs + c0);
  } else {
    for (int i = 0; i < 4; i++)
      for (int c = 0; c < 4; c++) {
        int64_t iw = iw0 + c;
        d[i][c] = rows[i] && iw >= 0 && iw < p->W ? _mm512_maskz_loadu_ps(m, rows[i] + iw * cs + c0)
                                                   : _mm512_setzero_ps();
      }
  }
  for (int c = 0; c < 4; c++) {
    t[0][c] = _mm512_sub_ps(d[0][c], d[2][c]);
    t[1][c] = _mm512_add_ps(d[1][c], d[2][c]);
    t[2][c] = _mm512_sub_ps(d[2][c], d[1][c]);
    t[3][c] = _mm512_sub_ps(d[1][c], d[3][c]);
  }
  for (int r = 0; r < 4; r++) {
    _mm512_mask_storeu_ps(V + (r * 4 + 0) * vs, m, _mm512_sub_ps(t[r][0], t[r][2]));
    _mm512_mask_storeu_ps(V + (r * 4 + 1) * vs, m, _mm512_add_ps(t[r][1], t[r][2]));
    _mm512_mask_storeu_ps(V + (r * 4 + 2) * vs, m, _mm512_sub_ps(t[r][2], t[r][1]));
    _mm512_mask_storeu_ps(V + (r * 4 + 3) * vs, m, _mm512_sub_ps(t[r][1], t[r][3]));
  }
}

/* A^T M A of 16 output features (M[e * ms]) into y[2][2]. */
TGT static void wino_out(const float *M, int64_t ms, __m512 y[2][2]) {
  __m512 s[2][4];
  for (int c = 0; c < 4; c++) {
    __m512 m0 = _mm512_loadu_ps(M + (0 + c) * ms), m1 = _mm512_loadu_ps(M + (4 + c) * ms);
    __m512 m2 = _mm512_loadu_ps(M + (8 + c) * ms), m3 = _mm512_loadu_ps(M + (12 + c) * ms);
    s[0][c] = _mm512_add_ps(_mm512_add_ps(m0, m1), m2);
    s[1][c] = _mm512_sub_ps(_mm512_sub_ps(m1, m2), m3);
  }
  for (int r = 0; r < 2; r++) {
    y[r][0] = _mm512_add_ps(_mm512_add_ps(s[r][0], s[r][1]), s[r][2]);
    y[r][1] = _mm512_sub_ps(_mm512_sub_ps(s[r][1], s[r][2]), s[r][3]);
  }
}

/* Copies input row xr (features xs_c apart, columns xs_w apart)
 * channels-last into dst[w * C + c]: 16 x 16 blocks transposed in
 * registers where the columns are contiguous. */
TGT static void stage_row(const DConvPlan *p, const float *xr, float *dst) {
  int64_t C = p->C, W = p->W, xc = p->xs_c;
  if (p->xs_w != 1) {
    for (int64_t w = 0; w < W; w++)
      for (int64_t c = 0; c < C; c++) dst[w * C + c] = xr[c * xc + w * p->xs_w];
    return;
  }
  for (int64_t c0 = 0; c0 < C; c0 += 16)
    for (int64_t w0 = 0; w0 < W; w0 += 16) {
      int64_t nw = W - w0 < 16 ? W - w0 : 16, nc = C - c0 < 16 ? C - c0 : 16;
      __m512 r[16];
      _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
        r[i] = i < nc ? _mm512_maskz_loadu_ps(lanes(nw), xr + (c0 + i) * xc + w0) : _mm512_setzero_ps();
      transpose16(r);
      _Pragma("GCC unroll 16") for (int i = 0; i < nw; i++)
        _mm512_mask_storeu_ps(dst + (w0 + i) * C + c0, lanes(nc), r[i]);
    }
}

/* Writes the output rows of gcnt tile rows of image n from tile row th0
 * on, gathered in rb. */
TGT static void flush_rows(const WgJob *j, const float *rb, int64_t n, int64_t th0, int64_t gcnt) {
  const DConvPlan *p = j->p;
  int64_t end = 2 * (th0 + gcnt) < p->OH ? 2 * (th0 + gcnt) : p->OH;
  put_rows(p, j->o + p->obase + n * p->os_b + 2 * th0 * p->os_h, rb, end - 2 * th0, j->opad);
}

/* Tile rows [r0, r1) of N * TH. */
TGT static cxla_status wino_slice(void *arg, int64_t r0, int64_t r1) {
  const WgJob *j = arg;
  const DConvPlan *p = j->p;
  int64_t C = p->C, opad = j->opad;
  bool in_place = p->os_f == 1 && opad == p->O;
  /* the 16 elements' strides, a cache line past a multiple of 4 KiB: the
   * transforms' 16 loads and stores fall on different L1 sets */
  int64_t vs = WT_MAX * C + 16, ms = WT_MAX * opad + 16;
  float *V = cxla_malloc((size_t)(16 * vs) * sizeof(float));
  float *M = cxla_malloc((size_t)(16 * ms) * sizeof(float));
  /* not in place: the outputs of up to tg tile rows of one image gather
   * in rb (near 256 KiB, in L2), then go out together (put_rows) */
  int64_t trow = 2 * p->OW * opad, tg = (64 * 1024) / trow, gn = -1, gth0 = 0, gcnt = 0;
  if (tg < 1) tg = 1;
  if (tg > 8) tg = 8;
  float *rb = in_place ? NULL : cxla_malloc((size_t)(tg * trow) * sizeof(float));
  /* strided input features: the 4 input rows a tile row reads, staged
   * channels-last in slots ih mod 4 (the next tile row reuses two);
   * tag: the row (n * H + ih) a slot holds */
  bool staged = p->xs_c > 1;
  float *sg = staged ? cxla_malloc((size_t)(4 * p->W * C) * sizeof(float)) : NULL;
  int64_t tag[4] = {-1, -1, -1, -1};
  const float *px[WB_MAX];
  cxla_status st = !V || !M || (!in_place && !rb) || (staged && !sg) ? cxla_oom() : NULL;
  for (int64_t r = r0; r < r1 && !st; r++) {
    int64_t n = r / j->TH, th = r % j->TH;
    const float *xb = j->x + n * p->xs_b;
    float *ob = j->o + p->obase + n * p->os_b + 2 * th * p->os_h;
    if (!in_place && gcnt && (gcnt == tg || n != gn)) {
      flush_rows(j, rb, gn, gth0, gcnt);
      gcnt = 0;
    }
    if (!gcnt) gn = n, gth0 = th;
    float *tb = in_place ? NULL : rb + gcnt * trow; /* this tile row's two output rows */
    const float *rows[4];
    for (int i = 0; i < 4; i++) {
      int64_t ih = 2 * th - p->ph + i;
      rows[i] = NULL;
      if (ih < 0 || ih >= p->H) continue;
      if (!staged) {
        rows[i] = xb + ih * p->xs_h;
        continue;
      }
      float *slot = sg + (ih & 3) * p->W * C;
      if (tag[ih & 3] != n * p->H + ih) {
        stage_row(p, xb + ih * p->xs_h, slot);
        tag[ih & 3] = n * p->H + ih;
      }
      rows[i] = slot;
    }
    if (staged && p->xs_w == 1)
      /* the two rows the next tile row stages, into L2 ahead: one short
       * run in each of C feature planes, which the prefetchers miss */
      for (int64_t ih = 2 * th - p->ph + 4; ih < 2 * th - p->ph + 6; ih++) {
        if (ih < 0 || ih >= p->H) continue;
        for (int64_t c = 0; c < C; c++)
          for (int64_t w = 0; w < p->W; w += 16)
            _mm_prefetch((const char *)(xb + c * p->xs_c + ih * p->xs_h + w), _MM_HINT_T1);
      }
    int64_t cs = staged ? C : p->xs_w;
    for (int64_t t0 = 0; t0 < j->TW; t0 += WT_MAX) {
      int64_t T = j->TW - t0 < WT_MAX ? j->TW - t0 : WT_MAX;
      for (int64_t t = 0; t < T; t++)
        for (int64_t c0 = 0; c0 < C; c0 += 16)
          wino_in(p, rows, cs, 2 * (t0 + t) - p->pw, c0, lanes(C - c0), V + t * C + c0, vs);
      for (int64_t e = 0; e < 16; e++)
        for (int64_t b = 0; b < j->nblk; b++) {
          int64_t vbw = blk_width(j->nblk, opad, b), nv = vbw / 16;
          int64_t wbm = wb_of_nv[nv], ns = (T + wbm - 1) / wbm, base = T / ns, extra = T % ns;
          const float *wt = j->U + e * opad * C + b * BLK * C;
          for (int64_t sidx = 0, ts = 0; sidx < ns; sidx++) {
            int64_t wb = base + (sidx < extra);
            for (int64_t q = 0; q < wb; q++) px[q] = V + e * vs + (ts + q) * C;
            tiles[nv][wb - 1](1, C, px, &wt, M + e * ms + ts * opad + b * BLK, opad, true);
            ts += wb;
          }
        }
      for (int64_t t = 0; t < T; t++) {
        int64_t tw = t0 + t;
        if (2 * th + 1 < p->OH && 2 * tw + 1 < p->OW) {
          /* a whole 2 x 2 tile: four stores per vector, no tests */
          float *d00 = in_place ? ob + 2 * tw * p->os_w : tb + 2 * tw * opad;
          int64_t dr = in_place ? p->os_h : p->OW * opad, dc = in_place ? p->os_w : opad;
          for (int64_t ov = 0; ov < opad; ov += 16) {
            __m512 y[2][2];
            wino_out(M + t * opad + ov, ms, y);
            _mm512_storeu_ps(d00 + ov, y[0][0]);
            _mm512_storeu_ps(d00 + dc + ov, y[0][1]);
            _mm512_storeu_ps(d00 + dr + ov, y[1][0]);
            _mm512_storeu_ps(d00 + dr + dc + ov, y[1][1]);
          }
          continue;
        }
        for (int64_t ov = 0; ov < opad; ov += 16) {
          __m512 y[2][2];
          wino_out(M + t * opad + ov, ms, y);
          for (int rr = 0; rr < 2; rr++) {
            if (2 * th + rr >= p->OH) continue;
            for (int cc = 0; cc < 2; cc++) {
              int64_t ow = 2 * tw + cc;
              if (ow >= p->OW) continue;
              float *dst = in_place ? ob + rr * p->os_h + ow * p->os_w + ov : tb + (rr * p->OW + ow) * opad + ov;
              _mm512_storeu_ps(dst, y[rr][cc]);
            }
          }
        }
      }
    }
    gcnt += !in_place;
  }
  if (!st && gcnt)
    flush_rows(j, rb, gn, gth0, gcnt);
  cxla_free(V);
  cxla_free(M);
  cxla_free(rb);
  cxla_free(sg);
  return st;
}

static cxla_status wino_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  WgJob j = {.p = p, .x = x, .o = o, .TH = (p->OH + 1) / 2, .TW = (p->OW + 1) / 2};
  j.opad = (p->O + 15) / 16 * 16;
  j.nblk = (j.opad + BLK - 1) / BLK;
  float *U = cxla_malloc((size_t)(16 * j.opad * p->C) * sizeof(float));
  if (!U) return cxla_oom();
  j.U = U;
  bool threads = cx && cx->pool && cx->nthreads > 1;
  WgPack wp = {.p = p, .k = k, .opad = j.opad, .U = U};
  cxla_status st = threads && p->C >= 32 ? rt_pool_parallel_for(cx->pool, p->C, 16, cx->nthreads, wino_pack, &wp)
                                         : wino_pack(&wp, 0, p->C);
  int64_t rows = p->N * j.TH;
  double per_row = 16.0 * (double)j.TW * (double)j.opad * (double)p->C;
  int64_t grain = per_row >= 65536.0 ? 1 : (int64_t)(65536.0 / per_row) + 1;
  if (!st)
    st = threads && rows > grain ? rt_pool_parallel_for(cx->pool, rows, grain, cx->nthreads, wino_slice, &j)
                                 : wino_slice(&j, 0, rows);
  cxla_free(U);
  return st;
}

/* ---- one input feature (a network's first layer on one channel) ----
 * The strips above spend as much on their per-tap pixel pointers as on
 * the products when there is one input feature (one product per pixel and
 * tap). Here, per output row and vector of 16 output features, blocks of
 * C1_PB pixels keep their sums in registers; per window tap (row-major,
 * taps whose input row is in padding left out, as above) one weight vector
 * is loaded and each pixel's input value broadcast into it. The input's
 * rows are read from a copy padded with zeros left and right (as far as
 * the last block of pixels reaches): every block takes every tap of its
 * row with no bounds tests (0 x w where the strips skip the tap: the same
 * sum, up to the sign of a zero; operands here are finite). Needs the
 * output features contiguous (os_f 1). The sum is the strips' order: tap
 * by tap from 0. */
enum { C1_PB = 16 };

typedef struct C1Job {
  const DConvPlan *p;
  const float *x, *w; /* input; weights [tap][opad] (zero past O) */
  float *xp;          /* the padded rows: [N][H][Wp], column c is input column c - pw */
  float *o;
  int64_t opad, Wp;
} C1Job;

/* Images [n0, n1) into the padded copy. */
static cxla_status c1_pad(void *arg, int64_t n0, int64_t n1) {
  const C1Job *j = arg;
  const DConvPlan *p = j->p;
  for (int64_t n = n0; n < n1; n++)
    for (int64_t h = 0; h < p->H; h++) {
      const float *src = j->x + n * p->xs_b + h * p->xs_h;
      float *d = j->xp + (n * p->H + h) * j->Wp;
      /* columns [c0, c1) from the input, zeros around them */
      int64_t c0 = p->pw > 0 ? p->pw : 0, c1 = p->pw + p->W < j->Wp ? p->pw + p->W : j->Wp;
      if (c1 < c0) c1 = c0;
      memset(d, 0, (size_t)c0 * sizeof *d);
      if (p->xs_w == 1) memcpy(d + c0, src + c0 - p->pw, (size_t)(c1 - c0) * sizeof *d);
      else
        for (int64_t c = c0; c < c1; c++) d[c] = src[(c - p->pw) * p->xs_w];
      memset(d + c1, 0, (size_t)(j->Wp - c1) * sizeof *d);
    }
  return NULL;
}

TGT static cxla_status c1_slice(void *arg, int64_t r0, int64_t r1) {
  const C1Job *j = arg;
  const DConvPlan *p = j->p;
  int64_t sw = p->sw;
  for (int64_t r = r0; r < r1; r++) {
    int64_t n = r / p->OH, oh = r % p->OH;
    float *orow = j->o + p->obase + n * p->os_b + oh * p->os_h;
    for (int64_t f0 = 0; f0 < p->O; f0 += 16) {
      __mmask16 m = lanes(p->O - f0);
      for (int64_t ow0 = 0; ow0 < p->OW; ow0 += C1_PB) {
        int64_t nb = p->OW - ow0 < C1_PB ? p->OW - ow0 : C1_PB;
        __m512 acc[C1_PB];
        _Pragma("GCC unroll 16") for (int q = 0; q < C1_PB; q++) acc[q] = _mm512_setzero_ps();
        for (int64_t kh = 0; kh < p->KH; kh++) {
          int64_t ih = oh * p->sh - p->ph + kh * p->dh;
          if (ih < 0 || ih >= p->H) continue;
          const float *xr = j->xp + (n * p->H + ih) * j->Wp + ow0 * sw;
          const float *wk = j->w + kh * p->KW * j->opad + f0;
          for (int64_t kw = 0; kw < p->KW; kw++) {
            __m512 wv = _mm512_loadu_ps(wk + kw * j->opad);
            const float *x0 = xr + kw * p->dw;
            if (sw == 1) { /* adjacent pixels: constant offsets */
              _Pragma("GCC unroll 16") for (int q = 0; q < C1_PB; q++)
                acc[q] = _mm512_fmadd_ps(_mm512_set1_ps(x0[q]), wv, acc[q]);
            } else {
              _Pragma("GCC unroll 16") for (int q = 0; q < C1_PB; q++)
                acc[q] = _mm512_fmadd_ps(_mm512_set1_ps(x0[q * sw]), wv, acc[q]);
            }
          }
        }
        _Pragma("GCC unroll 16") for (int q = 0; q < C1_PB; q++) if (q < nb)
          _mm512_mask_storeu_ps(orow + (ow0 + q) * p->os_w + f0, m, acc[q]);
      }
    }
  }
  return NULL;
}

/* fn over the output rows (batch x output rows) on the execution's
 * threads, slices of at least ~64K multiply-adds (per_row each). */
static cxla_status over_rows(const ExecCtx *cx, const DConvPlan *p, double per_row, RtSliceFn fn, void *arg) {
  int64_t rows = p->N * p->OH;
  int64_t grain = per_row >= 65536.0 ? 1 : (int64_t)(65536.0 / per_row) + 1;
  return cx && cx->pool && cx->nthreads > 1 && rows > grain
             ? rt_pool_parallel_for(cx->pool, rows, grain, cx->nthreads, fn, arg)
             : fn(arg, 0, rows);
}

static cxla_status c1_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  int64_t taps = p->KH * p->KW, opad = (p->O + 15) / 16 * 16;
  float *w = cxla_malloc((size_t)(taps * opad) * sizeof *w);
  if (!w) return cxla_oom();
  for (int64_t kh = 0; kh < p->KH; kh++)
    for (int64_t kw = 0; kw < p->KW; kw++)
      for (int64_t oc = 0; oc < opad; oc++)
        w[(kh * p->KW + kw) * opad + oc] =
            oc < p->O ? k[p->kbase + kh * p->ks_h + kw * p->ks_w + oc * p->ks_o] : 0.0f;
  /* the padded rows reach the last block's last pixel's last tap */
  int64_t nblk = (p->OW + C1_PB - 1) / C1_PB, Wp = (nblk * C1_PB - 1) * p->sw + (p->KW - 1) * p->dw + 1;
  C1Job j = {.p = p, .x = x, .w = w, .o = o, .opad = opad, .Wp = Wp};
  cxla_status st = NULL;
  if (!(j.xp = cxla_malloc((size_t)(p->N * p->H * Wp) * sizeof(float)))) st = cxla_oom();
  if (!st)
    st = cx && cx->pool && cx->nthreads > 1 && p->N > 1
             ? rt_pool_parallel_for(cx->pool, p->N, 1, cx->nthreads, c1_pad, &j)
             : c1_pad(&j, 0, p->N);
  if (!st) st = over_rows(cx, p, (double)p->OW * (double)opad * (double)taps, c1_slice, &j);
  cxla_free(j.xp);
  cxla_free(w);
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
  if (dconv_winograd(p)) return wino_run(cx, p, x, k, o);
  if (p->C == 1 && p->os_f == 1) return c1_run(cx, p, x, k, o);
  if (p->xs_c > 1) return ERR(INTERNAL, "cpu backend: direct convolution over strided input features");
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
  cxla_status st = over_rows(cx, p, (double)p->OW * (double)j.opad * (double)taps * (double)p->C, rows_slice, &j);
  cxla_free(wpk);
  return st;
}

#else

cxla_status dconv_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  (void)cx, (void)p, (void)x, (void)k, (void)o;
  return ERR(INTERNAL, "cpu backend: direct convolution needs AVX-512");
}

#endif
