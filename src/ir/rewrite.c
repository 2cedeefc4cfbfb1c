/* IR mutations shared by the passes. See rewrite.h. */
#include "ir/rewrite.h"

#include <stdio.h>
#include <string.h>

int comp_replace_uses(Computation *c, const Instr *from, Instr *to) {
  int n = 0;
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    if (in == to) continue; /* never make `to` use itself */
    for (int k = 0; k < in->noperands; k++)
      if (in->operands[k] == from) {
        in->operands[k] = to;
        n++;
      }
    for (int k = 0; k < in->ncontrol_preds; k++)
      if (in->control_preds[k] == from) in->control_preds[k] = to;
  }
  if (c->root == from) c->root = to;
  return n;
}

cxla_status comp_index_names(const Computation *c, NameMap *out) {
  memset(out, 0, sizeof *out);
  bool dup;
  if (!namemap_reserve(out, (size_t)c->ninstrs)) return cxla_oom();
  for (int i = 0; i < c->ninstrs; i++)
    if (!namemap_put_first(out, c->instrs[i]->name, c->instrs[i], &dup)) {
      namemap_free(out);
      return cxla_oom();
    }
  return NULL;
}

/* Two passes over the operands: the counts, then the users into one
 * array, each instruction's run after the runs before it (one allocation
 * for all the lists, not one per instruction: at 10^5 instructions the
 * lists' mallocs and their scattered blocks made the build grow 44x for
 * 10x the instructions). */
cxla_status users_build(const Computation *c, Users *u) {
  memset(u, 0, sizeof *u);
  int n = c->ninstrs;
  int *last = NULL;
  u->n = n;
  u->count = cxla_calloc((size_t)n + 1, sizeof(int));
  u->list = cxla_calloc((size_t)n + 1, sizeof(Instr **));
  if (!u->count || !u->list) goto oom;
  /* last[id]: the latest user counted for instr id, so that a user that
   * reads an operand twice counts once (linear in the operands) */
  if (!(last = cxla_malloc(((size_t)n + 1) * sizeof(int)))) goto oom;
  for (int i = 0; i < n; i++) last[i] = -1;
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      const Instr *op = in->operands[k];
      if (op->id < 0 || op->id >= n || last[op->id] == i) continue;
      last[op->id] = i;
      u->count[op->id]++;
      total++;
    }
  }
  if (!(u->flat = cxla_malloc((total ? total : 1) * sizeof(Instr *)))) goto oom;
  size_t at = 0;
  for (int i = 0; i < n; i++) {
    u->list[i] = u->flat + at;
    at += (size_t)u->count[i];
    u->count[i] = 0;
    last[i] = -1;
  }
  for (int i = 0; i < n; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      const Instr *op = in->operands[k];
      if (op->id < 0 || op->id >= n || last[op->id] == i) continue;
      last[op->id] = i;
      u->list[op->id][u->count[op->id]++] = in;
    }
  }
  cxla_free(last);
  return NULL;
oom:
  cxla_free(last);
  users_free(u);
  return cxla_oom();
}

void users_free(Users *u) {
  cxla_free(u->flat);
  cxla_free(u->list);
  cxla_free(u->count);
  memset(u, 0, sizeof *u);
}

/* Depth-first post order from each instruction in existing order; `mark`:
 * 0 unvisited, 1 on the stack, 2 done. Iterative, so deep chains do not
 * overflow the C stack. */
cxla_status comp_sort(Computation *c) {
  int n = c->ninstrs;
  if (n == 0) return NULL;
  for (int i = 0; i < n; i++) c->instrs[i]->id = i;
  unsigned char *mark = cxla_calloc((size_t)n, 1);
  Instr **order = cxla_malloc((size_t)n * sizeof(Instr *));
  Instr **stack = cxla_malloc((size_t)n * sizeof(Instr *));
  int *next = cxla_malloc((size_t)n * sizeof(int));
  cxla_status st = NULL;
  if (!mark || !order || !stack || !next) {
    st = cxla_oom();
    goto done;
  }
  int norder = 0;
  for (int s = 0; s < n && !st; s++) {
    if (mark[s]) continue;
    int sp = 0;
    stack[sp++] = c->instrs[s];
    next[s] = 0;
    mark[s] = 1;
    while (sp > 0) {
      Instr *in = stack[sp - 1];
      int k = next[in->id];
      int ndeps = in->noperands + in->ncontrol_preds;
      if (k < ndeps) {
        next[in->id]++;
        Instr *d = k < in->noperands ? in->operands[k] : in->control_preds[k - in->noperands];
        if (d->parent != c || d->id < 0 || d->id >= n || c->instrs[d->id] != d) continue;
        if (mark[d->id] == 1) {
          st = ERR(INVALID_ARGUMENT, "computation %%%s: cycle through instruction %%%s",
                   c->name, d->name);
          break;
        }
        if (mark[d->id] == 0) {
          mark[d->id] = 1;
          next[d->id] = 0;
          stack[sp++] = d;
        }
      } else {
        mark[in->id] = 2;
        order[norder++] = in;
        sp--;
      }
    }
  }
  if (!st) {
    memcpy(c->instrs, order, (size_t)n * sizeof(Instr *));
    comp_renumber(c);
  }
done:
  cxla_free(mark);
  cxla_free(order);
  cxla_free(stack);
  cxla_free(next);
  return st;
}

static bool own_side_effect(const Instr *in) {
  if (op_info(in->op)->flags & OPF_SIDE) return true;
  return in->op == OP_CUSTOM_CALL && in->has_side_effect;
}

bool instr_has_side_effect(const Instr *in) {
  if (own_side_effect(in)) return true;
  for (int k = 0; k < in->ncalled && !in->retired; k++)
    if (in->called[k]->side_effects) return true;
  return false;
}

/* state[i] of computation i of m (its index + 1 is in scratch during the
 * walk): 0 not seen, 1 on the walk's path, 2 done. A computation on the
 * path again (a call cycle, which the verifier refuses), past the depth
 * bound, or not among m's counts as having side effects. */
static bool mark_side_effects(HloModule *m, Computation *c, unsigned char *state, int depth) {
  size_t i = (size_t)(uintptr_t)c->scratch - 1;
  if (i >= (size_t)m->ncomps || m->comps[i] != c) return true;
  if (state[i] == 2) return c->side_effects;
  if (state[i] == 1 || depth > 512) return true;
  state[i] = 1;
  bool any = false;
  for (int j = 0; j < c->ninstrs; j++) {
    const Instr *in = c->instrs[j];
    if (own_side_effect(in)) any = true;
    for (int k = 0; k < in->ncalled && !in->retired; k++)
      if (mark_side_effects(m, in->called[k], state, depth + 1)) any = true;
  }
  c->side_effects = any;
  state[i] = 2;
  return any;
}

cxla_status module_mark_side_effects(HloModule *m) {
  int n = m->ncomps;
  unsigned char *state = cxla_calloc((size_t)n + 1, 1);
  if (!state) {
    for (int i = 0; i < n; i++) m->comps[i]->side_effects = true;
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) m->comps[i]->scratch = (void *)(uintptr_t)(i + 1);
  for (int i = 0; i < n; i++) mark_side_effects(m, m->comps[i], state, 0);
  for (int i = 0; i < n; i++) m->comps[i]->scratch = NULL;
  cxla_free(state);
  return NULL;
}

void instr_retire(Instr *in) { in->retired = true; }

int comp_prune(Computation *c) {
  int n = c->ninstrs;
  if (n == 0 || !c->root) return 0;
  comp_renumber(c);
  /* Instructions are in post order, so one backward sweep marks all live
   * ones: a user is always after its operands. */
  unsigned char *live = cxla_calloc((size_t)n, 1);
  if (!live) return 0; /* out of memory: prune nothing, which is safe */
  live[c->root->id] = 1;
  for (int i = n - 1; i >= 0; i--) {
    Instr *in = c->instrs[i];
    if (in->op == OP_PARAMETER || instr_has_side_effect(in)) live[i] = 1;
    if (!live[i]) continue;
    for (int k = 0; k < in->noperands; k++)
      if (in->operands[k]->parent == c) live[in->operands[k]->id] = 1;
    for (int k = 0; k < in->ncontrol_preds; k++)
      if (in->control_preds[k]->parent == c) live[in->control_preds[k]->id] = 1;
  }
  int j = 0;
  for (int i = 0; i < n; i++)
    if (live[i]) c->instrs[j++] = c->instrs[i];
  c->ninstrs = j;
  comp_renumber(c);
  cxla_free(live);
  return n - j;
}

int module_prune_computations(HloModule *m) {
  /* What stays is what the entry reaches through called computations: a
   * depth-first walk from the entry marks it (Computation.scratch), then
   * one pass keeps the marked computations in order. */
  static const char kLive = 0; /* a sentinel address */
  int n = m->ncomps;
  for (int i = 0; i < n; i++) m->comps[i]->scratch = NULL;
  Computation **stack = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
  if (!stack) return 0; /* out of memory: remove nothing, which is safe */
  int sp = 0;
  if (m->entry) {
    m->entry->scratch = (void *)&kLive;
    stack[sp++] = m->entry;
  }
  while (sp > 0) {
    Computation *c = stack[--sp];
    for (int k = 0; k < c->ninstrs; k++)
      for (int q = 0; q < c->instrs[k]->ncalled; q++) {
        Computation *d = c->instrs[k]->called[q];
        if (d->scratch == (const void *)&kLive) continue;
        d->scratch = (void *)&kLive;
        if (sp < n) stack[sp++] = d;
      }
  }
  int j = 0;
  for (int i = 0; i < n; i++) {
    Computation *c = m->comps[i];
    if (c->scratch == (const void *)&kLive || c == m->entry) m->comps[j++] = c;
    c->scratch = NULL;
  }
  m->ncomps = j;
  cxla_free(stack);
  return n - j;
}

static I64List dup_list(Arena *a, I64List l, bool *ok) {
  I64List r = {l.n, NULL};
  if (l.n) {
    r.v = arena_i64dup(a, l.v, (size_t)l.n);
    if (!r.v) *ok = false;
  }
  return r;
}

void instr_copy_attrs(Instr *in, const Instr *src) {
  Instr keep = *in;
  *in = *src;
  in->name = keep.name;
  in->shape = keep.shape;
  in->noperands = keep.noperands;
  in->operands = keep.operands;
  in->parent = keep.parent;
  in->id = keep.id;
  in->scratch = NULL;
  in->ncontrol_preds = 0;
  in->control_preds = NULL;
}

/* Deep copies of the group of dimension numbers src's opcode holds (in
 * holds src's pointers); false when out of memory. */
static bool dup_dims(Arena *a, Instr *in, const Instr *src) {
  bool ok = true;
  switch (op_dims_kind(src->op)) {
  case DIMS_CONV:
    if (src->conv.nspatial) {
      size_t ns = (size_t)src->conv.nspatial;
      in->conv.in_spatial = arena_i64dup(a, src->conv.in_spatial, ns);
      in->conv.k_spatial = arena_i64dup(a, src->conv.k_spatial, ns);
      in->conv.out_spatial = arena_i64dup(a, src->conv.out_spatial, ns);
      ok = in->conv.in_spatial && in->conv.k_spatial && in->conv.out_spatial;
    }
    break;
  case DIMS_DOT:
    in->dot.lhs_batch = dup_list(a, src->dot.lhs_batch, &ok);
    in->dot.rhs_batch = dup_list(a, src->dot.rhs_batch, &ok);
    in->dot.lhs_contract = dup_list(a, src->dot.lhs_contract, &ok);
    in->dot.rhs_contract = dup_list(a, src->dot.rhs_contract, &ok);
    break;
  case DIMS_GATHER: {
    GatherDims *g = &in->gather;
    const GatherDims *sg = &src->gather;
    g->offset_dims = dup_list(a, sg->offset_dims, &ok);
    g->collapsed_slice_dims = dup_list(a, sg->collapsed_slice_dims, &ok);
    g->start_index_map = dup_list(a, sg->start_index_map, &ok);
    g->operand_batching_dims = dup_list(a, sg->operand_batching_dims, &ok);
    g->start_indices_batching_dims = dup_list(a, sg->start_indices_batching_dims, &ok);
    break;
  }
  case DIMS_SCATTER: {
    ScatterDims *d = &in->scatter;
    const ScatterDims *sd = &src->scatter;
    d->update_window_dims = dup_list(a, sd->update_window_dims, &ok);
    d->inserted_window_dims = dup_list(a, sd->inserted_window_dims, &ok);
    d->scatter_dims_to_operand_dims = dup_list(a, sd->scatter_dims_to_operand_dims, &ok);
    d->input_batching_dims = dup_list(a, sd->input_batching_dims, &ok);
    d->scatter_indices_batching_dims = dup_list(a, sd->scatter_indices_batching_dims, &ok);
    break;
  }
  case DIMS_NONE: break;
  }
  return ok;
}

Instr *instr_clone(Computation *dst, const Instr *src, int nops, Instr *const *ops,
                   const char *name) {
  HloModule *m = dst->module;
  Arena *a = &m->arena;
  Shape *shape = shape_clone(a, src->shape);
  if (!shape) return NULL;
  Instr *in = comp_add_instr(dst, src->op, shape, nops, ops, name);
  if (!in) return NULL;
  /* Copy every attribute field, then deep-copy what points to memory. */
  instr_copy_attrs(in, src);
  bool ok = true;
  if (src->ncalled) {
    in->called = arena_array(a, (size_t)src->ncalled, sizeof(Computation *));
    if (!in->called) return NULL;
    memcpy(in->called, src->called, (size_t)src->ncalled * sizeof(Computation *));
  }
  if (src->literal) {
    Literal *l;
    cxla_status st = literal_clone(src->literal, &l);
    if (st) {
      cxla_status_free(st);
      return NULL;
    }
    if (module_own_literal(m, l)) return NULL;
    in->literal = l;
  }
  in->dimensions = dup_list(a, src->dimensions, &ok);
  in->slice_sizes = dup_list(a, src->slice_sizes, &ok);
  in->fft_length = dup_list(a, src->fft_length, &ok);
  if (!dup_dims(a, in, src)) return NULL;
  int rank = src->noperands ? src->operands[0]->shape->rank : 0;
  if (src->slice && rank) {
    in->slice = arena_array(a, (size_t)rank, sizeof(SliceDim));
    if (!in->slice) return NULL;
    memcpy(in->slice, src->slice, (size_t)rank * sizeof(SliceDim));
  }
  if (src->padding && rank) {
    in->padding = arena_array(a, (size_t)rank, sizeof(PadDim));
    if (!in->padding) return NULL;
    memcpy(in->padding, src->padding, (size_t)rank * sizeof(PadDim));
  }
  if (src->nwindow) {
    in->window = arena_array(a, (size_t)src->nwindow, sizeof(WindowDim));
    if (!in->window) return NULL;
    memcpy(in->window, src->window, (size_t)src->nwindow * sizeof(WindowDim));
  }
  if (src->nraw) {
    in->raw = arena_array(a, (size_t)src->nraw, sizeof(RawAttr));
    if (!in->raw) return NULL;
    memcpy(in->raw, src->raw, (size_t)src->nraw * sizeof(RawAttr)); /* strings: arena, shared */
  }
  return ok ? in : NULL;
}

const char *module_unique_comp_name(HloModule *m, const char *base) {
  if (!m->comp_names_built) {
    if (!namemap_reserve(&m->comp_names, (size_t)m->ncomps)) return NULL;
    for (int i = 0; i < m->ncomps; i++)
      if (!namemap_set(&m->comp_names, m->comps[i]->name, (void *)m->comps[i]->name)) return NULL;
    m->comp_names_built = true;
  }
  size_t len = strlen(base);
  if (!namemap_get(&m->comp_names, base, len)) return arena_strdup(&m->arena, base);
  /* base.N for the first N past the last one base was given that no
   * computation has */
  intptr_t last = (intptr_t)namemap_get(&m->comp_suffix, base, len);
  const char *key = last ? NULL : arena_strdup(&m->arena, base);
  if (!last && !key) return NULL;
  char buf[256];
  for (intptr_t i = last + 1;; i++) {
    snprintf(buf, sizeof buf, "%.200s.%lld", base, (long long)i);
    if (namemap_get(&m->comp_names, buf, strlen(buf))) continue;
    if (key && !namemap_set(&m->comp_suffix, key, (void *)i)) return NULL;
    if (!key) namemap_set(&m->comp_suffix, base, (void *)i); /* present: cannot fail */
    return arena_strdup(&m->arena, buf);
  }
}

Computation *comp_clone(HloModule *m, const Computation *src, const char *name) {
  char base[256];
  if (!name) {
    snprintf(base, sizeof base, "%.240s.clone", src->name);
    name = base;
  }
  const char *uniq = module_unique_comp_name(m, name);
  if (!uniq) return NULL;
  Computation *c = module_add_computation(m, uniq);
  if (!c) return NULL;
  c->is_fusion = src->is_fusion;
  c->contract = src->contract;
  c->side_effects = src->side_effects;
  Instr **map = cxla_calloc((size_t)src->ninstrs + 1, sizeof(Instr *));
  Instr **ops = NULL;
  if (!map) return NULL;
  Computation *result = c;
  for (int i = 0; i < src->ninstrs; i++) {
    const Instr *s = src->instrs[i];
    cxla_free(ops);
    ops = cxla_malloc(((size_t)s->noperands + 1) * sizeof(Instr *));
    if (!ops) { result = NULL; break; }
    for (int k = 0; k < s->noperands; k++) ops[k] = map[s->operands[k]->id];
    Instr *in = instr_clone(c, s, s->noperands, ops, s->name);
    if (!in) { result = NULL; break; }
    map[i] = in;
  }
  if (result) {
    c->root = src->root ? map[src->root->id] : NULL;
    c->nparams = src->nparams;
    if (src->nparams) {
      c->params = arena_array(&m->arena, (size_t)src->nparams, sizeof(Instr *));
      if (!c->params) result = NULL;
      else
        for (int i = 0; i < src->nparams; i++)
          c->params[i] = src->params[i] ? map[src->params[i]->id] : NULL;
    }
  }
  cxla_free(ops);
  cxla_free(map);
  return result;
}

int module_instr_count(const HloModule *m) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++) n += m->comps[i]->ninstrs;
  return n;
}
