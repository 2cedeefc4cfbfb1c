/* stubs_tmp.c: TEMPORARY weak placeholders for the evaluator families that
 * another engineer is writing in parallel (shape_ops.c, reduce.c, sort.c,
 * gather.c by interp-data), so that libcxla links before their files land. A real (strong) definition
 * replaces each one. The lead deletes this file at integration.
 *
 * Placeholders answer UNIMPLEMENTED, except that the shape-op one runs the
 * three ops the control-flow tests cannot do without (constant, tuple,
 * get-tuple-element), in their plainest form. */
#include <string.h>

#include "interp/interp.h"

#define WEAK __attribute__((weak))

static cxla_status not_yet(const Instr *in) {
  return interp_error(in, CXLA_UNIMPLEMENTED, "not implemented yet");
}

WEAK cxla_status interp_shape_op(Interp *ip, const Instr *in, Literal *const *ops,
                                 Literal **out) {
  (void)ip;
  *out = NULL;
  switch (in->op) {
  case OP_CONSTANT:
    if (!in->literal) return interp_error(in, CXLA_INVALID_ARGUMENT, "constant without a value");
    return literal_clone(in->literal, out);
  case OP_TUPLE: {
    Literal **el = cxla_calloc((size_t)(in->noperands ? in->noperands : 1), sizeof(Literal *));
    if (!el) return cxla_oom();
    for (int i = 0; i < in->noperands; i++) {
      cxla_status s = literal_clone(ops[i], &el[i]);
      if (s) {
        for (int j = 0; j < i; j++) literal_free(el[j]);
        cxla_free(el);
        return s;
      }
    }
    cxla_status s = literal_create_tuple(in->noperands, el, out);
    cxla_free(el);
    return s;
  }
  case OP_GET_TUPLE_ELEMENT:
    if (ops[0]->type != T_TUPLE || in->index < 0 || in->index >= ops[0]->ntuple)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "bad tuple index %lld", (long long)in->index);
    return literal_clone(ops[0]->tuple[in->index], out);
  default:
    return not_yet(in);
  }
}

WEAK cxla_status interp_reduce(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip, (void)ops;
  *out = NULL;
  return not_yet(in);
}

WEAK cxla_status interp_sort(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip, (void)ops;
  *out = NULL;
  return not_yet(in);
}

WEAK cxla_status interp_gather(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip, (void)ops;
  *out = NULL;
  return not_yet(in);
}
