/* while-loop-constant-sinking: a loop state element that starts as a
 * constant and that the body passes through unchanged is that constant in
 * every iteration: the body and the condition read a copy of the constant
 * instead of the state element, as XLA's WhileLoopConstantSinking does
 * (XLA:CPU runs it in its simplification loop). The element itself stays
 * in the state (dead-state removal may drop it later); the constant in
 * the body lets constant folding and the simplifier work on it.
 *
 * Conditions, XLA's: the while's init is a tuple instruction whose element
 * k is a constant (not a broadcast of one); the body's root is a tuple
 * whose element k is get-tuple-element(body parameter, k). Uses of
 * get-tuple-element(parameter, k) in the body (other than that root
 * element) and in the condition read the constant. Exact. */
#include <stdint.h>
#include <stdlib.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* Replaces, in c, every use of get-tuple-element(param, k) with konst[k]
 * non-NULL by a clone of that constant (one clone per k), except `keep`'s
 * operand slot k (the body root's pass-through). One walk over c. */
static cxla_status sink(HloModule *m, Computation *c, const Instr *const *konst, int n,
                        Instr *keep, bool *changed) {
  if (c->nparams != 1) return NULL;
  Instr *param = c->params[0];
  Instr **clone = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  if (!clone) return cxla_oom();
  cxla_status st = NULL;
  int ninstrs = c->ninstrs;
  for (int i = 0; i <= ninstrs && !st; i++) {
    Instr *u = i < ninstrs ? c->instrs[i] : NULL;
    int nops = u ? u->noperands : 1;
    for (int s = 0; s < nops && !st; s++) {
      Instr *g = u ? u->operands[s] : c->root;
      if (!g || g->op != OP_GET_TUPLE_ELEMENT || g->operands[0] != param || g->index < 0 ||
          g->index >= n || !konst[g->index] || (u && u == keep && s == g->index) ||
          (!u && g == keep))
        continue;
      int64_t k = g->index;
      if (!clone[k] && !(clone[k] = instr_clone(c, konst[k], 0, NULL, NULL))) {
        st = cxla_oom();
        break;
      }
      if (u) u->operands[s] = clone[k];
      else c->root = clone[k];
      *changed = true;
    }
  }
  (void)m;
  cxla_free(clone);
  return st;
}

static cxla_status run(HloModule *m, const Computation **calls, size_t ncalls, bool *changed);

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
  return (x > y) - (x < y);
}

/* How many call sites name c (calls is the sorted list of all of them). */
static size_t callers(const Computation *c, const Computation **calls, size_t n) {
  const Computation **hit = bsearch(&c, calls, n, sizeof *calls, cmp_ptr);
  if (!hit) return 0;
  const Computation **lo = hit, **hi = hit;
  while (lo > calls && lo[-1] == c) lo--;
  while (hi + 1 < calls + n && hi[1] == c) hi++;
  return (size_t)(hi - lo) + 1;
}

cxla_status pass_while_loop_constant_sinking(HloModule *m, const PassContext *ctx,
                                             bool *changed) {
  (void)ctx;
  *changed = false;
  /* every call site, sorted: a body or condition shared by two loops (not
   * flattened yet) is left alone */
  size_t ncalls = 0;
  for (int ci = 0; ci < m->ncomps; ci++)
    for (int i = 0; i < m->comps[ci]->ninstrs; i++)
      ncalls += (size_t)m->comps[ci]->instrs[i]->ncalled;
  const Computation **calls = cxla_malloc((ncalls + 1) * sizeof *calls);
  if (!calls) return cxla_oom();
  size_t k0 = 0;
  for (int ci = 0; ci < m->ncomps; ci++)
    for (int i = 0; i < m->comps[ci]->ninstrs; i++)
      for (int j = 0; j < m->comps[ci]->instrs[i]->ncalled; j++)
        calls[k0++] = m->comps[ci]->instrs[i]->called[j];
  qsort(calls, ncalls, sizeof *calls, cmp_ptr);
  cxla_status err = run(m, calls, ncalls, changed);
  cxla_free(calls);
  return err;
}

static cxla_status run(HloModule *m, const Computation **calls, size_t ncalls, bool *changed) {
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    for (int i = 0; i < c->ninstrs; i++) {
      Instr *w = c->instrs[i];
      if (w->op != OP_WHILE || w->ncalled != 2 || w->noperands != 1) continue;
      Instr *init = w->operands[0];
      Computation *cond = w->called[0], *body = w->called[1];
      Instr *root = body->root;
      if (init->op != OP_TUPLE || !root || root->op != OP_TUPLE || body->nparams != 1 ||
          root->noperands != init->noperands || callers(body, calls, ncalls) != 1 ||
          callers(cond, calls, ncalls) != 1)
        continue;
      int n = init->noperands;
      const Instr **konst = cxla_calloc((size_t)n + 1, sizeof(Instr *));
      if (!konst) return cxla_oom();
      bool some = false;
      for (int k = 0; k < n; k++) {
        const Instr *kc = init->operands[k], *pass = root->operands[k];
        if (kc->op == OP_CONSTANT && pass->op == OP_GET_TUPLE_ELEMENT && pass->index == k &&
            pass->operands[0] == body->params[0]) {
          konst[k] = kc;
          some = true;
        }
      }
      bool any = false;
      cxla_status st = NULL;
      if (some) st = sink(m, body, konst, n, root, &any);
      if (some && !st) st = sink(m, cond, konst, n, NULL, &any);
      cxla_free(konst);
      TRY(st);
      if (any) {
        *changed = true;
        TRY(comp_sort(body));
        TRY(comp_sort(cond));
        comp_prune(body);
        comp_prune(cond);
      }
    }
  }
  return NULL;
}
