/* Bounded dynamic shapes (src/passes/dynamic_padder.c): programs whose
 * sizes come from a runtime argument (set-dimension-size of a parameter)
 * run on both backends, their results cut to the sizes, and every value
 * what the op gives on the first `size` elements alone (written out by
 * hand below). x = {3, -1, 2, -5, 7, 0.5, -2, 4} throughout: the padding
 * past size 5 (0.5, -2, 4) would change every answer if it were read. */
#include "harness.h"
#include "runtime_test.h"

#include "ir/ir.h"
#include "passes/dynamic_padder.h"

static const float X8[8] = {3, -1, 2, -5, 7, 0.5f, -2, 4};

typedef struct Want {
  cxla_type type;
  int rank;
  int64_t dims[3];
  double v[16];
} Want;

static cxla_buffer *s32_scalar(cxla_client *c, int32_t v) {
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_S32;
  h.data = &v;
  h.size = sizeof v;
  cxla_buffer *b = NULL;
  cxla_status s = cxla_buffer_from_host(c, NULL, &h, &b, NULL);
  if (s) cxla_status_free(s);
  return b;
}

static double elem(cxla_buffer *b, int64_t i) {
  const void *p = cxla_buffer_data(b);
  switch (cxla_buffer_type(b)) {
  case CXLA_F32: return ((const float *)p)[i];
  case CXLA_S32: return ((const int32_t *)p)[i];
  case CXLA_S64: return (double)((const int64_t *)p)[i];
  default: return NAN;
  }
}

/* Runs text(x: f32[xdims], n: s32[]) on backend `backend` and checks
 * each result against want. */
static void run_on(const char *backend, const char *text, const int64_t *xdims, int xrank, int32_t n,
                   int nwant, const Want *want) {
  cxla_client *c = rt_client(backend);
  cxla_executable *e = c ? rt_compile(c, text) : NULL;
  CHECK(e != NULL);
  if (!e) {
    cxla_client_destroy(c);
    return;
  }
  CHECK(cxla_executable_num_results(e) == nwant);
  cxla_buffer *args[2] = {rt_f32(c, X8, xrank, xdims), s32_scalar(c, n)};
  cxla_buffer *res[8] = {0};
  CHECK_OK(cxla_executable_execute(e, args, 2, NULL, res, NULL));
  for (int i = 0; i < nwant && res[0]; i++) {
    const Want *w = &want[i];
    CHECK(cxla_buffer_type(res[i]) == w->type);
    CHECK(cxla_buffer_rank(res[i]) == w->rank);
    int64_t count = 1;
    for (int d = 0; d < w->rank && d < cxla_buffer_rank(res[i]); d++) {
      CHECK(cxla_buffer_dims(res[i])[d] == w->dims[d]);
      count *= w->dims[d];
    }
    if (cxla_buffer_element_count(res[i]) != count) {
      fprintf(stderr, "  %s result %d: %lld elements, want %lld\n", backend, i,
              (long long)cxla_buffer_element_count(res[i]), (long long)count);
      CHECK(false);
      continue;
    }
    for (int64_t k = 0; k < count; k++) {
      double g = elem(res[i], k);
      bool ok = isfinite(w->v[k]) ? fabs(g - w->v[k]) <= 1e-5 * (1 + fabs(w->v[k])) : g == w->v[k];
      if (!ok) {
        fprintf(stderr, "  %s result %d [%lld]: got %g want %g\n", backend, i, (long long)k, g, w->v[k]);
        CHECK(false);
        break;
      }
    }
  }
  for (int i = 0; i < 8; i++) cxla_buffer_destroy(res[i]);
  cxla_buffer_destroy(args[0]);
  cxla_buffer_destroy(args[1]);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

static void run_both(const char *text, const int64_t *xdims, int xrank, int32_t n, int nwant, const Want *want) {
  run_on("interp", text, xdims, xrank, n, nwant, want);
  run_on("cpu", text, xdims, xrank, n, nwant, want);
}

static const int64_t D8[1] = {8}, D24[2] = {2, 4};

#define HEAD                                                                   \
  "HloModule t\n"                                                              \
  "add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }\n" \
  "mn { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] minimum(a, b) }\n" \
  "lt { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = pred[] compare(a, b), direction=LT }\n"

#define ENTRY1                                                                 \
  "ENTRY e {\n  x = f32[8] parameter(0)\n  n = s32[] parameter(1)\n"           \
  "  d = f32[<=8] set-dimension-size(x, n), dimensions={0}\n  z = f32[] constant(0)\n"

TEST(reduce_size_and_result) {
  const char *t = HEAD ENTRY1
      "  r = f32[] reduce(d, z), dimensions={0}, to_apply=add\n"
      "  g = s32[] get-dimension-size(d), dimensions={0}\n"
      "  ROOT t = (f32[], s32[], f32[<=8]) tuple(r, g, d)\n}\n";
  Want w5[3] = {{CXLA_F32, 0, {0}, {6}}, {CXLA_S32, 0, {0}, {5}},
                {CXLA_F32, 1, {5}, {3, -1, 2, -5, 7}}};
  run_both(t, D8, 1, 5, 3, w5);
  Want w0[3] = {{CXLA_F32, 0, {0}, {0}}, {CXLA_S32, 0, {0}, {0}}, {CXLA_F32, 1, {0}, {0}}};
  run_both(t, D8, 1, 0, 3, w0);
  Want w8[3] = {{CXLA_F32, 0, {0}, {8.5}}, {CXLA_S32, 0, {0}, {8}},
                {CXLA_F32, 1, {8}, {3, -1, 2, -5, 7, 0.5, -2, 4}}};
  run_both(t, D8, 1, 8, 3, w8);
}

TEST(cumulative_sums) {
  /* XLA:CPU in TensorFlow 2.21 gets these wrong (sum 0, a crash when
   * returned); these are numpy's values */
  const char *t = HEAD ENTRY1
      "  f = f32[<=8] reduce-window(d, z), window={size=8 pad=7_0}, to_apply=add\n"
      "  b = f32[<=8] reduce-window(d, z), window={size=8 pad=0_7}, to_apply=add\n"
      "  s = f32[] reduce(f, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[<=8], f32[<=8], f32[]) tuple(f, b, s)\n}\n";
  Want w[3] = {{CXLA_F32, 1, {5}, {3, 2, 4, -1, 6}}, {CXLA_F32, 1, {5}, {6, 3, 4, 2, 7}},
               {CXLA_F32, 0, {0}, {14}}};
  run_both(t, D8, 1, 5, 3, w);
}

TEST(reverse_concat_pad) {
  const char *t = HEAD ENTRY1
      "  r = f32[<=8] reverse(d), dimensions={0}\n"
      "  c = f32[<=16] concatenate(d, r), dimensions={0}\n"
      "  k = f32[] constant(-9)\n"
      "  p = f32[<=11] pad(d, k), padding=1_2\n"
      "  q = f32[<=16] pad(d, k), padding=0_1_1\n"
      "  ROOT t = (f32[<=8], f32[<=16], f32[<=11], f32[<=16]) tuple(r, c, p, q)\n}\n";
  Want w[4] = {{CXLA_F32, 1, {5}, {7, -5, 2, -1, 3}},
               {CXLA_F32, 1, {10}, {3, -1, 2, -5, 7, 7, -5, 2, -1, 3}},
               {CXLA_F32, 1, {8}, {-9, 3, -1, 2, -5, 7, -9, -9}},
               {CXLA_F32, 1, {10}, {3, -9, -1, -9, 2, -9, -5, -9, 7, -9}}};
  run_both(t, D8, 1, 5, 4, w);
}

TEST(sort_dot_scatter) {
  const char *t = HEAD ENTRY1
      "  s = f32[<=8] sort(d), dimensions={0}, to_apply=lt\n"
      "  p = f32[] dot(d, d), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
      "  i = s32[8] constant({0, 1, 2, 3, 0, 1, 2, 3})\n"
      "  id = s32[<=8] set-dimension-size(i, n), dimensions={0}\n"
      "  i2 = s32[<=8,1] reshape(id)\n"
      "  zs = f32[4] broadcast(z), dimensions={}\n"
      "  sc = f32[4] scatter(zs, i2, d), update_window_dims={}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
      "  ROOT t = (f32[<=8], f32[], f32[4]) tuple(s, p, sc)\n}\n";
  Want w[3] = {{CXLA_F32, 1, {5}, {-5, -1, 2, 3, 7}}, {CXLA_F32, 0, {0}, {88}},
               {CXLA_F32, 1, {4}, {10, -1, 2, -5}}};
  run_both(t, D8, 1, 5, 3, w);
}

TEST(reshapes_move_data) {
  /* rows of 4 with 3 valid: merged, the valid ones become contiguous */
  const char *t = HEAD
      "ENTRY e {\n  x = f32[2,4] parameter(0)\n  n = s32[] parameter(1)\n"
      "  d = f32[2,<=4] set-dimension-size(x, n), dimensions={1}\n"
      "  m = f32[<=8] reshape(d)\n"
      "  z = f32[] constant(0)\n"
      "  r = f32[2] reduce(d, z), dimensions={1}, to_apply=mn\n"
      "  two = s32[] constant(2)\n"
      "  h = s32[] constant(3)\n"
      "  y = f32[<=8] reshape(x)\n"
      "  six = s32[] constant(6)\n"
      "  ys = f32[<=8] set-dimension-size(y, six), dimensions={0}\n"
      "  dr = f32[<=4,2] dynamic-reshape(ys, h, two)\n"
      "  ROOT t = (f32[<=8], f32[2], f32[<=4,2]) tuple(m, r, dr)\n}\n";
  Want w[3] = {{CXLA_F32, 1, {6}, {3, -1, 2, 7, 0.5, -2}}, {CXLA_F32, 1, {2}, {-1, -2}},
               {CXLA_F32, 2, {3, 2}, {3, -1, 2, -5, 7, 0.5}}};
  run_both(t, D24, 2, 3, 3, w);
  /* no valid column: nothing to gather (sizes of 0 divide nothing) */
  Want w0[3] = {{CXLA_F32, 1, {0}, {0}}, {CXLA_F32, 1, {2}, {0, 0}},
                {CXLA_F32, 2, {3, 2}, {3, -1, 2, -5, 7, 0.5}}};
  run_both(t, D24, 2, 0, 3, w0);
}

TEST(slice_to_dynamic_cuts_inner_dims) {
  /* XLA's optimized HLO hands a dynamic result out this way */
  const char *t = HEAD
      "ENTRY e {\n  x = f32[2,4] parameter(0)\n  n = s32[] parameter(1)\n"
      "  two = s32[] constant(2)\n"
      "  ROOT d = f32[2,<=4] custom-call(x, two, n), custom_call_target=\"SliceToDynamic\"\n}\n";
  Want w[1] = {{CXLA_F32, 2, {2, 3}, {3, -1, 2, 7, 0.5, -2}}};
  run_both(t, D24, 2, 3, 1, w);
  /* the executable describes the result by its bounds */
  cxla_client *c = rt_client("interp");
  cxla_executable *e = c ? rt_compile(c, t) : NULL;
  CHECK(e != NULL);
  const int64_t *dims = NULL;
  int rank = 0;
  if (e) CHECK_OK(cxla_executable_result(e, 0, NULL, &rank, &dims));
  CHECK(rank == 2 && dims && dims[0] == 2 && dims[1] == 4);
  if (e) CHECK_ERR(cxla_executable_result(e, 1, NULL, NULL, NULL), "out of range");
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

TEST(loop_carries_sizes) {
  /* the loop's state holds a masked array: its size goes round with it */
  const char *t = HEAD
      "cond { p = (s32[], f32[<=8]) parameter(0)  i = s32[] get-tuple-element(p), index=0\n"
      "  k = s32[] constant(3)  ROOT c = pred[] compare(i, k), direction=LT }\n"
      "body { p = (s32[], f32[<=8]) parameter(0)  i = s32[] get-tuple-element(p), index=0\n"
      "  v = f32[<=8] get-tuple-element(p), index=1  one = s32[] constant(1)  z = f32[] constant(0)\n"
      "  s = f32[] reduce(v, z), dimensions={0}, to_apply=add  sb = f32[<=8] broadcast(s), dimensions={}\n"
      "  j = s32[] add(i, one)  w = f32[<=8] add(v, sb)  ROOT t = (s32[], f32[<=8]) tuple(j, w) }\n"
      ENTRY1
      "  i0 = s32[] constant(0)\n"
      "  t0 = (s32[], f32[<=8]) tuple(i0, d)\n"
      "  ROOT w = (s32[], f32[<=8]) while(t0), condition=cond, body=body\n}\n";
  /* size 3: {3,-1,2} -> +4 -> {7,3,6} -> +16 -> {23,19,22} -> +64 */
  Want w[2] = {{CXLA_S32, 0, {0}, {3}}, {CXLA_F32, 1, {3}, {87, 83, 86}}};
  run_both(t, D8, 1, 3, 2, w);
}

TEST(constant_full_size_is_static) {
  /* TensorFlow's top_k of k == n: set-dimension-size to the bound, the
   * type static; it flows into a loop whose state is static, as it is */
  const char *t = HEAD
      "body { p = (s32[], f32[8]) parameter(0)  i = s32[] get-tuple-element(p), index=0\n"
      "  v = f32[8] get-tuple-element(p), index=1  one = s32[] constant(1)  i1 = s32[] add(i, one)\n"
      "  v2 = f32[8] add(v, v)  ROOT t = (s32[], f32[8]) tuple(i1, v2) }\n"
      "cond { p = (s32[], f32[8]) parameter(0)  i = s32[] get-tuple-element(p), index=0\n"
      "  three = s32[] constant(3)  ROOT c = pred[] compare(i, three), direction=LT }\n"
      "ENTRY e {\n  x = f32[8] parameter(0)\n  n = s32[] parameter(1)\n  eight = s32[] constant(8)\n"
      "  s = f32[8] set-dimension-size(x, eight), dimensions={0}\n  zero = s32[] constant(0)\n"
      "  t = (s32[], f32[8]) tuple(zero, s)\n  w = (s32[], f32[8]) while(t), condition=cond, body=body\n"
      "  ROOT r = f32[8] get-tuple-element(w), index=1\n}\n";
  Want w[1] = {{CXLA_F32, 1, {8}, {24, -8, 16, -40, 56, 4, -16, 32}}};
  run_both(t, D8, 1, 5, 1, w);
}

TEST(select_and_scatter_same_padding) {
  /* TensorFlow's max-pool gradient over a dynamic dim (window 3, stride 2,
   * SAME): the padding depends on the size and is never selected. n = 4:
   * {3,-1,2,-5}, lo 0, windows {3,-1,2} and {2,-5,pad}: source 1 to x[0],
   * 2 to x[2] (x[4] = 7 past the size must not win); n = 5: lo 1, windows
   * {pad,3,-1}, {-1,2,-5}, {-5,7,pad}: 1 to x[0], 2 to x[2], 3 to x[4] */
  const char *t = HEAD
      "ge { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GE }\n"
      ENTRY1
      "  one = s32[] constant(1)  two = s32[] constant(2)  n1 = s32[] add(n, one)  m = s32[] divide(n1, two)\n"
      "  s4 = f32[4] constant({1, 2, 3, 4})  s = f32[<=4] set-dimension-size(s4, m), dimensions={0}\n"
      "  ROOT r = f32[<=8] custom-call(d, s, z), window={size=3 stride=2 pad=0_1},"
      " custom_call_target=\"DynamicSelectAndScatterSamePadding\", called_computations={ge, add}\n}\n";
  Want w4[1] = {{CXLA_F32, 1, {4}, {1, 0, 2, 0}}};
  run_both(t, D8, 1, 4, 1, w4);
  Want w5[1] = {{CXLA_F32, 1, {5}, {1, 0, 2, 0, 3}}};
  run_both(t, D8, 1, 5, 1, w5);
}

/* Compiling text fails with an error that contains want. */
static void compile_fails(const char *text, const char *want) {
  cxla_client *c = rt_client("interp");
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "t", &m));
  if (m) CHECK_ERR(cxla_client_compile(c, m, NULL, &e), want);
  cxla_executable_destroy(e);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
}

TEST(unhandled_ops_are_errors) {
  /* a dynamic value passed to a custom call: refused, never padded silently */
  compile_fails(HEAD ENTRY1 "  ROOT r = f32[<=8] custom-call(d), custom_call_target=\"my_op\"\n}\n",
                "%r (custom-call): a dynamic dimension reaches it");
  /* ... and one passed into a branch another caller shares */
  compile_fails(HEAD "br { p = f32[<=8] parameter(0)  ROOT y = f32[<=8] negate(p) }\n" ENTRY1
                "  c = pred[] constant(true)\n"
                "  ROOT r = f32[<=8] conditional(c, d, d), true_computation=br, false_computation=br\n}\n",
                "a branch with a dynamic parameter that other instructions call too");
  /* ... and one passed to a branch whose parameter type is static */
  compile_fails(HEAD "br { p = f32[8] parameter(0)  ROOT y = f32[8] negate(p) }\n"
                "bf { p = f32[8] parameter(0)  ROOT y = f32[8] abs(p) }\n" ENTRY1
                "  c = pred[] constant(true)\n"
                "  ROOT r = f32[8] conditional(c, d, d), true_computation=br, false_computation=bf\n}\n",
                "a dynamic operand for a branch whose parameter type is static");
  /* TensorFlow's windowed calls: a window it never writes, a result its
   * operands do not give */
  compile_fails(HEAD "ge { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GE }\n"
                ENTRY1 "  s = f32[4] constant({1, 2, 3, 4})\n"
                "  ROOT r = f32[<=8] custom-call(d, s, z), window={size=0 stride=2},"
                " custom_call_target=\"DynamicSelectAndScatterSamePadding\", called_computations={ge, add}\n}\n",
                "a window TensorFlow does not write");
  compile_fails(HEAD ENTRY1 "  x4 = f32[1,1,8,1] reshape(x)\n"
                "  d4 = f32[1,1,<=8,1] set-dimension-size(x4, n), dimensions={2}\n"
                "  k = f32[1,3,1,1] constant({{{{1}}, {{2}}, {{3}}}})\n"
                "  ROOT r = f32[1,1,<=7,1] custom-call(d4, k), window={size=1x3 pad=0_0x1_1}, dim_labels=b01f_01io->b01f,"
                " padding_type=PADDING_SAME, custom_call_target=\"DynamicConvolutionForward\"\n}\n",
                "attributes that do not fit its operands");
}

TEST(conditional_takes_dynamic_operands) {
  /* branches whose parameter is dynamic: a tuple holding one (index
   * form: n - 3 picks; out of range, the last), a bare one given the
   * dynamic d or the static x (its size is then its bound) */
  const char *t = HEAD
      "b0 { p = (f32[<=8], f32[]) parameter(0)  v = f32[<=8] get-tuple-element(p), index=0\n"
      "  k = f32[] get-tuple-element(p), index=1  z = f32[] constant(0)\n"
      "  s = f32[] reduce(v, z), dimensions={0}, to_apply=add  ROOT r = f32[] add(s, k) }\n"
      "b1 { p = (f32[<=8], f32[]) parameter(0)  v = f32[<=8] get-tuple-element(p), index=0\n"
      "  inf = f32[] constant(inf)  ROOT r = f32[] reduce(v, inf), dimensions={0}, to_apply=mn }\n"
      "b2 { p = (f32[<=8], f32[]) parameter(0)  v = f32[<=8] get-tuple-element(p), index=0\n"
      "  k = f32[] get-tuple-element(p), index=1  g = s32[] get-dimension-size(v), dimensions={0}\n"
      "  f = f32[] convert(g)  ROOT r = f32[] multiply(f, k) }\n"
      "tb { p = f32[<=8] parameter(0)  ROOT y = f32[<=8] negate(p) }\n"
      "fb { p = f32[<=8] parameter(0)  ROOT y = f32[<=8] reverse(p), dimensions={0} }\n"
      ENTRY1
      "  three = s32[] constant(3)  i = s32[] subtract(n, three)  k = f32[] constant(10)\n"
      "  a = (f32[<=8], f32[]) tuple(d, k)\n"
      "  r0 = f32[] conditional(i, a, a, a), branch_computations={b0, b1, b2}\n"
      "  four = s32[] constant(4)  c = pred[] compare(n, four), direction=LT\n"
      "  r1 = f32[<=8] conditional(c, d, x), true_computation=tb, false_computation=fb\n"
      "  ROOT t = (f32[], f32[<=8]) tuple(r0, r1)\n}\n";
  /* n = 3: b0, 3 - 1 + 2 + 10; tb: -{3, -1, 2} */
  Want w3[2] = {{CXLA_F32, 0, {0}, {14}}, {CXLA_F32, 1, {3}, {-3, 1, -2}}};
  run_both(t, D8, 1, 3, 2, w3);
  /* n = 4: b1, min of {3, -1, 2, -5}; fb of x: all 8 reversed */
  Want w4[2] = {{CXLA_F32, 0, {0}, {-5}}, {CXLA_F32, 1, {8}, {4, -2, 0.5, 7, -5, 2, -1, 3}}};
  run_both(t, D8, 1, 4, 2, w4);
  /* n = 5: b2, 5 x 10; n = 0: index -3, b2 again, 0 x 10; tb: empty */
  Want w5[2] = {{CXLA_F32, 0, {0}, {50}}, {CXLA_F32, 1, {8}, {4, -2, 0.5, 7, -5, 2, -1, 3}}};
  run_both(t, D8, 1, 5, 2, w5);
  Want w0[2] = {{CXLA_F32, 0, {0}, {0}}, {CXLA_F32, 1, {0}, {0}}};
  run_both(t, D8, 1, 0, 2, w0);
}

TEST(conditional_hands_sizes_out) {
  /* the true branch masks to n, the false one is static: the result's
   * size is whichever branch ran */
  const char *t = HEAD
      "tb { p = (f32[8], s32[]) parameter(0)  x = f32[8] get-tuple-element(p), index=0\n"
      "  n = s32[] get-tuple-element(p), index=1\n"
      "  ROOT d = f32[<=8] set-dimension-size(x, n), dimensions={0} }\n"
      "fb { p = (f32[8], s32[]) parameter(0)  x = f32[8] get-tuple-element(p), index=0\n"
      "  ROOT y = f32[<=8] negate(x) }\n"
      "ENTRY e {\n  x = f32[8] parameter(0)\n  n = s32[] parameter(1)\n"
      "  z = f32[] constant(0)  four = s32[] constant(4)\n"
      "  c = pred[] compare(n, four), direction=LT\n"
      "  a = (f32[8], s32[]) tuple(x, n)\n"
      "  r = f32[<=8] conditional(c, a, a), true_computation=tb, false_computation=fb\n"
      "  s = f32[] reduce(r, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[<=8], f32[]) tuple(r, s)\n}\n";
  Want w3[2] = {{CXLA_F32, 1, {3}, {3, -1, 2}}, {CXLA_F32, 0, {0}, {4}}};
  run_both(t, D8, 1, 3, 2, w3);
  Want w5[2] = {{CXLA_F32, 1, {8}, {-3, 1, -2, 5, -7, -0.5, 2, -4}}, {CXLA_F32, 0, {0}, {-8.5}}};
  run_both(t, D8, 1, 5, 2, w5);
}

TEST(optimizer_hands_out_slice_to_dynamic) {
  /* cxla_module_optimize (what `cxla opt` prints) pads too, and gives
   * the dynamic result out as XLA's optimized HLO does: a SliceToDynamic
   * at the root, the result type kept; that text runs again, trimmed */
  const char *t = HEAD ENTRY1
      "  y = f32[<=8] negate(d)\n"
      "  r = f32[] reduce(d, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[<=8], f32[]) tuple(y, r)\n}\n";
  cxla_module *m = NULL;
  char *text = NULL;
  CHECK_OK(cxla_module_parse(t, strlen(t), "t", &m));
  if (m) CHECK_OK(cxla_module_optimize(m, NULL));
  if (m) CHECK_OK(cxla_module_print(m, &text));
  CHECK(text && strstr(text, "custom_call_target=\"SliceToDynamic\""));
  CHECK(text && strstr(text, "-> (f32[<=8], f32[]) {"));
  CHECK(text && !strstr(text, "set-dimension-size"));
  /* 3 - 1 + 2 - 5 + 7 */
  Want w[2] = {{CXLA_F32, 1, {5}, {-3, 1, -2, 5, -7}}, {CXLA_F32, 0, {0}, {6}}};
  if (text) run_both(text, D8, 1, 5, 2, w);
  cxla_free_string(text);
  cxla_module_destroy(m);
}

TEST(pass_leaves_no_dynamic_shape) {
  const char *t = HEAD ENTRY1
      "  r = f32[] reduce(d, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[], f32[<=8]) tuple(r, d)\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(t, strlen(t), "t", &m));
  if (!m) return;
  CHECK(dynamic_padder_needed(m));
  DynamicResults dr;
  CHECK_OK(dynamic_padder_run(m, &dr));
  CHECK_OK(cxla_module_verify(m));
  CHECK(!dynamic_padder_needed(m));
  /* two results as written (ranks 0 and 1); d's size is leaf 2 of the new root */
  CHECK(dr.nresults == 2);
  CHECK(dr.dims_at && dr.dims_at[0] == 0 && dr.dims_at[1] == 0 && dr.dims_at[2] == 1);
  CHECK(dr.size_leaf && dr.size_leaf[0] == 2);
  const Shape *rs = m->entry->root->shape;
  CHECK(rs->type == T_TUPLE && rs->ntuple == 2 && rs->tuple[1]->type == T_S32);
  dynamic_results_free(&dr);
  cxla_module_destroy(m);
}

int main(void) {
  RUN(reduce_size_and_result);
  RUN(cumulative_sums);
  RUN(reverse_concat_pad);
  RUN(sort_dot_scatter);
  RUN(reshapes_move_data);
  RUN(slice_to_dynamic_cuts_inner_dims);
  RUN(conditional_hands_sizes_out);
  RUN(conditional_takes_dynamic_operands);
  RUN(loop_carries_sizes);
  RUN(constant_full_size_is_static);
  RUN(select_and_scatter_same_padding);
  RUN(unhandled_ops_are_errors);
  RUN(optimizer_hands_out_slice_to_dynamic);
  RUN(pass_leaves_no_dynamic_shape);
  return test_summary("test_dynamic_padder");
}
