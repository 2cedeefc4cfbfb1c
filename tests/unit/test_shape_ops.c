/* Unit tests of src/interp/shape_ops.c. Expected values are worked out by
 * hand from XLA's operation semantics. */
#include "data_test_util.h"


/* Runs a one-operand... n-operand instruction on literals (taken). */
static Literal *run(Instr *in, int n, Literal **ops) { return trun(interp_shape_op, in, n, ops); }

static Instr *mk(Opcode op, Shape *s, Shape *a) { return tinstr(C, op, s, a ? 1 : 0, &a); }

TEST(pad_interior_and_negative) {
  setup();
  Shape *a = tshape(M, T_F32, 1, D(3)), *sc = tshape(M, T_F32, 0, NULL);
  Shape *ops[2] = {a, sc};
  /* [1,2,3] interior 1 -> [1,0,2,0,3]; lo=-1 crops the 1; hi=2 appends two 0s. */
  Instr *in = tinstr(C, OP_PAD, tshape(M, T_F32, 1, D(6)), 2, ops);
  in->padding = arena_alloc(&M->arena, sizeof(PadDim));
  in->padding[0] = (PadDim){-1, 2, 1};
  Literal *args[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 0)};
  Literal *r = run(in, 2, args);
  CHECK(tcheck_dims(r, 1, D(6)));
  CHECK(tcheck_f(r, 6, F(0, 2, 0, 3, 0, 0)));
  literal_free(r);

  /* Negative high padding with interior: [1,0,2,0,3] cropped by 2 -> [1,0,2]. */
  in = tinstr(C, OP_PAD, tshape(M, T_F32, 1, D(3)), 2, ops);
  in->padding = arena_alloc(&M->arena, sizeof(PadDim));
  in->padding[0] = (PadDim){0, -2, 1};
  Literal *args2[2] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3)), tscalar_f(T_F32, 0)};
  r = run(in, 2, args2);
  CHECK(tcheck_f(r, 3, F(1, 0, 2)));
  literal_free(r);

  /* Cropping more than the interior-padded operand leaves only padding:
   * [1,2] lo=-3 hi=4 -> length 3, all 7. */
  Shape *a2 = tshape(M, T_F32, 1, D(2));
  Shape *ops3[2] = {a2, sc};
  in = tinstr(C, OP_PAD, tshape(M, T_F32, 1, D(3)), 2, ops3);
  in->padding = arena_alloc(&M->arena, sizeof(PadDim));
  in->padding[0] = (PadDim){-3, 4, 0};
  Literal *args3[2] = {tlit_f(T_F32, 1, D(2), F(1, 2)), tscalar_f(T_F32, 7)};
  r = run(in, 2, args3);
  CHECK(tcheck_f(r, 3, F(7, 7, 7)));
  literal_free(r);
  teardown();
}

TEST(pad_2d) {
  setup();
  Shape *a = tshape(M, T_S32, 2, D(2, 2)), *sc = tshape(M, T_S32, 0, NULL);
  Shape *ops[2] = {a, sc};
  Instr *in = tinstr(C, OP_PAD, tshape(M, T_S32, 2, D(3, 4)), 2, ops);
  in->padding = arena_array(&M->arena, 2, sizeof(PadDim));
  in->padding[0] = (PadDim){1, 0, 0};
  in->padding[1] = (PadDim){0, 1, 1};
  Literal *args[2] = {tlit_i(T_S32, 2, D(2, 2), I(1, 2, 3, 4)), tscalar_i(T_S32, 9)};
  Literal *r = run(in, 2, args);
  CHECK(tcheck_dims(r, 2, D(3, 4)));
  CHECK(tcheck_i(r, 12, I(9, 9, 9, 9, 1, 9, 2, 9, 3, 9, 4, 9)));
  literal_free(r);
  teardown();
}

TEST(pad_complex_bytewise) {
  setup();
  Shape *a = tshape(M, T_C64, 1, D(1)), *sc = tshape(M, T_C64, 0, NULL);
  Shape *ops[2] = {a, sc};
  Instr *in = tinstr(C, OP_PAD, tshape(M, T_C64, 1, D(3)), 2, ops);
  in->padding = arena_alloc(&M->arena, sizeof(PadDim));
  in->padding[0] = (PadDim){1, 1, 0};
  Literal *x = NULL, *pv = NULL;
  CHECK_OK(literal_create(T_C64, 1, D(1), &x));
  CHECK_OK(literal_create(T_C64, 0, NULL, &pv));
  ((float *)x->data)[0] = 1.5f;
  ((float *)x->data)[1] = -2.5f;
  ((float *)pv->data)[1] = 7;
  Literal *args[2] = {x, pv};
  Literal *r = run(in, 2, args);
  const float *d = r->data;
  CHECK(d[0] == 0 && d[1] == 7 && d[2] == 1.5f && d[3] == -2.5f && d[4] == 0 && d[5] == 7);
  literal_free(r);
  teardown();
}

TEST(dynamic_slice_clamps) {
  setup();
  Shape *a = tshape(M, T_F32, 1, D(5)), *s32 = tshape(M, T_S32, 0, NULL);
  Shape *ops[2] = {a, s32};
  Instr *in = tinstr(C, OP_DYNAMIC_SLICE, tshape(M, T_F32, 1, D(2)), 2, ops);
  /* start 7 on a length-5 dim with size 2 clamps to 3. */
  Literal *args[2] = {tlit_f(T_F32, 1, D(5), F(10, 11, 12, 13, 14)), tscalar_i(T_S32, 7)};
  Literal *r = run(in, 2, args);
  CHECK(tcheck_f(r, 2, F(13, 14)));
  literal_free(r);
  /* negative start clamps to 0 */
  Literal *args2[2] = {tlit_f(T_F32, 1, D(5), F(10, 11, 12, 13, 14)), tscalar_i(T_S32, -4)};
  r = run(in, 2, args2);
  CHECK(tcheck_f(r, 2, F(10, 11)));
  literal_free(r);
  teardown();
}

TEST(dynamic_slice_2d_mixed_index_types) {
  setup();
  Shape *a = tshape(M, T_S32, 2, D(3, 4));
  Shape *ops[3] = {a, tshape(M, T_U8, 0, NULL), tshape(M, T_S64, 0, NULL)};
  Instr *in = tinstr(C, OP_DYNAMIC_SLICE, tshape(M, T_S32, 2, D(2, 2)), 3, ops);
  int64_t v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  /* rows start 1, cols start 2 (u8 200 would clamp to 2 as well) */
  Literal *args[3] = {tlit_i(T_S32, 2, D(3, 4), v), tscalar_i(T_U8, 1), tscalar_i(T_S64, 2)};
  Literal *r = run(in, 3, args);
  CHECK(tcheck_i(r, 4, I(6, 7, 10, 11)));
  literal_free(r);
  Literal *args2[3] = {tlit_i(T_S32, 2, D(3, 4), v), tscalar_i(T_U8, 200), tscalar_i(T_S64, 0)};
  r = run(in, 3, args2);
  CHECK(tcheck_i(r, 4, I(4, 5, 8, 9)));
  literal_free(r);
  teardown();
}

TEST(dynamic_slice_vector_starts) {
  setup();
  /* Old HLO form: one rank-1 operand holds all the starts. */
  Shape *ops[2] = {tshape(M, T_S32, 2, D(3, 4)), tshape(M, T_S32, 1, D(2))};
  Instr *in = tinstr(C, OP_DYNAMIC_SLICE, tshape(M, T_S32, 2, D(1, 3)), 2, ops);
  int64_t v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  Literal *args[2] = {tlit_i(T_S32, 2, D(3, 4), v), tlit_i(T_S32, 1, D(2), I(2, 5))};
  Literal *r = run(in, 2, args);
  CHECK(tcheck_i(r, 3, I(9, 10, 11)));
  literal_free(r);
  teardown();
}

TEST(dynamic_update_slice_clamps) {
  setup();
  Shape *ops[3] = {tshape(M, T_F32, 1, D(5)), tshape(M, T_F32, 1, D(2)), tshape(M, T_S32, 0, NULL)};
  Instr *in = tinstr(C, OP_DYNAMIC_UPDATE_SLICE, tshape(M, T_F32, 1, D(5)), 3, ops);
  Literal *args[3] = {tlit_f(T_F32, 1, D(5), F(0, 0, 0, 0, 0)), tlit_f(T_F32, 1, D(2), F(1, 2)),
                      tscalar_i(T_S32, 4)};
  Literal *r = run(in, 3, args);
  CHECK(tcheck_f(r, 5, F(0, 0, 0, 1, 2)));
  literal_free(r);
  Literal *args2[3] = {tlit_f(T_F32, 1, D(5), F(0, 0, 0, 0, 0)), tlit_f(T_F32, 1, D(2), F(1, 2)),
                       tscalar_i(T_S32, 1)};
  r = run(in, 3, args2);
  CHECK(tcheck_f(r, 5, F(0, 1, 2, 0, 0)));
  literal_free(r);
  teardown();
}

TEST(bitcast_layouts) {
  setup();
  /* f32[2,3]{1,0} -> f32[3,2]{0,1}: same physical order 1..6, read
   * column-major as a 3x2: a transpose. */
  Shape *a = tshape(M, T_F32, 2, D(2, 3));
  CHECK_OK(shape_set_default_layout(&M->arena, a));
  Shape *s = tshape(M, T_F32, 2, D(3, 2));
  s->has_layout = true;
  s->minor_to_major = arena_i64dup(&M->arena, D(0, 1), 2);
  Instr *in = mk(OP_BITCAST, s, a);
  Literal *args[1] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6))};
  Literal *r = run(in, 1, args);
  CHECK(tcheck_dims(r, 2, D(3, 2)));
  CHECK(tcheck_f(r, 6, F(1, 4, 2, 5, 3, 6)));
  literal_free(r);

  /* f32[2,3]{0,1} (physical 1,4,2,5,3,6) -> f32[6] */
  Shape *b = tshape(M, T_F32, 2, D(2, 3));
  b->has_layout = true;
  b->minor_to_major = arena_i64dup(&M->arena, D(0, 1), 2);
  in = mk(OP_BITCAST, tshape(M, T_F32, 1, D(6)), b);
  Literal *args2[1] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6))};
  r = run(in, 1, args2);
  CHECK(tcheck_f(r, 6, F(1, 4, 2, 5, 3, 6)));
  literal_free(r);

  /* Same layouts on both sides: plain reshape; and a type change keeps bits. */
  in = mk(OP_BITCAST, tshape(M, T_S32, 1, D(2)), tshape(M, T_F32, 1, D(2)));
  Literal *args3[1] = {tlit_f(T_F32, 1, D(2), F(1.0, -2.0))};
  r = run(in, 1, args3);
  CHECK(tcheck_i(r, 2, I(0x3f800000, (int32_t)0xc0000000)));
  literal_free(r);
  teardown();
}

TEST(transpose_broadcast) {
  setup();
  Instr *in = mk(OP_TRANSPOSE, tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(2, 3)));
  in->dimensions = L(M, 1, 0);
  Literal *args[1] = {tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6))};
  Literal *r = run(in, 1, args);
  CHECK(tcheck_f(r, 6, F(1, 4, 2, 5, 3, 6)));
  literal_free(r);

  /* 3-D: out[i][j][k] = op[j][k][i] with dims {2,0,1}; op = linear index. */
  in = mk(OP_TRANSPOSE, tshape(M, T_S32, 3, D(4, 2, 3)), tshape(M, T_S32, 3, D(2, 3, 4)));
  in->dimensions = L(M, 2, 0, 1);
  int64_t v[24];
  for (int i = 0; i < 24; i++) v[i] = i;
  Literal *args2[1] = {tlit_i(T_S32, 3, D(2, 3, 4), v)};
  r = run(in, 1, args2);
  CHECK(tcheck_dims(r, 3, D(4, 2, 3)));
  /* out[1][1][2] = op[1][2][1] = 12 + 8 + 1 */
  CHECK(literal_get_i64(r, 1 * 6 + 1 * 3 + 2) == 21);
  /* out[3][0][1] = op[0][1][3] = 7 */
  CHECK(literal_get_i64(r, 3 * 6 + 0 + 1) == 7);
  literal_free(r);

  in = mk(OP_BROADCAST, tshape(M, T_F32, 2, D(2, 3)), tshape(M, T_F32, 1, D(2)));
  in->dimensions = L(M, 0);
  Literal *args3[1] = {tlit_f(T_F32, 1, D(2), F(1, 2))};
  r = run(in, 1, args3);
  CHECK(tcheck_f(r, 6, F(1, 1, 1, 2, 2, 2)));
  literal_free(r);

  in = mk(OP_BROADCAST, tshape(M, T_F32, 2, D(2, 3)), tshape(M, T_F32, 1, D(3)));
  in->dimensions = L(M, 1);
  Literal *args4[1] = {tlit_f(T_F32, 1, D(3), F(1, 2, 3))};
  r = run(in, 1, args4);
  CHECK(tcheck_f(r, 6, F(1, 2, 3, 1, 2, 3)));
  literal_free(r);

  in = mk(OP_BROADCAST, tshape(M, T_F32, 2, D(2, 2)), tshape(M, T_F32, 0, NULL));
  Literal *args5[1] = {tscalar_f(T_F32, 5)};
  r = run(in, 1, args5);
  CHECK(tcheck_f(r, 4, F(5, 5, 5, 5)));
  literal_free(r);
  teardown();
}

TEST(slice_concat_reverse) {
  setup();
  Instr *in = mk(OP_SLICE, tshape(M, T_S32, 1, D(3)), tshape(M, T_S32, 1, D(10)));
  in->slice = arena_alloc(&M->arena, sizeof(SliceDim));
  in->slice[0] = (SliceDim){1, 8, 3};
  int64_t v[12];
  for (int i = 0; i < 12; i++) v[i] = i;
  Literal *args[1] = {tlit_i(T_S32, 1, D(10), v)};
  Literal *r = run(in, 1, args);
  CHECK(tcheck_i(r, 3, I(1, 4, 7)));
  literal_free(r);

  /* 2-D: rows [1:3], cols [0:4:2] of a 3x4 */
  in = mk(OP_SLICE, tshape(M, T_S32, 2, D(2, 2)), tshape(M, T_S32, 2, D(3, 4)));
  in->slice = arena_array(&M->arena, 2, sizeof(SliceDim));
  in->slice[0] = (SliceDim){1, 3, 1};
  in->slice[1] = (SliceDim){0, 4, 2};
  Literal *args2[1] = {tlit_i(T_S32, 2, D(3, 4), v)};
  r = run(in, 1, args2);
  CHECK(tcheck_i(r, 4, I(4, 6, 8, 10)));
  literal_free(r);

  Shape *cs[3] = {tshape(M, T_S32, 2, D(2, 1)), tshape(M, T_S32, 2, D(2, 2)), tshape(M, T_S32, 2, D(2, 0))};
  in = tinstr(C, OP_CONCATENATE, tshape(M, T_S32, 2, D(2, 3)), 3, cs);
  in->dimensions = L(M, 1);
  Literal *args3[3] = {tlit_i(T_S32, 2, D(2, 1), I(1, 2)), tlit_i(T_S32, 2, D(2, 2), I(3, 4, 5, 6)),
                       tlit_i(T_S32, 2, D(2, 0), NULL)};
  r = run(in, 3, args3);
  CHECK(tcheck_i(r, 6, I(1, 3, 4, 2, 5, 6)));
  literal_free(r);

  in = mk(OP_REVERSE, tshape(M, T_S32, 2, D(2, 3)), tshape(M, T_S32, 2, D(2, 3)));
  in->dimensions = L(M, 1);
  Literal *args4[1] = {tlit_i(T_S32, 2, D(2, 3), I(1, 2, 3, 4, 5, 6))};
  r = run(in, 1, args4);
  CHECK(tcheck_i(r, 6, I(3, 2, 1, 6, 5, 4)));
  literal_free(r);
  in->dimensions = L(M, 0, 1);
  Literal *args5[1] = {tlit_i(T_S32, 2, D(2, 3), I(1, 2, 3, 4, 5, 6))};
  r = run(in, 1, args5);
  CHECK(tcheck_i(r, 6, I(6, 5, 4, 3, 2, 1)));
  literal_free(r);
  teardown();
}

TEST(iota_any_type) {
  setup();
  Instr *in = mk(OP_IOTA, tshape(M, T_S32, 2, D(2, 3)), NULL);
  in->index = 1;
  Literal *r = run(in, 0, NULL);
  CHECK(tcheck_i(r, 6, I(0, 1, 2, 0, 1, 2)));
  literal_free(r);
  in = mk(OP_IOTA, tshape(M, T_F32, 2, D(3, 2)), NULL);
  in->index = 0;
  r = run(in, 0, NULL);
  CHECK(tcheck_f(r, 6, F(0, 0, 1, 1, 2, 2)));
  literal_free(r);
  /* bf16 cannot hold 257: it rounds to even (256); 259 -> 260. */
  in = mk(OP_IOTA, tshape(M, T_BF16, 1, D(300)), NULL);
  in->index = 0;
  r = run(in, 0, NULL);
  CHECK(r && literal_get_f64(r, 255) == 255 && literal_get_f64(r, 257) == 256 &&
        literal_get_f64(r, 259) == 260);
  literal_free(r);
  teardown();
}

TEST(reshape_copy_tuple_gte_dimsize) {
  setup();
  Instr *in = mk(OP_RESHAPE, tshape(M, T_S32, 2, D(3, 2)), tshape(M, T_S32, 2, D(2, 3)));
  Literal *args[1] = {tlit_i(T_S32, 2, D(2, 3), I(1, 2, 3, 4, 5, 6))};
  Literal *r = run(in, 1, args);
  CHECK(tcheck_dims(r, 2, D(3, 2)) && tcheck_i(r, 6, I(1, 2, 3, 4, 5, 6)));
  literal_free(r);

  Shape *ts[2] = {tshape(M, T_S32, 0, NULL), tshape(M, T_F32, 1, D(2))};
  Shape *tup = shape_new_tuple(&M->arena, 2, ts);
  in = tinstr(C, OP_TUPLE, tup, 2, ts);
  Literal *args2[2] = {tscalar_i(T_S32, 3), tlit_f(T_F32, 1, D(2), F(1, 2))};
  Literal *t = run(in, 2, args2);
  CHECK(t && t->type == T_TUPLE && t->ntuple == 2);
  in = mk(OP_GET_TUPLE_ELEMENT, ts[1], tup);
  in->index = 1;
  Literal *g = NULL;
  CHECK_OK(interp_shape_op(&IP, in, &t, &g));
  CHECK(tcheck_f(g, 2, F(1, 2)));
  literal_free(g);
  in->index = 2;
  CHECK_ERR(interp_shape_op(&IP, in, &t, &g), "out of range");
  literal_free(t);

  in = mk(OP_GET_DIMENSION_SIZE, tshape(M, T_S32, 0, NULL), tshape(M, T_F32, 2, D(4, 7)));
  in->dimensions = L(M, 1);
  Literal *args3[1] = {tlit_f(T_F32, 2, D(4, 7), (double[28]){0})};
  r = run(in, 1, args3);
  CHECK(tcheck_i(r, 1, I(7)));
  literal_free(r);
  teardown();
}

TEST(constant_and_errors) {
  setup();
  Instr *in = mk(OP_CONSTANT, tshape(M, T_F32, 1, D(2)), NULL);
  in->literal = tlit_f(T_F32, 1, D(2), F(4, 5));
  CHECK_OK(module_own_literal(M, in->literal));
  Literal *r = run(in, 0, NULL);
  CHECK(tcheck_f(r, 2, F(4, 5)));
  literal_free(r);
  in->literal->unknown = true;
  CHECK_ERR(interp_shape_op(&IP, in, NULL, &r), "elided");

  in = mk(OP_TRANSPOSE, tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(2, 3)));
  in->dimensions = L(M, 0, 0);
  Literal *x = tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6));
  CHECK_ERR(interp_shape_op(&IP, in, &x, &r), "permutation");
  in = mk(OP_SLICE, tshape(M, T_F32, 2, D(1, 3)), tshape(M, T_F32, 2, D(2, 3)));
  in->slice = arena_array(&M->arena, 2, sizeof(SliceDim));
  in->slice[0] = (SliceDim){1, 3, 1};
  in->slice[1] = (SliceDim){0, 3, 1};
  CHECK_ERR(interp_shape_op(&IP, in, &x, &r), "invalid");
  in = mk(OP_RESHAPE, tshape(M, T_F32, 1, D(5)), tshape(M, T_F32, 2, D(2, 3)));
  CHECK_ERR(interp_shape_op(&IP, in, &x, &r), "element count");
  literal_free(x);
  teardown();
}


typedef struct OomCtx {
  Instr *in;
  Literal **ops;
} OomCtx;

static cxla_status oom_run(void *p, Literal **out) {
  OomCtx *c = p;
  return interp_shape_op(&IP, c->in, c->ops, out);
}

TEST(allocation_failures) {
  setup();
  /* bitcast through a non-default layout needs a scratch buffer */
  Shape *b = tshape(M, T_F32, 2, D(2, 3));
  b->has_layout = true;
  b->minor_to_major = arena_i64dup(&M->arena, D(0, 1), 2);
  Literal *x = tlit_f(T_F32, 2, D(2, 3), F(1, 2, 3, 4, 5, 6));
  OomCtx c = {mk(OP_BITCAST, tshape(M, T_F32, 1, D(6)), b), &x};
  toom_sweep(oom_run, &c);
  Shape *ts[2] = {tshape(M, T_F32, 2, D(2, 3)), tshape(M, T_F32, 2, D(2, 3))};
  Literal *two[2] = {x, x};
  c = (OomCtx){tinstr(C, OP_TUPLE, shape_new_tuple(&M->arena, 2, ts), 2, ts), two};
  toom_sweep(oom_run, &c);
  literal_free(x);
  teardown();
}

int main(void) {
  RUN(pad_interior_and_negative);
  RUN(pad_2d);
  RUN(pad_complex_bytewise);
  RUN(dynamic_slice_clamps);
  RUN(dynamic_slice_2d_mixed_index_types);
  RUN(dynamic_slice_vector_starts);
  RUN(dynamic_update_slice_clamps);
  RUN(bitcast_layouts);
  RUN(transpose_broadcast);
  RUN(slice_concat_reverse);
  RUN(iota_any_type);
  RUN(reshape_copy_tuple_gte_dimsize);
  RUN(constant_and_errors);
  RUN(allocation_failures);
  return test_summary(__FILE__);
}
