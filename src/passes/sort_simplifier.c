/* sort-simplifier: a multi-operand sort drops the operands whose sorted
 * output nobody reads and whose comparator parameters are unused, as
 * XLA's SortSimplifier does (XLA:CPU runs it in its simplification loop).
 *
 * Conditions, XLA's: the sort's result is a tuple read only through
 * get-tuple-element; operand k is dropped when no get-tuple-element reads
 * index k and the comparator reads neither parameter 2k nor 2k + 1. The
 * comparator is cloned without those parameters (renumbered); a single
 * remaining operand gives an array-shaped sort whose users read it
 * directly. Exact: the permutation depends only on the comparator, which
 * reads only kept operands. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* A copy of comparator f keeping parameters 2k, 2k+1 for kept[k]. */
static Computation *trim_comparator(HloModule *m, const Computation *f, const bool *kept) {
  Computation *g = comp_clone(m, f, NULL);
  if (!g) return NULL;
  /* callees are listed before their callers: move it to the front */
  memmove(&m->comps[1], &m->comps[0], (size_t)(m->ncomps - 1) * sizeof(Computation *));
  m->comps[0] = g;
  int np = 0, n = 0;
  for (int i = 0; i < g->ninstrs; i++) {
    Instr *in = g->instrs[i];
    if (in->op == OP_PARAMETER && !kept[in->param_number / 2]) continue;
    g->instrs[n++] = in;
  }
  g->ninstrs = n;
  for (int i = 0; i < g->nparams; i++) {
    Instr *p = g->params[i];
    if (!kept[i / 2]) continue;
    p->param_number = np;
    g->params[np++] = p;
  }
  g->nparams = np;
  comp_renumber(g);
  return g;
}

static cxla_status simplify_sort(HloModule *m, Computation *c, Instr *sort, const Users *u,
                                 bool *changed) {
  int n = sort->noperands;
  if (sort->shape->type != T_TUPLE || n < 2 || n > 4096 || sort->ncalled != 1) return NULL;
  const Computation *f = sort->called[0];
  if (f->nparams != 2 * n) return NULL;
  bool *kept = cxla_calloc((size_t)n, sizeof(bool));
  bool *param_used = cxla_calloc((size_t)(2 * n), sizeof(bool));
  int *newidx = cxla_calloc((size_t)n, sizeof(int));
  cxla_status st = NULL;
  if (!kept || !param_used || !newidx) st = cxla_oom();
  bool ok = !st && c->root != sort;
  for (int k = 0; ok && k < u->count[sort->id]; k++) {
    const Instr *g = u->list[sort->id][k];
    if (g->op != OP_GET_TUPLE_ELEMENT || g->index < 0 || g->index >= n) ok = false;
    else kept[g->index] = true;
  }
  for (int i = 0; ok && i < f->ninstrs; i++)
    for (int k = 0; k < f->instrs[i]->noperands; k++) {
      const Instr *p = f->instrs[i]->operands[k];
      if (p->op == OP_PARAMETER && p->param_number >= 0 && p->param_number < 2 * n)
        param_used[p->param_number] = true;
    }
  if (ok && f->root && f->root->op == OP_PARAMETER) param_used[f->root->param_number] = true;
  int nk = 0;
  for (int k = 0; ok && k < n; k++) {
    kept[k] |= param_used[2 * k] || param_used[2 * k + 1];
    if (kept[k]) newidx[k] = nk++;
  }
  if (ok && nk > 0 && nk < n) {
    Computation *g = trim_comparator(m, f, kept);
    Instr **ops = cxla_calloc((size_t)nk, sizeof(Instr *));
    Shape **shapes = cxla_calloc((size_t)nk, sizeof(Shape *));
    if (!g || !ops || !shapes) st = cxla_oom();
    for (int k = 0, j = 0; !st && k < n; k++)
      if (kept[k]) {
        ops[j] = sort->operands[k];
        shapes[j++] = sort->shape->tuple[k];
      }
    Shape *sh = st ? NULL : nk == 1 ? shape_clone(&m->arena, shapes[0])
                                    : shape_new_tuple(&m->arena, nk, shapes);
    Instr *ns = sh ? instr_clone(c, sort, nk, ops, NULL) : NULL;
    if (!st && !ns) st = cxla_oom();
    if (!st) {
      ns->shape = sh;
      ns->called[0] = g;
      for (int k = 0; k < u->count[sort->id]; k++) {
        Instr *gte = u->list[sort->id][k];
        if (nk == 1) {
          comp_replace_uses(c, gte, ns);
        } else {
          gte->operands[0] = ns;
          gte->index = newidx[gte->index];
        }
      }
      *changed = true;
    }
    cxla_free(ops);
    cxla_free(shapes);
  }
  cxla_free(kept);
  cxla_free(param_used);
  cxla_free(newidx);
  return st;
}

cxla_status pass_sort_simplifier(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  /* new comparators go to the front of m->comps: walk a snapshot */
  int ncomps = m->ncomps;
  Computation **comps = cxla_malloc((size_t)ncomps * sizeof(Computation *) + 1);
  if (!comps) return cxla_oom();
  memcpy(comps, m->comps, (size_t)ncomps * sizeof(Computation *));
  cxla_status err = NULL;
  for (int ci = 0; ci < ncomps && !err; ci++) {
    Computation *c = comps[ci];
    bool has_sort = false;
    for (int i = 0; i < c->ninstrs && !has_sort; i++) has_sort = c->instrs[i]->op == OP_SORT;
    if (!has_sort) continue;
    comp_renumber(c);
    Users u;
    if ((err = users_build(c, &u))) break;
    bool any = false;
    cxla_status st = NULL;
    int n = c->ninstrs;
    for (int i = 0; i < n && !st; i++)
      if (c->instrs[i]->op == OP_SORT) st = simplify_sort(m, c, c->instrs[i], &u, &any);
    users_free(&u);
    if ((err = st)) break;
    if (any) {
      *changed = true;
      if ((err = comp_sort(c))) break;
      comp_prune(c);
    }
  }
  cxla_free(comps);
  TRY(err);
  if (*changed) module_prune_computations(m);
  return NULL;
}
