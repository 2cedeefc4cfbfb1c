/* The direct convolution's kernels on AVX-512 (dconv.c describes them):
 * a vector of 16 floats is one zmm register, and a strip of wb pixels x
 * nv vectors of output features keeps its wb x nv sums in registers
 * (wb_of_nv: at most 24 of the 32). */
#include "cpu/dconv_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define DK_TGT __attribute__((target("avx512f")))
#define DK_T16 1
#define DK_ROWS dconv_rows_avx512
#define DK_WINO dconv_wino_avx512

typedef __m512 V16;
#define v_zero() _mm512_setzero_ps()
#define v_load(p) _mm512_loadu_ps(p)
#define v_store(p, v) _mm512_storeu_ps((p), (v))
#define v_add(a, b) _mm512_add_ps((a), (b))
#define v_sub(a, b) _mm512_sub_ps((a), (b))
#define v_loadn(p, n) _mm512_maskz_loadu_ps(dk_lanes(n), (p))
#define v_storen(p, v, n) _mm512_mask_storeu_ps((p), dk_lanes(n), (v))

/* Output pixels per strip for NV vectors of features: WB x NV sums in at
 * most 24 registers, the rest for weights. */
static const int dk_wb_of_nv[5] = {0, 12, 10, 8, 6};

/* One strip (TileFn, dconv_impl.h): wb pixels x nv vectors of sums over ntaps taps of cc input
 * features each. px[t * wb + j]: pixel j's input features of tap t;
 * wt[t]: tap t's weights ([cc][nv * 16]). The sums start at 0 (first) or
 * at ab (row stride ldb) and end there. */
DK_TGT static inline __attribute__((always_inline)) void tile_body(const int nv, const int wb, int64_t ntaps,
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

#define DC_TILES_8(NV) DC_TILES_6(NV) DC_TILE(NV, 7) DC_TILE(NV, 8)
#define DC_TILES_10(NV) DC_TILES_8(NV) DC_TILE(NV, 9) DC_TILE(NV, 10)
#define DC_TILES_12(NV) DC_TILES_10(NV) DC_TILE(NV, 11) DC_TILE(NV, 12)
DC_TILES_12(1)
DC_TILES_10(2)
DC_TILES_8(3)
DC_TILES_6(4)

#define DC_ROW8(NV) DC_ROW6(NV), tile_##NV##_7, tile_##NV##_8
#define DC_ROW10(NV) DC_ROW8(NV), tile_##NV##_9, tile_##NV##_10
#define DC_ROW12(NV) DC_ROW10(NV), tile_##NV##_11, tile_##NV##_12
/* dk_tiles[nv][wb - 1] */
static const TileFn dk_tiles[5][WB_MAX] = {
    {0}, {DC_ROW12(1)}, {DC_ROW10(2)}, {DC_ROW8(3)}, {DC_ROW6(4)},
};

#include "cpu/dconv_kern.h"

#else

cxla_status dconv_rows_avx512(void *job, int64_t r0, int64_t r1) {
  (void)job, (void)r0, (void)r1;
  return ERR(INTERNAL, "cpu backend: the AVX-512 direct convolution is built for x86-64 only");
}
cxla_status dconv_wino_avx512(void *job, int64_t r0, int64_t r1) { return dconv_rows_avx512(job, r0, r1); }

#endif
