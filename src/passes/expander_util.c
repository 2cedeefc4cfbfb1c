/* Instruction builders for the expanders. See expander_util.h. */
#include "passes/expander_util.h"

#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"

Instr *eu_scalar(Computation *c, ElemType t, double v) {
  HloModule *m = c->module;
  Literal *l = NULL;
  cxla_status st = literal_create(t, 0, NULL, &l);
  if (st) {
    cxla_status_free(st);
    return NULL;
  }
  literal_set_f64(l, 0, v);
  if ((st = module_own_literal(m, l))) {
    cxla_status_free(st);
    return NULL;
  }
  Shape *s = shape_new(&m->arena, t, 0, NULL);
  Instr *in = s ? comp_add_instr(c, OP_CONSTANT, s, 0, NULL, NULL) : NULL;
  if (in) in->literal = l;
  return in;
}

Instr *eu_broadcast(Computation *c, Instr *x, int rank, const int64_t *to, int nmap,
                    const int64_t *map) {
  Arena *a = &c->module->arena;
  Shape *s = shape_new(a, x->shape->type, rank, to);
  Instr *in = s ? comp_add_instr(c, OP_BROADCAST, s, 1, &x, NULL) : NULL;
  if (!in) return NULL;
  in->attrs |= A_DIMENSIONS;
  in->dimensions.n = nmap;
  if (nmap && !(in->dimensions.v = arena_i64dup(a, map, (size_t)nmap))) return NULL;
  return in;
}

Instr *eu_scalar_like(Computation *c, const Instr *like, double v) {
  Instr *k = eu_scalar(c, like->shape->type, v);
  if (!k || like->shape->rank == 0) return k;
  return eu_broadcast(c, k, like->shape->rank, like->shape->dims, 0, NULL);
}

Instr *eu_gte(Computation *c, Instr *t, int64_t i) {
  Shape *s = shape_clone(&c->module->arena, t->shape->tuple[i]);
  Instr *in = s ? comp_add_instr(c, OP_GET_TUPLE_ELEMENT, s, 1, &t, NULL) : NULL;
  if (in) {
    in->attrs |= A_INDEX;
    in->index = i;
  }
  return in;
}

Instr *eu_transpose(Computation *c, Instr *x, const int64_t *perm) {
  Arena *a = &c->module->arena;
  int r = x->shape->rank;
  int64_t dims[64];
  if (r > 64) return NULL;
  for (int i = 0; i < r; i++) dims[i] = x->shape->dims[perm[i]];
  Shape *s = shape_new(a, x->shape->type, r, dims);
  Instr *in = s ? comp_add_instr(c, OP_TRANSPOSE, s, 1, &x, NULL) : NULL;
  if (!in) return NULL;
  in->attrs |= A_DIMENSIONS;
  in->dimensions.n = r;
  if (r && !(in->dimensions.v = arena_i64dup(a, perm, (size_t)r))) return NULL;
  return in;
}

Instr *eu_unary(Computation *c, Opcode op, Instr *a) {
  Shape *s = shape_clone(&c->module->arena, a->shape);
  return s ? comp_add_instr(c, op, s, 1, &a, NULL) : NULL;
}

Instr *eu_binary(Computation *c, Opcode op, Instr *a, Instr *b) {
  Shape *s = shape_clone(&c->module->arena, a->shape);
  Instr *ops[2] = {a, b};
  return s ? comp_add_instr(c, op, s, 2, ops, NULL) : NULL;
}

Computation *eu_scalar_add(HloModule *m, ElemType t) {
  char name[64];
  snprintf(name, sizeof name, "scalar_add_computation.%s", type_name(t));
  Computation *f = module_find_computation(m, name);
  if (f) return f;
  if (!(f = module_add_computation(m, name))) return NULL;
  /* callees are listed before their callers: move it to the front */
  memmove(&m->comps[1], &m->comps[0], (size_t)(m->ncomps - 1) * sizeof(Computation *));
  m->comps[0] = f;
  Arena *a = &m->arena;
  Instr *p[2];
  for (int i = 0; i < 2; i++) {
    Shape *s = shape_new(a, t, 0, NULL);
    if (!s || !(p[i] = comp_add_instr(f, OP_PARAMETER, s, 0, NULL, i ? "scalar_rhs" : "scalar_lhs")))
      return NULL;
    p[i]->param_number = i;
  }
  f->params = arena_array(a, 2, sizeof(Instr *));
  if (!f->params) return NULL;
  f->params[0] = p[0];
  f->params[1] = p[1];
  f->nparams = 2;
  f->root = eu_binary(f, OP_ADD, p[0], p[1]);
  return f->root ? f : NULL;
}

Instr *eu_reduce_add(Computation *c, Instr *x, Instr *init, int ndims, const int64_t *dims) {
  HloModule *m = c->module;
  Computation *add = eu_scalar_add(m, x->shape->type);
  if (!add) return NULL;
  int64_t keep[16];
  int nk = 0;
  for (int i = 0; i < x->shape->rank && nk < 16; i++) {
    bool reduced = false;
    for (int k = 0; k < ndims; k++) reduced |= dims[k] == i;
    if (!reduced) keep[nk++] = x->shape->dims[i];
  }
  Shape *s = shape_new(&m->arena, x->shape->type, nk, keep);
  Instr *ops[2] = {x, init};
  Instr *in = s ? comp_add_instr(c, OP_REDUCE, s, 2, ops, NULL) : NULL;
  if (!in) return NULL;
  in->attrs |= A_DIMENSIONS;
  in->dimensions.n = ndims;
  if (ndims && !(in->dimensions.v = arena_i64dup(&m->arena, dims, (size_t)ndims))) return NULL;
  in->called = arena_array(&m->arena, 1, sizeof(Computation *));
  if (!in->called) return NULL;
  in->called[0] = add;
  in->ncalled = 1;
  return in;
}
