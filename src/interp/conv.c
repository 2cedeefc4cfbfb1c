/* conv.c: the convolution evaluator, with XLA's full semantics:
 * dim_labels in any order and any number of spatial dims, window size,
 * stride, padding (negative too), lhs (base) dilation, rhs (window)
 * dilation, window reversal, feature_group_count and batch_group_count.
 *
 * For output batch n, feature o and spatial position os:
 *   out[n, o, os] = sum over window positions ks and kernel input features i
 *       of lhs[nb(n, o), g(o) * Ci + i, is(os, ks)] * rhs[o, i, kr(ks)]
 * where, per spatial dim, the input index is
 *   u = os * stride - pad_lo + ks * rhs_dilation,
 *   is = u / lhs_dilation  (skipped unless u divides evenly and is in range),
 *   kr = reversal ? size - 1 - ks : ks;
 * g(o) = o / (O / feature_group_count) picks the feature group, and with
 * batch_group_count > 1 the input batch is n + (o / (O / batch_group_count))
 * * (input_batch / batch_group_count) (XLA's evaluator's formula).
 *
 * Elements are converted to the result type first and summed in the
 * accumulation domains of interp_math.h. Operands are packed once into
 * [batch][spatial...][feature] and [out_feature][window...][in_feature] so
 * the innermost loop runs over contiguous features. */
#include <string.h>

#include "interp/interp_math.h"

#define CONV_MAX_SPATIAL 16

typedef struct ConvPlan {
  int nsp;
  int64_t NB, C, O, Ci;             /* input batch/features, kernel out/in features */
  int64_t G, BG;                    /* feature / batch group counts */
  int64_t in_sp[CONV_MAX_SPATIAL];  /* input spatial sizes */
  int64_t k_sp[CONV_MAX_SPATIAL];   /* window sizes */
  int64_t out_sp[CONV_MAX_SPATIAL]; /* output spatial sizes */
  int64_t S, KS, OS;                /* products of the three */
  int64_t out_batch;
} ConvPlan;

/* The output size along one spatial dim; -1 if the window's numbers
 * overflow (they come from the program text, so they are checked). */
static int64_t out_size(const WindowDim *w, int64_t in) {
  int64_t base = 0, padded, win;
  if (in > 0 && (!mul_i64(in - 1, w->lhs_dilate, &base) || !add_i64(base, 1, &base))) return -1;
  if (!add_i64(w->pad_lo, base, &padded) || !add_i64(padded, w->pad_hi, &padded)) return -1;
  if (w->size == 0) return 0;
  if (!mul_i64(w->size - 1, w->rhs_dilate, &win) || !add_i64(win, 1, &win)) return -1;
  if (padded < win) return 0;
  return (padded - win) / w->stride + 1;
}

static bool dim_ok(int64_t d, int rank) { return d >= 0 && d < rank; }

static cxla_status conv_plan(const Instr *in, const Literal *lhs, const Literal *rhs,
                             ConvPlan *p) {
  const ConvDims *cd = &in->conv;
  const Shape *os = in->shape;
  int nsp = cd->nspatial;
  if (nsp < 0 || nsp > CONV_MAX_SPATIAL)
    return interp_error(in, CXLA_UNIMPLEMENTED, "%d spatial dimensions", nsp);
  if (lhs->rank != nsp + 2 || rhs->rank != nsp + 2 || os->rank != nsp + 2 ||
      !type_is_array(os->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "operand and result ranks must be %d (spatial dims + 2)", nsp + 2);
  if (in->nwindow != nsp)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "window has %d dims, expected %d",
                        in->nwindow, nsp);
  int r = nsp + 2;
  bool ok = dim_ok(cd->in_batch, r) && dim_ok(cd->in_feature, r) && dim_ok(cd->k_in, r) &&
            dim_ok(cd->k_out, r) && dim_ok(cd->out_batch, r) && dim_ok(cd->out_feature, r);
  for (int i = 0; i < nsp && ok; i++)
    ok = dim_ok(cd->in_spatial[i], r) && dim_ok(cd->k_spatial[i], r) &&
         dim_ok(cd->out_spatial[i], r);
  if (!ok) return interp_error(in, CXLA_INVALID_ARGUMENT, "dim_labels out of range");

  p->nsp = nsp;
  p->NB = lhs->dims[cd->in_batch];
  p->C = lhs->dims[cd->in_feature];
  p->O = rhs->dims[cd->k_out];
  p->Ci = rhs->dims[cd->k_in];
  p->G = in->feature_group_count;
  p->BG = in->batch_group_count;
  if (p->G < 1 || p->BG < 1 || (p->G > 1 && p->BG > 1))
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "bad feature_group_count %lld / batch_group_count %lld",
                        (long long)p->G, (long long)p->BG);
  if (p->C % p->G || p->C / p->G != p->Ci)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "input features %lld / feature_group_count %lld != kernel input "
                        "features %lld",
                        (long long)p->C, (long long)p->G, (long long)p->Ci);
  if (p->O % p->G || p->O % p->BG || p->NB % p->BG)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "group counts do not divide the feature or batch sizes");
  p->out_batch = p->NB / p->BG;
  p->S = p->KS = p->OS = 1;
  for (int i = 0; i < nsp; i++) {
    const WindowDim *w = &in->window[i];
    if (w->stride < 1 || w->lhs_dilate < 1 || w->rhs_dilate < 1 || w->size < 0)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "bad window in spatial dim %d", i);
    p->in_sp[i] = lhs->dims[cd->in_spatial[i]];
    p->k_sp[i] = rhs->dims[cd->k_spatial[i]];
    if (p->k_sp[i] != w->size)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "window size %lld != kernel size %lld",
                          (long long)w->size, (long long)p->k_sp[i]);
    p->out_sp[i] = out_size(w, p->in_sp[i]);
    if (p->out_sp[i] < 0)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "window numbers overflow in spatial dim %d",
                          i);
    if (os->dims[cd->out_spatial[i]] != p->out_sp[i])
      return interp_error(in, CXLA_INVALID_ARGUMENT,
                          "output spatial dim %d is %lld, expected %lld", i,
                          (long long)os->dims[cd->out_spatial[i]], (long long)p->out_sp[i]);
    p->S *= p->in_sp[i];
    p->KS *= p->k_sp[i];
    p->OS *= p->out_sp[i];
  }
  if (os->dims[cd->out_batch] != p->out_batch || os->dims[cd->out_feature] != p->O)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "result batch/feature sizes %lld/%lld, expected %lld/%lld",
                        (long long)os->dims[cd->out_batch], (long long)os->dims[cd->out_feature],
                        (long long)p->out_batch, (long long)p->O);
  return NULL;
}

/* The input index that output position o and window position k read along
 * one spatial dim, or -1 where the window hits padding or a dilation hole. */
static inline int64_t input_index(const WindowDim *w, int64_t in_sz, int64_t o, int64_t k) {
  /* o * stride + k * rhs_dilate lies inside the padded input, so it fits;
   * minus pad_lo it may not (pad_lo near INT64_MIN): then it lies past the
   * input. */
  int64_t u;
  if (__builtin_sub_overflow(o * w->stride + k * w->rhs_dilate, w->pad_lo, &u)) return -1;
  if (u < 0) return -1;
  if (w->lhs_dilate > 1) {
    if (u % w->lhs_dilate) return -1;
    u /= w->lhs_dilate;
  }
  return u < in_sz ? u : -1;
}

typedef struct ConvBufs {
  void *in, *ker;                  /* packed operands */
  void *acc;                       /* O accumulators */
  int64_t *lb_off, *c_off;         /* per output feature: batch-group offset, channel base */
} ConvBufs;

static void bufs_free(ConvBufs *b) {
  cxla_free(b->in);
  cxla_free(b->ker);
  cxla_free(b->acc);
  cxla_free(b->lb_off);
  cxla_free(b->c_off);
}

/* Adds one window position's contribution to the O accumulators of output
 * batch n: input spatial offset s_lin, kernel window offset k_lin. */
static void accumulate(const ConvPlan *p, ConvBufs *b, AccKind kind, int64_t n, int64_t s_lin,
                       int64_t k_lin) {
  int64_t Ci = p->Ci;
  for (int64_t o = 0; o < p->O; o++) {
    int64_t ioff = ((n + b->lb_off[o]) * p->S + s_lin) * p->C + b->c_off[o];
    int64_t koff = (o * p->KS + k_lin) * Ci;
    switch (kind) {
    case ACC_REAL: {
      const double *x = (const double *)b->in + ioff, *w = (const double *)b->ker + koff;
      double s = ((double *)b->acc)[o];
      for (int64_t i = 0; i < Ci; i++) s += x[i] * w[i];
      ((double *)b->acc)[o] = s;
      break;
    }
    case ACC_CPLX: {
      const double *x = (const double *)b->in + 2 * ioff;
      const double *w = (const double *)b->ker + 2 * koff;
      double *a = (double *)b->acc + 2 * o;
      for (int64_t i = 0; i < Ci; i++) {
        a[0] += x[2 * i] * w[2 * i] - x[2 * i + 1] * w[2 * i + 1];
        a[1] += x[2 * i] * w[2 * i + 1] + x[2 * i + 1] * w[2 * i];
      }
      break;
    }
    case ACC_INT: {
      const uint64_t *x = (const uint64_t *)b->in + ioff;
      const uint64_t *w = (const uint64_t *)b->ker + koff;
      uint64_t s = ((uint64_t *)b->acc)[o];
      for (int64_t i = 0; i < Ci; i++) s += x[i] * w[i];
      ((uint64_t *)b->acc)[o] = s;
      break;
    }
    }
  }
}

/* Stores the O accumulators at result offset base, feature stride fst. */
static void store_outputs(const ConvBufs *b, AccKind kind, int64_t O, int64_t base, int64_t fst,
                          Literal *res) {
  for (int64_t o = 0; o < O; o++) {
    int64_t at = base + o * fst;
    switch (kind) {
    case ACC_REAL: acc_set_real(res, at, ((double *)b->acc)[o]); break;
    case ACC_CPLX:
      acc_set_cplx(res, at, ((double *)b->acc)[2 * o], ((double *)b->acc)[2 * o + 1]);
      break;
    case ACC_INT: literal_set_i64(res, at, (int64_t)((uint64_t *)b->acc)[o]); break;
    }
  }
}

/* Steps an odometer over dims[0..n); false when it wrapped around. */
static bool bump(int64_t *pos, const int64_t *dims, int n) {
  for (int d = n - 1; d >= 0; d--) {
    if (++pos[d] < dims[d]) return true;
    pos[d] = 0;
  }
  return false;
}

static void conv_run(const Instr *in, const ConvPlan *p, ConvBufs *b, Literal *res) {
  const ConvDims *cd = &in->conv;
  int nsp = p->nsp;
  AccKind kind = acc_kind(res->type);
  int64_t ost[CONV_MAX_SPATIAL + 2], in_st[CONV_MAX_SPATIAL], k_st[CONV_MAX_SPATIAL];
  row_major_strides(res->rank, res->dims, ost);
  row_major_strides(nsp, p->in_sp, in_st);
  row_major_strides(nsp, p->k_sp, k_st);

  int64_t O = p->O;
  int64_t ofg = O / p->G;                  /* output features per feature group */
  int64_t dm = p->BG > 1 ? O / p->BG : 1;  /* output features per batch group */
  int64_t bgs = p->NB / p->BG;             /* input batches per batch group */
  for (int64_t o = 0; o < O; o++) {
    b->c_off[o] = (o / ofg) * p->Ci;
    b->lb_off[o] = ((o / dm) * bgs) % p->NB;
  }

  int64_t opos[CONV_MAX_SPATIAL] = {0}, kpos[CONV_MAX_SPATIAL] = {0};
  for (int64_t n = 0; n < p->out_batch; n++) {
    for (int64_t osl = 0; osl < p->OS; osl++) {
      memset(b->acc, 0, (size_t)O * acc_elem_bytes(kind));
      for (int64_t ksl = 0; ksl < p->KS; ksl++) {
        /* The input and kernel spatial offsets of this (output, window)
         * position; skipped where the window sees padding or a hole. */
        int64_t s_lin = 0, k_lin = 0;
        bool hit = true;
        for (int d = 0; d < nsp && hit; d++) {
          int64_t ix = input_index(&in->window[d], p->in_sp[d], opos[d], kpos[d]);
          hit = ix >= 0;
          s_lin += ix * in_st[d];
          int64_t kr = in->window[d].reversal ? p->k_sp[d] - 1 - kpos[d] : kpos[d];
          k_lin += kr * k_st[d];
        }
        if (hit) accumulate(p, b, kind, n, s_lin, k_lin);
        bump(kpos, p->k_sp, nsp);
      }
      int64_t base = n * ost[cd->out_batch];
      for (int d = 0; d < nsp; d++) base += opos[d] * ost[cd->out_spatial[d]];
      store_outputs(b, kind, O, base, ost[cd->out_feature], res);
      bump(opos, p->out_sp, nsp);
    }
  }
}

static cxla_status eval_conv(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "convolution takes 2 operands, got %d",
                        in->noperands);
  const Literal *lhs = ops[0], *rhs = ops[1];
  if (!type_is_array(lhs->type) || !type_is_array(rhs->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "convolution operands must be arrays");
  ConvPlan p;
  TRY(conv_plan(in, lhs, rhs, &p));
  const ConvDims *cd = &in->conv;
  Literal *res;
  TRY(literal_create_for_shape(in->shape, &res));
  if (res->nelems == 0) {
    *out = res;
    return NULL;
  }
  ElemType t = res->type;
  ConvBufs b;
  memset(&b, 0, sizeof b);
  int inperm[CONV_MAX_SPATIAL + 2], kperm[CONV_MAX_SPATIAL + 2];
  inperm[0] = (int)cd->in_batch;
  kperm[0] = (int)cd->k_out;
  for (int i = 0; i < p.nsp; i++) {
    inperm[i + 1] = (int)cd->in_spatial[i];
    kperm[i + 1] = (int)cd->k_spatial[i];
  }
  inperm[p.nsp + 1] = (int)cd->in_feature;
  kperm[p.nsp + 1] = (int)cd->k_in;
  cxla_status st = acc_pack(lhs, t, inperm, &b.in);
  if (!st) st = acc_pack(rhs, t, kperm, &b.ker);
  if (!st) {
    b.acc = cxla_malloc((size_t)p.O * acc_elem_bytes(acc_kind(t)));
    b.lb_off = cxla_malloc((size_t)p.O * sizeof(int64_t));
    b.c_off = cxla_malloc((size_t)p.O * sizeof(int64_t));
    if (!b.acc || !b.lb_off || !b.c_off) st = cxla_oom();
  }
  /* Empty operands leave nothing to sum: the zero-filled result stands. */
  if (!st && b.in && b.ker) conv_run(in, &p, &b, res);
  bufs_free(&b);
  if (st) {
    literal_free(res);
    return st;
  }
  *out = res;
  return NULL;
}

cxla_status interp_conv(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip;
  *out = NULL;
  if (in->op == OP_CONVOLUTION) return eval_conv(in, ops, out);
  return interp_error(in, CXLA_UNIMPLEMENTED, "%s is not supported by the interpreter",
                      op_name(in->op));
}
