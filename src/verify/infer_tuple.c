/* Shape rules for tuples, leaves and tokens: tuple, get-tuple-element,
 * constant, parameter, after-all, add-dependency. */
#include "verify/infer.h"

cxla_status infer_tuple(Arena *a, const Instr *in, Shape **out) {
  Shape **el = NULL;
  if (in->noperands > 0) {
    el = arena_array(a, (size_t)in->noperands, sizeof *el);
    if (!el) return cxla_oom();
  }
  for (int i = 0; i < in->noperands; i++) TRY(copy_shape(a, OPSHAPE(in, i), &el[i]));
  return make_tuple(a, in->noperands, el, out);
}

cxla_status infer_get_tuple_element(Arena *a, const Instr *in, Shape **out) {
  const Shape *t = OPSHAPE(in, 0);
  if (t->type != T_TUPLE) return verr("operand 0 must be a tuple, got %s", shape_str(a, t));
  TRY(expect_attr(in, A_INDEX, "index"));
  if (in->index < 0 || in->index >= t->ntuple)
    return verr("tuple index %lld out of range for %s", (long long)in->index, shape_str(a, t));
  return copy_shape(a, t->tuple[in->index], out);
}

/* The shape of a literal (type and dims, tuples recursively). */
static cxla_status literal_shape(Arena *a, const Literal *l, Shape **out) {
  if (l->type != T_TUPLE) {
    if ((unsigned)l->type >= T_COUNT || l->rank < 0 || (l->rank > 0 && !l->dims))
      return verr("constant literal is malformed");
    return make_array(a, l->type, l->rank, l->dims, out);
  }
  Shape **el = NULL;
  if (l->ntuple > 0) {
    el = arena_array(a, (size_t)l->ntuple, sizeof *el);
    if (!el) return cxla_oom();
  }
  for (int i = 0; i < l->ntuple; i++) TRY(literal_shape(a, l->tuple[i], &el[i]));
  return make_tuple(a, l->ntuple, el, out);
}

/* The literal holds exactly elems(shape) elements of data (or is an elided
 * "{...}" constant with no data). */
static bool literal_consistent(const Literal *l) {
  if (l->type == T_TUPLE) {
    for (int i = 0; i < l->ntuple; i++)
      if (!l->tuple || !l->tuple[i] || !literal_consistent(l->tuple[i])) return false;
    return true;
  }
  int64_t n = 1;
  for (int i = 0; i < l->rank; i++)
    if (l->dims[i] < 0 || !mul_i64(n, l->dims[i], &n)) return false;
  if (l->nelems != n) return false;
  return l->unknown || n == 0 || type_bytes(l->type) == 0 || l->data;
}

cxla_status infer_constant(Arena *a, const Instr *in, Shape **out) {
  if (!in->literal) return verr("constant has no literal");
  TRY(literal_shape(a, in->literal, out));
  if (!literal_consistent(in->literal)) return verr("constant literal is malformed");
  return NULL;
}

cxla_status infer_parameter(Arena *a, const Instr *in, Shape **out) {
  /* The verifier checks numbering against the computation; the shape is
   * the declared one. */
  const Computation *c = in->parent;
  if (c && (in->param_number < 0 || in->param_number >= c->nparams ||
            c->params[in->param_number] != in))
    return verr("parameter number %lld is not this computation's parameter %lld",
                (long long)in->param_number, (long long)in->param_number);
  return copy_shape(a, in->shape, out);
}

cxla_status infer_after_all(Arena *a, const Instr *in, Shape **out) {
  for (int i = 0; i < in->noperands; i++)
    if (!is_token(OPSHAPE(in, i)))
      return verr("operand %d must be a token, got %s", i, shape_str(a, OPSHAPE(in, i)));
  return make_array(a, T_TOKEN, 0, NULL, out);
}

cxla_status infer_add_dependency(Arena *a, const Instr *in, Shape **out) {
  if (!is_token(OPSHAPE(in, 1)))
    return verr("operand 1 must be a token, got %s", shape_str(a, OPSHAPE(in, 1)));
  return copy_shape(a, OPSHAPE(in, 0), out);
}
