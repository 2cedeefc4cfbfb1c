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
static const char kDead, kOurs; /* sentinel addresses for Instr.scratch */

static bool is_dead(const Instr *in) { return in->scratch == (const void *)&kDead; }
static bool is_ours(const Instr *in) { return in->op == OP_FUSION && in->scratch == (const void *)&kOurs; }

typedef struct Fuser {
  HloModule *m;
  Computation *c; /* the computation being fused */
  int next_tag;   /* fusion.N: the search for a free N starts here */
} Fuser;

/* ---- uses ---- */

/* Distinct users of p among c's live instructions (the root counts as one
 * more user) and the operand slots they use it in. */
static void count_uses(const Computation *c, const Instr *p, int *users, int *slots) {
  *users = *slots = 0;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (is_dead(in)) continue;
    int n = 0;
    for (int k = 0; k < in->noperands; k++) n += in->operands[k] == p;
    if (n) {
      (*users)++;
      *slots += n;
    }
  }
  if (c->root == p) {
    (*users)++;
    (*slots)++;
  }
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
 * than once on the way to the root. */
static bool value_reused(const Computation *fc, const Instr *v, int depth) {
  if (depth > FUSION_MAX_INSTRS + FUSION_MAX_PARAMS) return true;
  for (int i = 0; i < fc->ninstrs; i++) {
    const Instr *u = fc->instrs[i];
    for (int k = 0; k < u->noperands; k++)
      if (u->operands[k] == v && (op_reuses_operand(u, k) || value_reused(fc, u, depth + 1)))
        return true;
  }
  return false;
}

/* Whether consumer C reads elements of its operand j more than once. */
static bool consumer_reuses(const Instr *C, int j) {
  if (is_ours(C)) {
    const Computation *fc = C->called[0];
    return value_reused(fc, fc->params[j], 0);
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

/* Every use of v in fc, up to the root, is elementwise with v's dims. */
static bool elementwise_to_root(const Computation *fc, const Instr *v, const Shape *dims,
                                int depth) {
  if (depth > FUSION_MAX_INSTRS + FUSION_MAX_PARAMS) return false;
  for (int i = 0; i < fc->ninstrs; i++) {
    const Instr *u = fc->instrs[i];
    bool uses = false;
    for (int k = 0; k < u->noperands; k++) uses |= u->operands[k] == v;
    if (!uses) continue;
    if (!fusion_is_elementwise(u) || !same_dims(u->shape, dims)) return false;
    if (!elementwise_to_root(fc, u, dims, depth + 1)) return false;
  }
  return true;
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
  if (is_dead(C) || C->noperands == 0 || fusion_in_control_dep(fz->c, C)) return false;
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
  count_uses(fz->c, p, &users, &slots);
  if (users != 1 || slots != 1 || type_is_complex(p->shape->type)) return false;
  if (!is_ours(C))
    return fusion_is_elementwise(C) && same_dims(C->shape, p->shape);
  const Computation *fc = C->called[0];
  if (fusion_kind_of(fc) == FUSION_OUTPUT) return false; /* one head per fusion */
  if (!fc->root || fc->root->op == OP_TUPLE) return false;
  return elementwise_to_root(fc, fc->params[j], p->shape, 0);
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
  if (fusion_in_control_dep(fz->c, p)) return false;
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
  count_uses(fz->c, p, &users, &slots);
  if (users > 1 && !duplicable(p)) return false;
  if (fusion_is_expensive(p) && consumer_reuses(C, j)) return false;
  return true;
}

/* ---- the mechanics ---- */

/* Replaces plain instruction C by a fusion instruction computing just C. */
static cxla_status wrap(Fuser *fz, Instr *C, Instr **out) {
  HloModule *m = fz->m;
  Arena *a = &m->arena;
  int tag = fusion_fresh_tag(m, fz->c, fz->next_tag);
  fz->next_tag = tag + 1;
  char fname[64], cname[64];
  snprintf(fname, sizeof fname, "fusion.%d", tag);
  snprintf(cname, sizeof cname, "fused_computation.%d", tag);
  Computation *fc = fusion_new_computation(m, fz->c, cname);
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
  if (!f) return cxla_oom();
  called[0] = fc;
  f->ncalled = 1;
  f->called = called;
  f->attrs = A_FUSION_KIND;
  f->fusion_kind = fusion_kind_of(fc);
  f->scratch = (void *)&kOurs;
  const char *meta = instr_raw(C, "metadata");
  if (meta) TRY(instr_add_raw(m, f, "metadata", meta));
  comp_replace_uses(fz->c, C, f);
  C->scratch = (void *)&kDead;
  *out = f;
  return NULL;
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
  int users, slots;
  count_uses(fz->c, p, &users, &slots);
  if (users == 0) p->scratch = (void *)&kDead;
  return NULL;
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

static cxla_status fuse_computation(Fuser *fz, bool *changed) {
  Computation *c = fz->c;
  for (int i = 0; i < c->ninstrs; i++) c->instrs[i]->scratch = NULL;
  cxla_status s = NULL;
  bool any = true;
  for (int round = 0; round < 4 && any && !s; round++) {
    any = false;
    int n = c->ninstrs;
    Instr **order = cxla_malloc((size_t)n * sizeof(Instr *) + 1);
    if (!order) return cxla_oom();
    memcpy(order, c->instrs, (size_t)n * sizeof(Instr *));
    for (int i = n - 1; i >= 0 && !s; i--)
      if (consumer_ok(fz, order[i])) s = grow(fz, order[i], &any);
    cxla_free(order);
    if (!s) s = compact(c);
    *changed |= any;
  }
  if (!s) s = finish(fz);
  return s;
}

cxla_status pass_fusion(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  /* Snapshot: the pass adds fused computations as it goes. */
  int n = m->ncomps;
  Computation **comps = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
  if (!comps) return cxla_oom();
  memcpy(comps, m->comps, (size_t)n * sizeof(Computation *));
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    if (!fusion_is_context(m, comps[i])) continue;
    Fuser fz = {m, comps[i], 1};
    s = fuse_computation(&fz, changed);
  }
  cxla_free(comps);
  return s;
}
