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
 * Cost rules, XLA:CPU's (CpuInstructionFusion, InstructionFusion):
 *  - duplication: an expensive producer (exp, log, tanh, divide, dot,
 *    reduce, gather, ...) with other users is never copied; a cheap one is
 *    when that adds no memory traffic (its operands hold no more elements
 *    than its result: broadcast of a scalar, iota, a constant) or when all
 *    its users can take it in (XLA's ComputeGloballyUnfusible, decided per
 *    round in mark_no_dup), so it is never materialized; and then into
 *    at most FUSION_MAX_COPIES fusions (cxla's bound on duplicated code:
 *    copies of copies would otherwise grow a chain whose every value a
 *    reduce reads into O(N^2) fused instructions);
 *  - reuse: an expensive producer is never fused into a consumer that
 *    reads its elements more than once (through a broadcast, a gather, a
 *    dot);
 *  - code duplication: an elemental emitter evaluates a fused instruction
 *    once per distinct indexing of it (XLA's FusionNodeIndexingEvaluation,
 *    computed in one sweep by analyze); a producer that would be evaluated
 *    more than FUSION_MAX_EVALUATIONS times stays out, except broadcasts
 *    (materializing one costs more), and loops/branches (reduce, pad,
 *    concatenate, dynamic-update-slice) are fused only where evaluated
 *    once;
 *  - size: a fused computation stops growing at FUSION_MAX_INSTRS
 *    instructions (a bound on code size far above what the rules above
 *    allow for real programs: an erf polynomial or an unrolled threefry is
 *    one fusion), FUSION_MAX_PARAMS parameters and FUSION_MAX_WEIGHT of
 *    code weight (fusion_code_weight: transcendental functions weigh
 *    more; a long chain of them becomes several kernels).
 * A producer whose users all took a copy of it dies, and so do its
 * operands that it was the last user of.
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

/* Uses of one instruction of the computation being fused, kept up to date
 * as the pass edits operands: exact counts over live instructions, and a
 * list of users that may hold stale entries (users that died or stopped
 * using it since), which readers skip. */
typedef struct Uses {
  int users, slots; /* distinct live users; operand slots they use it in */
  int n, cap;
  Instr **list;
  int near; /* as a user: the operand slot replace_uses last rewrote */
} Uses;

/* What the decisions read about one fused computation, computed in one
 * sweep (see analyze) and kept until the computation changes. Arrays are
 * indexed by instruction id in the fused computation. */
typedef struct Analysis {
  const Computation *fc; /* NULL: nothing cached */
  int n, cap;   /* instructions analyzed; room in the arrays */
  bool *reused; /* its elements are read more than once on the way to the root */
  bool *ew;     /* every use up to the root is elementwise with its dims */
  int *count;   /* evaluations by an elemental emitter (XLA's FusionNodeIndexingEvaluation) */
  int *iset;    /* n * FUSION_INDEXING_CAP indexing users (ids; -1: the fusion itself) */
  int *niset;   /* entries used; FUSION_INDEXING_CAP + 1: overflowed */
} Analysis;

typedef struct Fuser {
  HloModule *m;
  FusionCtx *x;
  Computation *c; /* the computation being fused */
  int next_tag;   /* fusion.N: the search for a free N starts here */
  NameMap names;  /* c's instruction names, dead ones included */
  Uses *uses;     /* by instruction id (instructions added later get higher ids) */
  int *stamp;     /* by id: scratch for counting distinct operands */
  int nuses, stamp_now;
  /* The operands of `marked`, the consumer being grown, stamped in
   * opmark (by id) with opmark_now, and how many distinct ones it has: a
   * candidate's parameter count is then linear in its own operands. */
  int *opmark, opmark_now, marked_distinct;
  int *copies; /* by id: fusions it was fused into (kept across rounds) */
  const Instr *marked;
  unsigned char *ctrl; /* by id, for ids below nctrl: in a control dependency */
  int nctrl;
  unsigned char *no_dup; /* by id, for ids below nctrl: XLA's globally unfusible */
  Analysis an;           /* of the fused computation last asked about */
  /* The fused computation being grown from a plain instruction, while it
   * is uniform: elementwise ops of the root's dims and broadcasts of
   * scalars only, so every evaluation count is 1 and nothing of the
   * root's dims is reused (no sweep needed to know). NULL: not known. */
  const Computation *uniform;
  /* Names of the instructions of names_fc, the fused computation being
   * grown (new names are found without a scan over it). */
  const Computation *names_fc;
  NameMap fc_names;
  /* Clones inside clones_fc, the fused computation being grown: for an
   * instruction of c with id i, clone[i] when clone_gen[i] == gen (found
   * without a scan over the fused computation). */
  const Computation *clones_fc;
  Instr **clone;
  unsigned *clone_gen;
  unsigned gen;
  int nclone;
  /* Scratch for place_clone, by id in the fused computation. */
  unsigned *sort_mark;
  unsigned sort_now;
  Instr **sort_buf, **sort_stack;
  int *sort_next;
  int nsort;
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
  int *om = st ? cxla_realloc(fz->opmark, (size_t)nc * sizeof *om) : NULL;
  if (om) fz->opmark = om;
  int *dp = om ? cxla_realloc(fz->copies, (size_t)nc * sizeof *dp) : NULL;
  if (dp) fz->copies = dp;
  if (!u || !st || !om || !dp) return false;
  memset(dp + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *dp);
  memset(u + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *u);
  memset(st + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *st);
  memset(om + fz->nuses, 0, (size_t)(nc - fz->nuses) * sizeof *om);
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
    /* A fusion that grows is untracked and tracked again per merge: its
     * entry is usually still the last one (no stale duplicates pile up). */
    if (sign < 0 || (u->n > 0 && u->list[u->n - 1] == U)) continue;
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
    if (n) memcpy(list, u->list, (size_t)n * sizeof(Instr *));
    for (int i = 0; i < n; i++) {
      Instr *in = list[i];
      if (in == to || is_dead(in)) continue;
      /* One pass over in's operands (not a recount: a tuple with
       * thousands of operands may be rewritten once per operand). A wide
       * user that is from's only one, where `to` has no users yet (so
       * `in` does not read it), is searched from where its last
       * rewrite was (fusion_replace_near: a root tuple of T operands
       * whose producers are wrapped one by one then costs T in all, not
       * T^2; at 10^5 instructions with a tuple of 10^4 the scans took
       * 45 ms of 1.9 s of optimizing) */
      int nrep = 0;
      bool had_to = false;
      const Uses *fu = &fz->uses[from->id];
      bool to_unread = !tracked(fz, to) || to->id >= fz->nuses || fz->uses[to->id].users == 0;
      if (in->noperands > 16 && fu->users == 1 && fu->slots > 0 && to_unread && tracked(fz, in) &&
          in->id < fz->nuses) {
        nrep = fusion_replace_near(in, from, to, fu->slots, &fz->uses[in->id].near);
      } else {
        for (int k = 0; k < in->noperands; k++) {
          had_to |= in->operands[k] == to;
          if (in->operands[k] == from) {
            in->operands[k] = to;
            nrep++;
          }
        }
      }
      for (int k = 0; k < in->ncontrol_preds; k++)
        if (in->control_preds[k] == from) in->control_preds[k] = to;
      if (!nrep) continue; /* a stale entry, or one already rewritten */
      fz->uses[from->id].users--;
      fz->uses[from->id].slots -= nrep;
      if (tracked(fz, to) && reserve_uses(fz, fz->c->ninstrs)) {
        Uses *t = &fz->uses[to->id];
        t->slots += nrep;
        if (!had_to) {
          t->users++;
          if (t->n == t->cap) {
            int nc = t->cap ? t->cap * 2 : 4;
            Instr **l = cxla_realloc(t->list, (size_t)nc * sizeof *l);
            if (!l) {
              fz->oom = true;
              continue;
            }
            t->list = l;
            t->cap = nc;
          }
          t->list[t->n++] = in;
        }
      } else {
        fz->oom |= tracked(fz, to);
      }
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
  case OP_REDUCE:
    return k >= in->noperands / 2; /* the init values */
  case OP_PAD: case OP_DYNAMIC_SLICE:
    return k > 0; /* the scalar padding value, start indices */
  case OP_DYNAMIC_UPDATE_SLICE:
    return k > 1;
  case OP_BROADCAST:
    return shape_elems(in->shape) > shape_elems(in->operands[0]->shape);
  default:
    return true; /* gather, dot, convolution, ... */
  }
}

/* minor_to_major[k] of s (row-major without a layout). */
static int64_t m2m(const Shape *s, int k) {
  return s->has_layout && s->minor_to_major ? s->minor_to_major[k] : s->rank - 1 - k;
}

/* Whether user u reads its operand v at u's own index (XLA: a transpose,
 * or the same shape and layout, element type aside). */
static bool keeps_index(const Instr *u, const Instr *v) {
  if (u->op == OP_TRANSPOSE) return true;
  if (!shape_same_dims(u->shape, v->shape)) return false;
  for (int k = 0; k < u->shape->rank; k++)
    if (m2m(u->shape, k) != m2m(v->shape, k)) return false;
  return true;
}

static void analysis_free(Analysis *an) {
  cxla_free(an->reused);
  cxla_free(an->ew);
  cxla_free(an->count);
  cxla_free(an->iset);
  cxla_free(an->niset);
  memset(an, 0, sizeof *an);
}

/* Adds indexing user x to v's set (past the cap the set only says that it
 * overflowed: the count is then above FUSION_MAX_EVALUATIONS anyway). */
static void iset_add(Analysis *an, int v, int x) {
  int *set = an->iset + (size_t)v * FUSION_INDEXING_CAP;
  if (an->niset[v] > FUSION_INDEXING_CAP) return;
  for (int i = 0; i < an->niset[v]; i++)
    if (set[i] == x) return;
  if (an->niset[v] == FUSION_INDEXING_CAP) {
    an->niset[v]++;
    return;
  }
  set[an->niset[v]++] = x;
}

/* One sweep over fc, users before operands (fc is in post order), giving
 * for every fused instruction: whether its elements are read more than
 * once on the way to the root; whether every use up to the root is
 * elementwise with its dims; and how many times an elemental emitter
 * evaluates it: the sum of the counts of its indexing users, where a user
 * that keeps the index passes on its own indexing users and any other
 * user is one itself (XLA's FusionNodeIndexingEvaluation). Linear in fc's
 * size; cached until fc changes (fuse_into drops the cache). */
static cxla_status analyze(Analysis *an, const Computation *fc) {
  if (an->fc == fc) return NULL;
  an->fc = NULL;
  int n = fc->ninstrs;
  if (n > an->cap) { /* grown geometrically, reused across analyses */
    int cap = an->cap ? an->cap : 64;
    while (cap < n) cap *= 2;
    cxla_free(an->reused);
    cxla_free(an->ew);
    cxla_free(an->count);
    cxla_free(an->iset);
    cxla_free(an->niset);
    an->reused = cxla_malloc((size_t)cap * sizeof(bool));
    an->ew = cxla_malloc((size_t)cap * sizeof(bool));
    an->count = cxla_malloc((size_t)cap * sizeof(int));
    an->iset = cxla_malloc((size_t)cap * FUSION_INDEXING_CAP * sizeof(int));
    an->niset = cxla_malloc((size_t)cap * sizeof(int));
    an->cap = cap;
    if (!an->reused || !an->ew || !an->count || !an->iset || !an->niset) {
      analysis_free(an);
      return cxla_oom();
    }
  }
  an->n = n;
  memset(an->reused, 0, (size_t)n * sizeof(bool));
  memset(an->count, 0, (size_t)n * sizeof(int));
  memset(an->niset, 0, (size_t)n * sizeof(int));
  for (int i = 0; i < n; i++) an->ew[i] = true;
  if (fc->root) iset_add(an, fc->root->id, -1);
  for (int i = n - 1; i >= 0; i--) {
    const Instr *u = fc->instrs[i];
    const int *set = an->iset + (size_t)i * FUSION_INDEXING_CAP;
    bool over = an->niset[i] > FUSION_INDEXING_CAP;
    int total = 0;
    for (int k = 0; k < an->niset[i] && !over; k++) total += set[k] < 0 ? 1 : an->count[set[k]];
    an->count[i] = over || total > FUSION_MAX_EVALUATIONS ? FUSION_MAX_EVALUATIONS + 1 : total;
    bool ew_user = fusion_is_elementwise(u) && an->ew[i];
    for (int k = 0; k < u->noperands; k++) {
      const Instr *o = u->operands[k];
      int v = o->id;
      if (v < 0 || v >= n || fc->instrs[v] != o) continue;
      if (an->reused[i] || op_reuses_operand(u, k)) an->reused[v] = true;
      if (!ew_user || !shape_same_dims(u->shape, o->shape)) an->ew[v] = false;
      if (!keeps_index(u, o)) iset_add(an, v, i);
      else if (over) an->niset[v] = FUSION_INDEXING_CAP + 1;
      else
        for (int q = 0; q < an->niset[i]; q++) iset_add(an, v, set[q]);
    }
  }
  an->fc = fc;
  return NULL;
}

/* Whether consumer C reads elements of its operand j more than once. */
static cxla_status consumer_reuses(Fuser *fz, const Instr *C, int j, bool *out) {
  *out = false;
  if (is_ours(C)) {
    const Computation *fc = C->called[0];
    TRY(analyze(&fz->an, fc));
    *out = fz->an.reused[fc->params[j]->id];
    return NULL;
  }
  for (int k = 0; k < C->noperands; k++)
    if (C->operands[k] == C->operands[j] && op_reuses_operand(C, k)) *out = true;
  return NULL;
}

/* ---- the decision ---- */

/* A producer with other users may be copied into this consumer when that
 * costs no extra memory traffic: cheap, and its distinct operands hold no
 * more elements than its result. */
static int64_t distinct_operand_elems(const Instr *p) {
  int64_t in = 0;
  for (int k = 0; k < p->noperands; k++) {
    bool seen = false;
    for (int q = 0; q < k; q++) seen |= p->operands[q] == p->operands[k];
    if (!seen) in += shape_elems(p->operands[k]->shape);
  }
  return in;
}

static bool duplicable(const Instr *p) {
  if (fusion_is_expensive(p) || fusion_is_output_head(p)) return false;
  return distinct_operand_elems(p) <= shape_elems(p->shape);
}

/* Whether copies of duplicable p are unbounded: it expands its operands
 * (a broadcast, an iota, a constant). One of as many elements as it reads
 * (x * x, a sine) is copied into at most FUSION_MAX_COPIES fusions like
 * any cheap producer: each copy makes p's operand an operand of one more
 * fusion, free to copy in turn, and a chain whose every value a reduction
 * also reads (x_i+1 = sin(x_i * x_i), r_i = sum(x_i * x_i)) was copied
 * whole into every reduction's fusion, O(N^2) instructions (gen_scale's
 * `comps`, 800 instructions: 12 MB of LLVM IR, 10 s of LLVM). */
static bool copies_unbounded(const Instr *p) {
  return duplicable(p) && distinct_operand_elems(p) < shape_elems(p->shape);
}

/* May instruction C take producers at all? */
static bool consumer_ok(const Fuser *fz, const Instr *C) {
  if (is_dead(C) || C->noperands == 0 || in_control_dep(fz, C)) return false;
  if (C->op == OP_FUSION) return is_ours(C);
  if (!fusion_is_loop_fusible(C)) return false;
  /* A producer copied into all its users is left without any: dead. */
  int users, slots;
  count_uses(fz, C, &users, &slots);
  return users > 0;
}

/* Parameters the consumer would have after fusing its operand p: the
 * consumer's distinct operands other than p, plus p's operands that are
 * new to it. Counted with stamps, linear in the operand counts. */
static int params_after(Fuser *fz, const Instr *C, const Instr *p) {
  bool all = reserve_uses(fz, fz->c->ninstrs) && tracked(fz, p);
  for (int k = 0; k < p->noperands && all; k++) all = tracked(fz, p->operands[k]);
  int n = 0;
  if (all && fz->marked == C) { /* C's operands are stamped already */
    int now = ++fz->stamp_now;
    n = fz->marked_distinct - (fz->opmark[p->id] == fz->opmark_now);
    for (int k = 0; k < p->noperands; k++) {
      int v = p->operands[k]->id;
      n += fz->stamp[v] != now && fz->opmark[v] != fz->opmark_now && v != p->id;
      fz->stamp[v] = now;
    }
    return n;
  }
  for (int k = 0; k < C->noperands && all; k++) all = tracked(fz, C->operands[k]);
  if (all) {
    int now = ++fz->stamp_now;
    fz->stamp[p->id] = now;
    for (int k = 0; k < C->noperands; k++) {
      int v = C->operands[k]->id;
      n += fz->stamp[v] != now;
      fz->stamp[v] = now;
    }
    for (int k = 0; k < p->noperands; k++) {
      int v = p->operands[k]->id;
      n += fz->stamp[v] != now;
      fz->stamp[v] = now;
    }
    return n;
  }
  for (int k = 0; k < C->noperands; k++) {
    bool seen = C->operands[k] == p;
    for (int q = 0; q < k && !seen; q++) seen = C->operands[q] == C->operands[k];
    n += !seen;
  }
  for (int k = 0; k < p->noperands; k++) {
    bool seen = false;
    for (int q = 0; q < C->noperands && !seen; q++) seen = C->operands[q] == p->operands[k];
    for (int q = 0; q < k && !seen; q++) seen = p->operands[q] == p->operands[k];
    n += !seen;
  }
  return n;
}

/* Stamps C's operands for params_after (C stays marked until it changes:
 * grow marks it again after every merge). */
static void mark_operands(Fuser *fz, const Instr *C) {
  fz->marked = NULL;
  if (!reserve_uses(fz, fz->c->ninstrs)) return;
  for (int k = 0; k < C->noperands; k++)
    if (!tracked(fz, C->operands[k])) return;
  int now = ++fz->opmark_now, n = 0;
  for (int k = 0; k < C->noperands; k++) {
    int v = C->operands[k]->id;
    n += fz->opmark[v] != now;
    fz->opmark[v] = now;
  }
  fz->marked_distinct = n;
  fz->marked = C;
}

/* Output fusion: dot/convolution p, used once, by C elementwise with p's
 * shape all the way to C's result. */
static cxla_status output_fusible(Fuser *fz, const Instr *C, int j, const Instr *p, bool *out) {
  int users, slots;
  count_uses(fz, p, &users, &slots);
  *out = false;
  if (users != 1 || slots != 1 || type_is_complex(p->shape->type)) return NULL;
  if (!is_ours(C)) {
    *out = fusion_is_elementwise(C) && shape_same_dims(C->shape, p->shape);
    return NULL;
  }
  const Computation *fc = C->called[0];
  if (C->fusion_kind == FUSION_OUTPUT) return NULL; /* one head per fusion */
  if (!fc->root || fc->root->op == OP_TUPLE) return NULL;
  TRY(analyze(&fz->an, fc));
  *out = fz->an.ew[fc->params[j]->id];
  return NULL;
}

/* In an output fusion, whether parameter j feeds the dot/convolution. */
static bool feeds_output_head(const Instr *C, int j) {
  if (!is_ours(C) || C->fusion_kind != FUSION_OUTPUT) return false;
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

/* Ops after which an elemental emitter cannot reuse values computed
 * before (they open loops or branches): fused only where evaluated once
 * (XLA's ElementalIrEmitter::OpInvalidatesCache). */
static bool invalidates_cache(const Instr *in) {
  switch (in->op) {
  case OP_CONCATENATE: case OP_DOT: case OP_DYNAMIC_UPDATE_SLICE: case OP_PAD: case OP_REDUCE:
  case OP_REDUCE_WINDOW:
    return true;
  default:
    return false;
  }
}

/* Whether consumer C reduces the results of reduce p further (a loss
 * summing per-row sums to a scalar): C's result has fewer elements than
 * p's. Such a p stays out of C when its input is large: alone, p (with
 * what it absorbs) is a row kernel, vectorized and split over threads;
 * fused, the whole computes a few elements from everything and runs on
 * one thread, each sum in order (XLA:CPU never fuses a reduce into a
 * consumer). Reductions over the same rows (softmax's max then sum) keep
 * C at least as large as p and fuse as before. */
static bool reduces_further(const Instr *C, const Instr *p) {
  if (C->shape->type == T_TUPLE || p->shape->type == T_TUPLE || p->noperands < 1) return false;
  if (shape_elems(p->operands[0]->shape) < FUSION_MIN_SPLIT_REDUCE) return false;
  return shape_elems(C->shape) < shape_elems(p->shape);
}

static cxla_status should_fuse(Fuser *fz, const Instr *C, int j, bool *out) {
  const Instr *p = C->operands[j];
  *out = false;
  if (p->parent != fz->c || is_dead(p) || p->op == OP_PARAMETER) return NULL;
  if (in_control_dep(fz, p)) return NULL;
  int size = is_ours(C) ? fusion_size(C->called[0]) : 1;
  if (size + 1 > FUSION_MAX_INSTRS || params_after(fz, C, p) > FUSION_MAX_PARAMS) return NULL;
  /* the weight is summed only where it could pass the bound (no op weighs
   * more than 24) */
  if ((size + 1) * 24 > FUSION_MAX_WEIGHT && fusion_code_weight(C) + fusion_code_weight(p) > FUSION_MAX_WEIGHT)
    return NULL;
  if (feeds_output_head(C, j)) return NULL;
  if (fusion_is_output_head(p)) return output_fusible(fz, C, j, p, out);
  if (p->op == OP_FUSION || !fusion_is_loop_fusible(p)) return NULL;
  if (p->op == OP_REDUCE && reduces_further(C, p)) return NULL;
  /* Scalar constants only, and only into a fusion that has real work: a
   * fusion of a constant and one op saves nothing. */
  if (p->op == OP_CONSTANT && (shape_elems(p->shape) != 1 || !is_ours(C))) return NULL;
  /* A wide concatenate becomes a deep select tree per element. */
  if (p->op == OP_CONCATENATE && p->noperands > 8) return NULL;
  int users, slots;
  count_uses(fz, p, &users, &slots);
  /* Duplication: an expensive producer never; a cheap one when that adds
   * no memory traffic (duplicable) or when it fuses into every one of its
   * users (XLA's ComputeGloballyUnfusible, marked per round in no_dup),
   * and then into at most FUSION_MAX_COPIES fusions in all. */
  bool free_copy = duplicable(p) && (copies_unbounded(p) || (tracked(fz, p) && p->id < fz->nctrl &&
                                                             fz->copies[p->id] < FUSION_MAX_COPIES));
  if (users > 1 && !free_copy &&
      (fusion_is_expensive(p) || !tracked(fz, p) || p->id >= fz->nctrl || fz->no_dup[p->id] ||
       fz->copies[p->id] >= FUSION_MAX_COPIES))
    return NULL;
  /* In a uniform fusion a value of the root's dims is read once per
   * element and evaluated once. */
  bool uniform = is_ours(C) && fz->uniform == C->called[0] &&
                 shape_same_dims(p->shape, C->called[0]->root->shape);
  bool reuses = false;
  if (fusion_is_expensive(p) && !uniform) TRY(consumer_reuses(fz, C, j, &reuses));
  if (reuses) return NULL;
  /* Code duplication (XLA's CodeDuplicationTooHigh): how many times an
   * elemental emitter would evaluate p inside the fusion. Broadcasts
   * always fuse (materializing one costs more). */
  if (is_ours(C) && p->op != OP_BROADCAST && !uniform) {
    const Computation *fc = C->called[0];
    TRY(analyze(&fz->an, fc));
    int evals = fz->an.count[fc->params[j]->id];
    if (evals > FUSION_MAX_EVALUATIONS) return NULL;
    if (invalidates_cache(p) && (evals > 1 || users > 1)) return NULL;
  }
  *out = true;
  return NULL;
}

/* XLA's globally unfusible producers (ComputeGloballyUnfusible), for one
 * round over c: a cheap producer with several users that is not
 * duplicable for free may be copied into its users only when every one of
 * them can take it in (a loop-fusible op or a fusion of ours, not the
 * root); otherwise it is computed once. Linear in c's size (the use lists
 * are fresh at the start of a round). */
static cxla_status mark_no_dup(Fuser *fz) {
  Computation *c = fz->c;
  cxla_free(fz->no_dup);
  fz->no_dup = cxla_calloc((size_t)c->ninstrs + 1, 1);
  if (!fz->no_dup) return cxla_oom();
  for (int i = 0; i < c->ninstrs && i < fz->nuses; i++) {
    const Instr *p = c->instrs[i];
    bool all = c->root != p;
    const Uses *u = &fz->uses[i];
    for (int k = 0; k < u->n && all; k++) {
      const Instr *user = u->list[k];
      all = user->noperands > 0 && !fusion_is_output_head(user) &&
            (user->op == OP_FUSION ? is_ours(user) : fusion_is_loop_fusible(user));
    }
    /* more users than copies allowed: one of them would read it from
     * memory anyway, so none takes a copy */
    fz->no_dup[i] = !all || u->users > FUSION_MAX_COPIES;
  }
  return NULL;
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
  fz->clones_fc = NULL;
  Instr *f = comp_add_instr(fz->c, OP_FUSION, shape, nuniq, uniq, fname);
  if (!f || !namemap_set(&fz->names, f->name, f)) return cxla_oom();
  called[0] = fc;
  f->ncalled = 1;
  f->called = called;
  f->attrs = A_FUSION_KIND;
  f->fusion_kind = fusion_kind_of(fc);
  f->scratch = (void *)&kOurs;
  const char *meta = instr_raw(C, "metadata");
  if (meta) TRY(instr_add_raw(m, f, "metadata", meta));
  track(fz, f, 1);
  replace_uses(fz, C, f);
  C->scratch = (void *)&kDead;
  track(fz, C, -1);
  *out = f;
  return fz->oom ? cxla_oom() : NULL;
}

static bool reserve_clones(Fuser *fz, int n) {
  if (n <= fz->nclone) return true;
  int nc = fz->nclone ? fz->nclone : 64;
  while (nc < n) nc *= 2;
  Instr **cl = cxla_realloc(fz->clone, (size_t)nc * sizeof *cl);
  if (cl) fz->clone = cl;
  unsigned *g = cl ? cxla_realloc(fz->clone_gen, (size_t)nc * sizeof *g) : NULL;
  if (g) fz->clone_gen = g;
  if (!cl || !g) return false;
  memset(g + fz->nclone, 0, (size_t)(nc - fz->nclone) * sizeof *g);
  fz->nclone = nc;
  return true;
}

/* Records pc, a clone of instruction x of c, as x's clone in clones_fc
 * (the first one in fc's order stays). */
static void note_clone(Fuser *fz, const Instr *x, Instr *pc) {
  if (!tracked(fz, x)) return;
  if (!reserve_clones(fz, fz->c->ninstrs)) {
    fz->oom = true;
    return;
  }
  if (fz->clone_gen[x->id] == fz->gen) return;
  fz->clone_gen[x->id] = fz->gen;
  fz->clone[x->id] = pc;
}

/* The clone of original instruction x already inside fc, if any. The map
 * is built by one scan when fc becomes the fused computation being grown,
 * then kept up to date by fuse_into. */
static Instr *clone_of(Fuser *fz, const Computation *fc, const Instr *x) {
  if (fz->clones_fc != fc) {
    fz->gen++;
    fz->clones_fc = fc;
    for (int i = 0; i < fc->ninstrs; i++)
      if (fc->instrs[i]->op != OP_PARAMETER && fc->instrs[i]->scratch)
        note_clone(fz, fc->instrs[i]->scratch, fc->instrs[i]);
  }
  if (!tracked(fz, x) || x->id >= fz->nclone || fz->clone_gen[x->id] != fz->gen) return NULL;
  return fz->clone[x->id];
}

static bool reserve_sort(Fuser *fz, int n) {
  if (n <= fz->nsort) return true;
  int nc = fz->nsort ? fz->nsort : 64;
  while (nc < n) nc *= 2;
  unsigned *mk = cxla_realloc(fz->sort_mark, (size_t)nc * sizeof *mk);
  if (mk) fz->sort_mark = mk;
  Instr **b = mk ? cxla_realloc(fz->sort_buf, (size_t)nc * sizeof *b) : NULL;
  if (b) fz->sort_buf = b;
  Instr **st = b ? cxla_realloc(fz->sort_stack, (size_t)nc * sizeof *st) : NULL;
  if (st) fz->sort_stack = st;
  int *nx = st ? cxla_realloc(fz->sort_next, (size_t)nc * sizeof *nx) : NULL;
  if (nx) fz->sort_next = nx;
  if (!mk || !b || !st || !nx) return false;
  memset(mk + fz->nsort, 0, (size_t)(nc - fz->nsort) * sizeof *mk);
  fz->nsort = nc;
  return true;
}

/* The end of a merge into fc, in one sweep over it: clone pc (appended
 * to fc with the new parameters it reads) takes the place of parameter j
 * of f, which leaves fc and f's list; then fc's post order is restored
 * exactly as comp_sort would restore it (its depth-first walk emits
 * everything before pc's first user in place, then pc's dependencies not
 * yet emitted, in depth-first post order, then the rest in place). Time
 * proportional to fc's size, no allocation in the steady state. */
static cxla_status place_clone(Fuser *fz, Instr *f, Computation *fc, int j, Instr *pc) {
  Instr *pj = fc->params[j];
  if (!reserve_sort(fz, fc->ninstrs)) return cxla_oom();
  int u = -1, n = 0;
  for (int i = 0; i < fc->ninstrs; i++) {
    Instr *in = fc->instrs[i];
    if (in == pj) continue;
    in->id = n;
    fc->instrs[n++] = in;
    if (in == pc) continue; /* never make pc use itself */
    for (int k = 0; k < in->noperands; k++)
      if (in->operands[k] == pj) {
        in->operands[k] = pc;
        if (u < 0) u = in->id;
      }
    for (int k = 0; k < in->ncontrol_preds; k++)
      if (in->control_preds[k] == pj) {
        in->control_preds[k] = pc;
        if (u < 0) u = in->id;
      }
  }
  fc->ninstrs = n;
  if (fc->root == pj) fc->root = pc;
  fusion_unlist_param(f, fc, j);
  if (u < 0) return comp_sort(fc); /* not the shape expected: the general sort */
  /* Marks: sort_now - 1 visiting, sort_now done. */
  fz->sort_now += 2;
  unsigned done = fz->sort_now, visiting = done - 1;
  unsigned *mark = fz->sort_mark;
  for (int i = 0; i < u; i++) mark[i] = done;
  for (int i = u; i < n; i++) mark[i] = 0;
  Instr **emit = fz->sort_buf, **stack = fz->sort_stack;
  int *next = fz->sort_next;
  int nemit = 0, sp = 0;
  stack[sp++] = pc;
  next[pc->id] = 0;
  mark[pc->id] = visiting;
  while (sp > 0) {
    Instr *in = stack[sp - 1];
    int k = next[in->id];
    if (k < in->noperands + in->ncontrol_preds) {
      next[in->id]++;
      Instr *d = k < in->noperands ? in->operands[k] : in->control_preds[k - in->noperands];
      if (d->parent != fc || d->id < 0 || d->id >= n || fc->instrs[d->id] != d) continue;
      if (mark[d->id] == visiting) return comp_sort(fc); /* a cycle: let comp_sort say so */
      if (mark[d->id] == done) continue;
      mark[d->id] = visiting;
      next[d->id] = 0;
      stack[sp++] = d;
    } else {
      mark[in->id] = done;
      emit[nemit++] = in;
      sp--;
    }
  }
  /* fc->instrs[u..n) minus what was emitted goes after the emitted ones:
   * collect it behind them in emit (nemit + rest == n - u). */
  int w = nemit;
  for (int i = u; i < n; i++)
    if (mark[i] != done) emit[w++] = fc->instrs[i];
  memcpy(fc->instrs + u, emit, (size_t)(n - u) * sizeof(Instr *));
  for (int i = u; i < n; i++) fc->instrs[i]->id = i;
  return NULL;
}

/* Whether fusing p keeps a uniform fused computation uniform. */
static bool keeps_uniform(const Instr *p, const Computation *fc) {
  if (p->op == OP_BROADCAST) return shape_elems(p->operands[0]->shape) == 1;
  if (p->op == OP_CONSTANT) return shape_elems(p->shape) == 1;
  return fusion_is_elementwise(p) && shape_same_dims(p->shape, fc->root->shape);
}

/* Marks p dead once nothing live uses it, then its operands that p was
 * the last user of (copies of them live inside fusions now), so that no
 * dead value is later wrapped into a fusion of its own. Each instruction
 * dies once. */
static cxla_status kill_if_unused(Fuser *fz, Instr *p) {
  int users, slots;
  count_uses(fz, p, &users, &slots);
  if (users) return NULL;
  p->scratch = (void *)&kDead;
  track(fz, p, -1);
  int n = 0, cap = 0;
  Instr **stack = NULL;
  for (Instr *x = p; x; x = n ? stack[--n] : NULL) {
    for (int k = 0; k < x->noperands; k++) {
      Instr *o = x->operands[k];
      if (!tracked(fz, o) || is_dead(o) || o->op == OP_PARAMETER || is_ours(o) ||
          pass_has_side_effect(o) || in_control_dep(fz, o))
        continue;
      count_uses(fz, o, &users, &slots);
      if (users) continue;
      o->scratch = (void *)&kDead;
      track(fz, o, -1);
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        Instr **grown = cxla_realloc(stack, (size_t)cap * sizeof(Instr *));
        if (!grown) {
          cxla_free(stack);
          return cxla_oom();
        }
        stack = grown;
      }
      stack[n++] = o;
    }
  }
  cxla_free(stack);
  return NULL;
}

/* Moves (or copies, if it has other users) producer operand j of our fusion
 * f into its fused computation. */
static cxla_status fuse_into(Fuser *fz, Instr *f, int j) {
  Computation *fc = f->called[0];
  Instr *p = f->operands[j];
  Instr **ops = arena_array(&fz->m->arena, (size_t)p->noperands + 1, sizeof(Instr *));
  if (!ops) return cxla_oom();
  track(fz, f, -1); /* f's operands change: its uses are counted again below */
  /* p's operands that are new to f take p's place in the operand list, so
   * the fusion reads its inputs in program order. */
  int at = j + 1;
  for (int k = 0; k < p->noperands; k++) {
    Instr *x = p->operands[k];
    Instr *have = clone_of(fz, fc, x);
    int idx = fusion_operand_index(f, x);
    if (have) ops[k] = have;
    else if (idx >= 0) ops[k] = fc->params[idx];
    else if (!(ops[k] = fusion_insert_operand(f, x, at++))) return cxla_oom();
  }
  if (fz->names_fc != fc) {
    namemap_free(&fz->fc_names);
    fz->names_fc = NULL;
    TRY(comp_index_names(fc, &fz->fc_names));
    fz->names_fc = fc;
  }
  const char *name = fusion_unique_name_in(fc, &fz->fc_names, p->name);
  Instr *pc = name ? instr_clone(fc, p, p->noperands, ops, name) : NULL;
  if (!pc || !namemap_set(&fz->fc_names, pc->name, pc)) return cxla_oom();
  pc->scratch = p;
  note_clone(fz, p, pc);
  fz->an.fc = NULL;
  TRY(place_clone(fz, f, fc, j, pc));
  /* fc gained pc and lost a parameter. */
  if (fusion_is_output_head(pc)) f->fusion_kind = FUSION_OUTPUT;
  else if (pc->op == OP_REDUCE && f->fusion_kind == FUSION_LOOP) f->fusion_kind = FUSION_INPUT;
  track(fz, f, 1);
  if (fz->uniform == fc && !keeps_uniform(p, fc)) fz->uniform = NULL;
  TRY(kill_if_unused(fz, p));
  if (tracked(fz, p) && p->id < fz->nuses) fz->copies[p->id]++;
  return fz->oom ? cxla_oom() : NULL;
}

/* Fuses operand j of C into it if the rules allow (wrapping a plain C into
 * a fusion first); *fused says whether it did. */
static cxla_status grow_step(Fuser *fz, Instr **Cp, int j, bool *fused) {
  Instr *C = *Cp;
  *fused = false;
  bool ok;
  TRY(should_fuse(fz, C, j, &ok));
  if (!ok) return NULL;
  if (!is_ours(C)) {
    Instr *p = C->operands[j], *f = NULL;
    TRY(wrap(fz, C, &f));
    fz->uniform = fusion_is_elementwise(f->called[0]->root) ? f->called[0] : NULL;
    *Cp = C = f;
    j = fusion_operand_index(f, p);
  }
  TRY(fuse_into(fz, C, j));
  *fused = true;
  return NULL;
}

/* Lets consumer C absorb producers until no rule allows more. Producers
 * are tried latest first in the post order (XLA's fusion queue does the
 * same): a value is taken in after the users it has inside the fusion, so
 * its evaluation count is final when it is decided on. */
static cxla_status grow(Fuser *fz, Instr *C, bool *changed) {
  int *order = NULL, cap = 0;
  fz->uniform = NULL;
  cxla_status s = NULL;
  for (bool again = true; again && !s;) {
    again = false;
    if (C->noperands > cap) {
      cap = C->noperands * 2;
      int *o = cxla_realloc(order, (size_t)cap * sizeof(int));
      if (!o) {
        s = cxla_oom();
        break;
      }
      order = o;
    }
    int n = 0;
    for (int j = 0; j < C->noperands; j++) {
      int at = n++;
      while (at > 0 && C->operands[order[at - 1]]->id < C->operands[j]->id) {
        order[at] = order[at - 1];
        at--;
      }
      order[at] = j;
    }
    mark_operands(fz, C);
    for (int q = 0; q < n && !again && !s; q++) {
      s = grow_step(fz, &C, order[q], &again);
      if (again) *changed = true;
    }
  }
  cxla_free(order);
  fz->marked = NULL;
  return s;
}

/* Drops dead instructions and restores the post order. */
static cxla_status compact(Fuser *fz) {
  Computation *c = fz->c;
  /* the copy counts move with their instructions (new ids) */
  Instr **live = cxla_malloc((size_t)c->ninstrs * sizeof(Instr *) + 1);
  int *count = cxla_malloc((size_t)c->ninstrs * sizeof(int) + 1);
  if (!live || !count || !reserve_uses(fz, c->ninstrs)) {
    cxla_free(live);
    cxla_free(count);
    return cxla_oom();
  }
  int j = 0;
  for (int i = 0; i < c->ninstrs; i++)
    if (!is_dead(c->instrs[i])) {
      live[j] = c->instrs[j] = c->instrs[i];
      count[j++] = fz->copies[i];
    }
  c->ninstrs = j;
  cxla_status s = comp_sort(c);
  if (!s) {
    memset(fz->copies, 0, (size_t)fz->nuses * sizeof *fz->copies);
    for (int k = 0; k < j; k++) fz->copies[live[k]->id] = count[k];
  }
  cxla_free(live);
  cxla_free(count);
  return s;
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
  fz->clones_fc = NULL; /* ids change when c is compacted */
  uses_reset(fz);
  namemap_free(&fz->names);
  cxla_free(fz->ctrl);
  fz->ctrl = NULL;
  fz->nctrl = 0;
  TRY(comp_index_names(c, &fz->names));
  TRY(fusion_control_flags(c, &fz->ctrl));
  fz->nctrl = c->ninstrs;
  for (int i = 0; i < c->ninstrs; i++) track(fz, c->instrs[i], 1);
  return fz->oom ? cxla_oom() : NULL;
}

static cxla_status fuse_computation(Fuser *fz, bool *changed) {
  Computation *c = fz->c;
  for (int i = 0; i < c->ninstrs; i++) c->instrs[i]->scratch = NULL;
  if (!reserve_uses(fz, c->ninstrs)) return cxla_oom();
  memset(fz->copies, 0, (size_t)fz->nuses * sizeof *fz->copies);
  cxla_status s = NULL;
  bool any = true;
  for (int round = 0; round < 4 && any && !s; round++) {
    any = false;
    s = index_computation(fz);
    if (!s) s = mark_no_dup(fz);
    int n = c->ninstrs;
    Instr **order = s ? NULL : cxla_malloc((size_t)n * sizeof(Instr *) + 1);
    if (!s && !order) s = cxla_oom();
    if (order) memcpy(order, c->instrs, (size_t)n * sizeof(Instr *));
    for (int i = n - 1; i >= 0 && !s; i--)
      if (consumer_ok(fz, order[i])) s = grow(fz, order[i], &any);
    cxla_free(order);
    if (!s) s = compact(fz);
    *changed |= any;
  }
  if (!s) s = finish(fz);
  return s;
}

static void fuser_free(Fuser *fz) {
  analysis_free(&fz->an);
  namemap_free(&fz->fc_names);
  cxla_free(fz->no_dup);
  cxla_free(fz->clone);
  cxla_free(fz->clone_gen);
  cxla_free(fz->sort_mark);
  cxla_free(fz->sort_buf);
  cxla_free(fz->sort_stack);
  cxla_free(fz->sort_next);
  uses_reset(fz);
  cxla_free(fz->uses);
  cxla_free(fz->stamp);
  cxla_free(fz->opmark);
  cxla_free(fz->copies);
  cxla_free(fz->ctrl);
  namemap_free(&fz->names);
}

cxla_status pass_fusion(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  FusionCtx x;
  TRY(fusion_ctx_init(&x, m));
  x.contract = !(ctx && ctx->exact);
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
