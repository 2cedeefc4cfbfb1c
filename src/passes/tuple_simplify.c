/* Tuple simplification:
 *   get-tuple-element(tuple(a0, ..., an), i)          -> ai
 *   tuple(gte(x, 0), gte(x, 1), ..., gte(x, n-1))      -> x   (x has n elements)
 * Both only when the shapes agree exactly (layouts included). */
#include "passes/passes.h"

static cxla_status simplify(Instr *in, void *arg, Instr **out) {
  (void)arg;
  if (in->op == OP_GET_TUPLE_ELEMENT && in->noperands == 1) {
    Instr *t = in->operands[0];
    if (t->op == OP_TUPLE && in->index >= 0 && in->index < t->noperands)
      *out = t->operands[in->index];
    return NULL;
  }
  if (in->op != OP_TUPLE || in->noperands == 0) return NULL;
  Instr *src = NULL;
  for (int i = 0; i < in->noperands; i++) {
    const Instr *g = in->operands[i];
    if (g->op != OP_GET_TUPLE_ELEMENT || g->index != i) return NULL;
    if (src && g->operands[0] != src) return NULL;
    src = g->operands[0];
  }
  if (src->shape->type == T_TUPLE && src->shape->ntuple == in->noperands) *out = src;
  return NULL;
}

cxla_status pass_tuple_simplify(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) TRY(pass_rewrite_comp(m->comps[i], simplify, NULL, changed));
  return NULL;
}
