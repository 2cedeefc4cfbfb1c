/* Unit tests of src/interp/reduce.c: reduce, reduce-window, select-and-
 * scatter. Expected values are worked out by hand. */
#include "data_test_util.h"


static Literal *run(Instr *in, int n, Literal **ops) { return trun(interp_reduce, in, n, ops); }

static Instr *mk(Opcode op, Shape *s, int n, Shape *const *ops, Computation *f) {
  Instr *in = tinstr(C, op, s, n, ops);
  in->ncalled = 1;
  in->called = arena_array(&M->arena, 2, sizeof(Computation *));
  in->called[0] = f;
  return in;
}

static void set_window(Instr *in, int rank, const WindowDim *w) {
  in->nwindow = rank;
  in->window = arena_array(&M->arena, (size_t)rank, sizeof(WindowDim));
  memcpy(in->window, w, (size_t)rank * sizeof(WindowDim));
}
#define WD(size, stride, lo, hi) ((WindowDim){size, stride, lo, hi, 1, 1, false})

/* argmax reducer over (value f32, index s32) pairs: keeps the accumulator
 * when it is greater, or equal with a smaller index. */
static Computation *argmax_comp(void) {
  Computation *c = module_add_computation(M, "argmax");
  ElemType ty[4] = {T_F32, T_S32, T_F32, T_S32};
  tparams(M, c, 4, ty);
  Shape *pred = tshape(M, T_PRED, 0, NULL);
  Instr **p = c->params;
  Instr *gt = tadd(c, OP_COMPARE, pred, 2, (Instr *[]){p[0], p[2]});
  gt->cmp_dir = CMP_GT;
  Instr *eq = tadd(c, OP_COMPARE, pred, 2, (Instr *[]){p[0], p[2]});
  eq->cmp_dir = CMP_EQ;
  Instr *lt = tadd(c, OP_COMPARE, pred, 2, (Instr *[]){p[1], p[3]});
  lt->cmp_dir = CMP_LT;
  Instr *tie = tadd(c, OP_AND, pred, 2, (Instr *[]){eq, lt});
  Instr *keep = tadd(c, OP_OR, pred, 2, (Instr *[]){gt, tie});
  Instr *v = tadd(c, OP_SELECT, p[0]->shape, 3, (Instr *[]){keep, p[0], p[2]});
  Instr *i = tadd(c, OP_SELECT, p[1]->shape, 3, (Instr *[]){keep, p[1], p[3]});
  Shape *ts[2] = {p[0]->shape, p[1]->shape};
  c->root = tadd(c, OP_TUPLE, shape_new_tuple(&M->arena, 2, ts), 2, (Instr *[]){v, i});
  return c;
}

TEST(reduce_rows_cols_all) {
  setup();
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Shape *x = tshape(M, T_F32, 2, D(2, 3)), *sc = tshape(M, T_F32, 0, NULL);
  Shape *ops[2] = {x, sc};
  Instr *in = mk(OP_REDUCE, tshape(M, T_F32, 1, D(2)), 2, ops, add);
  in->dimensions = L(M, 1);
  Literal *a1[2] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6)), tscalar_f(T_F32, 0)};
  Literal *r = run(in, 2, a1);
  CHECK(tcheck_f(r, 2, F(6, 15)));
  literal_free(r);
  in = mk(OP_REDUCE, tshape(M, T_F32, 1, D(3)), 2, ops, add);
  in->dimensions = L(M, 0);
  Literal *a2[2] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6)), tscalar_f(T_F32, 100)};
  r = run(in, 2, a2);
  CHECK(tcheck_f(r, 3, F(105, 107, 109)));
  literal_free(r);
  in = mk(OP_REDUCE, sc, 2, ops, add);
  in->dimensions = L(M, 0, 1);
  Literal *a3[2] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6)), tscalar_f(T_F32, 0)};
  r = run(in, 2, a3);
  CHECK(tcheck_dims(r, 0, NULL) && tcheck_f(r, 1, F(21)));
  literal_free(r);
  /* dims {0,2} of a 2x3x2 = i*6 + j*2 + k: out[j] = sum over i,k. */
  Computation *addi = tbinary(M, "addi", OP_ADD, T_S32);
  Shape *ops3[2] = {tshape(M, T_S32, 3, D(2, 3, 2)), tshape(M, T_S32, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_S32, 1, D(3)), 2, ops3, addi);
  in->dimensions = L(M, 0, 2);
  int64_t v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  Literal *a4[2] = {tlit_i(T_S32, 3, D(2, 3, 2), v), tscalar_i(T_S32, 0)};
  r = run(in, 2, a4);
  /* j=0: 0+1+6+7 = 14; j=1: 2+3+8+9 = 22; j=2: 4+5+10+11 = 30 */
  CHECK(tcheck_i(r, 3, I(14, 22, 30)));
  literal_free(r);
  teardown();
}

TEST(reduce_empty_and_size_one) {
  setup();
  Computation *mul = tbinary(M, "mul", OP_MULTIPLY, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 2, D(3, 0)), tshape(M, T_F32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, tshape(M, T_F32, 1, D(3)), 2, ops, mul);
  in->dimensions = L(M, 1);
  Literal *a[2] = {tlit_f(T_F32, 2, D(3, 0), NULL), tscalar_f(T_F32, 7)};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_f(r, 3, F(7, 7, 7)));
  literal_free(r);
  Shape *ops2[2] = {tshape(M, T_F32, 2, D(1, 2)), tshape(M, T_F32, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_F32, 1, D(2)), 2, ops2, mul);
  in->dimensions = L(M, 0);
  Literal *b[2] = {tlit_f(T_F32, 2, D(1, 2), F(3, 4)), tscalar_f(T_F32, 2)};
  r = run(in, 2, b);
  CHECK(tcheck_f(r, 2, F(6, 8)));
  literal_free(r);
  teardown();
}

TEST(reduce_float_add_accumulates_in_double) {
  setup();
  /* XLA's evaluator sums floats in double and rounds once: per-step f32
   * would lose the 1 (1e8 + 1 == 1e8 in f32). */
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_F32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, tshape(M, T_F32, 0, NULL), 2, ops, add);
  in->dimensions = L(M, 0);
  Literal *a[2] = {tlit_f(T_F32, 1, D(3), F(1e8, 1, -1e8)), tscalar_f(T_F32, 0)};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_f(r, 1, F(1)));
  literal_free(r);
  /* bf16: 300 ones sum to 300 (per-step bf16 would stall at 256). */
  Computation *addb = tbinary(M, "addb", OP_ADD, T_BF16);
  Shape *ops2[2] = {tshape(M, T_BF16, 1, D(300)), tshape(M, T_BF16, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_BF16, 0, NULL), 2, ops2, addb);
  in->dimensions = L(M, 0);
  double ones[300];
  for (int i = 0; i < 300; i++) ones[i] = 1;
  Literal *b[2] = {tlit_f(T_BF16, 1, D(300), ones), tscalar_f(T_BF16, 0)};
  r = run(in, 2, b);
  CHECK(tcheck_f(r, 1, F(300)));
  literal_free(r);
  /* XLA:CPU reads f32 subnormals as zero (DAZ): 100000 x 1e-40 sums to 0,
   * not 1e-35; NaN still propagates. */
  Shape *ops3[2] = {tshape(M, T_F32, 1, D(100000)), tshape(M, T_F32, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_F32, 0, NULL), 2, ops3, add);
  in->dimensions = L(M, 0);
  static double tiny[100000];
  for (int i = 0; i < 100000; i++) tiny[i] = 1e-40;
  Literal *c[2] = {tlit_f(T_F32, 1, D(100000), tiny), tscalar_f(T_F32, 0)};
  r = run(in, 2, c);
  CHECK(tcheck_f(r, 1, F(0)));
  literal_free(r);
  tiny[7] = NAN;
  Literal *d[2] = {tlit_f(T_F32, 1, D(100000), tiny), tscalar_f(T_F32, 0)};
  r = run(in, 2, d);
  CHECK(r && isnan(literal_get_f64(r, 0)));
  literal_free(r);
  teardown();
}

TEST(reduce_max_nan_and_int_wrap) {
  setup();
  Computation *mx = tbinary(M, "max", OP_MAXIMUM, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_F32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, tshape(M, T_F32, 0, NULL), 2, ops, mx);
  in->dimensions = L(M, 0);
  Literal *a[2] = {tlit_f(T_F32, 1, D(3), F(1, NAN, 3)), tscalar_f(T_F32, -INFINITY)};
  Literal *r = run(in, 2, a);
  CHECK(r && isnan(literal_get_f64(r, 0)));
  literal_free(r);
  /* maximum orders -0 below +0 (IEEE 754-2019), whatever the order. */
  Literal *z[2] = {tlit_f(T_F32, 1, D(3), F(-0.0, 0.0, -0.0)), tscalar_f(T_F32, -INFINITY)};
  r = run(in, 2, z);
  CHECK(r && literal_get_f64(r, 0) == 0 && !signbit(literal_get_f64(r, 0)));
  literal_free(r);
  Computation *add8 = tbinary(M, "add8", OP_ADD, T_S8);
  Shape *ops2[2] = {tshape(M, T_S8, 1, D(2)), tshape(M, T_S8, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_S8, 0, NULL), 2, ops2, add8);
  in->dimensions = L(M, 0);
  Literal *b[2] = {tlit_i(T_S8, 1, D(2), I(100, 100)), tscalar_i(T_S8, 0)};
  r = run(in, 2, b);
  CHECK(tcheck_i(r, 1, I(-56)));
  literal_free(r);
  teardown();
}

TEST(reduce_variadic_argmax) {
  setup();
  Computation *am = argmax_comp();
  Shape *ts[2] = {tshape(M, T_F32, 1, D(2)), tshape(M, T_S32, 1, D(2))};
  Shape *ops[4] = {tshape(M, T_F32, 2, D(2, 4)), tshape(M, T_S32, 2, D(2, 4)), tshape(M, T_F32, 0, NULL),
                   tshape(M, T_S32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, shape_new_tuple(&M->arena, 2, ts), 4, ops, am);
  in->dimensions = L(M, 1);
  Literal *a[4] = {tlit_f(T_F32, 2, D(2, 4), F(3, 7, 7, 1, 0, -1, 5, 5)),
                   tlit_i(T_S32, 2, D(2, 4), I(0, 1, 2, 3, 0, 1, 2, 3)), tscalar_f(T_F32, -INFINITY),
                   tscalar_i(T_S32, 0)};
  Literal *r = run(in, 4, a);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_f(r->tuple[0], 2, F(7, 5)));
    CHECK(tcheck_i(r->tuple[1], 2, I(1, 2)));
  }
  literal_free(r);
  teardown();
}

static const double POOL_X[16] = {1, 5, 2, 0, 3, 4, 8, 1, 0, 2, 6, 7, 9, 1, 3, 5};

TEST(reduce_window_max_pool) {
  setup();
  Computation *mx = tbinary(M, "max", OP_MAXIMUM, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 2, D(4, 4)), tshape(M, T_F32, 0, NULL)};
  Instr *in = mk(OP_REDUCE_WINDOW, tshape(M, T_F32, 2, D(2, 2)), 2, ops, mx);
  set_window(in, 2, (WindowDim[]){WD(2, 2, 0, 0), WD(2, 2, 0, 0)});
  Literal *a[2] = {tlit_f(T_F32, 2, D(4, 4), POOL_X), tscalar_f(T_F32, -INFINITY)};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_dims(r, 2, D(2, 2)) && tcheck_f(r, 4, F(5, 8, 9, 7)));
  literal_free(r);
  teardown();
}

TEST(reduce_window_padding_dilation_cumsum) {
  setup();
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_F32, 0, NULL)};
  /* SAME-padded window 3: [0+1+2, 1+2+3, 2+3+0] */
  Instr *in = mk(OP_REDUCE_WINDOW, tshape(M, T_F32, 1, D(3)), 2, ops, add);
  set_window(in, 1, (WindowDim[]){WD(3, 1, 1, 1)});
  Literal *a[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 0)};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_f(r, 3, F(3, 6, 5)));
  literal_free(r);
  /* Padding positions are skipped: a non-identity init is folded in once. */
  Literal *a2[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 10)};
  r = run(in, 2, a2);
  CHECK(tcheck_f(r, 3, F(13, 16, 15)));
  literal_free(r);
  /* Base dilation 2: [1,_,2,_,3], window 2 -> 1, 2, 2, 3 */
  in = mk(OP_REDUCE_WINDOW, tshape(M, T_F32, 1, D(4)), 2, ops, add);
  set_window(in, 1, (WindowDim[]){{2, 1, 0, 0, 2, 1, false}});
  Literal *a3[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 0)};
  r = run(in, 2, a3);
  CHECK(tcheck_f(r, 4, F(1, 2, 2, 3)));
  literal_free(r);
  /* Window dilation 2 on [1..5]: pairs (0,2),(1,3),(2,4) */
  Shape *ops5[2] = {tshape(M, T_F32, 1, D(5)), tshape(M, T_F32, 0, NULL)};
  in = mk(OP_REDUCE_WINDOW, tshape(M, T_F32, 1, D(3)), 2, ops5, add);
  set_window(in, 1, (WindowDim[]){{2, 1, 0, 0, 1, 2, false}});
  Literal *a4[2] = {tlit_f(T_F32, 1, D(5), F(1, 2, 3, 4, 5)), tscalar_f(T_F32, 0)};
  r = run(in, 2, a4);
  CHECK(tcheck_f(r, 3, F(4, 6, 8)));
  literal_free(r);
  /* cumsum: window 4, pad_lo 3 */
  Shape *ops4[2] = {tshape(M, T_F32, 1, D(4)), tshape(M, T_F32, 0, NULL)};
  in = mk(OP_REDUCE_WINDOW, tshape(M, T_F32, 1, D(4)), 2, ops4, add);
  set_window(in, 1, (WindowDim[]){WD(4, 1, 3, 0)});
  Literal *a5[2] = {tlit_f(T_F32, 1, D(4), F(1, 2, 3, 4)), tscalar_f(T_F32, 0)};
  r = run(in, 2, a5);
  CHECK(tcheck_f(r, 4, F(1, 3, 6, 10)));
  literal_free(r);
  teardown();
}

TEST(reduce_window_variadic) {
  setup();
  Computation *am = argmax_comp();
  Shape *ts[2] = {tshape(M, T_F32, 1, D(2)), tshape(M, T_S32, 1, D(2))};
  Shape *ops[4] = {tshape(M, T_F32, 1, D(4)), tshape(M, T_S32, 1, D(4)), tshape(M, T_F32, 0, NULL),
                   tshape(M, T_S32, 0, NULL)};
  Instr *in = mk(OP_REDUCE_WINDOW, shape_new_tuple(&M->arena, 2, ts), 4, ops, am);
  set_window(in, 1, (WindowDim[]){WD(2, 2, 0, 0)});
  Literal *a[4] = {tlit_f(T_F32, 1, D(4), F(3, 7, 7, 1)), tlit_i(T_S32, 1, D(4), I(0, 1, 2, 3)),
                   tscalar_f(T_F32, -INFINITY), tscalar_i(T_S32, 0)};
  Literal *r = run(in, 4, a);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_f(r->tuple[0], 2, F(7, 7)));
    CHECK(tcheck_i(r->tuple[1], 2, I(1, 2)));
  }
  literal_free(r);
  teardown();
}

static Instr *sas(Shape *x, Shape *src, Computation *sel, Computation *scat) {
  Shape *ops[3] = {x, src, tshape(M, x->type, 0, NULL)};
  Instr *in = tinstr(C, OP_SELECT_AND_SCATTER, x, 3, ops);
  in->ncalled = 2;
  in->called = arena_array(&M->arena, 2, sizeof(Computation *));
  in->called[0] = sel;
  in->called[1] = scat;
  return in;
}

TEST(select_and_scatter_pool_gradient) {
  setup();
  ElemType ff[2] = {T_F32, T_F32};
  Computation *ge = tcompare(M, "ge", 2, ff, 0, 1, CMP_GE, CMPT_DEFAULT);
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Instr *in = sas(tshape(M, T_F32, 2, D(4, 4)), tshape(M, T_F32, 2, D(2, 2)), ge, add);
  set_window(in, 2, (WindowDim[]){WD(2, 2, 0, 0), WD(2, 2, 0, 0)});
  Literal *a[3] = {tlit_f(T_F32, 2, D(4, 4), POOL_X), tlit_f(T_F32, 2, D(2, 2), F(10, 20, 30, 40)),
                   tscalar_f(T_F32, 0)};
  Literal *r = run(in, 3, a);
  /* maxima: 5 at (0,1), 8 at (1,2), 9 at (3,0), 7 at (2,3) */
  CHECK(tcheck_f(r, 16, F(0, 10, 0, 0, 0, 0, 20, 0, 0, 0, 0, 40, 30, 0, 0, 0)));
  literal_free(r);

  /* Ties: select GE keeps the first element of each window. */
  double ones[16];
  for (int i = 0; i < 16; i++) ones[i] = 1;
  Literal *b[3] = {tlit_f(T_F32, 2, D(4, 4), ones), tlit_f(T_F32, 2, D(2, 2), F(1, 2, 3, 4)),
                   tscalar_f(T_F32, 0.5)};
  r = run(in, 3, b);
  CHECK(tcheck_f(r, 16, F(1.5, .5, 2.5, .5, .5, .5, .5, .5, 3.5, .5, 4.5, .5, .5, .5, .5, .5)));
  literal_free(r);
  teardown();
}

TEST(select_and_scatter_overlap_and_generic_select) {
  setup();
  /* Overlapping windows both pick the 3: its gradients add up. Here select
   * is generic (not a bare compare), so interp_call runs it. */
  Computation *sel = module_add_computation(M, "sel");
  ElemType ff[2] = {T_F32, T_F32};
  tparams(M, sel, 2, ff);
  Shape *pred = tshape(M, T_PRED, 0, NULL);
  Instr *lt = tadd(sel, OP_COMPARE, pred, 2, (Instr *[]){sel->params[0], sel->params[1]});
  lt->cmp_dir = CMP_LT;
  sel->root = tadd(sel, OP_NOT, pred, 1, (Instr *[]){lt}); /* !(a < b) == a >= b here */
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Instr *in = sas(tshape(M, T_F32, 1, D(3)), tshape(M, T_F32, 1, D(2)), sel, add);
  set_window(in, 1, (WindowDim[]){WD(2, 1, 0, 0)});
  Literal *a[3] = {tlit_f(T_F32, 1, D(3), F(1, 3, 2)), tlit_f(T_F32, 1, D(2), F(1, 1)), tscalar_f(T_F32, 0)};
  Literal *r = run(in, 3, a);
  CHECK(tcheck_f(r, 3, F(0, 2, 0)));
  literal_free(r);
  /* Padding positions are never selected: window 3 pad 1 over [-5,-6] with
   * GE picks -5 for both windows even though padding would be "0". */
  Instr *in2 = sas(tshape(M, T_F32, 1, D(2)), tshape(M, T_F32, 1, D(2)), sel, add);
  set_window(in2, 1, (WindowDim[]){WD(3, 1, 1, 1)});
  Literal *b[3] = {tlit_f(T_F32, 1, D(2), F(-5, -6)), tlit_f(T_F32, 1, D(2), F(1, 2)), tscalar_f(T_F32, 0)};
  r = run(in2, 3, b);
  CHECK(tcheck_f(r, 2, F(3, 0)));
  literal_free(r);
  teardown();
}

TEST(reduce_errors) {
  setup();
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Shape *ops[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_F32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, tshape(M, T_F32, 0, NULL), 2, ops, add);
  in->dimensions = L(M, 1);
  Literal *a[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 0)};
  Literal *r = NULL;
  CHECK_ERR(interp_reduce(&IP, in, a, &r), "reduce dimension");
  in->dimensions = L(M, 0);
  in->shape = tshape(M, T_F32, 1, D(3));
  CHECK_ERR(interp_reduce(&IP, in, a, &r), "mismatch");
  literal_free(a[0]);
  literal_free(a[1]);
  teardown();
}


typedef struct OomCtx {
  Instr *in;
  Literal **ops;
} OomCtx;

static cxla_status oom_run(void *p, Literal **out) {
  OomCtx *c = p;
  return interp_reduce(&IP, c->in, c->ops, out);
}

TEST(allocation_failures) {
  setup();
  Computation *am = argmax_comp();
  Shape *ts[2] = {tshape(M, T_F32, 1, D(2)), tshape(M, T_S32, 1, D(2))};
  Shape *ops[4] = {tshape(M, T_F32, 2, D(2, 4)), tshape(M, T_S32, 2, D(2, 4)), tshape(M, T_F32, 0, NULL),
                   tshape(M, T_S32, 0, NULL)};
  Instr *in = mk(OP_REDUCE, shape_new_tuple(&M->arena, 2, ts), 4, ops, am);
  in->dimensions = L(M, 1);
  Literal *a[4] = {tlit_f(T_F32, 2, D(2, 4), F(3, 7, 7, 1, 0, -1, 5, 5)),
                   tlit_i(T_S32, 2, D(2, 4), I(0, 1, 2, 3, 0, 1, 2, 3)), tscalar_f(T_F32, -INFINITY),
                   tscalar_i(T_S32, 0)};
  OomCtx c = {in, a};
  toom_sweep(oom_run, &c);
  Shape *ts2[2] = {tshape(M, T_F32, 2, D(1, 2)), tshape(M, T_S32, 2, D(1, 2))};
  in = mk(OP_REDUCE_WINDOW, shape_new_tuple(&M->arena, 2, ts2), 4, ops, am);
  set_window(in, 2, (WindowDim[]){WD(2, 1, 0, 0), WD(2, 2, 0, 0)});
  c.in = in;
  toom_sweep(oom_run, &c);
  for (int i = 0; i < 4; i++) literal_free(a[i]);
  /* float add reduce: double accumulator buffer */
  Computation *add = tbinary(M, "add", OP_ADD, T_F32);
  Shape *ops2[2] = {tshape(M, T_F32, 2, D(2, 3)), tshape(M, T_F32, 0, NULL)};
  in = mk(OP_REDUCE, tshape(M, T_F32, 1, D(2)), 2, ops2, add);
  in->dimensions = L(M, 1);
  Literal *b[2] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6)), tscalar_f(T_F32, 0)};
  c = (OomCtx){in, b};
  toom_sweep(oom_run, &c);
  literal_free(b[0]);
  literal_free(b[1]);
  teardown();
}

int main(void) {
  RUN(reduce_rows_cols_all);
  RUN(reduce_empty_and_size_one);
  RUN(reduce_float_add_accumulates_in_double);
  RUN(reduce_max_nan_and_int_wrap);
  RUN(reduce_variadic_argmax);
  RUN(reduce_window_max_pool);
  RUN(reduce_window_padding_dilation_cumsum);
  RUN(reduce_window_variadic);
  RUN(select_and_scatter_pool_gradient);
  RUN(select_and_scatter_overlap_and_generic_select);
  RUN(reduce_errors);
  RUN(allocation_failures);
  return test_summary(__FILE__);
}
