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
 * the im2col block stays in cache; a 1x1 window with unit stride and no
 * padding reads the input directly.
 *
 * Semantics follow src/interp/conv.c (the definition) except for summation
 * order and precision: the sum is the BLAS's, in the element type, as
 * XLA:CPU's library convolutions compute it. Operands holding an infinity or
 * NaN take a direct loop that, like the interpreter, skips padding and holes
 * (so 0 * inf never appears where the interpreter has no product). */
#include <cblas.h>
#include <string.h>

#include "cpu/cpu_internal.h"

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
    int64_t koff = 0;
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

/* im2col of rows [r0, r1) for group g into A (K columns). */
static void im2col(const ConvGemm *p, const char *x, int64_t g, int64_t r0, int64_t r1, char *A) {
  size_t es = p->es, row = (size_t)p->Ci * es;
  for (int64_t r = r0; r < r1; r++) {
    int64_t n, osi[CG_MAX_SP], ksi[CG_MAX_SP] = {0};
    row_coords(p, r, &n, osi);
    char *dst = A + (size_t)((r - r0) * p->K) * es;
    for (int64_t kl = 0; kl < p->KS; kl++, next_window(p, ksi), dst += row) {
      int64_t off = input_offset(p, n, osi, ksi);
      if (off < 0) {
        memset(dst, 0, row);
      } else if (p->ls_f == 1) {
        memcpy(dst, x + (size_t)(off + g * p->Ci) * es, row);
      } else {
        for (int64_t i = 0; i < p->Ci; i++)
          memcpy(dst + (size_t)i * es, x + (size_t)(off + (g * p->Ci + i) * p->ls_f) * es, es);
      }
    }
  }
}

/* Output offset of row r, feature 0. */
static int64_t out_offset(const ConvGemm *p, int64_t r) {
  int64_t n, osi[CG_MAX_SP];
  row_coords(p, r, &n, osi);
  int64_t off = n * p->os_b;
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

cxla_status conv_gemm_run(const ExecCtx *cx, const Instr *in, RVal *lhs, RVal *rhs, RVal **out) {
  ConvGemm p;
  if (!plan(in, &p)) return ERR(INTERNAL, "cpu backend: convolution %%%s is not a GEMM convolution", in->name);
  const Shape *s = in->shape;
  TRY(rval_array_x(cx, s->type, s->rank, s->dims, out));
  char *o = (*out)->lit.data;
  const char *x = lhs->lit.data, *ker = rhs->lit.data;
  int64_t rows = p.N * p.OS;
  size_t es = p.es;
  if (rows == 0 || p.O == 0) return NULL;
  if (!rval_all_finite(lhs, 1) || !rval_all_finite(rhs, 1)) {
    conv_direct(&p, x, ker, o);
    return NULL;
  }
  char *xp = NULL;
  if (p.ls_f != 1) {
    /* features not innermost (NCHW): one pass to [batch][spatial...][C] so
     * that im2col copies contiguous channel runs */
    int64_t S = 1;
    for (int d = 0; d < p.nsp; d++) S *= p.in_sp[d];
    if (!(xp = cxla_malloc((size_t)(p.N * S * p.C) * es))) {
      rval_unref(*out);
      *out = NULL;
      return cxla_oom();
    }
    for (int64_t n = 0; n < p.N; n++)
      for (int64_t c = 0; c < p.C; c++) {
        int64_t sp[CG_MAX_SP] = {0};
        for (int64_t sl = 0; sl < S; sl++) {
          int64_t off = n * p.ls_b + c * p.ls_f;
          for (int d = 0; d < p.nsp; d++) off += sp[d] * p.ls_sp[d];
          memcpy(xp + (size_t)((n * S + sl) * p.C + c) * es, x + (size_t)off * es, es);
          for (int d = p.nsp - 1; d >= 0; d--) {
            if (++sp[d] < p.in_sp[d]) break;
            sp[d] = 0;
          }
        }
      }
    int64_t m = p.C;
    for (int d = p.nsp - 1; d >= 0; d--) {
      p.ls_sp[d] = m;
      m *= p.in_sp[d];
    }
    p.ls_b = m;
    p.ls_f = 1;
    x = xp;
  }
  bool direct_a = input_is_a(&p), linear = out_rows_linear(&p);
  /* rows per block: the im2col block near 2 MiB, at least 64 rows */
  int64_t R = direct_a ? rows : (int64_t)((2u << 20) / ((size_t)p.K * es));
  if (R < 64) R = 64;
  if (R > rows) R = rows;
  if (R > 0x7fffffff) R = 0x7fffffff;
  char *B = cxla_malloc((size_t)(p.K * p.Og) * es);
  char *A = direct_a ? NULL : cxla_malloc((size_t)(R * p.K) * es);
  char *Cb = linear ? NULL : cxla_malloc((size_t)(R * p.Og) * es);
  cxla_status st = NULL;
  if (!B || (!direct_a && !A) || (!linear && !Cb)) {
    st = cxla_oom();
    goto done;
  }
  for (int64_t g = 0; g < p.G; g++) {
    pack_kernel(&p, ker, g, B);
    for (int64_t r0 = 0; r0 < rows; r0 += R) {
      int64_t r1 = r0 + R < rows ? r0 + R : rows;
      const char *Ablk;
      int lda;
      if (direct_a) {
        Ablk = x + (size_t)(r0 * p.C + g * p.Ci) * es;
        lda = (int)p.C;
      } else {
        im2col(&p, x, g, r0, r1, A);
        Ablk = A;
        lda = (int)p.K;
      }
      if (linear) {
        gemm(&p, (int)(r1 - r0), Ablk, lda, B, o + (size_t)(r0 * p.O + g * p.Og) * es, (int)p.O);
      } else {
        gemm(&p, (int)(r1 - r0), Ablk, lda, B, Cb, (int)p.Og);
        for (int64_t r = r0; r < r1; r++) {
          int64_t base = out_offset(&p, r) + g * p.Og * p.os_f;
          const char *src = Cb + (size_t)((r - r0) * p.Og) * es;
          for (int64_t j = 0; j < p.Og; j++)
            memcpy(o + (size_t)(base + j * p.os_f) * es, src + (size_t)j * es, es);
        }
      }
    }
  }
done:
  cxla_free(xp);
  cxla_free(B);
  cxla_free(A);
  cxla_free(Cb);
  if (st) {
    rval_unref(*out);
    *out = NULL;
  }
  return st;
}
