/* Shape rules for dot and convolution.
 *
 * Both let the result element type differ from the operands' (XLA's
 * preferred_element_type): the declared type is accepted unless it narrows
 * an integral computation. */
#include <stdio.h>
#include <string.h>

#include "verify/infer.h"

/* XLA's HigherPrecisionType for the two operand types, simplified: a
 * floating/complex type wins over an integral one, otherwise the wider. */
static ElemType higher_type(ElemType x, ElemType y) {
  if (x == y) return x;
  bool fx = type_is_float(x) || type_is_complex(x), fy = type_is_float(y) || type_is_complex(y);
  if (fx != fy) return fx ? x : y;
  return type_bits(y) > type_bits(x) ? y : x;
}

/* XLA's MaybeUpcast: the declared result type is the preferred element
 * type; it may not be narrower than an integral operand type. */
static cxla_status result_type(const Instr *in, ElemType lhs, ElemType rhs, ElemType *out) {
  ElemType from = higher_type(lhs, rhs), to = in->shape->type;
  if (!type_is_array(to)) return verr("result must be an array");
  if (to != from && !(type_is_float(from) || type_is_complex(from)) &&
      type_bits(to) < type_bits(from))
    return verr("result type %s is narrower than operand type %s", type_name(to), type_name(from));
  if (type_is_complex(from) && !type_is_complex(to))
    return verr("result type %s cannot hold complex operand type %s", type_name(to), type_name(from));
  *out = to;
  return NULL;
}

/* The lhs or rhs half of dot's dimension numbers: batch and contracting
 * dims in range and, together, without repeats. */
static cxla_status check_dot_side(Arena *a, const I64List *batch, const I64List *contract,
                                  int rank, const char *side) {
  char bname[32], cname[32];
  snprintf(bname, sizeof bname, "%s_batch_dims", side);
  snprintf(cname, sizeof cname, "%s_contracting_dims", side);
  TRY(check_dim_list(a, batch->v, batch->n, rank, bname, DL_UNIQUE));
  TRY(check_dim_list(a, contract->v, contract->n, rank, cname, DL_UNIQUE));
  for (int i = 0; i < contract->n; i++)
    if (list_has(batch->v, batch->n, contract->v[i]))
      return verr("%s dimension %lld is both a batch and a contracting dimension", side,
                  (long long)contract->v[i]);
  return NULL;
}

cxla_status infer_dot(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_operands(in, 2));
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *l = OPSHAPE(in, 0), *r = OPSHAPE(in, 1);
  const DotDims *d = &in->dot; /* all lists empty when the attribute is absent */
  TRY(check_dot_side(a, &d->lhs_batch, &d->lhs_contract, l->rank, "lhs"));
  TRY(check_dot_side(a, &d->rhs_batch, &d->rhs_contract, r->rank, "rhs"));
  if (d->lhs_contract.n != d->rhs_contract.n)
    return verr("lhs has %d contracting dimensions, rhs %d", d->lhs_contract.n, d->rhs_contract.n);
  if (d->lhs_batch.n != d->rhs_batch.n)
    return verr("lhs has %d batch dimensions, rhs %d", d->lhs_batch.n, d->rhs_batch.n);
  for (int i = 0; i < d->lhs_contract.n; i++)
    if (l->dims[d->lhs_contract.v[i]] != r->dims[d->rhs_contract.v[i]])
      return verr("contracting dimension sizes differ: lhs %s dimension %lld vs rhs %s dimension %lld",
                  shape_str(a, l), (long long)d->lhs_contract.v[i], shape_str(a, r),
                  (long long)d->rhs_contract.v[i]);
  for (int i = 0; i < d->lhs_batch.n; i++)
    if (l->dims[d->lhs_batch.v[i]] != r->dims[d->rhs_batch.v[i]])
      return verr("batch dimension sizes differ: lhs %s dimension %lld vs rhs %s dimension %lld",
                  shape_str(a, l), (long long)d->lhs_batch.v[i], shape_str(a, r),
                  (long long)d->rhs_batch.v[i]);
  ElemType t;
  TRY(result_type(in, l->type, r->type, &t));
  /* Result dims: batch dims, then lhs free dims, then rhs free dims. */
  int rank = l->rank + r->rank - 2 * d->lhs_contract.n - d->lhs_batch.n;
  TRY(make_array(a, t, rank, NULL, out));
  int k = 0;
  for (int i = 0; i < d->lhs_batch.n; i++) (*out)->dims[k++] = l->dims[d->lhs_batch.v[i]];
  for (int i = 0; i < l->rank; i++)
    if (!list_has(d->lhs_batch.v, d->lhs_batch.n, i) && !list_has(d->lhs_contract.v, d->lhs_contract.n, i))
      (*out)->dims[k++] = l->dims[i];
  for (int i = 0; i < r->rank; i++)
    if (!list_has(d->rhs_batch.v, d->rhs_batch.n, i) && !list_has(d->rhs_contract.v, d->rhs_contract.n, i))
      (*out)->dims[k++] = r->dims[i];
  return NULL;
}

/* batch, feature and spatial dims of one side of dim_labels form a
 * permutation of 0..n-1. */
static cxla_status check_conv_perm(int64_t d0, int64_t d1, const int64_t *sp, int nsp,
                                   const char *side) {
  int n = nsp + 2;
  bool seen[64] = {false};
  if (n > 64) return verr("convolution has too many dimensions");
  for (int i = 0; i < n; i++) {
    int64_t v = i == 0 ? d0 : i == 1 ? d1 : sp[i - 2];
    if (v < 0 || v >= n || seen[v])
      return verr("dim_labels: %s dimensions are not a permutation of 0..%d", side, n - 1);
    seen[v] = true;
  }
  return NULL;
}

cxla_status infer_convolution(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_operands(in, 2));
  TRY(expect_array_operands(a, in, 0, 2));
  TRY(expect_attr(in, A_CONV_DIMS, "dim_labels"));
  const Shape *l = OPSHAPE(in, 0), *r = OPSHAPE(in, 1);
  const ConvDims *c = &in->conv;
  int ns = c->nspatial, n = ns + 2;
  if (ns < 0 || (ns > 0 && (!c->in_spatial || !c->k_spatial || !c->out_spatial)))
    return verr("dim_labels: malformed");
  if (l->rank != n) return verr("lhs %s must have rank %d", shape_str(a, l), n);
  if (r->rank != n) return verr("rhs %s must have rank %d", shape_str(a, r), n);
  TRY(check_conv_perm(c->in_batch, c->in_feature, c->in_spatial, ns, "input"));
  TRY(check_conv_perm(c->k_in, c->k_out, c->k_spatial, ns, "kernel"));
  TRY(check_conv_perm(c->out_batch, c->out_feature, c->out_spatial, ns, "output"));
  int64_t fg = in->feature_group_count, bg = in->batch_group_count;
  if (fg < 1 || bg < 1) return verr("feature_group_count and batch_group_count must be positive");
  if (fg > 1 && bg > 1) return verr("feature_group_count and batch_group_count cannot both exceed 1");
  int64_t in_feat = l->dims[c->in_feature], batch = l->dims[c->in_batch];
  int64_t k_in = r->dims[c->k_in], k_out = r->dims[c->k_out];
  if (in_feat % fg != 0 || in_feat / fg != k_in)
    return verr("input feature size %lld must be feature_group_count (%lld) times the kernel "
                "input feature size %lld", (long long)in_feat, (long long)fg, (long long)k_in);
  if (k_out % fg != 0)
    return verr("kernel output feature size %lld is not a multiple of feature_group_count %lld",
                (long long)k_out, (long long)fg);
  if (k_out % bg != 0)
    return verr("kernel output feature size %lld is not a multiple of batch_group_count %lld",
                (long long)k_out, (long long)bg);
  if (batch % bg != 0)
    return verr("input batch size %lld is not a multiple of batch_group_count %lld",
                (long long)batch, (long long)bg);
  int64_t base[64], win[64];
  for (int i = 0; i < ns; i++) {
    base[i] = l->dims[c->in_spatial[i]];
    if (in->nwindow == ns && in->window && in->window[i].size != r->dims[c->k_spatial[i]])
      return verr("window size %lld of spatial dimension %d differs from the kernel's %lld",
                  (long long)in->window[i].size, i, (long long)r->dims[c->k_spatial[i]]);
  }
  TRY(window_output_dims(in, ns, base, win));
  ElemType t;
  TRY(result_type(in, l->type, r->type, &t));
  TRY(make_array(a, t, n, NULL, out));
  (*out)->dims[c->out_batch] = batch / bg;
  (*out)->dims[c->out_feature] = k_out;
  for (int i = 0; i < ns; i++) (*out)->dims[c->out_spatial[i]] = win[i];
  return NULL;
}
