/* zero-sized-hlo-elimination: an instruction whose result is an array
 * with no elements becomes an empty constant of its shape, as XLA's
 * ZeroSizedHloElimination does (XLA:CPU runs it in its simplification
 * loop). Parameters, constants, instructions with side effects and
 * tuples are left alone, as XLA leaves them; so are instructions inside
 * fusion computations (XLA runs it on non-fusion computations). Exact:
 * an empty array has no values to change. */
#include "ir/rewrite.h"
#include "passes/passes.h"

static cxla_status rule(Instr *in, void *arg, Instr **out) {
  HloModule *m = arg;
  const Shape *s = in->shape;
  if (in->op == OP_CONSTANT || in->op == OP_PARAMETER || pass_has_side_effect(in)) return NULL;
  if (!type_is_array(s->type) || s->rank == 0 || shape_elems(s) != 0) return NULL;
  /* control flow that calls computations with side effects keeps running */
  if (in->op == OP_WHILE || in->op == OP_CONDITIONAL || in->op == OP_CALL ||
      in->op == OP_CUSTOM_CALL)
    return NULL;
  Literal *l;
  TRY(literal_create(s->type, s->rank, s->dims, &l));
  TRY(module_own_literal(m, l));
  Shape *sh = shape_clone(&m->arena, s);
  Instr *c = sh ? comp_add_instr(in->parent, OP_CONSTANT, sh, 0, NULL, NULL) : NULL;
  if (!c) return cxla_oom();
  c->literal = l;
  *out = c;
  return NULL;
}

cxla_status pass_zero_sized_elimination(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++)
    if (!m->comps[i]->is_fusion) TRY(pass_rewrite_comp(m->comps[i], rule, m, changed));
  return NULL;
}
