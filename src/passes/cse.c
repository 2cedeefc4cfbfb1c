/* Common subexpression elimination: within each computation, an
 * instruction identical to an earlier one (same opcode, operands, shape with
 * layout, typed and raw attributes, called computations; constants by
 * value) is replaced by that earlier one.
 *
 * Called computations are equal when they are the same computation or
 * structurally identical (JAX gives every reduce its own copy of the same
 * reducer); such duplicates, when only applied by reduce-like
 * instructions, are first merged into one computation. The comparisons
 * are ir.h's (identical.c): the raw attribute `metadata` is ignored, as
 * XLA's Identical() ignores it: it names the source line, not the value.
 *
 * Never merged: parameters, side-effecting instructions, rng, collectives
 * and async ops, anything producing or consuming tokens, instructions with
 * control predecessors, elided constants. */
#include <stdint.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

static bool instr_identical(const Instr *a, const Instr *b) {
  if (!instr_attrs_identical(a, b)) return false;
  for (int k = 0; k < a->noperands; k++)
    if (a->operands[k] != b->operands[k]) return false;
  return instr_called_identical(a, b);
}

static bool shape_has_token(const Shape *s) {
  if (s->type == T_TOKEN) return true;
  for (int i = 0; i < s->ntuple; i++)
    if (shape_has_token(s->tuple[i])) return true;
  return false;
}

static bool shape_has_token_at(const Computation *c, const Instr *x, const bool *tok) {
  bool listed = x->parent == c && x->id >= 0 && x->id < c->ninstrs && c->instrs[x->id] == x;
  return listed ? tok[x->id] : shape_has_token(x->shape);
}

/* tok[i]: whether c->instrs[i]'s shape holds a token, computed once per
 * instruction (a get-tuple-element of a while state of N elements
 * otherwise walks the state's shape: N of them walked it N times). */
static bool can_merge(const Computation *c, const Instr *in, const bool *tok) {
  if (in->op == OP_PARAMETER || in->op == OP_RNG || in->op == OP_OPT_BARRIER ||
      in->ncontrol_preds > 0 || pass_has_side_effect(in))
    return false;
  if (op_info(in->op)->flags & (OPF_COLL | OPF_ASYNC)) return false;
  if (in->literal && in->literal->unknown) return false;
  if (shape_has_token_at(c, in, tok)) return false;
  for (int k = 0; k < in->noperands; k++)
    if (shape_has_token_at(c, in->operands[k], tok)) return false;
  return true;
}

/* A hash consistent with instr_identical. */
static uint64_t instr_hash(const Instr *in) {
  uint64_t h = instr_attrs_hash(in);
  for (int k = 0; k < in->noperands; k++) h = ir_hash_mix(h, (uint64_t)(uintptr_t)in->operands[k]);
  return h;
}

/* Open-addressing set of the instructions kept so far. */
typedef struct Table {
  size_t cap;
  Instr **slot;
  uint64_t *hash;
} Table;

static Instr *table_find_or_add(Table *t, Instr *in, uint64_t h) {
  size_t mask = t->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    if (!t->slot[i]) {
      t->slot[i] = in;
      t->hash[i] = h;
      return in;
    }
    if (t->hash[i] == h && instr_identical(t->slot[i], in)) return t->slot[i];
  }
}

static cxla_status cse_computation(Computation *c, bool *changed) {
  bool merged = false;
  int n = c->ninstrs;
  Table t = {0};
  t.cap = 16;
  while (t.cap < (size_t)n * 2) t.cap *= 2;
  t.slot = cxla_calloc(t.cap, sizeof(Instr *));
  t.hash = cxla_calloc(t.cap, sizeof(uint64_t));
  Instr **canon = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  bool *tok = cxla_calloc((size_t)n + 1, sizeof(bool));
  if (!t.slot || !t.hash || !canon || !tok) {
    cxla_free(t.slot);
    cxla_free(t.hash);
    cxla_free(canon);
    cxla_free(tok);
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) tok[i] = shape_has_token(c->instrs[i]->shape);
  /* Post order: operands are canonical before their users are hashed. */
  for (int i = 0; i < n; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      Instr *op = in->operands[k];
      if (op->parent == c && canon[op->id] && canon[op->id] != op) {
        in->operands[k] = canon[op->id];
        merged = true;
      }
    }
    for (int k = 0; k < in->ncontrol_preds; k++) {
      Instr *p = in->control_preds[k];
      if (p->parent == c && canon[p->id]) in->control_preds[k] = canon[p->id];
    }
    canon[i] = can_merge(c, in, tok) ? table_find_or_add(&t, in, instr_hash(in)) : in;
  }
  if (c->root && canon[c->root->id] != c->root) {
    c->root = canon[c->root->id];
    merged = true;
  }
  cxla_free(t.slot);
  cxla_free(t.hash);
  cxla_free(canon);
  cxla_free(tok);
  /* Drop the merged duplicates (and whatever else is dead here). */
  if (merged) {
    *changed = true;
    comp_prune(c);
  }
  return NULL;
}

/* Opcodes that apply a computation inside themselves (a reducer, a
 * comparator): their callees may be shared, unlike those of call, while,
 * conditional (flattened: one call site each) and fusion (one fusion
 * instruction per fused computation). */
static bool applier(Opcode op) {
  switch (op) {
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SCATTER: case OP_SORT: case OP_MAP:
  case OP_SELECT_AND_SCATTER: case OP_ALL_REDUCE: case OP_REDUCE_SCATTER:
    return true;
  default:
    return false;
  }
}

/* Structurally identical applied computations (JAX emits one reducer per
 * reduce) become one: callers are redirected to the first, and the others
 * are dropped. Computation.scratch holds index + 1 while this runs; one
 * walk finds which computations are only applied, and a hash table of the
 * computations kept so far finds the first identical one. */
static cxla_status dedup_computations(HloModule *m, bool *changed) {
  int n = m->ncomps;
  Computation **to = cxla_calloc((size_t)n + 1, sizeof *to);
  bool *ok = cxla_calloc((size_t)n + 1, sizeof *ok);
  size_t cap = 16;
  while (cap < (size_t)n * 2) cap *= 2;
  int *slot = cxla_malloc(cap * sizeof(int));      /* first kept computation of a hash */
  int *chain = cxla_malloc(((size_t)n + 1) * sizeof(int)); /* next kept one, same slot */
  uint64_t *hash = cxla_malloc(((size_t)n + 1) * sizeof(uint64_t));
  if (!to || !ok || !slot || !chain || !hash) {
    cxla_free(to);
    cxla_free(ok);
    cxla_free(slot);
    cxla_free(chain);
    cxla_free(hash);
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) {
    m->comps[i]->scratch = (void *)(intptr_t)(i + 1);
    ok[i] = m->comps[i] != m->entry;
  }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (applier(in->op)) continue;
      for (int q = 0; q < in->ncalled; q++) {
        intptr_t j = (intptr_t)in->called[q]->scratch - 1;
        if (j >= 0 && j < n && m->comps[j] == in->called[q]) ok[j] = false;
      }
    }
  for (size_t i = 0; i < cap; i++) slot[i] = -1;
  bool any = false;
  for (int i = 0; i < n; i++) {
    if (!ok[i]) continue;
    hash[i] = comp_structure_hash(m->comps[i]);
    size_t mask = cap - 1, at = (size_t)hash[i] & mask;
    /* Open addressing over hash values; each slot chains the kept
     * computations with that hash in index order. */
    while (slot[at] >= 0 && hash[slot[at]] != hash[i]) at = (at + 1) & mask;
    int last = -1;
    for (int j = slot[at]; j >= 0 && !to[i]; last = j, j = chain[j])
      if (comp_identical(m->comps[i], m->comps[j])) to[i] = m->comps[j];
    if (to[i]) {
      any = true;
      continue;
    }
    chain[i] = -1;
    if (last < 0) slot[at] = i;
    else chain[last] = i;
  }
  if (any) {
    for (int i = 0; i < n; i++)
      for (int k = 0; k < m->comps[i]->ninstrs; k++) {
        Instr *in = m->comps[i]->instrs[k];
        for (int q = 0; q < in->ncalled; q++) {
          intptr_t j = (intptr_t)in->called[q]->scratch - 1;
          if (j >= 0 && j < n && m->comps[j] == in->called[q] && to[j]) in->called[q] = to[j];
        }
      }
  }
  for (int i = 0; i < n; i++) m->comps[i]->scratch = NULL;
  if (any) {
    module_prune_computations(m);
    *changed = true;
  }
  cxla_free(to);
  cxla_free(ok);
  cxla_free(slot);
  cxla_free(chain);
  cxla_free(hash);
  return NULL;
}

cxla_status pass_cse(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) comp_renumber(m->comps[i]);
  TRY(dedup_computations(m, changed));
  for (int i = 0; i < m->ncomps; i++) TRY(cse_computation(m->comps[i], changed));
  return NULL;
}
