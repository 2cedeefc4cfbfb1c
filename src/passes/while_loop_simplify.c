/* while-loop-simplify: trip counts, zero-trip removal, full unrolling of
 * tiny loops, dead loop state removal, loop-invariant code motion and the
 * hoisting of dots over slices of invariant arrays.
 *
 * For every while instruction (in every non-fusion computation), in this
 * order, the first rule that applies fires, then the rules run again on
 * the loop that replaces it (see simplify_round for the worklist):
 *
 *  1. Trip count. A loop whose state is a tuple with an integer counter at
 *     index k is counted when, as jax.lax.fori_loop and scan emit it:
 *       - the init value of element k is a constant,
 *       - the body's root is a tuple whose element k is
 *         add(get-tuple-element(param, k), constant) (either operand order)
 *         or subtract(get-tuple-element(param, k), constant),
 *       - the condition's root is compare(get-tuple-element(param, k), B)
 *         (either operand order), B a constant or a state element that the
 *         body passes through unchanged and whose init value is constant.
 *     The count is found by running the counter in the type's own
 *     (wrapping) arithmetic, up to a limit. Anything else (a counter changed
 *     by data, a bound read from data) is "unknown" and nothing below that
 *     needs a count fires.
 *  2. A loop that runs zero times is replaced by its init value.
 *  3. A loop that runs at most kMaxUnrollTrips times, with a small body
 *     whose copies fuse at least as well as the loop (see unroll_fuses: no
 *     dot, reduction or gather over arrays, no slice at a data-dependent
 *     index; XLA:CPU itself never unrolls), is unrolled: the body is cloned
 *     once per iteration into the caller, each copy reading the previous
 *     copy's root.
 *     Rules 2 and 3 need a condition without side effects (it would run).
 *  4. Dead state: element j of the state is live if it is read after the
 *     loop, read by the condition, or needed by the body to compute a live
 *     element or a side effect (a fixpoint); the loop is rebuilt with only
 *     its live elements (new body and condition computations).
 *  5. Loop-invariant code motion: body instructions whose operands are all
 *     invariant (constants, elements the body passes through unchanged,
 *     other invariant instructions) and that are side-effect free are
 *     computed once before the loop and handed to the body as new state
 *     elements. Layout ops (bitcast, reshape, transpose, copy, broadcast,
 *     get-tuple-element, tuple, iota, slice) and ops whose result is larger
 *     than their operands are not worth a state element: they are cloned
 *     before the loop when a hoisted instruction needs them and otherwise
 *     stay in the body. Control flow (while, conditional, call), custom
 *     calls, rng and side-effecting ops never move.
 *  6. Sliced dots: a dot of an invariant operand with a slice of an
 *     invariant array at a loop-varying index (a scan's input projection)
 *     becomes the slice at that index of one dot over the whole array,
 *     computed before the loop, when the counted loop runs at least half
 *     as many trips as there are slices and that product fits in cache
 *     (see hoist_slice_dot).
 *
 * New computations are clones of the old ones (which are dropped once
 * unused), so a body shared by two loops is never changed under the other
 * loop. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"

enum {
  kMaxUnrollTrips = 8,
  kMaxUnrolledInstrs = 512, /* trips * body size */
  kTripLimit = 1 << 20,     /* counting stops here: "unknown" */
  kMaxRewritesPerLoop = 64, /* rewrites of one loop in a row (each shrinks it) */
  kMaxRounds = 64,          /* rounds over all loops (new nested loops) */
};

/* ---- small builders ---------------------------------------------------------- */

static Instr *add_tuple(Computation *c, int n, Instr *const *ops) {
  Arena *a = &c->module->arena;
  Shape **el = arena_array(a, (size_t)n + 1, sizeof(Shape *));
  if (!el) return NULL;
  for (int i = 0; i < n; i++)
    if (!(el[i] = shape_clone(a, ops[i]->shape))) return NULL;
  Shape *s = shape_new_tuple(a, n, el);
  return s ? comp_add_instr(c, OP_TUPLE, s, n, ops, NULL) : NULL;
}

/* Element j of a tuple-shaped value in c: the tuple's operand when it is a
 * tuple instruction, else a new get-tuple-element. */
static Instr *element_of(Computation *c, Instr *t, int64_t j) {
  if (t->op == OP_TUPLE && j < t->noperands) return t->operands[j];
  return eu_gte(c, t, j);
}

static bool is_gte_of(const Instr *in, const Instr *tuple, int64_t *idx) {
  if (in->op != OP_GET_TUPLE_ELEMENT || in->operands[0] != tuple) return false;
  if (idx) *idx = in->index;
  return true;
}

static bool has_side_effect(const Instr *in) {
  unsigned fl = op_info(in->op)->flags;
  if (fl & (OPF_SIDE | OPF_COLL | OPF_ASYNC)) return true;
  if (in->op == OP_CUSTOM_CALL || in->op == OP_RNG || in->op == OP_RNG_GET_AND_UPDATE_STATE)
    return true;
  for (int k = 0; k < in->ncalled && !in->retired; k++)
    if (in->called[k]->side_effects) return true; /* an inner loop that prints */
  return false;
}

static bool comp_has_side_effect(const Computation *c, int depth) {
  if (depth > 32) return true;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (has_side_effect(in)) return true;
    for (int k = 0; k < in->ncalled; k++)
      if (comp_has_side_effect(in->called[k], depth + 1)) return true;
  }
  return false;
}

/* The pieces of a while this pass can work on: a tuple state, one-parameter
 * condition and body, a tuple-instruction body root. */
typedef struct Loop {
  Instr *w;
  Computation *cond, *body;
  Instr *cparam, *bparam, *broot;
  int n; /* state elements */
} Loop;

static bool loop_of(Instr *w, Loop *l) {
  memset(l, 0, sizeof *l);
  if (w->op != OP_WHILE || w->ncalled != 2 || w->noperands != 1) return false;
  if (w->shape->type != T_TUPLE) return false;
  l->w = w;
  l->cond = w->called[0];
  l->body = w->called[1];
  if (l->cond->nparams != 1 || l->body->nparams != 1 || !l->cond->root || !l->body->root)
    return false;
  l->cparam = l->cond->params[0];
  l->bparam = l->body->params[0];
  l->broot = l->body->root;
  l->n = w->shape->ntuple;
  if (!l->cparam || !l->bparam) return false;
  if (l->broot->op != OP_TUPLE || l->broot->noperands != l->n) return false;
  return true;
}

/* Element j passes through the body unchanged. */
static bool pass_through(const Loop *l, int64_t j) {
  int64_t idx;
  return is_gte_of(l->broot->operands[j], l->bparam, &idx) && idx == j;
}

/* ---- 1. trip count ------------------------------------------------------------------ */

static bool scalar_int_constant(const Instr *in, int64_t *v) {
  if (in->op != OP_CONSTANT || !in->literal || in->literal->unknown) return false;
  if (in->shape->rank != 0 || !type_is_int(in->shape->type)) return false;
  *v = literal_get_i64(in->literal, 0);
  return true;
}

/* Wraps v to the counter type's width (two's complement). */
static int64_t wrap(int64_t v, ElemType t) {
  int bits = type_bits(t);
  if (bits >= 64) return v;
  uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
  if (type_kind(t) == TK_SINT && (u >> (bits - 1)))
    u |= ~mask;
  return (int64_t)u;
}

static bool cmp_holds(CmpDir d, int64_t a, int64_t b, bool is_unsigned) {
  if (is_unsigned) {
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    switch (d) {
    case CMP_LT: return x < y;
    case CMP_LE: return x <= y;
    case CMP_GT: return x > y;
    case CMP_GE: return x >= y;
    case CMP_EQ: return x == y;
    case CMP_NE: return x != y;
    default: return false;
    }
  }
  switch (d) {
  case CMP_LT: return a < b;
  case CMP_LE: return a <= b;
  case CMP_GT: return a > b;
  case CMP_GE: return a >= b;
  case CMP_EQ: return a == b;
  case CMP_NE: return a != b;
  default: return false;
  }
}

static CmpDir flip(CmpDir d) {
  switch (d) {
  case CMP_LT: return CMP_GT;
  case CMP_LE: return CMP_GE;
  case CMP_GT: return CMP_LT;
  case CMP_GE: return CMP_LE;
  default: return d;
  }
}

/* The constant init value of state element j, if it has one. */
static bool init_constant(const Loop *l, int64_t j, int64_t *v) {
  const Instr *init = l->w->operands[0];
  return init->op == OP_TUPLE && j < init->noperands && scalar_int_constant(init->operands[j], v);
}

/* The value of a condition operand that is constant for the whole loop. */
static bool loop_constant(const Loop *l, const Instr *in, int64_t *v) {
  int64_t j;
  if (scalar_int_constant(in, v)) return true;
  return is_gte_of(in, l->cparam, &j) && j >= 0 && j < l->n && pass_through(l, j) &&
         init_constant(l, j, v);
}

/* The trip count of w, or false if it is not a counted loop (or counts past
 * kTripLimit); *counter receives the counter's state index. */
static bool trip_count(Instr *w, int64_t *trips, int64_t *counter) {
  Loop l;
  if (!loop_of(w, &l)) return false;
  const Instr *cmp = l.cond->root;
  if (cmp->op != OP_COMPARE || cmp->shape->rank != 0) return false;
  CmpDir dir = cmp->cmp_dir;
  int64_t k, bound;
  if (is_gte_of(cmp->operands[0], l.cparam, &k) && loop_constant(&l, cmp->operands[1], &bound)) {
  } else if (is_gte_of(cmp->operands[1], l.cparam, &k) &&
             loop_constant(&l, cmp->operands[0], &bound)) {
    dir = flip(dir);
  } else {
    return false;
  }
  if (k < 0 || k >= l.n) return false;
  ElemType t = l.w->shape->tuple[k]->type;
  if (!type_is_int(t) || l.w->shape->tuple[k]->rank != 0) return false;
  bool is_unsigned = type_kind(t) == TK_UINT;
  if (cmp->cmp_type == CMPT_UNSIGNED) is_unsigned = true;
  if (cmp->cmp_type == CMPT_SIGNED) is_unsigned = false;
  /* the update: element k of the body root */
  const Instr *upd = l.broot->operands[k];
  int64_t step, j;
  if (upd->op == OP_ADD && is_gte_of(upd->operands[0], l.bparam, &j) && j == k &&
      scalar_int_constant(upd->operands[1], &step)) {
  } else if (upd->op == OP_ADD && is_gte_of(upd->operands[1], l.bparam, &j) && j == k &&
             scalar_int_constant(upd->operands[0], &step)) {
  } else if (upd->op == OP_SUBTRACT && is_gte_of(upd->operands[0], l.bparam, &j) && j == k &&
             scalar_int_constant(upd->operands[1], &step)) {
    step = wrap((int64_t)(0 - (uint64_t)step), t);
  } else {
    return false;
  }
  int64_t i;
  if (!init_constant(&l, k, &i)) return false;
  for (int64_t n = 0; n <= kTripLimit; n++) {
    if (!cmp_holds(dir, i, bound, is_unsigned)) {
      *trips = n;
      *counter = k;
      return true;
    }
    i = wrap((int64_t)((uint64_t)i + (uint64_t)step), t);
  }
  return false;
}

/* ---- users ---------------------------------------------------------------------- */

/* Who uses what in the computation c whose loops the driver rewrites: the
 * users of c's instructions when its turn started (rewrites of one loop
 * add users only to the loop's init values, which come before it, and
 * change the users of the loop itself, which are tracked for the loop
 * that replaces it: `cur`). Without it (or with control edges in c, which
 * Users does not cover) the helpers below scan c. */
typedef struct Uses {
  const Computation *c;
  Users u;
  int n0;       /* instructions covered by u (c->instrs[0..n0) do not move) */
  bool valid;
  Instr *cur;   /* the loop that replaced the one being rewritten */
  Instr **cur_users;
  int ncur, capcur;
} Uses;

/* The users of v, or -1 when unknown (the caller scans c). */
static int users_of(const Uses *x, const Instr *v, Instr *const **out) {
  if (!x || !x->valid) return -1;
  if (x->cur && v == x->cur) {
    *out = x->cur_users;
    return x->ncur;
  }
  if (v->id >= 0 && v->id < x->n0 && x->c->instrs[v->id] == v) {
    *out = x->u.list[v->id];
    return x->u.count[v->id];
  }
  return -1;
}

/* The instructions to look at for v's users: its users when known, else
 * every instruction of c (the callers check each one). Returns their count. */
static int users_or_all(const Uses *x, const Computation *c, const Instr *v, Instr *const **out) {
  int n = users_of(x, v, out);
  if (n >= 0) return n;
  *out = c->instrs;
  return c->ninstrs;
}

/* Records the users of the loop w2 that replaced the current one. */
static bool set_cur(Uses *x, Instr *w2, Instr *const *users, int n) {
  if (!x) return true;
  if (n > x->capcur) {
    Instr **nu = cxla_malloc((size_t)n * sizeof *nu);
    if (!nu) return false;
    cxla_free(x->cur_users);
    x->cur_users = nu;
    x->capcur = n;
  }
  if (n) memmove(x->cur_users, users, (size_t)n * sizeof *users);
  x->ncur = n;
  x->cur = w2;
  return true;
}

/* comp_replace_uses over the users of `from` only. */
static void replace_uses(const Uses *x, Computation *c, const Instr *from, Instr *to) {
  Instr *const *us;
  int n = users_of(x, from, &us);
  if (n < 0) {
    comp_replace_uses(c, from, to);
    return;
  }
  for (int i = 0; i < n; i++) {
    if (us[i] == to) continue;
    for (int k = 0; k < us[i]->noperands; k++)
      if (us[i]->operands[k] == from) us[i]->operands[k] = to;
  }
  if (c->root == from) c->root = to;
}

/* ---- 2./3. removal and unrolling ------------------------------------------------- */

/* Whether a body instruction computes one element (scalar bookkeeping, a
 * reduction to a scalar): the copies fold or fuse into their users. */
static bool scalar_work(const Instr *in) {
  return in->shape->type != T_TUPLE && shape_elems(in->shape) == 1 && in->ncalled <= 1 &&
         in->op != OP_WHILE && in->op != OP_CALL && in->op != OP_CONDITIONAL &&
         in->op != OP_CUSTOM_CALL;
}

/* Whether body instruction `in`, in the unrolled copies, fuses with its
 * neighbours of the same and the next iteration: elementwise and data
 * movement, and dynamic slices whose start indices `fixed` says become
 * constants once the counter is known. */
static bool fuses_across_iterations(const Instr *in, const bool *fixed) {
  unsigned f = op_info(in->op)->flags;
  if ((f & OPF_EW) && !(f & OPF_CTRL) && in->ncalled == 0) return true;
  switch (in->op) {
  case OP_BROADCAST: case OP_IOTA: case OP_RESHAPE: case OP_BITCAST: case OP_TRANSPOSE:
  case OP_SLICE: case OP_CONCATENATE: case OP_PAD: case OP_REVERSE: case OP_COPY:
  case OP_BITCAST_CONVERT:
    return true;
  case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE:
    for (int k = in->op == OP_DYNAMIC_SLICE ? 1 : 2; k < in->noperands; k++)
      if (!fixed[in->operands[k]->id]) return false;
    return true;
  default:
    return false;
  }
}

/* XLA:CPU never unrolls a loop; cxla unrolls a tiny counted loop only when
 * the copies fuse at least as well as the loop body does: every
 * instruction of the body either becomes a constant once the counter is
 * known (it reads only the counter and constants), computes one element, or fuses
 * across iterations (see above). A body with a dot, a reduction or a
 * gather over large arrays, or a slice at a data-dependent index, keeps
 * its loop: unrolled, each copy would be kernels of its own (a scan over
 * matrices, a pivoting loop). Linear in the body's size. */
static cxla_status unroll_fuses(const Loop *l, int64_t counter, bool *out) {
  Computation *b = l->body;
  comp_renumber(b);
  bool *fixed = cxla_calloc((size_t)b->ninstrs + 1, sizeof(bool));
  if (!fixed) return cxla_oom();
  *out = true;
  for (int i = 0; i < b->ninstrs && *out; i++) {
    const Instr *in = b->instrs[i];
    int64_t j;
    if (in->op == OP_PARAMETER || in->op == OP_TUPLE || in->op == OP_GET_TUPLE_ELEMENT) {
      fixed[i] = in->op == OP_GET_TUPLE_ELEMENT && is_gte_of(in, l->bparam, &j) && j == counter;
      continue;
    }
    bool all = in->ncalled == 0 && !has_side_effect(in);
    for (int k = 0; k < in->noperands && all; k++) all = fixed[in->operands[k]->id];
    fixed[i] = all;
    if (all || scalar_work(in) || fuses_across_iterations(in, fixed)) continue;
    *out = false;
  }
  cxla_free(fixed);
  return NULL;
}

/* Replaces w by `trips` copies of its body (0: by its init value). */
static cxla_status unroll(const Uses *x, Computation *c, Instr *w, int64_t trips) {
  Computation *body = w->called[1];
  comp_renumber(body);
  Instr **map = cxla_calloc((size_t)body->ninstrs + 1, sizeof(Instr *));
  Instr **ops = NULL;
  int maxops = 1;
  for (int i = 0; i < body->ninstrs; i++)
    if (body->instrs[i]->noperands > maxops) maxops = body->instrs[i]->noperands;
  ops = cxla_malloc((size_t)maxops * sizeof(Instr *));
  if (!map || !ops) {
    cxla_free(map);
    cxla_free(ops);
    return cxla_oom();
  }
  Instr *state = w->operands[0];
  cxla_status st = NULL;
  for (int64_t t = 0; t < trips && !st; t++) {
    for (int i = 0; i < body->ninstrs; i++) {
      Instr *b = body->instrs[i];
      if (b->op == OP_PARAMETER) {
        map[i] = state;
        continue;
      }
      for (int k = 0; k < b->noperands; k++) ops[k] = map[b->operands[k]->id];
      if (!(map[i] = instr_clone(c, b, b->noperands, ops, NULL))) {
        st = cxla_oom();
        break;
      }
    }
    if (!st) state = map[body->root->id];
  }
  cxla_free(map);
  cxla_free(ops);
  if (st) return st;
  replace_uses(x, c, w, state); /* the driver sorts and prunes c */
  instr_retire(w);              /* the copies have its effects */
  return NULL;
}

/* ---- shared by 4. and 5.: rebuilding a loop ---------------------------------------- */

/* Clones of a loop's condition and body with the parameter shape `ps`. The
 * clones keep the originals' instruction order, so instrs[i] of a clone
 * corresponds to instrs[i] of its original. */
/* "<name>.clone" for a computation named "<name>" or "<name>.clone[.N]"
 * (so that repeated rewrites do not grow the name). */
static void clone_name(const char *name, char *buf, size_t n) {
  const char *cut = strstr(name, ".clone");
  int len = cut ? (int)(cut - name) : (int)strlen(name);
  snprintf(buf, n, "%.*s.clone", len > 200 ? 200 : len, name);
}

static cxla_status clone_loop_comps(HloModule *m, const Loop *l, Shape *ps, Computation **nc,
                                    Computation **nb) {
  comp_renumber(l->cond);
  comp_renumber(l->body);
  char cn[256], bn[256];
  clone_name(l->cond->name, cn, sizeof cn);
  clone_name(l->body->name, bn, sizeof bn);
  *nc = comp_clone(m, l->cond, cn);
  *nb = *nc ? comp_clone(m, l->body, bn) : NULL;
  if (!*nb) return cxla_oom();
  (*nc)->params[0]->shape = ps;
  (*nb)->params[0]->shape = shape_clone(&m->arena, ps);
  if (!(*nb)->params[0]->shape) return cxla_oom();
  return NULL;
}

/* A new while in c like l->w with a new init, shape and computations. */
static Instr *new_while(Computation *c, const Loop *l, Instr *init, Computation *nc,
                        Computation *nb) {
  Instr *w2 = instr_clone(c, l->w, 1, &init, NULL);
  if (!w2) return NULL;
  if (!(w2->shape = shape_clone(&c->module->arena, init->shape))) return NULL;
  Computation **called = arena_array(&c->module->arena, 2, sizeof(Computation *));
  if (!called) return NULL;
  called[0] = nc;
  called[1] = nb;
  w2->called = called;
  return w2;
}

/* The users of w in c; false if anything but get-tuple-element uses it (or
 * it is the root, or a control predecessor). */
static bool only_gte_users(const Uses *x, const Computation *c, const Instr *w) {
  if (c->root == w) return false;
  Instr *const *us;
  int nu = users_of(x, w, &us);
  if (nu >= 0) {
    for (int i = 0; i < nu; i++)
      if (us[i]->op != OP_GET_TUPLE_ELEMENT) return false;
    return true;
  }
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->ncontrol_preds; k++)
      if (in->control_preds[k] == w) return false;
    for (int k = 0; k < in->noperands; k++)
      if (in->operands[k] == w && in->op != OP_GET_TUPLE_ELEMENT) return false;
  }
  return true;
}

/* Moves computation nc just before computation `before` in m's list, so
 * that printed modules keep callees before callers. */
static void place_before(HloModule *m, Computation *nc, const Computation *before) {
  int from = -1, to = -1;
  for (int i = 0; i < m->ncomps; i++) {
    if (m->comps[i] == nc) from = i;
    if (m->comps[i] == before) to = i;
  }
  if (from < 0 || to < 0 || from < to) return;
  memmove(&m->comps[to + 1], &m->comps[to], (size_t)(from - to) * sizeof(Computation *));
  m->comps[to] = nc;
}

/* Tidies the new loop computations; c and the module are sorted and
 * pruned by the driver once per computation and round. */
static cxla_status finish(HloModule *m, Computation *c, Computation *nc, Computation *nb) {
  TRY(comp_sort(nc));
  comp_prune(nc);
  TRY(comp_sort(nb));
  comp_prune(nb);
  place_before(m, nc, c);
  place_before(m, nb, c);
  return NULL;
}

/* ---- 4. dead state ------------------------------------------------------------------ */

/* Marks in `need` the state elements that computing `from` in a loop
 * computation reads (through get-tuple-element of param, or all of them if
 * param is used whole). `seen` is scratch sized c->ninstrs. */
static void elements_read(const Computation *c, const Instr *param, const Instr *from,
                          bool *seen, Instr **stack, bool *need, int n) {
  int sp = 0;
  if (from->id >= 0 && from->id < c->ninstrs && !seen[from->id]) {
    seen[from->id] = true;
    stack[sp++] = (Instr *)from;
  }
  while (sp > 0) {
    Instr *in = stack[--sp];
    int64_t j;
    if (is_gte_of(in, param, &j)) {
      if (j >= 0 && j < n) need[j] = true;
      continue;
    }
    if (in == param) {
      for (int i = 0; i < n; i++) need[i] = true;
      continue;
    }
    for (int k = 0; k < in->noperands + in->ncontrol_preds; k++) {
      Instr *d = k < in->noperands ? in->operands[k] : in->control_preds[k - in->noperands];
      if (d->parent == c && d->id >= 0 && d->id < c->ninstrs && !seen[d->id]) {
        seen[d->id] = true;
        stack[sp++] = d;
      }
    }
  }
}

/* Whether anything in c reads instruction g (an unused get-tuple-element
 * of a loop does not make its element live). */
static bool has_users(const Uses *x, const Computation *c, const Instr *g) {
  if (c->root == g) return true;
  Instr *const *us;
  int nu = users_of(x, g, &us);
  if (nu >= 0) return nu > 0;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++)
      if (in->operands[k] == g) return true;
    for (int k = 0; k < in->ncontrol_preds; k++)
      if (in->control_preds[k] == g) return true;
  }
  return false;
}

/* live[j] for every state element (see rule 4). */
static cxla_status live_elements(const Uses *x, const Computation *c, const Loop *l, bool *live) {
  int n = l->n, nb = l->body->ninstrs, ncd = l->cond->ninstrs;
  int big = (nb > ncd ? nb : ncd) + 1;
  bool *seen = cxla_calloc((size_t)big, sizeof(bool));
  Instr **stack = cxla_malloc((size_t)big * sizeof(Instr *));
  bool *deps = cxla_calloc((size_t)n * (size_t)n + 1, sizeof(bool)); /* deps[i*n+j] */
  bool *side = cxla_calloc((size_t)n + 1, sizeof(bool));
  if (!seen || !stack || !deps || !side) {
    cxla_free(seen);
    cxla_free(stack);
    cxla_free(deps);
    cxla_free(side);
    return cxla_oom();
  }
  comp_renumber(l->body);
  comp_renumber(l->cond);
  /* read after the loop */
  Instr *const *us;
  int nu = users_or_all(x, c, l->w, &us);
  for (int i = 0; i < nu; i++) {
    int64_t j;
    if (is_gte_of(us[i], l->w, &j) && j >= 0 && j < n && has_users(x, c, us[i])) live[j] = true;
  }
  /* read by the condition (its root and any side effects) */
  elements_read(l->cond, l->cparam, l->cond->root, seen, stack, live, n);
  for (int i = 0; i < ncd; i++)
    if (has_side_effect(l->cond->instrs[i]))
      elements_read(l->cond, l->cparam, l->cond->instrs[i], seen, stack, live, n);
  /* needed by the body's side effects */
  for (int i = 0; i < nb; i++)
    if (has_side_effect(l->body->instrs[i])) {
      memset(seen, 0, (size_t)big * sizeof(bool));
      elements_read(l->body, l->bparam, l->body->instrs[i], seen, stack, side, n);
    }
  for (int j = 0; j < n; j++) live[j] |= side[j];
  /* per element dependencies inside the body */
  for (int i = 0; i < n; i++) {
    memset(seen, 0, (size_t)big * sizeof(bool));
    elements_read(l->body, l->bparam, l->broot->operands[i], seen, stack, deps + (size_t)i * n, n);
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < n; i++)
      if (live[i])
        for (int j = 0; j < n; j++)
          if (deps[(size_t)i * n + j] && !live[j]) live[j] = grew = true;
  }
  cxla_free(seen);
  cxla_free(stack);
  cxla_free(deps);
  cxla_free(side);
  return NULL;
}

static cxla_status remove_dead_state(Uses *x, HloModule *m, Computation *c, Instr *w,
                                     bool *changed, Instr **next) {
  Loop l;
  if (!loop_of(w, &l) || !only_gte_users(x, c, w) || l.n == 0) return NULL;
  /* the parameters must be read through get-tuple-element only */
  bool *live = cxla_calloc((size_t)l.n + 1, sizeof(bool));
  if (!live) return cxla_oom();
  cxla_status st = live_elements(x, c, &l, live);
  int nlive = 0;
  for (int j = 0; j < l.n; j++) nlive += live[j];
  if (st || nlive == l.n || nlive == 0) {
    cxla_free(live);
    return st;
  }
  Arena *a = &m->arena;
  int64_t *newidx = arena_array(a, (size_t)l.n, sizeof(int64_t));
  Instr **els = arena_array(a, (size_t)nlive, sizeof(Instr *));
  Shape **shapes = arena_array(a, (size_t)nlive, sizeof(Shape *));
  if (!newidx || !els || !shapes) st = cxla_oom();
  Computation *nc = NULL, *nb = NULL;
  Instr *init = NULL, *w2 = NULL;
  if (!st) {
    for (int j = 0, q = 0; j < l.n; j++) {
      newidx[j] = live[j] ? q : -1;
      if (!live[j]) continue;
      shapes[q] = l.w->shape->tuple[j];
      if (!(els[q] = element_of(c, w->operands[0], j))) st = cxla_oom();
      q++;
    }
  }
  Shape *ps = st ? NULL : shape_new_tuple(a, nlive, shapes);
  if (!st && !ps) st = cxla_oom();
  if (!st && !(init = add_tuple(c, nlive, els))) st = cxla_oom();
  if (!st) st = clone_loop_comps(m, &l, ps, &nc, &nb);
  if (!st) {
    /* re-index the parameters' get-tuple-elements; the dead ones become
     * unreachable once the roots only name live elements */
    Computation *cs[2] = {nc, nb};
    for (int q = 0; q < 2; q++)
      for (int i = 0; i < cs[q]->ninstrs; i++) {
        Instr *in = cs[q]->instrs[i];
        int64_t j;
        if (is_gte_of(in, cs[q]->params[0], &j) && j >= 0 && j < l.n && newidx[j] >= 0)
          in->index = newidx[j];
      }
    for (int j = 0, q = 0; j < l.n; j++)
      if (live[j]) els[q++] = nb->root->operands[j];
    Instr *root = add_tuple(nb, nlive, els);
    if (!root) st = cxla_oom();
    else nb->root = root;
  }
  if (!st && !(w2 = new_while(c, &l, init, nc, nb))) st = cxla_oom();
  if (!st) {
    Instr *const *us;
    int nu = users_or_all(x, c, w, &us);
    /* the users of w2, kept in the order of c (users_of's order) */
    Instr **moved = cxla_malloc(((size_t)nu + 1) * sizeof *moved);
    int nmoved = 0;
    for (int i = 0; i < nu && moved; i++) {
      Instr *in = us[i];
      int64_t j;
      if (is_gte_of(in, w, &j) && newidx[j] >= 0) {
        in->operands[0] = w2;
        in->index = newidx[j];
        moved[nmoved++] = in;
      }
    }
    if (!moved || !set_cur(x, w2, moved, nmoved)) st = cxla_oom();
    cxla_free(moved);
    if (!st) instr_retire(w); /* w2 has its effects */
  }
  if (!st) {
    st = finish(m, c, nc, nb);
    *changed = true;
    *next = w2;
  }
  cxla_free(live);
  return st;
}

/* ---- 5. loop-invariant code motion -------------------------------------------------- */

typedef enum Inv { INV_NO, INV_STATE, INV_CONST, INV_FREE, INV_HOIST } Inv;

static int64_t bytes_of(const Shape *s) {
  if (s->type == T_TUPLE) {
    int64_t b = 0;
    for (int i = 0; i < s->ntuple; i++) b += bytes_of(s->tuple[i]);
    return b;
  }
  if (!type_is_array(s->type)) return 0;
  return shape_elems(s) * type_bytes(s->type);
}

/* Ops that are never moved out of a loop. */
static bool movable(const Instr *in) {
  if (has_side_effect(in) || in->ncontrol_preds) return false;
  switch (in->op) {
  case OP_PARAMETER: case OP_WHILE: case OP_CONDITIONAL: case OP_CALL:
  case OP_RNG_BIT_GENERATOR: case OP_INFEED: case OP_OUTFEED: case OP_AFTER_ALL:
  case OP_ADD_DEPENDENCY: case OP_OPT_BARRIER: case OP_DOMAIN:
  case OP_PARTITION_ID: case OP_REPLICA_ID:
    return false;
  default:
    return true;
  }
}

/* Invariant but not worth a state element of its own. */
static bool free_op(const Instr *in) {
  switch (in->op) {
  case OP_BITCAST: case OP_RESHAPE: case OP_TRANSPOSE: case OP_COPY: case OP_BROADCAST:
  case OP_GET_TUPLE_ELEMENT: case OP_TUPLE: case OP_IOTA: case OP_SLICE:
    return true;
  default:
    break;
  }
  int64_t in_bytes = 0;
  for (int k = 0; k < in->noperands; k++) in_bytes += bytes_of(in->operands[k]->shape);
  return bytes_of(in->shape) > in_bytes;
}

static void classify(const Loop *l, Inv *inv) {
  const Computation *b = l->body;
  for (int i = 0; i < b->ninstrs; i++) {
    const Instr *in = b->instrs[i];
    int64_t j;
    inv[i] = INV_NO;
    if (is_gte_of(in, l->bparam, &j)) {
      if (j >= 0 && j < l->n && pass_through(l, j)) inv[i] = INV_STATE;
      continue;
    }
    if (in->op == OP_CONSTANT) {
      inv[i] = INV_CONST;
      continue;
    }
    if (!movable(in)) continue;
    bool all = true;
    for (int k = 0; k < in->noperands && all; k++) {
      const Instr *op = in->operands[k];
      all = op->parent == b && inv[op->id] != INV_NO;
    }
    if (all) inv[i] = free_op(in) ? INV_FREE : INV_HOIST;
  }
}

/* frontier[i]: a hoisted instruction the body still needs (it becomes a
 * new state element); cone[i]: an invariant instruction to recreate before
 * the loop. */
static int find_frontier(const Loop *l, const Inv *inv, bool *needed, bool *frontier, bool *cone) {
  const Computation *b = l->body;
  int n = b->ninstrs, nf = 0;
  for (int i = n - 1; i >= 0; i--) {
    const Instr *in = b->instrs[i];
    bool keeps = inv[i] == INV_NO || in == b->root || (inv[i] == INV_FREE && needed[i]);
    if (in == b->root) needed[i] = true;
    if (keeps)
      for (int k = 0; k < in->noperands; k++)
        if (in->operands[k]->parent == b) needed[in->operands[k]->id] = true;
  }
  for (int i = 0; i < n; i++)
    if (inv[i] == INV_HOIST && needed[i]) {
      frontier[i] = cone[i] = true;
      nf++;
    }
  for (int i = n - 1; i >= 0; i--) {
    const Instr *in = b->instrs[i];
    if (!cone[i] || (inv[i] != INV_HOIST && inv[i] != INV_FREE)) continue;
    for (int k = 0; k < in->noperands; k++) cone[in->operands[k]->id] = true;
  }
  return nf;
}

/* Recreates the invariant cone in c; hoisted[i] is the caller's value of
 * body instruction i. */
static cxla_status build_cone(Computation *c, const Loop *l, const Inv *inv, const bool *cone,
                              Instr **hoisted) {
  const Computation *b = l->body;
  int maxops = 1;
  for (int i = 0; i < b->ninstrs; i++)
    if (cone[i] && b->instrs[i]->noperands > maxops) maxops = b->instrs[i]->noperands;
  Instr **ops = cxla_malloc((size_t)maxops * sizeof *ops);
  if (!ops) return cxla_oom();
  for (int i = 0; i < b->ninstrs; i++) {
    if (!cone[i]) continue;
    const Instr *in = b->instrs[i];
    if (inv[i] == INV_STATE) {
      hoisted[i] = element_of(c, l->w->operands[0], in->index);
    } else {
      for (int k = 0; k < in->noperands; k++) ops[k] = hoisted[in->operands[k]->id];
      hoisted[i] = instr_clone(c, in, in->noperands, ops, NULL);
    }
    if (!hoisted[i]) {
      cxla_free(ops);
      return cxla_oom();
    }
  }
  cxla_free(ops);
  return NULL;
}

/* The first steps of rebuilding loop l with nx more state elements (their
 * shapes xshapes, their init values xinit in c): the new init tuple in
 * *init and clones of the condition and body (*nc, *nb) taking the longer
 * state. The caller rewrites *nb to read the new elements, then calls
 * extend_finish. */
static cxla_status extend_begin(HloModule *m, Computation *c, const Loop *l, int nx,
                                Shape *const *xshapes, Instr *const *xinit, Instr **init,
                                Computation **nc, Computation **nb) {
  Arena *a = &m->arena;
  int total = l->n + nx;
  Instr **els = arena_array(a, (size_t)total, sizeof(Instr *));
  Shape **shapes = arena_array(a, (size_t)total, sizeof(Shape *));
  if (!els || !shapes) return cxla_oom();
  for (int j = 0; j < l->n; j++) {
    shapes[j] = l->w->shape->tuple[j];
    if (!(els[j] = element_of(c, l->w->operands[0], j))) return cxla_oom();
  }
  for (int q = 0; q < nx; q++) {
    shapes[l->n + q] = xshapes[q];
    els[l->n + q] = xinit[q];
  }
  Shape *ps = shape_new_tuple(a, total, shapes);
  if (!ps || !(*init = add_tuple(c, total, els))) return cxla_oom();
  return clone_loop_comps(m, l, ps, nc, nb);
}

/* The rest of the rebuild extend_begin started: the new body's root passes
 * the nx new elements through, a new while replaces w, whose users see its
 * first l->n elements. */
static cxla_status extend_finish(Uses *x, HloModule *m, Computation *c, const Loop *l, int nx,
                                 Instr *init, Computation *nc, Computation *nb, bool *changed,
                                 Instr **next) {
  Instr *w = l->w;
  int total = l->n + nx;
  Instr **els = arena_array(&m->arena, (size_t)total, sizeof(Instr *));
  if (!els) return cxla_oom();
  for (int j = 0; j < l->n; j++) els[j] = nb->root->operands[j];
  for (int q = l->n; q < total; q++)
    if (!(els[q] = eu_gte(nb, nb->params[0], q))) return cxla_oom();
  Instr *root = add_tuple(nb, total, els);
  Instr *w2 = root ? new_while(c, l, init, nc, nb) : NULL;
  if (!w2) return cxla_oom();
  nb->root = root;
  /* Users of the old loop see its first l->n elements. */
  if (only_gte_users(x, c, w)) {
    Instr *const *us;
    int nu = users_or_all(x, c, w, &us);
    Instr **moved = cxla_malloc(((size_t)nu + 1) * sizeof *moved);
    int nmoved = 0;
    for (int i = 0; i < nu && moved; i++)
      if (is_gte_of(us[i], w, NULL)) {
        us[i]->operands[0] = w2;
        moved[nmoved++] = us[i];
      }
    bool ok = moved && set_cur(x, w2, moved, nmoved);
    cxla_free(moved);
    if (!ok) return cxla_oom();
  } else {
    for (int j = 0; j < l->n; j++)
      if (!(els[j] = eu_gte(c, w2, j))) return cxla_oom();
    Instr *t = add_tuple(c, l->n, els);
    if (!t) return cxla_oom();
    replace_uses(x, c, w, t);
    if (x) x->valid = false; /* w2's users are new: scan from here on */
  }
  instr_retire(w); /* the new loop has its effects, either way */
  TRY(finish(m, c, nc, nb));
  *changed = true;
  *next = w2;
  return NULL;
}

static cxla_status hoist_invariants(Uses *x, HloModule *m, Computation *c, Instr *w,
                                    bool *changed, Instr **next) {
  Loop l;
  if (!loop_of(w, &l)) return NULL;
  Computation *b = l.body;
  comp_renumber(b);
  int n = b->ninstrs;
  Inv *inv = cxla_calloc((size_t)n + 1, sizeof(Inv));
  bool *flags = cxla_calloc(3 * (size_t)n + 3, sizeof(bool));
  Instr **hoisted = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  if (!inv || !flags || !hoisted) {
    cxla_free(inv);
    cxla_free(flags);
    cxla_free(hoisted);
    return cxla_oom();
  }
  bool *needed = flags, *frontier = flags + n + 1, *cone = flags + 2 * n + 2;
  classify(&l, inv);
  int nf = find_frontier(&l, inv, needed, frontier, cone);
  cxla_status st = NULL;
  if (nf == 0) goto out;
  Arena *a = &m->arena;
  Instr **xinit = arena_array(a, (size_t)nf, sizeof(Instr *));
  Shape **xshapes = arena_array(a, (size_t)nf, sizeof(Shape *));
  if (!xinit || !xshapes) {
    st = cxla_oom();
    goto out;
  }
  if ((st = build_cone(c, &l, inv, cone, hoisted))) goto out;
  for (int i = 0, q = 0; i < n; i++)
    if (frontier[i]) {
      xshapes[q] = b->instrs[i]->shape;
      xinit[q++] = hoisted[i];
    }
  Instr *init = NULL;
  Computation *nc = NULL, *nb = NULL;
  if ((st = extend_begin(m, c, &l, nf, xshapes, xinit, &init, &nc, &nb))) goto out;
  /* In the new body each frontier instruction becomes a read of its new
   * state element. */
  for (int i = 0, q = l.n; i < n; i++) {
    if (!frontier[i]) continue;
    Instr *g = eu_gte(nb, nb->params[0], q++);
    if (!g) {
      st = cxla_oom();
      goto out;
    }
    comp_replace_uses(nb, nb->instrs[i], g);
  }
  st = extend_finish(x, m, c, &l, nf, init, nc, nb, changed, next);
out:
  cxla_free(inv);
  cxla_free(flags);
  cxla_free(hoisted);
  return st;
}

/* ---- 6. dots of slices of a loop-invariant array ----------------------------------- */

/* The hoisted product's size limit: the body reads one slice of it per
 * trip, so a product larger than the caches comes back from memory every
 * trip, which costs about what the one large dot saves (lstm_256's 32 MiB
 * product: 40 -> 42 ms; rnn_scan_100's 100 KiB one: 150 -> 140 us). */
enum { kMaxSliceDotBytes = 1 << 22, kMaxSliceDotRank = 64 };

/* A dot in the body one of whose operands is a slice of a loop-invariant
 * array X at a loop-varying index (a dynamic-slice of size 1 along one
 * dimension d of X, whole along the others, maybe reshaped to drop that
 * unit dimension), the other operand invariant: a scan's input
 * projection, x[i] @ W. It is the slice at the same index of the product
 * of all of X with W, computed once before the loop as one large dot
 * (which runs far faster than trip-count small ones) and handed to the
 * body as a new state element that the body slices. The slice clamps its
 * index exactly as the old one did (the product's new dimension has X's
 * extent along d), so the values are the same for every index; the body
 * must run at least half of X's extent along d in trips (a counted loop)
 * for the product not to cost more than the loop's own dots. */
typedef struct SliceDot {
  Instr *dot, *ds, *x, *other; /* body instructions */
  int side;                    /* the dot operand that is the slice */
  int d;                       /* the sliced dimension of x */
  bool squeezed;               /* the slice reaches the dot through a reshape dropping d */
  int pos;                     /* the product's dimension that d becomes */
} SliceDot;

/* Whether dot operand `op` is a slice of an invariant array as above; fills
 * sd's ds, x, d and squeezed. */
static bool sliced_operand(const Loop *l, const Inv *inv, Instr *op, SliceDot *sd) {
  Instr *ds = op;
  if (ds->op == OP_RESHAPE) ds = ds->operands[0];
  if (ds->op != OP_DYNAMIC_SLICE || ds->parent != l->body || inv[ds->id] != INV_NO) return false;
  Instr *x = ds->operands[0];
  int r = x->shape->rank;
  if (x->parent != l->body || inv[x->id] == INV_NO || ds->noperands != r + 1 ||
      ds->slice_sizes.n != r)
    return false;
  int d = -1;
  for (int k = 0; k < r; k++) {
    if (ds->slice_sizes.v[k] == x->shape->dims[k]) continue;
    if (d >= 0 || ds->slice_sizes.v[k] != 1) return false;
    d = k;
  }
  if (d < 0) return false;
  bool squeezed = op != ds;
  if (squeezed) {
    /* the reshape must drop exactly one unit dimension (any of them: the
     * same element order) */
    const Shape *s = op->shape;
    if (s->rank != r - 1) return false;
    for (int k = 0; k < r - 1; k++)
      if (s->dims[k] != x->shape->dims[k < d ? k : k + 1]) return false;
  }
  sd->ds = ds;
  sd->x = x;
  sd->d = d;
  sd->squeezed = squeezed;
  return true;
}

static bool list_has(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* The dot's operand `side` with x in place of the slice: its batch and
 * contracting dimension numbers shifted past d (squeezed), d itself free;
 * false when the slice's dimension d is a batch or contracting one. Sets
 * sd->pos, the output dimension of d. */
static bool map_dims(SliceDot *sd, Arena *a, I64List *batch, I64List *contract) {
  const Instr *dot = sd->dot;
  const I64List *ob = sd->side ? &dot->dot.rhs_batch : &dot->dot.lhs_batch;
  const I64List *oc = sd->side ? &dot->dot.rhs_contract : &dot->dot.lhs_contract;
  int d = sd->d;
  batch->n = ob->n;
  contract->n = oc->n;
  batch->v = arena_array(a, (size_t)ob->n + 1, sizeof(int64_t));
  contract->v = arena_array(a, (size_t)oc->n + 1, sizeof(int64_t));
  if (!batch->v || !contract->v) return false;
  for (int i = 0; i < ob->n; i++) batch->v[i] = ob->v[i] + (sd->squeezed && ob->v[i] >= d);
  for (int i = 0; i < oc->n; i++) contract->v[i] = oc->v[i] + (sd->squeezed && oc->v[i] >= d);
  if (list_has(batch, d) || list_has(contract, d)) return false;
  /* output: batch dims, the lhs's free dims, the rhs's free dims */
  int pos = ob->n;
  if (sd->side == 1) {
    const Instr *lhs = dot->operands[0];
    pos += lhs->shape->rank - dot->dot.lhs_batch.n - dot->dot.lhs_contract.n;
  }
  for (int k = 0; k < d; k++) pos += !list_has(batch, k) && !list_has(contract, k);
  sd->pos = pos;
  return true;
}

static cxla_status hoist_slice_dot(Uses *x, HloModule *m, Computation *c, Instr *w,
                                   bool *changed, Instr **next) {
  Loop l;
  int64_t trips, counter;
  if (!loop_of(w, &l) || !trip_count(w, &trips, &counter)) return NULL;
  Computation *b = l.body;
  comp_renumber(b);
  int n = b->ninstrs;
  Arena *a = &m->arena;
  Inv *inv = cxla_calloc((size_t)n + 1, sizeof(Inv));
  bool *cone = cxla_calloc((size_t)n + 1, sizeof(bool));
  Instr **hoisted = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  cxla_status st = NULL;
  if (!inv || !cone || !hoisted) {
    st = cxla_oom();
    goto out;
  }
  classify(&l, inv);
  SliceDot sd = {0};
  I64List batch = {0}, contract = {0};
  bool found = false;
  for (int i = 0; i < n && !found; i++) {
    Instr *in = b->instrs[i];
    if (in->op != OP_DOT || in->noperands != 2 || !movable(in) || inv[i] != INV_NO ||
        !type_is_array(in->shape->type))
      continue;
    for (int side = 0; side < 2 && !found; side++) {
      Instr *other = in->operands[1 - side];
      if (other->parent != b || inv[other->id] == INV_NO) continue;
      sd = (SliceDot){.dot = in, .other = other, .side = side};
      if (!sliced_operand(&l, inv, in->operands[side], &sd)) continue;
      int64_t extent = sd.x->shape->dims[sd.d];
      if (2 * trips < extent) continue;
      if (bytes_of(in->shape) > kMaxSliceDotBytes / extent) continue;
      if (!map_dims(&sd, a, &batch, &contract)) {
        if (!batch.v || !contract.v) st = cxla_oom();
        if (st) goto out;
        continue;
      }
      found = true;
    }
  }
  if (!found) goto out;
  /* the product's shape: the dot's with x's extent along d at pos */
  const Shape *os = sd.dot->shape;
  int64_t dims[kMaxSliceDotRank];
  int pr = os->rank + sd.squeezed;
  if (pr > kMaxSliceDotRank) goto out;
  /* squeezed: the new dimension is inserted; else it replaces the unit one */
  for (int k = 0; k < pr; k++)
    dims[k] = k < sd.pos || !sd.squeezed ? os->dims[k] : k > sd.pos ? os->dims[k - 1] : 0;
  dims[sd.pos] = sd.x->shape->dims[sd.d];
  Shape *ps = shape_new(a, os->type, pr, dims);
  if (!ps || (os->has_layout && shape_set_default_layout(a, ps))) {
    st = cxla_oom();
    goto out;
  }
  /* the operands before the loop, then the product */
  cone[sd.x->id] = cone[sd.other->id] = true;
  for (int i = n - 1; i >= 0; i--) {
    const Instr *in = b->instrs[i];
    if (!cone[i] || (inv[i] != INV_HOIST && inv[i] != INV_FREE)) continue;
    for (int k = 0; k < in->noperands; k++) cone[in->operands[k]->id] = true;
  }
  if ((st = build_cone(c, &l, inv, cone, hoisted))) goto out;
  Instr *ops[2];
  ops[sd.side] = hoisted[sd.x->id];
  ops[1 - sd.side] = hoisted[sd.other->id];
  Instr *prod = instr_clone(c, sd.dot, 2, ops, NULL);
  if (!prod) {
    st = cxla_oom();
    goto out;
  }
  prod->shape = ps;
  if (sd.side == 0) {
    prod->dot.lhs_batch = batch;
    prod->dot.lhs_contract = contract;
  } else {
    prod->dot.rhs_batch = batch;
    prod->dot.rhs_contract = contract;
  }
  Instr *init = NULL;
  Computation *nc = NULL, *nb = NULL;
  if ((st = extend_begin(m, c, &l, 1, &ps, &prod, &init, &nc, &nb))) goto out;
  /* In the new body the dot becomes the product's slice at the old
   * slice's index, reshaped to the dot's shape. */
  Instr *ods = nb->instrs[sd.ds->id], *odot = nb->instrs[sd.dot->id];
  Instr *sops[kMaxSliceDotRank + 1];
  sops[0] = eu_gte(nb, nb->params[0], l.n);
  Instr *idx = ods->operands[1 + sd.d];
  Instr *zero = eu_scalar(nb, idx->shape->type, 0);
  int64_t *sizes = arena_i64dup(a, dims, (size_t)pr);
  Shape *ss = shape_new(a, os->type, pr, dims);
  if (!sops[0] || !zero || !sizes || !ss) {
    st = cxla_oom();
    goto out;
  }
  sizes[sd.pos] = ss->dims[sd.pos] = 1;
  if (os->has_layout && shape_set_default_layout(a, ss)) {
    st = cxla_oom();
    goto out;
  }
  for (int k = 0; k < pr; k++) sops[1 + k] = k == sd.pos ? idx : zero;
  Instr *slice = comp_add_instr(nb, OP_DYNAMIC_SLICE, ss, pr + 1, sops, NULL);
  Instr *val = slice;
  if (slice && sd.squeezed) {
    Shape *rs = shape_clone(a, os);
    val = rs ? comp_add_instr(nb, OP_RESHAPE, rs, 1, &slice, NULL) : NULL;
  }
  if (!val) {
    st = cxla_oom();
    goto out;
  }
  slice->attrs |= A_DYN_SLICE_SIZES;
  slice->slice_sizes = (I64List){.n = pr, .v = sizes};
  comp_replace_uses(nb, odot, val);
  st = extend_finish(x, m, c, &l, 1, init, nc, nb, changed, next);
out:
  cxla_free(inv);
  cxla_free(cone);
  cxla_free(hoisted);
  return st;
}

/* ---- driver ------------------------------------------------------------------------------ */

/* One rewrite of loop w in c, if any applies; *next is the loop that
 * replaces w (NULL when it was unrolled). c is left unsorted. */
static cxla_status simplify_one(Uses *x, HloModule *m, Computation *c, Instr *w,
                                bool *changed, Instr **next) {
  *next = NULL;
  int64_t trips, counter;
  if (trip_count(w, &trips, &counter) && !comp_has_side_effect(w->called[0], 0)) {
    int body = w->called[1]->ninstrs;
    bool fuses = trips == 0;
    if (!fuses && trips <= kMaxUnrollTrips && trips * body <= kMaxUnrolledInstrs) {
      Loop l;
      if (loop_of(w, &l)) TRY(unroll_fuses(&l, counter, &fuses));
    }
    if (fuses) {
      TRY(unroll(x, c, w, trips));
      *changed = true;
      return NULL;
    }
  }
  TRY(remove_dead_state(x, m, c, w, changed, next));
  if (*changed) return NULL;
  TRY(hoist_invariants(x, m, c, w, changed, next));
  if (*changed) return NULL;
  return hoist_slice_dot(x, m, c, w, changed, next);
}

/* A worklist over the loops: every while of every computation (as the
 * round starts) is rewritten until none of the rules applies, each loop's
 * replacement at once; c is sorted and pruned once after its loops, the
 * module's computations once per round. Loops a rewrite creates elsewhere
 * (nested loops of unrolled or cloned bodies) wait for the next round. */
static cxla_status simplify_round(HloModule *m, bool *changed) {
  int ncomps = m->ncomps;
  Computation **comps = cxla_malloc(((size_t)ncomps + 1) * sizeof *comps);
  Instr **whiles = NULL;
  int cap = 0;
  if (!comps) return cxla_oom();
  memcpy(comps, m->comps, (size_t)ncomps * sizeof *comps);
  cxla_status st = NULL;
  for (int ci = 0; ci < ncomps && !st; ci++) {
    Computation *c = comps[ci];
    if (c->is_fusion) continue;
    int nw = 0;
    for (int i = 0; i < c->ninstrs; i++) nw += c->instrs[i]->op == OP_WHILE;
    if (nw == 0) continue;
    if (nw > cap) {
      cxla_free(whiles);
      cap = nw;
      if (!(whiles = cxla_malloc((size_t)cap * sizeof *whiles))) {
        st = cxla_oom();
        break;
      }
    }
    comp_renumber(c);
    nw = 0;
    bool ctrl = false;
    for (int i = 0; i < c->ninstrs; i++) {
      if (c->instrs[i]->op == OP_WHILE) whiles[nw++] = c->instrs[i];
      ctrl |= c->instrs[i]->ncontrol_preds > 0;
    }
    Uses x = {.c = c, .n0 = c->ninstrs};
    if ((st = users_build(c, &x.u))) break;
    x.valid = !ctrl;
    bool dirty = false;
    for (int k = 0; k < nw && !st; k++) {
      Instr *w = whiles[k];
      x.cur = NULL;
      for (int r = 0; w && r < kMaxRewritesPerLoop && !st; r++) {
        bool once = false;
        Instr *next = NULL;
        st = simplify_one(&x, m, c, w, &once, &next);
        if (!once) break;
        dirty = true;
        w = next;
      }
    }
    users_free(&x.u);
    cxla_free(x.cur_users);
    if (dirty && !st) {
      *changed = true;
      st = comp_sort(c);
      if (!st) comp_prune(c);
    }
  }
  if (*changed && !st) module_prune_computations(m);
  cxla_free(comps);
  cxla_free(whiles);
  return st;
}

cxla_status pass_while_loop_simplify(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int round = 0; round < kMaxRounds; round++) {
    bool once = false;
    TRY(simplify_round(m, &once));
    if (!once) break;
    *changed = true;
  }
  return NULL;
}
