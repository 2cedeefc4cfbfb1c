/* dot-canonicalize: every dot becomes a (batched) matrix multiply, the
 * canonical form of XLA's DotDecomposer:
 *
 *   lhs [batch..., M, K]  x  rhs [batch..., K, N]  ->  [batch..., M, N]
 *
 * with the batch dimensions first, in the same order on both sides, all
 * free (non-contracting) dimensions of one operand merged into one (M or N,
 * left out when its size is 1) and all contracting dimensions merged into
 * one (K; a dot that contracts nothing gets a K of size 1). Each operand is
 * transposed into [batch, free, contract] (lhs) or [batch, contract, free]
 * (rhs) order and reshaped; a reshape brings the result back to the
 * original shape. The batch dimensions themselves are kept apart, as XLA
 * keeps them.
 *
 * Which dots are already canonical follows XLA too, operand by operand:
 * exactly one contracting dimension, at most one free dimension, and the
 * batch dimensions are 0..nb-1. So [M,K]x[N,K] with rhs_contracting_dims={1}
 * or [K,M]x[K,N] stays as it is (a matrix multiply with a transposed
 * operand needs no data movement), and so do matrix-vector and
 * vector-vector products. Nothing changes then (changed stays false).
 *
 * Exactness: only transposes and reshapes are added, which move values
 * without touching them; the same products are summed, in the same order.
 * A dot sums over its contracting dimensions in the order their LIST gives
 * them (lhs_contracting_dims[0] outermost, the interpreter's and XLA's
 * reading), so each operand's contracting dimensions are moved next to
 * each other in list order, on both sides alike, and the merged index k
 * walks them in exactly that row-major order. Contracting lists whose
 * dimensions are in different relative order on the two sides are thereby
 * permuted consistently (e.g. {0,2} against {2,0}): never sorted one side
 * at a time, which would change the order of the sum. Batch dimensions
 * keep their list order and free dimensions their dimension order, which
 * is the order of the dot's result, so no transpose is needed after it.
 *
 * Skipped: dots in fusion computations, dots with other than two operands
 * or a sparsity descriptor, dynamic dimensions, control predecessors, or
 * dimension numbers that do not check out (the verifier reports those).
 *
 * New instructions come from the module arena with fresh names; the new dot
 * copies the original's attributes (precision_config, metadata...). */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

enum { DC_MAX_RANK = 64 };

typedef struct Canon {
  HloModule *m;
  Computation *c;
  int first; /* c->instrs[first..] are this pass's new instructions */
} Canon;

static bool contains(const I64List *l, int64_t d) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == d) return true;
  return false;
}

/* XLA's canonical operand: one contracting dimension, at most one free one,
 * batch dimensions 0..nb-1. */
bool dot_operand_canonical(const Shape *s, const I64List *batch, const I64List *contract) {
  if (contract->n != 1 || s->rank > batch->n + 2) return false;
  for (int i = 0; i < batch->n; i++)
    if (batch->v[i] != i) return false;
  return true;
}

/* dims of a rank-0 shape may be NULL, hence no memcmp. */
static bool dims_equal(int rank, const int64_t *a, const int64_t *b) {
  for (int i = 0; i < rank; i++)
    if (a[i] != b[i]) return false;
  return true;
}

static bool has_dynamic(const Shape *s) {
  if (!s->dynamic) return false;
  for (int i = 0; i < s->rank; i++)
    if (s->dynamic[i]) return true;
  return false;
}

/* The dims of one operand: in range, each used once, rank within limits,
 * and the product of any of them fits in int64 (that of the non-zero ones
 * does: a zero elsewhere leaves the element count no guide). */
static bool dims_ok(const Shape *s, const I64List *batch, const I64List *contract) {
  if (!type_is_array(s->type) || s->rank > DC_MAX_RANK || has_dynamic(s)) return false;
  int64_t prod = 1;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0 || (s->dims[i] > 0 && !mul_i64(prod, s->dims[i], &prod))) return false;
  bool used[DC_MAX_RANK] = {false};
  const I64List *lists[2] = {batch, contract};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->n; i++) {
      int64_t d = lists[l]->v[i];
      if (d < 0 || d >= s->rank || used[d]) return false;
      used[d] = true;
    }
  return true;
}

/* Whether `in` is a dot this pass can and should rewrite. */
static bool wants_rewrite(const Instr *in) {
  if (in->op != OP_DOT || in->noperands != 2 || in->ncontrol_preds > 0) return false;
  if (instr_raw(in, "sparsity") || has_dynamic(in->shape) || !type_is_array(in->shape->type))
    return false;
  const DotDims *d = &in->dot;
  const Shape *ls = in->operands[0]->shape, *rs = in->operands[1]->shape;
  if (d->lhs_batch.n != d->rhs_batch.n || d->lhs_contract.n != d->rhs_contract.n) return false;
  if (!dims_ok(ls, &d->lhs_batch, &d->lhs_contract) || !dims_ok(rs, &d->rhs_batch, &d->rhs_contract))
    return false;
  for (int i = 0; i < d->lhs_batch.n; i++)
    if (ls->dims[d->lhs_batch.v[i]] != rs->dims[d->rhs_batch.v[i]]) return false;
  for (int i = 0; i < d->lhs_contract.n; i++)
    if (ls->dims[d->lhs_contract.v[i]] != rs->dims[d->rhs_contract.v[i]]) return false;
  int nbc = d->lhs_batch.n + d->lhs_contract.n;
  if (in->shape->rank != ls->rank + rs->rank - nbc - d->lhs_contract.n) return false;
  return !dot_operand_canonical(ls, &d->lhs_batch, &d->lhs_contract) ||
         !dot_operand_canonical(rs, &d->rhs_batch, &d->rhs_contract);
}

/* ---- building instructions ---- */

/* A new array shape of type t; with a default layout when `like` has one. */
static Shape *new_shape(Canon *k, ElemType t, const Shape *like, int rank, const int64_t *dims) {
  Shape *s = shape_new(&k->m->arena, t, rank, dims);
  cxla_status st = s && like->has_layout ? shape_set_default_layout(&k->m->arena, s) : NULL;
  if (!st) return s;
  cxla_status_free(st); /* out of memory: the caller reports it */
  return NULL;
}

/* A transpose or reshape of x to `dims` this pass made already (an operand
 * read by several dots is moved once), or NULL. A transpose's permutation
 * follows from its dims only up to equal sizes, so it is compared too. */
static Instr *made_already(Canon *k, Opcode op, const Instr *x, int rank, const int64_t *dims,
                           const int64_t *perm) {
  for (int i = k->first; i < k->c->ninstrs; i++) {
    Instr *t = k->c->instrs[i];
    if (t->op != op || t->operands[0] != x || t->shape->rank != rank ||
        !dims_equal(rank, t->shape->dims, dims))
      continue;
    if (!perm || dims_equal(rank, t->dimensions.v, perm)) return t;
  }
  return NULL;
}

/* transpose(x, perm), or x itself for the identity permutation. */
static Instr *transpose_to(Canon *k, Instr *x, const int64_t *perm) {
  const Shape *xs = x->shape;
  bool identity = true;
  int64_t dims[DC_MAX_RANK];
  for (int i = 0; i < xs->rank; i++) {
    dims[i] = xs->dims[perm[i]];
    identity &= perm[i] == i;
  }
  if (identity) return x;
  Instr *t = made_already(k, OP_TRANSPOSE, x, xs->rank, dims, perm);
  if (t) return t;
  Shape *s = new_shape(k, xs->type, xs, xs->rank, dims);
  t = s ? comp_add_instr(k->c, OP_TRANSPOSE, s, 1, &x, NULL) : NULL;
  if (!t) return NULL;
  t->dimensions.n = xs->rank;
  t->dimensions.v = arena_i64dup(&k->m->arena, perm, (size_t)xs->rank);
  if (!t->dimensions.v) return NULL;
  t->attrs |= A_DIMENSIONS;
  return t;
}

/* reshape(x) to dims, or x itself when it has them already. */
static Instr *reshape_to(Canon *k, Instr *x, int rank, const int64_t *dims) {
  const Shape *xs = x->shape;
  if (xs->rank == rank && dims_equal(rank, xs->dims, dims)) return x;
  Instr *r = made_already(k, OP_RESHAPE, x, rank, dims, NULL);
  if (r) return r;
  Shape *s = new_shape(k, xs->type, xs, rank, dims);
  return s ? comp_add_instr(k->c, OP_RESHAPE, s, 1, &x, NULL) : NULL;
}

/* One operand in canonical form: transposed to [batch, free, contract]
 * (contract_last, the lhs) or [batch, contract, free] (the rhs), then
 * reshaped to [batch..., M, K] or [batch..., K, N], the free dimension left
 * out when its size is 1. *free_size receives M or N. NULL on OOM. */
static Instr *canon_operand(Canon *k, Instr *x, const I64List *batch, const I64List *contract,
                            bool contract_last, int64_t *free_size) {
  const Shape *xs = x->shape;
  int64_t freed[DC_MAX_RANK], perm[DC_MAX_RANK], dims[DC_MAX_RANK];
  int nfree = 0, np = 0, nd = 0;
  int64_t fsize = 1, csize = 1;
  for (int d = 0; d < xs->rank; d++)
    if (!contains(batch, d) && !contains(contract, d)) {
      freed[nfree++] = d;
      fsize *= xs->dims[d];
    }
  for (int i = 0; i < contract->n; i++) csize *= xs->dims[contract->v[i]];
  for (int i = 0; i < batch->n; i++) {
    perm[np++] = batch->v[i];
    dims[nd++] = xs->dims[batch->v[i]];
  }
  /* The contracting dims in list order: the order of the sum. */
  if (!contract_last)
    for (int i = 0; i < contract->n; i++) perm[np++] = contract->v[i];
  for (int i = 0; i < nfree; i++) perm[np++] = freed[i];
  if (contract_last)
    for (int i = 0; i < contract->n; i++) perm[np++] = contract->v[i];
  if (!contract_last) dims[nd++] = csize;
  if (fsize != 1) dims[nd++] = fsize;
  if (contract_last) dims[nd++] = csize;
  *free_size = fsize;
  Instr *t = transpose_to(k, x, perm);
  return t ? reshape_to(k, t, nd, dims) : NULL;
}

static I64List iota_list(Canon *k, int n, int64_t start, bool *ok) {
  I64List l = {n, NULL};
  if (n == 0) return l;
  l.v = arena_array(&k->m->arena, (size_t)n, sizeof(int64_t));
  if (!l.v) *ok = false;
  else
    for (int i = 0; i < n; i++) l.v[i] = start + i;
  return l;
}

/* The rewrite: canonical operands, the canonical dot, a reshape back. */
static cxla_status canonicalize(Instr *in, void *arg, Instr **out) {
  Canon *k = arg;
  if (!wants_rewrite(in)) return NULL;
  const DotDims *d = &in->dot;
  int nb = d->lhs_batch.n;
  int64_t m, n;
  Instr *ops[2];
  ops[0] = canon_operand(k, in->operands[0], &d->lhs_batch, &d->lhs_contract, true, &m);
  ops[1] = ops[0] ? canon_operand(k, in->operands[1], &d->rhs_batch, &d->rhs_contract, false, &n)
                  : NULL;
  if (!ops[1]) return cxla_oom();
  /* The result: [batch..., M, N], M and N left out where they are 1. */
  int64_t dims[DC_MAX_RANK + 2];
  int nd = 0;
  for (int i = 0; i < nb; i++) dims[nd++] = ops[0]->shape->dims[i];
  if (m != 1) dims[nd++] = m;
  if (n != 1) dims[nd++] = n;
  bool same = nd == in->shape->rank && dims_equal(nd, dims, in->shape->dims);
  Instr *dot = instr_clone(k->c, in, 2, ops, NULL); /* every attribute */
  if (!dot) return cxla_oom();
  if (!same && !(dot->shape = new_shape(k, in->shape->type, in->shape, nd, dims)))
    return cxla_oom();
  bool ok = true;
  dot->dot.lhs_batch = iota_list(k, nb, 0, &ok);
  dot->dot.rhs_batch = iota_list(k, nb, 0, &ok);
  dot->dot.lhs_contract = iota_list(k, 1, nb + (m != 1), &ok);
  dot->dot.rhs_contract = iota_list(k, 1, nb, &ok);
  dot->attrs |= A_DOT_DIMS;
  if (!ok) return cxla_oom();
  if (same) return (*out = dot), NULL;
  Shape *s = shape_clone(&k->m->arena, in->shape);
  if (!s || !(*out = comp_add_instr(k->c, OP_RESHAPE, s, 1, &dot, NULL))) return cxla_oom();
  return NULL;
}

/* ---- operand order for a transposed result ---- */

/* Whether dot d's raw precision_config (if any) names the same precision
 * for both operands, so that swapping the operands needs no change to it. */
static bool precision_symmetric(const Instr *d) {
  const char *p = instr_raw(d, "precision_config");
  if (!p) return true;
  const char *comma = strchr(p, ',');
  if (!comma) return true;
  size_t n1 = (size_t)(comma - p), n2 = strlen(comma + 1);
  const char *a = p, *b = comma + 1;
  if (n1 && a[0] == '{') a++, n1--;
  if (n2 && b[n2 - 1] == '}') n2--;
  return n1 == n2 && strncmp(a, b, n1) == 0;
}

/* Swaps the operands of dot d (read only by transpose t) when that makes
 * t keep its minor dimension: a dot's result is [batch, lhs free, rhs
 * free], so when t's last output dimension is the dot's last lhs free
 * dimension, t moves single elements (a strided gather); dot(rhs, lhs)
 * gives [batch, rhs free, lhs free] and the same t, renumbered, moves
 * whole rows (the attention output's [B,D,S] -> [S,B,D] becomes [B,S,D]
 * -> [S,B,D]). The canonical GEMM then also has the long dimension as M.
 * Exact: the same products (x*y == y*x), summed in the same order (the
 * contracting lists keep their order, only their sides change). */
static cxla_status swap_for_transpose(HloModule *m, Instr *d, Instr *t, bool *changed) {
  const DotDims *dd = &d->dot;
  const Shape *ls = d->operands[0]->shape, *rs = d->operands[1]->shape;
  int nb = dd->lhs_batch.n, r = d->shape->rank;
  int nlf = ls->rank - nb - dd->lhs_contract.n, nrf = rs->rank - nb - dd->rhs_contract.n;
  if (nlf < 1 || nrf < 1 || r != nb + nlf + nrf || t->dimensions.n != r) return NULL;
  if (t->dimensions.v[r - 1] != nb + nlf - 1) return NULL;
  int64_t perm[DC_MAX_RANK], dims[DC_MAX_RANK];
  for (int p = 0; p < r; p++) {
    int64_t o = t->dimensions.v[p];
    perm[p] = o < nb ? o : o < nb + nlf ? o + nrf : o - nlf;
  }
  for (int i = 0; i < nb; i++) dims[i] = d->shape->dims[i];
  for (int i = 0; i < nrf; i++) dims[nb + i] = d->shape->dims[nb + nlf + i];
  for (int i = 0; i < nlf; i++) dims[nb + nrf + i] = d->shape->dims[nb + i];
  Shape *s = shape_new(&m->arena, d->shape->type, r, dims);
  if (!s || (d->shape->has_layout && shape_set_default_layout(&m->arena, s))) return cxla_oom();
  int64_t *pv = arena_i64dup(&m->arena, perm, (size_t)r);
  if (!pv) return cxla_oom();
  Instr *x = d->operands[0];
  d->operands[0] = d->operands[1];
  d->operands[1] = x;
  I64List b = dd->lhs_batch, c = dd->lhs_contract;
  d->dot.lhs_batch = dd->rhs_batch;
  d->dot.lhs_contract = dd->rhs_contract;
  d->dot.rhs_batch = b;
  d->dot.rhs_contract = c;
  d->shape = s;
  t->dimensions.v = pv;
  *changed = true;
  return NULL;
}

/* swap_for_transpose on every dot of c read only by one transpose. */
static cxla_status swap_operands(HloModule *m, Computation *c, bool *changed) {
  bool any = false;
  for (int i = 0; i < c->ninstrs && !any; i++)
    any = c->instrs[i]->op == OP_TRANSPOSE && c->instrs[i]->operands[0]->op == OP_DOT;
  if (!any) return NULL;
  Users u;
  TRY(users_build(c, &u));
  cxla_status st = NULL;
  for (int i = 0; i < c->ninstrs && !st; i++) {
    Instr *t = c->instrs[i];
    if (t->op != OP_TRANSPOSE || t->noperands != 1) continue;
    Instr *d = t->operands[0];
    if (d->op != OP_DOT || d == c->root || u.count[d->id] != 1 || d->noperands != 2 || d->ncontrol_preds > 0 ||
        t->ncontrol_preds > 0 || instr_raw(d, "sparsity") || has_dynamic(d->shape) || !type_is_array(d->shape->type) ||
        !precision_symmetric(d))
      continue;
    const DotDims *dd = &d->dot;
    if (dd->lhs_batch.n != dd->rhs_batch.n || dd->lhs_contract.n != dd->rhs_contract.n ||
        !dims_ok(d->operands[0]->shape, &dd->lhs_batch, &dd->lhs_contract) ||
        !dims_ok(d->operands[1]->shape, &dd->rhs_batch, &dd->rhs_contract))
      continue;
    st = swap_for_transpose(m, d, t, changed);
  }
  users_free(&u);
  return st;
}

cxla_status pass_dot_canonicalize(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) {
    Computation *c = m->comps[i];
    if (c->is_fusion) continue;
    TRY(swap_operands(m, c, changed));
    bool any = false;
    for (int j = 0; j < c->ninstrs && !any; j++) any = wants_rewrite(c->instrs[j]);
    if (!any) continue;
    Canon k = {m, c, c->ninstrs};
    TRY(pass_rewrite_comp(c, canonicalize, &k, changed));
  }
  return NULL;
}
