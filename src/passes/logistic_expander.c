/* logistic-expander: logistic(x) -> 1 / (1 + exp(-x)), the ops XLA's
 * LogisticExpander emits (one scalar constant broadcast to x's shape, used
 * as both the 1 in the sum and the numerator):
 *   one = broadcast(constant(1)); den = add(one, exponential(negate(x)));
 *   result = divide(one, den)
 * Every op rounds to x's type, so results can differ in the last bits from
 * an evaluator that computes logistic in one step at higher precision (as
 * cxla's interpreter does): the pass is for backends without a logistic
 * op, not part of the value-preserving default pipeline. */
#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"

static cxla_status expand(Computation *c, Instr *x_in, bool *changed) {
  Instr *x = x_in->operands[0];
  Instr *one = eu_scalar_like(c, x, 1.0);
  Instr *neg = one ? eu_unary(c, OP_NEGATE, x) : NULL;
  Instr *e = neg ? eu_unary(c, OP_EXP, neg) : NULL;
  Instr *den = e ? eu_binary(c, OP_ADD, one, e) : NULL;
  Instr *res = den ? eu_binary(c, OP_DIVIDE, one, den) : NULL;
  if (!res) return cxla_oom();
  comp_replace_uses(c, x_in, res);
  *changed = true;
  return NULL;
}

cxla_status pass_logistic_expander(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    bool here = false;
    int n = c->ninstrs; /* new instructions are appended past n */
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      ElemType t = in->shape->type;
      if (in->op != OP_LOGISTIC || in->noperands != 1 || !(type_is_float(t) || type_is_complex(t)))
        continue;
      TRY(expand(c, in, &here));
    }
    if (!here) continue;
    TRY(comp_sort(c));
    comp_prune(c);
    *changed = true;
  }
  return NULL;
}
