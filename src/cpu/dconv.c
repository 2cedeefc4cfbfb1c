/* Direct f32 convolution on AVX-512 or AVX2 with FMA over channels-last
 * inputs (the forward and input-gradient forms; conv.c plans them and
 * falls back to im2col + BLAS on machines with neither, for other types
 * and shapes), and Winograd F(2x2, 3x3) for 3x3 windows with unit stride
 * (below). This file plans, packs and splits the work; the row loops are
 * dconv_kern.h's, instantiated per instruction set by dconv_avx512.c and
 * dconv_avx2.c (whose strips differ only in how many sums fit the
 * registers).
 *
 * The kernel is packed once per run into blocks of up to 64 output
 * features, each in chunks of input features [kh][kw][ci][block width]
 * (zero past the last feature; a chunk contiguous, so that its taps do not
 * fall on the same L1 sets). A work item is one output row (batch n,
 * output row oh); per feature block (for a group of rows while the block's
 * weights are in L2), per row, per chunk of input features (the chunk's
 * weights for all window taps fit in L1), the row is cut into strips of
 * up to WB output pixels whose WB x NV vectors of 16 sums stay in
 * registers (on AVX2 one vector of 16 at a time): for each window tap and input feature, NV weight vectors are
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
#include <stdlib.h>
#include <string.h>

#include "cpu/dconv_impl.h"
#include "cpu/isa.h"
#include "runtime/scratch.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define DC_X86 1
#include <immintrin.h>
#define TGT __attribute__((target("avx512f")))
#endif

/* 2: AVX-512F, 1: AVX2 and FMA, 0: neither (isa.h); $CXLA_CPU_CONV_ISA
 * = "avx2" caps it at the AVX2 kernels. */
static int dconv_isa(void) { return cpu_fma_isa("CXLA_CPU_CONV_ISA"); }

bool dconv_available(void) { return dconv_isa() > 0; }

bool dconv_winograd(const DConvPlan *p) {
  /* the transformed kernel (16 C O floats) is read whole per pass of
   * tiles: at most 1 MiB, to stay in L2 */
  return p->KH == 3 && p->KW == 3 && p->sh == 1 && p->sw == 1 && p->dh == 1 && p->dw == 1 && p->C >= 16 &&
         p->C * ((p->O + 15) / 16 * 16) <= 16384;
}

#ifdef DC_X86

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

/* isa: dconv_isa()'s answer, 1 or 2 */
static cxla_status wino_run(const ExecCtx *cx, int isa, const DConvPlan *p, const float *x, const float *k,
                            float *o) {
  WgJob j = {.p = p, .x = x, .o = o, .TH = (p->OH + 1) / 2, .TW = (p->OW + 1) / 2};
  j.opad = (p->O + 15) / 16 * 16;
  j.nblk = (j.opad + BLK - 1) / BLK;
  RtPool *pool = cx ? cx->pool : NULL;
  float *U = rt_scratch_alloc(pool, (size_t)(16 * j.opad * p->C) * sizeof(float));
  if (!U) return cxla_oom();
  j.U = U;
  bool threads = cx && cx->pool && cx->nthreads > 1;
  WgPack wp = {.p = p, .k = k, .opad = j.opad, .U = U};
  cxla_status st = threads && p->C >= 32 ? rt_pool_parallel_for(cx->pool, p->C, 16, cx->nthreads, wino_pack, &wp)
                                         : wino_pack(&wp, 0, p->C);
  int64_t rows = p->N * j.TH;
  double per_row = 16.0 * (double)j.TW * (double)j.opad * (double)p->C;
  int64_t grain = per_row >= 65536.0 ? 1 : (int64_t)(65536.0 / per_row) + 1;
  RtSliceFn slice = isa == 2 ? dconv_wino_avx512 : dconv_wino_avx2;
  if (!st)
    st = threads && rows > grain ? rt_pool_parallel_for(cx->pool, rows, grain, cx->nthreads, slice, &j)
                                 : slice(&j, 0, rows);
  rt_scratch_free(pool, U);
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
 * output features contiguous (os_f 1) and AVX-512 (on AVX2 the strips
 * run it). The sum is the strips' order: tap by tap from 0. */
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
      __mmask16 m = (__mmask16)(p->O - f0 >= 16 ? 0xffff : (1u << (p->O - f0)) - 1);
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
  RtPool *pool = cx ? cx->pool : NULL;
  float *w = rt_scratch_alloc(pool, (size_t)(taps * opad) * sizeof *w);
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
  if (!(j.xp = rt_scratch_alloc(pool, (size_t)(p->N * p->H * Wp) * sizeof(float)))) st = cxla_oom();
  if (!st)
    st = cx && cx->pool && cx->nthreads > 1 && p->N > 1
             ? rt_pool_parallel_for(cx->pool, p->N, 1, cx->nthreads, c1_pad, &j)
             : c1_pad(&j, 0, p->N);
  if (!st) st = over_rows(cx, p, (double)p->OW * (double)opad * (double)taps, c1_slice, &j);
  rt_scratch_free(pool, j.xp);
  rt_scratch_free(pool, w);
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
  int isa = dconv_isa();
  if (isa == 0) return ERR(INTERNAL, "cpu backend: direct convolution needs AVX-512 or AVX2");
  if (dconv_winograd(p)) return wino_run(cx, isa, p, x, k, o);
  if (isa == 2 && p->C == 1 && p->os_f == 1) return c1_run(cx, p, x, k, o);
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
  RtPool *pool = cx ? cx->pool : NULL;
  float *wpk = rt_scratch_alloc(pool, (size_t)(j.opad * taps * p->C) * sizeof(float));
  if (!wpk) return cxla_oom();
  pack(p, k, j.opad, j.cn, wpk);
  j.wpk = wpk;
  cxla_status st = over_rows(cx, p, (double)p->OW * (double)j.opad * (double)taps * (double)p->C,
                              isa == 2 ? dconv_rows_avx512 : dconv_rows_avx2, &j);
  rt_scratch_free(pool, wpk);
  return st;
}

#else

cxla_status dconv_run(const ExecCtx *cx, const DConvPlan *p, const float *x, const float *k, float *o) {
  (void)cx, (void)p, (void)x, (void)k, (void)o;
  return ERR(INTERNAL, "cpu backend: direct convolution needs AVX-512 or AVX2 (x86-64)");
}

#endif
