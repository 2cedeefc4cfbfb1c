/* rt_linalg.c: the linear-algebra runtime routines, on the executor's raw
 * buffers, through the LAPACK and BLAS that OpenBLAS ships (XLA:CPU calls
 * LAPACK for these through jaxlib's kernels, whose operands, results and
 * conventions each routine below keeps; see also src/interp/linalg.c, the
 * reference semantics).
 *
 *   cholesky            ?potrf; the other triangle zeroed, all NaN when a
 *                       leading minor is not positive definite
 *   triangular-solve    cblas_?trsm (row-major, no copies of a)
 *   lapack_?potrf_ffi   (x; uplo) -> (factor, info)
 *   lapack_?getrf_ffi   (x) -> (lu, pivots (1-based), info)
 *   lapack_?geqrf_ffi   (x) -> (r_and_reflectors, tau);     "Qr" likewise
 *   lapack_?orgqr_ffi / ?ungqr (x, tau) -> q;  "ProductOfElementaryHouse-
 *                       holderReflectors" likewise
 *   lapack_?syevd_ffi / ?heevd (x; uplo, mode) -> (vectors, values, info);
 *                       "Eigh" (x; "lower,sort,...") -> (vectors, values)
 *   lapack_?gesdd_ffi / ?gesvd (x; mode) -> (x, s, u, vt, info)
 *   lapack_?trsm_ffi    (a, b; side, uplo, trans_x, diag) -> x
 *   lapack_?gtsv_ffi    (dl, d, du, b) -> (dl, d, du, x, info)
 *   lapack_?gees_ffi    (x; mode, sort 'N') -> (t, vs, wr, wi | w, sdim, info)
 *   lapack_?geev_ffi    (x; compute_left, compute_right)
 *                       -> (wr, wi | w, vl, vr, info)
 *
 * Buffers are logical row-major; LAPACK is column-major. The cholesky op
 * runs on the row-major buffer as is (it holds the transpose, which for a
 * Hermitian matrix is its conjugate: the other triangle's factor of it is
 * the wanted factor); the custom-calls, lapack_?potrf_ffi and ?trsm
 * included, transpose in and out of column-major work copies and call the
 * routine as jaxlib's kernel does, so that LAPACK does jaxlib's sums in
 * jaxlib's order (results then match XLA:CPU's bit for bit where its
 * OpenBLAS takes the same path: measured for geev, f32 potrf, trsm, getrf,
 * geqrf and syevd). Matrices are the two minor dims, the leading ones
 * batch dims. Eigenvectors come with LAPACK's phases (the interpreter
 * normalizes them; both are valid: only V diag(w) V^H is unique). */
#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_internal.h"

/* ---- LAPACK (Fortran) entry points: matrices as void * so that the four
 * precisions share one type; trailing size_t are the hidden lengths of the
 * character arguments. ---- */
typedef int lint;
#define PREC4(X) X(s) X(d) X(c) X(z)
#define D_POTRF(p) void p##potrf_(const char *, const lint *, void *, const lint *, lint *, size_t);
#define D_GETRF(p) void p##getrf_(const lint *, const lint *, void *, const lint *, lint *, lint *);
#define D_GEQRF(p) \
  void p##geqrf_(const lint *, const lint *, void *, const lint *, void *, void *, const lint *, lint *);
#define D_GTSV(p) \
  void p##gtsv_(const lint *, const lint *, void *, void *, void *, void *, const lint *, lint *);
PREC4(D_POTRF)
PREC4(D_GETRF)
PREC4(D_GEQRF)
PREC4(D_GTSV)
typedef void OrgqrFn(const lint *, const lint *, const lint *, void *, const lint *, const void *, void *,
                     const lint *, lint *);
OrgqrFn sorgqr_, dorgqr_, cungqr_, zungqr_;
typedef void SyevdFn(const char *, const char *, const lint *, void *, const lint *, void *, void *,
                     const lint *, lint *, const lint *, lint *, size_t, size_t);
typedef void HeevdFn(const char *, const char *, const lint *, void *, const lint *, void *, void *,
                     const lint *, void *, const lint *, lint *, const lint *, lint *, size_t, size_t);
SyevdFn ssyevd_, dsyevd_;
HeevdFn cheevd_, zheevd_;
typedef void GesddFn(const char *, const lint *, const lint *, void *, const lint *, void *, void *,
                     const lint *, void *, const lint *, void *, const lint *, lint *, lint *, size_t);
typedef void CGesddFn(const char *, const lint *, const lint *, void *, const lint *, void *, void *,
                      const lint *, void *, const lint *, void *, const lint *, void *, lint *, lint *,
                      size_t);
GesddFn sgesdd_, dgesdd_;
CGesddFn cgesdd_, zgesdd_;
typedef void GesvdFn(const char *, const char *, const lint *, const lint *, void *, const lint *, void *,
                     void *, const lint *, void *, const lint *, void *, const lint *, lint *, size_t,
                     size_t);
typedef void CGesvdFn(const char *, const char *, const lint *, const lint *, void *, const lint *, void *,
                      void *, const lint *, void *, const lint *, void *, const lint *, void *, lint *,
                      size_t, size_t);
GesvdFn sgesvd_, dgesvd_;
CGesvdFn cgesvd_, zgesvd_;
typedef void GeesFn(const char *, const char *, void *, const lint *, void *, const lint *, lint *, void *, void *,
                    void *, const lint *, void *, const lint *, lint *, lint *, size_t, size_t);
typedef void CGeesFn(const char *, const char *, void *, const lint *, void *, const lint *, lint *, void *, void *,
                     const lint *, void *, const lint *, void *, lint *, lint *, size_t, size_t);
GeesFn sgees_, dgees_;
CGeesFn cgees_, zgees_;
typedef void GeevFn(const char *, const char *, const lint *, void *, const lint *, void *, void *, void *,
                    const lint *, void *, const lint *, void *, const lint *, lint *, size_t, size_t);
typedef void CGeevFn(const char *, const char *, const lint *, void *, const lint *, void *, void *, const lint *,
                     void *, const lint *, void *, const lint *, void *, lint *, size_t, size_t);
GeevFn sgeev_, dgeev_;
CGeevFn cgeev_, zgeev_;

typedef void PotrfFn(const char *, const lint *, void *, const lint *, lint *, size_t);
typedef void GetrfFn(const lint *, const lint *, void *, const lint *, lint *, lint *);
typedef void GeqrfFn(const lint *, const lint *, void *, const lint *, void *, void *, const lint *, lint *);
typedef void GtsvFn(const lint *, const lint *, void *, void *, void *, void *, const lint *, lint *);
static PotrfFn *const potrf_fn[4] = {spotrf_, dpotrf_, cpotrf_, zpotrf_};
static GetrfFn *const getrf_fn[4] = {sgetrf_, dgetrf_, cgetrf_, zgetrf_};
static GeqrfFn *const geqrf_fn[4] = {sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_};
static GtsvFn *const gtsv_fn[4] = {sgtsv_, dgtsv_, cgtsv_, zgtsv_};
static OrgqrFn *const orgqr_fn[4] = {sorgqr_, dorgqr_, cungqr_, zungqr_};

/* ---- element types ---- */

/* 0..3 for f32, f64, c64, c128 (LAPACK's s, d, c, z); -1 otherwise. */
static int prec_of(ElemType t) {
  switch (t) {
  case T_F32: return 0;
  case T_F64: return 1;
  case T_C64: return 2;
  case T_C128: return 3;
  default: return -1;
  }
}
static bool prec_complex(int p) { return p >= 2; }
static bool prec_double(int p) { return p == 1 || p == 3; }
static size_t prec_bytes(int p) { return (size_t)(4 << (prec_double(p) + prec_complex(p))); }
static ElemType prec_real(int p) { return prec_double(p) ? T_F64 : T_F32; }

/* A workspace size LAPACK returned in the first element of a query (a
 * single-precision answer may have been rounded down: a little more). */
static lint work_count(int p, const void *w) {
  double v = prec_double(p) ? *(const double *)w : (double)*(const float *)w * (1 + 0x1p-20) + 1;
  if (!(v >= 1)) return 1;
  if (v > (double)INT_MAX / 2) return INT_MAX / 2;
  return (lint)ceil(v);
}

/* dst (cols x rows, row-major) = the transpose of src (rows x cols): a
 * row-major matrix into column-major order, and back with rows and cols
 * swapped. */
static void transpose(void *dst, const void *src, int64_t rows, int64_t cols, size_t es) {
  char *d = dst;
  const char *s = src;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) memcpy(d + (size_t)(j * rows + i) * es, s + (size_t)(i * cols + j) * es, es);
}

/* ---- shapes ---- */

typedef struct Mats {
  int64_t batch, rows, cols;
} Mats;

static cxla_status bad(const Instr *in, const char *what) {
  return ERR(INVALID_ARGUMENT, "%s %%%s: %s", op_name(in->op), in->name, what);
}

/* The batch count and matrix dims of an array shape of rank >= 2 whose
 * dims each fit LAPACK's int. */
static cxla_status mats_of(const Instr *in, const Shape *s, Mats *m) {
  if (!type_is_array(s->type) || s->type == T_TUPLE || s->rank < 2 || prec_of(s->type) < 0)
    return bad(in, "needs f32/f64/c64/c128 arrays of rank >= 2");
  m->rows = s->dims[s->rank - 2];
  m->cols = s->dims[s->rank - 1];
  m->batch = 1;
  for (int i = 0; i < s->rank - 2; i++) m->batch *= s->dims[i];
  if (m->rows > INT_MAX / 4 || m->cols > INT_MAX / 4 || m->rows * m->cols > INT_MAX / 4)
    return ERR(RESOURCE_EXHAUSTED, "%s %%%s: matrices too large for LAPACK", op_name(in->op), in->name);
  return NULL;
}

/* Result element i (or the array result when i < 0) must be type t, rank r,
 * n elements (n < 0: any). */
static cxla_status want(const Instr *in, int i, ElemType t, int r, int64_t n) {
  const Shape *s = in->shape;
  if (i >= 0) {
    if (s->type != T_TUPLE || i >= s->ntuple) return bad(in, "result is not the tuple this target returns");
    s = s->tuple[i];
  }
  if (s->type != t || s->rank != r || (n >= 0 && shape_elems(s) != n))
    return ERR(INVALID_ARGUMENT, "%s %%%s: result element %d must be %s of rank %d with %lld elements",
               op_name(in->op), in->name, i, type_name(t), r, (long long)n);
  return NULL;
}

/* Arrays for each element of the tuple result (or the one array). */
static cxla_status make_results(const Instr *in, RVal **el, int n) {
  for (int k = 0; k < n; k++) {
    const Shape *s = in->shape->type == T_TUPLE ? in->shape->tuple[k] : in->shape;
    cxla_status st = rval_array(s->type, s->rank, s->dims, &el[k]);
    if (st) {
      for (int j = 0; j < k; j++) rval_unref(el[j]);
      return st;
    }
  }
  return NULL;
}

static cxla_status finish(const Instr *in, RVal **el, int n, cxla_status st, RVal **out) {
  if (st) {
    for (int k = 0; k < n; k++) rval_unref(el[k]);
    return st;
  }
  if (in->shape->type != T_TUPLE) {
    *out = el[0];
    return NULL;
  }
  return rval_tuple(n, el, out);
}

/* memcpy that allows the NULL data of empty arrays */
static void copy_data(void *dst, const void *src, size_t n) {
  if (n) memcpy(dst, src, n);
}

static void *work_alloc(size_t n, size_t es) { return cxla_malloc(n ? n * es : es); }

static void set_s32(RVal *v, int64_t i, lint x) { ((int32_t *)v->lit.data)[i] = x; }

/* ---- Cholesky ---- */

/* The factor of each matrix of a (n x n, row-major, in place) in its
 * `lower` triangle; info per matrix into info[]. */
static void potrf_rows(int p, char *a, int64_t batch, lint n, bool lower, int32_t *info) {
  /* the buffer is the column-major transpose: the other triangle */
  char uplo = lower ? 'U' : 'L';
  lint lda = n > 0 ? n : 1;
  size_t stride = (size_t)n * (size_t)n * prec_bytes(p);
  for (int64_t b = 0; b < batch; b++) {
    lint inf = 0;
    if (n > 0) potrf_fn[p](&uplo, &n, a + (size_t)b * stride, &lda, &inf, 1);
    info[b] = inf;
  }
}

static cxla_status run_cholesky(const Instr *in, RVal *const *ops, RVal **out) {
  Mats m;
  TRY(mats_of(in, in->operands[0]->shape, &m));
  int p = prec_of(in->operands[0]->shape->type);
  if (m.rows != m.cols) return bad(in, "needs square matrices");
  TRY(want(in, -1, in->operands[0]->shape->type, in->operands[0]->shape->rank, m.batch * m.rows * m.rows));
  if (!ops) return NULL; /* checked only */
  RVal *r;
  TRY(rval_array(in->shape->type, in->shape->rank, in->shape->dims, &r));
  size_t es = prec_bytes(p);
  int64_t n = m.rows, nn = n * n;
  copy_data(r->lit.data, ops[0]->lit.data, (size_t)(m.batch * nn) * es);
  int32_t *info = work_alloc((size_t)m.batch, sizeof *info);
  if (!info) {
    rval_unref(r);
    return cxla_oom();
  }
  bool lower = in->chol_lower;
  potrf_rows(p, r->lit.data, m.batch, (lint)n, lower, info);
  /* XLA's expander: zeros in the other triangle; all NaN if not positive
   * definite */
  size_t part = prec_double(p) ? 8 : 4;
  int parts = prec_complex(p) ? 2 : 1;
  for (int64_t b = 0; b < m.batch; b++) {
    char *a = (char *)r->lit.data + (size_t)(b * nn) * es;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        bool keep = lower ? j <= i : j >= i;
        char *e = a + (size_t)(i * n + j) * es;
        if (info[b]) {
          for (int k = 0; k < parts; k++) {
            if (part == 8) ((double *)e)[k] = k ? 0.0 : NAN;
            else ((float *)e)[k] = k ? 0.0f : NAN;
          }
        } else if (!keep) {
          memset(e, 0, es);
        }
      }
  }
  cxla_free(info);
  *out = r;
  return NULL;
}

static cxla_status cc_potrf(const Instr *in, RVal *const *ops, int p, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  if (m.rows != m.cols) return bad(in, "needs square matrices");
  TRY(want(in, 0, xs->type, xs->rank, m.batch * m.rows * m.rows));
  TRY(want(in, 1, T_S32, xs->rank - 2, m.batch));
  if (!ops) return NULL; /* checked only */
  RVal *el[2];
  TRY(make_results(in, el, 2));
  /* as jaxlib: ?potrf with the attribute's uplo on the column-major matrix
   * (the other triangle's factor of the row-major buffer, run_cholesky's
   * way, is the same matrix summed in another order: an f32 factor of
   * condition 1e5 then differs from XLA:CPU's by 1e-3) */
  int64_t n = m.rows, nn = n * n;
  size_t es = prec_bytes(p);
  char *a = work_alloc((size_t)nn, es);
  if (!a) return finish(in, el, 2, cxla_oom(), out);
  char uplo = instr_config_char(in, "uplo", 'L') == 'L' ? 'L' : 'U';
  lint N = (lint)n, lda = n > 0 ? N : 1;
  for (int64_t b = 0; b < m.batch; b++) {
    lint info = 0;
    transpose(a, (const char *)ops[0]->lit.data + (size_t)(b * nn) * es, n, n, es);
    if (n > 0) potrf_fn[p](&uplo, &N, a, &lda, &info, 1);
    transpose((char *)el[0]->lit.data + (size_t)(b * nn) * es, a, n, n, es);
    set_s32(el[1], b, info);
  }
  cxla_free(a);
  return finish(in, el, 2, NULL, out);
}

/* ---- triangular solve ---- */

typedef struct Tri {
  bool left, lower, unit;
  TriTranspose trans;
} Tri;

/* col: as jaxlib's lapack_?trsm_ffi calls it, on column-major copies of a
 * and b (BLAS's own order of the sums: the results match XLA:CPU's bit for
 * bit); else row-major in place (the triangular-solve op, which XLA:CPU
 * computes otherwise anyway). */
static cxla_status trsm(const Instr *in, RVal *const *ops, const Tri *o, bool col, RVal **out) {
  Mats ma, mb;
  const Shape *as = in->operands[0]->shape, *bs = in->operands[1]->shape;
  TRY(mats_of(in, as, &ma));
  TRY(mats_of(in, bs, &mb));
  int64_t k = o->left ? mb.rows : mb.cols;
  if (ma.rows != ma.cols || ma.rows != k || ma.batch != mb.batch || as->type != bs->type)
    return bad(in, "a must be [..., m, m] with b's batch dims and type");
  TRY(want(in, -1, bs->type, bs->rank, mb.batch * mb.rows * mb.cols));
  int p = prec_of(bs->type);
  size_t es = prec_bytes(p);
  if (!ops) return NULL; /* checked only */
  RVal *r;
  TRY(rval_array(bs->type, bs->rank, bs->dims, &r));
  copy_data(r->lit.data, ops[1]->lit.data, (size_t)(mb.batch * mb.rows * mb.cols) * es);
  if (mb.rows == 0 || mb.cols == 0) {
    *out = r;
    return NULL;
  }
  enum CBLAS_SIDE side = o->left ? CblasLeft : CblasRight;
  enum CBLAS_UPLO uplo = o->lower ? CblasLower : CblasUpper;
  enum CBLAS_TRANSPOSE tr = o->trans == TRI_NO_TRANSPOSE ? CblasNoTrans
                            : o->trans == TRI_TRANSPOSE  ? CblasTrans
                                                         : CblasConjTrans;
  enum CBLAS_DIAG diag = o->unit ? CblasUnit : CblasNonUnit;
  int M = (int)mb.rows, N = (int)mb.cols, lda = (int)k, ldb = col ? M : N;
  enum CBLAS_ORDER order = col ? CblasColMajor : CblasRowMajor;
  char *ca = col ? work_alloc((size_t)(k * k), es) : NULL, *cb = col ? work_alloc((size_t)(M * N), es) : NULL;
  if (col && (!ca || !cb)) {
    cxla_free(ca);
    cxla_free(cb);
    rval_unref(r);
    return cxla_oom();
  }
  for (int64_t b = 0; b < mb.batch; b++) {
    const char *A = (const char *)ops[0]->lit.data + (size_t)(b * k * k) * es;
    char *B = (char *)r->lit.data + (size_t)(b * mb.rows * mb.cols) * es, *X = B;
    if (col) {
      transpose(ca, A, k, k, es);
      transpose(cb, B, M, N, es);
      A = ca, X = cb;
    }
    switch (p) {
    case 0: cblas_strsm(order, side, uplo, tr, diag, M, N, 1.0f, (const float *)A, lda, (float *)X, ldb); break;
    case 1: cblas_dtrsm(order, side, uplo, tr, diag, M, N, 1.0, (const double *)A, lda, (double *)X, ldb); break;
    case 2: {
      float one[2] = {1, 0};
      cblas_ctrsm(order, side, uplo, tr, diag, M, N, one, A, lda, X, ldb);
      break;
    }
    default: {
      double one[2] = {1, 0};
      cblas_ztrsm(order, side, uplo, tr, diag, M, N, one, A, lda, X, ldb);
      break;
    }
    }
    if (col) transpose(B, cb, N, M, es);
  }
  cxla_free(ca);
  cxla_free(cb);
  *out = r;
  return NULL;
}

static cxla_status run_trisolve(const Instr *in, RVal *const *ops, RVal **out) {
  Tri o = {in->tri_left_side, in->tri_lower, in->tri_unit_diagonal, in->tri_transpose};
  return trsm(in, ops, &o, false, out);
}

static cxla_status cc_trsm(const Instr *in, RVal *const *ops, RVal **out) {
  if (in->noperands != 2) return bad(in, "trsm takes 2 operands");
  int tr = instr_config_char(in, "trans_x", 'N');
  Tri o = {instr_config_char(in, "side", 'L') == 'L', instr_config_char(in, "uplo", 'L') == 'L',
           instr_config_char(in, "diag", 'N') == 'U',
           tr == 'T' ? TRI_TRANSPOSE : tr == 'C' ? TRI_ADJOINT : TRI_NO_TRANSPOSE};
  return trsm(in, ops, &o, true, out);
}

/* ---- LU ---- */

static cxla_status cc_getrf(const Instr *in, RVal *const *ops, int p, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  int64_t k = m.rows < m.cols ? m.rows : m.cols, mn = m.rows * m.cols;
  TRY(want(in, 0, xs->type, xs->rank, m.batch * mn));
  TRY(want(in, 1, T_S32, xs->rank - 1, m.batch * k));
  TRY(want(in, 2, T_S32, xs->rank - 2, m.batch));
  if (!ops) return NULL; /* checked only */
  RVal *el[3];
  TRY(make_results(in, el, 3));
  size_t es = prec_bytes(p);
  char *w = work_alloc((size_t)mn, es);
  lint *piv = work_alloc((size_t)k, sizeof *piv);
  cxla_status st = w && piv ? NULL : cxla_oom();
  lint M = (lint)m.rows, N = (lint)m.cols, lda = M > 0 ? M : 1;
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(w, (const char *)ops[0]->lit.data + (size_t)(b * mn) * es, m.rows, m.cols, es);
    lint info = 0;
    if (M > 0 && N > 0) getrf_fn[p](&M, &N, w, &lda, piv, &info);
    transpose((char *)el[0]->lit.data + (size_t)(b * mn) * es, w, m.cols, m.rows, es);
    for (int64_t j = 0; j < k; j++) set_s32(el[1], b * k + j, piv[j]);
    set_s32(el[2], b, info);
  }
  cxla_free(w);
  cxla_free(piv);
  return finish(in, el, 3, st, out);
}

/* ---- QR ---- */

static cxla_status cc_geqrf(const Instr *in, RVal *const *ops, int p, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  int64_t k = m.rows < m.cols ? m.rows : m.cols, mn = m.rows * m.cols;
  TRY(want(in, 0, xs->type, xs->rank, m.batch * mn));
  TRY(want(in, 1, xs->type, xs->rank - 1, m.batch * k));
  if (!ops) return NULL; /* checked only */
  RVal *el[2];
  TRY(make_results(in, el, 2));
  size_t es = prec_bytes(p);
  lint M = (lint)m.rows, N = (lint)m.cols, lda = M > 0 ? M : 1, lwork = -1, info = 0;
  double q[2] = {0, 0};
  if (M > 0 && N > 0) geqrf_fn[p](&M, &N, NULL, &lda, NULL, q, &lwork, &info);
  lwork = work_count(p, q);
  char *w = work_alloc((size_t)mn, es), *work = work_alloc((size_t)lwork, es);
  cxla_status st = w && work ? NULL : cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(w, (const char *)ops[0]->lit.data + (size_t)(b * mn) * es, m.rows, m.cols, es);
    char *tau = (char *)el[1]->lit.data + (size_t)(b * k) * es;
    if (M > 0 && N > 0) geqrf_fn[p](&M, &N, w, &lda, tau, work, &lwork, &info);
    transpose((char *)el[0]->lit.data + (size_t)(b * mn) * es, w, m.cols, m.rows, es);
  }
  cxla_free(w);
  cxla_free(work);
  return finish(in, el, 2, st, out);
}

static cxla_status cc_orgqr(const Instr *in, RVal *const *ops, int p, RVal **out) {
  if (in->noperands != 2) return bad(in, "orgqr takes 2 operands");
  Mats m;
  const Shape *xs = in->operands[0]->shape, *ts = in->operands[1]->shape;
  TRY(mats_of(in, xs, &m));
  if (ts->type != xs->type || ts->rank != xs->rank - 1) return bad(in, "tau must be [..., k] of x's type");
  int64_t k = ts->dims[ts->rank - 1], mn = m.rows * m.cols;
  if (k > m.cols || m.cols > m.rows) return bad(in, "orgqr needs k <= n <= m");
  if (shape_elems(ts) != m.batch * k) return bad(in, "tau's batch dimensions must match x's");
  TRY(want(in, -1, xs->type, xs->rank, m.batch * mn));
  if (!ops) return NULL; /* checked only */
  RVal *r;
  TRY(rval_array(in->shape->type, in->shape->rank, in->shape->dims, &r));
  size_t es = prec_bytes(p);
  lint M = (lint)m.rows, N = (lint)m.cols, K = (lint)k, lda = M > 0 ? M : 1, lwork = -1, info = 0;
  double q[2] = {0, 0};
  if (M > 0 && N > 0) orgqr_fn[p](&M, &N, &K, NULL, &lda, NULL, q, &lwork, &info);
  lwork = work_count(p, q);
  char *w = work_alloc((size_t)mn, es), *work = work_alloc((size_t)lwork, es);
  cxla_status st = w && work ? NULL : cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(w, (const char *)ops[0]->lit.data + (size_t)(b * mn) * es, m.rows, m.cols, es);
    const char *tau = (const char *)ops[1]->lit.data + (size_t)(b * k) * es;
    if (M > 0 && N > 0) orgqr_fn[p](&M, &N, &K, w, &lda, tau, work, &lwork, &info);
    transpose((char *)r->lit.data + (size_t)(b * mn) * es, w, m.cols, m.rows, es);
  }
  cxla_free(w);
  cxla_free(work);
  if (st) {
    rval_unref(r);
    return st;
  }
  *out = r;
  return NULL;
}

/* ---- Hermitian eigendecomposition ---- */

/* syevd / heevd with eigenvectors of each matrix: results (vectors,
 * values[, info]). */
static cxla_status eigh(const Instr *in, RVal *const *ops, int p, bool lower, bool with_info, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  if (m.rows != m.cols) return bad(in, "needs square matrices");
  int64_t n = m.rows, nn = n * n;
  int nres = with_info ? 3 : 2;
  TRY(want(in, 0, xs->type, xs->rank, m.batch * nn));
  TRY(want(in, 1, prec_real(p), xs->rank - 1, m.batch * n));
  if (with_info) TRY(want(in, 2, T_S32, xs->rank - 2, m.batch));
  if (in->shape->ntuple != nres) return bad(in, "result has the wrong number of elements");
  if (!ops) return NULL; /* checked only */
  RVal *el[3];
  TRY(make_results(in, el, nres));
  size_t es = prec_bytes(p), rs = prec_double(p) ? 8 : 4;
  char jobz = 'V', uplo = lower ? 'L' : 'U';
  lint N = (lint)n, lda = N > 0 ? N : 1, lwork = -1, lrwork = -1, liwork = -1, info = 0, iq = 0;
  double q[2] = {0, 0}, rq[2] = {0, 0};
  if (N > 0) {
    if (prec_complex(p))
      (p == 2 ? cheevd_ : zheevd_)(&jobz, &uplo, &N, NULL, &lda, NULL, q, &lwork, rq, &lrwork, &iq, &liwork,
                                   &info, 1, 1);
    else
      (p == 0 ? ssyevd_ : dsyevd_)(&jobz, &uplo, &N, NULL, &lda, NULL, q, &lwork, &iq, &liwork, &info, 1, 1);
  }
  lwork = work_count(p, q);
  lrwork = work_count(prec_double(p) ? 1 : 0, rq);
  liwork = iq > 0 ? iq : 1;
  char *w = work_alloc((size_t)nn, es), *work = work_alloc((size_t)lwork, es);
  char *rwork = work_alloc((size_t)lrwork, rs);
  lint *iwork = work_alloc((size_t)liwork, sizeof(lint));
  cxla_status st = w && work && rwork && iwork ? NULL : cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(w, (const char *)ops[0]->lit.data + (size_t)(b * nn) * es, n, n, es);
    char *vals = (char *)el[1]->lit.data + (size_t)(b * n) * rs;
    info = 0;
    if (N > 0) {
      if (prec_complex(p))
        (p == 2 ? cheevd_ : zheevd_)(&jobz, &uplo, &N, w, &lda, vals, work, &lwork, rwork, &lrwork, iwork,
                                     &liwork, &info, 1, 1);
      else
        (p == 0 ? ssyevd_ : dsyevd_)(&jobz, &uplo, &N, w, &lda, vals, work, &lwork, iwork, &liwork, &info, 1,
                                     1);
    }
    transpose((char *)el[0]->lit.data + (size_t)(b * nn) * es, w, n, n, es);
    if (with_info) set_s32(el[2], b, info);
  }
  cxla_free(w);
  cxla_free(work);
  cxla_free(rwork);
  cxla_free(iwork);
  return finish(in, el, nres, st, out);
}

/* TensorFlow's "Eigh": backend_config "LOWER,SORT,MAX_ITER,TOL". */
static cxla_status cc_eigh_tf(const Instr *in, RVal *const *ops, int p, RVal **out) {
  const char *cfg = instr_raw(in, "backend_config");
  if (cfg && *cfg == '"') cfg++;
  int lower = cfg ? atoi(cfg) : 1;
  return eigh(in, ops, p, lower != 0, false, out);
}

/* ---- SVD ---- */

typedef struct Svd {
  int p;
  bool gesvd;
  char job;
  lint M, N, lda, ldu, ldvt, lwork, lrwork;
  void *work, *rwork;
  lint *iwork;
} Svd;

static void svd_call(Svd *s, void *a, void *sv, void *u, void *vt, void *work, lint *info) {
  int p = s->p;
  if (s->gesvd) {
    if (prec_complex(p))
      (p == 2 ? cgesvd_ : zgesvd_)(&s->job, &s->job, &s->M, &s->N, a, &s->lda, sv, u, &s->ldu, vt, &s->ldvt, work,
                                   &s->lwork, s->rwork, info, 1, 1);
    else
      (p == 0 ? sgesvd_ : dgesvd_)(&s->job, &s->job, &s->M, &s->N, a, &s->lda, sv, u, &s->ldu, vt, &s->ldvt, work,
                                   &s->lwork, info, 1, 1);
  } else {
    if (prec_complex(p))
      (p == 2 ? cgesdd_ : zgesdd_)(&s->job, &s->M, &s->N, a, &s->lda, sv, u, &s->ldu, vt, &s->ldvt, work,
                                   &s->lwork, s->rwork, s->iwork, info, 1);
    else
      (p == 0 ? sgesdd_ : dgesdd_)(&s->job, &s->M, &s->N, a, &s->lda, sv, u, &s->ldu, vt, &s->ldvt, work,
                                   &s->lwork, s->iwork, info, 1);
  }
}

static cxla_status cc_svd(const Instr *in, RVal *const *ops, int p, bool gesvd, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  int r = xs->rank;
  int64_t k = m.rows < m.cols ? m.rows : m.cols, big = m.rows > m.cols ? m.rows : m.cols, mn = m.rows * m.cols;
  TRY(want(in, 0, xs->type, r, m.batch * mn));
  TRY(want(in, 1, prec_real(p), r - 1, m.batch * k));
  TRY(want(in, 2, xs->type, r, -1));
  TRY(want(in, 3, xs->type, r, -1));
  TRY(want(in, 4, T_S32, r - 2, m.batch));
  const Shape *us = in->shape->tuple[2], *vs = in->shape->tuple[3];
  int64_t uc = us->dims[r - 1], vr = vs->dims[r - 2];
  char job = (char)instr_config_char(in, "mode", 'A');
  bool vecs = job == 'A' || job == 'S';
  if (!vecs) job = 'N';
  if (us->dims[r - 2] != m.rows || vs->dims[r - 1] != m.cols || shape_elems(us) != m.batch * m.rows * uc ||
      shape_elems(vs) != m.batch * vr * m.cols || (job == 'A' && (uc != m.rows || vr != m.cols)) ||
      (job == 'S' && (uc != k || vr != k)))
    return bad(in, "u/vt shapes do not fit the operand and mode");
  /* LAPACK indexes with 32-bit integers: U (rows x uc) and V^T (vr x cols)
   * must fit as A does (mats_of); job 'A' makes them square, (2, 400000)
   * in 'S' is 2 x 2 and 2 x 400000 */
  if ((vecs && (m.rows * uc > INT_MAX / 4 || vr * m.cols > INT_MAX / 4)) || big > INT_MAX / 8)
    return ERR(RESOURCE_EXHAUSTED, "%%%s: matrix too large for the svd", in->name);
  if (!ops) return NULL; /* checked only */
  RVal *el[5];
  TRY(make_results(in, el, 5));
  size_t es = prec_bytes(p), rs = prec_double(p) ? 8 : 4;
  copy_data(el[0]->lit.data, ops[0]->lit.data, (size_t)(m.batch * mn) * es);
  memset(el[2]->lit.data, 0, (size_t)shape_elems(us) * es);
  memset(el[3]->lit.data, 0, (size_t)shape_elems(vs) * es);
  Svd s = {.p = p, .gesvd = gesvd, .job = job, .M = (lint)m.rows, .N = (lint)m.cols};
  s.lda = s.M > 0 ? s.M : 1;
  s.ldu = vecs && s.M > 0 ? s.M : 1;
  s.ldvt = vecs && vr > 0 ? (lint)vr : 1;
  /* rwork: LAPACK's documented minimums for the complex routines */
  int64_t lr = 7 * k;
  if (gesvd) {
    lr = 5 * k;
  } else if (vecs) {
    int64_t a = 5 * k * k + 5 * k, b = 2 * big * k + 2 * k * k + k;
    lr = a > b ? a : b;
  }
  s.lrwork = (lint)(lr > 0 ? lr : 1);
  s.rwork = work_alloc((size_t)s.lrwork, rs);
  s.iwork = work_alloc((size_t)(8 * k), sizeof(lint));
  char *a = work_alloc((size_t)mn, es), *u = NULL, *vt = NULL;
  if (vecs) {
    u = work_alloc((size_t)(m.rows * uc), es);
    vt = work_alloc((size_t)(vr * m.cols), es);
  } else {
    u = work_alloc(1, es);
    vt = work_alloc(1, es);
  }
  cxla_status st = s.rwork && s.iwork && a && u && vt ? NULL : cxla_oom();
  double q[2] = {0, 0};
  lint info = 0;
  s.lwork = -1;
  if (!st && k > 0) svd_call(&s, a, NULL, u, vt, q, &info);
  s.lwork = work_count(p, q);
  void *work = st ? NULL : work_alloc((size_t)s.lwork, es);
  if (!st && !work) st = cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(a, (const char *)ops[0]->lit.data + (size_t)(b * mn) * es, m.rows, m.cols, es);
    info = 0;
    if (k > 0) svd_call(&s, a, (char *)el[1]->lit.data + (size_t)(b * k) * rs, u, vt, work, &info);
    if (vecs && k > 0) {
      transpose((char *)el[2]->lit.data + (size_t)(b * m.rows * uc) * es, u, uc, m.rows, es);
      transpose((char *)el[3]->lit.data + (size_t)(b * vr * m.cols) * es, vt, m.cols, vr, es);
    } else if (vecs) {
      /* an empty matrix: the identity (LAPACK is not called) */
      char *U = (char *)el[2]->lit.data + (size_t)(b * m.rows * uc) * es;
      char *V = (char *)el[3]->lit.data + (size_t)(b * vr * m.cols) * es;
      for (int64_t i = 0; i < m.rows && i < uc; i++) {
        if (prec_double(p)) ((double *)U)[(i * uc + i) * (prec_complex(p) ? 2 : 1)] = 1;
        else ((float *)U)[(i * uc + i) * (prec_complex(p) ? 2 : 1)] = 1;
      }
      for (int64_t i = 0; i < vr && i < m.cols; i++) {
        if (prec_double(p)) ((double *)V)[(i * m.cols + i) * (prec_complex(p) ? 2 : 1)] = 1;
        else ((float *)V)[(i * m.cols + i) * (prec_complex(p) ? 2 : 1)] = 1;
      }
    }
    set_s32(el[4], b, info);
  }
  cxla_free(work);
  cxla_free(s.rwork);
  cxla_free(s.iwork);
  cxla_free(a);
  cxla_free(u);
  cxla_free(vt);
  return finish(in, el, 5, st, out);
}

/* ---- tridiagonal solve ---- */

static cxla_status cc_gtsv(const Instr *in, RVal *const *ops, int p, RVal **out) {
  if (in->noperands != 4) return bad(in, "gtsv takes 4 operands");
  const Shape *ds = in->operands[1]->shape, *bs = in->operands[3]->shape;
  int r = ds->rank;
  ElemType t = ds->type;
  if (r < 1 || bs->rank != r + 1) return bad(in, "gtsv needs d [..., n] and b [..., n, nrhs]");
  for (int i = 0; i < 4; i++)
    if (in->operands[i]->shape->type != t) return bad(in, "gtsv operands must have one type");
  for (int i = 0; i < r; i++)
    if (in->operands[0]->shape->rank != r || in->operands[2]->shape->rank != r ||
        in->operands[0]->shape->dims[i] != ds->dims[i] || in->operands[2]->shape->dims[i] != ds->dims[i] ||
        bs->dims[i] != ds->dims[i])
      return bad(in, "gtsv operand dimensions disagree");
  int64_t n = ds->dims[r - 1], nrhs = bs->dims[r], batch = 1;
  for (int i = 0; i < r - 1; i++) batch *= ds->dims[i];
  if (n > INT_MAX / 4 || nrhs > INT_MAX / 4 || n * nrhs > INT_MAX / 4)
    return ERR(RESOURCE_EXHAUSTED, "%%%s: system too large for LAPACK", in->name);
  for (int i = 0; i < 3; i++) TRY(want(in, i, t, r, shape_elems(ds)));
  TRY(want(in, 3, t, r + 1, shape_elems(bs)));
  TRY(want(in, 4, T_S32, r - 1, batch));
  if (!ops) return NULL; /* checked only */
  RVal *el[5];
  TRY(make_results(in, el, 5));
  size_t es = prec_bytes(p);
  for (int i = 0; i < 4; i++)
    copy_data(el[i]->lit.data, ops[i]->lit.data, (size_t)shape_elems(in->operands[i]->shape) * es);
  char *w = work_alloc((size_t)(n * nrhs), es);
  cxla_status st = w ? NULL : cxla_oom();
  lint N = (lint)n, NR = (lint)nrhs, ldb = N > 0 ? N : 1;
  for (int64_t b = 0; b < batch && !st; b++) {
    lint info = 0;
    if (n > 0 && nrhs >= 0) {
      char *dl = (char *)el[0]->lit.data + (size_t)(b * n) * es;
      char *d = (char *)el[1]->lit.data + (size_t)(b * n) * es;
      char *du = (char *)el[2]->lit.data + (size_t)(b * n) * es;
      char *x = (char *)el[3]->lit.data + (size_t)(b * n * nrhs) * es;
      transpose(w, x, n, nrhs, es);
      /* JAX keeps dl[0] = 0 and hands LAPACK dl + 1 */
      gtsv_fn[p](&N, &NR, dl + es, d, du, w, &ldb, &info);
      transpose(x, w, nrhs, n, es);
    }
    set_s32(el[4], b, info);
  }
  cxla_free(w);
  return finish(in, el, 5, st, out);
}

/* ---- dispatch ---- */

/* ---- Schur decomposition ---- */

/* lapack_?gees_ffi (x; mode, sort 'N'): real x -> (t, vs, wr, wi, sdim,
 * info), complex x -> (t, vs, w, sdim, info), LAPACK's own ?gees as
 * XLA:CPU calls it (a Schur form is not unique: the order of the
 * eigenvalues and the signs of the vectors are the routine's, which
 * scipy.linalg.schur shares). */
/* One ?gees call (lwork -1: the workspace query into work); w is wr and
 * wi the imaginary parts for real p, the complex eigenvalues (wi unused)
 * for complex p. */
static void gees_call(int p, const char *jobvs, const lint *n, void *a, lint *sdim, void *w, void *wi, void *vs,
                      void *work, const lint *lwork, void *rwork, lint *bwork, lint *info) {
  const char sort = 'N';
  if (prec_complex(p))
    (p == 2 ? cgees_ : zgees_)(jobvs, &sort, NULL, n, a, n, sdim, w, vs, n, work, lwork, rwork, bwork, info, 1, 1);
  else
    (p == 0 ? sgees_ : dgees_)(jobvs, &sort, NULL, n, a, n, sdim, w, wi, vs, n, work, lwork, bwork, info, 1, 1);
}

static cxla_status cc_gees(const Instr *in, RVal *const *ops, int p, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  if (m.rows != m.cols) return bad(in, "gees needs square matrices");
  if (instr_config_char(in, "sort", 'N') != 'N')
    return ERR(UNIMPLEMENTED, "%%%s: gees with eigenvalue sorting is not supported", in->name);
  bool cx = prec_complex(p);
  int r = xs->rank, nres = cx ? 5 : 6;
  int64_t n = m.rows, nn = n * n;
  TRY(want(in, 0, xs->type, r, m.batch * nn));
  TRY(want(in, 1, xs->type, r, m.batch * nn));
  TRY(want(in, 2, xs->type, r - 1, m.batch * n));
  if (!cx) TRY(want(in, 3, xs->type, r - 1, m.batch * n));
  TRY(want(in, nres - 2, T_S32, r - 2, m.batch));
  TRY(want(in, nres - 1, T_S32, r - 2, m.batch));
  if (!ops) return NULL; /* checked only */
  RVal *el[6];
  TRY(make_results(in, el, nres));
  size_t es = prec_bytes(p), rs = prec_double(p) ? 8 : 4;
  char jobvs = instr_config_char(in, "mode", 'V') == 'V' ? 'V' : 'N';
  lint N = (lint)n, sdim = 0, info = 0; /* n > 0 whenever LAPACK is called: N is also lda and ldvs */
  char *a = work_alloc((size_t)nn, es), *vs = work_alloc((size_t)nn, es);
  void *rwork = work_alloc((size_t)n, rs);
  lint *bwork = work_alloc((size_t)n, sizeof(lint));
  cxla_status st = a && vs && rwork && bwork ? NULL : cxla_oom();
  double q[2] = {0, 0};
  lint lwork = -1;
  if (!st && n > 0)
    gees_call(p, &jobvs, &N, a, &sdim, el[2]->lit.data, cx ? NULL : el[3]->lit.data, vs, q, &lwork, rwork, bwork,
              &info);
  lwork = work_count(p, q);
  void *work = st ? NULL : work_alloc((size_t)lwork, es);
  if (!st && !work) st = cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    transpose(a, (const char *)ops[0]->lit.data + (size_t)(b * nn) * es, n, n, es);
    info = 0;
    sdim = 0;
    char *w = (char *)el[2]->lit.data + (size_t)(b * n) * es;
    char *wi = cx ? NULL : (char *)el[3]->lit.data + (size_t)(b * n) * es;
    if (n > 0) gees_call(p, &jobvs, &N, a, &sdim, w, wi, vs, work, &lwork, rwork, bwork, &info);
    transpose((char *)el[0]->lit.data + (size_t)(b * nn) * es, a, n, n, es);
    if (jobvs == 'V') transpose((char *)el[1]->lit.data + (size_t)(b * nn) * es, vs, n, n, es);
    else memset((char *)el[1]->lit.data + (size_t)(b * nn) * es, 0, (size_t)nn * es);
    set_s32(el[nres - 2], b, sdim);
    set_s32(el[nres - 1], b, info);
  }
  cxla_free(work);
  cxla_free(a);
  cxla_free(vs);
  cxla_free(rwork);
  cxla_free(bwork);
  return finish(in, el, nres, st, out);
}

/* ---- nonsymmetric eigenproblem ---- */

/* lapack_?geev_ffi (x; compute_left, compute_right): real x -> (wr, wi, vl,
 * vr, info), complex x -> (w, vl, vr, info), LAPACK's own ?geev as jaxlib's
 * kernel calls it: the eigenvalues in the routine's order (which depends
 * on whether vectors are asked for: Schur form or eigenvalues only) and
 * its vectors (unit norm, the largest component of a complex one real),
 * as complex columns; a real matrix's conjugate pair (LAPACK's columns j,
 * j + 1 holding re and im) unpacked into v_j = re + i im, v_j+1 = re - i im.
 * A matrix with an infinite or NaN entry is not decomposed: info -4 (what
 * jaxlib reports; JAX turns the results into NaNs). Vectors not asked for,
 * or of a matrix that did not converge (info > 0), are zeros. */
static void geev_call(int p, const char *jl, const char *jr, const lint *n, void *a, void *w, void *wi, void *vl,
                      void *vr, void *work, const lint *lwork, void *rwork, lint *info) {
  if (prec_complex(p))
    (p == 2 ? cgeev_ : zgeev_)(jl, jr, n, a, n, w, vl, n, vr, n, work, lwork, rwork, info, 1, 1);
  else
    (p == 0 ? sgeev_ : dgeev_)(jl, jr, n, a, n, w, wi, vl, n, vr, n, work, lwork, info, 1, 1);
}

static bool all_finite(int p, const void *x, int64_t n) {
  int64_t parts = n * (prec_complex(p) ? 2 : 1);
  for (int64_t i = 0; i < parts; i++)
    if (!isfinite(prec_double(p) ? ((const double *)x)[i] : (double)((const float *)x)[i])) return false;
  return true;
}

/* dst (n x n complex, logical row-major: column j the j-th vector) from
 * LAPACK's column-major vectors v: complex ones transposed, real ones
 * unpacked (wi tells the conjugate pairs). */
static void geev_vectors(int p, const void *v, const void *wi, int64_t n, void *dst) {
  if (prec_complex(p)) {
    transpose(dst, v, n, n, prec_bytes(p));
    return;
  }
  bool dbl = prec_double(p);
#define RD(b, i) (dbl ? ((const double *)(b))[i] : (double)((const float *)(b))[i])
#define WR(i, re, im)                                                                                             \
  do {                                                                                                            \
    if (dbl) ((double *)dst)[2 * (i)] = (re), ((double *)dst)[2 * (i) + 1] = (im);                                \
    else ((float *)dst)[2 * (i)] = (float)(re), ((float *)dst)[2 * (i) + 1] = (float)(im);                        \
  } while (0)
  for (int64_t j = 0; j < n;) {
    double wj = RD(wi, j);
    bool pair = wj != 0 && !isnan(wj) && j + 1 < n;
    for (int64_t i = 0; i < n; i++) {
      if (!pair) {
        WR(i * n + j, RD(v, j * n + i), 0.0);
      } else {
        double re = RD(v, j * n + i), im = RD(v, (j + 1) * n + i);
        WR(i * n + j, re, im);
        WR(i * n + j + 1, re, -im);
      }
    }
    j += pair ? 2 : 1;
  }
#undef RD
#undef WR
}

static cxla_status cc_geev(const Instr *in, RVal *const *ops, int p, RVal **out) {
  Mats m;
  const Shape *xs = in->operands[0]->shape;
  TRY(mats_of(in, xs, &m));
  if (m.rows != m.cols) return bad(in, "geev needs square matrices");
  bool cx = prec_complex(p);
  int r = xs->rank, o = cx ? 0 : 1;
  ElemType ct = p == 0 ? T_C64 : p == 1 ? T_C128 : xs->type;
  int64_t n = m.rows, nn = n * n;
  TRY(want(in, 0, xs->type, r - 1, m.batch * n));
  if (!cx) TRY(want(in, 1, xs->type, r - 1, m.batch * n));
  TRY(want(in, 1 + o, ct, r, m.batch * nn));
  TRY(want(in, 2 + o, ct, r, m.batch * nn));
  TRY(want(in, 3 + o, T_S32, r - 2, m.batch));
  if (!ops) return NULL; /* checked only */
  RVal *el[5];
  TRY(make_results(in, el, 4 + o));
  size_t es = prec_bytes(p), rs = prec_double(p) ? 8 : 4, cs = 2 * rs;
  char jl = instr_config_char(in, "compute_left", 'N') == 'V' ? 'V' : 'N';
  char jr = instr_config_char(in, "compute_right", 'N') == 'V' ? 'V' : 'N';
  lint N = (lint)n, info = 0; /* n > 0 whenever LAPACK is called */
  char *a = work_alloc((size_t)nn, es), *vl = work_alloc((size_t)nn, es), *vr = work_alloc((size_t)nn, es);
  void *rwork = work_alloc((size_t)(2 * n), rs);
  cxla_status st = a && vl && vr && rwork ? NULL : cxla_oom();
  double q[2] = {0, 0};
  lint lwork = -1;
  if (!st && n > 0)
    geev_call(p, &jl, &jr, &N, a, el[0]->lit.data, cx ? NULL : el[1]->lit.data, vl, vr, q, &lwork, rwork, &info);
  lwork = work_count(p, q);
  void *work = st ? NULL : work_alloc((size_t)lwork, es);
  if (!st && !work) st = cxla_oom();
  for (int64_t b = 0; b < m.batch && !st; b++) {
    const char *x = (const char *)ops[0]->lit.data + (size_t)(b * nn) * es;
    char *w = (char *)el[0]->lit.data + (size_t)(b * n) * es;
    char *wi = cx ? NULL : (char *)el[1]->lit.data + (size_t)(b * n) * es;
    char *ol = (char *)el[1 + o]->lit.data + (size_t)(b * nn) * cs, *orr = (char *)el[2 + o]->lit.data + (size_t)(b * nn) * cs;
    memset(w, 0, (size_t)n * es);
    if (wi) memset(wi, 0, (size_t)n * es);
    memset(ol, 0, (size_t)nn * cs);
    memset(orr, 0, (size_t)nn * cs);
    info = 0;
    if (!all_finite(p, x, nn)) {
      info = -4;
    } else if (n > 0) {
      transpose(a, x, n, n, es);
      geev_call(p, &jl, &jr, &N, a, w, wi, vl, vr, work, &lwork, rwork, &info);
      if (info == 0 && jl == 'V') geev_vectors(p, vl, wi, n, ol);
      if (info == 0 && jr == 'V') geev_vectors(p, vr, wi, n, orr);
    }
    set_s32(el[3 + o], b, info);
  }
  cxla_free(work);
  cxla_free(a);
  cxla_free(vl);
  cxla_free(vr);
  cxla_free(rwork);
  return finish(in, el, 4 + o, st, out);
}

typedef enum Target {
  TG_NONE, TG_POTRF, TG_GETRF, TG_GEQRF, TG_ORGQR, TG_EIGH, TG_EIGH_TF, TG_GESDD, TG_GESVD, TG_TRSM, TG_GTSV, TG_GEES,
  TG_GEEV
} Target;

static bool routine_is(const char *r, const char *name) {
  size_t n = strlen(name);
  return strncmp(r, name, n) == 0 && strcmp(r + n, "_ffi") == 0;
}

/* The target of a custom-call and the precision it runs in (-1 unknown). */
static Target target_of(const Instr *in, int *p) {
  const char *t = in->custom_call_target ? in->custom_call_target : "";
  *p = in->noperands > 0 ? prec_of(in->operands[0]->shape->type) : -1;
  if (strcmp(t, "Qr") == 0) return TG_GEQRF;
  if (strcmp(t, "ProductOfElementaryHouseholderReflectors") == 0) return TG_ORGQR;
  if (strcmp(t, "Eigh") == 0) return TG_EIGH_TF;
  size_t n = strlen(t);
  if (strncmp(t, "lapack_", 7) != 0 || n < 12 || strcmp(t + n - 4, "_ffi") != 0) return TG_NONE;
  const char *pc = strchr("sdcz", t[7]);
  if (!pc || !t[7]) return TG_NONE;
  int tp = (int)(pc - "sdcz");
  if (*p != tp) return TG_NONE;
  const char *r = t + 8;
  bool c = prec_complex(tp);
  if (routine_is(r, "potrf")) return TG_POTRF;
  if (routine_is(r, "getrf")) return TG_GETRF;
  if (routine_is(r, "geqrf")) return TG_GEQRF;
  if (routine_is(r, c ? "ungqr" : "orgqr")) return TG_ORGQR;
  if (routine_is(r, c ? "heevd" : "syevd")) return TG_EIGH;
  if (routine_is(r, "gesdd")) return TG_GESDD;
  if (routine_is(r, "gesvd")) return TG_GESVD;
  if (routine_is(r, "trsm")) return TG_TRSM;
  if (routine_is(r, "gtsv")) return TG_GTSV;
  if (routine_is(r, "gees")) return TG_GEES;
  if (routine_is(r, "geev")) return TG_GEEV;
  return TG_NONE;
}

cxla_status rt_linalg_check(const Instr *in) {
  RVal *none;
  return rt_linalg_run(in, NULL, &none);
}

bool rt_linalg_supported(const Instr *in) {
  if (in->op == OP_CHOLESKY || in->op == OP_TRIANGULAR_SOLVE) return true;
  int p;
  return in->op == OP_CUSTOM_CALL && target_of(in, &p) != TG_NONE && p >= 0;
}

/* With ops NULL: only the checks of the shapes (at compile time). */
cxla_status rt_linalg_run(const Instr *in, RVal *const *ops, RVal **out) {
  *out = NULL;
  if (in->op == OP_CHOLESKY) return run_cholesky(in, ops, out);
  if (in->op == OP_TRIANGULAR_SOLVE) return run_trisolve(in, ops, out);
  int p;
  Target tg = in->op == OP_CUSTOM_CALL ? target_of(in, &p) : TG_NONE;
  if (tg == TG_NONE || p < 0)
    return ERR(UNIMPLEMENTED, "cpu backend: no linear-algebra routine for %%%s", in->name);
  if (tg != TG_ORGQR && tg != TG_TRSM && in->shape->type != T_TUPLE) return bad(in, "must return a tuple");
  switch (tg) {
  case TG_POTRF: return cc_potrf(in, ops, p, out);
  case TG_GETRF: return cc_getrf(in, ops, p, out);
  case TG_GEQRF: return cc_geqrf(in, ops, p, out);
  case TG_ORGQR: return cc_orgqr(in, ops, p, out);
  case TG_EIGH: return eigh(in, ops, p, instr_config_char(in, "uplo", 'L') == 'L', true, out);
  case TG_EIGH_TF: return cc_eigh_tf(in, ops, p, out);
  case TG_GESDD: return cc_svd(in, ops, p, false, out);
  case TG_GESVD: return cc_svd(in, ops, p, true, out);
  case TG_TRSM: return cc_trsm(in, ops, out);
  case TG_GEES: return cc_gees(in, ops, p, out);
  case TG_GEEV: return cc_geev(in, ops, p, out);
  default: return cc_gtsv(in, ops, p, out);
  }
}
