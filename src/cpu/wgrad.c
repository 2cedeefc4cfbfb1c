/* Weight-gradient convolutions (XLA's filter gradient: the batch is the
 * contraction, the window nearly the whole input, a few output positions)
 * as a direct AVX-512 kernel, and its AVX2 twin (below: the same tiling
 * and order of sums, so the same results; resnet_block_fwd_bwd's two
 * 3 x 3 filter gradients, 32 x 56 x 56 x 64, on a Zen 2 through im2col
 * and OpenBLAS 84 ms each, 43 on it).
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
 * NaNs never get here (conv.c takes its direct loop for them), except on
 * the position tiles (below), which take every product (conv.c reruns a
 * result with a NaN). */
#include <string.h>

#include "cpu/cpu_internal.h"
#include "cpu/isa.h"
#include "runtime/scratch.h"

#define WG_CHUNKS 16       /* rhs row chunks: partial outputs, at most */
#define WG_PART_BYTES (64 << 20) /* ... and at most this much memory in all */
#define WG_SWEEP_PIXELS 112 /* rhs window positions per sweep, at least */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define TGT __attribute__((target("avx512f")))
#define TGT2 __attribute__((target("avx2,fma")))

/* 2: the AVX-512 tiles, 1: the AVX2 ones (below), 0: neither (isa.h);
 * $CXLA_CPU_CONV_ISA = "avx2" caps it at AVX2, as for dconv.c. */
static int wg_isa(void) { return cpu_fma_isa("CXLA_CPU_CONV_ISA"); }

bool wgrad_available(void) { return wg_isa() > 0; }

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

/* ---- the tiles on AVX2 ----
 * The AVX-512 tiling is kept (blocks of up to 64 output features, mb
 * values of b a tile, WG_SPLIT's sets of window columns), so every output
 * element's sum is the AVX-512 one, bit for bit; a tile runs as the
 * sub-tiles 16 ymm registers hold, each over all of the tile's rows: per
 * vector of 16 features (two ymm) at most 6 values of b (12 registers of
 * sums), or 1 with WG_SPLIT's 4 sets (8). */

/* Lanes [0, n) of 8 as a maskload / maskstore mask. */
TGT2 static inline __m256i wg_mask8(int n) {
  n = n < 0 ? 0 : n > 8 ? 8 : n;
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* 16 floats at p into lo and hi: whole, or the first nl (the rest 0). */
#define WG2_LOAD(p, lo, hi)                                             \
  do {                                                                  \
    if (full) (lo) = _mm256_loadu_ps(p), (hi) = _mm256_loadu_ps((p) + 8); \
    else (lo) = _mm256_maskload_ps(p, m0), (hi) = _mm256_maskload_ps((p) + 8, m1); \
  } while (0)
#define WG2_STORE(p, lo, hi)                                             \
  do {                                                                   \
    if (full) _mm256_storeu_ps(p, lo), _mm256_storeu_ps((p) + 8, hi);    \
    else _mm256_maskstore_ps(p, m0, lo), _mm256_maskstore_ps((p) + 8, m1, hi); \
  } while (0)

/* Sub-tile of tile t: its values of b [bo, bo + R), features [fo, fo +
 * nl) of its block (nl <= 16), S sets of window columns (the tile's
 * WG_SPLIT). */
#define WG2_TILE(R, S)                                                                          \
  TGT2 static void tile2_##R##_##S(const Tile *t, int64_t bo, int64_t fo, int nl) {             \
    const WgradConv *w = t->w;                                                                  \
    const bool full = nl >= 16;                                                                 \
    const __m256i m0 = wg_mask8(nl), m1 = wg_mask8(nl - 8);                                     \
    __m256 acc[S][R][2];                                                                        \
    float *pp = t->part + bo * w->O + fo;                                                       \
    _Pragma("GCC unroll 4") for (int s = 0; s < S; s++)                                         \
      _Pragma("GCC unroll 8") for (int m = 0; m < R; m++) {                                     \
        if (s) acc[s][m][0] = acc[s][m][1] = _mm256_setzero_ps();                               \
        else WG2_LOAD(pp + m * w->O, acc[0][m][0], acc[0][m][1]);                               \
      }                                                                                         \
    int64_t kw0 = w->pw - t->ow > 0 ? w->pw - t->ow : 0;                                        \
    int64_t kw1 = w->W + w->pw - t->ow < w->KW ? w->W + w->pw - t->ow : w->KW;                  \
    for (int64_t r = t->r0; r < t->r1; r++) {                                                   \
      int64_t f = r / w->KH, kh = r % w->KH, ih = kh + t->oh - w->ph;                           \
      if (ih < 0 || ih >= w->H || kw0 >= kw1) continue;                                         \
      const float *d = t->dy + f * w->ri + kh * w->rh + kw0 * w->rw + t->o + fo;                \
      const float *a = t->x + (t->b + bo) * w->lb + f * w->lf + ih * w->lh + (kw0 + t->ow - w->pw) * w->lw; \
      for (int64_t kw = kw0; kw < kw1; kw += S, d += S * w->rw, a += S * w->lw) {               \
        _Pragma("GCC unroll 4") for (int s = 0; s < S; s++) {                                   \
          if (S > 1 && kw + s >= kw1) break;                                                    \
          __m256 d0, d1;                                                                        \
          WG2_LOAD(d + s * w->rw, d0, d1);                                                      \
          _Pragma("GCC unroll 8") for (int m = 0; m < R; m++) {                                 \
            __m256 av = _mm256_broadcast_ss(a + s * w->lw + m * w->lb);                         \
            acc[s][m][0] = _mm256_fmadd_ps(av, d0, acc[s][m][0]);                               \
            acc[s][m][1] = _mm256_fmadd_ps(av, d1, acc[s][m][1]);                               \
          }                                                                                     \
        }                                                                                       \
      }                                                                                         \
    }                                                                                           \
    _Pragma("GCC unroll 4") for (int s = 1; s < S; s++)                                         \
      _Pragma("GCC unroll 8") for (int m = 0; m < R; m++) {                                     \
        acc[0][m][0] = _mm256_add_ps(acc[0][m][0], acc[s][m][0]);                               \
        acc[0][m][1] = _mm256_add_ps(acc[0][m][1], acc[s][m][1]);                               \
      }                                                                                         \
    _Pragma("GCC unroll 8") for (int m = 0; m < R; m++) WG2_STORE(pp + m * w->O, acc[0][m][0], acc[0][m][1]); \
  }
WG2_TILE(1, 1)
WG2_TILE(2, 1)
WG2_TILE(3, 1)
WG2_TILE(4, 1)
WG2_TILE(5, 1)
WG2_TILE(6, 1)
WG2_TILE(1, 4)
typedef void (*TileFn2)(const Tile *, int64_t, int64_t, int);
static const TileFn2 tiles2_1[6] = {tile2_1_1, tile2_2_1, tile2_3_1, tile2_4_1, tile2_5_1, tile2_6_1};

/* The AVX-512 tile of mb values of b and nv vectors of features (on of
 * them in the block) at t, as sub-tiles. */
static void tile_avx2(const Tile *t, int mb, int nv, int64_t on) {
  int split = WG_SPLIT(mb, nv);
  for (int v = 0; v < nv; v++) {
    int nl = on - 16 * v >= 16 ? 16 : (int)(on - 16 * v);
    if (split > 1) {
      for (int m = 0; m < mb; m++) tile2_1_4(t, m, 16 * v, nl);
      continue;
    }
    for (int m = 0; m < mb; m += 6) tiles2_1[(mb - m < 6 ? mb - m : 6) - 1](t, m, 16 * v, nl);
  }
}

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

static void pf_step(Prefetch *p) {
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
  int isa;                     /* wg_isa()'s answer: the tiles to run */
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
              if (j->isa == 2) (on == 64 ? full : tiles[nv])[mb - 1](&t);
              else tile_avx2(&t, mb, nv, on);
              t.b += mb;
            }
          }
    }
  }
  return NULL;
}

/* ---- few accumulators per position: tiles over output positions ----
 * Where a position's tile would hold at most 2 accumulators (B x
 * ceil(O / 16): a first layer's filter gradient on one or two input
 * channels), a tile instead spans up to 12 output positions (6 with two
 * vectors of o) of one b and block of o: each rhs vector
 * dy[f, kh, kw, o:o+16] is loaded once for all of them, and each
 * position's lhs value is read from a zero-padded copy of x,
 * Xp[b][f][Hp][Wp] (Hp = OH + KH - 1: the range of oh + kh; Wp likewise),
 * so that no tap needs a bounds test. The sums run over the same rows
 * (f, kh) in the same chunks; within a row, kw in order. */
typedef struct PTile {
  const float *xp, *dy; /* the padded lhs at (b, f = 0, 0, 0); the rhs at o */
  int64_t r0, r1, KH, KW, ri, rh, rw, fst, Wp; /* rows; strides of the rhs and of Xp's f and rows */
  const int64_t *xoff; /* the tile's positions: offsets in Xp (oh Wp + ow) */
  float *part;          /* the first position's partial outputs */
  int64_t pst;          /* positions' partial outputs apart (B O) */
  __mmask16 mk[4];
} PTile;
typedef void (*TileFnP)(const PTile *);

#define WP_TILE(P, NV)                                                                             \
  TGT static void ptile_##P##_##NV(const PTile *t) {                                               \
    __m512 acc[P][NV];                                                                             \
    int64_t off[P];                                                                                \
    _Pragma("GCC unroll 12") for (int p = 0; p < P; p++) {                                         \
      off[p] = t->xoff[p];                                                                         \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[p][v] =                             \
          _mm512_maskz_loadu_ps(t->mk[v], t->part + p * t->pst + 16 * v);                          \
    }                                                                                              \
    for (int64_t r = t->r0; r < t->r1; r++) {                                                      \
      int64_t f = r / t->KH, kh = r % t->KH;                                                       \
      const float *d = t->dy + f * t->ri + kh * t->rh;                                             \
      const float *a = t->xp + f * t->fst + kh * t->Wp;                                            \
      for (int64_t kw = 0; kw < t->KW; kw++, d += t->rw, a++) {                                    \
        __m512 dv[NV];                                                                             \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) dv[v] =                               \
            _mm512_maskz_loadu_ps(t->mk[v], d + 16 * v);                                           \
        _Pragma("GCC unroll 12") for (int p = 0; p < P; p++) {                                     \
          __m512 av = _mm512_set1_ps(a[off[p]]);                                                   \
          _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++) acc[p][v] =                         \
              _mm512_fmadd_ps(av, dv[v], acc[p][v]);                                               \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    _Pragma("GCC unroll 12") for (int p = 0; p < P; p++)                                           \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; v++)                                         \
          _mm512_mask_storeu_ps(t->part + p * t->pst + 16 * v, t->mk[v], acc[p][v]);               \
  }
/* up to 12 accumulators (and the NV rhs vectors): 12 positions of one
 * vector, 6 of two */
#define WP_ROW(NV, A, B, C, D, E, F) WP_TILE(A, NV) WP_TILE(B, NV) WP_TILE(C, NV) WP_TILE(D, NV) WP_TILE(E, NV) WP_TILE(F, NV)
WP_ROW(1, 1, 2, 3, 4, 5, 6)
WP_ROW(1, 7, 8, 9, 10, 11, 12)
WP_ROW(2, 1, 2, 3, 4, 5, 6)
static const TileFnP ptiles1[12] = {ptile_1_1, ptile_2_1, ptile_3_1, ptile_4_1,  ptile_5_1,  ptile_6_1,
                                    ptile_7_1, ptile_8_1, ptile_9_1, ptile_10_1, ptile_11_1, ptile_12_1};
static const TileFnP ptiles2[6] = {ptile_1_2, ptile_2_2, ptile_3_2, ptile_4_2, ptile_5_2, ptile_6_2};

/* On AVX2: positions [po, po + P) of tile t, features [fo, fo + nl)
 * (nl <= 16): the same sums, at most 6 positions of one vector of 16
 * features a sub-tile. */
#define WP2_TILE(P)                                                                                \
  TGT2 static void ptile2_##P(const PTile *t, int64_t po, int64_t fo, int nl) {                    \
    const bool full = nl >= 16;                                                                    \
    const __m256i m0 = wg_mask8(nl), m1 = wg_mask8(nl - 8);                                        \
    __m256 acc[P][2];                                                                              \
    int64_t off[P];                                                                                \
    float *pp = t->part + po * t->pst + fo;                                                        \
    _Pragma("GCC unroll 8") for (int p = 0; p < P; p++) {                                          \
      off[p] = t->xoff[po + p];                                                                    \
      WG2_LOAD(pp + p * t->pst, acc[p][0], acc[p][1]);                                             \
    }                                                                                              \
    for (int64_t r = t->r0; r < t->r1; r++) {                                                      \
      int64_t f = r / t->KH, kh = r % t->KH;                                                       \
      const float *d = t->dy + f * t->ri + kh * t->rh + fo;                                        \
      const float *a = t->xp + f * t->fst + kh * t->Wp;                                            \
      for (int64_t kw = 0; kw < t->KW; kw++, d += t->rw, a++) {                                    \
        __m256 d0, d1;                                                                             \
        WG2_LOAD(d, d0, d1);                                                                       \
        _Pragma("GCC unroll 8") for (int p = 0; p < P; p++) {                                      \
          __m256 av = _mm256_broadcast_ss(a + off[p]);                                             \
          acc[p][0] = _mm256_fmadd_ps(av, d0, acc[p][0]);                                          \
          acc[p][1] = _mm256_fmadd_ps(av, d1, acc[p][1]);                                          \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    _Pragma("GCC unroll 8") for (int p = 0; p < P; p++) WG2_STORE(pp + p * t->pst, acc[p][0], acc[p][1]); \
  }
WP2_TILE(1)
WP2_TILE(2)
WP2_TILE(3)
WP2_TILE(4)
WP2_TILE(5)
WP2_TILE(6)
typedef void (*TileFnP2)(const PTile *, int64_t, int64_t, int);
static const TileFnP2 ptiles_avx2[6] = {ptile2_1, ptile2_2, ptile2_3, ptile2_4, ptile2_5, ptile2_6};

/* Whether w takes the position tiles (cpu_internal.h): at most 2
 * accumulators per position's tile (B ceil(O / 16), O up to 32), more
 * than one position, and a padded lhs of at most WG_PART_BYTES. */
bool wgrad_all_taps(const WgradConv *w) {
  int64_t nv = (w->O + 15) / 16, Hp = w->OH + w->KH - 1, Wp = w->OW + w->KW - 1;
  return nv <= 2 && w->B * nv <= 2 && w->OH * w->OW > 1 &&
         (double)w->B * (double)w->F * (double)Hp * (double)Wp * 4 <= WG_PART_BYTES;
}

typedef struct WpJob {
  const WgradConv *w;
  const float *x, *dy;
  float *xp, *parts;
  int64_t rows, nch, plen, Hp, Wp, nv;
  int isa;        /* wg_isa()'s answer: the tiles to run */
  int64_t xoff[]; /* every output position's offset in Xp */
} WpJob;

/* Chunks [c0, c1) on the position tiles. */
static cxla_status wp_chunks(void *arg, int64_t c0, int64_t c1) {
  const WpJob *j = arg;
  const WgradConv *w = j->w;
  int64_t npos = w->OH * w->OW, maxp = j->nv == 1 ? 12 : 6;
  PTile t = {.KH = w->KH, .KW = w->KW, .ri = w->ri, .rh = w->rh, .rw = w->rw, .fst = j->Hp * j->Wp, .Wp = j->Wp,
             .pst = w->B * w->O};
  for (int v = 0; v < 4; v++) {
    int64_t lanes = w->O - 16 * v;
    t.mk[v] = lanes >= 16 ? (__mmask16)0xffff : lanes <= 0 ? (__mmask16)0 : (__mmask16)((1u << lanes) - 1);
  }
  for (int64_t c = c0; c < c1; c++) {
    float *part = j->parts + c * j->plen;
    memset(part, 0, (size_t)j->plen * sizeof *part);
    t.r0 = c * j->rows / j->nch, t.r1 = (c + 1) * j->rows / j->nch;
    t.dy = j->dy;
    for (int64_t b = 0; b < w->B; b++) {
      t.xp = j->xp + b * w->F * t.fst;
      for (int64_t p0 = 0; p0 < npos; p0 += maxp) {
        int64_t np = npos - p0 < maxp ? npos - p0 : maxp;
        t.xoff = j->xoff + p0;
        t.part = part + (p0 * w->B + b) * w->O;
        if (j->isa == 2) {
          (j->nv == 1 ? ptiles1[np - 1] : ptiles2[np - 1])(&t);
          continue;
        }
        for (int64_t v = 0; v < j->nv; v++)
          for (int64_t q = 0; q < np; q += 6)
            ptiles_avx2[(np - q < 6 ? np - q : 6) - 1](&t, q, 16 * v, w->O - 16 * v >= 16 ? 16 : (int)(w->O - 16 * v));
      }
    }
  }
  return NULL;
}

/* Lhs features [f0, f1) of every b into the padded copy (rows whose w
 * is contiguous copied whole). */
static cxla_status wp_pad(void *arg, int64_t f0, int64_t f1) {
  const WpJob *j = arg;
  const WgradConv *w = j->w;
  int64_t Wp = j->Wp;
  for (int64_t b = 0; b < w->B; b++)
    for (int64_t f = f0; f < f1; f++) {
      float *d = j->xp + (b * w->F + f) * j->Hp * Wp;
      memset(d, 0, (size_t)(j->Hp * Wp) * sizeof *d);
      /* (shift_ok: no negative padding, Hp = H + ph + ph_hi: every row
       * of x lands inside) */
      for (int64_t h = 0; h < w->H; h++) {
        const float *src = j->x + b * w->lb + f * w->lf + h * w->lh;
        float *row = d + (h + w->ph) * Wp + w->pw;
        if (w->lw == 1) memcpy(row, src, (size_t)w->W * sizeof *row);
        else
          for (int64_t x0 = 0; x0 < w->W; x0++) row[x0] = src[x0 * w->lw];
      }
    }
  return NULL;
}

/* out = the nch partial outputs at parts (plen apart) summed in chunk
 * order (a row of O at a time where out's o is contiguous) */
static void sum_parts(const WgradConv *w, const float *parts, int64_t nch, int64_t plen, float *out) {
  for (int64_t oh = 0; oh < w->OH; oh++)
    for (int64_t ow = 0; ow < w->OW; ow++)
      for (int64_t b = 0; b < w->B; b++) {
        int64_t pi = ((oh * w->OW + ow) * w->B + b) * w->O;
        float *o = out + oh * w->os_h + ow * w->os_w + b * w->os_b;
        if (w->os_o == 1) {
          memcpy(o, parts + pi, (size_t)w->O * sizeof *o);
          for (int64_t c = 1; c < nch; c++) {
            const float *q = parts + c * plen + pi;
            for (int64_t k = 0; k < w->O; k++) o[k] += q[k];
          }
          continue;
        }
        for (int64_t k = 0; k < w->O; k++) {
          float s = parts[pi + k];
          for (int64_t c = 1; c < nch; c++) s += parts[c * plen + pi + k];
          o[k * w->os_o] = s;
        }
      }
}

/* Chunks of rhs rows, as many as w's shape gives (results do not depend
 * on the thread count) */
static int64_t chunks_of(const WgradConv *w, int64_t rows, int64_t plen) {
  int64_t fit = WG_PART_BYTES / (plen * (int64_t)sizeof(float) + 1), nch = rows < WG_CHUNKS ? rows : WG_CHUNKS;
  if (nch > fit) nch = fit;
  return nch < 1 ? 1 : nch;
}

static bool parallel(const ExecCtx *cx, int64_t n) { return cx && cx->pool && cx->nthreads > 1 && n > 1; }

static cxla_status wp_run(const ExecCtx *cx, int isa, const WgradConv *w, const float *x, const float *dy,
                          float *out) {
  int64_t npos = w->OH * w->OW;
  WpJob *j = cxla_malloc(sizeof *j + (size_t)npos * sizeof(int64_t));
  if (!j) return cxla_oom();
  *j = (WpJob){.w = w, .x = x, .dy = dy, .rows = w->F * w->KH, .plen = npos * w->B * w->O,
               .Hp = w->OH + w->KH - 1, .Wp = w->OW + w->KW - 1, .nv = (w->O + 15) / 16, .isa = isa};
  for (int64_t oh = 0; oh < w->OH; oh++)
    for (int64_t ow = 0; ow < w->OW; ow++) j->xoff[oh * w->OW + ow] = oh * j->Wp + ow;
  j->nch = chunks_of(w, j->rows, j->plen);
  RtPool *pool = cx ? cx->pool : NULL;
  j->xp = rt_scratch_alloc(pool, (size_t)(w->B * w->F * j->Hp * j->Wp) * sizeof(float));
  j->parts = rt_scratch_alloc(pool, (size_t)(j->nch * j->plen) * sizeof(float));
  cxla_status st = !j->xp || !j->parts ? cxla_oom() : NULL;
  if (!st) st = parallel(cx, w->F) ? rt_pool_parallel_for(cx->pool, w->F, 1, cx->nthreads, wp_pad, j)
                                   : wp_pad(j, 0, w->F);
  if (!st) st = parallel(cx, j->nch) ? rt_pool_parallel_for(cx->pool, j->nch, 1, cx->nthreads, wp_chunks, j)
                                     : wp_chunks(j, 0, j->nch);
  if (!st) sum_parts(w, j->parts, j->nch, j->plen, out);
  rt_scratch_free(pool, j->xp);
  rt_scratch_free(pool, j->parts);
  cxla_free(j);
  return st;
}

cxla_status wgrad_run(const ExecCtx *cx, const WgradConv *w, const float *x, const float *dy, float *out) {
  int isa = wg_isa();
  if (!isa) return ERR(INTERNAL, "cpu backend: the weight-gradient kernel needs AVX-512 or AVX2");
  if (wgrad_all_taps(w)) return wp_run(cx, isa, w, x, dy, out);
  WgJob j = {.w = w, .x = x, .dy = dy, .rows = w->F * w->KH, .plen = w->OH * w->OW * w->B * w->O, .isa = isa};
  /* chunks and sweeps: functions of the shape only */
  j.nch = chunks_of(w, j.rows, j.plen);
  j.rb = (WG_SWEEP_PIXELS + w->KW - 1) / w->KW;
  if (j.rb < 2) j.rb = 2;
  RtPool *pool = cx ? cx->pool : NULL;
  if (!(j.parts = rt_scratch_alloc(pool, (size_t)(j.nch * j.plen) * sizeof(float)))) return cxla_oom();
  cxla_status st = parallel(cx, j.nch) ? rt_pool_parallel_for(cx->pool, j.nch, 1, cx->nthreads, wg_chunks, &j)
                                       : wg_chunks(&j, 0, j.nch);
  if (!st) sum_parts(w, j.parts, j.nch, j.plen, out);
  rt_scratch_free(pool, j.parts);
  return st;
}

#else

bool wgrad_available(void) {
  return false;
}

bool wgrad_all_taps(const WgradConv *w) {
  (void)w;
  return false;
}

cxla_status wgrad_run(const ExecCtx *cx, const WgradConv *w, const float *x, const float *dy, float *out) {
  (void)cx, (void)w, (void)x, (void)dy, (void)out;
  return ERR(INTERNAL, "cpu backend: no weight-gradient kernel on this target");
}

#endif
