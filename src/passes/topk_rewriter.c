/* topk-rewriter: a sort that only feeds slices of its first k elements,
 * ordered greatest first, becomes a topk, as XLA:CPU's TopkRewriter makes
 * it a "TopK" library call (f32 keys only, on a CPU).
 *
 * This is not a speed-up alone: it decides results. XLA:CPU's TopK orders
 * by the total order (-0 below +0, NaNs at the ends by sign) whatever the
 * comparator's comparison type, and breaks ties by the lower index, where
 * the sort it replaces would leave an unstable sort's ties in std::sort's
 * order (lax.approx_max_k on f32 and TensorFlow's ApproxTopK sort without
 * is_stable). Doing the same rewrite gives XLA's answer.
 *
 * The pattern, XLA's (SortIsInTopK, and the CPU's profitability check):
 *   - sort of one operand, or of two where the second is an s32 iota along
 *     the sort dimension (full-shaped, or a rank-1 iota broadcast along
 *     it); the first operand f32 of rank 1 or 2;
 *   - the comparator's root compare(parameter 0, parameter 1),
 *     direction=GT (any comparison type);
 *   - every user a slice (two operands: a get-tuple-element read only by
 *     a slice) starting at 0 with stride 1, whole along the other
 *     dimension, all of the same size k along the sort dimension.
 * The topk reads the keys along their last dimension: a rank-2 sort along
 * dimension 0 gets transposes around it. The iota's values are the
 * positions, which topk's indices are. Not in the exact pipeline (an
 * unstable or IEEE-ordered sort's ties and NaNs may come out otherwise);
 * it runs before float-normalization, as XLA's runs before its bf16
 * normalization: a bf16 sort stays a sort. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"

/* Whether x is an s32 iota of the keys' shape along dim, or a rank-1 s32
 * iota of the sort dimension's length broadcast along dim. */
static bool is_position_iota(const Instr *x, const Shape *keys, int64_t dim) {
  const Shape *s = x->shape;
  if (s->type != T_S32 || s->rank != keys->rank) return false;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] != keys->dims[i]) return false;
  if (x->op == OP_IOTA) return x->index == dim;
  if (x->op != OP_BROADCAST || x->noperands != 1 || x->dimensions.n != 1 || x->dimensions.v[0] != dim)
    return false;
  const Instr *i = x->operands[0];
  return i->op == OP_IOTA && i->shape->type == T_S32 && i->shape->rank == 1 && i->shape->dims[0] == keys->dims[dim];
}

/* compare(parameter 0, parameter 1), direction=GT. */
static bool greater_than(const Computation *f) {
  const Instr *r = f ? f->root : NULL;
  return r && r->op == OP_COMPARE && r->noperands == 2 && r->cmp_dir == CMP_GT &&
         r->operands[0]->op == OP_PARAMETER && r->operands[0]->param_number == 0 &&
         r->operands[1]->op == OP_PARAMETER && r->operands[1]->param_number == 1;
}

/* The slice a user of the sort leads to (itself, or a get-tuple-element's
 * one user), or NULL. */
static Instr *slice_of(Instr *user, int nops, const Users *u) {
  if (nops == 2) {
    if (user->op != OP_GET_TUPLE_ELEMENT || u->count[user->id] != 1) return NULL;
    user = u->list[user->id][0];
  }
  return user->op == OP_SLICE ? user : NULL;
}

/* k when sort is a top-k XLA:CPU rewrites, else -1. */
static int64_t topk_size(const Computation *c, const Instr *sort, const Users *u) {
  int n = sort->noperands;
  if (n != 1 && n != 2) return -1;
  const Shape *keys = sort->operands[0]->shape;
  if (keys->type != T_F32 || (keys->rank != 1 && keys->rank != 2) || sort->dimensions.n != 1) return -1;
  int64_t dim = sort->dimensions.v[0];
  if (dim < 0 || dim >= keys->rank) return -1;
  if (n == 2 && !is_position_iota(sort->operands[1], keys, dim)) return -1;
  if (sort->ncalled != 1 || !greater_than(sort->called[0]) || c->root == sort) return -1;
  int64_t k = -1;
  for (int j = 0; j < u->count[sort->id]; j++) {
    const Instr *s = slice_of(u->list[sort->id][j], n, u);
    if (!s || !s->slice || c->root == s) return -1;
    for (int d = 0; d < keys->rank; d++) {
      SliceDim sd = s->slice[d];
      if (sd.start != 0 || sd.stride != 1) return -1;
      if (d != dim && sd.limit != keys->dims[d]) return -1;
    }
    if (k >= 0 && s->slice[dim].limit != k) return -1;
    k = s->slice[dim].limit;
  }
  return k;
}

/* topk(keys) (transposed in and out for a sort along dim 0 of a rank-2
 * sort); the slices' uses become uses of its values and indices. */
static cxla_status rewrite(HloModule *m, Computation *c, Instr *sort, int64_t k, const Users *u) {
  Instr *keys = sort->operands[0];
  int rank = keys->shape->rank;
  bool flip = rank == 2 && sort->dimensions.v[0] == 0;
  static const int64_t swap[2] = {1, 0};
  Instr *in = flip ? eu_transpose(c, keys, swap) : keys;
  if (!in) return cxla_oom();
  int64_t dims[2] = {in->shape->dims[0], in->shape->dims[1]};
  dims[rank - 1] = k;
  Shape *el[2] = {shape_new(&m->arena, T_F32, rank, dims), shape_new(&m->arena, T_S32, rank, dims)};
  Shape *ts = el[0] && el[1] ? shape_new_tuple(&m->arena, 2, el) : NULL;
  Instr *t = ts ? comp_add_instr(c, OP_TOPK, ts, 1, &in, NULL) : NULL;
  if (!t) return cxla_oom();
  t->topk_k = k;
  t->topk_largest = true;
  t->attrs |= A_TOPK;
  Instr *out[2] = {eu_gte(c, t, 0), eu_gte(c, t, 1)};
  for (int i = 0; i < 2; i++) {
    if (out[i] && flip) out[i] = eu_transpose(c, out[i], swap);
    if (!out[i]) return cxla_oom();
  }
  for (int j = 0; j < u->count[sort->id]; j++) {
    Instr *user = u->list[sort->id][j];
    Instr *s = slice_of(user, sort->noperands, u);
    comp_replace_uses(c, s, out[sort->noperands == 2 ? user->index : 0]);
  }
  return NULL;
}

cxla_status pass_topk_rewriter(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  if (ctx && ctx->exact) return NULL;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    bool has_sort = false;
    for (int i = 0; i < c->ninstrs && !has_sort; i++) has_sort = c->instrs[i]->op == OP_SORT;
    if (!has_sort) continue;
    comp_renumber(c);
    Users u;
    TRY(users_build(c, &u));
    bool any = false;
    cxla_status st = NULL;
    int n = c->ninstrs;
    for (int i = 0; i < n && !st; i++) {
      Instr *sort = c->instrs[i];
      if (sort->op != OP_SORT) continue;
      int64_t k = topk_size(c, sort, &u);
      if (k < 0) continue;
      st = rewrite(m, c, sort, k, &u);
      if (!st) any = true;
    }
    users_free(&u);
    TRY(st);
    if (any) {
      *changed = true;
      TRY(comp_sort(c));
      comp_prune(c);
    }
  }
  return NULL;
}
