/* Helpers shared by the passes: the side-effect test, the forward rewrite
 * walk. See passes.h. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

bool pass_has_side_effect(const Instr *in) { return instr_has_side_effect(in); }

/* The replacement of op after this walk's earlier rewrites (new
 * instructions, id >= n, are never replaced). */
static Instr *resolve(Instr *op, const Computation *c, Instr **repl, int n) {
  if (op->parent == c && op->id >= 0 && op->id < n && repl[op->id]) return repl[op->id];
  return op;
}

/* Same shape and same layout, a missing layout counting as the default
 * (row-major) one it stands for: a rewrite may replace a value made
 * without a layout by an equal one that has the default layout. */
static bool same_layout(const Shape *a, const Shape *b) {
  if (!shape_equal(a, b, false)) return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!same_layout(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  for (int k = 0; k < a->rank; k++) {
    int64_t ma = a->has_layout && a->minor_to_major ? a->minor_to_major[k] : a->rank - 1 - k;
    int64_t mb = b->has_layout && b->minor_to_major ? b->minor_to_major[k] : b->rank - 1 - k;
    if (ma != mb) return false;
  }
  const char *ta = a->has_layout && a->layout_tail ? a->layout_tail : "";
  const char *tb = b->has_layout && b->layout_tail ? b->layout_tail : "";
  return strcmp(ta, tb) == 0;
}

cxla_status pass_rewrite_comp(Computation *c, RewriteFn fn, void *arg, bool *changed) {
  comp_renumber(c);
  int n = c->ninstrs;
  Instr **repl = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  if (!repl) return cxla_oom();
  bool any = false;
  int nrepl = 0; /* none yet: no operand to resolve (nor to read: at 10^5
                  * instructions each operand read is a cache miss) */
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; nrepl && k < in->noperands; k++) in->operands[k] = resolve(in->operands[k], c, repl, n);
    for (int k = 0; nrepl && k < in->ncontrol_preds; k++)
      in->control_preds[k] = resolve(in->control_preds[k], c, repl, n);
    Instr *out = NULL;
    s = fn(in, arg, &out);
    if (s || !out) continue;
    if (out == in) {
      any = true;
    } else if (same_layout(out->shape, in->shape)) {
      repl[i] = resolve(out, c, repl, n);
      nrepl++;
      any = true;
    }
  }
  if (c->root) c->root = resolve(c->root, c, repl, n);
  /* New instructions may use each other, appended in creation order, but
   * also be used by instructions placed before them. */
  for (int i = n; nrepl && i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) in->operands[k] = resolve(in->operands[k], c, repl, n);
  }
  cxla_free(repl);
  if (any) {
    *changed = true;
    if (!s) s = comp_sort(c);
    if (!s) comp_prune(c);
  }
  return s;
}
