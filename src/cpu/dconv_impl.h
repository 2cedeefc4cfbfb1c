/* dconv_impl.h: what dconv.c shares with its kernels of each instruction
 * set: dconv_avx512.c and dconv_avx2.c, each instantiating dconv_kern.h
 * over its own vectors of 16 floats. Internal to src/cpu. */
#ifndef CXLA_CPU_DCONV_IMPL_H
#define CXLA_CPU_DCONV_IMPL_H

#include "cpu/cpu_internal.h"

/* BLK: output features per packed block of the kernel; WB_MAX: output
 * pixels per strip at most; CHUNK_BYTES: a chunk of input features'
 * weights for all window taps (near L1); WT_MAX: Winograd tiles per pass
 * (V and M stay near L1). */
enum { BLK = 64, WB_MAX = 12, CHUNK_BYTES = 40 * 1024, WT_MAX = 12 };

/* The direct kernel's job (dconv_run): output rows split over threads. */
typedef struct DcJob {
  const DConvPlan *p;
  const float *x, *wpk; /* input, packed kernel */
  float *o;
  int64_t nblk, opad; /* feature blocks; row buffer stride (O rounded up to 16) */
  int64_t cn;         /* input features per chunk */
} DcJob;

/* Winograd's job (wino_run): tile rows split over threads; U the
 * transformed kernel [e][feature block][C][block width]. */
typedef struct WgJob {
  const DConvPlan *p;
  const float *x, *U;
  float *o;
  int64_t nblk, opad, TH, TW;
} WgJob;

/* Width in floats of feature block b of nblk over opad features. */
static inline int64_t blk_width(int64_t nblk, int64_t opad, int64_t b) {
  return b + 1 < nblk ? BLK : opad - b * BLK;
}

/* A strip kernel: wb pixels x nv vectors of 16 output features (both
 * constants of each instance) over ntaps taps of cc input features.
 * px[t * wb + j]: pixel j's input features of tap t; wt[t]: tap t's
 * weights ([cc][nv * 16]). The sums start at 0 (first) or at ab (row
 * stride ldb) and end there. DC_TILE instantiates the including file's
 * tile_body (with its DK_TGT) as tile_NV_WB. */
typedef void (*TileFn)(int64_t ntaps, int64_t cc, const float *const *px, const float *const *wt, float *ab,
                       int64_t ldb, bool first);
#define DC_TILE(NV, WB)                                                                                   \
  DK_TGT static void tile_##NV##_##WB(int64_t ntaps, int64_t cc, const float *const *px, const float *const *wt, \
                                      float *ab, int64_t ldb, bool first) {                               \
    tile_body(NV, WB, ntaps, cc, px, wt, ab, ldb, first);                                                 \
  }
#define DC_TILES_6(NV) DC_TILE(NV, 1) DC_TILE(NV, 2) DC_TILE(NV, 3) DC_TILE(NV, 4) DC_TILE(NV, 5) DC_TILE(NV, 6)
#define DC_ROW6(NV) tile_##NV##_1, tile_##NV##_2, tile_##NV##_3, tile_##NV##_4, tile_##NV##_5, tile_##NV##_6

/* The kernels of one instruction set: rows [r0, r1) of N * OH of a DcJob,
 * tile rows [r0, r1) of N * TH of a WgJob. Every output element's sum is
 * the same chain of fused multiply-adds in every set (chunk, tap, input
 * feature), so the results are bit for bit the same. */
cxla_status dconv_rows_avx512(void *job, int64_t r0, int64_t r1);
cxla_status dconv_wino_avx512(void *job, int64_t r0, int64_t r1);
cxla_status dconv_rows_avx2(void *job, int64_t r0, int64_t r1);
cxla_status dconv_wino_avx2(void *job, int64_t r0, int64_t r1);

#endif
