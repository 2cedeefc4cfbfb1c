/* Weight-gradient convolutions (XLA's filter gradient: the batch is the
 * contraction, the window nearly the whole input, a few output positions)
 * as a direct AVX-512 kernel.
 *
 * In the convolution's own terms (WgradConv, cpu_internal.h), with stride
 * 1 and no dilation or reversal:
 *   out[oh, ow, b, o] = sum over f, kh, kw of
 *                       x[b, f, oh + kh - ph, ow + kw - pw] * dy[f, kh, kw, o]
 * (x: the lhs, b its batch dim, f its feature dim; dy: the rhs, whose
 * output features o are contiguous; terms outside x are zero). A "pixel"
 * is one rhs window position (f, kh, kw): its row dy[f, kh, kw, 0:O] is
 * loaded once per tile and multiplied by MB broadcast x values, one per
 * b, into an MB x (16 NV) tile of accumulators in zmm registers. The rhs
 * rows (f, kh) are cut into a fixed number of chunks (a function of the
 * shape only, so results do not depend on the thread count), the chunks
 * split over the execution's threads, each summing into its own partial
 * output; the partials are then added in chunk order. Within a chunk,
 * blocks of rows (WG_SWEEP_PIXELS window positions, two rows at least)
 * are swept once per tile (output position, block of b, block of o) while
 * they stay in L1/L2, while the next sweep's lines are fetched into L2;
 * blocks of all 64 output features run on unmasked tiles. Sums are in
 * f32, in that order: not the interpreter's (double, in window order),
 * within the differential tests' tolerance. Operands with infinities or
 * NaNs never get here (conv.c takes its direct loop for them). */
#include <string.h>

#include "cpu/cpu_internal.h"

#define WG_CHUNKS 16       /* rhs row chunks: partial outputs, at most */
#define WG_PART_BYTES (64 << 20) /* ... and at most this much memory in all */
#define WG_SWEEP_PIXELS 112 /* rhs window positions per sweep, at least */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))

bool wgrad_available(void) {
  return __builtin_cpu_supports("avx512f");
}

/* One tile: acc[MB][NV] (o lanes masked by mk) += over the rhs rows
 * [r0, r1) and their window columns the products, acc read from and
 * written to the chunk's partial output at part (row stride O). */
typedef struct Tile {
  const WgradConv *w;
  const float *x, *dy;
  int64_t r0, r1, oh, ow, b, o;
  float *part;
  __mmask16 mk[4];
} Tile;

/* Tiles of at most 2 accumulators (a batch of 1, few output features)
 * would wait on each FMA's latency: they sum the window columns into
 * WG_SPLIT sets in turn, added in order at the end (a function of the
 * tile's shape, hence of the convolution's only). */
#define WG_SPLIT(MB, NV) ((MB) * (NV) <= 2 ? 4 : 1)

#define WG_TILE(MB, NV) WG_TILE_AS(tile_##MB##_##NV, MB, NV, WG_LOAD_MASKED, WG_STORE_MASKED)
#define WG_LOAD_MASKED(v, p) _mm512_maskz_loadu_ps(t->mk[v], p)
#define WG_STORE_MASKED(v, p, x) _mm512_mask_storeu_ps(p, t->mk[v], x)
/* all 64 output features of the block present: no masks (with them gcc
 * reloads the four masks from the stack at every step, one of them
 * through the port of an FMA unit; 32 x 56 x 56 x 64 by 3 x 3: 159 -> 200
 * GFLOP/s, one thread) */
#define WG_TILE_FULL(MB) WG_TILE_AS(full_##MB, MB, 4, WG_LOAD_FULL, WG_STORE_FULL)
#define WG_LOAD_FULL(v, p) _mm512_loadu_ps(p)
#define WG_STORE_FULL(v, p, x) _mm512_storeu_ps(p, x)
#define WG_TILE_AS(NAME, MB, NV, LOAD, STORE)                                                   \
  TGT static void NAME(const Tile *t) {                                                         \
    enum { S = WG_SPLIT(MB, NV) };                                                              \
    const WgradConv *w = t->w;                                                                  \
    __m512 acc[S][MB][NV];                                                                      \
    float *pp = t->part;                                                                        \
    _Pragma("GCC unroll 4") for (int s = 0; s < S; s++)                                         \
      _Pragma("GCC unroll 16") for (int m = 0; m < MB; m++)                                     \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[s][m][v] =                     \
            s ? _mm512_setzero_ps() : LOAD(v, pp + m * w->O + 16 * v);                          \
    int64_t kw0 = w->pw - t->ow > 0 ? w->pw - t->ow : 0;                                        \
    int64_t kw1 = w->W + w->pw - t->ow < w->KW ? w->W + w->pw - t->ow : w->KW;                  \
    for (int64_t r = t->r0; r < t->r1; r++) {                                                   \
      int64_t f = r / w->KH, kh = r % w->KH, ih = kh + t->oh - w->ph;                           \
      if (ih < 0 || ih >= w->H || kw0 >= kw1) continue;                                         \
      const float *d = t->dy + f * w->ri + kh * w->rh + kw0 * w->rw + t->o;                     \
      const float *a = t->x + t->b * w->lb + f * w->lf + ih * w->lh + (kw0 + t->ow - w->pw) * w->lw; \
      for (int64_t kw = kw0; kw < kw1; kw += S, d += S * w->rw, a += S * w->lw) {               \
        _Pragma("GCC unroll 4") for (int s = 0; s < S; s++) {                                   \
          if (S > 1 && kw + s >= kw1) break;                                                    \
          __m512 dv[NV];                                                                        \
          _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) dv[v] =                          \
              LOAD(v, d + s * w->rw + 16 * v);                                                  \
          _Pragma("GCC unroll 16") for (int m = 0; m < MB; m++) {                               \
            __m512 av = _mm512_set1_ps(a[s * w->lw + m * w->lb]);                               \
            _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[s][m][v] =                 \
                _mm512_fmadd_ps(av, dv[v], acc[s][m][v]);                                       \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
    _Pragma("GCC unroll 4") for (int s = 1; s < S; s++)                                         \
      _Pragma("GCC unroll 16") for (int m = 0; m < MB; m++)                                     \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[0][m][v] =                    \
            _mm512_add_ps(acc[0][m][v], acc[s][m][v]);                                          \
    _Pragma("GCC unroll 16") for (int m = 0; m < MB; m++)                                       \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++)                                      \
          STORE(v, pp + m * w->O + 16 * v, acc[0][m][v]);                                       \
  }

/* tiles of up to 24 accumulators: NV 4 x 6, 3 x 8, 2 x 12, 1 x 12, and
 * the narrower ones for the last block of b */
#define WG_ROWS(NV) WG_TILE(1, NV) WG_TILE(2, NV) WG_TILE(3, NV) WG_TILE(4, NV) WG_TILE(5, NV) WG_TILE(6, NV)
WG_ROWS(1)
WG_ROWS(2)
WG_ROWS(3)
WG_ROWS(4)
WG_TILE(7, 1) WG_TILE(8, 1) WG_TILE(9, 1) WG_TILE(10, 1) WG_TILE(11, 1) WG_TILE(12, 1)
WG_TILE(7, 2) WG_TILE(8, 2) WG_TILE(9, 2) WG_TILE(10, 2) WG_TILE(11, 2) WG_TILE(12, 2)
WG_TILE(7, 3) WG_TILE(8, 3)
WG_TILE_FULL(1) WG_TILE_FULL(2) WG_TILE_FULL(3) WG_TILE_FULL(4) WG_TILE_FULL(5) WG_TILE_FULL(6)

typedef void (*TileFn)(const Tile *);
#define WG_ROW_FNS(NV) tile_1_##NV, tile_2_##NV, tile_3_##NV, tile_4_##NV, tile_5_##NV, tile_6_##NV
static const TileFn tiles1[12] = {WG_ROW_FNS(1), tile_7_1, tile_8_1, tile_9_1, tile_10_1, tile_11_1, tile_12_1};
static const TileFn tiles2[12] = {WG_ROW_FNS(2), tile_7_2, tile_8_2, tile_9_2, tile_10_2, tile_11_2, tile_12_2};
static const TileFn tiles3[8] = {WG_ROW_FNS(3), tile_7_3, tile_8_3};
static const TileFn tiles4[6] = {WG_ROW_FNS(4)};
static const TileFn *const tiles[5] = {NULL, tiles1, tiles2, tiles3, tiles4};
static const TileFn full[6] = {full_1, full_2, full_3, full_4, full_5, full_6};
static const int max_mb[5] = {0, 12, 12, 8, 6};

/* The lines of the next sweep's rhs rows and the lhs rows they read,
 * fetched into L2 a share per tile while the current sweep runs: each
 * sweep's first tiles would otherwise wait on L3 or memory for every line
 * (resnet_block_fwd_bwd's 32 x 56 x 56 x 64 by 3 x 3: 143 -> 159 GFLOP/s,
 * one thread). */
#define WG_PF_SPANS 64
#define WG_PF_SPAN_MAX (64 << 10) /* bytes: longer spans (strided operands) are not fetched */
typedef struct Prefetch {
  const char *at[WG_PF_SPANS];
  int64_t lines[WG_PF_SPANS];
  int n, cur; /* spans; the span being fetched */
  int64_t done, total, per; /* lines of span cur fetched; lines in all; per tile */
} Prefetch;

static void pf_span(Prefetch *p, const float *at, int64_t floats) {
  int64_t bytes = floats * (int64_t)sizeof(float);
  if (p->n == WG_PF_SPANS || bytes > WG_PF_SPAN_MAX) return;
  p->at[p->n] = (const char *)at;
  p->lines[p->n] = (bytes + 63) / 64;
  p->total += p->lines[p->n++];
}

/* rhs rows [n0, n1) (and the lhs rows they read) into p, spread over
 * tiles tiles */
static void pf_plan(Prefetch *p, const WgradConv *w, const float *x, const float *dy, int64_t n0, int64_t n1,
                    int64_t tiles) {
  p->n = p->cur = 0;
  p->done = p->total = 0;
  for (int64_t r = n0; r < n1;) {
    int64_t f = r / w->KH, kh0 = r % w->KH, kh1 = kh0;
    for (; r < n1 && r / w->KH == f; r++, kh1 = r % w->KH ? r % w->KH : w->KH)
      pf_span(p, dy + f * w->ri + (r % w->KH) * w->rh, (w->KW - 1) * w->rw + w->O);
    /* lhs rows kh - ph + oh for kh in [kh0, kh1), oh in [0, OH) */
    int64_t ih0 = kh0 - w->ph < 0 ? 0 : kh0 - w->ph, ih1 = kh1 - 1 - w->ph + w->OH;
    if (ih1 > w->H) ih1 = w->H;
    for (int64_t ih = ih0; ih < ih1; ih++)
      pf_span(p, x + f * w->lf + ih * w->lh, (w->W - 1) * w->lw + (w->B - 1) * w->lb + 1);
  }
  p->per = (p->total + tiles - 1) / (tiles > 0 ? tiles : 1);
}

TGT static void pf_step(Prefetch *p) {
  for (int64_t q = 0; q < p->per && p->cur < p->n; q++) {
    _mm_prefetch(p->at[p->cur] + p->done * 64, _MM_HINT_T1);
    if (++p->done == p->lines[p->cur]) p->done = 0, p->cur++;
  }
}

typedef struct WgJob {
  const WgradConv *w;
  const float *x, *dy;
  float *parts; /* WG_CHUNKS partial outputs [OH][OW][B][O] */
  int64_t rows, nch, plen, rb; /* rhs rows, chunks, partial length, rows per sweep */
} WgJob;

/* Chunks [c0, c1): each sums its rhs rows into its partial output. */
static cxla_status wg_chunks(void *arg, int64_t c0, int64_t c1) {
  const WgJob *j = arg;
  const WgradConv *w = j->w;
  int64_t rend = c1 * j->rows / j->nch; /* this range's rows end */
  /* tiles per sweep, as blocks of 64 features count them (the prefetch's
   * share per tile only: an estimate for narrower blocks) */
  int64_t ntiles = w->OH * w->OW * ((w->O + 63) / 64) * ((w->B + max_mb[4] - 1) / max_mb[4]);
  Prefetch pf;
  for (int64_t c = c0; c < c1; c++) {
    int64_t r0 = c * j->rows / j->nch, r1 = (c + 1) * j->rows / j->nch;
    float *part = j->parts + c * j->plen;
    memset(part, 0, (size_t)j->plen * sizeof *part);
    for (int64_t rb = r0; rb < r1; rb += j->rb) {
      Tile t = {.w = w, .x = j->x, .dy = j->dy, .r0 = rb, .r1 = rb + j->rb < r1 ? rb + j->rb : r1};
      /* the next sweep: this chunk's next block, else the next chunk's first */
      int64_t n0 = t.r1 < r1 ? t.r1 : r1, n1 = n0 + j->rb < rend ? n0 + j->rb : rend;
      pf_plan(&pf, w, j->x, j->dy, n0, n1, ntiles);
      for (t.oh = 0; t.oh < w->OH; t.oh++)
        for (t.ow = 0; t.ow < w->OW; t.ow++)
          for (t.o = 0; t.o < w->O; t.o += 64) {
            int64_t on = w->O - t.o < 64 ? w->O - t.o : 64;
            int nv = (int)((on + 15) / 16);
            for (int v = 0; v < 4; v++) {
              int64_t lanes = on - 16 * v;
              t.mk[v] = lanes >= 16 ? (__mmask16)0xffff : lanes <= 0 ? (__mmask16)0 : (__mmask16)((1u << lanes) - 1);
            }
            for (t.b = 0; t.b < w->B;) {
              int mb = w->B - t.b < max_mb[nv] ? (int)(w->B - t.b) : max_mb[nv];
              t.part = part + ((t.oh * w->OW + t.ow) * w->B + t.b) * w->O + t.o;
              pf_step(&pf);
              (on == 64 ? full : tiles[nv])[mb - 1](&t);
              t.b += mb;
            }
          }
    }
  }
  return NULL;
}

cxla_status wgrad_run(const ExecCtx *cx, const WgradConv *w, const float *x, const float *dy, float *out) {
  WgJob j = {.w = w, .x = x, .dy = dy, .rows = w->F * w->KH, .plen = w->OH * w->OW * w->B * w->O};
  /* chunks and sweeps: functions of the shape only */
  int64_t fit = WG_PART_BYTES / (j.plen * (int64_t)sizeof(float) + 1);
  j.nch = j.rows < WG_CHUNKS ? j.rows : WG_CHUNKS;
  if (j.nch > fit) j.nch = fit;
  if (j.nch < 1) j.nch = 1;
  j.rb = (WG_SWEEP_PIXELS + w->KW - 1) / w->KW;
  if (j.rb < 2) j.rb = 2;
  if (!(j.parts = cxla_malloc((size_t)(j.nch * j.plen) * sizeof(float)))) return cxla_oom();
  cxla_status st;
  if (cx && cx->pool && cx->nthreads > 1 && j.nch > 1)
    st = rt_pool_parallel_for(cx->pool, j.nch, 1, cx->nthreads, wg_chunks, &j);
  else
    st = wg_chunks(&j, 0, j.nch);
  if (!st) {
    /* out = the partials' sum, in chunk order */
    for (int64_t oh = 0; oh < w->OH; oh++)
      for (int64_t ow = 0; ow < w->OW; ow++)
        for (int64_t b = 0; b < w->B; b++) {
          int64_t pi = ((oh * w->OW + ow) * w->B + b) * w->O;
          float *o = out + oh * w->os_h + ow * w->os_w + b * w->os_b;
          for (int64_t k = 0; k < w->O; k++) {
            float s = j.parts[pi + k];
            for (int64_t c = 1; c < j.nch; c++) s += j.parts[c * j.plen + pi + k];
            o[k * w->os_o] = s;
          }
        }
  }
  cxla_free(j.parts);
  return st;
}

#else

bool wgrad_available(void) {
  return false;
}

cxla_status wgrad_run(const ExecCtx *cx, const WgradConv *w, const float *x, const float *dy, float *out) {
  (void)cx, (void)w, (void)x, (void)dy, (void)out;
  return ERR(INTERNAL, "cpu backend: no AVX-512 weight-gradient kernel on this target");
}

#endif
