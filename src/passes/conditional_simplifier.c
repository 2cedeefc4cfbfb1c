/* conditional-simplifier: a conditional whose branch is known at compile
 * time is replaced by that branch's instructions, as XLA's
 * ConditionalSimplifier does (XLA:CPU runs it in its simplification loop):
 *
 *   - the predicate (pred) or branch index (s32) is a constant: the taken
 *     branch (true -> the first computation; an index out of range -> the
 *     last branch, as the conditional itself does);
 *   - there is a single branch computation.
 *
 * The branch is inlined (call_inliner.c's pass_inline_call): the
 * conditional's operand for that branch feeds its parameter. Exact: the
 * same instructions run on the same values. Conditionals that are
 * selected at run time stay (XLA may also turn cheap ones into selects;
 * cxla does not). */
#include "ir/rewrite.h"
#include "passes/passes.h"

/* The branch the conditional takes, or -1 if it depends on run-time data. */
static int taken_branch(const Instr *in) {
  int n = in->ncalled;
  if (n < 1 || in->noperands != n + 1) return -1;
  if (n == 1) return 0;
  const Instr *p = in->operands[0];
  if (p->op != OP_CONSTANT || !p->literal || p->literal->unknown || !p->literal->data ||
      p->literal->nelems != 1)
    return -1;
  int64_t v = literal_get_i64(p->literal, 0);
  if (p->shape->type == T_PRED) return v ? 0 : 1;
  return v < 0 || v >= n ? n - 1 : (int)v;
}

cxla_status pass_conditional_simplifier(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    comp_renumber(c);
    bool any = false;
    int n = c->ninstrs; /* the copies appended by inlining are not revisited */
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      if (in->op != OP_CONDITIONAL) continue;
      int b = taken_branch(in);
      if (b < 0 || in->called[b]->nparams != 1) continue;
      Computation *f = in->called[b];
      comp_renumber(f);
      Instr *arg = in->operands[1 + b];
      Shape *sh = shape_clone(&m->arena, in->shape);
      Instr *call = sh ? comp_add_instr(c, OP_CALL, sh, 1, &arg, NULL) : NULL;
      if (!call || !(call->called = arena_array(&m->arena, 1, sizeof(Computation *))))
        return cxla_oom();
      call->called[0] = f;
      call->ncalled = 1;
      call->control_preds = in->control_preds;
      call->ncontrol_preds = in->ncontrol_preds;
      comp_replace_uses(c, in, call);
      instr_retire(in); /* the call (inlined next) has the branch's effects */
      TRY(pass_inline_call(c, call));
      any = true;
    }
    if (!any) continue;
    *changed = true;
    TRY(comp_sort(c));
    comp_prune(c);
  }
  if (*changed) module_prune_computations(m);
  return NULL;
}
