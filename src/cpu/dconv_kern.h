/* dconv_kern.h: the direct convolution's and Winograd's row loops
 * (dconv.c describes both), over vectors of 16 floats that the including
 * file supplies for its instruction set. Include once per translation
 * unit, after defining:
 *   V16                      a vector of 16 floats (one register or two)
 *   v_zero() v_load(p) v_store(p, v) v_add(a, b) v_sub(a, b)
 *   v_loadn(p, n) v_storen(p, v, n)   the first n lanes only (the rest
 *                            loaded as 0, not stored; n >= 16: all)
 *   DK_TGT                   the functions' target attribute
 *   DK_T16                   1 where transpose16 (AVX-512) moves 16 x 16
 *                            blocks between layouts, else 0 (plain loops)
 *   DK_ROWS, DK_WINO         the names of the two entry points
 *   dk_tiles[nv][wb - 1]     the strip kernels (TileFn) for nv vectors of
 *                            16 output features and wb pixels, and
 *   dk_wb_of_nv[nv]          the most pixels per strip for nv vectors. */
#include <string.h>

#include "base/transpose16.h"

/* The first n of 16 lanes as an AVX-512 mask (the transposing paths). */
static inline unsigned short dk_lanes(int64_t n) { return (unsigned short)(n >= 16 ? 0xffff : (1u << n) - 1); }

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
 * opad apart). Features outer, columns contiguous (NCHW), with
 * transpose16: per block of 16 features, row after row, so that each
 * feature plane is written in order (16 streams the prefetchers follow,
 * not one short run in each of O planes per row). */
DK_TGT static void put_rows(const DConvPlan *p, float *ob, const float *rb, int64_t nrows, int64_t opad) {
  if (!(DK_T16 && p->os_f != 1 && p->os_w == 1)) {
    for (int64_t k = 0; k < nrows; k++) put_row(p, ob + k * p->os_h, rb + k * p->OW * opad, opad);
    return;
  }
#if DK_T16
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
          _mm512_mask_storeu_ps(dst + i * p->os_f, dk_lanes(nw), r[i]);
      }
  }
#endif
}

/* Rows [r0, r1) of n * OH, in groups of rg rows: with several feature
 * blocks, each block's weights serve the whole group while they are in
 * L2. */
DK_TGT cxla_status DK_ROWS(void *arg, int64_t r0, int64_t r1) {
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
      int64_t vbw = blk_width(j->nblk, opad, b), nv = vbw / 16, wbm = dk_wb_of_nv[nv];
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
            dk_tiles[nv][wb - 1](nt, cc, px, wt, ab + ow0 * ldb + b * BLK, ldb, c0 == 0);
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

/* ---- Winograd F(2x2, 3x3) (dconv.c) ---- */

/* B^T d B of the 4x4 patch of the first m of 16 input features (m >= 16:
 * all) at column iw0 of the input rows rows[0..3] (NULL: outside the
 * input; columns cs apart), zeros outside the input, into V[e * vs]. */
DK_TGT static void wino_in(const DConvPlan *p, const float *const *rows, int64_t cs, int64_t iw0, int64_t c0,
                           int64_t m, float *V, int64_t vs) {
  V16 d[4][4], t[4][4];
  if (m >= 16 && rows[0] && rows[1] && rows[2] && rows[3] && iw0 >= 0 && iw0 + 3 < p->W) {
    /* inside the input, 16 whole features: plain loads */
    for (int i = 0; i < 4; i++)
      for (int c = 0; c < 4; c++) d[i][c] = v_load(rows[i] + (iw0 + c) * cs + c0);
  } else {
    for (int i = 0; i < 4; i++)
      for (int c = 0; c < 4; c++) {
        int64_t iw = iw0 + c;
        d[i][c] = rows[i] && iw >= 0 && iw < p->W ? v_loadn(rows[i] + iw * cs + c0, m) : v_zero();
      }
  }
  for (int c = 0; c < 4; c++) {
    t[0][c] = v_sub(d[0][c], d[2][c]);
    t[1][c] = v_add(d[1][c], d[2][c]);
    t[2][c] = v_sub(d[2][c], d[1][c]);
    t[3][c] = v_sub(d[1][c], d[3][c]);
  }
  for (int r = 0; r < 4; r++) {
    v_storen(V + (r * 4 + 0) * vs, v_sub(t[r][0], t[r][2]), m);
    v_storen(V + (r * 4 + 1) * vs, v_add(t[r][1], t[r][2]), m);
    v_storen(V + (r * 4 + 2) * vs, v_sub(t[r][2], t[r][1]), m);
    v_storen(V + (r * 4 + 3) * vs, v_sub(t[r][1], t[r][3]), m);
  }
}

/* A^T M A of 16 output features (M[e * ms]) into y[2][2]. */
DK_TGT static inline void wino_out(const float *M, int64_t ms, V16 y[2][2]) {
  V16 s[2][4];
  for (int c = 0; c < 4; c++) {
    V16 m0 = v_load(M + (0 + c) * ms), m1 = v_load(M + (4 + c) * ms);
    V16 m2 = v_load(M + (8 + c) * ms), m3 = v_load(M + (12 + c) * ms);
    s[0][c] = v_add(v_add(m0, m1), m2);
    s[1][c] = v_sub(v_sub(m1, m2), m3);
  }
  for (int r = 0; r < 2; r++) {
    y[r][0] = v_add(v_add(s[r][0], s[r][1]), s[r][2]);
    y[r][1] = v_sub(v_sub(s[r][1], s[r][2]), s[r][3]);
  }
}

/* Copies input row xr (features xs_c apart, columns xs_w apart)
 * channels-last into dst[w * C + c]: with transpose16, 16 x 16 blocks
 * transposed in registers where the columns are contiguous. */
DK_TGT static void stage_row(const DConvPlan *p, const float *xr, float *dst) {
  int64_t C = p->C, W = p->W, xc = p->xs_c;
  if (!DK_T16 || p->xs_w != 1) {
    for (int64_t w = 0; w < W; w++)
      for (int64_t c = 0; c < C; c++) dst[w * C + c] = xr[c * xc + w * p->xs_w];
    return;
  }
#if DK_T16
  for (int64_t c0 = 0; c0 < C; c0 += 16)
    for (int64_t w0 = 0; w0 < W; w0 += 16) {
      int64_t nw = W - w0 < 16 ? W - w0 : 16, nc = C - c0 < 16 ? C - c0 : 16;
      __m512 r[16];
      _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
        r[i] = i < nc ? _mm512_maskz_loadu_ps(dk_lanes(nw), xr + (c0 + i) * xc + w0) : _mm512_setzero_ps();
      transpose16(r);
      _Pragma("GCC unroll 16") for (int i = 0; i < nw; i++)
        _mm512_mask_storeu_ps(dst + (w0 + i) * C + c0, dk_lanes(nc), r[i]);
    }
#endif
}

/* Writes the output rows of gcnt tile rows of image n from tile row th0
 * on, gathered in rb. */
DK_TGT static void flush_rows(const WgJob *j, const float *rb, int64_t n, int64_t th0, int64_t gcnt) {
  const DConvPlan *p = j->p;
  int64_t end = 2 * (th0 + gcnt) < p->OH ? 2 * (th0 + gcnt) : p->OH;
  put_rows(p, j->o + p->obase + n * p->os_b + 2 * th0 * p->os_h, rb, end - 2 * th0, j->opad);
}

/* Tile rows [r0, r1) of N * TH. */
DK_TGT cxla_status DK_WINO(void *arg, int64_t r0, int64_t r1) {
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
        for (int64_t c0 = 0; c0 < C; c0 += 16) wino_in(p, rows, cs, 2 * (t0 + t) - p->pw, c0, C - c0, V + t * C + c0, vs);
      for (int64_t e = 0; e < 16; e++)
        for (int64_t b = 0; b < j->nblk; b++) {
          int64_t vbw = blk_width(j->nblk, opad, b), nv = vbw / 16;
          int64_t wbm = dk_wb_of_nv[nv], ns = (T + wbm - 1) / wbm, base = T / ns, extra = T % ns;
          const float *wt = j->U + e * opad * C + b * BLK * C;
          for (int64_t sidx = 0, ts = 0; sidx < ns; sidx++) {
            int64_t wb = base + (sidx < extra);
            for (int64_t q = 0; q < wb; q++) px[q] = V + e * vs + (ts + q) * C;
            dk_tiles[nv][wb - 1](1, C, px, &wt, M + e * ms + ts * opad + b * BLK, opad, true);
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
            V16 y[2][2];
            wino_out(M + t * opad + ov, ms, y);
            v_store(d00 + ov, y[0][0]);
            v_store(d00 + dc + ov, y[0][1]);
            v_store(d00 + dr + ov, y[1][0]);
            v_store(d00 + dr + dc + ov, y[1][1]);
          }
          continue;
        }
        for (int64_t ov = 0; ov < opad; ov += 16) {
          V16 y[2][2];
          wino_out(M + t * opad + ov, ms, y);
          for (int rr = 0; rr < 2; rr++) {
            if (2 * th + rr >= p->OH) continue;
            for (int cc = 0; cc < 2; cc++) {
              int64_t ow = 2 * tw + cc;
              if (ow >= p->OW) continue;
              float *dst = in_place ? ob + rr * p->os_h + ow * p->os_w + ov : tb + (rr * p->OW + ow) * opad + ov;
              v_store(dst, y[rr][cc]);
            }
          }
        }
      }
    }
    gcnt += !in_place;
  }
  if (!st && gcnt) flush_rows(j, rb, gn, gth0, gcnt);
  cxla_free(V);
  cxla_free(M);
  cxla_free(rb);
  cxla_free(sg);
  return st;
}
