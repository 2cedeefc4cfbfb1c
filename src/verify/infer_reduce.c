/* Shape rules for reductions and orderings: reduce, reduce-window,
 * select-and-scatter, sort, topk. */
#include "verify/infer.h"

#define MAX_INPUTS 64
#define MAX_RANK 64

/* Shared by reduce and reduce-window: 2N operands (N arrays of equal dims,
 * then N scalar init values of the same element types), one reducer.
 * Fills types[] and returns N. */
static cxla_status check_reduce_operands(Arena *a, const Instr *in, ElemType *types, int *n_out) {
  if (in->noperands < 2 || in->noperands % 2 != 0)
    return verr("expected an even number of operands (N inputs, N init values), got %d",
                in->noperands);
  int n = in->noperands / 2;
  if (n > MAX_INPUTS) return verr("too many inputs");
  TRY(expect_array_operands(a, in, 0, in->noperands));
  const Shape *x0 = OPSHAPE(in, 0);
  for (int i = 0; i < n; i++) {
    const Shape *x = OPSHAPE(in, i), *init = OPSHAPE(in, n + i);
    if (!same_dims(x, x0))
      return verr("operand %d has shape %s, expected the dims of operand 0, %s", i,
                  shape_str(a, x), shape_str(a, x0));
    if (!shape_is_scalar(init))
      return verr("operand %d (an init value) must be a scalar, got %s", n + i, shape_str(a, init));
    if (init->type != x->type)
      return verr("operand %d (an init value) has type %s, expected %s", n + i,
                  type_name(init->type), type_name(x->type));
    types[i] = x->type;
  }
  const Computation *c;
  TRY(get_callee(in, 1, 0, -1, &c));
  TRY(check_reducer(a, c, n, types, "reducer"));
  *n_out = n;
  return NULL;
}

/* One array shape per input with the given dims, as a tuple when n > 1. */
static cxla_status per_input(Arena *a, int n, const ElemType *types, int rank,
                             const int64_t *dims, Shape **out) {
  if (n == 1) return make_array(a, types[0], rank, dims, out);
  Shape *el[MAX_INPUTS];
  for (int i = 0; i < n; i++) TRY(make_array(a, types[i], rank, dims, &el[i]));
  return make_tuple(a, n, el, out);
}

cxla_status infer_reduce(Arena *a, const Instr *in, Shape **out) {
  ElemType types[MAX_INPUTS];
  int n;
  TRY(check_reduce_operands(a, in, types, &n));
  const Shape *x = OPSHAPE(in, 0);
  const I64List *d = &in->dimensions;
  TRY(check_dim_list(a, d->v, d->n, x->rank, "dimensions", DL_UNIQUE));
  int64_t dims[MAX_RANK];
  int rank = 0;
  if (x->rank > MAX_RANK) return verr("operand rank too large");
  for (int i = 0; i < x->rank; i++)
    if (!list_has(d->v, d->n, i)) dims[rank++] = x->dims[i];
  return per_input(a, n, types, rank, dims, out);
}

cxla_status infer_reduce_window(Arena *a, const Instr *in, Shape **out) {
  ElemType types[MAX_INPUTS];
  int n;
  TRY(check_reduce_operands(a, in, types, &n));
  const Shape *x = OPSHAPE(in, 0);
  if (x->rank > MAX_RANK) return verr("operand rank too large");
  int64_t dims[MAX_RANK];
  TRY(window_output_dims(in, x->rank, x->dims, dims));
  return per_input(a, n, types, x->rank, dims, out);
}

cxla_status infer_select_and_scatter(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 3));
  const Shape *x = OPSHAPE(in, 0), *src = OPSHAPE(in, 1), *init = OPSHAPE(in, 2);
  const Computation *sel, *scat;
  TRY(get_callee(in, 2, 0, 2, &sel));
  TRY(get_callee(in, 2, 1, 2, &scat));
  for (int i = 0; i < 2; i++) {
    const Shape *p = callee_param(sel, i);
    if (!shape_is_scalar(p) || p->type != x->type)
      return verr("select %%%s: parameter %d is %s, expected %s[]", sel->name, i, shape_str(a, p),
                  type_name(x->type));
  }
  const Shape *sr = callee_result(sel);
  if (!shape_is_scalar(sr) || sr->type != T_PRED)
    return verr("select %%%s must return pred[], returns %s", sel->name, shape_str(a, sr));
  if (!shape_is_scalar(init) || init->type != src->type)
    return verr("operand 2 (the init value) is %s, expected %s[]", shape_str(a, init),
                type_name(src->type));
  if (src->type != x->type)
    return verr("operand 1 (the source) has type %s, expected %s", type_name(src->type),
                type_name(x->type));
  TRY(check_reducer(a, scat, 1, &src->type, "scatter"));
  if (x->rank > MAX_RANK) return verr("operand rank too large");
  int64_t dims[MAX_RANK];
  TRY(window_output_dims(in, x->rank, x->dims, dims));
  bool fits = src->rank == x->rank;
  for (int i = 0; fits && i < x->rank; i++) fits = src->dims[i] == dims[i];
  if (fits) return copy_shape(a, x, out);
  Shape windowed = {.type = x->type, .rank = x->rank, .dims = dims};
  return verr("operand 1 (the source) has shape %s, expected the windowed operand shape %s",
              shape_str(a, src), shape_str(a, &windowed));
}

cxla_status infer_sort(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operands(a, in, 0, in->noperands));
  int n = in->noperands;
  if (n > MAX_INPUTS) return verr("too many operands");
  const Shape *x0 = OPSHAPE(in, 0);
  for (int i = 1; i < n; i++)
    if (!same_dims(OPSHAPE(in, i), x0))
      return verr("operand %d has shape %s, expected the dims of operand 0, %s", i,
                  shape_str(a, OPSHAPE(in, i)), shape_str(a, x0));
  if (in->dimensions.n != 1) return verr("expected one sort dimension in dimensions=");
  TRY(check_dim_list(a, in->dimensions.v, 1, x0->rank, "dimensions", 0));
  const Computation *c;
  TRY(get_callee(in, 1, 0, 2 * n, &c));
  for (int i = 0; i < 2 * n; i++) {
    const Shape *p = callee_param(c, i);
    ElemType t = OPSHAPE(in, i / 2)->type;
    if (!shape_is_scalar(p) || p->type != t)
      return verr("comparator %%%s: parameter %d is %s, expected %s[]", c->name, i,
                  shape_str(a, p), type_name(t));
  }
  const Shape *r = callee_result(c);
  if (!shape_is_scalar(r) || r->type != T_PRED)
    return verr("comparator %%%s must return pred[], returns %s", c->name, shape_str(a, r));
  if (n == 1) return copy_shape(a, x0, out);
  Shape *el[MAX_INPUTS];
  for (int i = 0; i < n; i++) TRY(copy_shape(a, OPSHAPE(in, i), &el[i]));
  return make_tuple(a, n, el, out);
}

cxla_status infer_topk(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  TRY(expect_attr(in, A_TOPK, "k"));
  const Shape *x = OPSHAPE(in, 0);
  if (x->rank < 1) return verr("operand must have rank >= 1, got %s", shape_str(a, x));
  if (in->topk_k < 0 || in->topk_k > x->dims[x->rank - 1])
    return verr("k=%lld out of range for operand %s", (long long)in->topk_k, shape_str(a, x));
  Shape *el[2];
  TRY(make_array(a, x->type, x->rank, x->dims, &el[0]));
  el[0]->dims[x->rank - 1] = in->topk_k;
  TRY(make_array(a, T_S32, x->rank, el[0]->dims, &el[1]));
  return make_tuple(a, 2, el, out);
}
