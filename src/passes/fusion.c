/* fusion.c: instruction fusion (pass "fusion"), modelled on XLA's
 * InstructionFusion / CpuInstructionFusion.
 *
 * Producers are fused into their consumers, building XLA-style fusion
 * instructions:
 *
 *   %fusion.3 = f32[8,64] fusion(%a, %b), kind=kLoop, calls=%fused_computation.3
 *
 * whose fused computation takes the fusion's operands as param_0.3,
 * param_1.3, ... and computes the fused instructions. Instructions are
 * visited consumers first (reverse post order); each consumer absorbs
 * producers one at a time for as long as the rules allow:
 *
 *  - loop fusion: elementwise ops and data movement (broadcast, reshape,
 *    transpose, slice, pad, concatenate, iota, dynamic-slice, gather,
 *    reverse, bitcast, copy, scalar constants) fuse into loop-fusible
 *    consumers; the fusion is kLoop;
 *  - input fusion: the same producers fuse into a reduce; a fusion that
 *    contains a reduce is kInput;
 *  - output fusion: a dot or convolution whose only use is an elementwise
 *    epilogue of the same shape (bias add, activation) fuses into it, kOutput;
 *    its own operands stay outside (a GEMM/convolution library reads them).
 *
 * Cost rules: a producer with other users may only be duplicated into this
 * consumer when it is cheap and effectively unary (its operands hold no more
 * elements than its result, e.g. broadcast of a scalar, iota, a constant);
 * an expensive producer (exp, log, tanh, divide, dot, reduce, gather, ...)
 * is never fused into a consumer that reads its elements more than once
 * (through a broadcast, a gather, a dot); a fused computation stops growing
 * at FUSION_MAX_INSTRS instructions and FUSION_MAX_PARAMS parameters.
 * Parameters, tuples, calls, while/conditional, custom-calls, sort, rng and
 * side-effecting ops are never fused, nor are instructions with control
 * dependencies. Fusions already in the module (from XLA's optimized HLO) are
 * left as they are.
 *
 * The pass works in the entry computation and in computations reached
 * through call/while/conditional; applied computations (reducers,
 * comparators) and fused computations are left alone. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/fusion_util.h"
#include "passes/passes.h"

/* Markers kept in Instr.scratch while the pass runs (cleared at the end):
 * instructions of the computation that died (fused away), and fusion
 * instructions this pass made (which may keep growing). Inside fused
 * computations, scratch points at the original instruction a clone was
 * made from. */
static char kDead, kOurs;

static bool is_dead(const Instr *in) { return in->scratch == &kDead; }
static bool is_ours(const Instr *in) { return in->op == OP_FUSION && in->scratch == &kOurs; }

/* Uses of one instruction of the computation being fused, kept up to date
 * as the pass edits operands: exact counts over live instructions, and a
 * list of users that may hold stale entries (users that died or stopped
 * using it since), which readers skip. */
typedef struct Uses {
  int users, slots; /* distinct live users; operand slots they use it in */
  int n, cap;
  Instr **list;
} Uses;

typedef struct Fuser {
  HloModule *m;
  FusionCtx *x;
  Computation *c; /* the computation being fused */
  int next_tag;   /* fusion.N: the search for a free N starts here */
  NameMap names;  /* c's instruction names, dead ones included */
  Uses *uses;     /* by instruction id (instructions added later get higher ids) */
  int *stamp;     /* by id: scratch for counting distinct operands */
  int nuses, stamp_now;
  unsigned char *ctrl; /* by id, for ids below nctrl: in a control dependency */
  int nctrl;
  bool oom;
} Fuser;

/* ---- uses ---- */

static bool tracked(const Fuser *fz, const Instr *o) {
  return o->parent == fz->c && o->id >= 0 && o->id < fz->c->ninstrs && fz->c->instrs[o->id] == o;
}

static bool reserve_uses(Fuser *fz, int n) {
  if (n <= fz->nuses) return true;
  int nc = fz->nuses ? fz->nuses : 64;
  while (nc < n) nc *= 2;
  Uses *u = cxla_realloc(fz->uses, (size_t)nc * sizeof *u);
  if (u) fz->uses = u;
  int *st = u ? cxla_realloc(fz->stamp, (size_t)nc * sizeof *st) : NULL;
  if (st) fz->stamp = st;
  if (!u || !st) return false;
  memset(u + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *u);
  memset(st + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *st);
  fz->nuses = nc;
  return true;
}

/* Adds (sign 1) or removes (sign -1) live user U's uses of its operands. */
static void track(Fuser *fz, Instr *U, int sign) {
  if (!reserve_uses(fz, fz->c->ninstrs)) {
    fz->oom = true;
    return;
  }
  int now = ++fz->stamp_now;
  for (int k = 0; k < U->noperands; k++) {
    Instr *o = U->operands[k];
    if (!tracked(fz, o)) continue;
    Uses *u = &fz->uses[o->id];
    u->slots += sign;
    if (fz->stamp[o->id] == now) continue;
    fz->stamp[o->id] = now;
    u->users += sign;
    if (sign < 0) continue;
    if (u->n == u->cap) {
      int nc = u->cap ? u->cap * 2 : 4;
      Instr **l = cxla_realloc(u->list, (size_t)nc * sizeof *l);
      if (!l) {
        fz->oom = true;
        continue;
      }
      u->list = l;
      u->cap = nc;
    }
    u->list[u->n++] = U;
  }
}

static void uses_reset(Fuser *fz) {
  for (int i = 0; i < fz->nuses; i++) {
    cxla_free(fz->uses[i].list);
    memset(&fz->uses[i], 0, sizeof fz->uses[i]);
  }
}

/* Distinct users of p among c's live instructions (the root counts as one
 * more user) and the operand slots they use it in. */
static void count_uses(const Fuser *fz, const Instr *p, int *users, int *slots) {
  *users = *slots = 0;
  if (tracked(fz, p) && p->id < fz->nuses) {
    *users = fz->uses[p->id].users;
    *slots = fz->uses[p->id].slots;
  }
  if (fz->c->root == p) {
    (*users)++;
    (*slots)++;
  }
}

/* Every use of `from` by a live instruction of c, and the root, become uses
 * of `to`. */
static void replace_uses(Fuser *fz, Instr *from, Instr *to) {
  Computation *c = fz->c;
  if (tracked(fz, from) && from->id < fz->nuses) {
    /* The list may grow while we walk it (to's users): walk a snapshot. */
    Uses *u = &fz->uses[from->id];
    int n = u->n;
    Instr **list = cxla_malloc((size_t)n * sizeof(Instr *) + 1);
    if (!list) {
      fz->oom = true;
      return;
    }
    memcpy(list, u->list, (size_t)n * sizeof(Instr *));
    for (int i = 0; i < n; i++) {
      Instr *in = list[i];
      if (in == to || is_dead(in)) continue;
      bool uses = false;
      for (int k = 0; k < in->noperands; k++) uses |= in->operands[k] == from;
      if (!uses) continue; /* a stale entry, or one already rewritten */
      track(fz, in, -1);
      for (int k = 0; k < in->noperands; k++)
        if (in->operands[k] == from) in->operands[k] = to;
      for (int k = 0; k < in->ncontrol_preds; k++)
        if (in->control_preds[k] == from) in->control_preds[k] = to;
      track(fz, in, 1);
    }
    cxla_free(list);
  }
  if (c->root == from) c->root = to;
}

static bool in_control_dep(const Fuser *fz, const Instr *in) {
  return tracked(fz, in) && in->id < fz->nctrl && fz->ctrl[in->id];
}

/* Whether computing `in` may read one element of its operand k for several
 * output elements. */
static bool op_reuses_operand(const Instr *in, int k) {
  if (fusion_is_elementwise(in)) return false;
  switch (in->op) {
  case OP_RESHAPE: case OP_TRANSPOSE: case OP_SLICE: case OP_REVERSE: case OP_COPY:
  case OP_BITCAST: case OP_CONCATENATE:
    return false;
  case OP_PAD: case OP_REDUCE: case OP_DYNAMIC_SLICE:
    return k > 0; /* the scalar padding value, init value, start indices */
  case OP_DYNAMIC_UPDATE_SLICE:
    return k > 1;
  case OP_BROADCAST:
    return shape_elems(in->shape) > shape_elems(in->operands[0]->shape);
  default:
    return true; /* gather, dot, convolution, ... */
  }
}

/* Whether value v inside fused computation fc has its elements read more
 * than once on the way to the root. One backward sweep over fc (in post
 * order, users after operands): reused[x] is final once every user of x
 * has been seen. Out of memory: answers yes, which only stops a fusion. */
static bool value_reused(const Computation *fc, const Instr *v) {
  unsigned char *reused = cxla_calloc((size_t)fc->ninstrs + 1, 1);
  if (!reused) return true;
  for (int i = fc->ninstrs - 1; i >= 0; i--) {
    const Instr *u = fc->instrs[i];
    for (int k = 0; k < u->noperands; k++)
      if (reused[i] || op_reuses_operand(u, k)) reused[u->operands[k]->id] = 1;
  }
  bool r = reused[v->id];
  cxla_free(reused);
  return r;
}

/* Whether consumer C reads elements of its operand j more than once. */
static bool consumer_reuses(const Instr *C, int j) {
  if (is_ours(C)) {
    const Computation *fc = C->called[0];
    return value_reused(fc, fc->params[j]);
  }
  for (int k = 0; k < C->noperands; k++)
    if (C->operands[k] == C->operands[j] && op_reuses_operand(C, k)) return true;
  return false;
}

static bool same_dims(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

/* Every use of v in fc, up to the root, is elementwise with v's dims. One
 * forward sweep from v marks what depends on it. Out of memory: no. */
static bool elementwise_to_root(const Computation *fc, const Instr *v, const Shape *dims) {
  unsigned char *dep = cxla_calloc((size_t)fc->ninstrs + 1, 1);
  if (!dep) return false;
  dep[v->id] = 1;
  bool ok = true;
  for (int i = v->id + 1; i < fc->ninstrs && ok; i++) {
    const Instr *u = fc->instrs[i];
    bool uses = false;
    for (int k = 0; k < u->noperands; k++) uses |= dep[u->operands[k]->id];
    if (!uses) continue;
    dep[i] = 1;
    ok = fusion_is_elementwise(u) && same_dims(u->shape, dims);
  }
  cxla_free(dep);
  return ok;
}

/* ---- the decision ---- */

/* A producer with other users may be copied into this consumer when that
 * costs no extra memory traffic: cheap, and its distinct operands hold no
 * more elements than its result. */
static bool duplicable(const Instr *p) {
  if (fusion_is_expensive(p) || fusion_is_output_head(p)) return false;
  int64_t in = 0;
  for (int k = 0; k < p->noperands; k++) {
    bool seen = false;
    for (int q = 0; q < k; q++) seen |= p->operands[q] == p->operands[k];
    if (!seen) in += shape_elems(p->operands[k]->shape);
  }
  return in <= shape_elems(p->shape);
}

/* May instruction C take producers at all? */
static bool consumer_ok(const Fuser *fz, const Instr *C) {
  if (is_dead(C) || C->noperands == 0 || in_control_dep(fz, C)) return false;
  if (C->op == OP_FUSION) return is_ours(C);
  return fusion_is_loop_fusible(C);
}

/* Parameters the consumer would have after fusing its operand p. */
static int params_after(const Instr *C, const Instr *p) {
  int n = 0;
  /* The consumer's distinct operands other than p ... */
  for (int k = 0; k < C->noperands; k++) {
    bool seen = C->operands[k] == p;
    for (int q = 0; q < k && !seen; q++) seen = C->operands[q] == C->operands[k];
    n += !seen;
  }
  /* ... plus p's operands that are new to it. */
  for (int k = 0; k < p->noperands; k++) {
    bool seen = false;
    for (int q = 0; q < C->noperands && !seen; q++) seen = C->operands[q] == p->operands[k];
    for (int q = 0; q < k && !seen; q++) seen = p->operands[q] == p->operands[k];
    n += !seen;
  }
  return n;
}

/* Output fusion: dot/convolution p, used once, by C elementwise with p's
 * shape all the way to C's result. */
static bool output_fusible(const Fuser *fz, const Instr *C, int j, const Instr *p) {
  int users, slots;
  count_uses(fz, p, &users, &slots);
  if (users != 1 || slots != 1 || type_is_complex(p->shape->type)) return false;
  if (!is_ours(C))
    return fusion_is_elementwise(C) && same_dims(C->shape, p->shape);
  const Computation *fc = C->called[0];
  if (fusion_kind_of(fc) == FUSION_OUTPUT) return false; /* one head per fusion */
  if (!fc->root || fc->root->op == OP_TUPLE) return false;
  return elementwise_to_root(fc, fc->params[j], p->shape);
}

/* In an output fusion, whether parameter j feeds the dot/convolution. */
static bool feeds_output_head(const Instr *C, int j) {
  if (!is_ours(C)) return false;
  const Computation *fc = C->called[0];
  const Instr *param = fc->params[j];
  for (int i = 0; i < fc->ninstrs; i++) {
    const Instr *u = fc->instrs[i];
    if (!fusion_is_output_head(u)) continue;
    for (int k = 0; k < u->noperands; k++)
      if (u->operands[k] == param) return true;
  }
  return false;
}

static bool should_fuse(const Fuser *fz, const Instr *C, int j) {
  const Instr *p = C->operands[j];
  if (p->parent != fz->c || is_dead(p) || p->op == OP_PARAMETER) return false;
  if (in_control_dep(fz, p)) return false;
  int size = is_ours(C) ? fusion_size(C->called[0]) : 1;
  if (size + 1 > FUSION_MAX_INSTRS || params_after(C, p) > FUSION_MAX_PARAMS) return false;
  if (feeds_output_head(C, j)) return false;
  if (fusion_is_output_head(p)) return output_fusible(fz, C, j, p);
  if (p->op == OP_FUSION || !fusion_is_loop_fusible(p)) return false;
  /* Scalar constants only, and only into a fusion that has real work: a
   * fusion of a constant and one op saves nothing. */
  if (p->op == OP_CONSTANT && (shape_elems(p->shape) != 1 || !is_ours(C))) return false;
  /* A wide concatenate becomes a deep select tree per element. */
  if (p->op == OP_CONCATENATE && p->noperands > 8) return false;
  int users, slots;
  count_uses(fz, p, &users, &slots);
  if (users > 1 && !duplicable(p)) return false;
  if (fusion_is_expensive(p) && consumer_reuses(C, j)) return false;
  return true;
}

/* ---- the mechanics ---- */

/* Replaces plain instruction C by a fusion instruction computing just C. */
static cxla_status wrap(Fuser *fz, Instr *C, Instr **out) {
  HloModule *m = fz->m;
  Arena *a = &m->arena;
  int tag = fusion_fresh_tag(fz->x, &fz->names, fz->next_tag);
  fz->next_tag = tag + 1;
  char fname[64], cname[64];
  snprintf(fname, sizeof fname, "fusion.%d", tag);
  snprintf(cname, sizeof cname, "fused_computation.%d", tag);
  Computation *fc = fusion_ctx_new_computation(fz->x, fz->c, cname);
  Instr **uniq = arena_array(a, (size_t)C->noperands, sizeof(Instr *));
  Instr **mapped = arena_array(a, (size_t)C->noperands, sizeof(Instr *));
  if (!fc || !uniq || !mapped) return cxla_oom();
  int nuniq = 0;
  for (int k = 0; k < C->noperands; k++) {
    int at = -1;
    for (int q = 0; q < nuniq; q++)
      if (uniq[q] == C->operands[k]) at = q;
    if (at < 0) {
      uniq[nuniq] = C->operands[k];
      if (!fusion_add_param(fc, C->operands[k]->shape)) return cxla_oom();
      at = nuniq++;
    }
    mapped[k] = fc->params[at];
  }
  Instr *root = instr_clone(fc, C, C->noperands, mapped, C->name);
  Shape *shape = shape_clone(a, C->shape);
  Computation **called = arena_array(a, 1, sizeof(Computation *));
  if (!root || !shape || !called) return cxla_oom();
  root->scratch = C;
  fc->root = root;
  Instr *f = comp_add_instr(fz->c, OP_FUSION, shape, nuniq, uniq, fname);
  if (!f || !namemap_set(&fz->names, f->name, f)) return cxla_oom();
  called[0] = fc;
  f->ncalled = 1;
  f->called = called;
  f->attrs = A_FUSION_KIND;
  f->fusion_kind = fusion_kind_of(fc);
  f->scratch = &kOurs;
  const char *meta = instr_raw(C, "metadata");
  if (meta) TRY(instr_add_raw(m, f, "metadata", meta));
  track(fz, f, 1);
  replace_uses(fz, C, f);
  C->scratch = &kDead;
  track(fz, C, -1);
  *out = f;
  return fz->oom ? cxla_oom() : NULL;
}

/* The clone of original instruction x already inside fc, if any. */
static Instr *clone_of(const Computation *fc, const Instr *x) {
  for (int i = 0; i < fc->ninstrs; i++)
    if (fc->instrs[i]->scratch == x && fc->instrs[i]->op != OP_PARAMETER) return fc->instrs[i];
  return NULL;
}

/* Moves (or copies, if it has other users) producer operand j of our fusion
 * f into its fused computation. */
static cxla_status fuse_into(Fuser *fz, Instr *f, int j) {
  Computation *fc = f->called[0];
  Instr *p = f->operands[j];
  Instr *pj = fc->params[j];
  Instr **ops = arena_array(&fz->m->arena, (size_t)p->noperands + 1, sizeof(Instr *));
  if (!ops) return cxla_oom();
  track(fz, f, -1); /* f's operands change: its uses are counted again below */
  /* p's operands that are new to f take p's place in the operand list, so
   * the fusion reads its inputs in program order. */
  int at = j + 1;
  for (int k = 0; k < p->noperands; k++) {
    Instr *x = p->operands[k];
    Instr *have = clone_of(fc, x);
    int idx = fusion_operand_index(f, x);
    if (have) ops[k] = have;
    else if (idx >= 0) ops[k] = fc->params[idx];
    else if (!(ops[k] = fusion_insert_operand(f, x, at++))) return cxla_oom();
  }
  const char *name = fusion_unique_name(fc, p->name);
  Instr *pc = name ? instr_clone(fc, p, p->noperands, ops, name) : NULL;
  if (!pc) return cxla_oom();
  pc->scratch = p;
  comp_replace_uses(fc, pj, pc);
  fusion_remove_param(f, fc, j);
  TRY(comp_sort(fc));
  f->fusion_kind = fusion_kind_of(fc);
  track(fz, f, 1);
  int users, slots;
  count_uses(fz, p, &users, &slots);
  if (users == 0) {
    p->scratch = &kDead;
    track(fz, p, -1);
  }
  return fz->oom ? cxla_oom() : NULL;
}

/* Lets consumer C absorb producers until no rule allows more. */
static cxla_status grow(Fuser *fz, Instr *C, bool *changed) {
  for (bool again = true; again;) {
    again = false;
    for (int j = 0; j < C->noperands; j++) {
      if (!should_fuse(fz, C, j)) continue;
      if (!is_ours(C)) {
        Instr *p = C->operands[j], *f = NULL;
        TRY(wrap(fz, C, &f));
        C = f;
        j = fusion_operand_index(f, p);
      }
      TRY(fuse_into(fz, C, j));
      *changed = again = true;
      break;
    }
  }
  return NULL;
}

/* Drops dead instructions and restores the post order. */
static cxla_status compact(Computation *c) {
  int j = 0;
  for (int i = 0; i < c->ninstrs; i++)
    if (!is_dead(c->instrs[i])) c->instrs[j++] = c->instrs[i];
  c->ninstrs = j;
  return comp_sort(c);
}

/* Names the parameters of the fusions made in c and clears the markers. */
static cxla_status finish(Fuser *fz) {
  Computation *c = fz->c;
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *f = c->instrs[i];
    if (is_ours(f)) {
      Computation *fc = f->called[0];
      const char *tag = strrchr(fc->name, '.');
      TRY(fusion_finish(fc, tag ? tag + 1 : "0"));
      for (int k = 0; k < fc->ninstrs; k++) fc->instrs[k]->scratch = NULL;
    }
    f->scratch = NULL;
  }
  return NULL;
}

/* Counts uses, names and control dependencies of c afresh (at the start
 * of each round, when c holds live instructions only). */
static cxla_status index_computation(Fuser *fz) {
  Computation *c = fz->c;
  uses_reset(fz);
  namemap_free(&fz->names);
  cxla_free(fz->ctrl);
  fz->ctrl = NULL;
  fz->nctrl = 0;
  TRY(fusion_name_index(c, &fz->names));
  TRY(fusion_control_flags(c, &fz->ctrl));
  fz->nctrl = c->ninstrs;
  for (int i = 0; i < c->ninstrs; i++) track(fz, c->instrs[i], 1);
  return fz->oom ? cxla_oom() : NULL;
}

static cxla_status fuse_computation(Fuser *fz, bool *changed) {
  Computation *c = fz->c;
  for (int i = 0; i < c->ninstrs; i++) c->instrs[i]->scratch = NULL;
  cxla_status s = NULL;
  bool any = true;
  for (int round = 0; round < 4 && any && !s; round++) {
    any = false;
    s = index_computation(fz);
    int n = c->ninstrs;
    Instr **order = s ? NULL : cxla_malloc((size_t)n * sizeof(Instr *) + 1);
    if (!s && !order) s = cxla_oom();
    if (order) memcpy(order, c->instrs, (size_t)n * sizeof(Instr *));
    for (int i = n - 1; i >= 0 && !s; i--)
      if (consumer_ok(fz, order[i])) s = grow(fz, order[i], &any);
    cxla_free(order);
    if (!s) s = compact(c);
    *changed |= any;
  }
  if (!s) s = finish(fz);
  return s;
}

static void fuser_free(Fuser *fz) {
  uses_reset(fz);
  cxla_free(fz->uses);
  cxla_free(fz->stamp);
  cxla_free(fz->ctrl);
  namemap_free(&fz->names);
}

cxla_status pass_fusion(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  FusionCtx x;
  TRY(fusion_ctx_init(&x, m));
  /* Snapshot: the pass adds fused computations as it goes. */
  int n = m->ncomps;
  Computation **comps = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
  if (!comps) {
    fusion_ctx_free(&x);
    return cxla_oom();
  }
  memcpy(comps, m->comps, (size_t)n * sizeof(Computation *));
  cxla_status s = NULL;
  Fuser fz = {.m = m, .x = &x};
  for (int i = 0; i < n && !s; i++) {
    if (!fusion_ctx_is_context(&x, comps[i])) continue;
    fz.c = comps[i];
    fz.next_tag = 1;
    s = fuse_computation(&fz, changed);
  }
  fuser_free(&fz);
  cxla_free(comps);
  if (s) {
    fusion_ctx_free(&x);
    return s;
  }
  return fusion_ctx_finish(&x);
}
