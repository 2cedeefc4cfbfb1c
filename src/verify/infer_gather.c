/* Shape rules for gather and scatter, with XLA's full dimension-number
 * rules including batching dimensions (StableHLO's gather/scatter
 * constraints).
 *
 * Both treat the index array as if it had a trailing dimension of size 1
 * when index_vector_dim == rank(indices): the "expanded" index dims. */
#include "verify/infer.h"

#define MAX_RANK 64

/* The expanded index dims of `idx` for index_vector_dim ivd. */
static cxla_status expand_indices(const Shape *idx, int64_t ivd, int64_t *dims, int *rank) {
  if (ivd < 0 || ivd > idx->rank)
    return verr("index_vector_dim=%lld out of range for indices of rank %d", (long long)ivd,
                idx->rank);
  if (idx->rank + 1 > MAX_RANK) return verr("indices have too many dimensions");
  for (int i = 0; i < idx->rank; i++) dims[i] = idx->dims[i];
  *rank = idx->rank;
  if (ivd == idx->rank) dims[(*rank)++] = 1;
  return NULL;
}

/* Checks the batching dims pair (operand side `ob`, indices side `ib`) and
 * the index map `map` (start_index_map / scatter_dims_to_operand_dims). */
static cxla_status check_batching_and_map(Arena *a, const Shape *op, const int64_t *idims,
                                          int irank, int64_t ivd, const I64List *ob,
                                          const char *ob_name, const I64List *ib,
                                          const char *ib_name, const I64List *map,
                                          const char *map_name, const I64List *collapsed,
                                          const char *collapsed_name) {
  TRY(check_dim_list(a, collapsed->v, collapsed->n, op->rank, collapsed_name, DL_SORTED));
  TRY(check_dim_list(a, ob->v, ob->n, op->rank, ob_name, DL_SORTED));
  for (int i = 0; i < ob->n; i++)
    if (list_has(collapsed->v, collapsed->n, ob->v[i]))
      return verr("operand dimension %lld is in both %s and %s", (long long)ob->v[i],
                  collapsed_name, ob_name);
  TRY(check_dim_list(a, ib->v, ib->n, irank, ib_name, DL_UNIQUE));
  if (ib->n != ob->n)
    return verr("%s has %d entries but %s has %d", ob_name, ob->n, ib_name, ib->n);
  for (int i = 0; i < ib->n; i++) {
    if (ib->v[i] == ivd) return verr("%s contains index_vector_dim %lld", ib_name, (long long)ivd);
    if (op->dims[ob->v[i]] != idims[ib->v[i]])
      return verr("batching dimension sizes differ: operand dimension %lld is %lld, indices "
                  "dimension %lld is %lld", (long long)ob->v[i], (long long)op->dims[ob->v[i]],
                  (long long)ib->v[i], (long long)idims[ib->v[i]]);
  }
  if (map->n != idims[ivd])
    return verr("%s has %d entries, expected the index vector size %lld", map_name, map->n,
                (long long)idims[ivd]);
  TRY(check_dim_list(a, map->v, map->n, op->rank, map_name, DL_UNIQUE));
  for (int i = 0; i < map->n; i++)
    if (list_has(ob->v, ob->n, map->v[i]))
      return verr("operand dimension %lld is in both %s and %s", (long long)map->v[i], map_name,
                  ob_name);
  return NULL;
}

cxla_status infer_gather(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  TRY(expect_attr(in, A_GATHER_DIMS, "gather dimension numbers"));
  TRY(expect_attr(in, A_SLICE_SIZES, "slice_sizes"));
  const Shape *op = OPSHAPE(in, 0), *idx = OPSHAPE(in, 1);
  const GatherDims *g = &in->gather;
  const I64List *ss = &in->slice_sizes;
  if (!type_is_int(idx->type))
    return verr("operand 1 (the indices) has type %s, expected integral", type_name(idx->type));
  int64_t idims[MAX_RANK];
  int irank;
  TRY(expand_indices(idx, g->index_vector_dim, idims, &irank));
  int out_rank = g->offset_dims.n + irank - 1;
  TRY(check_dim_list(a, g->offset_dims.v, g->offset_dims.n, out_rank, "offset_dims", DL_SORTED));
  TRY(check_batching_and_map(a, op, idims, irank, g->index_vector_dim, &g->operand_batching_dims,
                             "operand_batching_dims", &g->start_indices_batching_dims,
                             "start_indices_batching_dims", &g->start_index_map,
                             "start_index_map", &g->collapsed_slice_dims,
                             "collapsed_slice_dims"));
  if (ss->n != op->rank)
    return verr("slice_sizes=%s has %d entries, expected %d", list_str(a, ss->v, ss->n), ss->n,
                op->rank);
  if (g->offset_dims.n + g->collapsed_slice_dims.n + g->operand_batching_dims.n != op->rank)
    return verr("offset_dims, collapsed_slice_dims and operand_batching_dims must account for "
                "all %d operand dimensions", op->rank);
  for (int i = 0; i < op->rank; i++) {
    if (ss->v[i] < 0 || ss->v[i] > op->dims[i])
      return verr("slice_sizes=%s does not fit operand %s", list_str(a, ss->v, ss->n),
                  shape_str(a, op));
    bool dropped = list_has(g->collapsed_slice_dims.v, g->collapsed_slice_dims.n, i) ||
                   list_has(g->operand_batching_dims.v, g->operand_batching_dims.n, i);
    if (dropped && ss->v[i] > 1)
      return verr("slice size of collapsed or batching dimension %d is %lld, must be <= 1", i,
                  (long long)ss->v[i]);
  }
  TRY(make_array(a, op->type, out_rank, NULL, out));
  int next_op = 0, next_idx = 0;
  for (int i = 0; i < out_rank; i++) {
    if (list_has(g->offset_dims.v, g->offset_dims.n, i)) {
      while (list_has(g->collapsed_slice_dims.v, g->collapsed_slice_dims.n, next_op) ||
             list_has(g->operand_batching_dims.v, g->operand_batching_dims.n, next_op))
        next_op++;
      (*out)->dims[i] = ss->v[next_op++];
    } else {
      if (next_idx == g->index_vector_dim) next_idx++;
      (*out)->dims[i] = idims[next_idx++];
    }
  }
  return NULL;
}

cxla_status infer_scatter(Arena *a, const Instr *in, Shape **out) {
  if (in->noperands < 3 || in->noperands % 2 == 0)
    return verr("expected 2N+1 operands (N inputs, indices, N updates), got %d", in->noperands);
  int n = in->noperands / 2;
  TRY(expect_array_operands(a, in, 0, in->noperands));
  TRY(expect_attr(in, A_SCATTER_DIMS, "scatter dimension numbers"));
  const Shape *op = OPSHAPE(in, 0), *idx = OPSHAPE(in, n);
  const ScatterDims *s = &in->scatter;
  if (!type_is_int(idx->type))
    return verr("operand %d (the indices) has type %s, expected integral", n, type_name(idx->type));
  int64_t idims[MAX_RANK];
  int irank;
  TRY(expand_indices(idx, s->index_vector_dim, idims, &irank));
  TRY(check_batching_and_map(a, op, idims, irank, s->index_vector_dim, &s->input_batching_dims,
                             "input_batching_dims", &s->scatter_indices_batching_dims,
                             "scatter_indices_batching_dims", &s->scatter_dims_to_operand_dims,
                             "scatter_dims_to_operand_dims", &s->inserted_window_dims,
                             "inserted_window_dims"));
  const I64List *uwd = &s->update_window_dims;
  if (uwd->n + s->inserted_window_dims.n + s->input_batching_dims.n != op->rank)
    return verr("update_window_dims, inserted_window_dims and input_batching_dims must account "
                "for all %d operand dimensions", op->rank);
  int urank = irank - 1 + uwd->n;
  ElemType types[MAX_RANK];
  if (n > MAX_RANK) return verr("too many scatter inputs");
  for (int k = 0; k < n; k++) {
    const Shape *x = OPSHAPE(in, k), *u = OPSHAPE(in, n + 1 + k);
    if (!same_dims(x, op))
      return verr("operand %d has shape %s, expected the dims of operand 0, %s", k,
                  shape_str(a, x), shape_str(a, op));
    if (u->type != x->type)
      return verr("operand %d (updates) has type %s, expected %s", n + 1 + k, type_name(u->type),
                  type_name(x->type));
    if (u->rank != urank)
      return verr("operand %d (updates) has rank %d, expected %d", n + 1 + k, u->rank, urank);
    types[k] = x->type;
  }
  const Shape *u = OPSHAPE(in, n + 1);
  TRY(check_dim_list(a, uwd->v, uwd->n, urank, "update_window_dims", DL_SORTED));
  /* Window dims of the updates fit in the operand's non-inserted,
   * non-batching dims; scatter dims match the indices' batch dims. */
  int next_op = 0, next_idx = 0, w = 0;
  for (int i = 0; i < urank; i++) {
    if (w < uwd->n && uwd->v[w] == i) {
      while (list_has(s->inserted_window_dims.v, s->inserted_window_dims.n, next_op) ||
             list_has(s->input_batching_dims.v, s->input_batching_dims.n, next_op))
        next_op++;
      if (u->dims[i] > op->dims[next_op])
        return verr("updates dimension %d (size %lld) exceeds operand dimension %d (size %lld)",
                    i, (long long)u->dims[i], next_op, (long long)op->dims[next_op]);
      next_op++;
      w++;
    } else {
      if (next_idx == s->index_vector_dim) next_idx++;
      if (u->dims[i] != idims[next_idx])
        return verr("updates dimension %d (size %lld) differs from indices dimension %d (size %lld)",
                    i, (long long)u->dims[i], next_idx, (long long)idims[next_idx]);
      next_idx++;
    }
  }
  for (int k = 1; k < n; k++)
    if (!same_dims(OPSHAPE(in, n + 1 + k), u))
      return verr("operand %d (updates) has shape %s, expected the dims of %s", n + 1 + k,
                  shape_str(a, OPSHAPE(in, n + 1 + k)), shape_str(a, u));
  const Computation *c;
  TRY(get_callee(in, 1, 0, 2 * n, &c));
  TRY(check_reducer(a, c, n, types, "update computation"));
  if (n == 1) return copy_shape(a, op, out);
  Shape *el[MAX_RANK];
  for (int k = 0; k < n; k++) TRY(copy_shape(a, OPSHAPE(in, k), &el[k]));
  return make_tuple(a, n, el, out);
}
