/* optimization-barrier-expander: removes opt-barrier instructions, every
 * use reading the barrier's operand instead, as XLA's
 * OptimizationBarrierExpander does in XLA:CPU's pipeline (after the
 * simplification passes and CSE, before layout assignment: XLA:CPU does
 * no rematerialization, so a barrier from jax.checkpoint only keeps the
 * simplifier from merging what it fences, and is gone from the compiled
 * module).
 *
 * A barrier with control predecessors stays (its operand would have to
 * take them over). Exact: the same values, computed once. */
#include "ir/rewrite.h"
#include "passes/passes.h"

static cxla_status rule(Instr *in, void *arg, Instr **out) {
  (void)arg;
  if (in->op == OP_OPT_BARRIER && in->noperands == 1 && in->ncontrol_preds == 0)
    *out = in->operands[0];
  return NULL;
}

cxla_status pass_opt_barrier_expander(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) {
    Computation *c = m->comps[i];
    if (c->is_fusion) continue;
    bool any = false;
    for (int k = 0; k < c->ninstrs && !any; k++) any = c->instrs[k]->op == OP_OPT_BARRIER;
    if (any) TRY(pass_rewrite_comp(c, rule, NULL, changed));
  }
  return NULL;
}
