/* Dot strength reduction, as XLA:CPU's simplifier leaves dots (checked on
 * jax.jit output: vector.vector, batched vector.vector, [1,K].[K,1], outer
 * products and [M,1].[1,N] become elementwise code; matrix.vector and
 * matrix.matrix stay dots):
 *
 *   - every contracting dimension has size 1 (or there is none): the dot
 *     is a product of broadcasts, multiply(broadcast(lhs), broadcast(rhs))
 *     in the result's dimension order [batch, lhs free, rhs free];
 *   - otherwise, every free (non-batch, non-contracting) dimension of both
 *     operands has size 1: the dot is reduce(multiply(lhs', rhs'), add)
 *     over the contracting dimensions, lhs' and rhs' both laid out as
 *     [batch, contracting] in the dimension numbers' order.
 *
 * f16 and bf16 dots compute in f32 and round once, as XLA:CPU runs them
 * (its ChangeOpDataType / bf16 normalization of dots), so the operands are
 * converted to f32 and the result back. Mixed-type dots (a preferred
 * result type) convert the operands to the result type first. Only real
 * float and integer dots are rewritten; the sum of the reduce form runs in
 * the reduce's order, which is XLA's. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/algsimp.h"

static bool has(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* x converted to type t (x itself when it has it). */
static Instr *to_type(Simp *s, Instr *x, ElemType t) {
  if (x->shape->type == t) return x;
  Shape *sh = shape_clone(&s->m->arena, x->shape);
  if (!sh) return NULL;
  sh->type = t;
  return comp_add_instr(s->c, OP_CONVERT, sh, 1, &x, NULL);
}

/* x with its dimensions ordered as `order` (n of them, the others, all of
 * size 1, dropped): a transpose when the order changes, then a reshape. */
static Instr *arrange(Simp *s, Instr *x, const int64_t *order, int n) {
  int r = x->shape->rank;
  int64_t kept[64], dims[64];
  int nk = 0;
  for (int i = 0; i < r; i++) {
    bool listed = false;
    for (int k = 0; k < n; k++) listed |= order[k] == i;
    if (!listed) kept[nk++] = i;
  }
  /* the full permutation: listed dims first in their order, then the rest */
  int64_t perm[64];
  for (int k = 0; k < n; k++) perm[k] = order[k];
  for (int k = 0; k < nk; k++) perm[n + k] = kept[k];
  bool identity = true;
  for (int i = 0; i < r; i++) identity &= perm[i] == i;
  Instr *v = x;
  if (!identity) {
    for (int i = 0; i < r; i++) dims[i] = x->shape->dims[perm[i]];
    Shape *tsh = simp_shape(s, x->shape, r, dims);
    if (!tsh || !(v = simp_new(s, OP_TRANSPOSE, tsh, 1, &x))) return NULL;
    bool ok = true;
    v->dimensions = simp_list(s, perm, r, &ok);
    v->attrs |= A_DIMENSIONS;
    if (!ok) return NULL;
  }
  if (n == r) return v;
  for (int k = 0; k < n; k++) dims[k] = x->shape->dims[order[k]];
  Shape *sh = simp_shape(s, x->shape, n, dims);
  return sh ? simp_new(s, OP_RESHAPE, sh, 1, &v) : NULL;
}

static Instr *broadcast_into(Simp *s, Instr *x, const Shape *like, const int64_t *map, int n) {
  Shape *sh = simp_shape(s, like, like->rank, like->dims);
  if (!sh) return NULL;
  sh->type = x->shape->type;
  Instr *b = simp_new(s, OP_BROADCAST, sh, 1, &x);
  if (!b) return NULL;
  bool ok = true;
  b->dimensions = simp_list(s, map, n, &ok);
  b->attrs |= A_DIMENSIONS;
  return ok ? b : NULL;
}

/* Scalar add computation of type t, found or made (first in the list). */
static Computation *add_comp(Simp *s, ElemType t) {
  char name[64];
  snprintf(name, sizeof name, "scalar_add_computation.%s", type_name(t));
  Computation *f = module_find_computation(s->m, name);
  if (f) return f;
  if (!(f = module_add_computation(s->m, name))) return NULL;
  HloModule *m = s->m;
  memmove(&m->comps[1], &m->comps[0], (size_t)(m->ncomps - 1) * sizeof(Computation *));
  m->comps[0] = f;
  Instr *p[2];
  for (int i = 0; i < 2; i++) {
    Shape *sh = shape_new(&m->arena, t, 0, NULL);
    if (!sh || !(p[i] = comp_add_instr(f, OP_PARAMETER, sh, 0, NULL, i ? "rhs" : "lhs")))
      return NULL;
    p[i]->param_number = i;
  }
  if (!(f->params = arena_array(&m->arena, 2, sizeof(Instr *)))) return NULL;
  f->params[0] = p[0];
  f->params[1] = p[1];
  f->nparams = 2;
  Shape *sh = shape_new(&m->arena, t, 0, NULL);
  f->root = sh ? comp_add_instr(f, OP_ADD, sh, 2, p, NULL) : NULL;
  return f->root ? f : NULL;
}

cxla_status algsimp_dot(Simp *s, Instr *in, Instr **out) {
  if (in->op != OP_DOT || in->noperands != 2 || s->exact) return NULL;
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType rt = in->shape->type;
  if (!(type_is_float(rt) || type_is_int(rt)) || rt == T_PRED) return NULL;
  if (!(type_is_float(a->shape->type) || type_is_int(a->shape->type)) ||
      !(type_is_float(b->shape->type) || type_is_int(b->shape->type)))
    return NULL;
  if (!(rt == T_F16 || rt == T_BF16 || rt == T_F32 || rt == T_F64 || type_is_int(rt))) return NULL;
  const DotDims *d = &in->dot;
  int ra = a->shape->rank, rb = b->shape->rank, nb = d->lhs_batch.n, nc = d->lhs_contract.n;
  if (ra > 63 || rb > 63 || in->shape->rank > 63) return NULL;
  bool unit_contract = true;
  for (int i = 0; i < nc; i++) unit_contract &= a->shape->dims[d->lhs_contract.v[i]] == 1;
  bool unit_free = true;
  for (int i = 0; i < ra; i++)
    if (!has(&d->lhs_batch, i) && !has(&d->lhs_contract, i)) unit_free &= a->shape->dims[i] == 1;
  for (int i = 0; i < rb; i++)
    if (!has(&d->rhs_batch, i) && !has(&d->rhs_contract, i)) unit_free &= b->shape->dims[i] == 1;
  if (!unit_contract && !unit_free) return NULL;
  ElemType ct = (rt == T_F16 || rt == T_BF16) ? T_F32 : rt;
  Instr *ca = to_type(s, a, ct), *cb = ca ? to_type(s, b, ct) : NULL;
  if (!cb) return cxla_oom();
  int64_t oa[64], ob[64], map[64];
  Instr *r;
  if (unit_contract) {
    /* [batch, free] of each operand, broadcast into the result. */
    int na = 0, nbb = 0;
    for (int i = 0; i < nb; i++) oa[na++] = d->lhs_batch.v[i];
    for (int i = 0; i < ra; i++)
      if (!has(&d->lhs_batch, i) && !has(&d->lhs_contract, i)) oa[na++] = i;
    for (int i = 0; i < nb; i++) ob[nbb++] = d->rhs_batch.v[i];
    for (int i = 0; i < rb; i++)
      if (!has(&d->rhs_batch, i) && !has(&d->rhs_contract, i)) ob[nbb++] = i;
    Instr *xa = arrange(s, ca, oa, na), *xb = xa ? arrange(s, cb, ob, nbb) : NULL;
    if (!xb) return cxla_oom();
    for (int i = 0; i < na; i++) map[i] = i;
    Instr *ba = broadcast_into(s, xa, in->shape, map, na);
    for (int i = 0; i < nb; i++) map[i] = i;
    for (int i = nb; i < nbb; i++) map[i] = na + (i - nb);
    Instr *bb = ba ? broadcast_into(s, xb, in->shape, map, nbb) : NULL;
    Instr *ops[2] = {ba, bb};
    r = bb ? simp_new(s, OP_MULTIPLY, ba->shape, 2, ops) : NULL;
  } else {
    /* [batch, contracting] of each operand; multiply; sum the contracting. */
    for (int i = 0; i < nb; i++) oa[i] = d->lhs_batch.v[i], ob[i] = d->rhs_batch.v[i];
    for (int i = 0; i < nc; i++)
      oa[nb + i] = d->lhs_contract.v[i], ob[nb + i] = d->rhs_contract.v[i];
    Instr *xa = arrange(s, ca, oa, nb + nc), *xb = xa ? arrange(s, cb, ob, nb + nc) : NULL;
    Instr *ops[2] = {xa, xb};
    Instr *mul = xb ? simp_new(s, OP_MULTIPLY, xa->shape, 2, ops) : NULL;
    Instr *zero = mul ? simp_scalar(s, ct, 0, 0) : NULL;
    Computation *f = zero ? add_comp(s, ct) : NULL;
    if (!f) return cxla_oom();
    int64_t bd[64];
    for (int i = 0; i < nb; i++) bd[i] = mul->shape->dims[i];
    Instr *rops[2] = {mul, zero};
    Shape *rsh = simp_shape(s, mul->shape, nb, bd);
    if (!rsh || !(r = simp_new(s, OP_REDUCE, rsh, 2, rops))) return cxla_oom();
    for (int i = 0; i < nc; i++) map[i] = nb + i;
    bool ok = true;
    r->dimensions = simp_list(s, map, nc, &ok);
    r->attrs |= A_DIMENSIONS;
    r->called = arena_array(&s->m->arena, 1, sizeof(Computation *));
    if (!ok || !r->called) return cxla_oom();
    r->called[0] = f;
    r->ncalled = 1;
    Shape *sh = simp_shape(s, in->shape, in->shape->rank, in->shape->dims);
    if (!sh) return cxla_oom();
    sh->type = ct;
    if (in->shape->rank != nb || !shape_compatible(sh, r->shape))
      r = simp_new(s, OP_RESHAPE, sh, 1, &r);
  }
  if (!r || !(r = to_type(s, r, rt))) return cxla_oom();
  *out = r;
  return NULL;
}

/* ---- convolution: a zero pad of the input folds into the window ----
 * conv(pad(x, 0), k) -> conv(x, k) with the pad's edge padding added to
 * the window's and its interior padding as the input (base) dilation, as
 * XLA's simplifier does (jax.jit of an NHWC convolution of jnp.pad(x)
 * shows it). XLA:CPU canonicalizes convolutions to an input laid out
 * batch, spatial..., feature first, so a pad feeding any other input
 * layout meets a transpose and stays: cxla folds only into inputs already
 * in that layout. Not with a non-zero pad value, padding of the batch or
 * feature dimension, negative padding, or an input dilation already there
 * with padding to add. Padding positions are skipped instead of
 * multiplied by 0 (an inf or NaN kernel element no longer meets them), so
 * never in exact mode. */
cxla_status algsimp_conv(Simp *s, Instr *in, Instr **out) {
  if (in->op != OP_CONVOLUTION || in->noperands != 2 || s->exact) return NULL;
  Instr *p = in->operands[0];
  const ConvDims *cd = &in->conv;
  int r = p->shape->rank, ns = cd->nspatial;
  if (p->op != OP_PAD || p->noperands != 2 || !p->padding || in->nwindow != ns || !in->window)
    return NULL;
  ElemType t = p->shape->type;
  bool zero = type_is_float(t) ? is_float_value(p->operands[1], 0.0, false) ||
                                     is_float_value(p->operands[1], 0.0, true)
                               : is_int_value(p->operands[1], 0);
  if (!zero || cd->in_batch != 0 || cd->in_feature != r - 1 || ns != r - 2) return NULL;
  for (int i = 0; i < ns; i++)
    if (cd->in_spatial[i] != i + 1) return NULL;
  const PadDim *pb = &p->padding[0], *pf = &p->padding[r - 1];
  if (pb->lo || pb->hi || pb->interior || pf->lo || pf->hi || pf->interior) return NULL;
  for (int i = 0; i < ns; i++) {
    const PadDim *pd = &p->padding[i + 1];
    const WindowDim *w = &in->window[i];
    if (pd->lo < 0 || pd->hi < 0 || pd->interior < 0) return NULL;
    if (w->lhs_dilate != 1 && (pd->lo || pd->hi || pd->interior)) return NULL;
  }
  Instr *ops[2] = {p->operands[0], in->operands[1]};
  Instr *c = instr_clone(s->c, in, 2, ops, NULL);
  if (!c || !(c->window = arena_array(&s->m->arena, (size_t)ns, sizeof(WindowDim))))
    return cxla_oom();
  for (int i = 0; i < ns; i++) {
    const PadDim *pd = &p->padding[i + 1];
    c->window[i] = in->window[i];
    c->window[i].pad_lo += pd->lo;
    c->window[i].pad_hi += pd->hi;
    if (pd->interior) c->window[i].lhs_dilate = pd->interior + 1;
  }
  c->ncontrol_preds = 0;
  c->control_preds = NULL;
  *out = c;
  return NULL;
}
