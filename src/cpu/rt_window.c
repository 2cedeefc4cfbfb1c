/* rt_window.c: window ops as routines on raw buffers, vectorized over the
 * contiguous innermost dimension (channels of an NHWC array) and split
 * over the execution's threads by rows, where the emitter's per-element
 * loop nests cannot vectorize:
 *
 *   depthwise convolution  f32, b01f x 01io -> b01f, feature_group_count =
 *                          input features = output features (one kernel
 *                          per channel), any window size, stride, padding
 *                          and window dilation; no base dilation or
 *                          reversal. Padding is skipped (never 0 * w),
 *                          as in the interpreter; the taps are fused
 *                          multiply-adds in f32 in window order (the
 *                          interpreter sums in double: equal within
 *                          rounding).
 *   pooling                reduce-window f32 max / add of a rank-4 array
 *                          whose window covers dims 1 and 2 only (any
 *                          size, stride, padding, window dilation): the
 *                          interpreter's fold order (init, then window
 *                          positions in row-major order, padding
 *                          skipped), bit for bit.
 *   pooling gradient       select-and-scatter f32 with select = compare GE
 *                          (or GT) of its parameters in order and scatter =
 *                          add, rank 4, window on dims 1 and 2 with stride
 *                          >= size (windows do not overlap), no padding:
 *                          the interpreter's pick (first position, replaced
 *                          where select(picked, current) is false) and its
 *                          adds, bit for bit.
 *   scans                  reduce-window whose only window dimension d
 *                          spans the whole dimension (size N = dims[d],
 *                          stride 1, padding (N - 1, 0) or (0, N - 1), or
 *                          N for the exclusive scan), add / multiply /
 *                          maximum / minimum on f32, f64, s32, s64: in the
 *                          order of reduce-window-rewriter's tree (what the
 *                          interpreter computes on the rewritten module,
 *                          bit for bit, and XLA:CPU), in O(N): rows of 16
 *                          scanned 16 at a time (one per vector lane; 8 on AVX2), the
 *                          carries' levels serial, rows and combining split
 *                          over the threads. The cpu backend's optimizer
 *                          keeps these scans (PassContext.keep_scans).
 *
 * Depthwise and pooling outputs are written around the caches
 * (non-temporal stores) where the op's input and output together fill
 * most of the L3 (stream_output).
 *
 * Vector code uses the compilers' vector extensions, built for AVX-512 and
 * AVX2 and chosen at run time by what the CPU supports (plain SSE2
 * otherwise). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu_internal.h"
#include "passes/algsimp.h"
#include "runtime/scratch.h"

enum { RW_NONE, RW_DEPTHWISE, RW_POOL, RW_SELSCAT, RW_SCAN };

/* DW_T adjacent outputs per depthwise tile (rt_window_vec.h) */
enum { DW_T = 6 };

/* ---- recognizing ---- */

static bool row_major_f32(const Shape *s, int rank) {
  return s->type == T_F32 && s->rank == rank && shape_physically_row_major(s);
}

static bool plain_dim(const WindowDim *w) {
  return w->size == 1 && w->stride == 1 && w->pad_lo == 0 && w->pad_hi == 0 && w->lhs_dilate == 1 &&
         w->rhs_dilate == 1 && !w->reversal;
}

/* A window dim the routines take: no base dilation or reversal. */
static bool spatial_dim(const WindowDim *w) {
  return w->size >= 1 && w->stride >= 1 && w->lhs_dilate == 1 && w->rhs_dilate >= 1 && !w->reversal;
}

static bool depthwise_ok(const Instr *in) {
  const ConvDims *cd = &in->conv;
  if (in->noperands != 2 || cd->nspatial != 2 || in->nwindow != 2) return false;
  const Shape *ls = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  if (!row_major_f32(ls, 4) || !row_major_f32(ks, 4) || !row_major_f32(os, 4)) return false;
  if (cd->in_batch != 0 || cd->in_spatial[0] != 1 || cd->in_spatial[1] != 2 || cd->in_feature != 3) return false;
  if (cd->k_spatial[0] != 0 || cd->k_spatial[1] != 1 || cd->k_in != 2 || cd->k_out != 3) return false;
  if (cd->out_batch != 0 || cd->out_spatial[0] != 1 || cd->out_spatial[1] != 2 || cd->out_feature != 3) return false;
  int64_t C = ls->dims[3];
  if (C < 1 || in->batch_group_count != 1 || in->feature_group_count != C) return false;
  if (ks->dims[2] != 1 || ks->dims[3] != C || os->dims[3] != C || os->dims[0] != ls->dims[0]) return false;
  for (int d = 0; d < 2; d++)
    if (!spatial_dim(&in->window[d]) || in->window[d].size != ks->dims[d]) return false;
  return true;
}

/* A rank-4 window over dims 1 and 2 only. */
static bool nhwc_window(const Instr *in) {
  return in->nwindow == 4 && plain_dim(&in->window[0]) && plain_dim(&in->window[3]) &&
         spatial_dim(&in->window[1]) && spatial_dim(&in->window[2]);
}

static bool pool_ok(const Instr *in) {
  if (in->noperands != 2 || in->ncalled < 1 || !nhwc_window(in)) return false;
  if (!row_major_f32(in->operands[0]->shape, 4) || !row_major_f32(in->shape, 4)) return false;
  if (in->operands[1]->shape->type != T_F32 || in->operands[1]->shape->rank != 0) return false;
  Opcode f = simp_reducer_op(in->called[0]);
  return f == OP_MAXIMUM || f == OP_ADD;
}

/* select = compare(p0, p1) GE or GT; scatter = add. */
static int selscat_dir(const Instr *in) {
  const Computation *sel = in->called[0];
  if (!sel || sel->nparams != 2 || !sel->root || sel->ninstrs != 3) return -1;
  const Instr *r = sel->root;
  if (r->op != OP_COMPARE || r->noperands != 2 || r->operands[0] != sel->params[0] ||
      r->operands[1] != sel->params[1] || r->shape->type != T_PRED)
    return -1;
  if (r->operands[0]->shape->type != T_F32) return -1;
  if (r->cmp_type == CMPT_TOTALORDER) return -1;
  if (r->cmp_dir == CMP_GE) return 0;
  if (r->cmp_dir == CMP_GT) return 1;
  return -1;
}

static bool selscat_ok(const Instr *in) {
  if (in->noperands != 3 || in->ncalled < 2 || !nhwc_window(in)) return false;
  const Shape *x = in->operands[0]->shape, *src = in->operands[1]->shape;
  if (!row_major_f32(x, 4) || !row_major_f32(src, 4) || !row_major_f32(in->shape, 4)) return false;
  if (in->operands[2]->shape->type != T_F32 || in->operands[2]->shape->rank != 0) return false;
  for (int d = 1; d <= 2; d++) {
    const WindowDim *w = &in->window[d];
    if (w->pad_lo != 0 || w->pad_hi != 0 || w->rhs_dilate != 1 || w->stride < w->size) return false;
  }
  return selscat_dir(in) >= 0 && simp_reducer_op(in->called[1]) == OP_ADD;
}

/* The scanned dim, or -1. *fwd: a forward scan (padding low), else a
 * reverse one (padding high); *excl: the exclusive form (one element
 * more). */
static int scan_dim(const Instr *in, bool *fwd, bool *excl) {
  if (in->noperands != 2 || in->ncalled < 1) return -1;
  const Shape *x = in->operands[0]->shape, *o = in->shape;
  ElemType t = x->type;
  if (t != T_F32 && t != T_F64 && t != T_S32 && t != T_S64) return -1;
  if (o->type != t || in->operands[1]->shape->type != t || in->operands[1]->shape->rank != 0) return -1;
  if (!shape_physically_row_major(x) || !shape_physically_row_major(o)) return -1;
  if (in->nwindow != x->rank || o->rank != x->rank) return -1;
  Opcode f = simp_reducer_op(in->called[0]);
  if (f != OP_ADD && f != OP_MULTIPLY && f != OP_MAXIMUM && f != OP_MINIMUM) return -1;
  int dim = -1;
  for (int d = 0; d < x->rank; d++) {
    const WindowDim *w = &in->window[d];
    if (plain_dim(w)) {
      if (o->dims[d] != x->dims[d]) return -1;
      continue;
    }
    if (dim >= 0) return -1;
    int64_t n = x->dims[d];
    if (n < 1 || w->size != n || w->stride != 1 || w->lhs_dilate != 1 || w->rhs_dilate != 1 || w->reversal)
      return -1;
    bool f_ = (w->pad_lo == n - 1 || w->pad_lo == n) && w->pad_hi == 0;
    bool r_ = (w->pad_hi == n - 1 || w->pad_hi == n) && w->pad_lo == 0;
    if (!f_ && !r_) return -1;
    *fwd = f_;
    *excl = f_ ? w->pad_lo == n : w->pad_hi == n;
    if (o->dims[d] != n + (*excl ? 1 : 0)) return -1;
    dim = d;
  }
  return dim;
}

bool rt_window_supported(const Instr *in) {
  bool fwd, excl;
  switch (in->op) {
  case OP_CONVOLUTION: return depthwise_ok(in);
  case OP_REDUCE_WINDOW: return pool_ok(in) || scan_dim(in, &fwd, &excl) >= 0;
  case OP_SELECT_AND_SCATTER: return selscat_ok(in);
  default: return false;
  }
}

/* ---- depthwise convolution ---- */

typedef struct Dw {
  const float *x, *w;
  float *o;
  int64_t H, W, C, OH, OW, KH, KW;
  const WindowDim *wy, *wx;
  int64_t ox_lo, ox_hi; /* outputs whose window lies inside the row */
  bool nt; /* output stores non-temporal (stream_output) where the variant can:
                C a multiple of the AVX-512 variant's 16 lanes */
} Dw;

/* The window taps [*k0, *k1) of output position o that fall inside [0, n). */
static void taps_in(const WindowDim *w, int64_t o, int64_t n, int64_t *k0, int64_t *k1) {
  int64_t i0 = o * w->stride - w->pad_lo, k = 0;
  while (k < w->size && i0 + k * w->rhs_dilate < 0) k++;
  *k0 = k;
  while (k < w->size && i0 + k * w->rhs_dilate < n) k++;
  *k1 = k;
}

/* The input rows (image n of x, H x W x C floats) the next output row
 * of a window wy adds to those of the row whose first input row is iy0
 * (stride rows after the window's last; undilated windows only): the
 * first of their *npf lines, or NULL (none inside the image). */
static const char *next_rows(const float *x, int64_t n, int64_t H, int64_t W, int64_t C, int64_t iy0,
                             const WindowDim *wy, int64_t *npf) {
  int64_t ny = iy0 + wy->size, nrows = wy->stride;
  if (ny + nrows > H) nrows = H - ny;
  *npf = 0;
  if (wy->rhs_dilate != 1 || ny < 0 || nrows <= 0) return NULL;
  *npf = nrows * W * C * (int64_t)sizeof(float) / 64;
  return (const char *)(x + (n * H + ny) * W * C);
}

/* ---- pooling (reduce-window max / add over dims 1, 2) ---- */

typedef struct Pool {
  const float *x;
  float *o;
  float init;
  bool max;
  int64_t H, W, C, OH, OW;
  const WindowDim *wy, *wx;
  bool nt; /* output stores non-temporal (stream_output) where the variant can */
} Pool;

/* The interpreter's maximum of floats: NaN first (a's), of equal values
 * (zeros) the one without the sign bit. */
static inline float fmax_interp(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

/* ---- select-and-scatter (non-overlapping windows over dims 1, 2) ---- */

typedef struct SelScat {
  const float *x, *src;
  float *o;
  float init;
  bool gt; /* select is GT (else GE) */
  int64_t H, W, C, SH, SW;
  const WindowDim *wy, *wx;
} SelScat;

/* ---- instantiation per instruction set (rt_window_vec.h) ---- */

#define RWV_VL 4
#define RWV_SFX base
#define RWV_ATTR
#define RWV_NTS 0
#define RWV_FENCE (void)0
#include "cpu/rt_window_vec.h"
#if defined(__x86_64__)
#include <immintrin.h>
#define RWV_VL 8
#define RWV_SFX avx2
#define RWV_ATTR __attribute__((target("avx2,fma")))
#define RWV_NTS 1
#define RWV_FENCE _mm_sfence()
#include "cpu/rt_window_vec.h"
#define RWV_VL 16
#define RWV_SFX avx512
#define RWV_ATTR __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#define RWV_NTS 1
#define RWV_FENCE _mm_sfence()
#include "cpu/rt_window_vec.h"
#endif

/* 2: AVX-512, 1: AVX2, 0: neither. $CXLA_CPU_WINDOW_ISA = "avx2" or
 * "base" caps it (tests run every variant on one machine). */
static int isa_level(void) {
#if defined(__x86_64__)
  const char *cap = getenv("CXLA_CPU_WINDOW_ISA");
  if (cap && strcmp(cap, "base") == 0) return 0;
  __builtin_cpu_init();
  if (cap && strcmp(cap, "avx2") == 0)
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
    return 2;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 1;
#endif
  return 0;
}

#if defined(__x86_64__)
#define PICK(name, lvl) ((lvl) == 2 ? name##_avx512 : (lvl) == 1 ? name##_avx2 : name##_base)
#else
#define PICK(name, lvl) name##_base
#endif

/* ---- scans ---- */

/* A scan is computed in the order of the reduce-window-rewriter's tree
 * (src/passes/reduce_window_rewriter.c), which the interpreter runs and
 * XLA:CPU computes: a scan of length n <= 16 is the interpreter's direct
 * fold (init, then the window's elements in index order); a longer one is
 * padded with init to rows of 16, each row scanned directly, the rows'
 * totals (last element, first for a reverse scan) scanned by the same
 * tree, shifted by one (init in front, behind for a reverse scan) as the
 * carries, and every element combined as f(row scan, carry). Bit for bit
 * what the interpreter computes on the rewritten module.
 *
 * An array [outer, n, inner] (n along the scanned dim) is `outer` lines of
 * n x inner: the inner elements are lanes, scanned alike. */
enum { kScanB = 16 };

typedef struct Scan {
  const void *x;
  void *o;
  ElemType t;
  Opcode f;
  bool fwd, excl;
  int64_t outer, n, inner;
  int64_t cols, groups; /* n > 16: rows of 16 per line, groups of 16 rows */
  const void *init;
  void *col, *carry, *pad, *scratch; /* per line: cols*inner, cols*inner,
                                        2*16*inner, need(cols) elements */
  int64_t need;
} Scan;

static inline double dmax_interp(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline double dmin_interp(double a, double b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline float fmin_interp(float a, float b) {
  if (a != a) return a;
  if (b != b) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* Elements of scratch S_carries takes for a line of m rows of 16 (m
 * totals of `inner` lanes): the pad row, the level-0 scan, and per level
 * above its totals, scan and carries. */
enum { kScanLevels = 24 };
static int64_t scan_need(int64_t m, int64_t inner) {
  int64_t need = (2 * kScanB + m) * inner;
  for (int64_t c = m; c > kScanB;) {
    c = (c + kScanB - 1) / kScanB;
    need += 3 * c * inner;
  }
  return need;
}

/* A 16 x 16 block of 16-lane vectors v[0..15] transposed in place: four
 * rounds, round h swapping bit h of the vector index with bit h of the
 * lane index (v[i] and v[i + h] exchange their lane blocks of h). */
#define TR_LO8 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23
#define TR_HI8 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31
#define TR_LO4 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27
#define TR_HI4 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31
#define TR_LO2 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29
#define TR_HI2 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31
#define TR_LO1 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30
#define TR_HI1 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31
/* One round over the npairs pairs of vectors h apart (2 npairs vectors). */
#define TR_ROUND(v, npairs, h, LO, HI)                                                                 \
  _Pragma("GCC unroll 8") for (int p_ = 0; p_ < (npairs); p_++) {                                      \
    int i_ = (p_ / (h)) * 2 * (h) + p_ % (h);                                                          \
    __typeof__((v)[0]) a_ = (v)[i_], b_ = (v)[i_ + (h)];                                               \
    (v)[i_] = __builtin_shufflevector(a_, b_, LO);                                                     \
    (v)[i_ + (h)] = __builtin_shufflevector(a_, b_, HI);                                               \
  }
#define TRANSPOSE16(v)                                                                                 \
  do {                                                                                                 \
    TR_ROUND(v, 8, 8, TR_LO8, TR_HI8)                                                                  \
    TR_ROUND(v, 8, 4, TR_LO4, TR_HI4)                                                                  \
    TR_ROUND(v, 8, 2, TR_LO2, TR_HI2)                                                                  \
    TR_ROUND(v, 8, 1, TR_LO1, TR_HI1)                                                                  \
  } while (0)

/* An 8 x 8 block of 8-lane vectors v[0..7] transposed in place (the
 * AVX2 variants' half blocks, below): rounds h = 4, 2, 1 as TRANSPOSE16's. */
#define T8_LO4 0, 1, 2, 3, 8, 9, 10, 11
#define T8_HI4 4, 5, 6, 7, 12, 13, 14, 15
#define T8_LO2 0, 1, 8, 9, 4, 5, 12, 13
#define T8_HI2 2, 3, 10, 11, 6, 7, 14, 15
#define T8_LO1 0, 8, 2, 10, 4, 12, 6, 14
#define T8_HI1 1, 9, 3, 11, 5, 13, 7, 15
#define TRANSPOSE8(v)                                                                                  \
  do {                                                                                                 \
    TR_ROUND(v, 4, 4, T8_LO4, T8_HI4)                                                                  \
    TR_ROUND(v, 4, 2, T8_LO2, T8_HI2)                                                                  \
    TR_ROUND(v, 4, 1, T8_LO1, T8_HI1)                                                                  \
  } while (0)

/* Vectors of 16 (and 8) elements per type, and their unaligned forms for
 * loads and stores at any element's address. */
#define SCAN_VEC(P, T)                                                                                 \
  typedef T P##x16 __attribute__((vector_size(kScanB * sizeof(T))));                                   \
  typedef T P##u16 __attribute__((vector_size(kScanB * sizeof(T)), aligned(sizeof(T)), may_alias));    \
  typedef T P##x8 __attribute__((vector_size(8 * sizeof(T))));                                         \
  typedef T P##u8 __attribute__((vector_size(8 * sizeof(T)), aligned(sizeof(T)), may_alias));
SCAN_VEC(f32, float)
SCAN_VEC(f64, double)
SCAN_VEC(s32, int32_t)
SCAN_VEC(s64, int64_t)

/* A reducer lane by lane, for the reducers without a vector operator. */
#define LANEWISE(OP)                                                                                   \
  ({                                                                                                   \
    __typeof__(a) r_;                                                                                  \
    for (int l_ = 0; l_ < (int)(sizeof a / sizeof a[0]); l_++) r_[l_] = OP(a[l_], b[l_]);              \
    r_;                                                                                                \
  })

/* VOP (an expression of vectors a and b) on x and y. */
#define VAPPLY(V, VOP, x, y)                                                                           \
  ({                                                                                                   \
    V a = (x), b = (y);                                                                                \
    VOP;                                                                                               \
  })

/* 8 rows of 16 elements from x (rows 16 apart) into v[0..15] of 8 lanes
 * (v[k]: element k of each row, a row per lane), and back from u to o. */
#define SCAN_LOAD8(U8, UNR, x, v)                                                                      \
  do {                                                                                                 \
    UNR for (int q_ = 0; q_ < 8; q_++) {                                                               \
      v[q_] = *(const U8 *)((x) + q_ * kScanB);                                                        \
      v[8 + q_] = *(const U8 *)((x) + q_ * kScanB + 8);                                                \
    }                                                                                                  \
    TRANSPOSE8(v);                                                                                     \
    TRANSPOSE8(v + 8);                                                                                 \
  } while (0)
#define SCAN_STORE8(U8, UNR, u, o)                                                                     \
  do {                                                                                                 \
    TRANSPOSE8(u);                                                                                     \
    TRANSPOSE8(u + 8);                                                                                 \
    UNR for (int q_ = 0; q_ < 8; q_++) {                                                               \
      *(U8 *)((o) + q_ * kScanB) = u[q_];                                                              \
      *(U8 *)((o) + q_ * kScanB + 8) = u[8 + q_];                                                      \
    }                                                                                                  \
  } while (0)

/* A block's 16 positions scanned (v[k]: position k of the block's rows,
 * a row per lane of VT) from iv, forward or in reverse, each combined
 * with its row's carry c last, into u: every row in the tree's order. */
#define SCAN_BLOCK(VT, VOP, UNR, fwd, v, u, iv, c)                                                     \
  do {                                                                                                 \
    if (fwd) {                                                                                         \
      u[0] = VAPPLY(VT, VOP, iv, v[0]);                                                                \
      UNR for (int k_ = 1; k_ < kScanB; k_++) u[k_] = VAPPLY(VT, VOP, u[k_ - 1], v[k_]);               \
    } else                                                                                             \
      UNR for (int i_ = 0; i_ < kScanB; i_++) {                                                        \
        u[i_] = VAPPLY(VT, VOP, iv, v[i_]);                                                            \
        UNR for (int k_ = i_ + 1; k_ < kScanB; k_++) u[i_] = VAPPLY(VT, VOP, u[i_], v[k_]);            \
      }                                                                                                \
    UNR for (int k_ = 0; k_ < kScanB; k_++) u[k_] = VAPPLY(VT, VOP, u[k_], c);                         \
  } while (0)

/* For each element type T (vectors V, unaligned U) and reducer OP(a, b)
 * (on vectors: VOP):
 *   S_direct   the direct scan of n elements (rows xs / os apart, `lanes`
 *              contiguous lanes each);
 *   S_totals   rows [r0, r1) of 16 of a line: each row's total (its direct
 *              scan's last element, first for a reverse scan: both the
 *              fold of the row from init, padded with init) to col;
 *   S_final    rows [r0, r1): each row scanned directly and combined with
 *              its carry, written once;
 *   S_carries  the carries of a line's rows from their totals (the tree's
 *              levels above, serial).
 * A line is read twice (totals, final) and written once; with one lane
 * (inner = 1), 16 rows at a time are transposed into the vector lanes. */
#define SCAN_DEFS(S, T, OP, V, U, V8, U8, VOP, UNR)                                                                   \
  static inline __attribute__((always_inline)) void S##_direct(const T *x, int64_t xs, T *o, int64_t os,  \
                                                               int64_t n, int64_t lanes, bool fwd,       \
                                                               T init) {                                 \
    if (fwd) {                                                                                           \
      for (int64_t j = 0; j < lanes; j++) o[j] = OP(init, x[j]);                                         \
      for (int64_t i = 1; i < n; i++)                                                                    \
        for (int64_t j = 0; j < lanes; j++) o[i * os + j] = OP(o[(i - 1) * os + j], x[i * xs + j]);      \
      return;                                                                                            \
    }                                                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                                    \
      T *oi = o + i * os;                                                                                \
      for (int64_t j = 0; j < lanes; j++) oi[j] = OP(init, x[i * xs + j]);                               \
      for (int64_t k = i + 1; k < n; k++)                                                                \
        for (int64_t j = 0; j < lanes; j++) oi[j] = OP(oi[j], x[k * xs + j]);                            \
    }                                                                                                    \
  }                                                                                                      \
  static inline __attribute__((always_inline)) void S##_totals(const T *x, T *col, int64_t n, int64_t in, \
                                                               int64_t r0, int64_t r1, T init,           \
                                                               const bool half) {                        \
    int64_t r = r0;                                                                                      \
    if (in == 1 && half)                                                                                 \
      /* 8 rows at a time, each a lane of 8-lane vectors (16 of them: the                               \
       * row's elements), as the 16-row blocks below are 16 lanes */                                     \
      for (; r + 8 <= r1 && (r + 8) * kScanB <= n; r += 8) {                                             \
        V8 v[kScanB];                                                                                    \
        SCAN_LOAD8(U8, UNR, x + r * kScanB, v);                                                          \
        V8 acc = VAPPLY(V8, VOP, (V8){0} + init, v[0]);                                                  \
        UNR for (int k = 1; k < kScanB; k++) acc = VAPPLY(V8, VOP, acc, v[k]);                           \
        *(U8 *)(col + r) = acc;                                                                          \
      }                                                                                                  \
    else if (in == 1)                                                                                    \
      for (; r + kScanB <= r1 && (r + kScanB) * kScanB <= n; r += kScanB) {                              \
        V v[kScanB];                                                                                     \
        UNR for (int k = 0; k < kScanB; k++) v[k] = *(const U *)(x + (r + k) * kScanB);                      \
        TRANSPOSE16(v);                                                                                  \
        V acc = VAPPLY(V, VOP, (V){0} + init, v[0]);                                                            \
        UNR for (int k = 1; k < kScanB; k++) acc = VAPPLY(V, VOP, acc, v[k]);                                       \
        *(U *)(col + r) = acc;                                                                           \
      }                                                                                                  \
    for (; r < r1; r++) {                                                                                \
      int64_t i0 = r * kScanB, len = n - i0 < kScanB ? n - i0 : kScanB;                                  \
      const T *xr = x + i0 * in;                                                                         \
      T *tot = col + r * in;                                                                             \
      for (int64_t j = 0; j < in; j++) tot[j] = OP(init, xr[j]);                                         \
      for (int64_t k = 1; k < kScanB; k++)                                                               \
        if (k < len)                                                                                     \
          for (int64_t j = 0; j < in; j++) tot[j] = OP(tot[j], xr[k * in + j]);                          \
        else                                                                                             \
          for (int64_t j = 0; j < in; j++) tot[j] = OP(tot[j], init);                                    \
    }                                                                                                    \
  }                                                                                                      \
  static inline __attribute__((always_inline)) void S##_final(const T *x, T *o, const T *carry, T *pad,   \
                                                              int64_t n, int64_t in, int64_t r0,          \
                                                              int64_t r1, bool fwd, T init,              \
                                                              const bool half) {                         \
    int64_t r = r0;                                                                                      \
    if (in == 1 && half)                                                                                 \
      for (; r + 8 <= r1 && (r + 8) * kScanB <= n; r += 8) {                                             \
        V8 v[kScanB], u[kScanB], iv = (V8){0} + init, c = *(const U8 *)(carry + r);                      \
        SCAN_LOAD8(U8, UNR, x + r * kScanB, v);                                                          \
        SCAN_BLOCK(V8, VOP, UNR, fwd, v, u, iv, c);                                                      \
        SCAN_STORE8(U8, UNR, u, o + r * kScanB);                                                         \
      }                                                                                                  \
    else if (in == 1)                                                                                    \
      for (; r + kScanB <= r1 && (r + kScanB) * kScanB <= n; r += kScanB) {                              \
        V v[kScanB], u[kScanB], iv = (V){0} + init, c = *(const U *)(carry + r);                         \
        UNR for (int k = 0; k < kScanB; k++) v[k] = *(const U *)(x + (r + k) * kScanB);                      \
        TRANSPOSE16(v);                                                                                  \
        SCAN_BLOCK(V, VOP, UNR, fwd, v, u, iv, c);                                                       \
        TRANSPOSE16(u);                                                                                  \
        UNR for (int k = 0; k < kScanB; k++) *(U *)(o + (r + k) * kScanB) = u[k];                            \
      }                                                                                                  \
    for (; r < r1; r++) {                                                                                \
      int64_t i0 = r * kScanB, len = n - i0 < kScanB ? n - i0 : kScanB;                                  \
      T *ob = o + i0 * in;                                                                               \
      const T *c = carry + r * in;                                                                       \
      if (len == kScanB)                                                                                 \
        S##_direct(x + i0 * in, in, ob, in, kScanB, in, fwd, init);                                      \
      else {                                                                                             \
        T *px = pad, *po = pad + kScanB * in;                                                            \
        memcpy(px, x + i0 * in, (size_t)(len * in) * sizeof(T));                                         \
        for (int64_t k = len * in; k < kScanB * in; k++) px[k] = init;                                   \
        S##_direct(px, in, po, in, kScanB, in, fwd, init);                                               \
        memcpy(ob, po, (size_t)(len * in) * sizeof(T));                                                  \
      }                                                                                                  \
      for (int64_t k = 0; k < len; k++)                                                                  \
        for (int64_t j = 0; j < in; j++) ob[k * in + j] = OP(ob[k * in + j], c[j]);                      \
    }                                                                                                    \
  }                                                                                                      \
  /* carry[r] from the inclusive scan R of the totals: shifted by one. */    \
  static inline __attribute__((always_inline)) void S##_shift(const T *R, T *carry, int64_t cols, int64_t in, bool fwd, T init) {              \
    size_t row = (size_t)in * sizeof(T);                                                                 \
    if (fwd) {                                                                                           \
      for (int64_t j = 0; j < in; j++) carry[j] = init;                                                  \
      memcpy(carry + in, R, (size_t)(cols - 1) * row);                                                   \
    } else {                                                                                             \
      memcpy(carry, R + in, (size_t)(cols - 1) * row);                                                   \
      for (int64_t j = 0; j < in; j++) carry[(cols - 1) * in + j] = init;                                \
    }                                                                                                    \
  }                                                                                                      \
  /* carry (m rows of in lanes) from the totals col of a line's m rows: the \
   * totals scanned by the tree (levels of totals down to at most 16, the   \
   * top one scanned directly, each level below scanned and combined with   \
   * the carries of the one above), shifted. */                             \
  static inline __attribute__((always_inline)) void S##_carries(const T *col, T *carry, int64_t m,        \
                                                                int64_t in, bool fwd, T init,            \
                                                                T *scratch, const bool half) {           \
    const T *a[kScanLevels];                                                                             \
    T *sc[kScanLevels];                                                                                  \
    int64_t len[kScanLevels];                                                                            \
    int K = 0;                                                                                           \
    T *pad = scratch, *s0 = pad + 2 * kScanB * in, *w = s0 + m * in;                                     \
    a[0] = col, len[0] = m;                                                                              \
    while (len[K] > kScanB) {                                                                            \
      int64_t c = (len[K] + kScanB - 1) / kScanB;                                                        \
      S##_totals(a[K], w, len[K], in, 0, c, init, half);                                                 \
      a[K + 1] = w, len[K + 1] = c, w += c * in;                                                         \
      K++;                                                                                               \
    }                                                                                                    \
    sc[K] = K ? w : s0;                                                                                  \
    if (K) w += len[K] * in;                                                                             \
    S##_direct(a[K], in, sc[K], in, len[K], in, fwd, init);                                              \
    for (int k = K - 1; k >= 0; k--) {                                                                   \
      T *c = w;                                                                                          \
      w += len[k + 1] * in;                                                                              \
      S##_shift(sc[k + 1], c, len[k + 1], in, fwd, init);                                                \
      sc[k] = k ? w : s0;                                                                                \
      if (k) w += len[k] * in;                                                                           \
      S##_final(a[k], sc[k], c, pad, len[k], in, 0, len[k + 1], fwd, init, half);                        \
    }                                                                                                    \
    S##_shift(s0, carry, m, in, fwd, init);                                                              \
  }

/* The block loops of the reducers with vector operators, unrolled so that
 * a block's 16 vectors stay in registers (an array indexed by a loop
 * counter lives on the stack); the lane-by-lane ones stay loops. */
#define SCAN_UNROLL _Pragma("GCC unroll 16")

#define OP_SUM(a, b) ((a) + (b))
#define OP_PROD(a, b) ((a) * (b))
#define OP_USUM32(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define OP_UPROD32(a, b) ((int32_t)((uint32_t)(a) * (uint32_t)(b)))
#define OP_USUM64(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define OP_UPROD64(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define OP_IMAX(a, b) ((a) > (b) ? (a) : (b))
#define OP_IMIN(a, b) ((a) < (b) ? (a) : (b))

SCAN_DEFS(f32_add, float, OP_SUM, f32x16, f32u16, f32x8, f32u8, a + b, SCAN_UNROLL)
SCAN_DEFS(f32_mul, float, OP_PROD, f32x16, f32u16, f32x8, f32u8, a * b, SCAN_UNROLL)
SCAN_DEFS(f32_max, float, fmax_interp, f32x16, f32u16, f32x8, f32u8, LANEWISE(fmax_interp), )
SCAN_DEFS(f32_min, float, fmin_interp, f32x16, f32u16, f32x8, f32u8, LANEWISE(fmin_interp), )
SCAN_DEFS(f64_add, double, OP_SUM, f64x16, f64u16, f64x8, f64u8, a + b, SCAN_UNROLL)
SCAN_DEFS(f64_mul, double, OP_PROD, f64x16, f64u16, f64x8, f64u8, a * b, SCAN_UNROLL)
SCAN_DEFS(f64_max, double, dmax_interp, f64x16, f64u16, f64x8, f64u8, LANEWISE(dmax_interp), )
SCAN_DEFS(f64_min, double, dmin_interp, f64x16, f64u16, f64x8, f64u8, LANEWISE(dmin_interp), )
SCAN_DEFS(s32_add, int32_t, OP_USUM32, s32x16, s32u16, s32x8, s32u8, LANEWISE(OP_USUM32), )
SCAN_DEFS(s32_mul, int32_t, OP_UPROD32, s32x16, s32u16, s32x8, s32u8, LANEWISE(OP_UPROD32), )
SCAN_DEFS(s32_max, int32_t, OP_IMAX, s32x16, s32u16, s32x8, s32u8, LANEWISE(OP_IMAX), )
SCAN_DEFS(s32_min, int32_t, OP_IMIN, s32x16, s32u16, s32x8, s32u8, LANEWISE(OP_IMIN), )
SCAN_DEFS(s64_add, int64_t, OP_USUM64, s64x16, s64u16, s64x8, s64u8, LANEWISE(OP_USUM64), )
SCAN_DEFS(s64_mul, int64_t, OP_UPROD64, s64x16, s64u16, s64x8, s64u8, LANEWISE(OP_UPROD64), )
SCAN_DEFS(s64_max, int64_t, OP_IMAX, s64x16, s64u16, s64x8, s64u8, LANEWISE(OP_IMAX), )
SCAN_DEFS(s64_min, int64_t, OP_IMIN, s64x16, s64u16, s64x8, s64u8, LANEWISE(OP_IMIN), )

/* The output line l's first scanned element. */
#define SCAN_LINE_OUT(p, T, l) \
  ((T *)(p)->o + (l) * ((p)->n + ((p)->excl ? 1 : 0)) * (p)->inner + ((p)->fwd && (p)->excl ? (p)->inner : 0))

/* The phases, over units: 0 (n <= 16) lines [lo, hi) scanned directly;
 * 1 groups of 16 rows (line = unit / groups): the rows' totals; 2 lines:
 * carries; 3 groups: rows scanned and combined. */
#define SCAN_PHASE_ONE(S, T, HALF)                                                                       \
  do {                                                                                                   \
    T init_;                                                                                             \
    memcpy(&init_, p->init, sizeof init_);                                                               \
    int64_t in_ = p->inner, n_ = p->n;                                                                   \
    for (int64_t u_ = lo; u_ < hi; u_++) {                                                               \
      int64_t l_ = phase == 0 || phase == 2 ? u_ : u_ / p->groups;                                       \
      const T *x_ = (const T *)p->x + l_ * n_ * in_;                                                     \
      T *o_ = SCAN_LINE_OUT(p, T, l_);                                                                   \
      T *col_ = (T *)p->col + l_ * p->cols * in_, *carry_ = (T *)p->carry + l_ * p->cols * in_;          \
      int64_t r0_ = (u_ % (p->groups ? p->groups : 1)) * kScanB, r1_ = r0_ + kScanB;                     \
      if (r1_ > p->cols) r1_ = p->cols;                                                                  \
      switch (phase) {                                                                                   \
      case 0: S##_direct(x_, in_, o_, in_, n_, in_, p->fwd, init_); break;                               \
      case 1: S##_totals(x_, col_, n_, in_, r0_, r1_, init_, HALF); break;                               \
      case 2:                                                                                            \
        S##_carries(col_, carry_, p->cols, in_, p->fwd, init_, (T *)p->scratch + l_ * p->need, HALF);    \
        break;                                                                                           \
      default:                                                                                           \
        S##_final(x_, o_, carry_, (T *)p->pad + l_ * 2 * kScanB * in_, n_, in_, r0_, r1_, p->fwd, init_, \
                  HALF);                                                                                 \
        break;                                                                                           \
      }                                                                                                  \
    }                                                                                                    \
  } while (0)

/* One function per element type, reducer and instruction set, never
 * inlined into the dispatch: the sixteen scans inlined into one function
 * per instruction set made it large enough that gcc's PRE and dataflow
 * passes (superlinear in a function's size) took 190 s on this file; split,
 * 95 s. */
#define SCAN_FN(S, T, suffix, attr, HALF)                                                              \
  attr __attribute__((noinline)) static void S##_phase_##suffix(const Scan *p, int phase, int64_t lo, \
                                                                int64_t hi) {                       \
    SCAN_PHASE_ONE(S, T, HALF);                                                                    \
  }

#define SCAN_TYPE(P, suffix)                                                                         \
  switch (p->f) {                                                                                    \
  case OP_ADD: P##_add_phase_##suffix(p, phase, lo, hi); break;                                      \
  case OP_MULTIPLY: P##_mul_phase_##suffix(p, phase, lo, hi); break;                                 \
  case OP_MAXIMUM: P##_max_phase_##suffix(p, phase, lo, hi); break;                                  \
  default: P##_min_phase_##suffix(p, phase, lo, hi); break;                                          \
  }

#define SCAN_TYPE_FNS(P, T, suffix, attr, HALF)                                                        \
  SCAN_FN(P##_add, T, suffix, attr, HALF)                                                                \
  SCAN_FN(P##_mul, T, suffix, attr, HALF)                                                                \
  SCAN_FN(P##_max, T, suffix, attr, HALF)                                                                \
  SCAN_FN(P##_min, T, suffix, attr, HALF)

#define SCAN_VARIANT(suffix, attr, HALF)                                                               \
  SCAN_TYPE_FNS(f32, float, suffix, attr, HALF)                                                            \
  SCAN_TYPE_FNS(f64, double, suffix, attr, HALF)                                                           \
  SCAN_TYPE_FNS(s32, int32_t, suffix, attr, HALF)                                                          \
  SCAN_TYPE_FNS(s64, int64_t, suffix, attr, HALF)                                                          \
  attr static void scan_phase_##suffix(const Scan *p, int phase, int64_t lo, int64_t hi) {          \
    switch (p->t) {                                                                                  \
    case T_F32: SCAN_TYPE(f32, suffix); break;                                                       \
    case T_F64: SCAN_TYPE(f64, suffix); break;                                                       \
    case T_S32: SCAN_TYPE(s32, suffix); break;                                                       \
    default: SCAN_TYPE(s64, suffix); break;                                                          \
    }                                                                                                \
  }
SCAN_VARIANT(base, , 0)
#if defined(__x86_64__)
/* AVX2: blocks of 8 rows in 8-lane vectors (16 ymm registers hold one;
 * 16 rows in 16-lane vectors, 32 of them, spilled: cumsum of f32[1M] on
 * a Zen 2 1.32 -> 0.30 ms, torch 1.17) */
SCAN_VARIANT(avx2, __attribute__((target("avx2,fma"))), 1)
SCAN_VARIANT(avx512, __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma"))), 0)
#endif


/* ---- the plan, made at compile time ---- */

/* What a run needs besides its buffers: the routine, the vector variant,
 * the geometry, the rows the threads split and their estimated work. A run
 * fills the data pointers in its own copy. */
typedef struct RwPlan {
  int kind, isa, phase;
  Dw dw;
  Pool pool;
  SelScat ss;
  Scan scan;
  int64_t rows;   /* depthwise, pooling, select-and-scatter: rows to split */
  double per_row; /* element operations per row */
  /* scans of n > 16: per line scratch elements; the work of a phase 1 and
   * 3 unit (a group of 16 rows) and of a phase 2 one (a line) */
  int64_t per_line;
  double group_work, line_work;
} RwPlan;

static cxla_status job_slice(void *arg, int64_t lo, int64_t hi) {
  const RwPlan *j = arg;
  switch (j->kind) {
  case RW_DEPTHWISE: PICK(dw_rows, j->isa)(&j->dw, lo, hi); break;
  case RW_POOL: PICK(pool_rows, j->isa)(&j->pool, lo, hi); break;
  case RW_SELSCAT: PICK(selscat_rows, j->isa)(&j->ss, lo, hi); break;
  default: PICK(scan_phase, j->isa)(&j->scan, j->phase, lo, hi); break;
  }
  return NULL;
}

/* Runs rows [0, rows) of work `per_row` element operations each. */
static cxla_status run_rows(const ExecCtx *cx, RwPlan *j, int64_t rows, double per_row) {
  if (rows <= 0) return NULL;
  double g = (double)(cx->x && cx->x->grain > 0 ? cx->x->grain : CPU_KERNEL_GRAIN);
  int64_t min_slice = per_row >= g ? 1 : (int64_t)(g / (per_row > 1 ? per_row : 1)) + 1;
  if (min_slice > rows) min_slice = rows;
  return cx_parallel_for(cx, rows, min_slice, cx->nthreads, job_slice, j);
}

static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

static void plan_scan(RwPlan *j, const Instr *in, int d, bool fwd, bool excl) {
  const Shape *x = in->operands[0]->shape;
  Scan *p = &j->scan;
  int64_t outer = 1, inner = 1, n = x->dims[d];
  for (int k = 0; k < d; k++) outer *= x->dims[k];
  for (int k = d + 1; k < x->rank; k++) inner *= x->dims[k];
  j->kind = RW_SCAN;
  *p = (Scan){.t = x->type, .f = simp_reducer_op(in->called[0]), .fwd = fwd, .excl = excl, .outer = outer,
              .n = n, .inner = inner};
  if (n <= kScanB) {
    j->per_row = (double)(n * inner * (fwd ? 1 : n));
    return;
  }
  p->cols = (n + kScanB - 1) / kScanB;
  p->groups = (p->cols + kScanB - 1) / kScanB;
  p->need = scan_need(p->cols, inner);
  j->per_line = (2 * p->cols + 2 * kScanB) * inner + p->need;
  j->group_work = (double)(kScanB * kScanB * inner * (fwd ? 2 : kScanB / 2));
  j->line_work = (double)(p->cols * inner * 2);
}

/* The size of the last-level (L3) cache: what the kernel reports (sysfs,
 * as lscpu reads it; glibc's sysconf reports the host's total in some
 * virtual machines), else sysconf's, else 32 MiB. */
static int64_t l3_bytes(void) {
  FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
  long long v = 0;
  char unit = 0;
  if (f) {
    if (fscanf(f, "%lld%c", &v, &unit) < 1) v = 0;
    fclose(f);
    v *= unit == 'K' ? 1024 : unit == 'M' ? 1 << 20 : 1;
  }
#if defined(_SC_LEVEL3_CACHE_SIZE)
  if (v <= 0) v = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  return v > 0 ? (int64_t)v : 32ll << 20;
}

/* Whether an op that reads in_bytes and writes out_bytes stores its
 * output around the caches (the AVX-512 and AVX2 variants' full vectors, where
 * aligned): where the two take 3/4 of the L3 or more, the output would
 * not stay there for its consumer anyway, and writing it directly saves
 * reading each of its lines in first (8 x 56 x 56 x 128 depthwise 3x3 on
 * Zen 5, 32 MiB L3: 0.48-0.52 -> 0.34-0.42 ms; the bench's max pooling
 * 0.46-0.49 -> 0.29-0.34 ms; on a Zen 2, AVX2: 0.67 -> 0.57 ms).
 * $CXLA_CPU_WINDOW_NT = "1" / "0" forces it
 * either way (tests). */
static bool stream_output(int64_t in_bytes, int64_t out_bytes) {
  const char *force = getenv("CXLA_CPU_WINDOW_NT");
  if (force) return strcmp(force, "0") != 0;
  int64_t t = in_bytes + out_bytes;
  return t >= (8ll << 20) && 4 * t >= 3 * l3_bytes();
}

static void plan_depthwise(RwPlan *j, const Instr *in) {
  const Shape *xs = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  Dw *p = &j->dw;
  j->kind = RW_DEPTHWISE;
  *p = (Dw){.H = xs->dims[1], .W = xs->dims[2], .C = xs->dims[3], .OH = os->dims[1], .OW = os->dims[2],
            .KH = ks->dims[0], .KW = ks->dims[1], .wy = &in->window[0], .wx = &in->window[1]};
  /* interior: ox*s - pad >= 0 and ox*s - pad + (KW-1)*dil <= W-1 */
  const WindowDim *wx = p->wx;
  p->ox_lo = ceil_div(wx->pad_lo, wx->stride);
  if (p->ox_lo < 0) p->ox_lo = 0;
  int64_t last = p->W - 1 + wx->pad_lo - (p->KW - 1) * wx->rhs_dilate;
  p->ox_hi = last < 0 ? 0 : last / wx->stride + 1;
  if (p->ox_hi > p->OW) p->ox_hi = p->OW;
  if (p->ox_hi < p->ox_lo) p->ox_hi = p->ox_lo;
  j->rows = os->dims[0] * p->OH;
  j->per_row = (double)(p->OW * p->C * p->KH * p->KW);
  p->nt = p->C % 16 == 0 && stream_output(shape_elems(xs) * 4, shape_elems(os) * 4);
}

static void plan_selscat(RwPlan *j, const Instr *in) {
  const Shape *xs = in->operands[0]->shape, *ss = in->operands[1]->shape;
  SelScat *p = &j->ss;
  j->kind = RW_SELSCAT;
  *p = (SelScat){.gt = selscat_dir(in) == 1, .H = xs->dims[1], .W = xs->dims[2], .C = xs->dims[3],
                 .SH = ss->dims[1], .SW = ss->dims[2], .wy = &in->window[1], .wx = &in->window[2]};
  /* no window: every output element is init (filled by the run) */
  j->rows = p->SH == 0 || p->SW == 0 || ss->dims[0] == 0 ? 0 : xs->dims[0] * p->SH;
  j->per_row = (double)(p->W * p->C * p->wy->stride * 2);
}

static void plan_pool(RwPlan *j, const Instr *in) {
  const Shape *xs = in->operands[0]->shape, *os = in->shape;
  Pool *p = &j->pool;
  j->kind = RW_POOL;
  *p = (Pool){.max = simp_reducer_op(in->called[0]) == OP_MAXIMUM, .H = xs->dims[1], .W = xs->dims[2],
              .C = xs->dims[3], .OH = os->dims[1], .OW = os->dims[2], .wy = &in->window[1],
              .wx = &in->window[2]};
  j->rows = os->dims[0] * p->OH;
  j->per_row = (double)(p->OW * p->C * in->window[1].size * in->window[2].size);
  p->nt = p->C % 16 == 0 && stream_output(shape_elems(xs) * 4, shape_elems(os) * 4);
}

cxla_status rt_window_plan(const Instr *in, void **out) {
  bool fwd, excl;
  int d = in->op == OP_REDUCE_WINDOW ? scan_dim(in, &fwd, &excl) : -1;
  if (d < 0 && !rt_window_supported(in))
    return ERR(INTERNAL, "cpu backend: no window routine runs %s %%%s", op_name(in->op), in->name);
  RwPlan *j = cxla_calloc(1, sizeof *j);
  if (!j) return cxla_oom();
  j->isa = isa_level();
  if (d >= 0) plan_scan(j, in, d, fwd, excl);
  else if (in->op == OP_CONVOLUTION) plan_depthwise(j, in);
  else if (in->op == OP_SELECT_AND_SCATTER) plan_selscat(j, in);
  else plan_pool(j, in);
  *out = j;
  return NULL;
}

/* ---- running ---- */

/* A scan: the phases in turn, each split over the threads. */
static cxla_status scan_run(const ExecCtx *cx, RwPlan *j, const Literal *x, const void *init, RVal *o) {
  Scan *p = &j->scan;
  int64_t outer = p->outer, n = p->n, inner = p->inner;
  size_t es = (size_t)type_bytes(p->t);
  p->x = x->data;
  p->o = o->lit.data;
  p->init = init;
  /* the exclusive scan's init row (first, last for a reverse scan) */
  if (p->excl)
    for (int64_t l = 0; l < outer; l++) {
      char *row = (char *)o->lit.data + (size_t)((l * (n + 1) + (p->fwd ? 0 : n)) * inner) * es;
      for (int64_t k = 0; k < inner; k++) memcpy(row + (size_t)k * es, init, es);
    }
  if (x->nelems == 0) return NULL;
  if (n <= kScanB) {
    j->phase = 0;
    return run_rows(cx, j, outer, j->per_row);
  }
  RtPool *pool = cx ? cx->pool : NULL;
  char *m = rt_scratch_alloc(pool, (size_t)(outer * j->per_line) * es);
  if (!m) return cxla_oom();
  p->col = m;
  p->carry = m + (size_t)(outer * p->cols * inner) * es;
  p->pad = m + (size_t)(2 * outer * p->cols * inner) * es;
  p->scratch = m + (size_t)(outer * (2 * p->cols + 2 * kScanB) * inner) * es;
  j->phase = 1;
  cxla_status s = run_rows(cx, j, outer * p->groups, j->group_work / 2);
  j->phase = 2;
  if (!s) s = run_rows(cx, j, outer, j->line_work);
  j->phase = 3;
  if (!s) s = run_rows(cx, j, outer * p->groups, j->group_work);
  rt_scratch_free(pool, m);
  return s;
}

cxla_status rt_window_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out) {
  RwPlan j = *(const RwPlan *)st->plan;
  const Literal *x = &ops[0]->lit;
  RVal *o = NULL;
  /* the caller's result array when the output is one: no copy after */
  TRY(step_output(cx, st, 0, st->in->shape, &o));
  cxla_status s = NULL;
  switch (j.kind) {
  case RW_SCAN: s = scan_run(cx, &j, x, ops[1]->lit.data, o); break;
  case RW_DEPTHWISE:
    j.dw.x = x->data, j.dw.w = ops[1]->lit.data, j.dw.o = o->lit.data;
    j.dw.nt = j.dw.nt && (uintptr_t)j.dw.o % 64 == 0;
    s = run_rows(cx, &j, j.rows, j.per_row);
    break;
  case RW_SELSCAT:
    j.ss.x = x->data, j.ss.src = ops[1]->lit.data, j.ss.o = o->lit.data;
    j.ss.init = *(const float *)ops[2]->lit.data;
    if (j.rows == 0) {
      float *od = o->lit.data;
      for (int64_t i = 0; i < x->nelems; i++) od[i] = j.ss.init;
    }
    s = run_rows(cx, &j, j.rows, j.per_row);
    break;
  default:
    j.pool.x = x->data, j.pool.o = o->lit.data, j.pool.init = *(const float *)ops[1]->lit.data;
    j.pool.nt = j.pool.nt && (uintptr_t)j.pool.o % 64 == 0;
    s = run_rows(cx, &j, j.rows, j.per_row);
    break;
  }
  if (s) {
    rval_unref(o);
    return s;
  }
  *out = o;
  return NULL;
}
