/* Shape rules for random numbers, replica/partition ids, collectives,
 * custom-call and the ops whose declared shape cxla accepts as is.
 *
 * Collectives: cxla runs one replica, but a module may have been written
 * for many. Where the result shape depends on the replica count
 * (all-gather, reduce-scatter, all-to-all) the declared shape is accepted
 * after the checks that need no replica information. */
#include "verify/infer.h"

cxla_status infer_rng(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_operands(in, 2));
  const Shape *lo = OPSHAPE(in, 0), *hi = OPSHAPE(in, 1);
  if (!shape_is_scalar(lo) || !shape_is_scalar(hi) || lo->type != hi->type)
    return verr("operands must be two scalars of one type, got %s and %s", shape_str(a, lo),
                shape_str(a, hi));
  TRY(expect_attr(in, A_RNG, "distribution"));
  ElemType t = lo->type;
  if (in->rng_dist == RNG_NORMAL ? !type_is_float(t)
      : in->rng_dist == RNG_UNIFORM ? !(type_is_float(t) || type_is_int(t) || t == T_PRED)
                                    : true)
    return verr("distribution does not fit operand type %s", type_name(t));
  if (!shape_is_array(in->shape)) return verr("result must be an array");
  return make_array(a, t, in->shape->rank, in->shape->dims, out);
}

cxla_status infer_rng_bit_generator(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *st = OPSHAPE(in, 0), *r = in->shape;
  if (in->rng_alg < RNGA_DEFAULT || in->rng_alg > RNGA_PHILOX) return verr("invalid algorithm");
  if (st->type != T_U64 || st->rank != 1 || st->dims[0] < 1)
    return verr("operand 0 (the state) must be u64[n], got %s", shape_str(a, st));
  if (r->type != T_TUPLE || r->ntuple != 2 || !shape_is_array(r->tuple[1]))
    return verr("result must be a tuple (state, values), got %s", shape_str(a, r));
  if (!type_is_int(r->tuple[1]->type))
    return verr("generated values must be integral, got %s", shape_str(a, r->tuple[1]));
  Shape *el[2];
  TRY(copy_shape(a, st, &el[0]));
  TRY(copy_shape(a, r->tuple[1], &el[1]));
  return make_tuple(a, 2, el, out);
}

cxla_status infer_rng_get_and_update_state(Arena *a, const Instr *in, Shape **out) {
  int64_t two = 2;
  return make_array(a, T_U64, 1, &two, out);
}

cxla_status infer_u32_scalar(Arena *a, const Instr *in, Shape **out) {
  return make_array(a, T_U32, 0, NULL, out);
}

/* The operands' shapes: one shape, or a tuple of them. */
static cxla_status operands_shape(Arena *a, const Instr *in, Shape **out) {
  if (in->noperands == 1) return copy_shape(a, OPSHAPE(in, 0), out);
  Shape **el = arena_array(a, (size_t)in->noperands, sizeof *el);
  if (!el) return cxla_oom();
  for (int i = 0; i < in->noperands; i++) TRY(copy_shape(a, OPSHAPE(in, i), &el[i]));
  return make_tuple(a, in->noperands, el, out);
}

/* N array operands of one type and a reducer over it. */
static cxla_status check_collective_reducer(Arena *a, const Instr *in) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operands(a, in, 0, in->noperands));
  ElemType t = OPSHAPE(in, 0)->type;
  for (int i = 1; i < in->noperands; i++)
    if (OPSHAPE(in, i)->type != t)
      return verr("operand %d has type %s, expected %s", i, type_name(OPSHAPE(in, i)->type), type_name(t));
  const Computation *c;
  TRY(get_callee(in, 1, 0, 2, &c));
  return check_reducer(a, c, 1, &t, "reducer");
}

cxla_status infer_all_reduce(Arena *a, const Instr *in, Shape **out) {
  TRY(check_collective_reducer(a, in));
  return operands_shape(a, in, out);
}

/* The declared result for operand i of an all-gather / reduce-scatter:
 * the whole shape for one operand, tuple element i for several. */
static const Shape *result_part(const Instr *in, int i) {
  const Shape *r = in->shape;
  if (in->noperands == 1) return r;
  return r->type == T_TUPLE && i < r->ntuple ? r->tuple[i] : NULL;
}

/* all-gather (gather=true) and reduce-scatter: the result equals the
 * operand except along dimensions={d}, which grows (shrinks) by a whole
 * factor, the shard count. */
static cxla_status check_sharded(Arena *a, const Instr *in, bool gather) {
  if (in->dimensions.n != 1) return verr("expected one dimension in dimensions=");
  int64_t d = in->dimensions.v[0];
  if (in->noperands > 1 &&
      (in->shape->type != T_TUPLE || in->shape->ntuple != in->noperands))
    return verr("result must be a tuple of %d arrays", in->noperands);
  for (int i = 0; i < in->noperands; i++) {
    const Shape *x = OPSHAPE(in, i), *r = result_part(in, i);
    if (!r || !shape_is_array(r) || r->type != x->type || r->rank != x->rank)
      return verr("result for operand %d must be a %s array of rank %d", i, type_name(x->type), x->rank);
    TRY(check_dim_list(a, &d, 1, x->rank, "dimensions", 0));
    for (int k = 0; k < x->rank; k++) {
      int64_t big = gather ? r->dims[k] : x->dims[k], small = gather ? x->dims[k] : r->dims[k];
      bool ok = k == d ? (small == 0 ? big == 0 : big % small == 0) : big == small;
      if (!ok)
        return verr("result %s does not fit operand %s along dimension %lld", shape_str(a, r),
                    shape_str(a, x), (long long)d);
    }
  }
  return NULL;
}

cxla_status infer_all_gather(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operands(a, in, 0, in->noperands));
  TRY(check_sharded(a, in, true));
  return copy_shape(a, in->shape, out);
}

cxla_status infer_reduce_scatter(Arena *a, const Instr *in, Shape **out) {
  TRY(check_collective_reducer(a, in));
  TRY(check_sharded(a, in, false));
  return copy_shape(a, in->shape, out);
}

cxla_status infer_collective_permute(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  if (in->noperands == 1) return copy_shape(a, OPSHAPE(in, 0), out);
  return copy_shape(a, in->shape, out); /* the in-place 4-operand form */
}

cxla_status infer_collective_broadcast(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  return operands_shape(a, in, out);
}

cxla_status infer_custom_call(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_attr(in, A_CUSTOM_CALL, "custom_call_target"));
  if (!in->custom_call_target) return verr("missing attribute custom_call_target");
  return copy_shape(a, in->shape, out);
}

cxla_status infer_declared(Arena *a, const Instr *in, Shape **out) {
  return copy_shape(a, in->shape, out);
}
