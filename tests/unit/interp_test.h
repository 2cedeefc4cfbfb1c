/* interp_test.h: building small HLO modules by hand for the interpreter's
 * unit tests (through the builder functions of ir.h), and running them.
 *
 * Everything returns NULL only on out-of-memory, which the tests treat as a
 * failure; modules are freed with module_destroy, literals with
 * literal_free. Include after harness.h. */
#ifndef CXLA_TESTS_INTERP_TEST_H
#define CXLA_TESTS_INTERP_TEST_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"
#include "ir/ir.h"
#include "ir/numeric.h"

static inline HloModule *tm_module(void) {
  HloModule *m = NULL;
  cxla_status s = module_create("test", &m);
  if (s) {
    cxla_status_free(s);
    return NULL;
  }
  return m;
}

static inline Computation *tm_comp(HloModule *m, const char *name) {
  return module_add_computation(m, name);
}

/* The last argument list is the dims: tm_shape(m, T_F32, 2, 3, 4) is
 * f32[3,4]. */
static inline Shape *tm_shape(HloModule *m, ElemType t, int rank, ...) {
  int64_t dims[8] = {0};
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank && i < 8; i++) dims[i] = va_arg(ap, int);
  va_end(ap);
  return shape_new(&m->arena, t, rank, dims);
}

static inline Shape *tm_scalar(HloModule *m, ElemType t) { return shape_new(&m->arena, t, 0, NULL); }

static inline Shape *tm_tuple(HloModule *m, int n, ...) {
  Shape *el[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && i < 8; i++) el[i] = va_arg(ap, Shape *);
  va_end(ap);
  return shape_new_tuple(&m->arena, n, el);
}

/* Adds parameter(n) and records it in c->params. */
static inline Instr *tm_param(Computation *c, int n, Shape *s) {
  Instr *p = comp_add_instr(c, OP_PARAMETER, s, 0, NULL, NULL);
  if (!p) return NULL;
  p->param_number = n;
  if (n >= c->nparams) {
    Instr **arr = arena_array(&c->module->arena, (size_t)n + 1, sizeof(Instr *));
    if (!arr) return NULL;
    if (c->nparams) memcpy(arr, c->params, (size_t)c->nparams * sizeof(Instr *));
    c->params = arr;
    c->nparams = n + 1;
  }
  c->params[n] = p;
  return p;
}

static inline Instr *tm_op(Computation *c, Opcode op, Shape *s, int nops, ...) {
  Instr *ops[16];
  va_list ap;
  va_start(ap, nops);
  for (int i = 0; i < nops && i < 16; i++) ops[i] = va_arg(ap, Instr *);
  va_end(ap);
  return comp_add_instr(c, op, s, nops, ops, NULL);
}

/* Sets the called computations of an instruction (to_apply, condition+body,
 * branches, ...). */
static inline void tm_calls(HloModule *m, Instr *in, int n, ...) {
  in->called = arena_array(&m->arena, (size_t)n, sizeof(Computation *));
  in->ncalled = n;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) in->called[i] = va_arg(ap, Computation *);
  va_end(ap);
}

/* A constant instruction owning a copy of literal l (which stays the
 * caller's). */
static inline Instr *tm_const(Computation *c, const Literal *l) {
  Literal *copy = NULL;
  cxla_status s = literal_clone(l, &copy);
  if (s) {
    cxla_status_free(s);
    return NULL;
  }
  s = module_own_literal(c->module, copy);
  if (s) {
    cxla_status_free(s);
    return NULL;
  }
  Shape *sh = shape_new(&c->module->arena, l->type, l->rank, l->dims);
  Instr *in = comp_add_instr(c, OP_CONSTANT, sh, 0, NULL, NULL);
  if (in) in->literal = copy;
  return in;
}

static inline void tm_root(Computation *c, Instr *r) { c->root = r; }

static inline void tm_entry(HloModule *m, Computation *c) {
  c->is_entry = true;
  m->entry = c;
}

/* ---- literals ---- */

static inline Literal *tl_new(ElemType t, int rank, const int64_t *dims) {
  Literal *l = NULL;
  cxla_status s = literal_create(t, rank, dims, &l);
  if (s) cxla_status_free(s);
  return l;
}

/* A rank-1 literal of n elements copied from data (type_bytes each), or a
 * scalar when n < 0 (one element). */
static inline Literal *tl_from(ElemType t, int64_t n, const void *data) {
  Literal *l = n < 0 ? tl_new(t, 0, NULL) : tl_new(t, 1, &n);
  if (l && l->nelems) memcpy(l->data, data, (size_t)(l->nelems * type_bytes(t)));
  return l;
}

static inline Literal *tl_f32(float v) { return tl_from(T_F32, -1, &v); }
static inline Literal *tl_s32(int32_t v) { return tl_from(T_S32, -1, &v); }
static inline Literal *tl_s64(int64_t v) { return tl_from(T_S64, -1, &v); }
static inline Literal *tl_pred(bool v) {
  unsigned char b = v;
  return tl_from(T_PRED, -1, &b);
}

/* Runs the module's entry; returns the status (the caller frees it). */
static inline cxla_status tm_run(HloModule *m, Literal *const *args, int n, Literal **out) {
  return cxla_interp_run(m, args, n, out);
}

/* ---- one-op modules ---- */

/* Builds `out = op(p0, ..., p{n-1})` with parameters shaped like args (all
 * rank-1 of the same length or scalars) and result type rt (shape of
 * args[0]), runs it on args, and returns the result (NULL on error, with
 * the status in *err if err is not NULL, else printed). */
static inline Literal *tm_eval_op(Opcode op, ElemType rt, int n, Literal *const *args,
                           void (*tweak)(Instr *, void *), void *ctx, cxla_status *err) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Instr *ps[8];
  for (int i = 0; i < n; i++)
    ps[i] = tm_param(c, i, shape_new(&m->arena, args[i]->type, args[i]->rank, args[i]->dims));
  /* The result takes the dims of the largest operand. */
  const Literal *big = args[0];
  for (int i = 1; i < n; i++)
    if (args[i]->rank > big->rank) big = args[i];
  Shape *rs = shape_new(&m->arena, rt, big->rank, big->dims);
  Instr *r = comp_add_instr(c, op, rs, n, ps, NULL);
  if (tweak) tweak(r, ctx);
  tm_root(c, r);
  tm_entry(m, c);
  Literal *out = NULL;
  cxla_status s = tm_run(m, args, n, &out);
  module_destroy(m);
  if (s) {
    if (err) *err = s;
    else {
      fprintf(stderr, "tm_eval_op(%s): %s\n", op_name(op), cxla_status_message(s));
      cxla_status_free(s);
    }
    return NULL;
  }
  if (err) *err = NULL;
  return out;
}

#endif
