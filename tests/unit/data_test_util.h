/* data_test_util.h: small builders for the unit tests of the data-movement
 * evaluators (test_shape_ops.c, test_reduce.c, test_sort.c, test_gather.c):
 * a module with one computation to hang hand-built instructions on, literal
 * makers, scalar computations (binary ops, comparators) and checks.
 * Everything returned is owned by the module (instructions, shapes) or by the
 * caller (literals: free with literal_free). */
#ifndef CXLA_DATA_TEST_UTIL_H
#define CXLA_DATA_TEST_UTIL_H

#include <stdarg.h>
#include <string.h>

#include "harness.h"
#include "interp/interp.h"
#include "ir/numeric.h"

/* dims as a compound literal: D(2, 3) */
/* The fixture every data-op test file shares: one module and computation
 * to build instructions in, and an interpreter context over them. */
static HloModule *M;
static Computation *C;
static Interp IP;

static inline void setup(void) {
  CHECK_OK(module_create("t", &M));
  C = module_add_computation(M, "c");
  IP = (Interp){.module = M};
}
static inline void teardown(void) { module_destroy(M); }

/* Runs one instruction through the family evaluator `eval` on n operand
 * literals, which it takes (frees). */
static inline Literal *trun(EvalFn eval, Instr *in, int n, Literal **ops) {
  Literal *out = NULL;
  CHECK_OK(eval(&IP, in, ops, &out));
  for (int i = 0; i < n; i++) literal_free(ops[i]);
  return out;
}

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define NDIMS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static inline Shape *tshape(HloModule *m, ElemType t, int rank, const int64_t *dims) {
  return shape_new(&m->arena, t, rank, dims);
}

/* A parameter instruction (value is passed by the test directly). */
static inline Instr *tparam(Computation *c, int num, Shape *s) {
  Instr *p = comp_add_instr(c, OP_PARAMETER, s, 0, NULL, NULL);
  p->param_number = num;
  return p;
}

/* An instruction with n operands (parameters of the given shapes are made
 * for it, so that operand shapes are available, e.g. to bitcast). */
static inline Instr *tinstr(Computation *c, Opcode op, Shape *s, int n, Shape *const *op_shapes) {
  Instr *ops[16];
  for (int i = 0; i < n; i++) ops[i] = tparam(c, i, op_shapes[i]);
  return comp_add_instr(c, op, s, n, ops, NULL);
}

static inline I64List tlist(HloModule *m, int n, const int64_t *v) {
  I64List l = {n, n ? arena_i64dup(&m->arena, v, (size_t)n) : NULL};
  return l;
}
#define L(m, ...) tlist(m, NDIMS(__VA_ARGS__), D(__VA_ARGS__))
#define L0 ((I64List){0, NULL})

/* Literals from values (converted with literal_set_f64 / literal_set_i64). */
static inline Literal *tlit_f(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l = NULL;
  cxla_status s = literal_create(t, rank, dims, &l);
  if (s) { cxla_status_free(s); return NULL; }
  for (int64_t i = 0; i < l->nelems; i++) literal_set_f64(l, i, v[i]);
  return l;
}
static inline Literal *tlit_i(ElemType t, int rank, const int64_t *dims, const int64_t *v) {
  Literal *l = NULL;
  cxla_status s = literal_create(t, rank, dims, &l);
  if (s) { cxla_status_free(s); return NULL; }
  for (int64_t i = 0; i < l->nelems; i++) literal_set_i64(l, i, v[i]);
  return l;
}
#define F(...) ((const double[]){__VA_ARGS__})
#define I(...) ((const int64_t[]){__VA_ARGS__})
static inline Literal *tscalar_f(ElemType t, double v) { return tlit_f(t, 0, NULL, &v); }
static inline Literal *tscalar_i(ElemType t, int64_t v) { return tlit_i(t, 0, NULL, &v); }

/* Checks an array literal's dims and values. */
static inline bool tcheck_dims(const Literal *l, int rank, const int64_t *dims) {
  if (!l || l->type == T_TUPLE || l->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (l->dims[i] != dims[i]) return false;
  return true;
}
static inline bool tcheck_f(const Literal *l, int64_t n, const double *v) {
  if (!l || l->nelems != n) return false;
  for (int64_t i = 0; i < n; i++) {
    double g = literal_get_f64(l, i);
    if (!(g == v[i] || (isnan(g) && isnan(v[i])))) {
      fprintf(stderr, "  element %lld: got %.9g, want %.9g\n", (long long)i, g, v[i]);
      return false;
    }
  }
  return true;
}
static inline bool tcheck_i(const Literal *l, int64_t n, const int64_t *v) {
  if (!l || l->nelems != n) return false;
  for (int64_t i = 0; i < n; i++)
    if (literal_get_i64(l, i) != v[i]) {
      fprintf(stderr, "  element %lld: got %lld, want %lld\n", (long long)i,
              (long long)literal_get_i64(l, i), (long long)v[i]);
      return false;
    }
  return true;
}

/* A computation (p0, p1) -> op(p0, p1) on scalars of type t. */
static inline Computation *tbinary(HloModule *m, const char *name, Opcode op, ElemType t) {
  Computation *c = module_add_computation(m, name);
  Shape *s = tshape(m, t, 0, NULL);
  Instr *a = tparam(c, 0, s), *b = tparam(c, 1, s);
  Instr *ab[2] = {a, b};
  c->root = comp_add_instr(c, op, s, 2, ab, NULL);
  c->nparams = 2;
  c->params = arena_array(&m->arena, 2, sizeof(Instr *));
  c->params[0] = a;
  c->params[1] = b;
  return c;
}

/* A computation over nparams scalars (types[i]) whose root compares
 * parameters lhs and rhs. */
static inline Computation *tcompare(HloModule *m, const char *name, int nparams, const ElemType *types,
                                    int lhs, int rhs, CmpDir dir, CmpType ct) {
  Computation *c = module_add_computation(m, name);
  c->nparams = nparams;
  c->params = arena_array(&m->arena, (size_t)nparams, sizeof(Instr *));
  for (int i = 0; i < nparams; i++) c->params[i] = tparam(c, i, tshape(m, types[i], 0, NULL));
  Instr *ab[2] = {c->params[lhs], c->params[rhs]};
  Instr *r = comp_add_instr(c, OP_COMPARE, tshape(m, T_PRED, 0, NULL), 2, ab, NULL);
  r->cmp_dir = dir;
  r->cmp_type = ct;
  r->attrs |= A_COMPARE;
  c->root = r;
  return c;
}

/* Adds n parameters of the given scalar types to an empty computation. */
static inline void tparams(HloModule *m, Computation *c, int n, const ElemType *types) {
  c->nparams = n;
  c->params = arena_array(&m->arena, (size_t)n, sizeof(Instr *));
  for (int i = 0; i < n; i++) c->params[i] = tparam(c, i, tshape(m, types[i], 0, NULL));
}

/* Adds an instruction with the given operands to computation c. */
static inline Instr *tadd(Computation *c, Opcode op, Shape *s, int n, Instr *const *ops) {
  return comp_add_instr(c, op, s, n, ops, NULL);
}

/* Allocation-failure sweep: runs fn(ctx, &out) with the n-th allocation
 * failing, for n = 1, 2, ... until a run needs fewer than n allocations.
 * Every run that hit the failure must return an error (under SAN=1, leaks in
 * those error paths are caught too); the last run must succeed. */
typedef cxla_status (*TOomFn)(void *ctx, Literal **out);
static inline void toom_sweep(TOomFn fn, void *ctx) {
  for (long n = 1; n < 100000; n++) {
    cxla_fail_alloc_at(n);
    Literal *out = NULL;
    cxla_status s = fn(ctx, &out);
    long used = cxla_fail_alloc_at(0);
    bool failed = s != NULL;
    if (failed && used < n) fprintf(stderr, "  unexpected error: %s\n", cxla_status_message(s));
    cxla_status_free(s);
    literal_free(out);
    if (used < n) {
      CHECK(!failed);
      return;
    }
    if (!failed) fprintf(stderr, "  allocation %ld failed but the call succeeded\n", n);
    CHECK(failed);
  }
}

#endif
