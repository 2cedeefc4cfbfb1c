/* Call inlining: every `call` instruction is replaced by a copy of its
 * callee's instructions in the caller (parameters become the call's
 * operands, users of the call use the copy of the callee's root). Calls
 * nested in the callee are copied along and inlined in turn. Callees no
 * longer called are dropped.
 *
 * Control dependencies stay sane: edges inside the callee are copied; the
 * call's own control predecessors become predecessors of every copied
 * instruction; instructions that had the call as a control predecessor get
 * the copied root instead.
 *
 * Cost: linear in the caller plus the copies. The uses of every inlined
 * call are redirected in one sweep per caller at the end (an inlined call's
 * Instr.scratch points at its replacement, which may itself be a call
 * inlined later); the caller's names are indexed once. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* Refuse to grow one computation past this many instructions by inlining
 * (only a malformed, recursive module gets there). */
enum { INLINE_MAX_INSTRS = 1 << 22 };

/* in->control_preds := the callee-side edges mapped, plus the call's own. */
static cxla_status copy_control(HloModule *m, Instr *in, const Instr *src, Instr **map,
                                const Instr *call) {
  int n = src->ncontrol_preds + call->ncontrol_preds;
  if (n == 0) return NULL;
  Instr **preds = arena_array(&m->arena, (size_t)n, sizeof(Instr *));
  if (!preds) return cxla_oom();
  int k = 0;
  for (int i = 0; i < src->ncontrol_preds; i++) {
    Instr *p = map[src->control_preds[i]->id];
    if (p && p->op != OP_PARAMETER) preds[k++] = p;
  }
  for (int i = 0; i < call->ncontrol_preds; i++) preds[k++] = call->control_preds[i];
  in->control_preds = preds;
  in->ncontrol_preds = k;
  return NULL;
}

static cxla_status inline_call(Computation *c, NameMap *names, Instr *call) {
  HloModule *m = c->module;
  const Computation *f = call->called[0];
  if (f->nparams != call->noperands)
    return ERR(INVALID_ARGUMENT, "call %%%s passes %d operands to %%%s, which takes %d",
               call->name, call->noperands, f->name, f->nparams);
  if (c->ninstrs + f->ninstrs > INLINE_MAX_INSTRS)
    return ERR(RESOURCE_EXHAUSTED, "inlining %%%s into %%%s makes it too large", f->name, c->name);
  Instr **map = cxla_calloc((size_t)f->ninstrs + 1, sizeof(Instr *));
  Instr **ops = NULL;
  if (!map) return cxla_oom();
  cxla_status s = NULL;
  for (int i = 0; i < f->ninstrs && !s; i++) {
    const Instr *src = f->instrs[i];
    if (src->op == OP_PARAMETER) {
      if (src->param_number < 0 || src->param_number >= call->noperands)
        s = ERR(INVALID_ARGUMENT, "computation %%%s: bad parameter number", f->name);
      else
        map[i] = call->operands[src->param_number];
      continue;
    }
    cxla_free(ops);
    ops = cxla_malloc(((size_t)src->noperands + 1) * sizeof(Instr *));
    if (!ops) {
      s = cxla_oom();
      break;
    }
    for (int k = 0; k < src->noperands; k++) ops[k] = map[src->operands[k]->id];
    /* Keep the callee's names where the caller does not use them. */
    const char *name = namemap_get(names, src->name, strlen(src->name)) ? NULL : src->name;
    Instr *in = instr_clone(c, src, src->noperands, ops, name);
    if (!in || !namemap_set(names, in->name, in)) s = cxla_oom();
    else s = copy_control(m, in, src, map, call);
    map[i] = in;
  }
  if (!s) {
    Instr *root = f->root ? map[f->root->id] : NULL;
    if (!root) s = ERR(INVALID_ARGUMENT, "computation %%%s has no root", f->name);
    else call->scratch = root;
  }
  cxla_free(ops);
  cxla_free(map);
  return s;
}

cxla_status pass_inline_call(Computation *c, Instr *call) {
  NameMap names;
  TRY(comp_index_names(c, &names));
  call->scratch = NULL;
  cxla_status s = inline_call(c, &names, call);
  namemap_free(&names);
  if (!s && call->scratch) {
    comp_replace_uses(c, call, call->scratch);
    instr_retire(call); /* its copy has the callee's side effects now */
  }
  call->scratch = NULL;
  return s;
}

/* What x stands for once every inlined call is replaced by its root. */
static Instr *resolve(Instr *x) {
  while (x && x->op == OP_CALL && x->scratch) x = x->scratch;
  return x;
}

/* Redirects every use of an inlined call in c (operands, control
 * predecessors, the root) to its replacement. */
static void redirect_uses(Computation *c) {
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) in->operands[k] = resolve(in->operands[k]);
    for (int k = 0; k < in->ncontrol_preds; k++)
      in->control_preds[k] = resolve(in->control_preds[k]);
  }
  c->root = resolve(c->root);
}

static cxla_status inline_computation(Computation *c, bool *any) {
  NameMap names = {0};
  cxla_status s = NULL;
  /* Copies are appended, so calls copied from callees are met too. */
  for (int i = 0; i < c->ninstrs && !s; i++) {
    Instr *in = c->instrs[i];
    if (in->op != OP_CALL || in->ncalled != 1 || !in->called[0]) continue;
    if (!*any) {
      for (int k = 0; k < c->ninstrs; k++) c->instrs[k]->scratch = NULL;
      s = comp_index_names(c, &names);
      if (s) break;
    }
    *any = true;
    s = inline_call(c, &names, in);
  }
  namemap_free(&names);
  if (*any) {
    redirect_uses(c);
    for (int k = 0; k < c->ninstrs; k++) {
      Instr *in = c->instrs[k];
      if (in->op == OP_CALL && in->scratch) instr_retire(in); /* inlined: its copy has its effects */
      in->scratch = NULL;
    }
  }
  return s;
}

cxla_status pass_call_inliner(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int ci = 0; ci < m->ncomps; ci++) comp_renumber(m->comps[ci]);
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    bool any = false;
    TRY(inline_computation(c, &any));
    if (!any) continue;
    *changed = true;
    TRY(comp_sort(c));
    comp_prune(c);
  }
  if (*changed) module_prune_computations(m);
  return NULL;
}
