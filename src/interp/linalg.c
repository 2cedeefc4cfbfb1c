/* linalg.c: cholesky, triangular-solve, the batch-norm ops, and the LAPACK
 * custom-call targets that XLA:CPU programs from JAX contain.
 *
 * All matrix algorithms run on complex doubles (real inputs have zero
 * imaginary parts, which every algorithm here keeps at exactly zero) and
 * round once to the result type. Matrices are the trailing two dims; any
 * leading dims are batch dims. Our literals are logical row-major, so the
 * column-major layouts XLA attaches to the LAPACK calls do not matter: each
 * target implements the logical math of its LAPACK routine.
 *
 * LAPACK targets (s/d/c/z = f32/f64/c64/c128; results in tuple order):
 *   lapack_?potrf_ffi  (x; uplo)            -> (factor, info)
 *   lapack_?getrf_ffi  (x)                  -> (lu, pivots s32 1-based, info)
 *   lapack_?geqrf_ffi  (x)                  -> (r_and_reflectors, tau)
 *   lapack_?orgqr_ffi / lapack_?ungqr_ffi (x, tau) -> q
 *   lapack_?syevd_ffi / lapack_?heevd_ffi (x; uplo, mode)
 *                                           -> (eigenvectors, eigenvalues, info)
 *   lapack_?gesdd_ffi / lapack_?gesvd_ffi (x; mode)
 *                                           -> (x_out, s, u, vt, info)
 *   lapack_?trsm_ffi   (a, b; side, uplo, trans_x, diag) -> x
 *   lapack_?geev_ffi   (x; compute_left, compute_right)
 *                                           -> (wr, wi, vl, vr, info) real,
 *                                              (w, vl, vr, info) complex
 *   lapack_?gees_ffi   (x; mode, sort = 'N') -> (t, vs, w, sdim, info) complex,
 *                                              (t, vs, wr, wi, sdim, info) real
 *   lapack_?ormqr_ffi / lapack_?unmqr_ffi (a, tau, c; left, transpose) -> op(Q) c
 *                                           or c op(Q)
 *   lapack_?geqp3_ffi  (x, jpvt)            -> (r_and_reflectors, jpvt 1-based, tau)
 *   lapack_?gehrd_ffi  (x; low = 1, high = n) -> (h_and_reflectors, tau, info)
 *   lapack_?sytrd_ffi / lapack_?hetrd_ffi (x; uplo)
 *                                           -> (t_and_reflectors, d, e, tau, info)
 *   lapack_?gtsv_ffi   (dl, d, du, b)       -> (dl, d, du, x, info)
 *                      dl, d, du [..., n] with dl[0] and du[n-1] unused; b
 *                      [..., n, nrhs]; outputs as LAPACK leaves them (see
 *                      cc_gtsv)
 *   tridiagonal_solve_perturbed_ffi (dl, d, du, b) -> x  (jaxlib's: pivoting,
 *                      tiny pivots perturbed instead of failing)
 * TensorFlow's targets (element type from the operand):
 *   Qr                 (x)                  -> (r_and_reflectors, taus)  as geqrf
 *   ProductOfElementaryHouseholderReflectors (a, taus) -> q            as orgqr
 *   Eigh               (x; "lower,sort,max_iter,tol") -> (eigenvectors, eigenvalues)
 * Attributes come from backend_config ("{uplo = 76 : ui8, ...}", values are
 * character codes). Anything else is UNIMPLEMENTED with
 * "unsupported custom-call target 'X'". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp_math.h"

/* ---- complex doubles --------------------------------------------------------- */

typedef struct Cx {
  double re, im;
} Cx;

static inline Cx cx(double re, double im) { Cx z = {re, im}; return z; }
static inline Cx cadd(Cx a, Cx b) { return cx(a.re + b.re, a.im + b.im); }
static inline Cx csub(Cx a, Cx b) { return cx(a.re - b.re, a.im - b.im); }
static inline Cx cmul(Cx a, Cx b) {
  return cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
static inline Cx cconj(Cx a) { return cx(a.re, -a.im); }
static inline Cx cscale(Cx a, double s) { return cx(a.re * s, a.im * s); }
static inline double cabs2(Cx a) { return a.re * a.re + a.im * a.im; }
static inline double cabsv(Cx a) { return hypot(a.re, a.im); }
static inline Cx cdiv(Cx a, Cx b) {
  if (b.im == 0) return cx(a.re / b.re, a.im / b.re);
  double d = cabs2(b);
  return cx((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
}
static inline bool cis_zero(Cx a) { return a.re == 0 && a.im == 0; }

/* ---- literal <-> matrices ------------------------------------------------------- */

static void load_cx(const Literal *l, int64_t off, int64_t n, Cx *dst) {
  for (int64_t i = 0; i < n; i++) {
    double c[2];
    acc_get_cplx(l, off + i, T_C128, c);
    dst[i] = cx(c[0], c[1]);
  }
}

static void store_cx(Literal *l, int64_t off, int64_t n, const Cx *src) {
  bool complex = type_is_complex(l->type);
  for (int64_t i = 0; i < n; i++) {
    if (complex) acc_set_cplx(l, off + i, src[i].re, src[i].im);
    else literal_set_f64(l, off + i, src[i].re);
  }
}

static ElemType real_type(ElemType t) {
  return t == T_C64 ? T_F32 : t == T_C128 ? T_F64 : t;
}

/* f16 and bf16 too (cholesky and triangular-solve on them before the
 * optimizer's float-normalization widens them to f32): computed in double
 * like the rest, rounded once. */
static bool is_linalg_type(ElemType t) {
  return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64 || t == T_C64 || t == T_C128;
}

/* Batch count and matrix dims of an array of rank >= 2. */
static cxla_status mat_dims(const Instr *in, const Literal *l, const char *what,
                            int64_t *batch, int64_t *rows, int64_t *cols) {
  if (!type_is_array(l->type) || l->rank < 2 || !is_linalg_type(l->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "%s must be an f16/bf16/f32/f64/c64/c128 array of rank >= 2", what);
  *rows = l->dims[l->rank - 2];
  *cols = l->dims[l->rank - 1];
  *batch = 1;
  for (int i = 0; i < l->rank - 2; i++) *batch *= l->dims[i];
  return NULL;
}

static Cx *cx_alloc(int64_t n) { return cxla_calloc((size_t)(n > 0 ? n : 1), sizeof(Cx)); }

/* ---- Cholesky ------------------------------------------------------------------ */

/* In-place lower Cholesky of the n x n matrix a (row-major), reading only the
 * lower triangle: a = L L^H. Returns 0, or the 1-based order of the first
 * leading minor that is not positive definite (LAPACK's info; the factor
 * stops there). The upper triangle is left untouched. */
static int64_t chol_lower(Cx *a, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    double d = a[j * n + j].re;
    for (int64_t k = 0; k < j; k++) d -= cabs2(a[j * n + k]);
    if (!(d > 0)) {
      a[j * n + j] = cx(d, 0);
      return j + 1;
    }
    d = sqrt(d);
    a[j * n + j] = cx(d, 0);
    for (int64_t i = j + 1; i < n; i++) {
      Cx s = a[i * n + j];
      for (int64_t k = 0; k < j; k++) s = csub(s, cmul(a[i * n + k], cconj(a[j * n + k])));
      a[i * n + j] = cscale(s, 1.0 / d);
    }
  }
  return 0;
}

/* dst = src^H (n x n). */
static void conj_transpose(const Cx *src, Cx *dst, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) dst[j * n + i] = cconj(src[i * n + j]);
}

/* The Cholesky factor in the requested triangle, LAPACK potrf style: the
 * other strict triangle keeps a's values. upper: a = U^H U from a's upper
 * triangle, computed as the conjugate transpose of the lower factor of a^H. */
static int64_t chol(Cx *a, Cx *tmp, int64_t n, bool lower) {
  if (lower) return chol_lower(a, n);
  conj_transpose(a, tmp, n);
  int64_t info = chol_lower(tmp, n);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i; j < n; j++) a[i * n + j] = cconj(tmp[j * n + i]);
  return info;
}

/* HLO cholesky (XLA's CholeskyExpander): the factor in the requested
 * triangle, zeros in the other, and all NaN when the matrix is not positive
 * definite. */
static cxla_status eval_cholesky(const Instr *in, Literal *const *ops, Literal **out) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, ops[0], "cholesky operand", &batch, &n, &n2));
  if (n != n2) return interp_error(in, CXLA_INVALID_ARGUMENT, "cholesky needs square matrices");
  Literal *res;
  TRY(literal_create(ops[0]->type, ops[0]->rank, ops[0]->dims, &res));
  Cx *a = cx_alloc(n * n), *tmp = cx_alloc(n * n);
  if (!a || !tmp) {
    cxla_free(a);
    cxla_free(tmp);
    literal_free(res);
    return cxla_oom();
  }
  bool lower = in->chol_lower;
  for (int64_t b = 0; b < batch; b++) {
    load_cx(ops[0], b * n * n, n * n, a);
    int64_t info = chol(a, tmp, n, lower);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        bool keep = lower ? j <= i : j >= i;
        if (info) a[i * n + j] = cx(NAN, 0);
        else if (!keep) a[i * n + j] = cx(0, 0);
      }
    store_cx(res, b * n * n, n * n, a);
  }
  cxla_free(a);
  cxla_free(tmp);
  *out = res;
  return NULL;
}

/* ---- triangular solve ------------------------------------------------------------ */

typedef struct TriOpts {
  bool left, lower, unit;
  TriTranspose trans;
} TriOpts;

/* Solves op(A) X = B (left) or X op(A) = B (right) in place in b (rows x
 * cols, row-major). A is m x m, m = rows (left) or cols (right); only its
 * `lower`/upper triangle is read, and its diagonal is taken as 1 if unit. */
static void tri_solve(const Cx *a, Cx *b, int64_t rows, int64_t cols, const TriOpts *o, Cx *t) {
  int64_t m = o->left ? rows : cols;
  /* t = op(tri(A)) explicitly. */
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) {
      bool in_tri = o->lower ? j <= i : j >= i;
      Cx v = in_tri ? a[i * m + j] : cx(0, 0);
      if (i == j && o->unit) v = cx(1, 0);
      if (o->trans == TRI_NO_TRANSPOSE) t[i * m + j] = v;
      else t[j * m + i] = o->trans == TRI_ADJOINT ? cconj(v) : v;
    }
  bool t_lower = o->lower == (o->trans == TRI_NO_TRANSPOSE);
  if (o->left) {
    /* Column by column: forward (lower) or backward (upper) substitution. */
    for (int64_t c = 0; c < cols; c++)
      for (int64_t s = 0; s < m; s++) {
        int64_t i = t_lower ? s : m - 1 - s;
        Cx v = b[i * cols + c];
        if (t_lower)
          for (int64_t k = 0; k < i; k++) v = csub(v, cmul(t[i * m + k], b[k * cols + c]));
        else
          for (int64_t k = i + 1; k < m; k++) v = csub(v, cmul(t[i * m + k], b[k * cols + c]));
        b[i * cols + c] = cdiv(v, t[i * m + i]);
      }
  } else {
    /* Row by row: x T = r; x_j = (r_j - sum_{k != j} x_k T[k][j]) / T[j][j]. */
    for (int64_t r = 0; r < rows; r++) {
      Cx *x = b + r * cols;
      for (int64_t s = 0; s < m; s++) {
        int64_t j = t_lower ? m - 1 - s : s;
        Cx v = x[j];
        if (t_lower)
          for (int64_t k = j + 1; k < m; k++) v = csub(v, cmul(x[k], t[k * m + j]));
        else
          for (int64_t k = 0; k < j; k++) v = csub(v, cmul(x[k], t[k * m + j]));
        x[j] = cdiv(v, t[j * m + j]);
      }
    }
  }
}

/* Shared by the HLO op and lapack_?trsm_ffi: a [..., m, m], b [..., r, c]. */
static cxla_status trisolve(const Instr *in, const Literal *la, const Literal *lb,
                            const TriOpts *o, Literal **out) {
  int64_t ba, m, m2, bb, rows, cols;
  TRY(mat_dims(in, la, "triangular-solve a", &ba, &m, &m2));
  TRY(mat_dims(in, lb, "triangular-solve b", &bb, &rows, &cols));
  if (m != m2 || ba != bb || m != (o->left ? rows : cols) || la->type != lb->type)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "triangular-solve shapes do not fit: a needs [..., %lld, %lld]",
                        (long long)(o->left ? rows : cols), (long long)(o->left ? rows : cols));
  Literal *res;
  TRY(literal_create(lb->type, lb->rank, lb->dims, &res));
  Cx *a = cx_alloc(m * m), *t = cx_alloc(m * m), *b = cx_alloc(rows * cols);
  if (!a || !t || !b) {
    cxla_free(a), cxla_free(t), cxla_free(b);
    literal_free(res);
    return cxla_oom();
  }
  for (int64_t i = 0; i < ba; i++) {
    load_cx(la, i * m * m, m * m, a);
    load_cx(lb, i * rows * cols, rows * cols, b);
    tri_solve(a, b, rows, cols, o, t);
    store_cx(res, i * rows * cols, rows * cols, b);
  }
  cxla_free(a), cxla_free(t), cxla_free(b);
  *out = res;
  return NULL;
}

static cxla_status eval_trisolve(const Instr *in, Literal *const *ops, Literal **out) {
  TriOpts o = {in->tri_left_side, in->tri_lower, in->tri_unit_diagonal, in->tri_transpose};
  return trisolve(in, ops[0], ops[1], &o, out);
}

/* ---- batch norm ---------------------------------------------------------------- */

/* Reads a raw numeric attribute (epsilon=, feature_index=). */
static bool raw_number(const Instr *in, const char *name, double *v) {
  const char *s = instr_raw(in, name);
  if (!s) return false;
  char *end;
  *v = strtod(s, &end);
  return end != s;
}

typedef struct BnPlan {
  int64_t C, outer, inner, N; /* x viewed as [outer][C][inner]; N = outer*inner */
  double eps;
} BnPlan;

static cxla_status bn_plan(const Instr *in, const Literal *x, BnPlan *p) {
  double fi = 0, eps = 0;
  if (!raw_number(in, "feature_index", &fi)) fi = -1;
  if (!raw_number(in, "epsilon", &eps))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "batch norm needs an epsilon");
  if (!type_is_array(x->type) || !type_is_float(x->type) || fi < 0 || fi >= x->rank ||
      fi != floor(fi))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "bad operand or feature_index");
  int f = (int)fi;
  p->C = x->dims[f];
  p->outer = p->inner = 1;
  for (int i = 0; i < f; i++) p->outer *= x->dims[i];
  for (int i = f + 1; i < x->rank; i++) p->inner *= x->dims[i];
  p->N = p->outer * p->inner;
  p->eps = (double)(float)eps; /* XLA stores epsilon as a float */
  return NULL;
}

static bool is_vec(const Literal *l, int64_t c) {
  return type_is_array(l->type) && l->rank == 1 && l->dims[0] == c;
}

#define BN_IDX(p, o, c, i) (((o) * (p)->C + (c)) * (p)->inner + (i))

/* Per-feature mean and (biased) variance of x in double. */
static void bn_moments(const BnPlan *p, const Literal *x, double *mean, double *var) {
  for (int64_t c = 0; c < p->C; c++) {
    double s = 0, q = 0;
    for (int64_t o = 0; o < p->outer; o++)
      for (int64_t i = 0; i < p->inner; i++) s += literal_get_f64(x, BN_IDX(p, o, c, i));
    double m = p->N ? s / (double)p->N : 0;
    for (int64_t o = 0; o < p->outer; o++)
      for (int64_t i = 0; i < p->inner; i++) {
        double d = literal_get_f64(x, BN_IDX(p, o, c, i)) - m;
        q += d * d;
      }
    mean[c] = m;
    var[c] = p->N ? q / (double)p->N : 0;
  }
}

/* out = (x - mean) / sqrt(var + eps) * scale + offset */
static void bn_normalize(const BnPlan *p, const Literal *x, const Literal *scale,
                         const Literal *offset, const double *mean, const double *var,
                         Literal *out) {
  for (int64_t c = 0; c < p->C; c++) {
    double k = literal_get_f64(scale, c) / sqrt(var[c] + p->eps), b = literal_get_f64(offset, c);
    for (int64_t o = 0; o < p->outer; o++)
      for (int64_t i = 0; i < p->inner; i++) {
        int64_t at = BN_IDX(p, o, c, i);
        literal_set_f64(out, at, (literal_get_f64(x, at) - mean[c]) * k + b);
      }
  }
}

/* batch-norm-grad (operand, scale, mean, variance, grad_output), per the
 * operation semantics, with xhat = (x - mean) / sqrt(var + eps):
 *   grad_offset = sum dy,  grad_scale = sum dy * xhat,
 *   grad_x = scale / sqrt(var + eps) *
 *            (dy - grad_offset / N - xhat * grad_scale / N). */
static void bn_grad(const BnPlan *p, const Literal *x, Literal *const *ops, Literal **el) {
  const Literal *dy = ops[4];
  double n = p->N ? (double)p->N : 1;
  for (int64_t c = 0; c < p->C; c++) {
    double mu = literal_get_f64(ops[2], c);
    double rs = 1.0 / sqrt(literal_get_f64(ops[3], c) + p->eps);
    double sdy = 0, sdyx = 0;
    for (int64_t o = 0; o < p->outer; o++)
      for (int64_t i = 0; i < p->inner; i++) {
        int64_t at = BN_IDX(p, o, c, i);
        double g = literal_get_f64(dy, at);
        sdy += g;
        sdyx += g * (literal_get_f64(x, at) - mu);
      }
    double gscale = sdyx * rs, k = literal_get_f64(ops[1], c) * rs;
    for (int64_t o = 0; o < p->outer; o++)
      for (int64_t i = 0; i < p->inner; i++) {
        int64_t at = BN_IDX(p, o, c, i);
        double xh = (literal_get_f64(x, at) - mu) * rs;
        literal_set_f64(el[0], at, k * (literal_get_f64(dy, at) - sdy / n - xh * gscale / n));
      }
    literal_set_f64(el[1], c, gscale);
    literal_set_f64(el[2], c, sdy);
  }
}

static cxla_status bn_vectors(const Instr *in, Literal *const *ops, int from, int to, int64_t C,
                              ElemType t) {
  for (int i = from; i < to; i++)
    if (!is_vec(ops[i], C) || ops[i]->type != t)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "operand %d must be %s[%lld]", i,
                          type_name(t), (long long)C);
  return NULL;
}

static cxla_status eval_batch_norm(const Instr *in, Literal *const *ops, Literal **out) {
  const Literal *x = ops[0];
  BnPlan p;
  TRY(bn_plan(in, x, &p));
  int nops = in->op == OP_BATCH_NORM_TRAINING ? 3 : 5;
  if (in->noperands != nops)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "takes %d operands", nops);
  if (in->op == OP_BATCH_NORM_GRAD) {
    TRY(bn_vectors(in, ops, 1, 4, p.C, x->type));
    if (!type_is_array(ops[4]->type) || ops[4]->nelems != x->nelems)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "grad_output must match the operand");
  } else {
    TRY(bn_vectors(in, ops, 1, nops, p.C, x->type));
  }
  double *mean = cxla_calloc((size_t)p.C + 1, sizeof(double));
  double *var = cxla_calloc((size_t)p.C + 1, sizeof(double));
  Literal *el[3] = {NULL, NULL, NULL};
  cxla_status st = NULL;
  if (!mean || !var) st = cxla_oom();
  if (!st) st = literal_create(x->type, x->rank, x->dims, &el[0]);
  if (!st && in->op != OP_BATCH_NORM_INFERENCE) {
    st = literal_create(x->type, 1, &p.C, &el[1]);
    if (!st) st = literal_create(x->type, 1, &p.C, &el[2]);
  }
  if (st) goto done;
  if (in->op == OP_BATCH_NORM_INFERENCE) {
    for (int64_t c = 0; c < p.C; c++) {
      mean[c] = literal_get_f64(ops[3], c);
      var[c] = literal_get_f64(ops[4], c);
    }
    bn_normalize(&p, x, ops[1], ops[2], mean, var, el[0]);
    *out = el[0];
    el[0] = NULL;
  } else if (in->op == OP_BATCH_NORM_TRAINING) {
    bn_moments(&p, x, mean, var);
    bn_normalize(&p, x, ops[1], ops[2], mean, var, el[0]);
    for (int64_t c = 0; c < p.C; c++) {
      literal_set_f64(el[1], c, mean[c]);
      literal_set_f64(el[2], c, var[c]);
    }
    st = literal_create_tuple(3, el, out);
    el[0] = el[1] = el[2] = NULL;
  } else {
    bn_grad(&p, x, ops, el);
    st = literal_create_tuple(3, el, out);
    el[0] = el[1] = el[2] = NULL;
  }
done:
  for (int i = 0; i < 3; i++) literal_free(el[i]);
  cxla_free(mean);
  cxla_free(var);
  return st;
}

/* ---- LU (getrf) ------------------------------------------------------------------ */

/* |re| + |im|: the magnitude LAPACK's i?amax compares (|x| for reals). */
static double cabs1(Cx a) { return fabs(a.re) + fabs(a.im); }

/* In-place LU with partial pivoting of an m x n matrix, as LAPACK ?getrf
 * defines it: P A = L U, L unit lower (stored below the diagonal), U upper.
 * piv[j] = 1-based row swapped with row j. Returns info (first zero pivot,
 * 1-based; 0 if none). */
static int64_t lu(Cx *a, int64_t m, int64_t n, int32_t *piv) {
  int64_t info = 0, k = m < n ? m : n;
  for (int64_t j = 0; j < k; j++) {
    int64_t p = j;
    double best = cabs1(a[j * n + j]);
    for (int64_t i = j + 1; i < m; i++)
      if (cabs1(a[i * n + j]) > best) best = cabs1(a[i * n + j]), p = i;
    piv[j] = (int32_t)(p + 1);
    if (!cis_zero(a[p * n + j])) {
      if (p != j)
        for (int64_t c = 0; c < n; c++) {
          Cx t = a[j * n + c];
          a[j * n + c] = a[p * n + c];
          a[p * n + c] = t;
        }
      for (int64_t i = j + 1; i < m; i++) a[i * n + j] = cdiv(a[i * n + j], a[j * n + j]);
    } else if (!info) {
      info = j + 1;
    }
    for (int64_t i = j + 1; i < m; i++) {
      Cx l = a[i * n + j];
      if (cis_zero(l)) continue;
      for (int64_t c = j + 1; c < n; c++) a[i * n + c] = csub(a[i * n + c], cmul(l, a[j * n + c]));
    }
  }
  return info;
}

/* ---- Householder QR (geqrf, orgqr) ------------------------------------------------ */

/* LAPACK ?larfg on (alpha, x[0..len)) with stride: returns tau and leaves
 * beta in *alpha and v[1..] in x. H = I - tau v v^H, H^H (alpha; x) =
 * (beta; 0). */
static Cx larfg(Cx *alpha, Cx *x, int64_t len, int64_t stride, bool complex) {
  double xnorm = 0;
  for (int64_t i = 0; i < len; i++) xnorm = hypot(xnorm, cabsv(x[i * stride]));
  if (!complex && len == 0) return cx(0, 0);
  if (xnorm == 0 && alpha->im == 0) return cx(0, 0);
  double ar = alpha->re, ai = alpha->im;
  double norm = hypot(hypot(ar, ai), xnorm);
  double beta = ar >= 0 ? -norm : norm;
  Cx tau = cx((beta - ar) / beta, -ai / beta);
  Cx scal = cdiv(cx(1, 0), csub(*alpha, cx(beta, 0)));
  for (int64_t i = 0; i < len; i++) x[i * stride] = cmul(x[i * stride], scal);
  *alpha = cx(beta, 0);
  return tau;
}

/* Applies H = I - tau v v^H (v[0] = 1, v[i] = a[(r0+i)*n + vc] below) from
 * the left to rows r0.. and columns c0..c1 of a (m x n). */
static void apply_reflector(Cx *a, int64_t m, int64_t n, int64_t r0, int64_t vc, Cx tau,
                            int64_t c0, int64_t c1, Cx *v) {
  if (cis_zero(tau)) return;
  v[0] = cx(1, 0);
  for (int64_t i = 1; r0 + i < m; i++) v[i] = a[(r0 + i) * n + vc];
  for (int64_t c = c0; c < c1; c++) {
    Cx w = cx(0, 0);
    for (int64_t i = 0; r0 + i < m; i++) w = cadd(w, cmul(cconj(v[i]), a[(r0 + i) * n + c]));
    Cx tw = cmul(tau, w);
    for (int64_t i = 0; r0 + i < m; i++) a[(r0 + i) * n + c] = csub(a[(r0 + i) * n + c], cmul(v[i], tw));
  }
}

/* ?geqrf: R on and above the diagonal, reflector tails below, tau[min(m,n)]. */
static void geqrf(Cx *a, int64_t m, int64_t n, Cx *tau, bool complex, Cx *v) {
  int64_t k = m < n ? m : n;
  for (int64_t j = 0; j < k; j++) {
    tau[j] = larfg(&a[j * n + j], &a[(j + 1) * n + j], m - j - 1, n, complex);
    /* geqr2 applies H^H = I - conj(tau) v v^H to the trailing columns. */
    apply_reflector(a, m, n, j, j, cconj(tau[j]), j + 1, n, v);
  }
}

/* ?orgqr / ?ungqr: Q (m x n) = H_0 H_1 ... H_{k-1} applied to the first n
 * columns of the identity; reflectors from a (m x n), k = len(tau). */
static void orgqr(const Cx *a, int64_t m, int64_t n, const Cx *tau, int64_t k, Cx *q, Cx *v) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) q[i * n + j] = cx(i == j, 0);
  for (int64_t i = k - 1; i >= 0; i--) {
    /* The reflector's tail lives below the diagonal in column i of a. */
    if (cis_zero(tau[i])) continue;
    v[0] = cx(1, 0);
    for (int64_t r = 1; i + r < m; r++) v[r] = a[(i + r) * n + i];
    for (int64_t c = 0; c < n; c++) {
      Cx w = cx(0, 0);
      for (int64_t r = 0; i + r < m; r++) w = cadd(w, cmul(cconj(v[r]), q[(i + r) * n + c]));
      Cx tw = cmul(tau[i], w);
      for (int64_t r = 0; i + r < m; r++) q[(i + r) * n + c] = csub(q[(i + r) * n + c], cmul(v[r], tw));
    }
  }
}

/* ---- Jacobi rotations (eigh, svd) ---------------------------------------------- */

/* The unitary 2x2 g (row-major g00 g01 g10 g11) with g^H [[a, h], [h*, b]] g
 * diagonal (a, b real): a phase that makes h real, then a classic Jacobi
 * rotation (Numerical Recipes' choice of the smaller angle). */
static void jacobi_rot(double a, double b, Cx h, Cx g[4]) {
  double ah = cabsv(h);
  Cx ph = cscale(cconj(h), 1.0 / ah); /* e^{-i arg h} */
  double theta = (b - a) / (2 * ah);
  double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
  double c = 1 / sqrt(t * t + 1), s = t * c;
  g[0] = cx(c, 0);
  g[1] = cx(s, 0);
  g[2] = cscale(ph, -s);
  g[3] = cscale(ph, c);
}

/* Columns p, q of an r x n matrix x (row-major) times g. */
static void rot_cols(Cx *x, int64_t r, int64_t n, int64_t p, int64_t q, const Cx g[4]) {
  for (int64_t k = 0; k < r; k++) {
    Cx xp = x[k * n + p], xq = x[k * n + q];
    x[k * n + p] = cadd(cmul(xp, g[0]), cmul(xq, g[2]));
    x[k * n + q] = cadd(cmul(xp, g[1]), cmul(xq, g[3]));
  }
}

/* Rows p, q of an n x c matrix x replaced by g^H times them. */
static void rot_rows_h(Cx *x, int64_t c, int64_t p, int64_t q, const Cx g[4]) {
  for (int64_t k = 0; k < c; k++) {
    Cx xp = x[p * c + k], xq = x[q * c + k];
    x[p * c + k] = cadd(cmul(cconj(g[0]), xp), cmul(cconj(g[2]), xq));
    x[q * c + k] = cadd(cmul(cconj(g[1]), xp), cmul(cconj(g[3]), xq));
  }
}

/* Makes the largest-magnitude entry of each of the first ncols columns of x
 * (rows x ncols, row stride xs) real and positive: eigen- and singular
 * vectors are unique only up to such a phase. The first npair columns of y
 * (row stride ys, yrows rows) get the same phase, which keeps svd pairs
 * (u_j, v_j) consistent. */
static void fix_phases(Cx *x, int64_t rows, int64_t xs, int64_t ncols, Cx *y, int64_t yrows,
                       int64_t ys, int64_t npair) {
  for (int64_t j = 0; j < ncols; j++) {
    int64_t best = 0;
    for (int64_t i = 1; i < rows; i++)
      if (cabsv(x[i * xs + j]) > cabsv(x[best * xs + j]) * (1 + 1e-12)) best = i;
    double mag = cabsv(x[best * xs + j]);
    if (mag == 0) continue;
    Cx ph = cscale(cconj(x[best * xs + j]), 1.0 / mag);
    for (int64_t i = 0; i < rows; i++) x[i * xs + j] = cmul(x[i * xs + j], ph);
    if (j < npair)
      for (int64_t i = 0; i < yrows; i++) y[i * ys + j] = cmul(y[i * ys + j], ph);
  }
}

/* Hermitian eigendecomposition by cyclic Jacobi: h (n x n, full Hermitian)
 * is destroyed; w gets eigenvalues ascending, v (n x n) the eigenvectors in
 * columns. */
static void eigh(Cx *h, int64_t n, double *w, Cx *v) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) v[i * n + j] = cx(i == j, 0);
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0, tot = 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        tot += cabs2(h[i * n + j]);
        if (i != j) off += cabs2(h[i * n + j]);
      }
    if (off <= 1e-32 * tot || off == 0) break;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        Cx hpq = h[p * n + q];
        if (cis_zero(hpq)) continue;
        Cx g[4];
        jacobi_rot(h[p * n + p].re, h[q * n + q].re, hpq, g);
        rot_cols(h, n, n, p, q, g);
        rot_rows_h(h, n, p, q, g);
        h[p * n + q] = h[q * n + p] = cx(0, 0);
        h[p * n + p].im = h[q * n + q].im = 0;
        rot_cols(v, n, n, p, q, g);
      }
  }
  /* Selection sort ascending, moving eigenvector columns along. */
  for (int64_t i = 0; i < n; i++) w[i] = h[i * n + i].re;
  for (int64_t i = 0; i < n; i++) {
    int64_t mi = i;
    for (int64_t j = i + 1; j < n; j++)
      if (w[j] < w[mi]) mi = j;
    if (mi == i) continue;
    double t = w[i];
    w[i] = w[mi];
    w[mi] = t;
    for (int64_t r = 0; r < n; r++) {
      Cx c = v[r * n + i];
      v[r * n + i] = v[r * n + mi];
      v[r * n + mi] = c;
    }
  }
  fix_phases(v, n, n, n, NULL, 0, 0, 0);
}

/* Completes the columns of q (r x r) whose flags are false to an orthonormal
 * basis (Gram-Schmidt of unit vectors against all good columns, twice). */
static void complete_basis(Cx *q, int64_t r, bool *good, Cx *tmp) {
  int64_t e = 0;
  for (int64_t j = 0; j < r; j++) {
    if (good[j]) continue;
    for (; e < r; e++) {
      for (int64_t i = 0; i < r; i++) tmp[i] = cx(i == e, 0);
      for (int pass = 0; pass < 2; pass++)
        for (int64_t k = 0; k < r; k++) {
          if (!good[k]) continue;
          Cx d = cx(0, 0);
          for (int64_t i = 0; i < r; i++) d = cadd(d, cmul(cconj(q[i * r + k]), tmp[i]));
          for (int64_t i = 0; i < r; i++) tmp[i] = csub(tmp[i], cmul(q[i * r + k], d));
        }
      double nrm = 0;
      for (int64_t i = 0; i < r; i++) nrm += cabs2(tmp[i]);
      nrm = sqrt(nrm);
      if (nrm > 0.5) {
        for (int64_t i = 0; i < r; i++) q[i * r + j] = cscale(tmp[i], 1 / nrm);
        good[j] = true;
        e++;
        break;
      }
    }
  }
}

/* SVD by one-sided Jacobi of a (m x n, m >= n, destroyed): s[n] descending,
 * u (m x m, full) and v (n x n). */
static void svd_tall(Cx *a, int64_t m, int64_t n, double *s, Cx *u, Cx *v, bool *good, Cx *tmp) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) v[i * n + j] = cx(i == j, 0);
  for (int sweep = 0; sweep < 100; sweep++) {
    bool rotated = false;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double al = 0, be = 0;
        Cx ga = cx(0, 0);
        for (int64_t k = 0; k < m; k++) {
          al += cabs2(a[k * n + p]);
          be += cabs2(a[k * n + q]);
          ga = cadd(ga, cmul(cconj(a[k * n + p]), a[k * n + q]));
        }
        if (cabsv(ga) <= 1e-15 * sqrt(al * be) || cis_zero(ga)) continue;
        rotated = true;
        Cx g[4];
        jacobi_rot(al, be, ga, g);
        rot_cols(a, m, n, p, q, g);
        rot_cols(v, n, n, p, q, g);
      }
    if (!rotated) break;
  }
  for (int64_t j = 0; j < n; j++) {
    double nrm = 0;
    for (int64_t k = 0; k < m; k++) nrm += cabs2(a[k * n + j]);
    s[j] = sqrt(nrm);
  }
  /* Sort descending, moving the columns of a and v along. */
  for (int64_t i = 0; i < n; i++) {
    int64_t mi = i;
    for (int64_t j = i + 1; j < n; j++)
      if (s[j] > s[mi]) mi = j;
    if (mi == i) continue;
    double t = s[i];
    s[i] = s[mi];
    s[mi] = t;
    for (int64_t r = 0; r < m; r++) {
      Cx c = a[r * n + i];
      a[r * n + i] = a[r * n + mi];
      a[r * n + mi] = c;
    }
    for (int64_t r = 0; r < n; r++) {
      Cx c = v[r * n + i];
      v[r * n + i] = v[r * n + mi];
      v[r * n + mi] = c;
    }
  }
  /* Columns whose singular value is negligible carry no direction: their u
   * comes from completing the basis. */
  double tiny = (s[0] > 0 ? s[0] : 1) * 1e-14;
  for (int64_t j = 0; j < m; j++) good[j] = false;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) u[i * m + j] = cx(0, 0);
  for (int64_t j = 0; j < n; j++) {
    if (!(s[j] > tiny)) continue;
    for (int64_t i = 0; i < m; i++) u[i * m + j] = cscale(a[i * n + j], 1 / s[j]);
    good[j] = true;
  }
  complete_basis(u, m, good, tmp);
  /* Fix each (u_j, v_j) pair's phase together. */
  fix_phases(u, m, m, m, v, n, n, n);
}

/* ---- custom calls ------------------------------------------------------------------ */

static int cfg_char(const Instr *in, const char *key, int dflt) {
  return instr_config_char(in, key, dflt);
}

/* Target "lapack_<p><name>_ffi" with p in s/d/c/z: the routine name. */
static const char *lapack_routine(const char *t, ElemType *ty) {
  if (strncmp(t, "lapack_", 7) != 0) return NULL;
  size_t n = strlen(t);
  if (n < 12 || strcmp(t + n - 4, "_ffi") != 0) return NULL;
  switch (t[7]) {
  case 's': *ty = T_F32; break;
  case 'd': *ty = T_F64; break;
  case 'c': *ty = T_C64; break;
  case 'z': *ty = T_C128; break;
  default: return NULL;
  }
  return t + 8;
}

static bool routine_is(const char *r, const char *name) {
  size_t n = strlen(name);
  return strncmp(r, name, n) == 0 && strcmp(r + n, "_ffi") == 0;
}

/* The result tuple's element i must be an array of type t and rank r with
 * n elements (n < 0: any count; the caller checks the dims itself). The
 * verifier cannot check this (a custom-call's result shape is whatever it
 * declares), and the routines write n elements into it. */
static cxla_status want_elem(const Instr *in, int i, ElemType t, int r, int64_t n) {
  const Shape *s = in->shape;
  if (s->type != T_TUPLE || i >= s->ntuple || s->tuple[i]->type != t || s->tuple[i]->rank != r)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "result element %d must be %s of rank %d", i, type_name(t), r);
  if (n >= 0 && shape_elems(s->tuple[i]) != n)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "result element %d must have %lld elements to fit the operand", i,
                        (long long)n);
  return NULL;
}

typedef struct Work {
  Cx *a, *b, *c, *d, *e;
  double *w;
  bool *good;
  int32_t *piv;
} Work;

static void work_free(Work *w) {
  cxla_free(w->a), cxla_free(w->b), cxla_free(w->c), cxla_free(w->d), cxla_free(w->e);
  cxla_free(w->w), cxla_free(w->good), cxla_free(w->piv);
}

/* Allocates work arrays of n Cx each (a..e) and n doubles/bools/ints. */
static cxla_status work_alloc(Work *w, int64_t n) {
  memset(w, 0, sizeof *w);
  int64_t bytes;
  if (n < 0 || !mul_i64(n, (int64_t)sizeof(Cx), &bytes) || bytes > CXLA_MAX_ARRAY_BYTES)
    return ERR(RESOURCE_EXHAUSTED, "linear algebra workspace too large");
  w->a = cx_alloc(n), w->b = cx_alloc(n), w->c = cx_alloc(n), w->d = cx_alloc(n);
  w->e = cx_alloc(n);
  w->w = cxla_calloc((size_t)n + 1, sizeof(double));
  w->good = cxla_calloc((size_t)n + 1, sizeof(bool));
  w->piv = cxla_calloc((size_t)n + 1, sizeof(int32_t));
  if (!w->a || !w->b || !w->c || !w->d || !w->e || !w->w || !w->good || !w->piv) {
    work_free(w);
    return cxla_oom();
  }
  return NULL;
}

/* Creates the (possibly tuple) result literal for the custom call. */
static cxla_status make_result(const Instr *in, Literal **res) {
  TRY(shape_check_size(in->shape));
  return literal_create_for_shape(in->shape, res);
}

static cxla_status cc_potrf(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "potrf operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad potrf operand");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, T_S32, x->rank - 2, batch));
  bool lower = cfg_char(in, "uplo", 'L') == 'L';
  Work w;
  TRY(work_alloc(&w, n * n));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * n * n, n * n, w.a);
    int64_t info = chol(w.a, w.b, n, lower);
    store_cx(res->tuple[0], b * n * n, n * n, w.a);
    literal_set_i64(res->tuple[1], b, info);
  }
  work_free(&w);
  return NULL;
}

static cxla_status cc_getrf(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, m, n;
  TRY(mat_dims(in, x, "getrf operand", &batch, &m, &n));
  int64_t k = m < n ? m : n;
  if (x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad getrf operand type");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, T_S32, x->rank - 1, batch * k));
  TRY(want_elem(in, 2, T_S32, x->rank - 2, batch));
  if (res->tuple[1]->nelems != batch * k)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "pivots must have min(m, n) entries");
  Work w;
  TRY(work_alloc(&w, m * n + k));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * m * n, m * n, w.a);
    int64_t info = lu(w.a, m, n, w.piv);
    store_cx(res->tuple[0], b * m * n, m * n, w.a);
    for (int64_t j = 0; j < k; j++) literal_set_i64(res->tuple[1], b * k + j, w.piv[j]);
    literal_set_i64(res->tuple[2], b, info);
  }
  work_free(&w);
  return NULL;
}

static cxla_status cc_geqrf(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, m, n;
  TRY(mat_dims(in, x, "geqrf operand", &batch, &m, &n));
  int64_t k = m < n ? m : n;
  if (x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad geqrf operand type");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, ty, x->rank - 1, batch * k));
  if (res->tuple[1]->nelems != batch * k)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "tau must have min(m, n) entries");
  Work w;
  TRY(work_alloc(&w, m * n + m + k));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * m * n, m * n, w.a);
    geqrf(w.a, m, n, w.b, type_is_complex(ty), w.c);
    store_cx(res->tuple[0], b * m * n, m * n, w.a);
    store_cx(res->tuple[1], b * k, k, w.b);
  }
  work_free(&w);
  return NULL;
}

static cxla_status cc_orgqr(const Instr *in, Literal *const *ops, ElemType ty, Literal *res) {
  int64_t batch, m, n;
  if (in->noperands != 2) return interp_error(in, CXLA_INVALID_ARGUMENT, "orgqr takes 2 operands");
  TRY(mat_dims(in, ops[0], "orgqr operand", &batch, &m, &n));
  const Literal *tau = ops[1];
  if (ops[0]->type != ty || tau->type != ty || tau->rank != ops[0]->rank - 1 ||
      res->type != ty || res->nelems != ops[0]->nelems)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "bad orgqr operands or result");
  int64_t k = tau->dims[tau->rank - 1];
  if (k > n || n > m) return interp_error(in, CXLA_INVALID_ARGUMENT, "orgqr needs k <= n <= m");
  if (tau->nelems != batch * k)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "tau's batch dimensions must match the operand's");
  Work w;
  TRY(work_alloc(&w, m * n + m + k));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(ops[0], b * m * n, m * n, w.a);
    load_cx(tau, b * k, k, w.b);
    orgqr(w.a, m, n, w.b, k, w.c, w.d);
    store_cx(res, b * m * n, m * n, w.c);
  }
  work_free(&w);
  return NULL;
}

/* Eigendecomposition of the Hermitian matrices of x (the named triangle):
 * eigenvectors (columns) into res->tuple[0], ascending eigenvalues into
 * res->tuple[1], and, when info, zeros into res->tuple[2]. */
static cxla_status eigh_batch(const Instr *in, const Literal *x, ElemType ty, bool lower, bool info,
                              Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "eigh operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad eigh operand");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, real_type(ty), x->rank - 1, batch * n));
  if (info) TRY(want_elem(in, 2, T_S32, x->rank - 2, batch));
  Work w;
  TRY(work_alloc(&w, n * n));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * n * n, n * n, w.a);
    /* The full Hermitian matrix from the named triangle (LAPACK reads only
     * that triangle and the real part of the diagonal). */
    for (int64_t i = 0; i < n; i++) {
      w.a[i * n + i].im = 0;
      for (int64_t j = 0; j < i; j++) {
        if (lower) w.a[j * n + i] = cconj(w.a[i * n + j]);
        else w.a[i * n + j] = cconj(w.a[j * n + i]);
      }
    }
    eigh(w.a, n, w.w, w.b);
    store_cx(res->tuple[0], b * n * n, n * n, w.b);
    for (int64_t i = 0; i < n; i++) literal_set_f64(res->tuple[1], b * n + i, w.w[i]);
    if (info) literal_set_i64(res->tuple[2], b, 0);
  }
  work_free(&w);
  return NULL;
}

static cxla_status cc_syevd(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  return eigh_batch(in, x, ty, cfg_char(in, "uplo", 'L') == 'L', true, res);
}

/* TensorFlow's "Eigh" (XLA's EighExpander expands it into Jacobi sweeps):
 * backend_config "LOWER,SORT,MAX_ITER,TOL", result (eigenvectors,
 * eigenvalues). Computed directly, eigenvalues ascending (what SORT=1
 * asks; with SORT=0 XLA leaves Jacobi's order, which is not specified). */
static cxla_status cc_eigh_tf(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  const char *cfg = instr_raw(in, "backend_config");
  if (cfg && *cfg == '"') cfg++;
  int lower = cfg ? atoi(cfg) : 1;
  if (res->ntuple != 2) return interp_error(in, CXLA_INVALID_ARGUMENT, "Eigh returns 2 values");
  return eigh_batch(in, x, ty, lower != 0, false, res);
}

/* ?gesdd / ?gesvd: x_out (a copy of x: LAPACK's is scratch), s descending,
 * u and vt as the result shapes ask (full 'A', economy 'S'; zeros for 'N'),
 * info 0. */
static cxla_status cc_gesdd(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, m, n;
  TRY(mat_dims(in, x, "gesdd operand", &batch, &m, &n));
  if (x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad gesdd operand type");
  int r = x->rank;
  int64_t k = m < n ? m : n;
  TRY(want_elem(in, 0, ty, r, x->nelems));
  TRY(want_elem(in, 1, real_type(ty), r - 1, batch * k));
  TRY(want_elem(in, 2, ty, r, -1));
  TRY(want_elem(in, 3, ty, r, -1));
  TRY(want_elem(in, 4, T_S32, r - 2, batch));
  int mode = cfg_char(in, "mode", 'A');
  Literal *lu_ = res->tuple[2], *lvt = res->tuple[3];
  int64_t uc = lu_->dims[r - 1], vr = lvt->dims[r - 2];
  if (lu_->dims[r - 2] != m || lvt->dims[r - 1] != n || uc > m || vr > n ||
      lu_->nelems != batch * m * uc || lvt->nelems != batch * vr * n ||
      (mode != 'N' && (uc < k || vr < k)))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "u/vt shapes do not fit the operand");
  int64_t big = m > n ? m : n, big2;
  if (!mul_i64(big, big, &big2))
    return interp_error(in, CXLA_RESOURCE_EXHAUSTED, "matrix too large for the svd");
  Work w;
  TRY(work_alloc(&w, big2));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * m * n, m * n, w.a);
    store_cx(res->tuple[0], b * m * n, m * n, w.a);
    Cx *U = w.b, *V = w.c; /* full m x m and n x n */
    if (m >= n) {
      svd_tall(w.a, m, n, w.w, U, V, w.good, w.d);
    } else {
      /* A^H = U' S V'^H, so A = V' S U'^H: U = V', V = U'. */
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) w.e[j * m + i] = cconj(w.a[i * n + j]);
      svd_tall(w.e, n, m, w.w, V, U, w.good, w.d);
    }
    for (int64_t i = 0; i < k; i++) literal_set_f64(res->tuple[1], b * k + i, w.w[i]);
    if (mode != 'N') {
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < uc; j++) w.d[i * uc + j] = U[i * m + j];
      store_cx(lu_, b * m * uc, m * uc, w.d);
      for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < n; j++) w.d[i * n + j] = cconj(V[j * n + i]);
      store_cx(lvt, b * vr * n, vr * n, w.d);
    }
    literal_set_i64(res->tuple[4], b, 0);
  }
  work_free(&w);
  return NULL;
}

/* ---- nonsymmetric eigenproblem (geev) ----------------------------------------------- */

/* The complex Givens rotation [[c, s], [-s*, c]] (c real) that maps (a, b)
 * to (r, 0). */
static void givens(Cx a, Cx b, double *c, Cx *s) {
  double na = cabsv(a), nb = cabsv(b);
  if (nb == 0) {
    *c = 1, *s = cx(0, 0);
    return;
  }
  if (na == 0) {
    *c = 0, *s = cx(1, 0);
    return;
  }
  double norm = hypot(na, nb);
  *c = na / norm;
  *s = cscale(cmul(cscale(a, 1 / na), cconj(b)), 1 / norm);
}

/* Reduces a (n x n) to upper Hessenberg form by Householder reflections,
 * a = q h q^H, accumulating q (n x n, set here). v: n scratch. */
static void hessenberg(Cx *a, Cx *q, int64_t n, Cx *v) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) q[i * n + j] = cx(i == j, 0);
  for (int64_t k = 0; k + 2 < n; k++) {
    int64_t len = n - k - 1;
    double xn = 0;
    for (int64_t i = 0; i < len; i++) xn = hypot(xn, cabsv(a[(k + 1 + i) * n + k]));
    if (xn == 0) continue;
    Cx x0 = a[(k + 1) * n + k];
    double ax0 = cabsv(x0);
    Cx ph = ax0 > 0 ? cscale(x0, 1 / ax0) : cx(1, 0);
    Cx alpha = cscale(ph, -xn); /* P x = alpha e1 */
    for (int64_t i = 0; i < len; i++) v[i] = a[(k + 1 + i) * n + k];
    v[0] = csub(v[0], alpha);
    double vv = 0;
    for (int64_t i = 0; i < len; i++) vv += cabs2(v[i]);
    if (vv == 0) continue;
    /* P = I - 2 v v^H / vv, applied as P a P and q P. */
    for (int64_t c = 0; c < n; c++) {
      Cx w = cx(0, 0);
      for (int64_t i = 0; i < len; i++) w = cadd(w, cmul(cconj(v[i]), a[(k + 1 + i) * n + c]));
      w = cscale(w, 2 / vv);
      for (int64_t i = 0; i < len; i++) a[(k + 1 + i) * n + c] = csub(a[(k + 1 + i) * n + c], cmul(v[i], w));
    }
    for (int64_t r = 0; r < n; r++) {
      Cx w = cx(0, 0), w2 = cx(0, 0);
      for (int64_t i = 0; i < len; i++) {
        w = cadd(w, cmul(a[r * n + k + 1 + i], v[i]));
        w2 = cadd(w2, cmul(q[r * n + k + 1 + i], v[i]));
      }
      w = cscale(w, 2 / vv), w2 = cscale(w2, 2 / vv);
      for (int64_t i = 0; i < len; i++) {
        a[r * n + k + 1 + i] = csub(a[r * n + k + 1 + i], cmul(w, cconj(v[i])));
        q[r * n + k + 1 + i] = csub(q[r * n + k + 1 + i], cmul(w2, cconj(v[i])));
      }
    }
    a[(k + 1) * n + k] = alpha;
    for (int64_t i = 1; i < len; i++) a[(k + 1 + i) * n + k] = cx(0, 0);
  }
}

/* Complex Schur form of the Hessenberg h by shifted QR iterations: h = q t
 * q^H with t upper triangular (in h), q updated. Returns 0, or LAPACK's
 * info (1-based index past the last eigenvalue that did not converge) when
 * the iteration limit is hit, as for NaN input. cs: 2n doubles + n Cx. */
static int64_t schur_qr(Cx *h, Cx *q, int64_t n, double *cs, Cx *sn) {
  const double eps = 2.220446049250313e-16;
  int64_t hi = n - 1, iter = 0, limit = 30 * (n > 10 ? n : 10);
  while (hi > 0) {
    int64_t l = hi;
    while (l > 0) {
      double s = cabs1(h[(l - 1) * n + l - 1]) + cabs1(h[l * n + l]);
      double sub = cabs1(h[l * n + l - 1]);
      if (sub <= eps * s || sub < 1e-300) {
        h[l * n + l - 1] = cx(0, 0);
        break;
      }
      l--;
    }
    if (l == hi) {
      hi--;
      iter = 0;
      continue;
    }
    if (++iter > limit) return hi + 1;
    /* Wilkinson shift: the eigenvalue of the trailing 2x2 nearer h[hi][hi];
     * an exceptional shift every 10 iterations without deflation. */
    Cx mu;
    if (iter % 10 == 0) {
      mu = cadd(h[hi * n + hi], cx(0.75 * cabs1(h[hi * n + hi - 1]), 0));
    } else {
      Cx a = h[(hi - 1) * n + hi - 1], b = h[(hi - 1) * n + hi], c = h[hi * n + hi - 1],
         d = h[hi * n + hi];
      Cx tr = cscale(cadd(a, d), 0.5), df = cscale(csub(a, d), 0.5);
      Cx disc = cadd(cmul(df, df), cmul(b, c));
      /* principal square root */
      double r = cabsv(disc);
      double sr = sqrt((r + fabs(disc.re)) / 2);
      Cx sq;
      if (sr == 0) sq = cx(0, 0);
      else if (disc.re >= 0) sq = cx(sr, disc.im / (2 * sr));
      else sq = cx(fabs(disc.im) / (2 * sr), disc.im >= 0 ? sr : -sr);
      /* LAPACK's zlahqr choice: tr - y with y = +-sq aligned with df (on a
       * tie, as for a real block with a complex pair, y = sq). */
      if (df.re * sq.re + df.im * sq.im < 0) sq = cx(-sq.re, -sq.im);
      mu = csub(tr, sq);
    }
    if (!isfinite(mu.re) || !isfinite(mu.im)) return hi + 1;
    /* Explicit shifted QR step on the active block l..hi, applied to the
     * full rows and columns so that t and q stay consistent. */
    for (int64_t k = l; k <= hi; k++) h[k * n + k] = csub(h[k * n + k], mu);
    for (int64_t k = l; k < hi; k++) {
      double c;
      Cx s;
      givens(h[k * n + k], h[(k + 1) * n + k], &c, &s);
      cs[k] = c, sn[k] = s;
      for (int64_t j = k; j < n; j++) {
        Cx x = h[k * n + j], y = h[(k + 1) * n + j];
        h[k * n + j] = cadd(cscale(x, c), cmul(s, y));
        h[(k + 1) * n + j] = csub(cscale(y, c), cmul(cconj(s), x));
      }
    }
    for (int64_t k = l; k < hi; k++) {
      double c = cs[k];
      Cx s = sn[k];
      int64_t top = k + 2 <= hi ? k + 2 : hi;
      for (int64_t i = 0; i <= top; i++) {
        Cx x = h[i * n + k], y = h[i * n + k + 1];
        h[i * n + k] = cadd(cscale(x, c), cmul(y, cconj(s)));
        h[i * n + k + 1] = csub(cscale(y, c), cmul(x, s));
      }
      for (int64_t i = 0; i < n; i++) {
        Cx x = q[i * n + k], y = q[i * n + k + 1];
        q[i * n + k] = cadd(cscale(x, c), cmul(y, cconj(s)));
        q[i * n + k + 1] = csub(cscale(y, c), cmul(x, s));
      }
    }
    for (int64_t k = l; k <= hi; k++) h[k * n + k] = cadd(h[k * n + k], mu);
  }
  return 0;
}

/* LAPACK's eigenvector normalization: unit 2-norm, then the component of
 * largest magnitude made real (positive). */
static void normalize_eigvec(Cx *v, int64_t n, int64_t stride) {
  double nrm = 0, big = -1;
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++) {
    nrm = hypot(nrm, cabsv(v[i * stride]));
    if (cabs2(v[i * stride]) > big) big = cabs2(v[i * stride]), m = i;
  }
  if (!(nrm > 0)) return;
  Cx ph = cconj(v[m * stride]);
  double a = cabsv(ph);
  ph = a > 0 ? cscale(ph, 1 / (a * nrm)) : cx(1 / nrm, 0);
  for (int64_t i = 0; i < n; i++) v[i * stride] = cmul(v[i * stride], ph);
  v[m * stride].im = 0;
}

/* Eigenvectors of the upper triangular t (n x n) mapped through q: right
 * (t x = t_kk x) or left (y^H t = t_kk y^H) ones, as the columns of out.
 * Near-equal eigenvalues get a perturbed divisor (LAPACK's smin). x: n. */
static void tri_eigvecs(const Cx *t, const Cx *q, int64_t n, bool right, Cx *out, Cx *x) {
  const double eps = 2.220446049250313e-16;
  double tn = 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i; j < n; j++) tn = fmax(tn, cabs1(t[i * n + j]));
  for (int64_t k = 0; k < n; k++) {
    Cx lam = t[k * n + k];
    double smin = fmax(eps * cabs1(lam), fmax(eps * tn, 1e-300));
    for (int64_t i = 0; i < n; i++) x[i] = cx(0, 0);
    x[k] = cx(1, 0);
    if (right) {
      for (int64_t i = k - 1; i >= 0; i--) {
        Cx s = cx(0, 0);
        for (int64_t j = i + 1; j <= k; j++) s = cadd(s, cmul(t[i * n + j], x[j]));
        Cx d = csub(t[i * n + i], lam);
        if (cabs1(d) < smin) d = cx(smin, 0);
        x[i] = cdiv(cx(-s.re, -s.im), d);
      }
    } else {
      /* z = conj(y): z_i (t_ii - lam) = -sum_{k <= j < i} z_j t_ji. */
      for (int64_t i = k + 1; i < n; i++) {
        Cx s = cx(0, 0);
        for (int64_t j = k; j < i; j++) s = cadd(s, cmul(x[j], t[j * n + i]));
        Cx d = csub(t[i * n + i], lam);
        if (cabs1(d) < smin) d = cx(smin, 0);
        x[i] = cdiv(cx(-s.re, -s.im), d);
      }
      for (int64_t i = k; i < n; i++) x[i] = cconj(x[i]);
    }
    int64_t j0 = right ? 0 : k, j1 = right ? k + 1 : n;
    for (int64_t r = 0; r < n; r++) {
      Cx s = cx(0, 0);
      for (int64_t j = j0; j < j1; j++) s = cadd(s, cmul(q[r * n + j], x[j]));
      out[r * n + k] = s;
    }
    normalize_eigvec(out + k, n, n);
  }
}

/* ?geev: real x -> (wr, wi, vl, vr, info), complex x -> (w, vl, vr, info);
 * vl/vr complex with the eigenvectors as columns (the FFI kernel unpacks
 * LAPACK's real conjugate-pair storage), zeros when not asked for
 * (compute_left / compute_right = 'N'). Computed through the complex Schur
 * form of the whole matrix (no balancing), so a real matrix's real
 * eigenvalues may carry rounding-level imaginary parts. info > 0 (the QR
 * iteration did not converge, e.g. on NaN input) as LAPACK reports it. */
static cxla_status cc_geev(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "geev operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad geev operand");
  bool cplx = type_is_complex(ty);
  ElemType ct = ty == T_F32 ? T_C64 : ty == T_F64 ? T_C128 : ty;
  int r = x->rank, o = cplx ? 0 : 1;
  if (res->ntuple != 4 + o) return interp_error(in, CXLA_INVALID_ARGUMENT, "geev returns %d values", 4 + o);
  TRY(want_elem(in, 0, ty, r - 1, batch * n));
  if (!cplx) TRY(want_elem(in, 1, ty, r - 1, batch * n));
  TRY(want_elem(in, 1 + o, ct, r, x->nelems));
  TRY(want_elem(in, 2 + o, ct, r, x->nelems));
  TRY(want_elem(in, 3 + o, T_S32, r - 2, batch));
  bool left = cfg_char(in, "compute_left", 'N') == 'V';
  bool right = cfg_char(in, "compute_right", 'N') == 'V';
  Work w;
  TRY(work_alloc(&w, n * n + 2 * n));
  for (int64_t b = 0; b < batch; b++) {
    Cx *a = w.a, *q = w.b, *vec = w.c;
    load_cx(x, b * n * n, n * n, a);
    hessenberg(a, q, n, w.d);
    double anorm = 0;
    for (int64_t i = 0; i < n * n; i++) anorm = fmax(anorm, cabs1(a[i]));
    /* Infinite or NaN entries: no eigenvalues (LAPACK's scaling turns
     * them into NaN); reported as not converged. */
    int64_t info = isfinite(anorm) ? schur_qr(a, q, n, w.w, w.d) : (n > 0 ? n : 0);
    /* Output order: ord[k] = source index + 1, negated for "the conjugate
     * of that one". A real matrix's eigenvalues are real or in conjugate
     * pairs; the complex iteration leaves rounding-level differences, so
     * real ones are made exactly real, each pair exactly conjugate, and
     * (as LAPACK orders them) adjacent with the positive imaginary part
     * first; their vectors follow (conjugates for the second). */
    int32_t *ord = w.piv;
    double tol = 16.0 * (double)n * 2.220446049250313e-16 * anorm;
    for (int64_t i = 0; i < n; i++) ord[i] = (int32_t)(i + 1), w.good[i] = false;
    if (!cplx && !info) {
      int64_t k = 0;
      for (int64_t i = 0; i < n; i++) {
        if (w.good[i]) continue; /* already placed as a partner */
        Cx li = a[i * n + i];
        if (fabs(li.im) <= tol) {
          a[i * n + i].im = 0;
          ord[k++] = (int32_t)(i + 1);
          continue;
        }
        int64_t best = -1;
        double bd = INFINITY;
        for (int64_t j = i + 1; j < n; j++) {
          Cx lj = a[j * n + j];
          if (w.good[j] || fabs(lj.im) <= tol) continue;
          double dd = cabs2(csub(lj, cconj(li)));
          if (dd < bd) bd = dd, best = j;
        }
        if (best < 0) { /* no partner: keep it as it is */
          ord[k++] = (int32_t)(i + 1);
          continue;
        }
        w.good[best] = true;
        int64_t pos = li.im > 0 ? i : best;
        Cx lp = a[pos * n + pos];
        a[pos * n + pos] = cx(lp.re, fabs(lp.im));
        ord[k++] = (int32_t)(pos + 1);
        ord[k++] = -(int32_t)(pos + 1);
      }
    }
    for (int64_t k = 0; k < n; k++) {
      int64_t i = (ord[k] < 0 ? -ord[k] : ord[k]) - 1;
      Cx lam = info ? cx(NAN, NAN) : a[i * n + i];
      if (ord[k] < 0) lam = cconj(lam);
      if (cplx) {
        store_cx(res->tuple[0], b * n + k, 1, &lam);
      } else {
        literal_set_f64(res->tuple[0], b * n + k, lam.re);
        literal_set_f64(res->tuple[1], b * n + k, lam.im);
      }
    }
    for (int side = 0; side < 2; side++) {
      bool want = side ? right : left;
      Cx *out = w.e;
      if (want && !info) {
        tri_eigvecs(a, q, n, side == 1, vec, w.d);
        for (int64_t k = 0; k < n; k++) {
          int64_t j = (ord[k] < 0 ? -ord[k] : ord[k]) - 1;
          bool real = !cplx && a[j * n + j].im == 0;
          for (int64_t i = 0; i < n; i++) {
            Cx v = vec[i * n + j];
            if (real) v.im = 0;
            out[i * n + k] = ord[k] < 0 ? cconj(v) : v;
          }
        }
      } else {
        for (int64_t i = 0; i < n * n; i++) out[i] = want ? cx(NAN, NAN) : cx(0, 0);
      }
      store_cx(res->tuple[1 + o + side], b * n * n, n * n, out);
    }
    literal_set_i64(res->tuple[3 + o], b, info);
  }
  work_free(&w);
  return NULL;
}

/* ?gehrd (ilo = 1, ihi = n: the whole matrix): a -> (h with the reflector
 * tails below the subdiagonal, tau[n - 1], info 0), LAPACK's gehd2: H(i) =
 * I - tau v v^H zeroes column i below the subdiagonal, a := H(i)^H a H(i). */
static void gehrd(Cx *a, int64_t n, Cx *tau, bool complex, Cx *v) {
  for (int64_t i = 0; i + 1 < n; i++) {
    int64_t len = n - i - 1; /* v[0] at row i + 1 */
    tau[i] = larfg(&a[(i + 1) * n + i], len > 1 ? &a[(i + 2) * n + i] : v, len - 1, n, complex);
    if (cis_zero(tau[i])) continue;
    v[0] = cx(1, 0);
    for (int64_t j = 1; j < len; j++) v[j] = a[(i + 1 + j) * n + i];
    for (int64_t r = 0; r < n; r++) { /* a := a H on columns i+1.. */
      Cx w = cx(0, 0);
      for (int64_t j = 0; j < len; j++) w = cadd(w, cmul(a[r * n + i + 1 + j], v[j]));
      Cx tw = cmul(w, tau[i]);
      for (int64_t j = 0; j < len; j++) a[r * n + i + 1 + j] = csub(a[r * n + i + 1 + j], cmul(tw, cconj(v[j])));
    }
    apply_reflector(a, n, n, i + 1, i, cconj(tau[i]), i + 1, n, v);
  }
}

static cxla_status cc_gehrd(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "gehrd operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad gehrd operand");
  int64_t k = n > 0 ? n - 1 : 0;
  if (res->ntuple != 3) return interp_error(in, CXLA_INVALID_ARGUMENT, "gehrd returns 3 values");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, ty, x->rank - 1, batch * k));
  TRY(want_elem(in, 2, T_S32, x->rank - 2, batch));
  Work w;
  TRY(work_alloc(&w, n * n + 1));
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * n * n, n * n, w.a);
    gehrd(w.a, n, w.b, type_is_complex(ty), w.c);
    store_cx(res->tuple[0], b * n * n, n * n, w.a);
    store_cx(res->tuple[1], b * k, k, w.b);
    literal_set_i64(res->tuple[2], b, 0);
  }
  work_free(&w);
  return NULL;
}

/* ?sytrd / ?hetrd (uplo): a -> (a, d, e, tau, info 0), LAPACK's sytd2 /
 * hetd2: Q^H A Q = T tridiagonal for the Hermitian A stored in the uplo
 * triangle; that triangle gets T's diagonal and off-diagonal and the
 * reflector tails (lower: below the subdiagonal, column by column from the
 * top; upper: above the superdiagonal, from the bottom), the other strict
 * triangle is left as it was. m: the full Hermitian matrix (n x n). */
static void sytrd(Cx *a, Cx *m, int64_t n, bool lower, double *d, double *e, Cx *tau, bool complex,
                  Cx *v, Cx *p) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) {
      Cx s = lower ? a[i * n + j] : cconj(a[j * n + i]);
      if (i == j) s.im = 0;
      m[i * n + j] = s;
      m[j * n + i] = cconj(s);
    }
  for (int64_t s = 0; s + 1 < n; s++) {
    /* lower: step i = s zeroes column i below row i + 1 (v on rows i+1..);
     * upper: step i = n-2-s zeroes column i + 1 above row i (v on rows
     * i..0, v[0] at row i). */
    int64_t i = lower ? s : n - 2 - s, len = lower ? n - i - 1 : i + 1;
    int64_t r0 = lower ? i + 1 : i, col = lower ? i : i + 1, dir = lower ? 1 : -1;
    Cx alpha = m[r0 * n + col];
    for (int64_t j = 1; j < len; j++) v[j] = m[(r0 + dir * j) * n + col];
    Cx t = larfg(&alpha, v + 1, len - 1, 1, complex);
    tau[i] = t;
    e[i] = alpha.re;
    v[0] = cx(1, 0);
    /* Store into a: beta and the tail in the column. */
    for (int64_t j = 0; j < len; j++) {
      int64_t r = r0 + dir * j;
      Cx val = j == 0 ? cx(alpha.re, 0) : v[j];
      if (lower) a[r * n + col] = val;
      else a[r * n + col] = val; /* upper: column i+1, rows i..0 */
    }
    if (cis_zero(t)) continue;
    /* m := H^H m H, H = I - t v v^H on the rows/columns of v. */
    for (int64_t c = 0; c < n; c++) { /* left: H^H = I - conj(t) v v^H */
      Cx w = cx(0, 0);
      for (int64_t j = 0; j < len; j++) w = cadd(w, cmul(cconj(v[j]), m[(r0 + dir * j) * n + c]));
      p[c] = cmul(cconj(t), w);
    }
    for (int64_t j = 0; j < len; j++)
      for (int64_t c = 0; c < n; c++) {
        int64_t r = r0 + dir * j;
        m[r * n + c] = csub(m[r * n + c], cmul(v[j], p[c]));
      }
    for (int64_t r = 0; r < n; r++) { /* right: H */
      Cx w = cx(0, 0);
      for (int64_t j = 0; j < len; j++) w = cadd(w, cmul(m[r * n + r0 + dir * j], v[j]));
      Cx tw = cmul(w, t);
      for (int64_t j = 0; j < len; j++) {
        int64_t c = r0 + dir * j;
        m[r * n + c] = csub(m[r * n + c], cmul(tw, cconj(v[j])));
      }
    }
  }
  for (int64_t i = 0; i < n; i++) {
    d[i] = m[i * n + i].re;
    a[i * n + i] = cx(d[i], 0);
  }
}

static cxla_status cc_sytrd(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "sytrd operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad sytrd operand");
  int64_t k = n > 0 ? n - 1 : 0;
  if (res->ntuple != 5) return interp_error(in, CXLA_INVALID_ARGUMENT, "sytrd returns 5 values");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, real_type(ty), x->rank - 1, batch * n));
  TRY(want_elem(in, 2, real_type(ty), x->rank - 1, batch * k));
  TRY(want_elem(in, 3, ty, x->rank - 1, batch * k));
  TRY(want_elem(in, 4, T_S32, x->rank - 2, batch));
  bool lower = cfg_char(in, "uplo", 'L') == 'L';
  Work w;
  TRY(work_alloc(&w, n * n + 2 * n + 1));
  double *dd = w.w, *ee = w.w + n;
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * n * n, n * n, w.a);
    sytrd(w.a, w.b, n, lower, dd, ee, w.c, type_is_complex(ty), w.d, w.e);
    store_cx(res->tuple[0], b * n * n, n * n, w.a);
    for (int64_t i = 0; i < n; i++) literal_set_f64(res->tuple[1], b * n + i, dd[i]);
    for (int64_t i = 0; i < k; i++) literal_set_f64(res->tuple[2], b * k + i, ee[i]);
    store_cx(res->tuple[3], b * k, k, w.c);
    literal_set_i64(res->tuple[4], b, 0);
  }
  work_free(&w);
  return NULL;
}

/* ---- real Schur form (dgees / sgees) ------------------------------------------ */

/* Applies the reflector I - 2 v v^T / (v^T v) (v of length len, at row /
 * column k) to rows k.. of h for columns c0..n-1, to columns k.. of h for
 * rows 0..r1, and to columns k.. of z. */
static void rs_reflect(double *h, double *z, int64_t n, int64_t k, int len, const double *v,
                       int64_t c0, int64_t r1) {
  double vv = 0;
  for (int i = 0; i < len; i++) vv += v[i] * v[i];
  if (vv == 0) return;
  double f = 2 / vv;
  for (int64_t c = c0; c < n; c++) {
    double s = 0;
    for (int i = 0; i < len; i++) s += v[i] * h[(k + i) * n + c];
    s *= f;
    for (int i = 0; i < len; i++) h[(k + i) * n + c] -= s * v[i];
  }
  for (int64_t r = 0; r <= r1; r++) {
    double s = 0;
    for (int i = 0; i < len; i++) s += h[r * n + k + i] * v[i];
    s *= f;
    for (int i = 0; i < len; i++) h[r * n + k + i] -= s * v[i];
  }
  for (int64_t r = 0; r < n; r++) {
    double s = 0;
    for (int i = 0; i < len; i++) s += z[r * n + k + i] * v[i];
    s *= f;
    for (int i = 0; i < len; i++) z[r * n + k + i] -= s * v[i];
  }
}

/* The Householder vector mapping u (len 2 or 3) to a multiple of e1. */
static void rs_house(const double *u, int len, double *v) {
  double nrm = 0;
  for (int i = 0; i < len; i++) nrm = hypot(nrm, u[i]);
  for (int i = 0; i < len; i++) v[i] = u[i];
  v[0] += u[0] >= 0 ? nrm : -nrm;
}

/* Rotates rows/columns p, p+1 of h (and columns of z) by [[c, -s], [s, c]]:
 * h := G^T h G, z := z G. */
static void rs_rot(double *h, double *z, int64_t n, int64_t p, double c, double s) {
  for (int64_t j = 0; j < n; j++) {
    double x = h[p * n + j], y = h[(p + 1) * n + j];
    h[p * n + j] = c * x + s * y, h[(p + 1) * n + j] = -s * x + c * y;
  }
  for (int64_t i = 0; i < n; i++) {
    double x = h[i * n + p], y = h[i * n + p + 1];
    h[i * n + p] = c * x + s * y, h[i * n + p + 1] = -s * x + c * y;
    x = z[i * n + p], y = z[i * n + p + 1];
    z[i * n + p] = c * x + s * y, z[i * n + p + 1] = -s * x + c * y;
  }
}

/* Standardizes the 2x2 diagonal block at p: upper triangular when its
 * eigenvalues are real, else equal diagonal entries (LAPACK's form). */
static void rs_block(double *h, double *z, int64_t n, int64_t p) {
  double a = h[p * n + p], b = h[p * n + p + 1], c = h[(p + 1) * n + p], d = h[(p + 1) * n + p + 1];
  double hd = (a - d) / 2, disc = hd * hd + b * c;
  double cs, sn;
  if (disc >= 0) {
    double lam = (a + d) / 2 + (hd >= 0 ? sqrt(disc) : -sqrt(disc));
    double x1 = b, y1 = lam - a, x2 = lam - d, y2 = c; /* eigenvectors */
    double n1 = hypot(x1, y1), n2 = hypot(x2, y2);
    if (n1 >= n2 && n1 > 0) cs = x1 / n1, sn = y1 / n1;
    else if (n2 > 0) cs = x2 / n2, sn = y2 / n2;
    else cs = 1, sn = 0;
    rs_rot(h, z, n, p, cs, sn);
    h[(p + 1) * n + p] = 0;
  } else {
    double th = 0.5 * atan2(-(a - d), b + c);
    rs_rot(h, z, n, p, cos(th), sin(th));
    double m = (h[p * n + p] + h[(p + 1) * n + p + 1]) / 2;
    h[p * n + p] = h[(p + 1) * n + p + 1] = m;
  }
}

/* Real Schur form of the upper Hessenberg h by Francis double-shift QR
 * iterations: h := Z^T h Z quasi-triangular (standardized 2x2 blocks for
 * complex pairs), z := z Z. Returns 0 or (no convergence, e.g. NaN input)
 * LAPACK's info. */
static int64_t real_schur(double *h, double *z, int64_t n) {
  const double eps = 2.220446049250313e-16;
  int64_t hi = n - 1, iter = 0, limit = 30 * (n > 10 ? n : 10);
  while (hi >= 0) {
    int64_t l = hi;
    for (; l > 0; l--) {
      double s = fabs(h[(l - 1) * n + l - 1]) + fabs(h[l * n + l]);
      double sub = fabs(h[l * n + l - 1]);
      if (sub <= eps * s || sub < 1e-300) {
        h[l * n + l - 1] = 0;
        break;
      }
    }
    if (l == hi) {
      hi--, iter = 0;
      continue;
    }
    if (l == hi - 1) {
      rs_block(h, z, n, hi - 1);
      hi -= 2, iter = 0;
      continue;
    }
    if (++iter > limit) return hi + 1;
    double s, t;
    if (iter % 10 == 0) {
      double e = fabs(h[hi * n + hi - 1]) + fabs(h[(hi - 1) * n + hi - 2]);
      s = 1.5 * e, t = e * e;
    } else {
      s = h[(hi - 1) * n + hi - 1] + h[hi * n + hi];
      t = h[(hi - 1) * n + hi - 1] * h[hi * n + hi] - h[(hi - 1) * n + hi] * h[hi * n + hi - 1];
    }
    if (!isfinite(s) || !isfinite(t)) return hi + 1;
    double u[3], v[3];
    u[0] = h[l * n + l] * h[l * n + l] + h[l * n + l + 1] * h[(l + 1) * n + l] - s * h[l * n + l] + t;
    u[1] = h[(l + 1) * n + l] * (h[l * n + l] + h[(l + 1) * n + l + 1] - s);
    u[2] = h[(l + 1) * n + l] * h[(l + 2) * n + l + 1];
    for (int64_t k = l; k <= hi - 2; k++) {
      rs_house(u, 3, v);
      int64_t r1 = k + 3 < hi ? k + 3 : hi;
      rs_reflect(h, z, n, k, 3, v, k > l ? k - 1 : l, r1);
      if (k > l) h[(k + 1) * n + k - 1] = h[(k + 2) * n + k - 1] = 0;
      u[0] = h[(k + 1) * n + k], u[1] = h[(k + 2) * n + k];
      if (k < hi - 2) u[2] = h[(k + 3) * n + k];
    }
    rs_house(u, 2, v);
    rs_reflect(h, z, n, hi - 1, 2, v, hi - 2, hi);
    h[hi * n + hi - 2] = 0;
  }
  return 0;
}

static cxla_status cc_dgees(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "gees operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad gees operand");
  if (res->ntuple != 6) return interp_error(in, CXLA_INVALID_ARGUMENT, "real gees returns 6 values");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, ty, x->rank, x->nelems));
  TRY(want_elem(in, 2, ty, x->rank - 1, batch * n));
  TRY(want_elem(in, 3, ty, x->rank - 1, batch * n));
  TRY(want_elem(in, 4, T_S32, x->rank - 2, batch));
  TRY(want_elem(in, 5, T_S32, x->rank - 2, batch));
  bool vecs = cfg_char(in, "mode", 'V') == 'V';
  Work w;
  TRY(work_alloc(&w, n * n + 2 * n));
  double *h = (double *)w.c, *z = (double *)w.e; /* n*n doubles fit in n*n Cx */
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * n * n, n * n, w.a);
    hessenberg(w.a, w.b, n, w.d);
    for (int64_t i = 0; i < n * n; i++) h[i] = w.a[i].re, z[i] = w.b[i].re;
    int64_t info = real_schur(h, z, n);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j + 1 < i; j++) h[i * n + j] = 0;
    for (int64_t i = 0; i < n; i++) {
      double wr = h[i * n + i], wi = 0;
      if (i + 1 < n && h[(i + 1) * n + i] != 0)
        wi = sqrt(fabs(h[i * n + i + 1])) * sqrt(fabs(h[(i + 1) * n + i]));
      else if (i > 0 && h[i * n + i - 1] != 0)
        wi = -sqrt(fabs(h[(i - 1) * n + i])) * sqrt(fabs(h[i * n + i - 1]));
      literal_set_f64(res->tuple[2], b * n + i, wr);
      literal_set_f64(res->tuple[3], b * n + i, wi);
    }
    for (int64_t i = 0; i < n * n; i++) {
      literal_set_f64(res->tuple[0], b * n * n + i, h[i]);
      literal_set_f64(res->tuple[1], b * n * n + i, vecs ? z[i] : 0);
    }
    literal_set_i64(res->tuple[4], b, 0);
    literal_set_i64(res->tuple[5], b, info);
  }
  work_free(&w);
  return NULL;
}

/* ?gees (mode, sort = 'N'): complex a -> (t, vs, w, sdim 0, info): the
 * complex Schur form t = vs^H a vs (upper triangular), the Schur vectors
 * (zeros when mode is 'N') and w = diag(t). Real a -> (t, vs, wr, wi,
 * sdim 0, info) with LAPACK's real Schur form (standardized 2x2 blocks for
 * complex pairs). */
static cxla_status cc_gees(const Instr *in, const Literal *x, ElemType ty, Literal *res) {
  int64_t batch, n, n2;
  TRY(mat_dims(in, x, "gees operand", &batch, &n, &n2));
  if (n != n2 || x->type != ty) return interp_error(in, CXLA_INVALID_ARGUMENT, "bad gees operand");
  if (cfg_char(in, "sort", 'N') != 'N')
    return interp_error(in, CXLA_UNIMPLEMENTED, "gees with eigenvalue sorting is not supported");
  if (!type_is_complex(ty)) return cc_dgees(in, x, ty, res);
  if (res->ntuple != 5) return interp_error(in, CXLA_INVALID_ARGUMENT, "gees returns 5 values");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, ty, x->rank, x->nelems));
  TRY(want_elem(in, 2, ty, x->rank - 1, batch * n));
  TRY(want_elem(in, 3, T_S32, x->rank - 2, batch));
  TRY(want_elem(in, 4, T_S32, x->rank - 2, batch));
  bool vecs = cfg_char(in, "mode", 'V') == 'V';
  Work w;
  TRY(work_alloc(&w, n * n + 2 * n));
  for (int64_t b = 0; b < batch; b++) {
    Cx *a = w.a, *q = w.b;
    load_cx(x, b * n * n, n * n, a);
    hessenberg(a, q, n, w.d);
    int64_t info = schur_qr(a, q, n, w.w, w.d);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < i; j++) a[i * n + j] = cx(0, 0);
    for (int64_t i = 0; i < n; i++) w.e[i] = a[i * n + i];
    if (!vecs)
      for (int64_t i = 0; i < n * n; i++) q[i] = cx(0, 0);
    store_cx(res->tuple[0], b * n * n, n * n, a);
    store_cx(res->tuple[1], b * n * n, n * n, q);
    store_cx(res->tuple[2], b * n, n, w.e);
    literal_set_i64(res->tuple[3], b, 0);
    literal_set_i64(res->tuple[4], b, info);
  }
  work_free(&w);
  return NULL;
}

/* A boolean attribute of backend_config ("{left = true, ...}"; integers
 * too), or dflt. */
static bool cfg_bool(const Instr *in, const char *key, bool dflt) {
  const char *cfg = instr_raw(in, "backend_config");
  if (!cfg) return dflt;
  size_t kl = strlen(key);
  for (const char *p = strstr(cfg, key); p; p = strstr(p + 1, key)) {
    bool start_ok = p == cfg || strchr("{ ,\"", p[-1]);
    const char *q = p + kl;
    while (*q == ' ') q++;
    if (!start_ok || *q != '=') continue;
    q++;
    while (*q == ' ') q++;
    if (strncmp(q, "true", 4) == 0) return true;
    if (strncmp(q, "false", 5) == 0) return false;
    char *end;
    long v = strtol(q, &end, 10);
    if (end != q) return v != 0;
  }
  return dflt;
}

/* ?ormqr / ?unmqr (a, tau, c; left, transpose) -> op(Q) c or c op(Q), Q =
 * H_0 ... H_{k-1} from geqrf's reflectors in a [..., m, n] (k = len(tau)),
 * op(Q) = Q^H when transpose; c [..., r, s] with m = r (left) or s. */
static cxla_status cc_ormqr(const Instr *in, Literal *const *ops, ElemType ty, Literal **out) {
  if (in->noperands != 3) return interp_error(in, CXLA_INVALID_ARGUMENT, "ormqr takes 3 operands");
  const Literal *la = ops[0], *lt = ops[1], *lc = ops[2];
  int64_t batch, m, n, cb, r, s;
  TRY(mat_dims(in, la, "ormqr reflectors", &batch, &m, &n));
  TRY(mat_dims(in, lc, "ormqr operand c", &cb, &r, &s));
  if (la->type != ty || lt->type != ty || lc->type != ty)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "ormqr operands must be %s", type_name(ty));
  bool left = cfg_bool(in, "left", true), trans = cfg_bool(in, "transpose", false);
  int64_t k = lt->rank >= 1 ? lt->dims[lt->rank - 1] : -1;
  if (cb != batch || lt->rank != la->rank - 1 || k < 0 || k > n || k > m || lt->nelems != batch * k ||
      (left ? r : s) != m)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "ormqr operand shapes do not fit");
  if (!in->shape || in->shape->type != ty || shape_elems(in->shape) != lc->nelems)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "ormqr result must have c's shape");
  Literal *res;
  TRY(make_result(in, &res));
  Work w;
  cxla_status st = work_alloc(&w, m * n + r * s + m + k);
  if (st) {
    literal_free(res);
    return st;
  }
  bool cplx = type_is_complex(ty), reverse = left != trans;
  for (int64_t b = 0; b < batch; b++) {
    Cx *a = w.a, *c = w.b, *tau = w.c, *v = w.d;
    load_cx(la, b * m * n, m * n, a);
    load_cx(lc, b * r * s, r * s, c);
    load_cx(lt, b * k, k, tau);
    for (int64_t it = 0; it < k; it++) {
      int64_t j = reverse ? k - 1 - it : it;
      Cx t = trans && cplx ? cconj(tau[j]) : tau[j];
      for (int64_t i = 0; i < m; i++) v[i] = i < j ? cx(0, 0) : i == j ? cx(1, 0) : a[i * n + j];
      if (left) { /* c -= t v (v^H c) */
        for (int64_t col = 0; col < s; col++) {
          Cx d = cx(0, 0);
          for (int64_t i = j; i < m; i++) d = cadd(d, cmul(cconj(v[i]), c[i * s + col]));
          d = cmul(t, d);
          for (int64_t i = j; i < m; i++) c[i * s + col] = csub(c[i * s + col], cmul(v[i], d));
        }
      } else { /* c -= t (c v) v^H */
        for (int64_t row = 0; row < r; row++) {
          Cx d = cx(0, 0);
          for (int64_t i = j; i < m; i++) d = cadd(d, cmul(c[row * s + i], v[i]));
          d = cmul(t, d);
          for (int64_t i = j; i < m; i++) c[row * s + i] = csub(c[row * s + i], cmul(d, cconj(v[i])));
        }
      }
    }
    store_cx(res, b * r * s, r * s, c);
  }
  work_free(&w);
  *out = res;
  return NULL;
}

/* LAPACK's ?geqp3 (as its unblocked ?laqp2): Householder QR of a (m x n)
 * with column pivoting. jpvt (in): nonzero marks a column to move to the
 * front and factor first without pivoting; (out) the 1-based original index
 * of each column. The remaining steps pivot the column of largest
 * (downdated) remaining norm, recomputing a norm when downdating loses
 * accuracy (tol3z = sqrt(eps) of the element type). */
static void geqp3(Cx *a, int64_t m, int64_t n, int64_t *jpvt, Cx *tau, double *vn1, double *vn2,
                  bool complex, double eps, Cx *v) {
  int64_t nfxd = 0, k = m < n ? m : n;
  for (int64_t j = 0; j < n; j++) {
    if (jpvt[j] != 0) {
      if (j != nfxd) {
        for (int64_t r = 0; r < m; r++) {
          Cx t = a[r * n + j];
          a[r * n + j] = a[r * n + nfxd];
          a[r * n + nfxd] = t;
        }
        jpvt[j] = jpvt[nfxd];
      } else {
        jpvt[j] = j + 1;
      }
      jpvt[nfxd] = j + 1;
      nfxd++;
    } else {
      jpvt[j] = j + 1;
    }
  }
  double tol3z = sqrt(eps);
  for (int64_t i = 0; i < k; i++) {
    if (i >= nfxd) {
      if (i == nfxd || i == 0)
        for (int64_t j = i; j < n; j++) {
          double s = 0;
          for (int64_t r = i; r < m; r++) s = hypot(s, cabsv(a[r * n + j]));
          vn1[j] = vn2[j] = s;
        }
      int64_t p = i;
      for (int64_t j = i + 1; j < n; j++)
        if (vn1[j] > vn1[p]) p = j;
      if (p != i) {
        for (int64_t r = 0; r < m; r++) {
          Cx t = a[r * n + p];
          a[r * n + p] = a[r * n + i];
          a[r * n + i] = t;
        }
        int64_t t = jpvt[p];
        jpvt[p] = jpvt[i];
        jpvt[i] = t;
        vn1[p] = vn1[i];
        vn2[p] = vn2[i];
      }
    }
    tau[i] = larfg(&a[i * n + i], i + 1 < m ? &a[(i + 1) * n + i] : v, m - i - 1, n, complex);
    apply_reflector(a, m, n, i, i, cconj(tau[i]), i + 1, n, v);
    if (i < nfxd) continue;
    for (int64_t j = i + 1; j < n; j++) {
      if (vn1[j] == 0) continue;
      double t = cabsv(a[i * n + j]) / vn1[j];
      t = 1 - t * t;
      if (t < 0) t = 0;
      double r = vn1[j] / vn2[j], t2 = t * r * r;
      if (t2 <= tol3z) {
        double s = 0;
        for (int64_t q = i + 1; q < m; q++) s = hypot(s, cabsv(a[q * n + j]));
        vn1[j] = vn2[j] = i + 1 < m ? s : 0;
      } else {
        vn1[j] *= sqrt(t);
      }
    }
  }
}

/* ?geqp3 (a, jpvt) -> (a: R and the reflectors, jpvt 1-based, tau[min(m, n)]). */
static cxla_status cc_geqp3(const Instr *in, Literal *const *ops, ElemType ty, Literal *res) {
  if (in->noperands != 2) return interp_error(in, CXLA_INVALID_ARGUMENT, "geqp3 takes 2 operands");
  const Literal *x = ops[0], *jp = ops[1];
  int64_t batch, m, n;
  TRY(mat_dims(in, x, "geqp3 operand", &batch, &m, &n));
  int64_t k = m < n ? m : n;
  if (x->type != ty || !type_is_int(jp->type) || jp->nelems != batch * n || res->ntuple != 3)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "bad geqp3 operands or results");
  TRY(want_elem(in, 0, ty, x->rank, x->nelems));
  TRY(want_elem(in, 1, jp->type, jp->rank, batch * n));
  TRY(want_elem(in, 2, ty, x->rank - 1, batch * k));
  double eps = ty == T_F32 || ty == T_C64 ? 5.9604644775390625e-08 : 1.1102230246251565e-16;
  Work w;
  TRY(work_alloc(&w, m * n + 2 * n + m + 1));
  int64_t *piv = cxla_calloc((size_t)n + 1, sizeof *piv);
  if (!piv) {
    work_free(&w);
    return cxla_oom();
  }
  for (int64_t b = 0; b < batch; b++) {
    load_cx(x, b * m * n, m * n, w.a);
    for (int64_t j = 0; j < n; j++) piv[j] = literal_get_i64(jp, b * n + j);
    geqp3(w.a, m, n, piv, w.b, w.w, w.w + n, type_is_complex(ty), eps, w.c);
    store_cx(res->tuple[0], b * m * n, m * n, w.a);
    for (int64_t j = 0; j < n; j++) literal_set_i64(res->tuple[1], b * n + j, piv[j]);
    store_cx(res->tuple[2], b * k, k, w.b);
  }
  cxla_free(piv);
  work_free(&w);
  return NULL;
}

static cxla_status cc_trsm(const Instr *in, Literal *const *ops, ElemType ty, Literal **out) {
  if (in->noperands != 2) return interp_error(in, CXLA_INVALID_ARGUMENT, "trsm takes 2 operands");
  if (ops[0]->type != ty || ops[1]->type != ty)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "trsm operands must be %s", type_name(ty));
  int tr = cfg_char(in, "trans_x", 'N');
  TriOpts o = {cfg_char(in, "side", 'L') == 'L', cfg_char(in, "uplo", 'L') == 'L',
               cfg_char(in, "diag", 'N') == 'U',
               tr == 'T' ? TRI_TRANSPOSE : tr == 'C' ? TRI_ADJOINT : TRI_NO_TRANSPOSE};
  return trisolve(in, ops[0], ops[1], &o, out);
}

/* LAPACK's ?gtsv on one system: Gaussian elimination with partial pivoting
 * of the tridiagonal matrix (sub-diagonal dl[0..n-2], diagonal d, super-
 * diagonal du[0..n-2]), applied to the n x nrhs right-hand sides b (row-
 * major). On return, as LAPACK leaves them: d holds U's diagonal, du its
 * first super-diagonal, dl[0..n-3] its second, and b the solution. Pivots
 * compare |re| + |im| (LAPACK's CABS1; |x| for reals). Returns info: 0, or
 * k (1-based) if U(k, k) is exactly zero, in which case it stops there with
 * b partly updated, like LAPACK. */
static int64_t gtsv(Cx *dl, Cx *d, Cx *du, Cx *b, int64_t n, int64_t nrhs) {
  for (int64_t k = 0; k + 1 < n; k++) {
    Cx *bk = b + k * nrhs, *bk1 = bk + nrhs;
    if (cis_zero(dl[k])) {
      if (cis_zero(d[k])) return k + 1;
    } else if (fabs(d[k].re) + fabs(d[k].im) >= fabs(dl[k].re) + fabs(dl[k].im)) {
      Cx mult = cdiv(dl[k], d[k]);
      d[k + 1] = csub(d[k + 1], cmul(mult, du[k]));
      for (int64_t j = 0; j < nrhs; j++) bk1[j] = csub(bk1[j], cmul(mult, bk[j]));
      if (k + 2 < n) dl[k] = cx(0, 0);
    } else {
      Cx mult = cdiv(d[k], dl[k]);
      d[k] = dl[k];
      Cx t = d[k + 1];
      d[k + 1] = csub(du[k], cmul(mult, t));
      if (k + 2 < n) {
        dl[k] = du[k + 1];
        du[k + 1] = cmul(cx(-mult.re, -mult.im), dl[k]);
      }
      du[k] = t;
      for (int64_t j = 0; j < nrhs; j++) {
        Cx u = bk[j];
        bk[j] = bk1[j];
        bk1[j] = csub(u, cmul(mult, bk1[j]));
      }
    }
  }
  if (n > 0 && cis_zero(d[n - 1])) return n;
  for (int64_t j = 0; j < nrhs && n > 0; j++) {
    b[(n - 1) * nrhs + j] = cdiv(b[(n - 1) * nrhs + j], d[n - 1]);
    if (n > 1) {
      Cx v = csub(b[(n - 2) * nrhs + j], cmul(du[n - 2], b[(n - 1) * nrhs + j]));
      b[(n - 2) * nrhs + j] = cdiv(v, d[n - 2]);
    }
    for (int64_t k = n - 3; k >= 0; k--) {
      Cx v = csub(b[k * nrhs + j], cmul(du[k], b[(k + 1) * nrhs + j]));
      v = csub(v, cmul(dl[k], b[(k + 2) * nrhs + j]));
      b[k * nrhs + j] = cdiv(v, d[k]);
    }
  }
  return 0;
}

/* jaxlib's tridiagonal solver target: operands (dl, d, du, b), results
 * (dl, d, du, b, info), all four arrays updated in place. dl, d, du are
 * [..., n] (JAX keeps dl[0] = 0 and du[n-1] = 0; LAPACK is handed dl + 1, so
 * dl[0] and du[n-1] pass through unchanged), b is [..., n, nrhs], info is
 * s32[...]. */
static cxla_status cc_gtsv(const Instr *in, Literal *const *ops, ElemType ty, Literal *res) {
  if (in->noperands != 4) return interp_error(in, CXLA_INVALID_ARGUMENT, "gtsv takes 4 operands");
  const Literal *ldl = ops[0], *ld = ops[1], *ldu = ops[2], *lb = ops[3];
  int r = ld->rank;
  if (r < 1 || lb->rank != r + 1)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "gtsv needs d [..., n] and b [..., n, nrhs]");
  for (int i = 0; i < 4; i++)
    if (ops[i]->type != ty)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "gtsv operands must be %s", type_name(ty));
  for (int i = 0; i < r; i++)
    if (ldl->rank != r || ldu->rank != r || ldl->dims[i] != ld->dims[i] ||
        ldu->dims[i] != ld->dims[i] || lb->dims[i] != ld->dims[i])
      return interp_error(in, CXLA_INVALID_ARGUMENT, "gtsv operand dimensions disagree");
  int64_t n = ld->dims[r - 1], nrhs = lb->dims[r];
  int64_t batch = 1;
  for (int i = 0; i < r - 1; i++) batch *= ld->dims[i];
  for (int i = 0; i < 3; i++) TRY(want_elem(in, i, ty, r, ld->nelems));
  TRY(want_elem(in, 3, ty, r + 1, lb->nelems));
  TRY(want_elem(in, 4, T_S32, r - 1, batch));
  if (batch == 0 || n == 0) return NULL; /* nothing to solve; info stays 0 */
  Work w; /* n * nrhs is one batch element's share of b, which exists */
  TRY(work_alloc(&w, 3 * n + n * nrhs));
  Cx *dl = w.a, *d = dl + n, *du = d + n, *b = du + n;
  for (int64_t k = 0; k < batch; k++) {
    load_cx(ldl, k * n, n, dl);
    load_cx(ld, k * n, n, d);
    load_cx(ldu, k * n, n, du);
    load_cx(lb, k * n * nrhs, n * nrhs, b);
    int64_t info = gtsv(dl + 1, d, du, b, n, nrhs);
    store_cx(res->tuple[0], k * n, n, dl);
    store_cx(res->tuple[1], k * n, n, d);
    store_cx(res->tuple[2], k * n, n, du);
    store_cx(res->tuple[3], k * n * nrhs, n * nrhs, b);
    literal_set_i64(res->tuple[4], k, info);
  }
  work_free(&w);
  return NULL;
}

/* Keeps a back-substitution pivot away from zero (LAPACK's xLAGTS logic
 * as jaxlib's tridiagonal_solve_perturbed uses it): while |pivot| < 1 and
 * dividing the row by it could overflow, add perturb (doubling it each
 * time), or scale pivot and row up when that is safe. */
static void perturb_pivot(double perturb, Cx *pivot, Cx *row, int64_t nrhs, double safemin) {
  double ap = cabsv(*pivot), big = 1 / safemin;
  if (ap >= 1) return;
  perturb = copysign(fmax(fabs(perturb), safemin), pivot->re);
  double mx = 0;
  for (int64_t j = 0; j < nrhs; j++) mx = fmax(mx, cabsv(row[j]));
  for (bool stop = false; ap < 1 && !stop; ap = cabsv(*pivot)) {
    if (ap < safemin) {
      if (ap == 0 || mx * safemin > ap) {
        pivot->re += perturb, perturb *= 2;
      } else {
        *pivot = cscale(*pivot, big);
        for (int64_t j = 0; j < nrhs; j++) row[j] = cscale(row[j], big);
        stop = true;
      }
    } else if (mx > ap * big) {
      pivot->re += perturb, perturb *= 2;
    } else {
      stop = true;
    }
  }
}

/* tridiagonal_solve_perturbed_ffi (dl, d, du, b) -> x: Gaussian
 * elimination with row pivoting (LAPACK's xLAGTF / xLAGTS) on T x = b with
 * T = tridiag(dl[1:], d, du[:-1]), tiny pivots perturbed by eps * max|U|
 * instead of failing (x finite for a singular T). u: 3n, row: nrhs. */
static void gt_perturbed(const Cx *dl, const Cx *d, const Cx *du, const Cx *b, Cx *x, int64_t n,
                         int64_t nr, Cx *u, Cx *row, double eps, double safemin) {
  if (n == 0) return;
#define U(i, j) u[(i) * 3 + (j)]
#define X(i, j) x[(i) * nr + (j)]
  if (n == 1) {
    Cx p = d[0];
    for (int64_t j = 0; j < nr; j++) row[j] = b[j];
    perturb_pivot(eps * cabsv(p), &p, row, nr, safemin);
    for (int64_t j = 0; j < nr; j++) X(0, j) = cdiv(row[j], p);
    return;
  }
  for (int64_t i = 0; i < 3 * n; i++) u[i] = cx(0, 0);
  U(0, 0) = d[0], U(0, 1) = du[0];
  double maxu = fmax(cabsv(U(0, 0)), cabsv(U(0, 1)));
  double s1 = cabsv(U(0, 0)) + cabsv(U(0, 1));
  for (int64_t j = 0; j < nr; j++) X(0, j) = b[j];
  for (int64_t k = 0; k + 1 < n; k++) {
    U(k + 1, 0) = d[k + 1];
    double s2 = cabsv(dl[k + 1]) + cabsv(U(k + 1, 0));
    if (k < n - 2) s2 += cabsv(du[k + 1]);
    if (cis_zero(dl[k + 1])) {
      s1 = s2;
      U(k + 1, 1) = du[k + 1], U(k, 2) = cx(0, 0);
      for (int64_t j = 0; j < nr; j++) X(k + 1, j) = b[(k + 1) * nr + j];
    } else {
      double p1 = cis_zero(U(k, 0)) ? 0 : cabsv(U(k, 0)) / s1, p2 = cabsv(dl[k + 1]) / s2;
      if (p2 <= p1) {
        s1 = s2;
        Cx f = cdiv(dl[k + 1], U(k, 0));
        U(k + 1, 0) = csub(U(k + 1, 0), cmul(f, U(k, 1)));
        U(k + 1, 1) = du[k + 1], U(k, 2) = cx(0, 0);
        for (int64_t j = 0; j < nr; j++) X(k + 1, j) = csub(b[(k + 1) * nr + j], cmul(f, X(k, j)));
      } else {
        Cx f = cdiv(U(k, 0), dl[k + 1]), t = U(k, 1);
        U(k, 0) = dl[k + 1];
        U(k + 1, 0) = csub(t, cmul(f, d[k + 1]));
        U(k, 1) = d[k + 1];
        if (k < n - 2) U(k, 2) = du[k + 1], U(k + 1, 1) = cmul(cx(-f.re, -f.im), du[k + 1]);
        for (int64_t j = 0; j < nr; j++) {
          X(k + 1, j) = csub(X(k, j), cmul(f, b[(k + 1) * nr + j]));
          X(k, j) = b[(k + 1) * nr + j];
        }
        s1 = cabsv(U(k + 1, 0)) + cabsv(U(k + 1, 1));
      }
    }
    if (k < n - 2)
      for (int i = 0; i < 3; i++) maxu = fmax(maxu, cabsv(U(k, i)));
  }
  maxu = fmax(maxu, cabsv(U(n - 1, 0)));
  double perturb = eps * maxu;
  for (int64_t k = n - 1; k >= 0; k--) {
    Cx p = U(k, 0);
    for (int64_t j = 0; j < nr; j++) {
      Cx v = X(k, j);
      if (k + 1 < n) v = csub(v, cmul(U(k, 1), X(k + 1, j)));
      if (k + 2 < n) v = csub(v, cmul(U(k, 2), X(k + 2, j)));
      row[j] = v;
    }
    perturb_pivot(k == n - 1 ? perturb : copysign(perturb, p.re), &p, row, nr, safemin);
    Cx inv = cdiv(cx(1, 0), p);
    for (int64_t j = 0; j < nr; j++) X(k, j) = cmul(row[j], inv);
  }
#undef U
#undef X
}

static cxla_status cc_gt_perturbed(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 4) return interp_error(in, CXLA_INVALID_ARGUMENT, "takes 4 operands");
  const Literal *lb = ops[3];
  ElemType ty = lb->type;
  if (!is_linalg_type(ty) || lb->rank < 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "b must be a float or complex array of rank >= 2");
  int64_t n = lb->dims[lb->rank - 2], nr = lb->dims[lb->rank - 1], batch = 1;
  for (int i = 0; i < lb->rank - 2; i++) batch *= lb->dims[i];
  for (int i = 0; i < 3; i++)
    if (ops[i]->type != ty || ops[i]->nelems != batch * n || ops[i]->rank != lb->rank - 1)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "dl, d, du must be [..., n] of b's type");
  if (!in->shape || in->shape->type != ty || shape_elems(in->shape) != lb->nelems)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "the result must have b's shape");
  bool single = ty == T_F32 || ty == T_C64;
  double eps = single ? 1.1920928955078125e-07 : 2.220446049250313e-16;
  double safemin = single ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
  Literal *res;
  TRY(make_result(in, &res));
  Work w;
  cxla_status st = work_alloc(&w, 3 * n + n * nr + nr + 1);
  if (st) {
    literal_free(res);
    return st;
  }
  for (int64_t b = 0; b < batch; b++) {
    load_cx(ops[0], b * n, n, w.a);
    load_cx(ops[1], b * n, n, w.a + n);
    load_cx(ops[2], b * n, n, w.a + 2 * n);
    load_cx(lb, b * n * nr, n * nr, w.b);
    gt_perturbed(w.a, w.a + n, w.a + 2 * n, w.b, w.c, n, nr, w.d, w.e, eps, safemin);
    store_cx(res, b * n * nr, n * nr, w.c);
  }
  work_free(&w);
  *out = res;
  return NULL;
}

static cxla_status eval_custom_call(const Instr *in, Literal *const *ops, Literal **out) {
  const char *target = in->custom_call_target ? in->custom_call_target : "";
  ElemType ty = in->noperands > 0 ? ops[0]->type : T_F32;
  int kind;
  /* TensorFlow's QR targets (XLA expands them with its QrExpander, whose
   * Householder convention is LAPACK's): "Qr" is geqrf, returning
   * (r_and_reflectors, taus); "ProductOfElementaryHouseholderReflectors"
   * (a, taus) is orgqr / ungqr. */
  if (strcmp(target, "Qr") == 0) {
    kind = 2;
    goto run;
  }
  if (strcmp(target, "ProductOfElementaryHouseholderReflectors") == 0) {
    kind = 3;
    goto run;
  }
  if (strcmp(target, "tridiagonal_solve_perturbed_ffi") == 0) return cc_gt_perturbed(in, ops, out);
  if (strcmp(target, "Eigh") == 0) {
    kind = 6;
    goto run;
  }
  const char *r = lapack_routine(target, &ty);
  bool cplx = ty == T_C64 || ty == T_C128;
  if (!r) goto unsupported;
  if (routine_is(r, "trsm")) return cc_trsm(in, ops, ty, out);
  if (routine_is(r, cplx ? "unmqr" : "ormqr")) return cc_ormqr(in, ops, ty, out);
  if (routine_is(r, "potrf")) kind = 0;
  else if (routine_is(r, "getrf")) kind = 1;
  else if (routine_is(r, "geqrf")) kind = 2;
  else if (routine_is(r, cplx ? "ungqr" : "orgqr")) kind = 3;
  else if (routine_is(r, cplx ? "heevd" : "syevd")) kind = 4;
  else if (routine_is(r, "gesdd") || routine_is(r, "gesvd")) kind = 5;
  else if (routine_is(r, "gtsv")) kind = 7;
  else if (routine_is(r, "geev")) kind = 8;
  else if (routine_is(r, "gehrd")) kind = 9;
  else if (routine_is(r, "gees")) kind = 11;
  else if (routine_is(r, "geqp3")) kind = 12;
  else if (routine_is(r, cplx ? "hetrd" : "sytrd")) kind = 10;
  else goto unsupported;
run:
  if (in->noperands < 1) return interp_error(in, CXLA_INVALID_ARGUMENT, "missing operand");
  if (!type_is_float(ty) && !type_is_complex(ty))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%s needs a floating-point operand", target);
  Literal *res;
  TRY(make_result(in, &res));
  if (kind != 3 && res->type != T_TUPLE) {
    literal_free(res);
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%s must return a tuple", target);
  }
  cxla_status st;
  switch (kind) {
  case 0: st = cc_potrf(in, ops[0], ty, res); break;
  case 1: st = cc_getrf(in, ops[0], ty, res); break;
  case 2: st = cc_geqrf(in, ops[0], ty, res); break;
  case 3: st = cc_orgqr(in, ops, ty, res); break;
  case 4: st = cc_syevd(in, ops[0], ty, res); break;
  case 6: st = cc_eigh_tf(in, ops[0], ty, res); break;
  case 7: st = cc_gtsv(in, ops, ty, res); break;
  case 8: st = cc_geev(in, ops[0], ty, res); break;
  case 9: st = cc_gehrd(in, ops[0], ty, res); break;
  case 11: st = cc_gees(in, ops[0], ty, res); break;
  case 12: st = cc_geqp3(in, ops, ty, res); break;
  case 10: st = cc_sytrd(in, ops[0], ty, res); break;
  default: st = cc_gesdd(in, ops[0], ty, res); break;
  }
  if (st) {
    literal_free(res);
    return st;
  }
  *out = res;
  return NULL;
unsupported:
  return interp_error(in, CXLA_UNIMPLEMENTED, "unsupported custom-call target '%s'", target);
}

cxla_status interp_linalg(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip;
  *out = NULL;
  switch (in->op) {
  case OP_CHOLESKY: return eval_cholesky(in, ops, out);
  case OP_TRIANGULAR_SOLVE: return eval_trisolve(in, ops, out);
  case OP_BATCH_NORM_TRAINING:
  case OP_BATCH_NORM_INFERENCE:
  case OP_BATCH_NORM_GRAD: return eval_batch_norm(in, ops, out);
  case OP_CUSTOM_CALL: return eval_custom_call(in, ops, out);
  default:
    return interp_error(in, CXLA_UNIMPLEMENTED, "%s is not supported by the interpreter",
                        op_name(in->op));
  }
}
