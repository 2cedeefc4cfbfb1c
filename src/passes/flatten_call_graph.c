/* Call-graph flattening, as XLA's FlattenCallGraph: a computation called
 * from several call sites in a sequential context (call, while condition or
 * body, conditional branch) is cloned so that every such call site has its
 * own computation. Computations applied inside an instruction (reduce, sort,
 * scatter, map, fusion, ... `to_apply` / `calls`) may stay shared.
 *
 * Afterwards the module's computations are put back in "callees before
 * callers, entry last" order. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* Limits against pathological inputs (and recursion in unverified ones). */
enum { FLATTEN_MAX_DEPTH = 256, FLATTEN_MAX_COMPS = 1 << 16 };

typedef struct Flat {
  HloModule *m;
  const Computation **seen; /* visited computations */
  int nseen, capseen;
  bool changed;
} Flat;

static bool sequential(Opcode op) { return op == OP_CALL || op == OP_WHILE || op == OP_CONDITIONAL; }

static bool seen(const Flat *f, const Computation *c) {
  for (int i = 0; i < f->nseen; i++)
    if (f->seen[i] == c) return true;
  return false;
}

static cxla_status mark(Flat *f, const Computation *c) {
  if (f->nseen == f->capseen) {
    int nc = f->capseen ? f->capseen * 2 : 16;
    const Computation **p = cxla_realloc(f->seen, (size_t)nc * sizeof *p);
    if (!p) return cxla_oom();
    f->seen = p;
    f->capseen = nc;
  }
  f->seen[f->nseen++] = c;
  return NULL;
}

/* Visits c once: each sequential call site calling an already visited
 * computation gets a clone of it. */
static cxla_status visit(Flat *f, Computation *c, int depth) {
  if (depth > FLATTEN_MAX_DEPTH)
    return ERR(INVALID_ARGUMENT, "computation %%%s: calls nest too deeply", c->name);
  TRY(mark(f, c));
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->ncalled; k++) {
      Computation *callee = in->called[k];
      if (!callee) continue;
      if (seen(f, callee)) {
        if (!sequential(in->op)) continue; /* shared appliers are fine */
        if (f->m->ncomps >= FLATTEN_MAX_COMPS)
          return ERR(RESOURCE_EXHAUSTED, "flattening the call graph makes too many computations");
        Computation *copy = comp_clone(f->m, callee, NULL);
        if (!copy) return cxla_oom();
        in->called[k] = copy;
        f->changed = true;
        callee = copy;
      }
      TRY(visit(f, callee, depth + 1));
    }
  }
  return NULL;
}

/* Depth-first post order over the call graph: callees before callers.
 * at: each computation's index in m->comps. */
static void order_rec(const PtrIndex *at, Computation *c, Computation **out, int *n, bool *placed) {
  int idx = ptrindex_get(at, c);
  if (idx < 0 || placed[idx]) return;
  placed[idx] = true;
  for (int i = 0; i < c->ninstrs; i++)
    for (int k = 0; k < c->instrs[i]->ncalled; k++)
      if (c->instrs[i]->called[k]) order_rec(at, c->instrs[i]->called[k], out, n, placed);
  out[(*n)++] = c;
}

static cxla_status reorder(HloModule *m) {
  Computation **out = cxla_calloc((size_t)m->ncomps, sizeof *out);
  bool *placed = cxla_calloc((size_t)m->ncomps, sizeof *placed);
  PtrIndex at = {0};
  bool ok = out && placed;
  for (int i = 0; ok && i < m->ncomps; i++) ok = ptrindex_set(&at, m->comps[i], i);
  if (ok) {
    int n = 0;
    for (int i = 0; i < m->ncomps; i++)
      if (m->comps[i] != m->entry) order_rec(&at, m->comps[i], out, &n, placed);
    if (m->entry) order_rec(&at, m->entry, out, &n, placed);
    if (n == m->ncomps) memcpy(m->comps, out, (size_t)n * sizeof *out);
  }
  cxla_free(out);
  cxla_free(placed);
  ptrindex_free(&at);
  return ok ? NULL : cxla_oom();
}

cxla_status pass_flatten_call_graph(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  if (!m->entry) return NULL;
  for (int i = 0; i < m->ncomps; i++) comp_renumber(m->comps[i]); /* comp_clone maps by id */
  Flat f = {.m = m};
  cxla_status s = visit(&f, m->entry, 0);
  cxla_free(f.seen);
  TRY(s);
  if (f.changed) {
    *changed = true;
    TRY(reorder(m));
  }
  return NULL;
}
