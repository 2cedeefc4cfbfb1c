/* The direct convolution's kernels on AVX2 with FMA (dconv.c describes
 * them), for x86-64 CPUs without AVX-512 (AMD before Zen 4, Intel's
 * client cores): a vector of 16 floats is a pair of ymm registers, and
 * with 16 registers a strip keeps the sums of up to 6 pixels x 16
 * features (12 registers) and runs once per vector of 16 features of its
 * block, the pixels' inputs read again from L1 each time. Each output
 * element's chain of fused multiply-adds is the AVX-512 kernel's. */
#include "cpu/dconv_impl.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define DK_TGT __attribute__((target("avx2,fma")))
#define DK_T16 0
#define DK_ROWS dconv_rows_avx2
#define DK_WINO dconv_wino_avx2

typedef struct {
  __m256 lo, hi;
} V16;

/* Lanes [0, n) of 8 as a maskload / maskstore mask. */
DK_TGT static inline __m256i mask8(int64_t n) {
  int32_t k = n <= 0 ? 0 : n >= 8 ? 8 : (int32_t)n;
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
DK_TGT static inline V16 v_zero(void) { return (V16){_mm256_setzero_ps(), _mm256_setzero_ps()}; }
DK_TGT static inline V16 v_load(const float *p) { return (V16){_mm256_loadu_ps(p), _mm256_loadu_ps(p + 8)}; }
DK_TGT static inline void v_store(float *p, V16 v) {
  _mm256_storeu_ps(p, v.lo);
  _mm256_storeu_ps(p + 8, v.hi);
}
DK_TGT static inline V16 v_add(V16 a, V16 b) { return (V16){_mm256_add_ps(a.lo, b.lo), _mm256_add_ps(a.hi, b.hi)}; }
DK_TGT static inline V16 v_sub(V16 a, V16 b) { return (V16){_mm256_sub_ps(a.lo, b.lo), _mm256_sub_ps(a.hi, b.hi)}; }
DK_TGT static inline V16 v_loadn(const float *p, int64_t n) {
  if (n >= 16) return v_load(p);
  return (V16){_mm256_maskload_ps(p, mask8(n)), _mm256_maskload_ps(p + 8, mask8(n - 8))};
}
DK_TGT static inline void v_storen(float *p, V16 v, int64_t n) {
  if (n >= 16) {
    v_store(p, v);
    return;
  }
  _mm256_maskstore_ps(p, mask8(n), v.lo);
  _mm256_maskstore_ps(p + 8, mask8(n - 8), v.hi);
}

enum { WB2 = 6 };
/* Output pixels per strip, whatever the vectors: each vector of 16
 * features runs as a strip of its own. */
static const int dk_wb_of_nv[5] = {0, WB2, WB2, WB2, WB2};

/* One strip (see dconv_avx512.c's tile_body): wb pixels x nv vectors of
 * 16 output features, a vector at a time: its wb x 2 sums in registers
 * over the ntaps taps of cc input features, the pixels' inputs broadcast
 * into the vector's two halves of weights (row stride 16 nv). */
DK_TGT static inline __attribute__((always_inline)) void tile_body(const int nv, const int wb, int64_t ntaps,
                                                                   int64_t cc, const float *const *px,
                                                                   const float *const *wt, float *ab, int64_t ldb,
                                                                   bool first) {
  for (int v = 0; v < nv; v++) {
    __m256 acc[WB2][2];
    _Pragma("GCC unroll 6") for (int j = 0; j < wb; j++) {
      acc[j][0] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(ab + j * ldb + 16 * v);
      acc[j][1] = first ? _mm256_setzero_ps() : _mm256_loadu_ps(ab + j * ldb + 16 * v + 8);
    }
    for (int64_t t = 0; t < ntaps; t++) {
      const float *q[WB2];
      _Pragma("GCC unroll 6") for (int j = 0; j < wb; j++) q[j] = px[t * wb + j];
      const float *w = wt[t] + 16 * v;
      for (int64_t ci = 0; ci < cc; ci++, w += 16 * nv) {
        __m256 w0 = _mm256_loadu_ps(w), w1 = _mm256_loadu_ps(w + 8);
        _Pragma("GCC unroll 6") for (int j = 0; j < wb; j++) {
          __m256 b = _mm256_broadcast_ss(q[j] + ci);
          acc[j][0] = _mm256_fmadd_ps(b, w0, acc[j][0]);
          acc[j][1] = _mm256_fmadd_ps(b, w1, acc[j][1]);
        }
      }
    }
    _Pragma("GCC unroll 6") for (int j = 0; j < wb; j++) {
      _mm256_storeu_ps(ab + j * ldb + 16 * v, acc[j][0]);
      _mm256_storeu_ps(ab + j * ldb + 16 * v + 8, acc[j][1]);
    }
  }
}

DC_TILES_6(1)
DC_TILES_6(2)
DC_TILES_6(3)
DC_TILES_6(4)
/* dk_tiles[nv][wb - 1] */
static const TileFn dk_tiles[5][WB_MAX] = {{0}, {DC_ROW6(1)}, {DC_ROW6(2)}, {DC_ROW6(3)}, {DC_ROW6(4)}};

#include "cpu/dconv_kern.h"

#else

cxla_status dconv_rows_avx2(void *job, int64_t r0, int64_t r1) {
  (void)job, (void)r0, (void)r1;
  return ERR(INTERNAL, "cpu backend: the AVX2 direct convolution is built for x86-64 only");
}
cxla_status dconv_wino_avx2(void *job, int64_t r0, int64_t r1) { return dconv_rows_avx2(job, r0, r1); }

#endif
