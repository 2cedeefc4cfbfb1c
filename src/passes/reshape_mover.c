/* reshape-mover: reshapes and transposes ("rearranges") sink below the
 * elementwise ops that read them, as XLA's ReshapeMover does (XLA:CPU
 * runs it in its simplification loop, with reshape_of_1d_broadcast_is_cheap
 * off):
 *
 *   add(reshape(a), reshape(b)) -> reshape(add(a, b))
 *
 * so that the rearranges meet each other (and cancel, or become one) and
 * the elementwise work happens once in the operand's layout.
 *
 * An elementwise instruction is a candidate when one operand is a
 * non-trivial rearrange R and every operand is either a rearrange
 * equivalent to R (same opcode, same result dims, and the same operand
 * dims for a reshape / the same permutation for a transpose) or, not being
 * a rearrange, can take R's inverse trivially: a constant, or a broadcast
 * with sorted dimensions of a scalar (for a reshape) or whose dimensions
 * stay in order under the permutation (for a transpose). Candidates whose
 * rearrange operands have a user that is not a candidate are dropped, in
 * turn, until none does (so no rearrange ends up computed twice); the rest
 * are rewritten: each operand gets R's inverse (a reshape to R's operand
 * shape, or the inverse transpose; no-ops skipped, a reshape of a reshape
 * back to its source returned directly), the op runs in R's operand shape,
 * and R is applied to its result. Exact (data movement only). Rng
 * operands, which XLA also rearranges, are left alone. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

static bool is_rearrange(const Instr *in) {
  return (in->op == OP_RESHAPE || in->op == OP_TRANSPOSE) && in->noperands == 1 &&
         type_is_array(in->shape->type);
}

static bool same_list(const I64List *a, const I64List *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++)
    if (a->v[i] != b->v[i]) return false;
  return true;
}

static bool identity_perm(const I64List *p) {
  for (int i = 0; i < p->n; i++)
    if (p->v[i] != i) return false;
  return true;
}

static bool equivalent(const Instr *a, const Instr *b) {
  if (a->op != b->op || !shape_same_dims(a->shape, b->shape)) return false;
  if (a->op == OP_TRANSPOSE) return same_list(&a->dimensions, &b->dimensions);
  return shape_same_dims(a->operands[0]->shape, b->operands[0]->shape);
}

static bool sorted(const I64List *l) {
  for (int i = 1; i < l->n; i++)
    if (l->v[i] < l->v[i - 1]) return false;
  return true;
}

/* x can take the inverse of rearrange r without real work. */
static bool trivially_rearranged(const Instr *x, const Instr *r) {
  if (r->op == OP_RESHAPE && shape_equal(r->shape, r->operands[0]->shape, true)) return true;
  if (r->op == OP_TRANSPOSE && identity_perm(&r->dimensions)) return true;
  if (x->op == OP_CONSTANT) return true;
  if (x->op != OP_BROADCAST || x->noperands != 1 || !sorted(&x->dimensions)) return false;
  if (r->op == OP_RESHAPE) return x->operands[0]->shape->rank == 0;
  /* transpose: the broadcast dims keep their order under the permutation
   * (inverse(inverse(perm)) = perm, as XLA computes it) */
  int64_t last = -1;
  const I64List *p = &r->dimensions;
  for (int i = 0; i < x->dimensions.n; i++) {
    int64_t d = x->dimensions.v[i];
    if (d < 0 || d >= p->n) return false;
    if (p->v[d] < last) return false;
    last = p->v[d];
  }
  return true;
}

static const Instr *first_nontrivial(const Instr *in) {
  for (int i = 0; i < in->noperands; i++) {
    const Instr *o = in->operands[i];
    if (is_rearrange(o) && !trivially_rearranged(o->operands[0], o)) return o;
  }
  return NULL;
}

static bool candidate(const Instr *in) {
  if (!(op_info(in->op)->flags & OPF_EW) || in->ncalled || !type_is_array(in->shape->type))
    return false;
  const Instr *r = first_nontrivial(in);
  if (!r) return false;
  for (int i = 0; i < in->noperands; i++) {
    const Instr *o = in->operands[i];
    /* clamp takes scalar bounds: only same-shaped operands move */
    if (!shape_same_dims(o->shape, in->shape)) return false;
    if (is_rearrange(o) ? !equivalent(o, r) : !trivially_rearranged(o, r)) return false;
  }
  return true;
}

/* ---- the rewrite ---- */

typedef struct Mover {
  HloModule *m;
  Computation *c;
  const bool *chosen; /* by instruction id */
  int n;
} Mover;

static Shape *shape_like(Mover *w, const Shape *dims_of, ElemType t, bool layout) {
  Shape *s = shape_new(&w->m->arena, t, dims_of->rank, dims_of->dims);
  if (s && layout && shape_set_default_layout(&w->m->arena, s)) return NULL;
  return s;
}

static Instr *inverse(Mover *w, const Instr *r, Instr *x) {
  bool layout = x->shape->has_layout;
  if (r->op == OP_RESHAPE) {
    Shape *s = shape_like(w, r->operands[0]->shape, x->shape->type, layout);
    if (!s) return NULL;
    if (shape_equal(s, x->shape, true)) return x;
    if (x->op == OP_RESHAPE && shape_equal(s, x->operands[0]->shape, true)) return x->operands[0];
    return comp_add_instr(w->c, OP_RESHAPE, s, 1, &x, NULL);
  }
  if (identity_perm(&r->dimensions)) return x;
  int n = r->dimensions.n;
  int64_t inv[64], dims[64];
  for (int i = 0; i < n; i++) inv[r->dimensions.v[i]] = i;
  for (int i = 0; i < n; i++) dims[i] = x->shape->dims[inv[i]];
  Shape *s = shape_new(&w->m->arena, x->shape->type, n, dims);
  if (!s || (layout && shape_set_default_layout(&w->m->arena, s))) return NULL;
  Instr *t = comp_add_instr(w->c, OP_TRANSPOSE, s, 1, &x, NULL);
  if (!t || !(t->dimensions.v = arena_i64dup(&w->m->arena, inv, (size_t)n))) return NULL;
  t->dimensions.n = n;
  t->attrs |= A_DIMENSIONS;
  return t;
}

static cxla_status sink(Instr *in, void *arg, Instr **out) {
  Mover *w = arg;
  if (in->id < 0 || in->id >= w->n || !w->chosen[in->id] || in->parent != w->c) return NULL;
  const Instr *r = first_nontrivial(in);
  if (!r || r->shape->rank > 64 || r->operands[0]->shape->rank > 64) return NULL;
  Instr **ops = arena_array(&w->m->arena, (size_t)in->noperands + 1, sizeof(Instr *));
  if (!ops) return cxla_oom();
  for (int i = 0; i < in->noperands; i++)
    if (!(ops[i] = inverse(w, r, in->operands[i]))) return cxla_oom();
  Instr *ew = instr_clone(w->c, in, in->noperands, ops, NULL);
  Shape *s = ew ? shape_like(w, r->operands[0]->shape, in->shape->type, in->shape->has_layout)
                : NULL;
  if (!s) return cxla_oom();
  ew->shape = s;
  ew->ncontrol_preds = 0;
  ew->control_preds = NULL;
  Shape *rs = shape_clone(&w->m->arena, in->shape);
  Instr *nr = rs ? comp_add_instr(w->c, r->op, rs, 1, &ew, NULL) : NULL;
  if (!nr) return cxla_oom();
  if (r->op == OP_TRANSPOSE) {
    bool ok = (nr->dimensions.v = arena_i64dup(&w->m->arena, r->dimensions.v,
                                               (size_t)r->dimensions.n)) != NULL;
    nr->dimensions.n = r->dimensions.n;
    nr->attrs |= A_DIMENSIONS;
    if (!ok) return cxla_oom();
  }
  *out = nr;
  return NULL;
}

/* Picks the candidates of c whose rearrange operands feed only candidates
 * (XLA's TryReshapeMoveOnCandidates, as a worklist: linear). */
static cxla_status choose(Computation *c, bool *chosen, bool *any) {
  int n = c->ninstrs;
  for (int i = 0; i < n; i++) chosen[i] = candidate(c->instrs[i]);
  Users u;
  TRY(users_build(c, &u));
  bool *bad = cxla_calloc((size_t)n + 1, sizeof(bool));
  int *queue = cxla_malloc(((size_t)n + 1) * sizeof(int));
  cxla_status st = (!bad || !queue) ? cxla_oom() : NULL;
  int qh = 0, qt = 0;
  /* a rearrange operand of a candidate with a non-candidate user (or that
   * is the root) is bad */
  for (int i = 0; !st && i < n; i++) {
    const Instr *r = c->instrs[i];
    if (!is_rearrange(r)) continue;
    bool feeds = false, other = c->root == r;
    for (int k = 0; k < u.count[i]; k++) {
      const Instr *us = u.list[i][k];
      if (us->parent == c && chosen[us->id]) feeds = true;
      else other = true;
    }
    if (feeds && other) {
      bad[i] = true;
      queue[qt++] = i;
    }
  }
  while (!st && qh < qt) {
    int ri = queue[qh++];
    for (int k = 0; k < u.count[ri]; k++) {
      const Instr *us = u.list[ri][k];
      if (us->parent != c || !chosen[us->id]) continue;
      chosen[us->id] = false;
      /* the dropped candidate's other rearrange operands now feed a
       * non-candidate */
      for (int j = 0; j < us->noperands; j++) {
        const Instr *o = us->operands[j];
        if (!is_rearrange(o) || o->parent != c || bad[o->id]) continue;
        bad[o->id] = true;
        queue[qt++] = o->id;
      }
    }
  }
  for (int i = 0; i < n; i++) *any |= chosen[i];
  users_free(&u);
  cxla_free(bad);
  cxla_free(queue);
  return st;
}

cxla_status pass_reshape_mover(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    if (c->is_fusion) continue;
    comp_renumber(c);
    bool *chosen = cxla_calloc((size_t)c->ninstrs + 1, sizeof(bool));
    if (!chosen) return cxla_oom();
    bool any = false;
    cxla_status st = choose(c, chosen, &any);
    if (!st && any) {
      Mover w = {m, c, chosen, c->ninstrs};
      st = pass_rewrite_comp(c, sink, &w, changed);
    }
    cxla_free(chosen);
    TRY(st);
  }
  return NULL;
}
