/* Unit tests of src/interp/sort.c: sort (any number of operands, stable,
 * fast and called comparators) and topk. */
#include "data_test_util.h"
#include "verify/verify.h"


static Literal *run(Instr *in, int n, Literal **ops) { return trun(interp_sort, in, n, ops); }

static Instr *mksort(Shape *result, int n, Shape *const *ops, Computation *cmp, int64_t dim) {
  Instr *in = tinstr(C, OP_SORT, result, n, ops);
  in->ncalled = 1;
  in->called = arena_array(&M->arena, 1, sizeof(Computation *));
  in->called[0] = cmp;
  in->dimensions = L(M, dim);
  in->is_stable = true;
  return in;
}

/* keys [3,1,3,2,1] with payload 0..4: equal keys keep their order. */
static void check_stable(Computation *cmp) {
  Shape *ks = tshape(M, T_S32, 1, D(5)), *vs = tshape(M, T_F32, 1, D(5));
  Shape *ops[2] = {ks, vs};
  Instr *in = mksort(shape_new_tuple(&M->arena, 2, ops), 2, ops, cmp, 0);
  Literal *a[2] = {tlit_i(T_S32, 1, D(5), I(3, 1, 3, 2, 1)), tlit_f(T_F32, 1, D(5), F(0, 1, 2, 3, 4))};
  Literal *r = run(in, 2, a);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_i(r->tuple[0], 5, I(1, 1, 2, 3, 3)));
    CHECK(tcheck_f(r->tuple[1], 5, F(1, 4, 3, 0, 2)));
  }
  literal_free(r);
}

TEST(stable_sort_fast_comparator) {
  setup();
  ElemType ty[4] = {T_S32, T_S32, T_F32, T_F32};
  check_stable(tcompare(M, "lt", 4, ty, 0, 1, CMP_LT, CMPT_DEFAULT));
  teardown();
}

TEST(stable_sort_called_comparator) {
  setup();
  /* and(lt, lt): the same order, but not a bare compare: the scalar call's
   * straight-line program (data_common.c) runs it. */
  ElemType ty[4] = {T_S32, T_S32, T_F32, T_F32};
  Computation *c = module_add_computation(M, "lt2");
  tparams(M, c, 4, ty);
  Shape *pred = tshape(M, T_PRED, 0, NULL);
  Instr *lt = tadd(c, OP_COMPARE, pred, 2, (Instr *[]){c->params[0], c->params[1]});
  lt->cmp_dir = CMP_LT;
  c->root = tadd(c, OP_AND, pred, 2, (Instr *[]){lt, lt});
  check_stable(c);
  teardown();
}

TEST(sort_dim0_descending_and_by_second_operand) {
  setup();
  ElemType ty[2] = {T_S32, T_S32};
  Shape *s = tshape(M, T_S32, 2, D(3, 2));
  Instr *in = mksort(s, 1, &s, tcompare(M, "gt", 2, ty, 0, 1, CMP_GT, CMPT_DEFAULT), 0);
  Literal *a[1] = {tlit_i(T_S32, 2, D(3, 2), I(3, 1, 1, 2, 2, 0))};
  Literal *r = run(in, 1, a);
  CHECK(tcheck_i(r, 6, I(3, 2, 2, 1, 1, 0)));
  literal_free(r);

  /* Comparator on operand 1 (parameters 2 and 3), reversed (p3 < p2). */
  ElemType ty4[4] = {T_S32, T_S32, T_S32, T_S32};
  Shape *v = tshape(M, T_S32, 1, D(4));
  Shape *ops[2] = {v, v};
  in = mksort(shape_new_tuple(&M->arena, 2, ops), 2, ops,
              tcompare(M, "by1", 4, ty4, 3, 2, CMP_LT, CMPT_DEFAULT), 0);
  Literal *b[2] = {tlit_i(T_S32, 1, D(4), I(10, 20, 30, 40)), tlit_i(T_S32, 1, D(4), I(2, 9, 5, 7))};
  r = run(in, 2, b);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_i(r->tuple[0], 4, I(20, 40, 30, 10)));
    CHECK(tcheck_i(r->tuple[1], 4, I(9, 7, 5, 2)));
  } else {
    CHECK(false);
  }
  literal_free(r);
  teardown();
}

TEST(sort_total_order) {
  setup();
  ElemType ty[2] = {T_F32, T_F32};
  Shape *s = tshape(M, T_F32, 1, D(6));
  Instr *in = mksort(s, 1, &s, tcompare(M, "lt", 2, ty, 0, 1, CMP_LT, CMPT_TOTALORDER), 0);
  Literal *a[1] = {tlit_f(T_F32, 1, D(6), F(NAN, 1, 0.0, -0.0, -INFINITY, -NAN))};
  Literal *r = run(in, 1, a);
  CHECK(r && r->nelems == 6);
  if (r && r->nelems == 6) {
    const float *d = r->data;
    CHECK(isnan(d[0]) && signbit(d[0]));
    CHECK(d[1] == -INFINITY);
    CHECK(d[2] == 0 && signbit(d[2]));
    CHECK(d[3] == 0 && !signbit(d[3]));
    CHECK(d[4] == 1);
    CHECK(isnan(d[5]) && !signbit(d[5]));
  }
  literal_free(r);
  teardown();
}

/* JAX's comparator of floats (NaNs made one NaN, -0 made +0, then a
 * total-order LT) on [NaN, 1, -0, +0, -inf, -NaN, 0.5, -0] with payload
 * 0..7: a stable sort puts the -inf first, the four zeros in their order,
 * 0.5, 1, the NaNs last in their order. `wrap` passes the comparator's
 * result through a rank-0 reshape, which is no elementwise op: then
 * interp_call runs every comparison instead of the straight-line program;
 * both must give this order. */
static const char *jax_sort_text(bool wrap) {
  static char buf[2048];
  snprintf(buf, sizeof buf,
           "HloModule m\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
           "  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n"
           "  nan = f32[] constant(nan)\n  z = f32[] constant(0)\n"
           "  na = pred[] compare(a, a), direction=NE\n  ea = pred[] compare(a, z), direction=EQ\n"
           "  sa = f32[] select(ea, z, a)\n  ca = f32[] select(na, nan, sa)\n"
           "  nb = pred[] compare(b, b), direction=NE\n  eb = pred[] compare(b, z), direction=EQ\n"
           "  sb = f32[] select(eb, z, b)\n  cb = f32[] select(nb, nan, sb)\n"
           "  %%s = pred[] compare(ca, cb), direction=LT, type=TOTALORDER\n%s}\n"
           "ENTRY e {\n  x = f32[8] parameter(0)\n  p = s32[8] iota(), iota_dimension=0\n"
           "  ROOT s = (f32[8], s32[8]) sort(x, p), dimensions={0}, is_stable=true, to_apply=cmp\n}\n",
           wrap ? "  ROOT w = pred[] reshape(l)\n" : "");
  static char out[2048];
  snprintf(out, sizeof out, buf, wrap ? "l" : "ROOT l");
  return out;
}

TEST(sort_jax_float_comparator_both_paths) {
  for (int wrap = 0; wrap < 2; wrap++) {
    const char *text = jax_sort_text(wrap);
    cxla_module *m = NULL;
    cxla_literal *r = NULL;
    Literal *x = tlit_f(T_F32, 1, D(8), F(NAN, 1, -0.0, 0.0, -INFINITY, -NAN, 0.5, -0.0));
    cxla_status st = cxla_module_parse(text, strlen(text), "jax_sort", &m);
    if (!st) st = verify_module(m);
    if (!st) st = cxla_interp_run(m, &x, 1, &r);
    if (st) fprintf(stderr, "wrap %d: %s\n", wrap, cxla_status_message(st));
    CHECK(!st && r && r->type == T_TUPLE && r->ntuple == 2);
    if (!st && r && r->ntuple == 2) {
      const float *v = r->tuple[0]->data;
      CHECK(tcheck_i(r->tuple[1], 8, I(4, 2, 3, 7, 6, 1, 0, 5)));
      CHECK(v[0] == -INFINITY && v[5] == 1 && isnan(v[6]) && isnan(v[7]));
      CHECK(signbit(v[1]) && !signbit(v[2]) && signbit(v[3]));
    }
    cxla_status_free(st);
    literal_free(r);
    literal_free(x);
    cxla_module_destroy(m);
  }
}

static Instr *mktopk(Shape *x, int64_t k, bool largest) {
  Shape *ts[2] = {tshape(M, x->type, x->rank, x->dims), tshape(M, T_S32, x->rank, x->dims)};
  ts[0]->dims[x->rank - 1] = k;
  ts[1]->dims[x->rank - 1] = k;
  Instr *in = tinstr(C, OP_TOPK, shape_new_tuple(&M->arena, 2, ts), 1, &x);
  in->topk_k = k;
  in->topk_largest = largest;
  return in;
}

TEST(topk_ties_lower_index_first) {
  setup();
  Instr *in = mktopk(tshape(M, T_F32, 2, D(2, 5)), 3, true);
  Literal *a[1] = {tlit_f(T_F32, 2, D(2, 5), F(1, 3, 3, 2, 5, 0, NAN, 4, 4, -1))};
  Literal *r = run(in, 1, a);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_dims(r->tuple[0], 2, D(2, 3)));
    CHECK(tcheck_f(r->tuple[0], 6, F(5, 3, 3, NAN, 4, 4)));
    CHECK(tcheck_i(r->tuple[1], 6, I(4, 1, 2, 1, 2, 3)));
  }
  literal_free(r);
  in = mktopk(tshape(M, T_S32, 1, D(5)), 2, false);
  Literal *b[1] = {tlit_i(T_S32, 1, D(5), I(4, 1, 3, 1, 0))};
  r = run(in, 1, b);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_i(r->tuple[0], 2, I(0, 1)));
    CHECK(tcheck_i(r->tuple[1], 2, I(4, 1)));
  } else {
    CHECK(false);
  }
  literal_free(r);
  teardown();
}

TEST(sort_errors) {
  setup();
  ElemType ty[2] = {T_F32, T_F32};
  Shape *s = tshape(M, T_F32, 1, D(2));
  Instr *in = mksort(s, 1, &s, tcompare(M, "lt", 2, ty, 0, 1, CMP_LT, CMPT_DEFAULT), 1);
  Literal *x = tlit_f(T_F32, 1, D(2), F(2, 1));
  Literal *r = NULL;
  CHECK_ERR(interp_sort(&IP, in, &x, &r), "sort dimension");
  literal_free(x);
  teardown();
}


typedef struct OomCtx {
  Instr *in;
  Literal **ops;
} OomCtx;

static cxla_status oom_run(void *p, Literal **out) {
  OomCtx *c = p;
  return interp_sort(&IP, c->in, c->ops, out);
}

TEST(allocation_failures) {
  setup();
  ElemType ty[4] = {T_S32, T_S32, T_F32, T_F32};
  Computation *cmp = module_add_computation(M, "lt2");
  tparams(M, cmp, 4, ty);
  Shape *pred = tshape(M, T_PRED, 0, NULL);
  Instr *lt = tadd(cmp, OP_COMPARE, pred, 2, (Instr *[]){cmp->params[0], cmp->params[1]});
  lt->cmp_dir = CMP_LT;
  cmp->root = tadd(cmp, OP_AND, pred, 2, (Instr *[]){lt, lt});
  Shape *ks = tshape(M, T_S32, 1, D(5)), *vs = tshape(M, T_F32, 1, D(5));
  Shape *ops[2] = {ks, vs};
  Literal *a[2] = {tlit_i(T_S32, 1, D(5), I(3, 1, 3, 2, 1)), tlit_f(T_F32, 1, D(5), F(0, 1, 2, 3, 4))};
  OomCtx c = {mksort(shape_new_tuple(&M->arena, 2, ops), 2, ops, cmp, 0), a};
  toom_sweep(oom_run, &c);
  c = (OomCtx){mktopk(tshape(M, T_F32, 1, D(5)), 2, true), a + 1};
  toom_sweep(oom_run, &c);
  literal_free(a[0]);
  literal_free(a[1]);
  teardown();
}

int main(void) {
  RUN(stable_sort_fast_comparator);
  RUN(stable_sort_called_comparator);
  RUN(sort_dim0_descending_and_by_second_operand);
  RUN(sort_total_order);
  RUN(sort_jax_float_comparator_both_paths);
  RUN(topk_ties_lower_index_first);
  RUN(sort_errors);
  RUN(allocation_failures);
  return test_summary(__FILE__);
}
