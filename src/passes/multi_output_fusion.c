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
 * A loop fusion is also merged into the reduce that consumes it while
 * other users read it too (producer-consumer multi-output fusion, see
 * merge_producer_consumer), in index spaces below MOF_SPLIT_SPACE: exp
 * is computed in its row-sum kernel, which writes both.
 *
 * Row merges come first (merge_rows): a row reduction read back along its
 * rows by its only user, a fusion, goes into it, and so does a producer
 * of the user's dims that only it reads once it is a row kernel: softmax
 * and layer norm become one kernel each (see comp_row_reductions). */
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

/* The dims a candidate iterates over, or NULL if it is not a candidate.
 * made: a fusion this pass made (its kind attribute is its contents'; a
 * fusion of the input is checked, in a scan of its computation). */
static const Shape *index_space(const Instr *in, bool made) {
  const Instr *root = in;
  if (in->op == OP_FUSION) {
    if (in->ncalled != 1 || !(in->attrs & A_FUSION_KIND)) return NULL;
    if (in->fusion_kind != FUSION_LOOP && in->fusion_kind != FUSION_INPUT) return NULL;
    const Computation *fc = in->called[0];
    if (!fc->root || (!made && fusion_kind_of(fc) == FUSION_OUTPUT)) return NULL;
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

/* A candidate's reduce (its root, or the first reduce of its root
 * tuple); NULL when it has none. */
static const Instr *first_reduce(const Instr *in) {
  const Instr *root = in->op == OP_FUSION ? in->called[0]->root : in;
  if (root && root->op == OP_TUPLE) {
    for (int i = 0; i < root->noperands; i++)
      if (root->operands[i]->op == OP_REDUCE) return root->operands[i];
    return NULL;
  }
  return root && root->op == OP_REDUCE ? root : NULL;
}

/* Index spaces from which on siblings must agree on their reduces
 * (reduces_agree), and from which a loop fusion does not go into its
 * reduce consumer (merge_producer_consumer): 64 KiB of f32. A kernel of
 * outputs of different dims computes them on one thread, one after
 * another (cg.c), each reduce reading its input with a stride; past
 * this size that costs more than the second read of the shared input
 * that two kernels make. transformer_fwd_bwd's bias gradients (a 256 x
 * 512 space: a row sum beside two column sums, and a value beside its
 * column sum) took 0.35 and 0.27 ms on one thread, 0.1 ms as four
 * kernels (a limit of 1M elements before). */
#define MOF_SPLIT_SPACE ((int64_t)1 << 14)

/* Whether siblings a and b, of one index space `space`, may share a
 * kernel as far as their reduces go: in a large space, both without
 * reduces or both with reduces over the same dims to the same result
 * dims. Reduces over different dims (a column reduction's per-channel
 * sums next to a reduce-splitter's per-row partials), or a reduce next to
 * a value of its input's dims, have no common loop order: their kernel computes each
 * output separately, on one thread (cg.c: outputs of different dims). */
static bool reduces_agree(const Instr *a, const Instr *b, const Shape *space) {
  if (shape_elems(space) < MOF_SPLIT_SPACE) return true;
  const Instr *ra = first_reduce(a), *rb = first_reduce(b);
  if (!ra || !rb) return !ra && !rb;
  if (!same_space(ra->shape, rb->shape) || ra->dimensions.n != rb->dimensions.n) return false;
  for (int i = 0; i < ra->dimensions.n; i++)
    if (ra->dimensions.v[i] != rb->dimensions.v[i]) return false;
  return true;
}

/* The results a candidate contributes (1, or its root tuple's arity). */
static int noutputs(const Instr *in) {
  if (in->op == OP_FUSION && in->called[0]->root->op == OP_TUPLE)
    return in->called[0]->root->noperands;
  return 1;
}

/* One sweep over a computation: merges are made as pairs are found, and
 * the computation is put back in post order when the sweep ends (then the
 * next sweep starts, until one merges nothing). Instructions that exist
 * when the sweep starts ("old", ids below n) keep their position meanwhile.
 * An old instruction is gone once merged (or dropped), touched once its
 * operands changed (a merged candidate's users); new instructions (merged
 * fusions, get-tuple-elements) count as touched. Touched instructions are
 * not merged again in the same sweep, and a dependence question whose
 * answer could run through one is left for the next sweep, so every answer
 * given in a sweep holds for the module as it is. */
enum { GONE = 1, TOUCHED = 2 };

typedef struct Sweep {
  FusionCtx *x;
  Computation *c;
  int n;                 /* old instructions */
  Users u;               /* their users when the sweep started */
  unsigned char *ctrl;   /* in a control dependency */
  unsigned char *state;  /* GONE | TOUCHED */
  const Shape **space;   /* index_space, computed once */
  unsigned char *space_done;
  signed char *cand;     /* candidate() when the sweep started: -1 unknown */
  int *stamp, now;       /* for reaches */
  int *xhead, *xnext;    /* new users of old instructions: linked lists */
  int *slots;            /* operand slots that read each old instruction when the sweep started */
  int *near;             /* per old wide user: the slot point_users rewrote last */
  Instr **xuser;
  int nx, xcap;
  int nmerges;           /* made in this sweep so far */
  const Instr **walk;    /* reaches_after_merges' stack: REACH_WALK_MAX + 1 entries */
  NameMap names;         /* c's instruction names (gone ones removed) */
} Sweep;

static bool is_old(const Sweep *w, const Instr *in) {
  return in->parent == w->c && in->id >= 0 && in->id < w->n && w->c->instrs[in->id] == in;
}

static bool settled(const Sweep *w, const Instr *in) {
  return is_old(w, in) && !w->state[in->id];
}

static const Shape *space_of(Sweep *w, const Instr *in) {
  if (!is_old(w, in)) return index_space(in, true);
  if (!w->space_done[in->id]) {
    w->space[in->id] = index_space(in, false);
    w->space_done[in->id] = 1;
  }
  return w->space[in->id];
}

static bool add_new_user(Sweep *w, Instr *of, Instr *user) {
  if (!is_old(w, of)) return true;
  if (w->nx == w->xcap) {
    int nc = w->xcap ? w->xcap * 2 : 64;
    int *nn = cxla_realloc(w->xnext, (size_t)nc * sizeof(int));
    if (nn) w->xnext = nn;
    Instr **nu = nn ? cxla_realloc(w->xuser, (size_t)nc * sizeof(Instr *)) : NULL;
    if (nu) w->xuser = nu;
    if (!nn || !nu) return false;
    w->xcap = nc;
  }
  w->xuser[w->nx] = user;
  w->xnext[w->nx] = w->xhead[of->id];
  w->xhead[of->id] = w->nx++;
  return true;
}

/* Whether in is a usable candidate in c: multi-output fusions only when
 * every user picks an element. */
static bool candidate_at_start(Sweep *w, const Instr *in) {
  const Computation *c = w->c;
  if (!space_of(w, in) || w->ctrl[in->id]) return false;
  if (in->op == OP_FUSION && fusion_ctx_callers(w->x, in->called[0]) != 1) return false;
  if (in->op == OP_FUSION && in->called[0]->root->op == OP_TUPLE) {
    if (c->root == in || w->xhead[in->id] >= 0) return false;
    for (int i = 0; i < w->u.count[in->id]; i++)
      if (w->u.list[in->id][i]->op != OP_GET_TUPLE_ELEMENT) return false;
  }
  return true;
}

/* A settled instruction's users and callers are those the sweep started
 * with, so its candidacy then is its candidacy now. */
static bool candidate(Sweep *w, const Instr *in) {
  if (!settled(w, in)) return false;
  if (w->cand[in->id] < 0) w->cand[in->id] = candidate_at_start(w, in);
  return w->cand[in->id];
}

/* The least a merge with `in` adds to the merged computation. */
static int own_size(const Instr *in) {
  return in->op == OP_FUSION ? fusion_size(in->called[0]) : 1;
}

/* Whether `to` depends on `from` (a path of operands from `to` back to
 * `from`). Old instructions are in post order, so one backward sweep from
 * `to` suffices; *unknown when the path could run through a touched or new
 * instruction. */
/* Ancestors of `to` a walk visits at most before it answers unknown. */
enum { REACH_WALK_MAX = 4096 };

/* reaches once this sweep has merged: a merge gives the users of each
 * merged candidate the other's operands as ancestors, so the post order of
 * the sweep's start no longer bounds a path (a path from a later
 * instruction to an earlier one can now exist). Any such path runs through
 * a touched or new instruction, so a backward walk from `to` that meets
 * none (nor `from`) proves there is no path; meeting one, or walking past
 * REACH_WALK_MAX ancestors, leaves the question to the next sweep. */
static void reaches_after_merges(Sweep *w, const Instr *from, const Instr *to, bool *out, bool *unknown) {
  if (!is_old(w, to) || w->state[to->id]) {
    *unknown = true;
    return;
  }
  int now = ++w->now, sp = 0, seen = 0;
  w->stamp[to->id] = now;
  w->walk[sp++] = to;
  while (sp > 0) {
    const Instr *in = w->walk[--sp];
    for (int k = 0; k < in->noperands + in->ncontrol_preds; k++) {
      const Instr *o = k < in->noperands ? in->operands[k] : in->control_preds[k - in->noperands];
      if (o == from) {
        *out = true;
        return;
      }
      if (!is_old(w, o) || w->state[o->id] || ++seen > REACH_WALK_MAX) {
        *unknown = true;
        return;
      }
      if (w->stamp[o->id] == now) continue;
      w->stamp[o->id] = now;
      w->walk[sp++] = o; /* at most REACH_WALK_MAX + 1 entries: one per counted visit, and `to` */
    }
  }
}

static void reaches(Sweep *w, const Instr *from, const Instr *to, bool *out, bool *unknown) {
  *out = *unknown = false;
  if (w->nmerges > 0) {
    reaches_after_merges(w, from, to, out, unknown);
    return;
  }
  if (from->id >= to->id) return;
  int now = ++w->now;
  w->stamp[to->id] = now;
  for (int i = to->id; i > from->id && !*out && !*unknown; i--) {
    if (w->stamp[i] != now) continue;
    const Instr *in = w->c->instrs[i];
    if (i != to->id && w->state[i]) {
      *unknown = true;
      break;
    }
    for (int k = 0; k < in->noperands + in->ncontrol_preds; k++) {
      const Instr *o = k < in->noperands ? in->operands[k] : in->control_preds[k - in->noperands];
      if (o == from) *out = true;
      if (!is_old(w, o)) *unknown = true;
      else w->stamp[o->id] = now;
    }
  }
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
  Sweep *w;
  Computation *c, *mc;
  Instr **ops;     /* the merged fusion's operands */
  int nops;
  Instr **outs;    /* the merged computation's results, in order */
  int nouts;
  Instr *prod;       /* producer-consumer merge: the producer, whose uses */
  Instr *prod_value; /* by the consumer read this value of mc instead */
  NameMap names;     /* names used in mc (parameters' placeholders aside) */
} Merge;

/* A name not yet used in mc, derived from base, for an instruction about
 * to be added (found without a scan over mc), now taken. NULL on OOM. */
static const char *mc_name(Merge *g, const char *base) {
  const char *name = fusion_unique_name_in(g->mc, &g->names, base);
  if (!name || !namemap_set(&g->names, name, (void *)g->mc)) return NULL;
  return name;
}

/* The parameter of mc standing for outer operand x (added if new); a
 * scalar constant is copied in instead. */
static Instr *param_for(Merge *g, Instr *x) {
  if (g->prod && x == g->prod) return g->prod_value;
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i] == x) return g->mc->params[i];
  if (x->op == OP_CONSTANT && shape_elems(x->shape) == 1 && type_is_array(x->shape->type)) {
    for (int i = 0; i < g->mc->ninstrs; i++)
      if (g->mc->instrs[i]->scratch == x) return g->mc->instrs[i];
    const char *name = mc_name(g, x->name);
    Instr *k = name ? instr_clone(g->mc, x, 0, NULL, name) : NULL;
    if (k) k->scratch = x;
    return k;
  }
  Instr *p = fusion_add_param(g->mc, x->shape);
  if (p) g->ops[g->nops++] = x;
  return p;
}

/* Takes candidate `in` into mc and appends its results to g->outs: an
 * instruction is copied; a fusion's instructions are moved (its
 * computation is dropped after the merge), each keeping its name unless
 * mc has it already. The moved ones keep their old ids until mc is
 * sorted (fusion_finish): map is indexed by them. */
static cxla_status absorb(Merge *g, Instr *in) {
  Arena *a = &g->m->arena;
  if (in->op != OP_FUSION) {
    Instr **ops = arena_array(a, (size_t)in->noperands, sizeof(Instr *));
    if (!ops) return cxla_oom();
    for (int k = 0; k < in->noperands; k++)
      if (!(ops[k] = param_for(g, in->operands[k]))) return cxla_oom();
    const char *name = mc_name(g, in->name);
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
    if (s == fc->root && s->op == OP_TUPLE) {
      for (int k = 0; k < s->noperands; k++) g->outs[g->nouts++] = map[s->operands[k]->id];
      map[i] = NULL;
      continue;
    }
    for (int k = 0; k < s->noperands; k++) s->operands[k] = map[s->operands[k]->id];
    for (int k = 0; k < s->ncontrol_preds; k++) s->control_preds[k] = map[s->control_preds[k]->id];
    if (namemap_get(&g->names, s->name, strlen(s->name))) {
      const char *name = mc_name(g, s->name);
      if (!name) return cxla_oom();
      s->name = name;
      module_note_name(g->m, name);
    } else if (!namemap_set(&g->names, s->name, (void *)g->mc)) {
      return cxla_oom();
    }
    s->scratch = NULL; /* param_for reads mc's marks; an earlier pass's may be left */
    if (!comp_move_instr(g->mc, s)) return cxla_oom();
    map[i] = s;
  }
  if (fc->root->op != OP_TUPLE) g->outs[g->nouts++] = map[fc->root->id];
  return NULL;
}

/* Marks old instruction `in` gone and frees its name. */
static void drop(Sweep *w, Instr *in) {
  w->state[in->id] |= GONE;
  namemap_set(&w->names, in->name, NULL); /* an existing key: cannot fail */
  fusion_ctx_note_free_name(w->x, in->name);
}

/* Makes every user of old instruction `in` (and the root) read `to`. A
 * wide user (a root tuple of T results) that is in's only one is
 * searched from where its last rewrite was: T merges into it then cost T
 * in all rather than T^2 (a scan of its operands per merge: a root tuple
 * of 3 10^4 results took 8% of 3.4 s of optimizing, growing with T^2). */
static void point_users(Sweep *w, Instr *in, Instr *to) {
  for (int i = 0; i < w->u.count[in->id]; i++) {
    Instr *u = w->u.list[in->id][i];
    if (w->state[u->id] & GONE) continue;
    if (u->noperands > 16 && w->u.count[in->id] == 1 && is_old(w, u))
      fusion_replace_near(u, in, to, w->slots[in->id], &w->near[u->id]);
    else
      for (int k = 0; k < u->noperands; k++)
        if (u->operands[k] == in) u->operands[k] = to;
    for (int k = 0; k < u->ncontrol_preds; k++)
      if (u->control_preds[k] == in) u->control_preds[k] = to;
    w->state[u->id] |= TOUCHED;
  }
  for (int e = w->xhead[in->id]; e >= 0; e = w->xnext[e]) {
    Instr *u = w->xuser[e];
    for (int k = 0; k < u->noperands; k++)
      if (u->operands[k] == in) u->operands[k] = to;
  }
  if (w->c->root == in) w->c->root = to;
}

/* Points the users of candidate `in` at the merged fusion f, whose results
 * from `first` on are in's; `multi`: in had several results (its users
 * pick them). */
static cxla_status redirect(Merge *g, Instr *in, bool multi, Instr *f, int first) {
  Sweep *w = g->w;
  Computation *c = g->c;
  Instr **users = w->u.list[in->id];
  int nusers = w->u.count[in->id];
  if (multi) {
    for (int i = 0; i < nusers; i++) {
      Instr *u = users[i];
      if (u->op == OP_GET_TUPLE_ELEMENT && u->operands[0] == in) {
        u->operands[0] = f;
        u->index += first;
        w->state[u->id] |= TOUCHED;
      }
    }
    return NULL;
  }
  Shape *s = shape_clone(&g->m->arena, in->shape);
  char base[128];
  snprintf(base, sizeof base, "get-tuple-element.%.100s", in->name);
  const char *name = fusion_unique_name_in(c, &w->names, base);
  Instr *gte = s && name ? comp_add_instr(c, OP_GET_TUPLE_ELEMENT, s, 1, &f, name) : NULL;
  if (!gte || !namemap_set(&w->names, gte->name, gte)) return cxla_oom();
  gte->attrs = A_INDEX;
  gte->index = first;
  point_users(w, in, gte);
  return NULL;
}

/* Scalar constants that only the merged candidate read were copied into
 * the fused computation: drop the originals that nothing uses now. */
static void drop_unused_constants(Sweep *w, const Instr *gone) {
  Computation *c = w->c;
  for (int k = 0; k < gone->noperands; k++) {
    Instr *x = gone->operands[k];
    if (x->op != OP_CONSTANT || x == c->root || !is_old(w, x) || w->ctrl[x->id]) continue;
    if (w->state[x->id] & GONE) continue;
    bool used = w->xhead[x->id] >= 0;
    for (int i = 0; i < w->u.count[x->id] && !used; i++) {
      const Instr *u = w->u.list[x->id][i];
      if (w->state[u->id] & GONE) continue;
      for (int q = 0; q < u->noperands && !used; q++) used = u->operands[q] == x;
    }
    if (!used) drop(w, x);
  }
}

enum MergeMode {
  SIBLINGS,  /* a and b read the same operand: both results */
  PRODUCER,  /* b reads a, which others read too: both results */
  INTO       /* b is a's only user: b's result only (a row merge) */
};

/* Starts merge g in fusion a's own computation (its only caller is a):
 * a's operands and results become g's, its root tuple (if any) dropped;
 * g->names indexes what is left. */
static cxla_status adopt(Merge *g, Instr *a, const char *cname) {
  Computation *mc = a->called[0];
  TRY(fusion_ctx_rename_computation(g->x, mc, cname));
  g->mc = mc;
  for (int i = 0; i < mc->ninstrs; i++) mc->instrs[i]->scratch = NULL; /* param_for's marks */
  for (int k = 0; k < a->noperands; k++) g->ops[g->nops++] = a->operands[k];
  Instr *root = mc->root;
  if (root->op == OP_TUPLE) {
    for (int k = 0; k < root->noperands; k++) g->outs[g->nouts++] = root->operands[k];
    mc->root = NULL;
    fusion_drop_instr(mc, root);
  } else {
    g->outs[g->nouts++] = root;
  }
  return comp_index_names(mc, &g->names);
}

/* Replaces candidates a and b of c by one fusion whose results are both
 * of theirs (a multi-output fusion), or b's only (INTO); b reads a's value
 * inside the fusion unless they are SIBLINGS. A fusion a lends its
 * computation, which takes a copy of b: sibling merges double a group's
 * size once a sweep, and copying both sides each time copied a module's
 * fusions once a sweep (10^5 instructions in groups of 11: 430 MB of
 * copies in all, 40% of `cxla opt`). */
static cxla_status merge(Sweep *w, Instr *a, Instr *b, enum MergeMode mode) {
  FusionCtx *x = w->x;
  Computation *c = w->c;
  HloModule *m = x->m;
  Arena *ar = &m->arena;
  w->nmerges++;
  int tag = fusion_fresh_tag(x, &w->names, x->free_tag);
  x->free_tag = tag + 1;
  char fname[64], cname[64], tagstr[32];
  snprintf(fname, sizeof fname, "fusion.%d", tag);
  snprintf(cname, sizeof cname, "fused_computation.%d", tag);
  snprintf(tagstr, sizeof tagstr, "%d", tag);
  Merge g = {m, x, w, c, NULL, NULL, 0, NULL, 0, NULL, NULL, {0}};
  bool lend = a->op == OP_FUSION, a_multi = lend && a->called[0]->root->op == OP_TUPLE;
  bool b_multi = b->op == OP_FUSION && b->called[0]->root->op == OP_TUPLE;
  g.ops = arena_array(ar, (size_t)(a->noperands + b->noperands) + 1, sizeof(Instr *));
  g.outs = arena_array(ar, (size_t)(noutputs(a) + noutputs(b)), sizeof(Instr *));
  if (!g.ops || !g.outs) return cxla_oom();
  cxla_status st = NULL;
  if (lend) {
    st = adopt(&g, a, cname);
  } else {
    g.mc = fusion_ctx_new_computation(x, c, cname);
    st = g.mc ? absorb(&g, a) : cxla_oom();
  }
  int second = g.nouts;
  if (mode != SIBLINGS && !st) {
    g.prod = a;
    g.prod_value = g.outs[0];
  }
  if (mode == INTO) g.nouts = 0;
  if (!st) st = absorb(&g, b);
  const char *tname = st || mode == INTO ? NULL : mc_name(&g, "tuple");
  namemap_free(&g.names);
  TRY(st);
  Instr *root = g.outs[0];
  if (mode != INTO) {
    Shape **elems = arena_array(ar, (size_t)g.nouts, sizeof(Shape *));
    if (!elems) return cxla_oom();
    for (int i = 0; i < g.nouts; i++) elems[i] = g.outs[i]->shape;
    Shape *ts = shape_new_tuple(ar, g.nouts, elems);
    root = ts && tname ? comp_add_instr(g.mc, OP_TUPLE, ts, g.nouts, g.outs, tname) : NULL;
    if (!root) return cxla_oom();
  }
  g.mc->root = root;
  for (int i = 0; i < g.mc->ninstrs; i++) g.mc->instrs[i]->scratch = NULL;
  TRY(fusion_finish(g.mc, tagstr));
  Shape *fs = shape_clone(ar, root->shape);
  Computation **called = arena_array(ar, 1, sizeof(Computation *));
  Instr *f = fs && called ? comp_add_instr(c, OP_FUSION, fs, g.nops, g.ops, fname) : NULL;
  if (!f || !namemap_set(&w->names, f->name, f)) return cxla_oom();
  called[0] = g.mc;
  f->ncalled = 1;
  f->called = called;
  f->attrs = A_FUSION_KIND;
  f->fusion_kind = fusion_kind_of(g.mc);
  for (int k = 0; k < f->noperands; k++)
    if (!add_new_user(w, f->operands[k], f)) return cxla_oom();
  const char *meta = instr_raw(mode == INTO ? b : a, "metadata");
  if (meta) TRY(instr_add_raw(m, f, "metadata", meta));
  if (mode == INTO) {
    point_users(w, b, f);
  } else {
    TRY(redirect(&g, a, a_multi, f, 0));
    TRY(redirect(&g, b, b_multi, f, second));
  }
  drop(w, a);
  drop(w, b);
  drop_unused_constants(w, a);
  drop_unused_constants(w, b);
  if (!lend && a->op == OP_FUSION) fusion_ctx_remove_computation(x, a->called[0]);
  if (b->op == OP_FUSION) fusion_ctx_remove_computation(x, b->called[0]);
  return NULL;
}

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
 * dims) of fewer than MOF_SPLIT_SPACE elements, P is not the root, and
 * nothing else R reads depends on P (the merged fusion would need its
 * own result), as far as this sweep can tell. */
static cxla_status merge_producer_consumer(Sweep *w, Instr *R, bool *merged) {
  Computation *c = w->c;
  if (!reduce_rooted(R) || !candidate(w, R)) return NULL;
  for (int k = 0; k < R->noperands; k++) {
    Instr *P = R->operands[k];
    if (!is_old(w, P) || !loop_producer(P) || c->root == P || !candidate(w, P)) continue;
    if (w->u.count[P->id] < 2 || !same_space(space_of(w, P), space_of(w, R))) continue;
    if (shape_elems(space_of(w, R)) >= MOF_SPLIT_SPACE) continue;
    int ni, np;
    merged_size(P, R, &ni, &np);
    if (ni > FUSION_MAX_INSTRS || np > FUSION_MAX_PARAMS) continue;
    bool path = false, unknown = false;
    for (int q = 0; q < R->noperands && !path && !unknown; q++)
      if (R->operands[q] != P) reaches(w, P, R->operands[q], &path, &unknown);
    if (path || unknown) continue;
    TRY(merge(w, P, R, PRODUCER));
    *merged = true;
    return NULL; /* R is gone */
  }
  return NULL;
}

/* ---- row fusion ----
 * A fusion C of dims S that reads the rows of a row reduction P (a reduce
 * over the trailing dims k.. of an array of dims S, or a fusion computing
 * a value of such reduces) only at the row's index (broadcast back along
 * dims k..) takes P in when C is P's only user: the backend then computes
 * each reduce once per row in C's kernel (a row kernel, see
 * comp_row_reductions), while the row's input is in cache. A loop fusion
 * (or a row kernel with the same rows) of dims S whose only user is a row
 * kernel is taken in too (softmax's exp, recomputed where the kernel
 * reads it instead of written to memory and read back). Softmax and layer
 * norm become one kernel each. */

/* Whether C may take producers in as a row kernel: a fusion this sweep
 * may merge, one array result of rank >= 2. */
static bool row_consumer(Sweep *w, const Instr *C) {
  return C->op == OP_FUSION && candidate(w, C) && C->called[0]->root->op != OP_TUPLE &&
         type_is_array(C->shape->type) && C->shape->rank >= 2;
}

/* Whether P (an operand of C, number j) is a row producer for C. */
static bool row_producer(Sweep *w, const Instr *C, int j, const Instr *P) {
  const Shape *S = C->shape;
  int k = P->shape->rank, nred = 0;
  if (!type_is_array(P->shape->type) || k < 1 || k >= S->rank) return false;
  if (P->op == OP_REDUCE) {
    if (!fusion_is_loop_fusible(P) || P->noperands != 2 || !same_space(P->operands[0]->shape, S) ||
        P->dimensions.n != S->rank - k)
      return false;
    for (int d = 0; d < P->dimensions.n; d++)
      if (P->dimensions.v[d] < k) return false;
  } else if (P->op != OP_FUSION || P->fusion_kind != FUSION_INPUT || !candidate(w, P) ||
             P->called[0]->root->op == OP_TUPLE ||
             comp_rows(P->called[0], S, k, -1, true, &nred, NULL, 0) != k || nred == 0) {
    return false;
  }
  /* C reads P's rows at the row index only */
  return comp_rows(C->called[0], S, k, j, false, &nred, NULL, 0) == k;
}

/* One row merge into C, if one applies. */
static cxla_status merge_rows(Sweep *w, Instr *C, bool *merged) {
  if (!row_consumer(w, C)) return NULL;
  int rowk = comp_row_reductions(C->called[0], C->shape, NULL, 0);
  for (int j = 0; j < C->noperands; j++) {
    Instr *P = C->operands[j];
    if (!settled(w, P) || w->ctrl[P->id] || w->c->root == P || w->u.count[P->id] != 1 ||
        w->xhead[P->id] >= 0)
      continue;
    if (P->op == OP_FUSION && fusion_ctx_callers(w->x, P->called[0]) != 1) continue;
    /* a loop fusion, or a row kernel with C's rows, of C's dims */
    bool full = rowk > 0 && P->op == OP_FUSION && candidate(w, P) && same_space(P->shape, C->shape) &&
                (loop_producer(P) ||
                 (P->fusion_kind == FUSION_INPUT && P->called[0]->root->op != OP_TUPLE &&
                  comp_row_reductions(P->called[0], P->shape, NULL, 0) == rowk));
    bool take = full || row_producer(w, C, j, P);
    if (!take) continue;
    int ni = own_size(P) + own_size(C), np = C->noperands - 1;
    for (int k = 0; k < P->noperands; k++) np += fusion_operand_index(C, P->operands[k]) < 0;
    if (ni > FUSION_MAX_INSTRS || np > FUSION_MAX_PARAMS) continue;
    TRY(merge(w, P, C, INTO));
    *merged = true;
    return NULL; /* C is gone */
  }
  return NULL;
}

/* Users of a shared value after a candidate `a` (in program order) that
 * it is paired with: siblings further apart are not merged (a bound on
 * the work per user; a sweep's merges bring further ones nearer for the
 * next). */
enum { SIBLING_WINDOW = 16 };

/* Merges the pairs of siblings found over one sweep of w->c, and
 * producers into their reduce consumers; row merges first (a sweep that
 * makes one makes no other kind). */
static cxla_status sweep(Sweep *w, bool *merged) {
  Computation *c = w->c;
  for (int r = 0; r < w->n; r++) {
    Instr *C = c->instrs[r];
    if (!(w->state[r] & GONE)) TRY(merge_rows(w, C, merged));
  }
  if (*merged) return NULL;
  for (int x = 0; x < w->n; x++) {
    const Instr *shared = c->instrs[x];
    /* Sharing a scalar or a constant saves nothing worth a merge. */
    if ((w->state[x] & GONE) || shared->op == OP_CONSTANT || !type_is_array(shared->shape->type) ||
        shape_elems(shared->shape) <= 1)
      continue;
    Instr **users = w->u.list[x];
    for (int i = 0; i < w->u.count[x]; i++) {
      Instr *a = users[i];
      /* merged_size is at least 2 + own sizes: too big a candidate merges
       * with nothing. */
      if (!candidate(w, a) || own_size(a) + 2 > FUSION_MAX_INSTRS) continue;
      /* the next SIBLING_WINDOW users only: a value read by U fusions
       * that depend on one another in a chain (a parameter each step of
       * an unrolled loop reads) made U^2 / 2 pairs, each with a walk */
      int end = w->u.count[x] - i > SIBLING_WINDOW ? i + 1 + SIBLING_WINDOW : w->u.count[x];
      for (int j = i + 1; j < end; j++) {
        Instr *b = users[j];
        if (!candidate(w, b) || !same_space(space_of(w, a), space_of(w, b)) ||
            !reduces_agree(a, b, space_of(w, a)))
          continue;
        int ni, np;
        merged_size(a, b, &ni, &np);
        if (ni > FUSION_MAX_INSTRS || np > FUSION_MAX_PARAMS) continue;
        bool ab, ba, u1, u2;
        reaches(w, a, b, &ab, &u1);
        if (ab || u1) continue;
        reaches(w, b, a, &ba, &u2);
        if (ba || u2) continue;
        /* Keep the earlier one first so that tuple element order follows
         * the program order. */
        TRY(a->id < b->id ? merge(w, a, b, SIBLINGS) : merge(w, b, a, SIBLINGS));
        *merged = true;
        break; /* a is gone */
      }
    }
  }
  for (int r = 0; r < w->n; r++) TRY(merge_producer_consumer(w, w->c->instrs[r], merged));
  return NULL;
}

static void sweep_free(Sweep *w) {
  users_free(&w->u);
  cxla_free(w->ctrl);
  cxla_free(w->state);
  cxla_free(w->space);
  cxla_free(w->space_done);
  cxla_free(w->cand);
  cxla_free(w->stamp);
  cxla_free(w->xhead);
  cxla_free(w->xnext);
  cxla_free(w->slots);
  cxla_free(w->near);
  cxla_free(w->xuser);
  cxla_free(w->walk);
  namemap_free(&w->names);
}

/* Sweeps c until a sweep merges nothing; between sweeps, drops what is
 * gone and restores the post order. */
static cxla_status fuse_siblings(FusionCtx *x, Computation *c, bool *changed) {
  TRY(comp_sort(c));
  for (bool merged = true; merged;) {
    merged = false;
    Sweep w = {.x = x, .c = c, .n = c->ninstrs};
    x->free_tag = 1; /* fresh names: the lowest free N in this computation */
    size_t n1 = (size_t)w.n + 1;
    cxla_status s = users_build(c, &w.u);
    if (!s) s = fusion_control_flags(c, &w.ctrl);
    if (!s) s = comp_index_names(c, &w.names);
    w.state = cxla_calloc(n1, 1);
    w.space = cxla_calloc(n1, sizeof *w.space);
    w.space_done = cxla_calloc(n1, 1);
    w.cand = cxla_malloc(n1);
    if (w.cand) memset(w.cand, -1, n1);
    w.stamp = cxla_calloc(n1, sizeof(int));
    w.xhead = cxla_malloc(n1 * sizeof(int));
    w.slots = cxla_calloc(n1, sizeof(int));
    w.near = cxla_calloc(n1, sizeof(int));
    w.walk = cxla_malloc((REACH_WALK_MAX + 1) * sizeof *w.walk);
    if (!s && (!w.state || !w.space || !w.space_done || !w.cand || !w.stamp || !w.xhead || !w.slots || !w.near ||
               !w.walk))
      s = cxla_oom();
    if (!s) {
      for (int i = 0; i < w.n; i++) w.xhead[i] = -1;
      for (int i = 0; i < w.n; i++)
        for (int k = 0; k < c->instrs[i]->noperands; k++) {
          const Instr *op = c->instrs[i]->operands[k];
          if (is_old(&w, op)) w.slots[op->id]++;
        }
      s = sweep(&w, &merged);
    }
    if (!s && merged) {
      int j = 0;
      for (int i = 0; i < c->ninstrs; i++)
        if (i >= w.n || !(w.state[i] & GONE)) c->instrs[j++] = c->instrs[i];
      c->ninstrs = j;
      s = comp_sort(c);
      *changed = true;
    }
    sweep_free(&w);
    TRY(s);
  }
  return NULL;
}

cxla_status pass_multi_output_fusion(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  FusionCtx x;
  TRY(fusion_ctx_init(&x, m));
  x.contract = !(ctx && ctx->exact);
  int n = m->ncomps;
  Computation **comps = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
  if (!comps) {
    fusion_ctx_free(&x);
    return cxla_oom();
  }
  memcpy(comps, m->comps, (size_t)n * sizeof(Computation *));
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++)
    if (fusion_ctx_is_context(&x, comps[i])) s = fuse_siblings(&x, comps[i], changed);
  cxla_free(comps);
  if (s) {
    fusion_ctx_free(&x);
    return s;
  }
  return fusion_ctx_finish(&x);
}
