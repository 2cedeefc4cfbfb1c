/* Reduce and dot rules of the algebraic simplifier.
 *
 * Reduce: only rewrites that keep every floating-point sum in the same
 * order. A reduce whose reduced dimensions hold one element each computes
 * f(init, x) per element, which is x when init is f's identity (-0 for a
 * float sum, +0 is not: +0 + -0 = +0). Two nested reduces merge only for
 * reducers that are associative and commutative on the type: max/min on
 * anything, integer add/multiply, and/or/xor.
 *
 * Dot: a transpose feeding a dot is folded into the dimension numbers
 * when the output's dimension order stays the same (the operand's free
 * dimensions keep their relative order). Other dot canonicalisations of
 * XLA (DotDecomposer: batch dimensions first, one contracting dimension)
 * are left out: the interpreter runs any dimension numbers directly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/algsimp.h"

/* init is the identity of reducer f on its type. */
static bool is_identity(Opcode f, const Instr *init) {
  ElemType t = init->shape->type;
  bool flt = type_is_float(t), integral = type_is_int(t) || t == T_PRED;
  switch (f) {
  case OP_ADD: return (flt && is_float_value(init, 0.0, true)) || (integral && is_int_value(init, 0));
  case OP_MULTIPLY: return is_one(init);
  case OP_MAXIMUM:
    return (flt && is_float_value(init, -INFINITY, false)) ||
           (integral && is_int_value(init, simp_int_min(t)));
  case OP_MINIMUM:
    return (flt && is_float_value(init, INFINITY, false)) ||
           (integral && is_int_value(init, simp_int_max(t)));
  case OP_AND: return integral && is_int_value(init, simp_all_ones(t));
  case OP_OR: case OP_XOR: return integral && is_int_value(init, 0);
  default: return false;
  }
}

/* f can be applied in any grouping and order on type t with the same
 * result bits. */
static bool reorderable(Opcode f, ElemType t) {
  bool integral = type_is_int(t) || t == T_PRED;
  switch (f) {
  case OP_MAXIMUM: case OP_MINIMUM: return integral || type_is_float(t);
  case OP_ADD: case OP_MULTIPLY: case OP_AND: case OP_OR: case OP_XOR: return integral;
  default: return false;
  }
}

static bool contains(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* reduce(reduce(y, i1, D1), i2, D2) -> reduce(y, i2, D1 + D2 mapped back
 * to y's dimensions), i1 the identity. */
static cxla_status merge_nested(Simp *s, Instr *in, Opcode f, Instr **out) {
  Instr *inner = in->operands[0];
  if (inner->op != OP_REDUCE || inner->noperands != 2 || inner->ncalled != 1) return NULL;
  if (simp_reducer_op(inner->called[0]) != f) return NULL;
  if (!is_identity(f, inner->operands[1])) return NULL;
  Instr *y = inner->operands[0];
  int ry = y->shape->rank;
  if (ry > 64) return NULL;
  int64_t kept[64], dims[64];
  int nk = 0, nd = 0;
  for (int i = 0; i < ry; i++) {
    if (contains(&inner->dimensions, i)) dims[nd++] = i;
    else kept[nk++] = i;
  }
  for (int i = 0; i < in->dimensions.n; i++) {
    int64_t d = in->dimensions.v[i];
    if (d < 0 || d >= nk) return NULL;
    dims[nd++] = kept[d];
  }
  qsort(dims, (size_t)nd, sizeof dims[0], cmp_i64);
  Instr *ops[2] = {y, in->operands[1]};
  Instr *r = simp_new(s, OP_REDUCE, in->shape, 2, ops);
  if (!r) return cxla_oom();
  bool ok = true;
  r->dimensions = simp_list(s, dims, nd, &ok);
  r->called = arena_array(&s->m->arena, 1, sizeof(Computation *));
  if (!ok || !r->called) return cxla_oom();
  r->called[0] = in->called[0];
  r->ncalled = 1;
  r->attrs |= A_DIMENSIONS;
  *out = r;
  return NULL;
}

/* reduce(broadcast(x), init, add) over exactly the dimensions the
 * broadcast added -> x * N (+ init unless it is zero), N the number of
 * elements summed: XLA:CPU's output (checked on jax.jit). Not exact (the
 * sum rounds differently), so never in exact mode. */
static cxla_status reduce_of_broadcast(Simp *s, Instr *in, Instr **out) {
  Instr *b = in->operands[0], *init = in->operands[1];
  if (s->exact || b->op != OP_BROADCAST || b->noperands != 1) return NULL;
  Instr *x = b->operands[0];
  if (!shape_compatible(x->shape, in->shape) || b->dimensions.n != x->shape->rank) return NULL;
  int64_t n = 1, last = -1;
  for (int i = 0; i < b->dimensions.n; i++) {
    if (b->dimensions.v[i] <= last || contains(&in->dimensions, b->dimensions.v[i])) return NULL;
    last = b->dimensions.v[i];
  }
  if (in->dimensions.n + b->dimensions.n != b->shape->rank) return NULL;
  for (int i = 0; i < in->dimensions.n; i++) n *= b->shape->dims[in->dimensions.v[i]];
  ElemType t = in->shape->type;
  if (!(type_is_float(t) || type_is_int(t))) return NULL;
  Instr *cnt = simp_filled(s, in->shape, (double)n, n);
  Instr *ops[2] = {x, cnt};
  Instr *mul = cnt ? simp_new(s, OP_MULTIPLY, in->shape, 2, ops) : NULL;
  if (!mul) return cxla_oom();
  bool zero = type_is_float(t) ? is_float_value(init, 0.0, false) || is_float_value(init, 0.0, true)
                               : is_int_value(init, 0);
  if (zero) return (*out = mul), NULL;
  Instr *bi = in->shape->rank ? simp_new(s, OP_BROADCAST, in->shape, 1, &init) : init;
  if (!bi) return cxla_oom();
  if (in->shape->rank) {
    bi->attrs |= A_DIMENSIONS;
    bi->dimensions = (I64List){0, NULL};
  }
  Instr *aops[2] = {bi, mul};
  if (!(*out = simp_new(s, OP_ADD, in->shape, 2, aops))) return cxla_oom();
  return NULL;
}

/* A variadic reduce (argmax's value and index) whose reduced dimensions
 * hold one element each: the tuple of its inputs, reshaped, as XLA does
 * (taking the inits for identities; not in exact mode). */
static cxla_status reduce_single_variadic(Simp *s, Instr *in, Instr **out) {
  int n = in->noperands / 2;
  if (s->exact || n < 2 || in->noperands != 2 * n || in->ncalled != 1 ||
      in->shape->type != T_TUPLE || in->shape->ntuple != n)
    return NULL;
  const Instr *x0 = in->operands[0];
  for (int i = 0; i < in->dimensions.n; i++) {
    int64_t d = in->dimensions.v[i];
    if (d < 0 || d >= x0->shape->rank || x0->shape->dims[d] != 1) return NULL;
  }
  Instr **elems = arena_array(&in->parent->module->arena, (size_t)n, sizeof(Instr *));
  if (!elems) return cxla_oom();
  for (int i = 0; i < n; i++) {
    Instr *x = in->operands[i];
    const Shape *r = in->shape->tuple[i];
    if (x->shape->type == T_TUPLE || x->shape->type != r->type || shape_elems(x->shape) != shape_elems(r))
      return NULL;
  }
  for (int i = 0; i < n; i++) {
    Instr *x = in->operands[i];
    Shape *r = in->shape->tuple[i];
    elems[i] = shape_compatible(x->shape, r) ? x : simp_new(s, OP_RESHAPE, r, 1, &x);
    if (!elems[i]) return cxla_oom();
  }
  return (*out = simp_new(s, OP_TUPLE, in->shape, n, elems)) ? NULL : cxla_oom();
}

static cxla_status rule_reduce(Simp *s, Instr *in, Instr **out) {
  if (in->shape->type == T_TUPLE) return reduce_single_variadic(s, in, out);
  if (in->noperands != 2 || in->ncalled != 1) return NULL;
  Opcode f = simp_reducer_op(in->called[0]);
  Instr *x = in->operands[0], *init = in->operands[1];
  ElemType t = in->shape->type;
  /* Every reduced dimension has one element: f(init, x) = x when init is
   * f's identity. XLA takes the init for an identity whatever it holds
   * (jax.jit of a sum over a size-1 axis keeps -0, and an init of 5 is
   * dropped): so does cxla, except in exact mode. */
  bool single = true;
  for (int i = 0; i < in->dimensions.n; i++) {
    int64_t d = in->dimensions.v[i];
    if (d < 0 || d >= x->shape->rank) return NULL;
    if (x->shape->dims[d] != 1) single = false;
  }
  if (single && (!s->exact || (f != OP_COUNT && is_identity(f, init)))) {
    if (shape_compatible(x->shape, in->shape)) return (*out = x), NULL;
    if (!(*out = simp_new(s, OP_RESHAPE, in->shape, 1, &x))) return cxla_oom();
    return NULL;
  }
  if (f == OP_COUNT) return NULL;
  if (f == OP_ADD) {
    TRY(reduce_of_broadcast(s, in, out));
    if (*out) return NULL;
  }
  if (reorderable(f, t)) return merge_nested(s, in, f, out);
  return NULL;
}

/* Folds transpose(a, perm) as dot operand `side` (0 lhs, 1 rhs) into the
 * dimension numbers. */
static cxla_status fold_transpose(Simp *s, Instr *in, int side, Instr **out) {
  Instr *t = in->operands[side];
  if (t->op != OP_TRANSPOSE || t->dimensions.n != t->shape->rank || t->shape->rank > 64)
    return NULL;
  const I64List *perm = &t->dimensions;
  const I64List *batch = side ? &in->dot.rhs_batch : &in->dot.lhs_batch;
  const I64List *contract = side ? &in->dot.rhs_contract : &in->dot.lhs_contract;
  /* Free dimensions must keep their order through the permutation. */
  int64_t last = -1;
  for (int i = 0; i < t->shape->rank; i++) {
    if (contains(batch, i) || contains(contract, i)) continue;
    if (perm->v[i] <= last) return NULL;
    last = perm->v[i];
  }
  /* Contracting dimensions keep their relative order too, so the sums run
   * in the same order whether an evaluator walks them by list position or
   * by dimension number. */
  for (int i = 0; i < contract->n; i++)
    for (int j = 0; j < contract->n; j++)
      if ((contract->v[i] < contract->v[j]) != (perm->v[contract->v[i]] < perm->v[contract->v[j]]))
        return NULL;
  int64_t nb[64], nc[64];
  for (int i = 0; i < batch->n; i++) nb[i] = perm->v[batch->v[i]];
  for (int i = 0; i < contract->n; i++) nc[i] = perm->v[contract->v[i]];
  /* A canonical operand (dot-canonicalize's form) stays canonical:
   * otherwise canonicalizing and folding would undo each other forever. */
  I64List nbl = {batch->n, nb}, ncl = {contract->n, nc};
  if (dot_operand_canonical(t->shape, batch, contract) &&
      !dot_operand_canonical(t->operands[0]->shape, &nbl, &ncl))
    return NULL;
  Instr *ops[2] = {in->operands[0], in->operands[1]};
  ops[side] = t->operands[0];
  Instr *d = simp_new(s, OP_DOT, in->shape, 2, ops);
  if (!d) return cxla_oom();
  instr_copy_attrs(d, in); /* every attribute (precision_config and other raw ones too) */
  bool ok = true;
  I64List b = simp_list(s, nb, batch->n, &ok), c = simp_list(s, nc, contract->n, &ok);
  if (!ok) return cxla_oom();
  if (side) {
    d->dot.rhs_batch = b;
    d->dot.rhs_contract = c;
  } else {
    d->dot.lhs_batch = b;
    d->dot.lhs_contract = c;
  }
  *out = d;
  return NULL;
}

/* transpose(dot(a, b)) exchanging the dot's two free dims (batch dims
 * first and kept in place, one free dim on each side) -> dot(b, a): every
 * element is the same sum in the same order. Only when the transpose is
 * the dot's one use (else the dot would run twice), with no operand
 * precisions that would need exchanging. Backends then write the result
 * in the order its users read it (a weight gradient's dW^T read by the
 * update). */
static cxla_status transpose_of_dot(Simp *s, Instr *in, Instr **out) {
  Instr *d = in->operands[0];
  const DotDims *dd = &d->dot;
  int r = d->shape->rank, nb = dd->lhs_batch.n;
  if (d->op != OP_DOT || d->noperands != 2 || !simp_single_use(s, d) || in->dimensions.n != r || r != nb + 2 ||
      dd->rhs_batch.n != nb)
    return NULL;
  for (int i = 0; i < d->nraw; i++)
    if (strcmp(d->raw[i].name, "metadata") != 0) return NULL;
  for (int i = 0; i < nb; i++)
    if (in->dimensions.v[i] != i) return NULL;
  if (in->dimensions.v[nb] != nb + 1 || in->dimensions.v[nb + 1] != nb) return NULL;
  /* one free dim on each side: rank - batch - contracting == 1 */
  if (d->operands[0]->shape->rank - nb - dd->lhs_contract.n != 1 ||
      d->operands[1]->shape->rank - nb - dd->rhs_contract.n != 1)
    return NULL;
  Instr *ops[2] = {d->operands[1], d->operands[0]};
  Instr *n = simp_new(s, OP_DOT, in->shape, 2, ops);
  if (!n) return cxla_oom();
  instr_copy_attrs(n, d); /* every attribute (precision_config and other raw ones too) */
  n->dot.lhs_batch = dd->rhs_batch;
  n->dot.rhs_batch = dd->lhs_batch;
  n->dot.lhs_contract = dd->rhs_contract;
  n->dot.rhs_contract = dd->lhs_contract;
  *out = n;
  return NULL;
}

static cxla_status rule_dot(Simp *s, Instr *in, Instr **out) {
  if (in->noperands != 2) return NULL;
  TRY(fold_transpose(s, in, 0, out));
  if (!*out) TRY(fold_transpose(s, in, 1, out));
  return NULL;
}

cxla_status algsimp_reduce(Simp *s, Instr *in, Instr **out) {
  switch (in->op) {
  case OP_REDUCE: return rule_reduce(s, in, out);
  case OP_DOT: return rule_dot(s, in, out);
  case OP_TRANSPOSE: return in->noperands == 1 ? transpose_of_dot(s, in, out) : NULL;
  default: return NULL;
  }
}
