/* Convolutions as matrix products: im2col + BLAS, as XLA:CPU hands its
 * convolutions to a GEMM-based library kernel.
 *
 * For f32 and f64 convolutions with batch_group_count 1, any dim_labels,
 * any number of spatial dims, stride, padding (negative too), lhs and rhs
 * dilation, window reversal and feature groups: per feature group g,
 *   C[r, o] = sum over k of A[r, k] * B_g[k, o]
 * where a row r is one output position (batch n, spatial position os), a
 * column k = window position ks * Ci + input feature i, A[r, k] the input
 * element the window reads there (0 in padding and dilation holes), and
 * B_g[k, o] the kernel element kernel[g*Og + o, i, kr(ks)] (kr: reversed
 * window position where reversal is set). Rows are processed in blocks so
 * the im2col block stays in cache, the blocks split over the execution's
 * threads (the BLAS single-threaded in each); a 1x1 window with unit
 * stride and no padding reads the input directly. Inputs with the features
 * not innermost (NCHW) are transposed once per image; outputs with each
 * image's positions contiguous (NCHW) are written transposed by the GEMM.
 * Two forms take other routes: the weight-gradient form (window nearly the
 * whole input) one GEMM per output position over zero-padded copies
 * (shift_run; f32 with the rhs output features contiguous on an AVX-512
 * CPU: wgrad.c's direct kernel), and transposed convolutions (lhs dilation) one convolution
 * per output phase over the undilated input (phases_run).
 *
 * Semantics follow src/interp/conv.c (the definition) except for summation
 * order and precision: the sum is the BLAS's, in the element type, as
 * XLA:CPU's library convolutions compute it. Operands holding an infinity or
 * NaN take a direct loop that, like the interpreter, skips padding and holes
 * (so 0 * inf never appears where the interpreter has no product). */
#include <cblas.h>
#include <string.h>

#include "cpu/cpu_internal.h"
#include "runtime/scratch.h"

#define CG_MAX_SP 8

typedef struct ConvGemm {
  int nsp;
  size_t es;                       /* element size */
  int64_t N, C, O, Ci, G, Og;      /* batch, input features, out features, per group */
  int64_t KS, OS, K;               /* window positions, output positions, Ci * KS */
  int64_t in_sp[CG_MAX_SP], k_sp[CG_MAX_SP], out_sp[CG_MAX_SP];
  int64_t ls_b, ls_f, ls_sp[CG_MAX_SP];   /* lhs element strides */
  int64_t ks_o, ks_i, ks_sp[CG_MAX_SP];   /* rhs element strides */
  int64_t os_b, os_f, os_sp[CG_MAX_SP];   /* output element strides */
  int64_t kbase, obase;                   /* kernel, output element offsets */
  const WindowDim *w;
} ConvGemm;

static void strides_of(const Shape *s, int64_t *st) {
  int64_t m = 1;
  for (int d = s->rank - 1; d >= 0; d--) {
    st[d] = m;
    m *= s->dims[d];
  }
}

static bool plan(const Instr *in, ConvGemm *p) {
  const ConvDims *cd = &in->conv;
  const Shape *ls = in->operands[0]->shape, *ks = in->operands[1]->shape, *os = in->shape;
  int nsp = cd->nspatial;
  ElemType t = os->type;
  if (t != T_F32 && t != T_F64) return false;
  if (ls->type != t || ks->type != t) return false;
  if (nsp < 0 || nsp > CG_MAX_SP || in->nwindow != nsp) return false;
  if (ls->rank != nsp + 2 || ks->rank != nsp + 2 || os->rank != nsp + 2) return false;
  if (in->batch_group_count != 1 || in->feature_group_count < 1) return false;
  int64_t lst[CG_MAX_SP + 2], kst[CG_MAX_SP + 2], ost[CG_MAX_SP + 2];
  strides_of(ls, lst);
  strides_of(ks, kst);
  strides_of(os, ost);
  p->nsp = nsp;
  p->kbase = p->obase = 0;
  p->es = (size_t)type_bytes(t);
  p->w = in->window;
  p->N = ls->dims[cd->in_batch];
  p->C = ls->dims[cd->in_feature];
  p->O = ks->dims[cd->k_out];
  p->Ci = ks->dims[cd->k_in];
  p->G = in->feature_group_count;
  if (p->C != p->Ci * p->G || p->O % p->G) return false;
  p->Og = p->O / p->G;
  if (os->dims[cd->out_batch] != p->N || os->dims[cd->out_feature] != p->O) return false;
  p->ls_b = lst[cd->in_batch];
  p->ls_f = lst[cd->in_feature];
  p->ks_o = kst[cd->k_out];
  p->ks_i = kst[cd->k_in];
  p->os_b = ost[cd->out_batch];
  p->os_f = ost[cd->out_feature];
  p->KS = p->OS = 1;
  for (int i = 0; i < nsp; i++) {
    const WindowDim *w = &in->window[i];
    if (w->stride < 1 || w->lhs_dilate < 1 || w->rhs_dilate < 1) return false;
    p->in_sp[i] = ls->dims[cd->in_spatial[i]];
    p->k_sp[i] = ks->dims[cd->k_spatial[i]];
    p->out_sp[i] = os->dims[cd->out_spatial[i]];
    if (p->k_sp[i] != w->size) return false;
    p->ls_sp[i] = lst[cd->in_spatial[i]];
    p->ks_sp[i] = kst[cd->k_spatial[i]];
    p->os_sp[i] = ost[cd->out_spatial[i]];
    p->KS *= p->k_sp[i];
    p->OS *= p->out_sp[i];
  }
  p->K = p->KS * p->Ci;
  return p->K > 0 && p->K <= 0x7fffffff && p->Og <= 0x7fffffff;
}

bool conv_gemm_plan_ok(const Instr *in) {
  ConvGemm p;
  if (in->op != OP_CONVOLUTION || !plan(in, &p)) return false;
  /* Worth a GEMM: enough work, and per-group products that are not
   * degenerate (depthwise convolutions stay with the emitter). */
  double work = (double)p.N * (double)p.OS * (double)p.O * (double)p.K;
  return work >= 65536.0 && p.K >= 8 && p.Og >= 4;
}

/* The input index along spatial dim d that output position o and window
 * position k read, or -1 in padding or a dilation hole. */
static inline int64_t in_index(const ConvGemm *p, int d, int64_t o, int64_t k) {
  const WindowDim *w = &p->w[d];
  int64_t u;
  if (__builtin_sub_overflow(o * w->stride + k * w->rhs_dilate, w->pad_lo, &u) || u < 0) return -1;
  if (w->lhs_dilate > 1) {
    if (u % w->lhs_dilate) return -1;
    u /= w->lhs_dilate;
  }
  return u < p->in_sp[d] ? u : -1;
}

/* Splits a row (output position) into batch and spatial indices. */
static void row_coords(const ConvGemm *p, int64_t r, int64_t *n, int64_t *osi) {
  for (int d = p->nsp - 1; d >= 0; d--) {
    osi[d] = r % p->out_sp[d];
    r /= p->out_sp[d];
  }
  *n = r;
}

static void next_window(const ConvGemm *p, int64_t *ksi) {
  for (int d = p->nsp - 1; d >= 0; d--) {
    if (++ksi[d] < p->k_sp[d]) return;
    ksi[d] = 0;
  }
}

/* Offset of the input element (batch n, spatial ksi-window of osi), channel
 * 0, or -1 when the window position falls outside. */
static int64_t input_offset(const ConvGemm *p, int64_t n, const int64_t *osi, const int64_t *ksi) {
  int64_t off = n * p->ls_b;
  for (int d = 0; d < p->nsp; d++) {
    int64_t u = in_index(p, d, osi[d], ksi[d]);
    if (u < 0) return -1;
    off += u * p->ls_sp[d];
  }
  return off;
}

/* Packs kernel group g into B[k = ks * Ci + i][o] (Og columns). */
static void pack_kernel(const ConvGemm *p, const char *ker, int64_t g, char *B) {
  int64_t ksi[CG_MAX_SP] = {0};
  size_t es = p->es;
  for (int64_t kl = 0; kl < p->KS; kl++, next_window(p, ksi)) {
    int64_t koff = p->kbase;
    for (int d = 0; d < p->nsp; d++) {
      int64_t kr = p->w[d].reversal ? p->k_sp[d] - 1 - ksi[d] : ksi[d];
      koff += kr * p->ks_sp[d];
    }
    for (int64_t i = 0; i < p->Ci; i++)
      for (int64_t o = 0; o < p->Og; o++)
        memcpy(B + (size_t)((kl * p->Ci + i) * p->Og + o) * es,
               ker + (size_t)(koff + i * p->ks_i + (g * p->Og + o) * p->ks_o) * es, es);
  }
}

/* Copies the Ci features of group g at input offset off (-1: zeros). */
static inline void copy_features(const ConvGemm *p, const char *x, int64_t g, int64_t off, char *dst) {
  size_t es = p->es, row = (size_t)p->Ci * es;
  if (off < 0 && es == 4 && p->Ci <= 16) {
    for (int64_t i = 0; i < p->Ci; i++) ((float *)dst)[i] = 0.0f;
  } else if (off < 0) {
    memset(dst, 0, row);
  } else if (p->ls_f == 1 && es == 4 && p->Ci <= 16) {
    /* a few features (an image's channels): inline copies, not a call
     * per window position */
    const float *s = (const float *)x + off + g * p->Ci;
    for (int64_t i = 0; i < p->Ci; i++) ((float *)dst)[i] = s[i];
  } else if (p->ls_f == 1) {
    memcpy(dst, x + (size_t)(off + g * p->Ci) * es, row);
  } else {
    for (int64_t i = 0; i < p->Ci; i++)
      memcpy(dst + (size_t)i * es, x + (size_t)(off + (g * p->Ci + i) * p->ls_f) * es, es);
  }
}

#define IM2COL_TAPS 32 /* window extents up to this take the tabled loop */

/* im2col of rows [r0, r1) for group g into A (K columns). With window
 * extents up to IM2COL_TAPS, each row first tables its input offset per
 * dim and window position (-1 outside), so a window position costs one
 * addition per dim. */
static void im2col(const ConvGemm *p, const char *x, int64_t g, int64_t r0, int64_t r1, char *A) {
  size_t es = p->es, row = (size_t)p->Ci * es;
  bool tabled = true;
  for (int d = 0; d < p->nsp; d++) tabled &= p->k_sp[d] <= IM2COL_TAPS;
  for (int64_t r = r0; r < r1; r++) {
    int64_t n, osi[CG_MAX_SP], ksi[CG_MAX_SP] = {0};
    row_coords(p, r, &n, osi);
    char *dst = A + (size_t)((r - r0) * p->K) * es;
    if (!tabled) {
      for (int64_t kl = 0; kl < p->KS; kl++, next_window(p, ksi), dst += row)
        copy_features(p, x, g, input_offset(p, n, osi, ksi), dst);
      continue;
    }
    int64_t tab[CG_MAX_SP][IM2COL_TAPS];
    for (int d = 0; d < p->nsp; d++)
      for (int64_t k = 0; k < p->k_sp[d]; k++) {
        int64_t u = in_index(p, d, osi[d], k);
        tab[d][k] = u < 0 ? -1 : u * p->ls_sp[d];
      }
    for (int64_t kl = 0; kl < p->KS; kl++, next_window(p, ksi), dst += row) {
      int64_t off = n * p->ls_b;
      for (int d = 0; d < p->nsp && off >= 0; d++) off = tab[d][ksi[d]] < 0 ? -1 : off + tab[d][ksi[d]];
      copy_features(p, x, g, off, dst);
    }
  }
}

/* Output offset of row r, feature 0. */
static int64_t out_offset(const ConvGemm *p, int64_t r) {
  int64_t n, osi[CG_MAX_SP];
  row_coords(p, r, &n, osi);
  int64_t off = p->obase + n * p->os_b;
  for (int d = 0; d < p->nsp; d++) off += osi[d] * p->os_sp[d];
  return off;
}

/* Whether output rows are contiguous with the features innermost: row r,
 * feature f at r * O + f. */
static bool out_rows_linear(const ConvGemm *p) {
  if (p->os_f != 1) return false;
  int64_t m = p->O;
  for (int d = p->nsp - 1; d >= 0; d--) {
    if (p->out_sp[d] > 1 && p->os_sp[d] != m) return false;
    m *= p->out_sp[d];
  }
  return p->N <= 1 || p->os_b == m;
}

/* A 1x1 window with unit stride, no padding or dilation over an input whose
 * rows (batch, spatial) are contiguous with features innermost: A is the
 * input itself, lda = C. */
static bool input_is_a(const ConvGemm *p) {
  if (p->KS != 1 || p->ls_f != 1) return false;
  int64_t m = p->C;
  for (int d = p->nsp - 1; d >= 0; d--) {
    const WindowDim *w = &p->w[d];
    if (w->stride != 1 || w->pad_lo || w->pad_hi || w->lhs_dilate != 1 || w->reversal) return false;
    if (p->in_sp[d] != p->out_sp[d]) return false;
    if (p->in_sp[d] > 1 && p->ls_sp[d] != m) return false;
    m *= p->in_sp[d];
  }
  return p->N <= 1 || p->ls_b == m;
}

static void gemm(const ConvGemm *p, int M, const char *A, int lda, const char *B, char *Cm, int ldc) {
  int N = (int)p->Og, K = (int)p->K;
  if (p->es == 4)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, (const float *)A, lda,
                (const float *)B, N, 0.0f, (float *)Cm, ldc);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0, (const double *)A, lda,
                (const double *)B, N, 0.0, (double *)Cm, ldc);
}

/* The direct loop for operands with infinities or NaNs: sums only the
 * products the interpreter forms, in double. */
static void conv_direct(const ConvGemm *p, const char *x, const char *ker, char *out) {
  int64_t rows = p->N * p->OS;
  for (int64_t r = 0; r < rows; r++) {
    int64_t n, osi[CG_MAX_SP];
    row_coords(p, r, &n, osi);
    int64_t ooff = out_offset(p, r);
    for (int64_t o = 0; o < p->O; o++) {
      int64_t g = o / p->Og, ksi[CG_MAX_SP] = {0};
      double acc = 0;
      for (int64_t kl = 0; kl < p->KS; kl++, next_window(p, ksi)) {
        int64_t off = input_offset(p, n, osi, ksi);
        if (off < 0) continue;
        int64_t koff = o * p->ks_o;
        for (int d = 0; d < p->nsp; d++)
          koff += (p->w[d].reversal ? p->k_sp[d] - 1 - ksi[d] : ksi[d]) * p->ks_sp[d];
        for (int64_t i = 0; i < p->Ci; i++) {
          int64_t xi = off + (g * p->Ci + i) * p->ls_f, ki = koff + i * p->ks_i;
          if (p->es == 4) acc += (double)((const float *)x)[xi] * (double)((const float *)ker)[ki];
          else acc += ((const double *)x)[xi] * ((const double *)ker)[ki];
        }
      }
      int64_t at = ooff + o * p->os_f;
      if (p->es == 4) ((float *)out)[at] = (float)acc;
      else ((double *)out)[at] = acc;
    }
  }
}

/* Whether the execution splits convolutions over threads. */
static bool splits(const ExecCtx *cx) {
  return cx && cx->pool && cx->nthreads > 1;
}

/* Runs fn over [0, n) on the execution's threads (OpenBLAS runs on one
 * thread in each: blas_threads.c). */
static cxla_status split_blas(const ExecCtx *cx, int64_t n, RtSliceFn fn, void *arg) {
  if (!splits(cx) || n <= 1) return fn(arg, 0, n);
  return rt_pool_parallel_for(cx->pool, n, 1, cx->nthreads, fn, arg);
}

/* ---- window-sum convolutions as one GEMM per output position ----
 * The weight-gradient form (XLA's filter gradient: the window covers
 * nearly all of the input, a few output positions, the batch contracted):
 * with stride 1 and no dilation or reversal, output position os reads the
 * input at os + ks - pad_lo. In a zero-padded copy of the input laid out
 * [Ci][padded spatial...][N] and a kernel copy laid out [Ci][padded
 * spatial...][O] (zero outside the window), that read is one row shift:
 *   out[n, os, o] = sum over rows r of Xp[r + shift(os), n] * Kp[r, o]
 * a GEMM per output position with no im2col; the zero rows of Kp cancel
 * the rows that wrap into the next input line or feature. */

/* Whether p takes the shifted path: one group, stride 1, no dilation or
 * reversal, no negative padding, and a window much larger than the output
 * (im2col would repeat the input once per output position): the padding
 * adds at most half the window's products. */
static bool shift_ok(const ConvGemm *p) {
  if (p->G != 1) return false;
  for (int d = 0; d < p->nsp; d++) {
    const WindowDim *w = &p->w[d];
    if (w->stride != 1 || w->lhs_dilate != 1 || w->rhs_dilate != 1 || w->reversal || w->pad_lo < 0 ||
        w->pad_hi < 0 || p->out_sp[d] != p->in_sp[d] + w->pad_lo + w->pad_hi - p->k_sp[d] + 1)
      return false;
  }
  /* the padded extents' product, over the window's: the GEMMs' extra work */
  double S = 1;
  for (int d = 0; d < p->nsp; d++) S *= (double)(p->in_sp[d] + p->w[d].pad_lo + p->w[d].pad_hi);
  return p->OS > 1 && 2 * S <= 3 * (double)p->KS && p->N <= 0x7fffffff && p->O <= 0x7fffffff;
}

/* The shifted path's state: padded extents P (strides pst, product S),
 * the input's low padding lo, the padded copies, the contraction length
 * K, the output. */
typedef struct ShiftJob {
  const ConvGemm *p;
  const char *x, *ker;
  int64_t P[CG_MAX_SP], pst[CG_MAX_SP], lo[CG_MAX_SP], S, K;
  char *Xp, *Kp, *out;
  bool direct_c;
  RtPool *pool; /* the scratch's (rt_scratch_alloc), or NULL */
} ShiftJob;

/* Copies one feature's rows of an operand into its padded copy: the row
 * at spatial position sp (extents ext, source strides sst) goes to padded
 * position sp + lo (strides pst), its cnt elements (source stride cst)
 * contiguous. */
static void pack_rows(const ConvGemm *p, const char *src, const int64_t *ext, const int64_t *sst,
                      const int64_t *lo, int64_t cnt, int64_t cst, const int64_t *pst, char *dst) {
  size_t es = p->es;
  int64_t sp[CG_MAX_SP] = {0};
  for (bool more = true; more;) {
    int64_t so = 0, dof = 0;
    for (int d = 0; d < p->nsp; d++) {
      so += sp[d] * sst[d];
      dof += (sp[d] + lo[d]) * pst[d];
    }
    char *row = dst + (size_t)(dof * cnt) * es;
    if (cst == 1) memcpy(row, src + (size_t)so * es, (size_t)cnt * es);
    else
      for (int64_t e = 0; e < cnt; e++) memcpy(row + (size_t)e * es, src + (size_t)(so + e * cst) * es, es);
    more = false;
    for (int d = p->nsp - 1; d >= 0; d--) {
      if (++sp[d] < ext[d]) {
        more = true;
        break;
      }
      sp[d] = 0;
    }
  }
}

/* Input features [i0, i1) of the zero-padded copies (see above). */
static cxla_status shift_pack(void *arg, int64_t i0, int64_t i1) {
  const ShiftJob *j = arg;
  const ConvGemm *p = j->p;
  size_t es = p->es;
  int64_t S = j->S, zero[CG_MAX_SP] = {0};
  memset(j->Xp + (size_t)(i0 * S * p->N) * es, 0, (size_t)((i1 - i0) * S * p->N) * es);
  memset(j->Kp + (size_t)(i0 * S * p->O) * es, 0, (size_t)((i1 - i0) * S * p->O) * es);
  for (int64_t i = i0; i < i1; i++) {
    pack_rows(p, j->x + (size_t)(i * p->ls_f) * es, p->in_sp, p->ls_sp, j->lo, p->N, p->ls_b, j->pst,
              j->Xp + (size_t)(i * S * p->N) * es);
    pack_rows(p, j->ker + (size_t)(i * p->ks_i) * es, p->k_sp, p->ks_sp, zero, p->O, p->ks_o, j->pst,
              j->Kp + (size_t)(i * S * p->O) * es);
  }
  return NULL;
}

/* Output positions [q0, q1): one GEMM each. */
static cxla_status shift_gemms(void *arg, int64_t q0, int64_t q1) {
  const ShiftJob *j = arg;
  const ConvGemm *p = j->p;
  size_t es = p->es;
  char *Cb = j->direct_c ? NULL : rt_scratch_alloc(j->pool, (size_t)(p->N * p->O) * es);
  if (!j->direct_c && !Cb) return cxla_oom();
  for (int64_t q = q0; q < q1; q++) {
    int64_t shift = 0, ooff = 0, r = q;
    for (int d = p->nsp - 1; d >= 0; d--) {
      int64_t od = r % p->out_sp[d];
      r /= p->out_sp[d];
      shift += od * j->pst[d];
      ooff += od * p->os_sp[d];
    }
    const char *A = j->Xp + (size_t)(shift * p->N) * es;
    char *Cm = j->direct_c ? j->out + (size_t)ooff * es : Cb;
    int ldc = j->direct_c ? (int)(p->N <= 1 ? p->O : p->os_b) : (int)p->O;
    int M = (int)p->N, Nn = (int)p->O, Kk = (int)j->K;
    if (es == 4)
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M, Nn, Kk, 1.0f, (const float *)A, M,
                  (const float *)j->Kp, Nn, 0.0f, (float *)Cm, ldc);
    else
      cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M, Nn, Kk, 1.0, (const double *)A, M,
                  (const double *)j->Kp, Nn, 0.0, (double *)Cm, ldc);
    if (!j->direct_c)
      for (int64_t n = 0; n < p->N; n++)
        for (int64_t o = 0; o < p->O; o++)
          memcpy(j->out + (size_t)(ooff + n * p->os_b + o * p->os_f) * es, Cb + (size_t)(n * p->O + o) * es, es);
  }
  rt_scratch_free(j->pool, Cb);
  return NULL;
}

/* The direct weight-gradient kernel's view of a shift_ok plan (wgrad.c):
 * f32, one or two spatial dims, the rhs output features contiguous, on a
 * CPU with AVX-512F or AVX2; false where it does not apply. */
static bool wgrad_plan(const ConvGemm *p, WgradConv *w) {
  if (p->es != 4 || p->nsp < 1 || p->nsp > 2 || p->ks_o != 1 || !wgrad_available()) return false;
  int h = p->nsp == 2 ? 0 : -1, x = p->nsp - 1;
  *w = (WgradConv){.B = p->N, .F = p->Ci, .O = p->O, .H = 1, .KH = 1, .OH = 1,
                   .W = p->in_sp[x], .KW = p->k_sp[x], .OW = p->out_sp[x], .pw = p->w[x].pad_lo,
                   .lb = p->ls_b, .lf = p->ls_f, .lw = p->ls_sp[x], .ri = p->ks_i, .rw = p->ks_sp[x],
                   .os_w = p->os_sp[x], .os_b = p->os_b, .os_o = p->os_f};
  if (h == 0) {
    w->H = p->in_sp[0], w->KH = p->k_sp[0], w->OH = p->out_sp[0], w->ph = p->w[0].pad_lo;
    w->lh = p->ls_sp[0], w->rh = p->ks_sp[0], w->os_h = p->os_sp[0];
  }
  return true;
}

static cxla_status shift_run(const ExecCtx *cx, const ConvGemm *p, const char *x, const char *ker, char *out) {
  size_t es = p->es;
  ShiftJob j = {.p = p, .x = x, .ker = ker, .out = out, .S = 1, .pool = cx ? cx->pool : NULL};
  for (int d = 0; d < p->nsp; d++) {
    j.lo[d] = p->w[d].pad_lo;
    j.P[d] = p->in_sp[d] + p->w[d].pad_lo + p->w[d].pad_hi;
    j.S *= j.P[d];
  }
  for (int d = p->nsp - 1; d >= 0; d--) j.pst[d] = d == p->nsp - 1 ? 1 : j.pst[d + 1] * j.P[d + 1];
  /* rows up to the last nonzero kernel row: the shifted reads stay inside
   * Xp (window + output extents = padded extents + 1 per dim) */
  int64_t klast = 0;
  for (int d = 0; d < p->nsp; d++) klast += (p->k_sp[d] - 1) * j.pst[d];
  j.K = (p->Ci - 1) * j.S + klast + 1;
  if (j.K > 0x7fffffff) return ERR(INTERNAL, "cpu backend: convolution contraction too long");
  j.direct_c = p->os_f == 1 && (p->N <= 1 || p->os_b >= p->O) && p->os_b <= 0x7fffffff;
  j.Xp = rt_scratch_alloc(j.pool, (size_t)(p->Ci * j.S * p->N) * es);
  j.Kp = rt_scratch_alloc(j.pool, (size_t)(p->Ci * j.S * p->O) * es);
  cxla_status st = !j.Xp || !j.Kp ? cxla_oom() : NULL;
  if (!st && splits(cx) && p->Ci > 1)
    st = rt_pool_parallel_for(cx->pool, p->Ci, 1, cx->nthreads, shift_pack, &j);
  else if (!st)
    st = shift_pack(&j, 0, p->Ci);
  if (!st) st = split_blas(cx, p->OS, shift_gemms, &j);
  rt_scratch_free(j.pool, j.Xp);
  rt_scratch_free(j.pool, j.Kp);
  return st;
}

/* One im2col + GEMM job over row blocks of R rows, feature group g. */
typedef struct BlockJob {
  const ConvGemm *p;
  const char *x, *B;
  char *o;
  int64_t g, R, rows;
  bool direct_a, linear;
  /* tout: the output is written transposed by the GEMM (features outer,
   * each image's spatial positions contiguous, as NCHW); blocks then stay
   * within one image, bpi blocks per image */
  bool tout;
  int64_t bpi;
  RtPool *pool; /* the scratch's (rt_scratch_alloc), or NULL */
} BlockJob;

/* Whether the output's spatial positions of one image are contiguous
 * (stride 1, row-major) with the features strided by at least R. */
static bool out_planes_linear(const ConvGemm *p, int64_t R) {
  if (p->os_f == 1 || p->obase != 0 || p->os_f < R || p->os_f > 0x7fffffff) return false;
  int64_t m = 1;
  for (int d = p->nsp - 1; d >= 0; d--) {
    if (p->out_sp[d] > 1 && p->os_sp[d] != m) return false;
    m *= p->out_sp[d];
  }
  return true;
}

/* C[j, s] = sum over k of B[k, j] * A[s, k]: the GEMM's result transposed,
 * M rows of A, into Cm with row stride ldc. */
static void gemm_t(const ConvGemm *p, int M, const char *A, int lda, const char *B, char *Cm, int ldc) {
  int N = (int)p->Og, K = (int)p->K;
  if (p->es == 4)
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasTrans, N, M, K, 1.0f, (const float *)B, N, (const float *)A, lda,
                0.0f, (float *)Cm, ldc);
  else
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, N, M, K, 1.0, (const double *)B, N, (const double *)A, lda,
                0.0, (double *)Cm, ldc);
}

/* Blocks [b0, b1) of a job, with their own im2col and output buffers. */
static cxla_status block_slice(void *arg, int64_t b0, int64_t b1) {
  const BlockJob *j = arg;
  const ConvGemm *p = j->p;
  size_t es = p->es;
  int64_t g = j->g, R = j->R;
  bool cb = !j->linear && !j->tout;
  char *A = j->direct_a ? NULL : rt_scratch_alloc(j->pool, (size_t)(R * p->K) * es);
  char *Cb = cb ? rt_scratch_alloc(j->pool, (size_t)(R * p->Og) * es) : NULL;
  if ((!j->direct_a && !A) || (cb && !Cb)) {
    rt_scratch_free(j->pool, A);
    rt_scratch_free(j->pool, Cb);
    return cxla_oom();
  }
  for (int64_t b = b0; b < b1; b++) {
    int64_t r0 = b * R, r1 = r0 + R < j->rows ? r0 + R : j->rows;
    if (j->tout) {
      int64_t n = b / j->bpi, s0 = b % j->bpi * R;
      r0 = n * p->OS + s0;
      r1 = r0 + (s0 + R < p->OS ? R : p->OS - s0);
    }
    const char *Ablk;
    int lda;
    if (j->direct_a) {
      Ablk = j->x + (size_t)(r0 * p->C + g * p->Ci) * es;
      lda = (int)p->C;
    } else {
      im2col(p, j->x, g, r0, r1, A);
      Ablk = A;
      lda = (int)p->K;
    }
    if (j->linear) {
      gemm(p, (int)(r1 - r0), Ablk, lda, j->B, j->o + (size_t)(r0 * p->O + g * p->Og) * es, (int)p->O);
      continue;
    }
    if (j->tout) {
      int64_t n = r0 / p->OS;
      char *dst = j->o + (size_t)(n * p->os_b + g * p->Og * p->os_f + (r0 - n * p->OS)) * es;
      gemm_t(p, (int)(r1 - r0), Ablk, lda, j->B, dst, (int)p->os_f);
      continue;
    }
    gemm(p, (int)(r1 - r0), Ablk, lda, j->B, Cb, (int)p->Og);
    for (int64_t r = r0; r < r1; r++) {
      int64_t base = out_offset(p, r) + g * p->Og * p->os_f;
      const char *src = Cb + (size_t)((r - r0) * p->Og) * es;
      if (p->os_f == 1) {
        memcpy(j->o + (size_t)base * es, src, (size_t)p->Og * es);
        continue;
      }
      for (int64_t k = 0; k < p->Og; k++)
        memcpy(j->o + (size_t)(base + k * p->os_f) * es, src + (size_t)k * es, es);
    }
  }
  rt_scratch_free(j->pool, A);
  rt_scratch_free(j->pool, Cb);
  return NULL;
}

/* ---- the direct convolution (dconv.c) ----
 * f32, one feature group, 1 or 2 spatial dims, no lhs dilation (phases_run
 * undilates transposed convolutions first), at least 16 output features
 * (one vector), any number of input features (with one, a strip's
 * pointers cost about as much as its products, yet it is 3x faster than
 * im2col's per-position copies and a GEMM with 9 terms), no more window
 * positions than output
 * positions (the weight-gradient form stays with the GEMMs), on a machine
 * with AVX-512. What the plan and its phases
 * share: conv_gemm_count counts by it. */
static bool direct_ok(const ConvGemm *p) {
  return p->es == 4 && p->G == 1 && p->nsp >= 1 && p->nsp <= 2 && p->O >= 16 && p->Ci >= 1 && p->KS <= p->OS &&
         dconv_available();
}

/* The direct plan of p; false where a window dim has lhs dilation, or
 * the input features are not innermost (ls_f 1) and Winograd does not
 * apply (it stages input rows channels-last itself). Reversal becomes a
 * negative kernel stride. */
static bool direct_plan(const ConvGemm *p, DConvPlan *d) {
  if (!direct_ok(p)) return false;
  int64_t ext[3][2] = {{1, 1}, {1, 1}, {1, 1}}; /* in, window, out; H then W */
  int64_t sd[3][2] = {{1, 1}, {0, 0}, {1, 1}};  /* stride, pad_lo, dilation */
  int64_t xs[2] = {0, 0}, ks[2] = {0, 0}, os[2] = {0, 0}, kbase = p->kbase;
  for (int i = 0; i < p->nsp; i++) {
    const WindowDim *w = &p->w[i];
    if (w->lhs_dilate != 1) return false;
    int e = i + 2 - p->nsp; /* 1-D: W */
    ext[0][e] = p->in_sp[i];
    ext[1][e] = p->k_sp[i];
    ext[2][e] = p->out_sp[i];
    sd[0][e] = w->stride;
    sd[1][e] = w->pad_lo;
    sd[2][e] = w->rhs_dilate;
    xs[e] = p->ls_sp[i];
    ks[e] = w->reversal ? -p->ks_sp[i] : p->ks_sp[i];
    if (w->reversal) kbase += (p->k_sp[i] - 1) * p->ks_sp[i];
    os[e] = p->os_sp[i];
  }
  *d = (DConvPlan){.N = p->N, .C = p->C, .O = p->O, .H = ext[0][0], .W = ext[0][1], .KH = ext[1][0],
                   .KW = ext[1][1], .OH = ext[2][0], .OW = ext[2][1], .sh = sd[0][0], .sw = sd[0][1],
                   .ph = sd[1][0], .pw = sd[1][1], .dh = sd[2][0], .dw = sd[2][1], .xs_b = p->ls_b,
                   .xs_h = xs[0], .xs_w = xs[1], .ks_i = p->ks_i, .ks_o = p->ks_o, .ks_h = ks[0],
                   .ks_w = ks[1], .kbase = kbase, .os_b = p->os_b, .os_f = p->os_f, .os_h = os[0],
                   .os_w = os[1], .obase = p->obase, .xs_c = p->ls_f};
  return p->ls_f == 1 || dconv_winograd(d);
}

/* im2col + GEMM over row blocks for a plan whose input has the features
 * innermost (ls_f 1), the blocks split over the execution's threads. */
static cxla_status gemm_blocks(const ExecCtx *cx, const ConvGemm *p, const char *x, const char *ker, char *o) {
  DConvPlan dp;
  if (direct_plan(p, &dp)) return dconv_run(cx, &dp, (const float *)x, (const float *)ker, (float *)o);
  size_t es = p->es;
  int64_t rows = p->N * p->OS;
  int threads = splits(cx) ? cx->nthreads : 1;
  BlockJob j = {.p = p, .x = x, .o = o, .rows = rows, .direct_a = input_is_a(p),
                .linear = out_rows_linear(p) && p->obase == 0, .pool = cx ? cx->pool : NULL};
  /* rows per block: the im2col block near 1 MiB, at least 64 rows, and
   * about four blocks per thread where there are enough rows */
  int64_t R = j.direct_a ? rows : (int64_t)((1u << 20) / ((size_t)p->K * es));
  if (threads > 1 && R > (rows + 4 * threads - 1) / (4 * threads)) R = (rows + 4 * threads - 1) / (4 * threads);
  if (R < 64) R = 64;
  if (R > rows) R = rows;
  if (R > 0x7fffffff) R = 0x7fffffff;
  j.R = R;
  int64_t nblocks = (rows + R - 1) / R;
  if (!j.linear && out_planes_linear(p, R < p->OS ? R : p->OS)) {
    j.tout = true;
    j.bpi = (p->OS + R - 1) / R;
    nblocks = p->N * j.bpi;
  }
  char *B = rt_scratch_alloc(j.pool, (size_t)(p->K * p->Og) * es);
  if (!B) return cxla_oom();
  j.B = B;
  cxla_status st = NULL;
  for (int64_t g = 0; g < p->G && !st; g++) {
    pack_kernel(p, ker, g, B);
    j.g = g;
    st = split_blas(cx, nblocks, block_slice, &j);
  }
  rt_scratch_free(j.pool, B);
  return st;
}

/* ---- transposed convolutions (lhs dilation) by output phase ----
 * With lhs dilation D (stride 1, no rhs dilation), output position
 * o = D*q + f (phase f in [0, D)) only meets the window taps
 * k = k0 + D*t with k0 = (pad_lo - f) mod D, reading undilated input
 * q + t + c, c = (f + k0 - pad_lo) / D: per phase combination an ordinary
 * stride-1 convolution over the undilated input with a sub-kernel, no
 * products with dilation holes (D^nsp times fewer than im2col over the
 * dilated input). Phases without taps are zeros. */
static bool phases_ok(const ConvGemm *p) {
  bool any = false;
  for (int d = 0; d < p->nsp; d++) {
    const WindowDim *w = &p->w[d];
    if (w->stride != 1 || w->rhs_dilate != 1) return false;
    any |= w->lhs_dilate > 1;
  }
  return any;
}

/* The phase-f plan of dimension d (see above) into q (whose w is wq):
 * false when the phase has no output positions. *taps: whether it has
 * window taps. */
static bool phase_dim(const ConvGemm *p, int d, int64_t f, ConvGemm *q, WindowDim *wq, bool *taps) {
  const WindowDim *w = &p->w[d];
  int64_t D = w->lhs_dilate, K = p->k_sp[d], O = p->out_sp[d];
  int64_t Q = f < O ? (O - f + D - 1) / D : 0;
  if (Q == 0) return false;
  int64_t k0 = ((w->pad_lo - f) % D + D) % D;
  int64_t T = k0 < K ? (K - k0 + D - 1) / D : 0;
  int64_t c = (f + k0 - w->pad_lo) / D;
  *taps = *taps && T > 0;
  *wq = (WindowDim){.size = T, .stride = 1, .pad_lo = -c, .pad_hi = Q + T - 1 + c - p->in_sp[d],
                    .lhs_dilate = 1, .rhs_dilate = 1, .reversal = false};
  q->k_sp[d] = T;
  q->out_sp[d] = Q;
  q->ks_sp[d] = (w->reversal ? -D : D) * p->ks_sp[d];
  q->kbase += (w->reversal ? K - 1 - k0 : k0) * p->ks_sp[d];
  q->os_sp[d] = D * p->os_sp[d];
  q->obase += f * p->os_sp[d];
  return true;
}

/* Zeros the output positions of plan q (a phase with no taps). */
static void zero_rows(const ConvGemm *q, char *o) {
  int64_t rows = q->N * q->OS;
  for (int64_t r = 0; r < rows; r++) {
    int64_t base = out_offset(q, r);
    for (int64_t j = 0; j < q->O; j++) memset(o + (size_t)(base + j * q->os_f) * q->es, 0, q->es);
  }
}

static cxla_status phases_run(const ExecCtx *cx, const ConvGemm *p, const char *x, const char *ker, char *o) {
  int64_t nph = 1, f[CG_MAX_SP] = {0};
  for (int d = 0; d < p->nsp; d++) nph *= p->w[d].lhs_dilate;
  for (int64_t ph = 0; ph < nph; ph++) {
    ConvGemm q = *p;
    WindowDim wq[CG_MAX_SP];
    bool live = true, taps = true;
    for (int d = 0; d < p->nsp && live; d++) live = phase_dim(p, d, f[d], &q, &wq[d], &taps);
    for (int d = p->nsp - 1; d >= 0; d--) {
      if (++f[d] < p->w[d].lhs_dilate) break;
      f[d] = 0;
    }
    if (!live) continue;
    q.w = wq;
    q.KS = q.OS = 1;
    for (int d = 0; d < q.nsp; d++) {
      q.KS *= q.k_sp[d];
      q.OS *= q.out_sp[d];
    }
    q.K = q.KS * q.Ci;
    if (!taps) zero_rows(&q, o);
    else TRY(gemm_blocks(cx, &q, x, ker, o));
  }
  return NULL;
}

/* The features-innermost copy of an input (see conv_gemm_run). */
typedef struct RepackJob {
  const ConvGemm *p;
  const char *x;
  char *xp;
  int64_t S; /* spatial positions */
} RepackJob;

/* Whether the spatial positions of one input feature plane are contiguous
 * (stride 1, row-major). */
static bool in_planes_linear(const ConvGemm *p) {
  int64_t m = 1;
  for (int d = p->nsp - 1; d >= 0; d--) {
    if (p->in_sp[d] > 1 && p->ls_sp[d] != m) return false;
    m *= p->in_sp[d];
  }
  return true;
}

/* Transposes [C][S] planes (source row stride ls_f) to [S][C], in tiles
 * of 32 spatial positions. */
#define TRANSPOSE_PLANES(T)                                                      \
  do {                                                                           \
    const T *src = (const T *)x;                                                 \
    T *dst = (T *)xp;                                                            \
    for (int64_t s0 = 0; s0 < S; s0 += 32) {                                     \
      int64_t s1 = s0 + 32 < S ? s0 + 32 : S;                                    \
      for (int64_t c = 0; c < C; c++)                                            \
        for (int64_t sl = s0; sl < s1; sl++) dst[sl * C + c] = src[c * lsf + sl]; \
    }                                                                            \
  } while (0)

static cxla_status repack_slice(void *arg, int64_t n0, int64_t n1) {
  const RepackJob *j = arg;
  const ConvGemm *p = j->p;
  size_t es = p->es;
  int64_t S = j->S, C = p->C, lsf = p->ls_f;
  bool planes = in_planes_linear(p);
  for (int64_t n = n0; n < n1; n++) {
    const char *x = j->x + (size_t)(n * p->ls_b) * es;
    char *xp = j->xp + (size_t)(n * S * C) * es;
    if (planes && es == 4) {
      TRANSPOSE_PLANES(float);
      continue;
    }
    if (planes && es == 8) {
      TRANSPOSE_PLANES(double);
      continue;
    }
    for (int64_t c = 0; c < C; c++) {
      int64_t sp[CG_MAX_SP] = {0};
      for (int64_t sl = 0; sl < S; sl++) {
        int64_t off = c * lsf;
        for (int d = 0; d < p->nsp; d++) off += sp[d] * p->ls_sp[d];
        memcpy(xp + (size_t)(sl * C + c) * es, x + (size_t)off * es, es);
        for (int d = p->nsp - 1; d >= 0; d--) {
          if (++sp[d] < p->in_sp[d]) break;
          sp[d] = 0;
        }
      }
    }
  }
  return NULL;
}

void conv_gemm_count(const Instr *in, CpuCompileStats *stats) {
  ConvGemm p;
  if (!plan(in, &p)) return;
  stats->nconvs++;
  if (shift_ok(&p)) {
    WgradConv w;
    stats->nconvs_shift++;
    stats->nconvs_wgrad += wgrad_plan(&p, &w);
    return;
  }
  bool phased = phases_ok(&p), dilated = false;
  for (int d = 0; d < p.nsp; d++) dilated |= p.w[d].lhs_dilate > 1;
  if (phased) stats->nconvs_phased++;
  if (direct_ok(&p) && (phased || !dilated)) stats->nconvs_direct++;
  /* as conv_gemm_run repacks the input features innermost */
  ConvGemm q = p;
  q.ls_f = 1;
  DConvPlan d;
  if (!phased && direct_plan(&q, &d) && dconv_winograd(&d)) stats->nconvs_winograd++;
}

cxla_status conv_gemm_run(const ExecCtx *cx, const Instr *in, RVal *lhs, RVal *rhs, RVal **out) {
  const Shape *s = in->shape;
  TRY(cx ? rval_array_x(cx, s->type, s->rank, s->dims, out)
         : rval_array_in(NULL, s->type, s->rank, s->dims, out));
  cxla_status st = conv_gemm_run_into(cx, in, lhs, rhs, *out);
  if (st) {
    rval_unref(*out);
    *out = NULL;
  }
  return st;
}

cxla_status conv_gemm_run_into(const ExecCtx *cx, const Instr *in, RVal *lhs, RVal *rhs, RVal *out) {
  ConvGemm p;
  if (!plan(in, &p)) return ERR(INTERNAL, "cpu backend: convolution %%%s is not a GEMM convolution", in->name);
  if (out->lit.type != in->shape->type || out->lit.nelems != shape_elems(in->shape))
    return ERR(INTERNAL, "cpu backend: convolution %%%s: output of the wrong shape", in->name);
  char *o = out->lit.data;
  const char *x = lhs->lit.data, *ker = rhs->lit.data;
  size_t es = p.es;
  if (p.N * p.OS == 0 || p.O == 0) return NULL;
  /* the scan split over the execution's threads (an input of megabytes) */
  RtPool *pool = cx ? cx->pool : NULL;
  int nth = cx && cx->nthreads > 1 ? cx->nthreads : 1;
  WgradConv w;
  if (shift_ok(&p) && wgrad_plan(&p, &w) && wgrad_all_taps(&w)) {
    /* No scan of the operands (megabytes, for an output of a few hundred
     * values): the kernel takes every product, the padding's zeros too,
     * so infinities and NaNs propagate; only where a non-finite rhs value
     * meets the padding does it give NaN (0 x inf) where the interpreter
     * skips the tap. A NaN anywhere in the result: run again on the
     * direct loop. */
    TRY(wgrad_run(cx, &w, (const float *)x, (const float *)ker, (float *)o));
    const float *r = (const float *)o;
    for (int64_t i = 0; i < out->lit.nelems; i++)
      if (r[i] != r[i]) {
        conv_direct(&p, x, ker, o);
        break;
      }
    return NULL;
  }
  if (!rval_all_finite_on(lhs, 1, pool, nth) || !rval_all_finite_on(rhs, 1, pool, nth)) {
    conv_direct(&p, x, ker, o);
    return NULL;
  }
  cxla_status st = NULL;
  char *xp = NULL;
  if (shift_ok(&p) && wgrad_plan(&p, &w)) {
    st = wgrad_run(cx, &w, (const float *)x, (const float *)ker, (float *)o);
    goto done;
  }
  if (shift_ok(&p)) {
    st = shift_run(cx, &p, x, ker, o);
    goto done;
  }
  DConvPlan dp;
  if (p.ls_f != 1 && !phases_ok(&p) && direct_plan(&p, &dp)) {
    /* Winograd over features not innermost (NCHW): it stages the input
     * rows each tile row reads channels-last, in cache */
    st = dconv_run(cx, &dp, (const float *)x, (const float *)ker, (float *)o);
    goto done;
  }
  if (p.ls_f != 1) {
    /* features not innermost (NCHW): one pass to [batch][spatial...][C] so
     * that im2col copies contiguous channel runs */
    RepackJob rj = {.p = &p, .x = x, .S = 1};
    for (int d = 0; d < p.nsp; d++) rj.S *= p.in_sp[d];
    if (!(xp = rt_scratch_alloc(pool, (size_t)(p.N * rj.S * p.C) * es))) {
      st = cxla_oom();
      goto done;
    }
    rj.xp = xp;
    if (splits(cx) && p.N > 1)
      st = rt_pool_parallel_for(cx->pool, p.N, 1, cx->nthreads, repack_slice, &rj);
    else
      st = repack_slice(&rj, 0, p.N);
    if (st) goto done;
    int64_t m = p.C;
    for (int d = p.nsp - 1; d >= 0; d--) {
      p.ls_sp[d] = m;
      m *= p.in_sp[d];
    }
    p.ls_b = m;
    p.ls_f = 1;
    x = xp;
  }
  st = phases_ok(&p) ? phases_run(cx, &p, x, ker, o) : gemm_blocks(cx, &p, x, ker, o);
done:
  rt_scratch_free(pool, xp);
  return st;
}
