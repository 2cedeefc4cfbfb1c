/* qr-expander: TensorFlow's QR custom-calls become HLO, as XLA's
 * QrExpander expands them (an unblocked Householder QR; XLA blocks the
 * same reflections, which changes only the rounding):
 *
 *   "Qr"(a[..., m, n]) -> (r_and_reflectors[..., m, n], taus[..., k]),
 *   k = min(m, n): LAPACK geqrf. For j = 0 .. k-1 (a while loop):
 *     alpha = a[j, j],  x = a[j+1:, j],  sigma = x.x,  mu = sqrt(alpha^2 + sigma)
 *     beta = alpha < 0 ? mu : -mu,  tau = (beta - alpha) / beta,
 *     v = (1, x / (alpha - beta))           (sigma == 0: beta = alpha, tau = 0, v = e_j)
 *     a[:, j+1:] -= tau v (v^T a[:, j+1:]);  a[j, j] = beta;  a[j+1:, j] = v[1:]
 *     taus[j] = tau
 *   "ProductOfElementaryHouseholderReflectors"(a[..., m, n], taus[..., k]) -> q[..., m, n],
 *   k <= n <= m: LAPACK orgqr. q = H_0 H_1 ... H_{k-1} I[m, n], with
 *   H_j = I - taus[j] v_j v_j^T, v_j = (0 (j times), 1, a[j+1:, j]); applied
 *   from the last reflector to the first (a while loop), q -= tau v (v^T q).
 *
 * Leading dimensions are batch dimensions. Floating-point and complex
 * element types; for complex ones, as XLA: sigma = x^H x, mu includes
 * imag(alpha), beta is real, tau = ((beta - re alpha) / beta,
 * -im alpha / beta), sigma == 0 needs im alpha == 0 too, the factorization
 * applies conj(tau) and the products use v^H. The interpreter runs both
 * targets directly as well (src/interp/linalg.c), so `cxla run --no-opt`
 * runs TensorFlow's modules as written.
 * The pass runs first in the default pipeline. */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"

enum { kMaxRank = 16 };

/* One expansion: the computation instructions go to, and the operand's
 * geometry. */
typedef struct Qx {
  Computation *c;
  ElemType t;
  int r;                 /* rank of the matrix operand (batch dims + 2) */
  int64_t dims[kMaxRank]; /* its dims */
  int64_t m, n, k;
} Qx;

static Arena *ar(const Qx *q) { return &q->c->module->arena; }

/* dims with the last two replaced: a batch shape plus up to two trailing dims. */
static Shape *shp(const Qx *q, ElemType t, int ntrail, int64_t d0, int64_t d1) {
  int64_t d[kMaxRank];
  int nb = q->r - 2;
  memcpy(d, q->dims, (size_t)nb * sizeof *d);
  if (ntrail > 0) d[nb] = d0;
  if (ntrail > 1) d[nb + 1] = d1;
  return shape_new(ar(q), t, nb + ntrail, d);
}

static Instr *add(const Qx *q, Opcode op, Shape *s, int n, Instr *const *ops) {
  return s ? comp_add_instr(q->c, op, s, n, ops, NULL) : NULL;
}

static Instr *iota(const Qx *q, ElemType t, int ntrail, int64_t d0, int64_t d1, int64_t dim) {
  Instr *in = add(q, OP_IOTA, shp(q, t, ntrail, d0, d1), 0, NULL);
  if (in) {
    in->attrs |= A_IOTA_DIM;
    in->index = dim;
  }
  return in;
}

static Instr *cmp(const Qx *q, Instr *a, Instr *b, CmpDir dir) {
  Shape *s = shape_clone(ar(q), a->shape);
  if (!s) return NULL;
  s->type = T_PRED;
  Instr *ops[2] = {a, b};
  Instr *in = add(q, OP_COMPARE, s, 2, ops);
  if (in) {
    in->attrs |= A_COMPARE;
    in->cmp_dir = dir;
  }
  return in;
}

static Instr *sel(const Qx *q, Instr *p, Instr *a, Instr *b) {
  Instr *ops[3] = {p, a, b};
  return add(q, OP_SELECT, shape_clone(ar(q), a->shape), 3, ops);
}

static Instr *bin(const Qx *q, Opcode op, Instr *a, Instr *b) {
  return a && b ? eu_binary(q->c, op, a, b) : NULL;
}

static bool cplx(const Qx *q) { return type_is_complex(q->t); }

/* The real type of q's element type (f32 for c64, f64 for c128). */
static ElemType real_t(const Qx *q) {
  return q->t == T_C64 ? T_F32 : q->t == T_C128 ? T_F64 : q->t;
}

/* An elementwise op whose result has x's dims and element type t. */
static Instr *typed(const Qx *q, Opcode op, ElemType t, Instr *x, Instr *y) {
  if (!x || (op == OP_COMPLEX && !y)) return NULL;
  Shape *s = shape_clone(ar(q), x->shape);
  if (!s) return NULL;
  s->type = t;
  Instr *ops[2] = {x, y};
  return add(q, op, s, y ? 2 : 1, ops);
}

/* conj(x) for complex x (HLO has no conjugate: complex(real, -imag)). */
static Instr *cconj_of(const Qx *q, Instr *x) {
  if (!cplx(q) || !x) return x;
  Instr *re = typed(q, OP_REAL, real_t(q), x, NULL), *im = typed(q, OP_IMAG, real_t(q), x, NULL);
  return typed(q, OP_COMPLEX, q->t, re, im ? eu_unary(q->c, OP_NEGATE, im) : NULL);
}

/* A scalar of type t broadcast to `like`'s shape. */
static Instr *splat(const Qx *q, const Instr *like, double v) {
  return like ? eu_scalar_like(q->c, like, v) : NULL;
}

/* x (batch shape + trailing dims kept) broadcast to batch + (d0, d1), its
 * trailing dims going to result dims `at` (relative to the batch). */
static Instr *bcast(const Qx *q, Instr *x, int64_t d0, int64_t d1, int nat, const int64_t *at) {
  if (!x) return NULL;
  int nb = q->r - 2;
  int64_t map[kMaxRank], to[kMaxRank];
  for (int i = 0; i < nb; i++) map[i] = i;
  for (int i = 0; i < nat; i++) map[nb + i] = nb + at[i];
  memcpy(to, q->dims, (size_t)nb * sizeof *to);
  to[nb] = d0;
  to[nb + 1] = d1;
  return eu_broadcast(q->c, x, nb + 2, to, nb + nat, map);
}

/* x (batch shape) broadcast to batch + (w). */
static Instr *bvec(const Qx *q, Instr *x, int64_t w) {
  if (!x) return NULL;
  int nb = q->r - 2;
  int64_t map[kMaxRank], to[kMaxRank];
  for (int i = 0; i < nb; i++) map[i] = i;
  memcpy(to, q->dims, (size_t)nb * sizeof *to);
  to[nb] = w;
  return eu_broadcast(q->c, x, nb + 1, to, nb, map);
}

static Instr *reshape(const Qx *q, Instr *x, Shape *s) {
  return x ? add(q, OP_RESHAPE, s, 1, &x) : NULL;
}

/* dynamic-slice(x, 0, ..., 0, j[, 0...]) of size `sizes`: index j at dim jd. */
static Instr *dslice(const Qx *q, Instr *x, Instr *j, int jd, const int64_t *sizes, Shape *s) {
  if (!x || !j) return NULL;
  int r = x->shape->rank;
  Instr *ops[kMaxRank + 1];
  ops[0] = x;
  Instr *zero = eu_scalar(q->c, T_S32, 0);
  if (!zero) return NULL;
  for (int i = 0; i < r; i++) ops[1 + i] = i == jd ? j : zero;
  Instr *in = add(q, OP_DYNAMIC_SLICE, s, r + 1, ops);
  if (!in) return NULL;
  in->attrs |= A_DYN_SLICE_SIZES;
  in->slice_sizes.n = r;
  return (in->slice_sizes.v = arena_i64dup(ar(q), sizes, (size_t)r)) ? in : NULL;
}

/* Column j of x[batch, m, w] as [batch, m]. */
static Instr *column(const Qx *q, Instr *x, Instr *j) {
  int64_t sz[kMaxRank];
  memcpy(sz, x->shape->dims, (size_t)q->r * sizeof *sz);
  sz[q->r - 1] = 1;
  Instr *s = dslice(q, x, j, q->r - 1, sz, shape_new(ar(q), q->t, q->r, sz));
  return reshape(q, s, shp(q, q->t, 1, q->m, 0));
}

/* Entry j of v[batch, w] as [batch]. */
static Instr *entry(const Qx *q, Instr *v, Instr *j) {
  if (!v) return NULL;
  int64_t sz[kMaxRank];
  memcpy(sz, v->shape->dims, (size_t)(q->r - 1) * sizeof *sz);
  sz[q->r - 2] = 1;
  Instr *s = dslice(q, v, j, q->r - 2, sz, shape_new(ar(q), v->shape->type, q->r - 1, sz));
  return reshape(q, s, shp(q, v->shape->type, 0, 0, 0));
}

/* dot over m: v[batch, m] . x[batch, m, w] -> [batch, w]. */
static Instr *vdot(const Qx *q, Instr *v, Instr *x, int64_t w) {
  if (!v || !x) return NULL;
  int nb = q->r - 2;
  Instr *ops[2] = {v, x};
  Instr *in = add(q, OP_DOT, shp(q, q->t, 1, w, 0), 2, ops);
  if (!in) return NULL;
  in->attrs |= A_DOT_DIMS;
  int64_t b[kMaxRank], lc = nb, rc = nb;
  for (int i = 0; i < nb; i++) b[i] = i;
  DotDims *d = &in->dot;
  d->lhs_batch.n = d->rhs_batch.n = nb;
  if (nb && (!(d->lhs_batch.v = arena_i64dup(ar(q), b, (size_t)nb)) ||
             !(d->rhs_batch.v = arena_i64dup(ar(q), b, (size_t)nb))))
    return NULL;
  d->lhs_contract.n = d->rhs_contract.n = 1;
  d->lhs_contract.v = arena_i64dup(ar(q), &lc, 1);
  d->rhs_contract.v = arena_i64dup(ar(q), &rc, 1);
  return d->lhs_contract.v && d->rhs_contract.v ? in : NULL;
}

/* x - tau v (v^H x) for x[batch, m, w], v[batch, m], tau[batch]. */
static Instr *reflect(const Qx *q, Instr *x, Instr *v, Instr *tau, int64_t w) {
  Instr *vtx = vdot(q, cconj_of(q, v), x, w);
  static const int64_t at0[1] = {0}, at1[1] = {1};
  Instr *outer = bin(q, OP_MULTIPLY, bcast(q, v, q->m, w, 1, at0), bcast(q, vtx, q->m, w, 1, at1));
  Instr *scaled = bin(q, OP_MULTIPLY, bcast(q, tau, q->m, w, 0, NULL), outer);
  return bin(q, OP_SUBTRACT, x, scaled);
}

/* The reflector of column j: (0, ..., 0, 1, col[j+1:] / div) as [batch, m].
 * rows: iota over m. */
static Instr *reflector(const Qx *q, Instr *col, Instr *rows, Instr *jb, Instr *div) {
  Instr *tail = bin(q, OP_DIVIDE, col, div);
  Instr *one = splat(q, col, 1), *zero = splat(q, col, 0);
  Instr *at_j = sel(q, cmp(q, rows, jb, CMP_EQ), one, zero);
  return tail && at_j ? sel(q, cmp(q, rows, jb, CMP_GT), tail, at_j) : NULL;
}

/* ---- the loops ---- */

/* A new computation named after base, placed before every other one (its
 * callees, the scalar add, are moved in front of it afterwards). */
static Computation *new_comp(HloModule *m, const char *base) {
  const char *name = module_unique_comp_name(m, base);
  Computation *c = name ? module_add_computation(m, name) : NULL;
  if (!c) return NULL;
  memmove(&m->comps[1], &m->comps[0], (size_t)(m->ncomps - 1) * sizeof(Computation *));
  m->comps[0] = c;
  return c;
}

static void move_front(HloModule *m, Computation *c) {
  int i = 0;
  while (i < m->ncomps && m->comps[i] != c) i++;
  if (i == m->ncomps) return;
  memmove(&m->comps[1], &m->comps[0], (size_t)i * sizeof(Computation *));
  m->comps[0] = c;
}

static Instr *param(Computation *c, Shape *s) {
  Instr *p = s ? comp_add_instr(c, OP_PARAMETER, s, 0, NULL, NULL) : NULL;
  if (!p) return NULL;
  p->param_number = 0;
  if (!(c->params = arena_array(&c->module->arena, 1, sizeof(Instr *)))) return NULL;
  c->params[0] = p;
  c->nparams = 1;
  return p;
}

static Instr *tuple(Computation *c, int n, Instr *const *els) {
  Shape *sh[4];
  for (int i = 0; i < n; i++) sh[i] = els[i]->shape;
  Shape *s = shape_new_tuple(&c->module->arena, n, sh);
  return s ? comp_add_instr(c, OP_TUPLE, s, n, els, NULL) : NULL;
}

/* condition: state[0] < limit (s32 counter). */
static Computation *make_cond(HloModule *m, const Shape *state, int64_t limit) {
  Computation *c = new_comp(m, "qr_expander.cond");
  if (!c) return NULL;
  Instr *p = param(c, shape_clone(&m->arena, state));
  Instr *i = p ? eu_gte(c, p, 0) : NULL;
  Instr *lim = eu_scalar(c, T_S32, (double)limit);
  if (!i || !lim) return NULL;
  Qx q = {.c = c, .r = 2};
  c->root = cmp(&q, i, lim, CMP_LT);
  return c->root ? c : NULL;
}

/* while(tuple(0, x, y)) with the given body; returns the while. */
static Instr *make_loop(Computation *c, Computation *body, Computation *cond, Instr *x, Instr *y) {
  Instr *zero = eu_scalar(c, T_S32, 0);
  if (!zero) return NULL;
  Instr *els[3] = {zero, x, y};
  Instr *init = tuple(c, 3, els);
  Shape *s = init ? shape_clone(&c->module->arena, init->shape) : NULL;
  Instr *w = s ? comp_add_instr(c, OP_WHILE, s, 1, &init, NULL) : NULL;
  if (!w || !(w->called = arena_array(&c->module->arena, 2, sizeof(Computation *)))) return NULL;
  w->called[0] = cond;
  w->called[1] = body;
  w->ncalled = 2;
  return w;
}

/* Body of the Qr loop over state (j, a, taus). */
static bool qr_body(Qx *q, Computation *body, const Shape *state) {
  q->c = body;
  Instr *p = param(body, shape_clone(ar(q), state));
  if (!p) return false;
  Instr *j = eu_gte(body, p, 0), *a = eu_gte(body, p, 1), *taus = eu_gte(body, p, 2);
  if (!j || !a || !taus) return false;
  Instr *rows = iota(q, T_S32, 1, q->m, 0, q->r - 2);
  Instr *jb = j && rows ? eu_broadcast(body, j, rows->shape->rank, rows->shape->dims, 0, NULL) : NULL;
  Instr *col = column(q, a, j);
  Instr *alpha = entry(q, col, j);
  if (!rows || !jb || !col || !alpha) return false;
  Instr *x = sel(q, cmp(q, rows, jb, CMP_GT), col, splat(q, col, 0));
  int64_t last = q->r - 2;
  ElemType rt = real_t(q);
  /* sigma = x^H x (real) */
  Instr *xx = cplx(q) ? typed(q, OP_REAL, rt, bin(q, OP_MULTIPLY, x, cconj_of(q, x)), NULL)
                      : bin(q, OP_MULTIPLY, x, x);
  Instr *sigma = xx ? eu_reduce_add(body, xx, eu_scalar(body, rt, 0), 1, &last) : NULL;
  Instr *are = cplx(q) ? typed(q, OP_REAL, rt, alpha, NULL) : alpha;
  Instr *aim = cplx(q) ? typed(q, OP_IMAG, rt, alpha, NULL) : NULL;
  if (!sigma || !are || (cplx(q) && !aim)) return false;
  /* mu = |(re alpha, im alpha, sqrt(sigma))| without overflow, as XLA's
   * Norm: w = max |part|, mu = w == 0 ? 0 : w sqrt(sum (part / w)^2) */
  Instr *parts[3] = {eu_unary(body, OP_ABS, are), NULL, NULL};
  int np = 0;
  np++;
  if (aim) parts[np++] = eu_unary(body, OP_ABS, aim);
  parts[np++] = eu_unary(body, OP_SQRT, sigma);
  Instr *w = parts[0], *ss = NULL;
  for (int k = 1; k < np; k++) w = bin(q, OP_MAXIMUM, w, parts[k]);
  for (int k = 0; k < np; k++) {
    Instr *t = bin(q, OP_DIVIDE, parts[k], w);
    t = bin(q, OP_MULTIPLY, t, t);
    ss = k ? bin(q, OP_ADD, ss, t) : t;
  }
  Instr *zr = splat(q, sigma, 0), *onr = splat(q, sigma, 1);
  Instr *wn = bin(q, OP_MULTIPLY, w, ss ? eu_unary(body, OP_SQRT, ss) : NULL);
  Instr *mu = w && wn && zr ? sel(q, cmp(q, w, zr, CMP_EQ), zr, wn) : NULL;
  if (!mu || !onr) return false;
  Instr *sig0 = cmp(q, sigma, zr, CMP_EQ);
  if (aim) sig0 = bin(q, OP_AND, sig0, cmp(q, aim, zr, CMP_EQ));
  Instr *neg_mu = eu_unary(body, OP_NEGATE, mu);
  Instr *beta = sel(q, sig0, are, sel(q, cmp(q, are, zr, CMP_LT), mu, neg_mu));
  if (!beta) return false;
  Instr *tre = bin(q, OP_DIVIDE, bin(q, OP_SUBTRACT, beta, are), beta);
  Instr *tau = cplx(q) ? typed(q, OP_COMPLEX, q->t, tre,
                               bin(q, OP_DIVIDE, eu_unary(body, OP_NEGATE, aim), beta))
                       : tre;
  Instr *beta_t = cplx(q) ? typed(q, OP_COMPLEX, q->t, beta, zr) : beta;
  Instr *zero = splat(q, alpha, 0), *one = splat(q, alpha, 1);
  tau = tau ? sel(q, sig0, zero, tau) : NULL;
  Instr *div = beta_t ? sel(q, sig0, one, bin(q, OP_SUBTRACT, alpha, beta_t)) : NULL;
  static const int64_t at0[1] = {0};
  Instr *v = reflector(q, col, rows, jb, bvec(q, div, q->m));
  if (!tau || !v) return false;
  /* trailing columns (> j) reflected; column j = (a[:j, j], beta, v[j+1:]) */
  Instr *ra = reflect(q, a, v, cconj_of(q, tau), q->n);
  Instr *r2 = iota(q, T_S32, 2, q->m, q->n, q->r - 2), *c2 = iota(q, T_S32, 2, q->m, q->n, q->r - 1);
  Instr *j2 = r2 ? eu_broadcast(body, j, r2->shape->rank, r2->shape->dims, 0, NULL) : NULL;
  if (!ra || !c2 || !j2) return false;
  Instr *vb = bcast(q, v, q->m, q->n, 1, at0);
  Instr *bb = bcast(q, beta_t, q->m, q->n, 0, NULL);
  Instr *colj = sel(q, cmp(q, r2, j2, CMP_LT), a, sel(q, cmp(q, r2, j2, CMP_EQ), bb, vb));
  Instr *na = sel(q, cmp(q, c2, j2, CMP_GT), ra, sel(q, cmp(q, c2, j2, CMP_EQ), colj, a));
  /* taus[j] = tau */
  Instr *tau1 = reshape(q, tau, shp(q, q->t, 1, 1, 0));
  Instr *zero_i = eu_scalar(body, T_S32, 0);
  if (!na || !tau1 || !zero_i) return false;
  Instr *ops[kMaxRank + 2];
  ops[0] = taus;
  ops[1] = tau1;
  for (int i = 0; i < q->r - 1; i++) ops[2 + i] = i == q->r - 2 ? j : zero_i;
  Instr *nt = add(q, OP_DYNAMIC_UPDATE_SLICE, shape_clone(ar(q), taus->shape), q->r + 1, ops);
  Instr *nj = bin(q, OP_ADD, j, eu_scalar(body, T_S32, 1));
  if (!nt || !nj) return false;
  Instr *els[3] = {nj, na, nt};
  return (body->root = tuple(body, 3, els)) != NULL;
}

/* Body of the ProductOfElementaryHouseholderReflectors loop over state
 * (i, q, a) with taus captured as a loop constant: state (i, q, (a, taus))
 * would nest; instead the state is (i, qm, a) and taus ride in a. */
static bool product_body(Qx *q, Computation *body, const Shape *state) {
  q->c = body;
  Instr *p = param(body, shape_clone(ar(q), state));
  if (!p) return false;
  Instr *i = eu_gte(body, p, 0), *qm = eu_gte(body, p, 1), *pack = eu_gte(body, p, 2);
  if (!i || !qm || !pack) return false;
  Instr *a = eu_gte(body, pack, 0), *taus = eu_gte(body, pack, 1);
  /* j = k - 1 - i */
  Instr *j = bin(q, OP_SUBTRACT, eu_scalar(body, T_S32, (double)(q->k - 1)), i);
  Instr *rows = iota(q, T_S32, 1, q->m, 0, q->r - 2);
  if (!a || !taus || !j || !rows) return false;
  Instr *jb = eu_broadcast(body, j, rows->shape->rank, rows->shape->dims, 0, NULL);
  Instr *col = column(q, a, j);
  if (!jb || !col) return false;
  Instr *v = reflector(q, col, rows, jb, splat(q, col, 1));
  Instr *tau = entry(q, taus, j);
  Instr *nq = v && tau ? reflect(q, qm, v, tau, q->n) : NULL;
  Instr *ni = bin(q, OP_ADD, i, eu_scalar(body, T_S32, 1));
  if (!nq || !ni) return false;
  Instr *els[3] = {ni, nq, pack};
  return (body->root = tuple(body, 3, els)) != NULL;
}

/* The Qr custom-call's replacement. */
static Instr *expand_qr(Qx *q, Instr *in) {
  Computation *c = q->c;
  HloModule *m = c->module;
  Shape *tshape = shp(q, q->t, 1, q->k, 0);
  Instr *taus0 = tshape ? eu_scalar(c, q->t, 0) : NULL;
  if (!taus0) return NULL;
  int64_t d[kMaxRank];
  memcpy(d, tshape->dims, (size_t)tshape->rank * sizeof *d);
  taus0 = eu_broadcast(c, taus0, tshape->rank, d, 0, NULL);
  if (!taus0 || !eu_scalar_add(m, q->t)) return NULL;
  Shape *sc = shape_new(&m->arena, T_S32, 0, NULL);
  Shape *els[3] = {sc, in->operands[0]->shape, tshape};
  Shape *state = sc ? shape_new_tuple(&m->arena, 3, els) : NULL;
  Computation *body = state ? new_comp(m, "qr_expander.qr_body") : NULL;
  Computation *cond = body ? make_cond(m, state, q->k) : NULL;
  if (!cond) return NULL;
  Qx qb = *q;
  if (!qr_body(&qb, body, state)) return NULL;
  Instr *w = make_loop(c, body, cond, in->operands[0], taus0);
  if (!w) return NULL;
  Instr *out[2] = {eu_gte(c, w, 1), eu_gte(c, w, 2)};
  return out[0] && out[1] ? tuple(c, 2, out) : NULL;
}

/* The ProductOfElementaryHouseholderReflectors custom-call's replacement. */
static Instr *expand_product(Qx *q, Instr *in) {
  Computation *c = q->c;
  HloModule *m = c->module;
  /* q0 = I[m, n] (batch-broadcast) */
  Instr *r2 = iota(q, T_S32, 2, q->m, q->n, q->r - 2), *c2 = iota(q, T_S32, 2, q->m, q->n, q->r - 1);
  Instr *eye = r2 && c2 ? cmp(q, r2, c2, CMP_EQ) : NULL;
  Shape *qs = shape_clone(&m->arena, in->operands[0]->shape);
  if (!eye || !qs) return NULL;
  qs->has_layout = false;
  qs->minor_to_major = NULL;
  qs->layout_tail = NULL;
  Instr *q0 = add(q, OP_CONVERT, qs, 1, &eye);
  Instr *pk[2] = {in->operands[0], in->operands[1]};
  Instr *pack = q0 ? tuple(c, 2, pk) : NULL;
  Shape *sc = shape_new(&m->arena, T_S32, 0, NULL);
  if (!pack || !sc || !eu_scalar_add(m, q->t)) return NULL;
  Shape *els[3] = {sc, q0->shape, pack->shape};
  Shape *state = shape_new_tuple(&m->arena, 3, els);
  Computation *body = state ? new_comp(m, "qr_expander.product_body") : NULL;
  Computation *cond = body ? make_cond(m, state, q->k) : NULL;
  if (!cond) return NULL;
  Qx qb = *q;
  if (!product_body(&qb, body, state)) return NULL;
  Instr *w = make_loop(c, body, cond, q0, pack);
  return w ? eu_gte(c, w, 1) : NULL;
}

/* Which target `in` is (0: none), with its geometry checked: a real
 * floating-point matrix operand of rank <= kMaxRank, static shapes, result
 * shapes as the targets define them. */
static int classify(Computation *c, Instr *in, Qx *q) {
  if (in->op != OP_CUSTOM_CALL || !in->custom_call_target) return 0;
  int kind = strcmp(in->custom_call_target, "Qr") == 0                                   ? 1
             : strcmp(in->custom_call_target, "ProductOfElementaryHouseholderReflectors") == 0 ? 2
                                                                                          : 0;
  if (!kind || in->noperands != kind) return 0;
  const Shape *x = in->operands[0]->shape;
  if ((!type_is_float(x->type) && !type_is_complex(x->type)) || x->rank < 2 || x->rank > kMaxRank || x->dynamic) return 0;
  memset(q, 0, sizeof *q);
  q->c = c;
  q->t = x->type;
  q->r = x->rank;
  memcpy(q->dims, x->dims, (size_t)x->rank * sizeof *x->dims);
  q->m = x->dims[x->rank - 2];
  q->n = x->dims[x->rank - 1];
  if (kind == 1) {
    q->k = q->m < q->n ? q->m : q->n;
    const Shape *s = in->shape;
    if (s->type != T_TUPLE || s->ntuple != 2 || !shape_compatible(s->tuple[0], x) ||
        s->tuple[1]->type != x->type || s->tuple[1]->rank != x->rank - 1 ||
        s->tuple[1]->dims[x->rank - 2] != q->k)
      return 0;
    for (int i = 0; i < x->rank - 2; i++)
      if (s->tuple[1]->dims[i] != x->dims[i]) return 0;
  } else {
    const Shape *t = in->operands[1]->shape;
    if (t->type != x->type || t->rank != x->rank - 1 || !shape_compatible(in->shape, x)) return 0;
    for (int i = 0; i < x->rank - 2; i++)
      if (t->dims[i] != x->dims[i]) return 0;
    q->k = t->dims[t->rank - 1];
    if (q->k > q->n || q->n > q->m) return 0;
  }
  return kind;
}

cxla_status pass_qr_expander(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  int ncomps = m->ncomps; /* the loops' computations are added in front */
  Computation **todo = cxla_malloc((size_t)(ncomps ? ncomps : 1) * sizeof *todo);
  if (!todo) return cxla_oom();
  memcpy(todo, m->comps, (size_t)ncomps * sizeof *todo);
  cxla_status st = NULL;
  for (int ci = 0; ci < ncomps && !st; ci++) {
    Computation *c = todo[ci];
    if (c->is_fusion) continue;
    bool here = false;
    int n = c->ninstrs;
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      Qx q;
      int kind = classify(c, in, &q);
      if (!kind) continue;
      Instr *r = kind == 1 ? expand_qr(&q, in) : expand_product(&q, in);
      if (!r) {
        st = cxla_oom();
        break;
      }
      comp_replace_uses(c, in, r);
      here = true;
    }
    if (st || !here) continue;
    if ((st = comp_sort(c))) break;
    comp_prune(c);
    *changed = true;
  }
  cxla_free(todo);
  if (*changed) {
    /* callees before callers: the scalar adds the loop bodies call go
     * first */
    for (int i = 0; i < m->ncomps; i++)
      if (strncmp(m->comps[i]->name, "scalar_add_computation.", 23) == 0)
        move_front(m, m->comps[i]);
  }
  return st;
}
