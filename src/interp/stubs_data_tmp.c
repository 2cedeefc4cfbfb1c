/* stubs_data_tmp.c: TEMPORARY weak stand-ins for the driver's functions
 * (interp.c, branch interp-core) so that the data-movement evaluators and
 * their unit tests link before the driver lands. Every definition is weak:
 * the real ones win. The lead deletes this file at integration.
 *
 * interp_call here is a tiny evaluator for scalar computations only
 * (parameter, constant, tuple, get-tuple-element, the binary ops of
 * binop_apply, compare, select, not) — enough for reducers, comparators and
 * combiners in unit tests. */
#include <stdio.h>
#include <string.h>

#include "interp/data_common.h"

#define WEAK __attribute__((weak))

WEAK cxla_status interp_error(const Instr *in, cxla_status_code code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return cxla_status_make(code, "%s %%%s: %s", op_name(in->op), in->name, msg);
}

WEAK void row_major_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
}

WEAK ScalarFn scalar_fn_of(const Computation *c) {
  ScalarFn f = {OP_COUNT, false};
  const Instr *r = c ? c->root : NULL;
  if (!r || c->nparams != 2 || r->noperands != 2 || !(op_info(r->op)->flags & OPF_EW)) return f;
  const Instr *a = r->operands[0], *b = r->operands[1];
  if (a->op != OP_PARAMETER || b->op != OP_PARAMETER || a == b) return f;
  if (r->op == OP_COMPARE || r->op == OP_SELECT) return f;
  f.op = r->op;
  f.swapped = a->param_number == 1;
  return f;
}

static cxla_status stub_eval(const Instr *in, Literal **vals, Literal *const *args, Literal **out) {
  *out = NULL;
  Literal *a = in->noperands > 0 ? vals[in->operands[0]->id] : NULL;
  Literal *b = in->noperands > 1 ? vals[in->operands[1]->id] : NULL;
  switch (in->op) {
  case OP_PARAMETER: return literal_clone(args[in->param_number], out);
  case OP_CONSTANT: return literal_clone(in->literal, out);
  case OP_GET_TUPLE_ELEMENT: return literal_clone(a->tuple[in->index], out);
  case OP_TUPLE: {
    Literal *el[16];
    if (in->noperands > 16) return interp_error(in, CXLA_UNIMPLEMENTED, "stub: tuple too big");
    for (int i = 0; i < in->noperands; i++) {
      cxla_status s = literal_clone(vals[in->operands[i]->id], &el[i]);
      if (s) {
        for (int j = 0; j < i; j++) literal_free(el[j]);
        return s;
      }
    }
    return literal_create_tuple(in->noperands, el, out);
  }
  case OP_SELECT: {
    bool p = *(uint8_t *)a->data != 0;
    return literal_clone(p ? b : vals[in->operands[2]->id], out);
  }
  case OP_NOT:
    TRY(literal_clone(a, out));
    if (a->type == T_PRED) *(uint8_t *)(*out)->data = !*(uint8_t *)a->data;
    return NULL;
  case OP_COMPARE:
    TRY(literal_create(T_PRED, 0, NULL, out));
    *(uint8_t *)(*out)->data = elem_compare(in->cmp_dir, in->cmp_type, a->type, a->data, b->data);
    return NULL;
  default:
    if (in->noperands == 2 && binop_supported(in->op, a->type) && a->nelems == 1) {
      TRY(literal_create(a->type, 0, NULL, out));
      binop_apply(in->op, a->type, (*out)->data, a->data, b->data);
      return NULL;
    }
    return interp_error(in, CXLA_UNIMPLEMENTED, "stub interp_call cannot evaluate this");
  }
}

WEAK cxla_status interp_call(Interp *ip, const Computation *c, Literal *const *args, int nargs,
                             Literal **out) {
  *out = NULL;
  if (nargs != c->nparams) return ERR(INVALID_ARGUMENT, "stub interp_call: wrong arity");
  Literal **vals = cxla_calloc((size_t)c->ninstrs + 1, sizeof(Literal *));
  if (!vals) return cxla_oom();
  cxla_status s = NULL;
  for (int i = 0; i < c->ninstrs && !s; i++) {
    s = stub_eval(c->instrs[i], vals, args, &vals[i]);
  }
  if (!s) {
    *out = vals[c->root->id];
    vals[c->root->id] = NULL;
  }
  for (int i = 0; i < c->ninstrs; i++) literal_free(vals[i]);
  cxla_free(vals);
  return s;
}
