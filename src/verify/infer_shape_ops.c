/* Shape rules for ops that move data without arithmetic: broadcast,
 * reshape, transpose, slice, concatenate, pad, reverse, iota, dynamic-slice,
 * dynamic-update-slice, bitcast, copy-like ops, get/set-dimension-size. */
#include <string.h>

#include "verify/infer.h"

/* A fresh copy of operand 0's element type with the declared dims: for ops
 * whose result dims are free (broadcast, reshape, iota). */
static cxla_status declared_dims(Arena *a, const Instr *in, ElemType t, Shape **out) {
  if (!shape_is_array(in->shape))
    return verr("result must be an array, got %s", shape_str(a, in->shape));
  return make_array(a, t, in->shape->rank, in->shape->dims, out);
}

cxla_status infer_broadcast(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TRY(declared_dims(a, in, x->type, out));
  const Shape *r = *out;
  const I64List *d = &in->dimensions;
  if (d->n != x->rank)
    return verr("dimensions=%s has %d entries, expected one per operand dimension (%d)",
                list_str(a, d->v, d->n), d->n, x->rank);
  TRY(check_dim_list(a, d->v, d->n, r->rank, "dimensions", DL_SORTED));
  for (int i = 0; i < x->rank; i++)
    if (r->dims[d->v[i]] != x->dims[i])
      return verr("operand dimension %d (size %lld) maps to result dimension %lld of size %lld",
                  i, (long long)x->dims[i], (long long)d->v[i], (long long)r->dims[d->v[i]]);
  return NULL;
}

/* Number of elements, or -1 if it overflows (shapes are valid: dims >= 0). */
static int64_t elems_checked(const Shape *s) {
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++)
    if (!mul_i64(n, s->dims[i], &n)) return -1;
  return n;
}

cxla_status infer_reshape(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TRY(declared_dims(a, in, x->type, out));
  int64_t from = elems_checked(x), to = elems_checked(*out);
  if (from < 0 || to < 0 || from != to)
    return verr("reshape from %s (%lld elements) to %s (%lld elements)", shape_str(a, x),
                (long long)from, shape_str(a, *out), (long long)to);
  return NULL;
}

cxla_status infer_dynamic_reshape(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operand(a, in, 0));
  TRY(infer_reshape(a, in, out));
  if (in->noperands != (*out)->rank + 1)
    return verr("expected %d operands (the array and one size per result dimension), got %d",
                (*out)->rank + 1, in->noperands);
  for (int i = 1; i < in->noperands; i++)
    if (OPSHAPE(in, i)->type != T_S32 || !shape_is_scalar(OPSHAPE(in, i)))
      return verr("operand %d must be s32[], got %s", i, shape_str(a, OPSHAPE(in, i)));
  return NULL;
}

cxla_status infer_transpose(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  const I64List *d = &in->dimensions;
  if (d->n != x->rank)
    return verr("dimensions=%s is not a permutation of the operand's %d dimensions",
                list_str(a, d->v, d->n), x->rank);
  TRY(check_dim_list(a, d->v, d->n, x->rank, "dimensions", DL_UNIQUE));
  TRY(make_array(a, x->type, x->rank, NULL, out));
  for (int i = 0; i < x->rank; i++) (*out)->dims[i] = x->dims[d->v[i]];
  return NULL;
}

/* slice= and padding= hold one entry per dimension, counted by the
 * declared shape's rank (the parser checks that count, ir.h promises the
 * operand's rank): both ranks must agree before the entries are read. */
static cxla_status same_rank_as_declared(Arena *a, const Instr *in, const Shape *x) {
  if (!shape_is_array(in->shape) || in->shape->rank != x->rank)
    return verr("result %s must have the rank of operand 0, %s", shape_str(a, in->shape),
                shape_str(a, x));
  return NULL;
}

cxla_status infer_slice(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TRY(same_rank_as_declared(a, in, x));
  if (x->rank > 0) TRY(expect_attr(in, A_SLICE, "slice"));
  if (x->rank > 0 && !in->slice) return verr("slice: malformed");
  TRY(make_array(a, x->type, x->rank, NULL, out));
  for (int i = 0; i < x->rank; i++) {
    const SliceDim *s = &in->slice[i];
    if (s->start < 0 || s->start > s->limit || s->limit > x->dims[i] || s->stride < 1)
      return verr("slice dimension %d [%lld:%lld:%lld] does not fit operand %s", i,
                  (long long)s->start, (long long)s->limit, (long long)s->stride,
                  shape_str(a, x));
    /* ceil((limit - start) / stride) without overflow: limit - start >= 0. */
    int64_t len = s->limit - s->start;
    (*out)->dims[i] = len / s->stride + (len % s->stride != 0);
  }
  return NULL;
}

cxla_status infer_concatenate(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operands(a, in, 0, in->noperands));
  const Shape *x = OPSHAPE(in, 0);
  if (in->dimensions.n != 1) return verr("expected one concatenation dimension in dimensions=");
  int64_t dim = in->dimensions.v[0];
  if (dim < 0 || dim >= x->rank)
    return verr("concatenation dimension %lld out of range for rank %d", (long long)dim, x->rank);
  TRY(copy_shape(a, x, out));
  for (int i = 1; i < in->noperands; i++) {
    const Shape *s = OPSHAPE(in, i);
    if (s->type != x->type)
      return verr("operand %d has type %s, expected %s", i, type_name(s->type), type_name(x->type));
    if (s->rank != x->rank)
      return verr("operand %d has rank %d, expected %d", i, s->rank, x->rank);
    for (int k = 0; k < x->rank; k++)
      if (k != dim && s->dims[k] != x->dims[k])
        return verr("operand %d has shape %s, which differs from %s outside dimension %lld", i,
                    shape_str(a, s), shape_str(a, x), (long long)dim);
    if (!add_i64((*out)->dims[dim], s->dims[dim], &(*out)->dims[dim]))
      return verr("concatenated dimension overflows");
  }
  return NULL;
}

cxla_status infer_pad(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *x = OPSHAPE(in, 0), *v = OPSHAPE(in, 1);
  if (!shape_is_scalar(v)) return verr("operand 1 (the padding value) must be a scalar, got %s", shape_str(a, v));
  if (v->type != x->type)
    return verr("operand 1 has type %s, expected %s", type_name(v->type), type_name(x->type));
  TRY(same_rank_as_declared(a, in, x));
  if (x->rank > 0) TRY(expect_attr(in, A_PADDING, "padding"));
  if (x->rank > 0 && !in->padding) return verr("padding: malformed");
  TRY(make_array(a, x->type, x->rank, NULL, out));
  for (int i = 0; i < x->rank; i++) {
    const PadDim *p = &in->padding[i];
    if (p->interior < 0) return verr("padding dimension %d has negative interior padding", i);
    int64_t d = x->dims[i], n;
    bool ok = mul_i64(d > 0 ? d - 1 : 0, p->interior, &n) && add_i64(n, d, &n) &&
              add_i64(n, p->lo, &n) && add_i64(n, p->hi, &n);
    if (!ok) return verr("padding dimension %d overflows", i);
    if (n < 0) return verr("padding dimension %d gives negative size %lld", i, (long long)n);
    (*out)->dims[i] = n;
  }
  return NULL;
}

cxla_status infer_reverse(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TRY(check_dim_list(a, in->dimensions.v, in->dimensions.n, x->rank, "dimensions", DL_UNIQUE));
  return copy_shape(a, x, out);
}

cxla_status infer_iota(Arena *a, const Instr *in, Shape **out) {
  const Shape *s = in->shape;
  if (!shape_is_array(s) || s->rank == 0)
    return verr("result must be an array of rank >= 1, got %s", shape_str(a, s));
  if (!(type_is_int(s->type) || type_is_float(s->type) || type_is_complex(s->type)))
    return verr("iota of type %s: expected integral, floating point or complex", type_name(s->type));
  TRY(expect_attr(in, A_IOTA_DIM, "iota_dimension"));
  if (in->index < 0 || in->index >= s->rank)
    return verr("iota_dimension=%lld out of range for rank %d", (long long)in->index, s->rank);
  return declared_dims(a, in, s->type, out);
}

/* Operands [first, first+rank) are start indices: scalars of one integral
 * type. */
static cxla_status check_start_indices(Arena *a, const Instr *in, int first, int rank) {
  if (in->noperands != first + rank)
    return verr("expected %d operands (%d start indices for rank %d), got %d", first + rank,
                rank, rank, in->noperands);
  for (int i = first; i < first + rank; i++) {
    const Shape *s = OPSHAPE(in, i);
    if (!shape_is_scalar(s) || !type_is_int(s->type))
      return verr("operand %d (a start index) must be an integral scalar, got %s", i,
                  shape_str(a, s));
    if (s->type != OPSHAPE(in, first)->type)
      return verr("operand %d has type %s, expected %s like the other start indices", i,
                  type_name(s->type), type_name(OPSHAPE(in, first)->type));
  }
  return NULL;
}

cxla_status infer_dynamic_slice(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TRY(check_start_indices(a, in, 1, x->rank));
  TRY(expect_attr(in, A_DYN_SLICE_SIZES, "dynamic_slice_sizes"));
  const I64List *sz = &in->slice_sizes;
  if (sz->n != x->rank)
    return verr("dynamic_slice_sizes=%s has %d entries, expected %d", list_str(a, sz->v, sz->n),
                sz->n, x->rank);
  for (int i = 0; i < x->rank; i++)
    if (sz->v[i] < 0 || sz->v[i] > x->dims[i])
      return verr("dynamic_slice_sizes=%s does not fit operand %s", list_str(a, sz->v, sz->n),
                  shape_str(a, x));
  return make_array(a, x->type, x->rank, sz->v, out);
}

cxla_status infer_dynamic_update_slice(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 2));
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *x = OPSHAPE(in, 0), *u = OPSHAPE(in, 1);
  TRY(check_start_indices(a, in, 2, x->rank));
  if (u->type != x->type)
    return verr("operand 1 has type %s, expected %s", type_name(u->type), type_name(x->type));
  if (u->rank != x->rank) return verr("operand 1 has rank %d, expected %d", u->rank, x->rank);
  for (int i = 0; i < x->rank; i++)
    if (u->dims[i] > x->dims[i])
      return verr("update %s does not fit in operand %s", shape_str(a, u), shape_str(a, x));
  return copy_shape(a, x, out);
}

cxla_status infer_bitcast(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0), *r = in->shape;
  if (!shape_is_array(r)) return verr("result must be an array, got %s", shape_str(a, r));
  /* A bitcast reinterprets the operand's buffer: the byte sizes agree. */
  int64_t from = elems_checked(x), to = elems_checked(r);
  if (from < 0 || to < 0 || !mul_i64(from, type_bytes(x->type), &from) ||
      !mul_i64(to, type_bytes(r->type), &to) || from != to)
    return verr("bitcast from %s (%lld bytes) to %s (%lld bytes) changes the size",
                shape_str(a, x), (long long)from, shape_str(a, r), (long long)to);
  return copy_shape(a, r, out);
}

cxla_status infer_same_as_operand(Arena *a, const Instr *in, Shape **out) {
  return copy_shape(a, OPSHAPE(in, 0), out);
}

cxla_status infer_get_dimension_size(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  if (in->dimensions.n != 1) return verr("expected one dimension in dimensions=");
  TRY(check_dim_list(a, in->dimensions.v, 1, x->rank, "dimensions", 0));
  if (x->dims[in->dimensions.v[0]] > INT32_MAX) return verr("dimension size exceeds s32");
  return make_array(a, T_S32, 0, NULL, out);
}

cxla_status infer_set_dimension_size(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *x = OPSHAPE(in, 0), *v = OPSHAPE(in, 1);
  if (in->dimensions.n != 1) return verr("expected one dimension in dimensions=");
  TRY(check_dim_list(a, in->dimensions.v, 1, x->rank, "dimensions", 0));
  if (!shape_is_scalar(v) || v->type != T_S32)
    return verr("operand 1 must be s32[], got %s", shape_str(a, v));
  return copy_shape(a, x, out);
}
