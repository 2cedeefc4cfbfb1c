/* multi_output_fusion.c: sibling multi-output fusion (pass
 * "multi-output-fusion"), after XLA's MultiOutputFusion.
 *
 * Two siblings, A and B, that read the same operand X and iterate over the
 * same index space become one fusion whose root is a tuple of their results,
 * so that X is read once:
 *
 *   %fusion.4 = (f32[8], f32[8]) fusion(%x), kind=kInput, calls=%fused_computation.4
 *   %gte.1 = f32[8] get-tuple-element(%fusion.4), index=0   (was A)
 *   %gte.2 = f32[8] get-tuple-element(%fusion.4), index=1   (was B)
 *
 * Candidates: loop and input fusions (each the only caller of its fused
 * computation; multi-output ones too, when every user is a
 * get-tuple-element) and plain single-output reduces. Index space: a reduce
 * (root, or every tuple element of the root) iterates over its input's
 * dims, anything else over its result's. Two candidates merge when their
 * index spaces agree, neither reaches the other (merging would make a
 * cycle), neither takes part in control dependencies, and the merged
 * computation stays within the fusion size limits. Output fusions (dot,
 * convolution) and custom fusions are never merged.
 *
 * When no siblings merge, a loop fusion is merged into the reduce that
 * consumes it while other users read it too (producer-consumer
 * multi-output fusion, see merge_producer_consumer): softmax's exp is
 * computed in its row-sum kernel, which writes both. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/fusion_util.h"
#include "passes/passes.h"

static bool same_space(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

/* The dims a candidate iterates over, or NULL if it is not a candidate. */
static const Shape *index_space(const Instr *in) {
  const Instr *root = in;
  if (in->op == OP_FUSION) {
    if (in->ncalled != 1 || !(in->attrs & A_FUSION_KIND)) return NULL;
    if (in->fusion_kind != FUSION_LOOP && in->fusion_kind != FUSION_INPUT) return NULL;
    const Computation *fc = in->called[0];
    if (fusion_kind_of(fc) == FUSION_OUTPUT || !fc->root) return NULL;
    root = fc->root;
  } else if (in->op != OP_REDUCE || !fusion_is_loop_fusible(in)) {
    return NULL;
  }
  if (root->op == OP_TUPLE) {
    const Shape *first = NULL;
    for (int i = 0; i < root->noperands; i++) {
      const Instr *e = root->operands[i];
      if (!type_is_array(e->shape->type)) return NULL;
      const Shape *s = e->op == OP_REDUCE ? e->operands[0]->shape : e->shape;
      if (!type_is_array(s->type)) return NULL;
      if (!first) first = s;
      else if (!same_space(first, s)) return NULL;
    }
    return first;
  }
  /* A variadic reduce (a tuple that is not a tuple instruction) is never
   * merged: its results are not separate elements of a root tuple. */
  if (!type_is_array(root->shape->type)) return NULL;
  const Shape *s = root->op == OP_REDUCE ? root->operands[0]->shape : root->shape;
  return type_is_array(s->type) ? s : NULL;
}

/* The results a candidate contributes (1, or its root tuple's arity). */
static int noutputs(const Instr *in) {
  if (in->op == OP_FUSION && in->called[0]->root->op == OP_TUPLE)
    return in->called[0]->root->noperands;
  return 1;
}

/* Whether in is a usable candidate in c: multi-output fusions only when
 * every user picks an element. */
static bool candidate(const FusionCtx *x, const unsigned char *ctrl, const Computation *c,
                      const Instr *in) {
  if (!index_space(in) || ctrl[in->id]) return false;
  if (in->op == OP_FUSION && fusion_ctx_callers(x, in->called[0]) != 1) return false;
  if (in->op == OP_FUSION && in->called[0]->root->op == OP_TUPLE) {
    if (c->root == in) return false;
    for (int i = 0; i < c->ninstrs; i++)
      for (int k = 0; k < c->instrs[i]->noperands; k++)
        if (c->instrs[i]->operands[k] == in && c->instrs[i]->op != OP_GET_TUPLE_ELEMENT)
          return false;
  }
  return true;
}

/* Whether `to` depends on `from` (a path of operands from `to` back to
 * `from`). Instructions are in post order, so one backward sweep from `to`
 * suffices. */
static cxla_status reaches(const Computation *c, const Instr *from, const Instr *to, bool *out) {
  *out = false;
  if (from->id >= to->id) return NULL;
  unsigned char *mark = cxla_calloc((size_t)c->ninstrs + 1, 1);
  if (!mark) return cxla_oom();
  mark[to->id] = 1;
  for (int i = to->id; i > from->id && !*out; i--) {
    if (!mark[i]) continue;
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      const Instr *o = in->operands[k];
      if (o == from) *out = true;
      mark[o->id] = 1;
    }
    for (int k = 0; k < in->ncontrol_preds; k++) mark[in->control_preds[k]->id] = 1;
  }
  cxla_free(mark);
  return NULL;
}

/* Sizes the merged computation would have. */
static void merged_size(const Instr *a, const Instr *b, int *instrs, int *params) {
  *instrs = 1; /* the root tuple */
  const Instr *m[2] = {a, b};
  for (int i = 0; i < 2; i++)
    *instrs += m[i]->op == OP_FUSION ? fusion_size(m[i]->called[0]) : 1;
  *params = a->noperands;
  for (int k = 0; k < b->noperands; k++) *params += fusion_operand_index(a, b->operands[k]) < 0;
}

typedef struct Merge {
  HloModule *m;
  FusionCtx *x;
  Computation *c, *mc;
  Instr **ops;     /* the merged fusion's operands */
  int nops;
  Instr **outs;    /* the merged computation's results, in order */
  int nouts;
  Instr *prod;       /* producer-consumer merge: the producer, whose uses */
  Instr *prod_value; /* by the consumer read this value of mc instead */
} Merge;

/* The parameter of mc standing for outer operand x (added if new); a
 * scalar constant is copied in instead. */
static Instr *param_for(Merge *g, Instr *x) {
  if (g->prod && x == g->prod) return g->prod_value;
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i] == x) return g->mc->params[i];
  if (x->op == OP_CONSTANT && shape_elems(x->shape) == 1 && type_is_array(x->shape->type)) {
    for (int i = 0; i < g->mc->ninstrs; i++)
      if (g->mc->instrs[i]->scratch == x) return g->mc->instrs[i];
    const char *name = fusion_unique_name(g->mc, x->name);
    Instr *k = name ? instr_clone(g->mc, x, 0, NULL, name) : NULL;
    if (k) k->scratch = x;
    return k;
  }
  Instr *p = fusion_add_param(g->mc, x->shape);
  if (p) g->ops[g->nops++] = x;
  return p;
}

/* Copies candidate `in` into mc and appends its results to g->outs. */
static cxla_status absorb(Merge *g, Instr *in) {
  Arena *a = &g->m->arena;
  if (in->op != OP_FUSION) {
    Instr **ops = arena_array(a, (size_t)in->noperands, sizeof(Instr *));
    if (!ops) return cxla_oom();
    for (int k = 0; k < in->noperands; k++)
      if (!(ops[k] = param_for(g, in->operands[k]))) return cxla_oom();
    const char *name = fusion_unique_name(g->mc, in->name);
    Instr *cl = name ? instr_clone(g->mc, in, in->noperands, ops, name) : NULL;
    if (!cl) return cxla_oom();
    g->outs[g->nouts++] = cl;
    return NULL;
  }
  const Computation *fc = in->called[0];
  Instr **map = arena_array(a, (size_t)fc->ninstrs, sizeof(Instr *));
  if (!map) return cxla_oom();
  for (int i = 0; i < fc->ninstrs; i++) {
    Instr *s = fc->instrs[i];
    if (s->op == OP_PARAMETER) {
      if (!(map[i] = param_for(g, in->operands[s->param_number]))) return cxla_oom();
      continue;
    }
    Instr **ops = arena_array(a, (size_t)s->noperands + 1, sizeof(Instr *));
    if (!ops) return cxla_oom();
    for (int k = 0; k < s->noperands; k++) ops[k] = map[s->operands[k]->id];
    if (s == fc->root && s->op == OP_TUPLE) {
      for (int k = 0; k < s->noperands; k++) g->outs[g->nouts++] = ops[k];
      map[i] = NULL;
      continue;
    }
    const char *name = fusion_unique_name(g->mc, s->name);
    if (!name || !(map[i] = instr_clone(g->mc, s, s->noperands, ops, name))) return cxla_oom();
  }
  if (fc->root->op != OP_TUPLE) g->outs[g->nouts++] = map[fc->root->id];
  return NULL;
}

/* Points the users of candidate `in` at the merged fusion f, whose results
 * from `first` on are in's. */
static cxla_status redirect(Merge *g, Instr *in, Instr *f, int first) {
  Computation *c = g->c;
  if (in->op == OP_FUSION && in->called[0]->root->op == OP_TUPLE) {
    for (int i = 0; i < c->ninstrs; i++) {
      Instr *u = c->instrs[i];
      if (u->op == OP_GET_TUPLE_ELEMENT && u->operands[0] == in) {
        u->operands[0] = f;
        u->index += first;
      }
    }
    return NULL;
  }
  Shape *s = shape_clone(&g->m->arena, in->shape);
  char base[128];
  snprintf(base, sizeof base, "get-tuple-element.%.100s", in->name);
  const char *name = fusion_unique_name(c, base);
  Instr *gte = s && name ? comp_add_instr(c, OP_GET_TUPLE_ELEMENT, s, 1, &f, name) : NULL;
  if (!gte) return cxla_oom();
  gte->attrs = A_INDEX;
  gte->index = first;
  comp_replace_uses(c, in, gte);
  return NULL;
}

/* Scalar constants that only the merged candidate read were copied into
 * the fused computation: drop the originals that nothing uses now. */
static void drop_unused_constants(Computation *c, const Instr *gone) {
  for (int k = 0; k < gone->noperands; k++) {
    Instr *x = gone->operands[k];
    if (x->op != OP_CONSTANT || x == c->root || x->ncontrol_preds) continue;
    bool ctrl = false;
    for (int i = 0; i < c->ninstrs && !ctrl; i++)
      for (int q = 0; q < c->instrs[i]->ncontrol_preds; q++)
        ctrl |= c->instrs[i]->control_preds[q] == x;
    if (ctrl) continue;
    bool used = false;
    for (int i = 0; i < c->ninstrs && !used; i++)
      for (int q = 0; q < c->instrs[i]->noperands && !used; q++)
        used = c->instrs[i]->operands[q] == x;
    if (!used && comp_find_instr(c, x->name) == x) fusion_drop_instr(c, x);
  }
}

/* Replaces candidates a and b of c by one multi-output fusion. */
static cxla_status merge(FusionCtx *x, Computation *c, Instr *a, Instr *b, bool producer) {
  HloModule *m = x->m;
  Arena *ar = &m->arena;
  NameMap names;
  TRY(comp_index_names(c, &names));
  int tag = fusion_fresh_tag(x, &names, 1);
  namemap_free(&names);
  char fname[64], cname[64], tagstr[32];
  snprintf(fname, sizeof fname, "fusion.%d", tag);
  snprintf(cname, sizeof cname, "fused_computation.%d", tag);
  snprintf(tagstr, sizeof tagstr, "%d", tag);
  Merge g = {m, x, c, NULL, NULL, 0, NULL, 0, NULL, NULL};
  g.mc = fusion_ctx_new_computation(x, c, cname);
  g.ops = arena_array(ar, (size_t)(a->noperands + b->noperands) + 1, sizeof(Instr *));
  g.outs = arena_array(ar, (size_t)(noutputs(a) + noutputs(b)), sizeof(Instr *));
  if (!g.mc || !g.ops || !g.outs) return cxla_oom();
  TRY(absorb(&g, a));
  int second = g.nouts;
  if (producer) {
    g.prod = a;
    g.prod_value = g.outs[0];
  }
  TRY(absorb(&g, b));
  Shape **elems = arena_array(ar, (size_t)g.nouts, sizeof(Shape *));
  if (!elems) return cxla_oom();
  for (int i = 0; i < g.nouts; i++) elems[i] = g.outs[i]->shape;
  Shape *ts = shape_new_tuple(ar, g.nouts, elems);
  const char *tname = fusion_unique_name(g.mc, "tuple");
  Instr *root = ts && tname ? comp_add_instr(g.mc, OP_TUPLE, ts, g.nouts, g.outs, tname) : NULL;
  if (!root) return cxla_oom();
  g.mc->root = root;
  for (int i = 0; i < g.mc->ninstrs; i++) g.mc->instrs[i]->scratch = NULL;
  TRY(fusion_finish(g.mc, tagstr));
  Shape *fs = shape_clone(ar, ts);
  Computation **called = arena_array(ar, 1, sizeof(Computation *));
  Instr *f = fs && called ? comp_add_instr(c, OP_FUSION, fs, g.nops, g.ops, fname) : NULL;
  if (!f) return cxla_oom();
  called[0] = g.mc;
  f->ncalled = 1;
  f->called = called;
  f->attrs = A_FUSION_KIND;
  f->fusion_kind = fusion_kind_of(g.mc);
  const char *meta = instr_raw(a, "metadata");
  if (meta) TRY(instr_add_raw(m, f, "metadata", meta));
  TRY(redirect(&g, a, f, 0));
  TRY(redirect(&g, b, f, second));
  fusion_drop_instr(c, a);
  fusion_drop_instr(c, b);
  drop_unused_constants(c, a);
  drop_unused_constants(c, b);
  if (a->op == OP_FUSION) fusion_ctx_remove_computation(x, a->called[0]);
  if (b->op == OP_FUSION) fusion_ctx_remove_computation(x, b->called[0]);
  return comp_sort(c);
}

/* Finds one pair of siblings in c to merge and merges it. */
/* A single-output reduce, or an input fusion whose root is one: a
 * consumer that reads all of its input's elements once. */
static bool reduce_rooted(const Instr *in) {
  const Instr *root = in;
  if (in->op == OP_FUSION) {
    if (in->fusion_kind != FUSION_INPUT || !in->called[0]->root) return false;
    root = in->called[0]->root;
  }
  return root->op == OP_REDUCE && root->noperands == 2 && type_is_array(root->shape->type);
}

/* A loop fusion with one array result. */
static bool loop_producer(const Instr *in) {
  return in->op == OP_FUSION && in->fusion_kind == FUSION_LOOP && in->called[0]->root &&
         in->called[0]->root->op != OP_TUPLE && type_is_array(in->shape->type);
}

/* Producer-consumer multi-output fusion (XLA:GPU's, for what XLA:CPU
 * leaves apart): a loop fusion P that instruction fusion could not put
 * into its reduce consumer R (P has other users, and is expensive) is
 * computed in R's kernel, which also writes P's value for the other users:
 *
 *   %fusion.5 = (f32[64,64], f32[64]) fusion(%x, %m), calls=...  (exp, its row sums)
 *
 * P's elements are read back by R once instead of written and read again.
 * Conditions: P and R are candidates with one index space (R's input
 * dims), P is not the root, and nothing else R reads depends on P (the
 * merged fusion would need its own result). Merges one pair. */
static cxla_status merge_producer_consumer(FusionCtx *fx, Computation *c,
                                           const unsigned char *ctrl, const Users *u,
                                           bool *merged) {
  cxla_status s = NULL;
  for (int r = 0; r < c->ninstrs && !*merged && !s; r++) {
    Instr *R = c->instrs[r];
    if (!reduce_rooted(R) || !candidate(fx, ctrl, c, R)) continue;
    for (int k = 0; k < R->noperands && !*merged && !s; k++) {
      Instr *P = R->operands[k];
      if (P->parent != c || c->instrs[P->id] != P || !loop_producer(P) || c->root == P) continue;
      if (u->count[P->id] < 2 || !candidate(fx, ctrl, c, P)) continue;
      if (!same_space(P->shape, index_space(R))) continue;
      int ni, np;
      merged_size(P, R, &ni, &np);
      if (ni > FUSION_MAX_INSTRS || np > FUSION_MAX_PARAMS) continue;
      bool cycle = false;
      for (int q = 0; q < R->noperands && !cycle && !s; q++)
        if (R->operands[q] != P) s = reaches(c, P, R->operands[q], &cycle);
      if (s || cycle) continue;
      s = merge(fx, c, P, R, true);
      *merged = !s;
    }
  }
  return s;
}

static cxla_status merge_one(FusionCtx *fx, Computation *c, bool *merged) {
  *merged = false;
  Users u;
  unsigned char *ctrl;
  TRY(fusion_control_flags(c, &ctrl));
  cxla_status s = users_build(c, &u);
  if (s) {
    cxla_free(ctrl);
    return s;
  }
  for (int x = 0; x < c->ninstrs && !*merged && !s; x++) {
    const Instr *shared = c->instrs[x];
    /* Sharing a scalar or a constant saves nothing worth a merge. */
    if (shared->op == OP_CONSTANT || !type_is_array(shared->shape->type) ||
        shape_elems(shared->shape) <= 1)
      continue;
    for (int i = 0; i < u.count[x] && !*merged && !s; i++) {
      Instr *a = u.list[x][i];
      if (!candidate(fx, ctrl, c, a)) continue;
      for (int j = i + 1; j < u.count[x] && !*merged && !s; j++) {
        Instr *b = u.list[x][j];
        if (!candidate(fx, ctrl, c, b) || !same_space(index_space(a), index_space(b))) continue;
        int ni, np;
        merged_size(a, b, &ni, &np);
        if (ni > FUSION_MAX_INSTRS || np > FUSION_MAX_PARAMS) continue;
        bool ab, ba;
        if ((s = reaches(c, a, b, &ab)) || (s = reaches(c, b, a, &ba))) break;
        if (ab || ba) continue;
        /* Keep the earlier one first so that tuple element order follows
         * the program order. */
        if (a->id > b->id) {
          Instr *t = a;
          a = b;
          b = t;
        }
        s = merge(fx, c, a, b, false);
        *merged = !s;
      }
    }
  }
  if (!*merged && !s) s = merge_producer_consumer(fx, c, ctrl, &u, merged);
  users_free(&u);
  cxla_free(ctrl);
  return s;
}

cxla_status pass_multi_output_fusion(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  FusionCtx x;
  TRY(fusion_ctx_init(&x, m));
  int n = m->ncomps;
  Computation **comps = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
  if (!comps) {
    fusion_ctx_free(&x);
    return cxla_oom();
  }
  memcpy(comps, m->comps, (size_t)n * sizeof(Computation *));
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    if (!fusion_ctx_is_context(&x, comps[i])) continue;
    s = comp_sort(comps[i]);
    /* Each merge removes one instruction, so this ends. */
    for (bool merged = true; merged && !s;) {
      s = merge_one(&x, comps[i], &merged);
      *changed |= merged;
    }
  }
  cxla_free(comps);
  if (s) {
    fusion_ctx_free(&x);
    return s;
  }
  return fusion_ctx_finish(&x);
}
