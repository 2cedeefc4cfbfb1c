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
 * they stay in L1/L2. Sums are in f32, in that
 * order: not the interpreter's (double, in window order), within the
 * differential tests' tolerance. Operands with infinities or NaNs never
 * get here (conv.c takes its direct loop for them). */
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

#define WG_TILE(MB, NV)                                                                         \
  TGT static void tile_##MB##_##NV(const Tile *t) {                                             \
    enum { S = WG_SPLIT(MB, NV) };                                                              \
    const WgradConv *w = t->w;                                                                  \
    __m512 acc[S][MB][NV];                                                                      \
    float *pp = t->part;                                                                        \
    _Pragma("GCC unroll 4") for (int s = 0; s < S; s++)                                         \
      _Pragma("GCC unroll 16") for (int m = 0; m < MB; m++)                                     \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[s][m][v] =                     \
            s ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(t->mk[v], pp + m * w->O + 16 * v);  \
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
              _mm512_maskz_loadu_ps(t->mk[v], d + s * w->rw + 16 * v);                          \
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
          _mm512_mask_storeu_ps(pp + m * w->O + 16 * v, t->mk[v], acc[0][m][v]);                \
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

typedef void (*TileFn)(const Tile *);
#define WG_ROW_FNS(NV) tile_1_##NV, tile_2_##NV, tile_3_##NV, tile_4_##NV, tile_5_##NV, tile_6_##NV
static const TileFn tiles1[12] = {WG_ROW_FNS(1), tile_7_1, tile_8_1, tile_9_1, tile_10_1, tile_11_1, tile_12_1};
static const TileFn tiles2[12] = {WG_ROW_FNS(2), tile_7_2, tile_8_2, tile_9_2, tile_10_2, tile_11_2, tile_12_2};
static const TileFn tiles3[8] = {WG_ROW_FNS(3), tile_7_3, tile_8_3};
static const TileFn tiles4[6] = {WG_ROW_FNS(4)};
static const TileFn *const tiles[5] = {NULL, tiles1, tiles2, tiles3, tiles4};
static const int max_mb[5] = {0, 12, 12, 8, 6};

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
  for (int64_t c = c0; c < c1; c++) {
    int64_t r0 = c * j->rows / j->nch, r1 = (c + 1) * j->rows / j->nch;
    float *part = j->parts + c * j->plen;
    memset(part, 0, (size_t)j->plen * sizeof *part);
    for (int64_t rb = r0; rb < r1; rb += j->rb) {
      Tile t = {.w = w, .x = j->x, .dy = j->dy, .r0 = rb, .r1 = rb + j->rb < r1 ? rb + j->rb : r1};
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
              tiles[nv][mb - 1](&t);
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
