/* dot.c: the dot (dot_general) evaluator, and the accumulation helpers that
 * conv.c shares (interp_math.h).
 *
 * out[batch..., lhs_free..., rhs_free...] =
 *     sum over contracting indices of lhs[...] * rhs[...]
 * with each operand element first converted to the result type, as XLA does
 * (so s8 x s8 -> s32 multiplies in s32, bf16 x bf16 -> f32 in f32).
 *
 * Speed: both operands are packed once into [batch][free][contract] buffers
 * of the accumulation type, so the inner loop runs over contiguous memory;
 * four outputs are computed together to hide the add latency while each
 * output keeps its sequential summation order. */
#include <math.h>
#include <string.h>

#include "interp/interp_math.h"
#include "interp/ew_scalar.h"
#include "ir/numeric.h"

/* ---- accumulation helpers (interp_math.h) ---------------------------------- */

AccKind acc_kind(ElemType t) {
  if (type_is_complex(t)) return ACC_CPLX;
  if (type_is_float(t)) return ACC_REAL;
  return ACC_INT;
}

size_t acc_elem_bytes(AccKind k) { return k == ACC_CPLX ? 2 * sizeof(double) : 8; }

/* Element i of l as (re, im) doubles, exactly. */
static void get_cplx_raw(const Literal *l, int64_t i, double out[2]) {
  if (l->type == T_C64) {
    const float *p = (const float *)l->data + 2 * i;
    out[0] = p[0];
    out[1] = p[1];
  } else if (l->type == T_C128) {
    const double *p = (const double *)l->data + 2 * i;
    out[0] = p[0];
    out[1] = p[1];
  } else {
    out[0] = literal_get_f64(l, i);
    out[1] = 0;
  }
}

double acc_get_real(const Literal *l, int64_t i, ElemType t) {
  double v;
  if (l->type == T_U64) v = (double)*((const uint64_t *)l->data + i);
  else v = literal_get_f64(l, i);
  return ew_daz(t, round_to_type(t, v)); /* XLA:CPU reads subnormals as 0 */
}

void acc_set_real(Literal *l, int64_t i, double v) {
  literal_set_f64(l, i, ew_ftz(l->type, v)); /* and flushes subnormal results */
}

void acc_get_cplx(const Literal *l, int64_t i, ElemType t, double out[2]) {
  get_cplx_raw(l, i, out);
  if (t == T_C64) {
    out[0] = (float)out[0];
    out[1] = (float)out[1];
  }
}

/* A float converted to integer type t the way XLA converts: NaN -> 0, out of
 * range saturates to t's min/max, otherwise truncation toward zero. */
static uint64_t float_to_int_bits(double v, ElemType t) {
  if (isnan(v)) return 0;
  int bits = type_bits(t);
  if (type_kind(t) == TK_UINT) {
    double max = ldexp(1.0, bits); /* exclusive */
    if (v <= 0) return 0;
    if (v >= max) return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return (uint64_t)v;
  }
  double lim = ldexp(1.0, bits - 1);
  if (v >= lim) return (uint64_t)(bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1);
  if (v < -lim) return (uint64_t)(bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)));
  return (uint64_t)(int64_t)v;
}

uint64_t acc_get_int(const Literal *l, int64_t i, ElemType t) {
  if (t == T_PRED) {
    if (type_is_complex(l->type)) {
      double c[2];
      get_cplx_raw(l, i, c);
      return c[0] != 0 || c[1] != 0;
    }
    if (type_is_float(l->type)) return literal_get_f64(l, i) != 0;
    return literal_get_i64(l, i) != 0;
  }
  if (type_is_float(l->type) || type_is_complex(l->type))
    return float_to_int_bits(literal_get_f64(l, i), t);
  /* Integer (or pred) source: the two's complement bits; storing wraps them
   * to t's width, which is XLA's int->int convert. */
  return (uint64_t)literal_get_i64(l, i);
}

void acc_set_cplx(Literal *l, int64_t i, double re, double im) {
  if (l->type == T_C64) {
    float *p = (float *)l->data + 2 * i;
    p[0] = (float)re;
    p[1] = (float)im;
  } else {
    double *p = (double *)l->data + 2 * i;
    p[0] = re;
    p[1] = im;
  }
}

cxla_status acc_pack(const Literal *l, ElemType t, const int *perm, void **out) {
  *out = NULL;
  if (l->nelems == 0) return NULL;
  AccKind k = acc_kind(t);
  void *buf = cxla_malloc((size_t)l->nelems * acc_elem_bytes(k));
  if (!buf) return cxla_oom();
  int rank = l->rank;
  int64_t src_strides[64], pdims[64], pstrides[64], idx[64];
  if (rank > 64) {
    cxla_free(buf);
    return ERR(UNIMPLEMENTED, "arrays of rank %d are not supported", rank);
  }
  row_major_strides(rank, l->dims, src_strides);
  for (int j = 0; j < rank; j++) {
    pdims[j] = l->dims[perm[j]];
    pstrides[j] = src_strides[perm[j]];
    idx[j] = 0;
  }
  int64_t src = 0;
  for (int64_t d = 0; d < l->nelems; d++) {
    switch (k) {
    case ACC_REAL: ((double *)buf)[d] = acc_get_real(l, src, t); break;
    case ACC_CPLX: acc_get_cplx(l, src, t, (double *)buf + 2 * d); break;
    case ACC_INT: ((uint64_t *)buf)[d] = acc_get_int(l, src, t); break;
    }
    /* Odometer over the packed (destination) order. */
    for (int j = rank - 1; j >= 0; j--) {
      src += pstrides[j];
      if (++idx[j] < pdims[j]) break;
      src -= pstrides[j] * pdims[j];
      idx[j] = 0;
    }
  }
  *out = buf;
  return NULL;
}

/* ---- dot -------------------------------------------------------------------- */

#define DOT_MAX_RANK 64

/* The dot's dimension bookkeeping, from its DotDims and operand shapes. */
typedef struct DotPlan {
  int lperm[DOT_MAX_RANK], rperm[DOT_MAX_RANK]; /* batch, free, contract */
  int64_t B, M, N, K;                           /* products of those sizes */
  int nb, nlf, nrf;
} DotPlan;

/* Marks dims listed in `list` as used (in `used`), checking range and
 * duplicates. */
static cxla_status mark_dims(const Instr *in, const char *what, const I64List *list, int rank,
                             bool *used) {
  for (int i = 0; i < list->n; i++) {
    int64_t d = list->v[i];
    if (d < 0 || d >= rank)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "%s dimension %lld out of range for rank %d",
                          what, (long long)d, rank);
    if (used[d])
      return interp_error(in, CXLA_INVALID_ARGUMENT, "%s dimension %lld used twice", what,
                          (long long)d);
    used[d] = true;
  }
  return NULL;
}

static cxla_status dot_plan(const Instr *in, const Literal *lhs, const Literal *rhs,
                            DotPlan *p) {
  const DotDims *dd = &in->dot;
  if (lhs->rank > DOT_MAX_RANK || rhs->rank > DOT_MAX_RANK)
    return interp_error(in, CXLA_UNIMPLEMENTED, "operand rank above %d", DOT_MAX_RANK);
  if (dd->lhs_batch.n != dd->rhs_batch.n || dd->lhs_contract.n != dd->rhs_contract.n)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "lhs and rhs have different numbers of batch or contracting dimensions");
  bool lused[DOT_MAX_RANK] = {false}, rused[DOT_MAX_RANK] = {false};
  TRY(mark_dims(in, "lhs batch", &dd->lhs_batch, lhs->rank, lused));
  TRY(mark_dims(in, "lhs contracting", &dd->lhs_contract, lhs->rank, lused));
  TRY(mark_dims(in, "rhs batch", &dd->rhs_batch, rhs->rank, rused));
  TRY(mark_dims(in, "rhs contracting", &dd->rhs_contract, rhs->rank, rused));

  const Shape *rs = in->shape;
  int64_t want[2 * DOT_MAX_RANK];
  int nw = 0, nl = 0, nr = 0;
  p->B = p->M = p->N = p->K = 1;
  for (int i = 0; i < dd->lhs_batch.n; i++) {
    int64_t a = dd->lhs_batch.v[i], b = dd->rhs_batch.v[i];
    if (lhs->dims[a] != rhs->dims[b])
      return interp_error(in, CXLA_INVALID_ARGUMENT, "batch dimension sizes differ: %lld vs %lld",
                          (long long)lhs->dims[a], (long long)rhs->dims[b]);
    p->lperm[nl++] = (int)a;
    p->rperm[nr++] = (int)b;
    want[nw++] = lhs->dims[a];
    p->B *= lhs->dims[a];
  }
  p->nb = dd->lhs_batch.n;
  p->nlf = p->nrf = 0;
  for (int d = 0; d < lhs->rank; d++)
    if (!lused[d]) {
      p->lperm[nl++] = d;
      want[nw++] = lhs->dims[d];
      p->M *= lhs->dims[d];
      p->nlf++;
    }
  for (int d = 0; d < rhs->rank; d++)
    if (!rused[d]) {
      p->rperm[nr++] = d;
      want[nw++] = rhs->dims[d];
      p->N *= rhs->dims[d];
      p->nrf++;
    }
  for (int i = 0; i < dd->lhs_contract.n; i++) {
    int64_t a = dd->lhs_contract.v[i], b = dd->rhs_contract.v[i];
    if (lhs->dims[a] != rhs->dims[b])
      return interp_error(in, CXLA_INVALID_ARGUMENT,
                          "contracting dimension sizes differ: %lld vs %lld",
                          (long long)lhs->dims[a], (long long)rhs->dims[b]);
    p->lperm[nl++] = (int)a;
    p->rperm[nr++] = (int)b;
    p->K *= lhs->dims[a];
  }
  if (!type_is_array(rs->type) || rs->rank != nw)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result shape does not match the operands");
  for (int i = 0; i < nw; i++)
    if (rs->dims[i] != want[i])
      return interp_error(in, CXLA_INVALID_ARGUMENT,
                          "result dimension %d is %lld, expected %lld", i,
                          (long long)rs->dims[i], (long long)want[i]);
  return NULL;
}

/* out[b][m][n] = sum_k L[b][m][k] * R[b][n][k], real doubles. */
static void matmul_real(const DotPlan *p, const double *L, const double *R, Literal *out) {
  int64_t M = p->M, N = p->N, K = p->K, o = 0;
  for (int64_t b = 0; b < p->B; b++) {
    const double *Lb = L + b * M * K, *Rb = R + b * N * K;
    for (int64_t m = 0; m < M; m++) {
      const double *a = Lb + m * K;
      int64_t n = 0;
      for (; n + 4 <= N; n += 4) {
        const double *r0 = Rb + n * K, *r1 = r0 + K, *r2 = r1 + K, *r3 = r2 + K;
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int64_t k = 0; k < K; k++) {
          double x = a[k];
          s0 += x * r0[k];
          s1 += x * r1[k];
          s2 += x * r2[k];
          s3 += x * r3[k];
        }
        acc_set_real(out, o++, s0);
        acc_set_real(out, o++, s1);
        acc_set_real(out, o++, s2);
        acc_set_real(out, o++, s3);
      }
      for (; n < N; n++) {
        const double *r = Rb + n * K;
        double s = 0;
        for (int64_t k = 0; k < K; k++) s += a[k] * r[k];
        acc_set_real(out, o++, s);
      }
    }
  }
}

static void matmul_cplx(const DotPlan *p, const double *L, const double *R, Literal *out) {
  int64_t M = p->M, N = p->N, K = p->K, o = 0;
  for (int64_t b = 0; b < p->B; b++)
    for (int64_t m = 0; m < M; m++) {
      const double *a = L + 2 * ((b * M + m) * K);
      for (int64_t n = 0; n < N; n++) {
        const double *r = R + 2 * ((b * N + n) * K);
        double re = 0, im = 0;
        for (int64_t k = 0; k < K; k++) {
          re += a[2 * k] * r[2 * k] - a[2 * k + 1] * r[2 * k + 1];
          im += a[2 * k] * r[2 * k + 1] + a[2 * k + 1] * r[2 * k];
        }
        acc_set_cplx(out, o++, re, im);
      }
    }
}

static void matmul_int(const DotPlan *p, const uint64_t *L, const uint64_t *R, Literal *out) {
  int64_t M = p->M, N = p->N, K = p->K, o = 0;
  for (int64_t b = 0; b < p->B; b++)
    for (int64_t m = 0; m < M; m++) {
      const uint64_t *a = L + (b * M + m) * K;
      for (int64_t n = 0; n < N; n++) {
        const uint64_t *r = R + (b * N + n) * K;
        uint64_t s = 0;
        for (int64_t k = 0; k < K; k++) s += a[k] * r[k];
        literal_set_i64(out, o++, (int64_t)s);
      }
    }
}

static cxla_status eval_dot(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "dot takes 2 operands, got %d", in->noperands);
  const Literal *lhs = ops[0], *rhs = ops[1];
  if (!type_is_array(lhs->type) || !type_is_array(rhs->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "dot operands must be arrays");
  DotPlan p;
  TRY(dot_plan(in, lhs, rhs, &p));
  ElemType t = in->shape->type;
  Literal *res;
  TRY(literal_create_for_shape(in->shape, &res));
  void *L = NULL, *R = NULL;
  cxla_status st = acc_pack(lhs, t, p.lperm, &L);
  if (!st) st = acc_pack(rhs, t, p.rperm, &R);
  /* Contracting over nothing leaves the zeros literal_create wrote (and the
   * packed operands are then empty, with no buffer to point into). */
  if (!st && res->nelems && p.K > 0) {
    switch (acc_kind(t)) {
    case ACC_REAL: matmul_real(&p, L, R, res); break;
    case ACC_CPLX: matmul_cplx(&p, L, R, res); break;
    case ACC_INT: matmul_int(&p, L, R, res); break;
    }
  }
  cxla_free(L);
  cxla_free(R);
  if (st) {
    literal_free(res);
    return st;
  }
  *out = res;
  return NULL;
}

cxla_status interp_dot(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip;
  *out = NULL;
  switch (in->op) {
  case OP_DOT: return eval_dot(in, ops, out);
  default:
    return interp_error(in, CXLA_UNIMPLEMENTED, "%s is not supported by the interpreter",
                        op_name(in->op));
  }
}
