/* rt_window_vec.h: the vector kernels of rt_window.c (depthwise
 * convolution, pooling, select-and-scatter), included once per
 * instruction set with its vector width, so that every variant works on
 * vectors its registers hold: GCC splits a 64-byte vector extension into
 * two 32-byte halves under AVX2 for arithmetic, but turns its comparisons
 * into a compare and branch per lane and spills the halves (2x2 max pooling
 * of 8 x 112 x 112 x 64 on a Zen 2: 15 ms, against 1.3 ms on XLA:CPU).
 *
 * Before including, define
 *   RWV_VL     the lanes of a vector of floats (4: SSE2, 8: AVX2, 16: AVX-512)
 *   RWV_SFX    the variant's suffix (base, avx2, avx512)
 *   RWV_ATTR   its function attributes (the target)
 *   RWV_NTS    1 where its pooling and depthwise outputs may be stored
 *              non-temporally (RWV_VL 16 or 8: 64- or 32-byte aligned
 *              stores), else 0
 *   RWV_FENCE  what orders those stores when a slice is done
 * It defines dw_rows_SFX, pool_rows_SFX and selscat_rows_SFX and undefines
 * its macros. Each lane computes what the scalar loops compute, in the
 * same order, whatever the width. */
#define RWV_CAT2(a, b) a##_##b
#define RWV_CAT(a, b) RWV_CAT2(a, b)
#define RWV(name) RWV_CAT(name, RWV_SFX)
#define VL RWV_VL
#define f32v RWV(f32v)
#define i32v RWV(i32v)
#define f32u RWV(f32u)
typedef float f32v __attribute__((vector_size(VL * 4)));
typedef int32_t i32v __attribute__((vector_size(VL * 4)));
/* for loads and stores at any float's address */
typedef float f32u __attribute__((vector_size(VL * 4), aligned(4), may_alias));

/* A non-temporal store of *v to a 64-byte aligned address where the
 * variant streams (RWV_NTS), else a plain store. */
#if RWV_NTS && RWV_VL == 16
static inline __attribute__((target("avx512f"))) void RWV(nt_store)(float *dst, const f32v *v) {
  _mm512_stream_ps(dst, (__m512)*v);
}
#define RWV_NT_STORE(dst, v) RWV(nt_store)((dst), (v))
#elif RWV_NTS
static inline __attribute__((target("avx"))) void RWV(nt_store)(float *dst, const f32v *v) {
  _mm256_stream_ps(dst, (__m256)*v);
}
#define RWV_NT_STORE(dst, v) RWV(nt_store)((dst), (v))
#else
#define RWV_NT_STORE(dst, v) (*(f32u *)(dst) = *(v))
#endif

/* One output pixel, channels [c, C): taps (ky in [ky0, ky1)), all kx when
 * interior, else bounds-tested. */
#define DW_PIXEL(P, n, iy0, ox, ky0, ky1, interior)                                                      \
  do {                                                                                                 \
    int64_t ix0_ = (ox) * (P)->wx->stride - (P)->wx->pad_lo, dx_ = (P)->wx->rhs_dilate,                \
            dy_ = (P)->wy->rhs_dilate;                                                                 \
    float *op_ = (P)->o + (((n) * (P)->OH + oy) * (P)->OW + (ox)) * (P)->C;                            \
    int64_t c_ = 0;                                                                                    \
    for (; c_ + VL <= (P)->C; c_ += VL) {                                                              \
      f32v acc_ = {0};                                                                                 \
      for (int64_t ky_ = (ky0); ky_ < (ky1); ky_++) {                                                  \
        const float *xr_ = (P)->x + ((n) * (P)->H + (iy0) + ky_ * dy_) * (P)->W * (P)->C + c_;         \
        const float *wr_ = (P)->w + ky_ * (P)->KW * (P)->C + c_;                                       \
        for (int64_t kx_ = 0; kx_ < (P)->KW; kx_++) {                                                  \
          int64_t ix_ = ix0_ + kx_ * dx_;                                                              \
          if (!(interior) && (ix_ < 0 || ix_ >= (P)->W)) continue;                                     \
          acc_ += *(const f32u *)(xr_ + ix_ * (P)->C) * *(const f32u *)(wr_ + kx_ * (P)->C);           \
        }                                                                                              \
      }                                                                                                \
      *(f32u *)(op_ + c_) = acc_;                                                                      \
    }                                                                                                  \
    for (; c_ < (P)->C; c_++) {                                                                        \
      float acc_ = 0;                                                                                  \
      for (int64_t ky_ = (ky0); ky_ < (ky1); ky_++) {                                                  \
        const float *xr_ = (P)->x + ((n) * (P)->H + (iy0) + ky_ * dy_) * (P)->W * (P)->C + c_;         \
        const float *wr_ = (P)->w + ky_ * (P)->KW * (P)->C + c_;                                       \
        for (int64_t kx_ = 0; kx_ < (P)->KW; kx_++) {                                                  \
          int64_t ix_ = ix0_ + kx_ * dx_;                                                              \
          if (ix_ < 0 || ix_ >= (P)->W) continue;                                                      \
          acc_ += xr_[ix_ * (P)->C] * wr_[kx_ * (P)->C];                                               \
        }                                                                                              \
      }                                                                                                \
      op_[c_] = acc_;                                                                                  \
    }                                                                                                  \
  } while (0)

/* DW_T adjacent outputs from ox of a vector of channels c (stride S, 1
 * or 2, undilated across): each input vector loaded once for the (up to)
 * KW / S outputs that take it and each weight vector once for all DW_T, the
 * taps of every output fused multiply-added in window order; `checked`
 * (a constant of each instance): input columns outside the row skipped
 * (the tiles at the row's edges), else all inside. The input columns are
 * reached by bumping a pointer C floats at a time (the asm keeps the
 * compiler from turning the bumps back into KH x (DW_T + KW - 1) pointers
 * live across the channel loop, which it spilled to the stack and
 * reloaded for every vector: 3x3 over one 12 x 56 x 128 image on one Zen
 * 5 core, in L2, 3.7 -> 6-6.9 G vector FMAs/s). */
static inline __attribute__((always_inline)) void RWV(dw_tile)(const Dw *p, const float *xrow, float *orow, int64_t ox,
                                                          int64_t c, const int64_t ky0, const int64_t NR,
                                                          const int KW, const int S, const bool checked, bool nts) {
  const int64_t C = p->C, dy = p->wy->rhs_dilate * p->W * C, ix0 = ox * S - p->wx->pad_lo;
  const float *x0 = xrow + ix0 * C;
  f32v acc[DW_T];
  _Pragma("GCC unroll 8") for (int i = 0; i < DW_T; i++) acc[i] = (f32v){0};
  _Pragma("GCC unroll 3") for (int64_t r = 0; r < NR; r++) {
    const int64_t ky = ky0 + r;
    const float *q = x0 + ky * dy + c, *wr = p->w + ky * KW * C + c;
    f32v w[7];
    _Pragma("GCC unroll 7") for (int k = 0; k < KW; k++) w[k] = *(const f32u *)(wr + k * C);
    /* input column j is tap k = j - S i of output i */
    _Pragma("GCC unroll 17") for (int j = 0; j < S * (DW_T - 1) + KW; j++) {
      if (!checked || (ix0 + j >= 0 && ix0 + j < p->W)) {
        f32v xv = *(const f32u *)q;
        _Pragma("GCC unroll 7") for (int k = 0; k < KW; k++) {
          if (j - k >= 0 && (j - k) % S == 0 && (j - k) / S < DW_T) acc[(j - k) / S] += xv * w[k];
        }
      }
      q += C;
      __asm__("" : "+r"(q));
    }
  }
  if (nts) _Pragma("GCC unroll 8") for (int i = 0; i < DW_T; i++) RWV_NT_STORE(orow + (ox + i) * C + c, &acc[i]);
  else _Pragma("GCC unroll 8") for (int i = 0; i < DW_T; i++) *(f32u *)(orow + (ox + i) * C + c) = acc[i];
}

/* One output row of a window KW wide (3, 5 or 7: a constant of each
 * instance), its rows of taps [ky0, ky0 + NR) inside the input (all KH
 * but at the top and bottom edges): stride 1 or 2 and undilated across, in
 * tiles of DW_T outputs (checked at the edges); else, and after the last
 * whole tile, an output at a time over the taps inside the row; the
 * channels past the last full vector in a scalar loop. Every output's
 * taps summed in DW_PIXEL's order; npf lines from pf fetched meanwhile. */
static inline __attribute__((always_inline)) void RWV(dw_row)(const Dw *p, int64_t n, int64_t iy0, int64_t oy,
                                                         const int64_t ky0, const int64_t NR, const int KW,
                                                         const char *pf, int64_t npf, bool nts) {
  int64_t pfi = 0;
  const int64_t C = p->C, OW = p->OW, sx = p->wx->stride * C, dx = p->wx->rhs_dilate * C,
                dy = p->wy->rhs_dilate * p->W * C;
  const float *xrow = p->x + ((n * p->H + iy0) * p->W) * C;
  float *orow = p->o + (n * p->OH + oy) * OW * C;
  /* pixel after pixel, each pixel's channel vectors in turn: the output
   * row is written in order (a vector of channels at a time across the
   * row, one line per pixel 4 C bytes apart, wrote it C / 16 times over:
   * conv_depthwise, 8 x 56 x 56 x 128, 0.64 -> 0.46 ms), the weight
   * vectors read from L1 */
  const int64_t cv = C / VL * VL;
  /* the lines to fetch an output vector: all by the end of the row */
  const int64_t per = cv && OW ? (npf + OW * (cv / VL) - 1) / (OW * (cv / VL)) : 0;
  int64_t ox = 0;
  /* each instance's channel loop of its own */
#define DW_TILES(S, checked)                                                                       \
  for (int64_t c = 0; c < cv; c += VL) {                                                           \
    RWV(dw_tile)(p, xrow, orow, ox, c, ky0, NR, KW, S, checked, nts);                                    \
    for (int64_t i = 0; i < DW_T * per && pfi < npf; i++) __builtin_prefetch(pf + 64 * pfi++, 0, 3); \
  }
  if (dx == C && (sx == C || sx == 2 * C))
    for (; ox + DW_T <= OW; ox += DW_T) {
      const bool inside = ox >= p->ox_lo && ox + DW_T <= p->ox_hi;
      if (sx == C && inside) DW_TILES(1, false)
      else if (sx == C) DW_TILES(1, true)
      else if (inside) DW_TILES(2, false)
      else DW_TILES(2, true)
    }
#undef DW_TILES
  for (; ox < OW; ox++) {
    int64_t kx0, kx1;
    taps_in(p->wx, ox, p->W, &kx0, &kx1);
    const float *x0 = xrow + ox * sx - p->wx->pad_lo * C;
    for (int64_t c = 0; c < cv; c += VL) {
      f32v acc = (f32v){0};
      _Pragma("GCC unroll 3") for (int64_t r = 0; r < NR; r++) {
        const float *a = x0 + (ky0 + r) * dy + c, *w = p->w + (ky0 + r) * KW * C + c;
        for (int64_t k = kx0; k < kx1; k++) acc += *(const f32u *)(a + k * dx) * *(const f32u *)(w + k * C);
      }
      *(f32u *)(orow + ox * C + c) = acc;
      for (int64_t i = 0; i < per && pfi < npf; i++) __builtin_prefetch(pf + 64 * pfi++, 0, 3);
    }
  }
  if (cv < C)
    for (int64_t ox = 0; ox < OW; ox++) {
      /* the channels past the last full vector */
      int64_t kx0, kx1, ix0 = ox * p->wx->stride - p->wx->pad_lo;
      taps_in(p->wx, ox, p->W, &kx0, &kx1);
      for (int64_t cc = cv; cc < C; cc++) {
        float acc = 0;
        for (int64_t ky = ky0; ky < ky0 + NR; ky++)
          for (int64_t kx = kx0; kx < kx1; kx++)
            acc += xrow[ky * dy + (ix0 + kx * p->wx->rhs_dilate) * C + cc] * p->w[(ky * KW + kx) * C + cc];
        orow[ox * C + cc] = acc;
      }
    }
}

static inline __attribute__((always_inline)) void RWV(dw_rows_impl)(const Dw *p, int64_t lo, int64_t hi, bool nts) {
  for (int64_t r = lo; r < hi; r++) {
    int64_t n = r / p->OH, oy = r % p->OH, ky0, ky1;
    taps_in(p->wy, oy, p->H, &ky0, &ky1);
    int64_t iy0 = oy * p->wy->stride - p->wy->pad_lo;
    if ((p->KW == 3 || p->KW == 5 || p->KW == 7) && ky1 > ky0 && p->C >= VL) {
      /* the input rows the next output row adds (stride rows, undilated),
       * fetched over the row's output vectors (conv_depthwise, 8 x 56 x
       * 56 x 128: 2% faster; 10% when the row was walked a vector of
       * channels at a time; two rows ahead, slower; 3x3 stride 2 over 8 x
       * 112 x 112 x 64: 0.47 -> 0.31 ms, where only stride 1 fetched) */
      int64_t npf;
      const char *pf = next_rows(p->x, n, p->H, p->W, p->C, iy0, p->wy, &npf);
      bool s = nts && p->nt;
      /* an instance per width, the 3x3 window's full rows of taps (all
       * but the top and bottom edges') one of their own, its loops
       * unrolled */
      if (p->KW == 3 && ky0 == 0 && ky1 == 3) RWV(dw_row)(p, n, iy0, oy, 0, 3, 3, pf, npf, s);
      else if (p->KW == 3) RWV(dw_row)(p, n, iy0, oy, ky0, ky1 - ky0, 3, pf, npf, s);
      else if (p->KW == 5) RWV(dw_row)(p, n, iy0, oy, ky0, ky1 - ky0, 5, pf, npf, s);
      else RWV(dw_row)(p, n, iy0, oy, ky0, ky1 - ky0, 7, pf, npf, s);
      continue;
    }
    int64_t ox = 0;
    for (; ox < p->ox_lo && ox < p->OW; ox++) DW_PIXEL(p, n, iy0, ox, ky0, ky1, false);
    for (; ox < p->ox_hi; ox++) DW_PIXEL(p, n, iy0, ox, ky0, ky1, true);
    for (; ox < p->OW; ox++) DW_PIXEL(p, n, iy0, ox, ky0, ky1, false);
  }
}

#define VSEL(m, a, b) ((f32v)(((m) & (i32v)(a)) | (~(m) & (i32v)(b))))
#define ISEL(m, a, b) (((m) & (a)) | (~(m) & (b)))

/* fmax_interp lane by lane: NaN first (acc's), equal values (zeros) as
 * the AND of their bits (+0 unless both are -0). Where only b is NaN, no
 * comparison holds: b. */
#define vmax_interp(a, b)                                                                         \
  ({                                                                                              \
    f32v a_ = (a), b_ = (b);                                                                      \
    i32v an_ = a_ != a_, eq_ = a_ == b_, gt_ = a_ > b_;                                           \
    f32v m_ = VSEL(gt_, a_, b_);                                                                  \
    m_ = VSEL(eq_, (f32v)((i32v)a_ & (i32v)b_), m_);                                              \
    VSEL(an_, a_, m_);                                                                            \
  })

static inline __attribute__((always_inline)) void RWV(pool_rows_impl)(const Pool *p, int64_t lo, int64_t hi, bool nts) {
  const int64_t C = p->C;
  /* init -inf (its bits) for max: the fold can start from the first tap */
  const bool from_first = p->max && isinf(p->init) && signbit(p->init);
  for (int64_t r = lo; r < hi; r++) {
    int64_t n = r / p->OH, oy = r % p->OH, ky0, ky1;
    taps_in(p->wy, oy, p->H, &ky0, &ky1);
    int64_t iy0 = oy * p->wy->stride - p->wy->pad_lo;
    /* the fast path's rows: max from the first tap, all rows of taps
     * inside, neither dim dilated */
    const int64_t KY = p->wy->size, KX = p->wx->size;
    const bool full_y = p->max && from_first && ky0 == 0 && ky1 == KY && p->wy->rhs_dilate == 1 &&
                        p->wx->rhs_dilate == 1;
    /* the input rows the next output row adds (as for depthwise rows),
     * fetched a share an output pixel (the bench's 2x2 max pooling over 8
     * x 112 x 112 x 64: 0.29 -> 0.22 ms) */
    int64_t npf, pfi = 0;
    const char *pf = next_rows(p->x, n, p->H, p->W, C, iy0, p->wy, &npf);
    const int64_t per = p->OW ? (npf + p->OW - 1) / p->OW : 0;
    for (int64_t ox = 0; ox < p->OW; ox++) {
      for (int64_t i = 0; i < per && pfi < npf; i++) __builtin_prefetch(pf + 64 * pfi++, 0, 3);
      int64_t kx0, kx1;
      taps_in(p->wx, ox, p->W, &kx0, &kx1);
      int64_t ix0 = ox * p->wx->stride - p->wx->pad_lo;
      float *op = p->o + ((n * p->OH + oy) * p->OW + ox) * C;
      int64_t c = 0;
      if (full_y && kx0 == 0 && kx1 == KX) {
        /* every tap inside, undilated: 4 vectors of channels at a time
         * folded over the taps (the same order per lane), the loads of a
         * tap independent of the others' maxima (2 x 112 x 112 x 64, 2x2
         * windows, in cache: 1.6x the throughput of a vector at a time) */
        const float *x0 = p->x + ((n * p->H + iy0) * p->W + ix0) * C;
        for (; c + 4 * VL <= C; c += 4 * VL) {
          f32v a0 = *(const f32u *)(x0 + c), a1 = *(const f32u *)(x0 + c + VL);
          f32v a2 = *(const f32u *)(x0 + c + 2 * VL), a3 = *(const f32u *)(x0 + c + 3 * VL);
          for (int64_t ky = 0; ky < KY; ky++)
            for (int64_t kx = ky == 0 ? 1 : 0; kx < KX; kx++) {
              const float *t = x0 + (ky * p->W + kx) * C + c;
              a0 = vmax_interp(a0, *(const f32u *)t);
              a1 = vmax_interp(a1, *(const f32u *)(t + VL));
              a2 = vmax_interp(a2, *(const f32u *)(t + 2 * VL));
              a3 = vmax_interp(a3, *(const f32u *)(t + 3 * VL));
            }
          if (nts && p->nt) {
            RWV_NT_STORE(op + c, &a0), RWV_NT_STORE(op + c + VL, &a1);
            RWV_NT_STORE(op + c + 2 * VL, &a2), RWV_NT_STORE(op + c + 3 * VL, &a3);
          } else {
            *(f32u *)(op + c) = a0, *(f32u *)(op + c + VL) = a1;
            *(f32u *)(op + c + 2 * VL) = a2, *(f32u *)(op + c + 3 * VL) = a3;
          }
        }
      }
      if (p->max && from_first && ky0 < ky1 && kx0 < kx1)
        /* max(-inf, v) is v, NaN and -inf included: start from the first
         * tap, then fold the others in the same order */
        for (; c + VL <= C; c += VL) {
          const float *x0 = p->x + ((n * p->H + iy0 + ky0 * p->wy->rhs_dilate) * p->W) * C + c;
          f32v acc = *(const f32u *)(x0 + (ix0 + kx0 * p->wx->rhs_dilate) * C);
          for (int64_t ky = ky0; ky < ky1; ky++) {
            const float *xr = p->x + ((n * p->H + iy0 + ky * p->wy->rhs_dilate) * p->W) * C + c;
            for (int64_t kx = ky == ky0 ? kx0 + 1 : kx0; kx < kx1; kx++)
              acc = vmax_interp(acc, *(const f32u *)(xr + (ix0 + kx * p->wx->rhs_dilate) * C));
          }
          *(f32u *)(op + c) = acc;
        }
      for (; c + VL <= C; c += VL) {
        f32v acc = (f32v){0} + p->init;
        for (int64_t ky = ky0; ky < ky1; ky++) {
          const float *xr = p->x + ((n * p->H + iy0 + ky * p->wy->rhs_dilate) * p->W) * C + c;
          for (int64_t kx = kx0; kx < kx1; kx++) {
            f32v v = *(const f32u *)(xr + (ix0 + kx * p->wx->rhs_dilate) * C);
            acc = p->max ? vmax_interp(acc, v) : acc + v;
          }
        }
        *(f32u *)(op + c) = acc;
      }
      for (; c < C; c++) {
        float acc = p->init;
        for (int64_t ky = ky0; ky < ky1; ky++) {
          const float *xr = p->x + ((n * p->H + iy0 + ky * p->wy->rhs_dilate) * p->W) * C + c;
          for (int64_t kx = kx0; kx < kx1; kx++) {
            float v = xr[(ix0 + kx * p->wx->rhs_dilate) * C];
            acc = p->max ? fmax_interp(acc, v) : acc + v;
          }
        }
        op[c] = acc;
      }
    }
  }
}

static inline __attribute__((always_inline)) void RWV(fill_f32)(float *o, int64_t n, float v) {
  int64_t i = 0;
  for (; i + VL <= n; i += VL) *(f32u *)(o + i) = (f32v){0} + v;
  for (; i < n; i++) o[i] = v;
}

/* Source row r = (n, sy) owns output rows [sy*stride, next sy's start)
 * (the last one: to H). Windows lie inside the array (no padding) and do
 * not overlap, so each output element is written once: init where no
 * window reaches or picks it, else scatter(source, init) = source + init. */
static inline __attribute__((always_inline)) void RWV(selscat_rows_impl)(const SelScat *p, int64_t lo, int64_t hi) {
  const int64_t C = p->C, W = p->W, KH = p->wy->size, KW = p->wx->size, sxs = p->wx->stride;
  const f32v initv = (f32v){0} + p->init;
  const i32v selgt = (i32v){0} + (p->gt ? -1 : 0);
  for (int64_t r = lo; r < hi; r++) {
    int64_t n = r / p->SH, sy = r % p->SH;
    int64_t y0 = sy * p->wy->stride, y1 = sy + 1 == p->SH ? p->H : y0 + p->wy->stride;
    if (y1 > p->H) y1 = p->H;
    int64_t wrows = y0 + KH <= y1 ? KH : y1 - y0;
    float *orow = p->o + (n * p->H + y0) * W * C;
    RWV(fill_f32)(orow + wrows * W * C, (y1 - y0 - wrows) * W * C, p->init);
    for (int64_t ky = 0; ky < wrows; ky++)
      for (int64_t sx = 0; sx < p->SW; sx++) {
        int64_t g0 = sx * sxs + KW, g1 = sx + 1 < p->SW ? (sx + 1) * sxs : W;
        if (g1 > g0) RWV(fill_f32)(orow + (ky * W + g0) * C, (g1 - g0) * C, p->init);
      }
    for (int64_t sx = 0; sx < p->SW; sx++) {
      int64_t x0 = sx * sxs;
      const float *s = p->src + ((n * p->SH + sy) * p->SW + sx) * C;
      const float *xb = p->x + ((n * p->H + y0) * W + x0) * C;
      float *ob = orow + x0 * C;
      int64_t c = 0;
      for (; c + VL <= C; c += VL) {
        f32v best = *(const f32u *)(xb + c);
        i32v pos = (i32v){0};
        for (int64_t ky = 0; ky < wrows; ky++)
          for (int64_t kx = 0; kx < KW; kx++) {
            if (!ky && !kx) continue;
            f32v v = *(const f32u *)(xb + (ky * W + kx) * C + c);
            /* keep where select(best, v) holds */
            i32v keep = ISEL(selgt, best > v, best >= v);
            best = VSEL(keep, best, v);
            pos = ISEL(keep, pos, (i32v){0} + (int32_t)(ky * KW + kx));
          }
        f32v sum = *(const f32u *)(s + c) + initv;
        for (int64_t ky = 0; ky < wrows; ky++)
          for (int64_t kx = 0; kx < KW; kx++) {
            i32v hit = pos == (i32v){0} + (int32_t)(ky * KW + kx);
            *(f32u *)(ob + (ky * W + kx) * C + c) = VSEL(hit, sum, initv);
          }
      }
      for (; c < C; c++) {
        float best = xb[c];
        int64_t pos = 0;
        for (int64_t ky = 0; ky < wrows; ky++)
          for (int64_t kx = 0; kx < KW; kx++) {
            if (!ky && !kx) continue;
            float v = xb[(ky * W + kx) * C + c];
            bool keep = p->gt ? best > v : best >= v;
            if (!keep) best = v, pos = ky * KW + kx;
            ob[(ky * W + kx) * C + c] = p->init;
          }
        ob[c] = p->init;
        ob[((pos / KW) * W + pos % KW) * C + c] = s[c] + p->init;
      }
    }
  }
}

RWV_ATTR static void RWV(dw_rows)(const Dw *p, int64_t lo, int64_t hi) {
  RWV(dw_rows_impl)(p, lo, hi, RWV_NTS);
  if (RWV_NTS && p->nt) RWV_FENCE;
}
RWV_ATTR static void RWV(pool_rows)(const Pool *p, int64_t lo, int64_t hi) {
  RWV(pool_rows_impl)(p, lo, hi, RWV_NTS);
  if (RWV_NTS && p->nt) RWV_FENCE;
}
RWV_ATTR static void RWV(selscat_rows)(const SelScat *p, int64_t lo, int64_t hi) { RWV(selscat_rows_impl)(p, lo, hi); }

#undef DW_PIXEL
#undef VSEL
#undef ISEL
#undef vmax_interp
#undef RWV_NT_STORE
#undef f32v
#undef i32v
#undef f32u
#undef VL
#undef RWV
#undef RWV_CAT
#undef RWV_CAT2
#undef RWV_VL
#undef RWV_SFX
#undef RWV_ATTR
#undef RWV_NTS
#undef RWV_FENCE
