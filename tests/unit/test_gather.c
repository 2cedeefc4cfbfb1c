/* Unit tests of src/interp/gather.c: gather (clamping, index_vector_dim,
 * batching dims) and scatter (out-of-bounds windows skipped, duplicates
 * combined in order, variadic). Expected values worked out by hand. */
#include "data_test_util.h"


static Literal *run(Instr *in, int n, Literal **ops) { return trun(interp_gather, in, n, ops); }

static Instr *mkgather(Shape *result, Shape *x, Shape *idx) {
  Shape *ops[2] = {x, idx};
  return tinstr(C, OP_GATHER, result, 2, ops);
}

static const double ROWS[8] = {0, 1, 10, 11, 20, 21, 30, 31};

TEST(gather_rows_clamped) {
  setup();
  /* implicit index vector (index_vector_dim == rank(indices)) */
  Instr *in = mkgather(tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(4, 2)), tshape(M, T_S32, 1, D(3)));
  in->gather = (GatherDims){.offset_dims = L(M, 1), .collapsed_slice_dims = L(M, 0),
                            .start_index_map = L(M, 0), .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 2);
  Literal *a[2] = {tlit_f(T_F32, 2, D(4, 2), ROWS), tlit_i(T_S32, 1, D(3), I(2, 9, -1))};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_dims(r, 2, D(3, 2)) && tcheck_f(r, 6, F(20, 21, 30, 31, 0, 1)));
  literal_free(r);
  /* explicit trailing index vector of length 1 */
  in = mkgather(tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(4, 2)), tshape(M, T_S64, 2, D(3, 1)));
  in->gather = (GatherDims){.offset_dims = L(M, 1), .collapsed_slice_dims = L(M, 0),
                            .start_index_map = L(M, 0), .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 2);
  Literal *b[2] = {tlit_f(T_F32, 2, D(4, 2), ROWS), tlit_i(T_S64, 2, D(3, 1), I(3, 0, 100))};
  r = run(in, 2, b);
  CHECK(tcheck_f(r, 6, F(30, 31, 0, 1, 30, 31)));
  literal_free(r);
  teardown();
}

TEST(gather_2d_windows_and_index_vector_dim_0) {
  setup();
  int64_t v[9];
  for (int i = 0; i < 9; i++) v[i] = i;
  /* starts (1,1) and (0,2); the second clamps to (0,1). */
  Instr *in = mkgather(tshape(M, T_S32, 3, D(2, 2, 2)), tshape(M, T_S32, 2, D(3, 3)), tshape(M, T_S32, 2, D(2, 2)));
  in->gather = (GatherDims){.offset_dims = L(M, 1, 2), .start_index_map = L(M, 0, 1), .index_vector_dim = 1};
  in->slice_sizes = L(M, 2, 2);
  Literal *a[2] = {tlit_i(T_S32, 2, D(3, 3), v), tlit_i(T_S32, 2, D(2, 2), I(1, 1, 0, 2))};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_i(r, 8, I(4, 5, 7, 8, 1, 2, 4, 5)));
  literal_free(r);
  /* The same starts stored as columns: index_vector_dim = 0. */
  in->gather.index_vector_dim = 0;
  Literal *b[2] = {tlit_i(T_S32, 2, D(3, 3), v), tlit_i(T_S32, 2, D(2, 2), I(1, 0, 1, 2))};
  r = run(in, 2, b);
  CHECK(tcheck_i(r, 8, I(4, 5, 7, 8, 1, 2, 4, 5)));
  literal_free(r);
  /* offset dim before the batch dim: result [2 (window row), 2 (batch), 2] */
  in = mkgather(tshape(M, T_S32, 3, D(2, 2, 2)), tshape(M, T_S32, 2, D(3, 3)), tshape(M, T_S32, 2, D(2, 2)));
  in->gather = (GatherDims){.offset_dims = L(M, 0, 2), .start_index_map = L(M, 0, 1), .index_vector_dim = 1};
  in->slice_sizes = L(M, 2, 2);
  Literal *c[2] = {tlit_i(T_S32, 2, D(3, 3), v), tlit_i(T_S32, 2, D(2, 2), I(1, 1, 0, 2))};
  r = run(in, 2, c);
  /* out[w][b][k]: b=0 window [[4,5],[7,8]], b=1 window [[1,2],[4,5]] */
  CHECK(tcheck_i(r, 8, I(4, 5, 1, 2, 7, 8, 4, 5)));
  literal_free(r);
  teardown();
}

TEST(gather_batching_dims) {
  setup();
  /* take_along_axis: out[b] = op[b][idx[b]] */
  Instr *in = mkgather(tshape(M, T_S32, 1, D(2)), tshape(M, T_S32, 2, D(2, 3)), tshape(M, T_S32, 1, D(2)));
  in->gather = (GatherDims){.collapsed_slice_dims = L(M, 1), .start_index_map = L(M, 1),
                            .operand_batching_dims = L(M, 0), .start_indices_batching_dims = L(M, 0),
                            .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 1);
  Literal *a[2] = {tlit_i(T_S32, 2, D(2, 3), I(0, 1, 2, 10, 11, 12)), tlit_i(T_S32, 1, D(2), I(2, 0))};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_i(r, 2, I(2, 10)));
  literal_free(r);
  teardown();
}

static Instr *mkscatter(Shape *result, int n, Shape *const *xs, Shape *idx, Shape *const *ups, Computation *f) {
  Shape *ops[16];
  for (int i = 0; i < n; i++) {
    ops[i] = xs[i];
    ops[n + 1 + i] = ups[i];
  }
  ops[n] = idx;
  Instr *in = tinstr(C, OP_SCATTER, result, 2 * n + 1, ops);
  in->ncalled = 1;
  in->called = arena_array(&M->arena, 1, sizeof(Computation *));
  in->called[0] = f;
  return in;
}

TEST(scatter_add_duplicates_and_oob) {
  setup();
  Shape *x = tshape(M, T_F32, 1, D(5)), *u = tshape(M, T_F32, 1, D(5));
  Instr *in = mkscatter(x, 1, &x, tshape(M, T_S32, 2, D(5, 1)), &u, tbinary(M, "add", OP_ADD, T_F32));
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 0), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *a[3] = {tlit_f(T_F32, 1, D(5), F(1, 1, 1, 1, 1)), tlit_i(T_S32, 2, D(5, 1), I(1, 3, 1, 7, -1)),
                   tlit_f(T_F32, 1, D(5), F(10, 20, 30, 40, 50))};
  Literal *r = run(in, 3, a);
  CHECK(tcheck_f(r, 5, F(1, 41, 1, 21, 1)));
  literal_free(r);
  teardown();
}

TEST(scatter_window_partially_out_of_bounds_is_skipped) {
  setup();
  Shape *x = tshape(M, T_F32, 1, D(6)), *u = tshape(M, T_F32, 2, D(3, 2));
  Instr *in = mkscatter(x, 1, &x, tshape(M, T_S32, 2, D(3, 1)), &u, tbinary(M, "add", OP_ADD, T_F32));
  in->scatter = (ScatterDims){.update_window_dims = L(M, 1), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  /* window at 5 would cover [5,6]: 6 is out of range, so none of it lands */
  Literal *a[3] = {tlit_f(T_F32, 1, D(6), F(0, 0, 0, 0, 0, 0)), tlit_i(T_S32, 2, D(3, 1), I(0, 5, 2)),
                   tlit_f(T_F32, 2, D(3, 2), F(1, 2, 3, 4, 5, 6))};
  Literal *r = run(in, 3, a);
  CHECK(tcheck_f(r, 6, F(1, 2, 5, 6, 0, 0)));
  literal_free(r);
  teardown();
}

TEST(scatter_set_last_wins) {
  setup();
  Computation *set = module_add_computation(M, "set");
  ElemType ty[2] = {T_S32, T_S32};
  tparams(M, set, 2, ty);
  set->root = set->params[1];
  Shape *x = tshape(M, T_S32, 1, D(3)), *u = tshape(M, T_S32, 1, D(2));
  Instr *in = mkscatter(x, 1, &x, tshape(M, T_S32, 1, D(2)), &u, set);
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 0), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *a[3] = {tlit_i(T_S32, 1, D(3), I(7, 7, 7)), tlit_i(T_S32, 1, D(2), I(1, 1)),
                   tlit_i(T_S32, 1, D(2), I(5, 6))};
  Literal *r = run(in, 3, a);
  CHECK(tcheck_i(r, 3, I(7, 6, 7)));
  literal_free(r);
  teardown();
}

TEST(scatter_variadic_called_combiner) {
  setup();
  /* (c0, c1, u0, u1) -> (c0 + u0, max(c1, u1)) */
  Computation *f = module_add_computation(M, "f");
  ElemType ty[4] = {T_F32, T_S32, T_F32, T_S32};
  tparams(M, f, 4, ty);
  Instr **p = f->params;
  Instr *s0 = tadd(f, OP_ADD, p[0]->shape, 2, (Instr *[]){p[0], p[2]});
  Instr *s1 = tadd(f, OP_MAXIMUM, p[1]->shape, 2, (Instr *[]){p[1], p[3]});
  Shape *ts[2] = {p[0]->shape, p[1]->shape};
  f->root = tadd(f, OP_TUPLE, shape_new_tuple(&M->arena, 2, ts), 2, (Instr *[]){s0, s1});
  Shape *xs[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_S32, 1, D(3))};
  Shape *us[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_S32, 1, D(3))};
  Instr *in = mkscatter(shape_new_tuple(&M->arena, 2, xs), 2, xs, tshape(M, T_S32, 2, D(3, 1)), us, f);
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 0), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *a[5] = {tlit_f(T_F32, 1, D(3), F(0, 0, 0)), tlit_i(T_S32, 1, D(3), I(0, 0, 0)),
                   tlit_i(T_S32, 2, D(3, 1), I(2, 0, 2)), tlit_f(T_F32, 1, D(3), F(1, 2, 3)),
                   tlit_i(T_S32, 1, D(3), I(5, 1, 4))};
  Literal *r = run(in, 5, a);
  CHECK(r && r->type == T_TUPLE && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    CHECK(tcheck_f(r->tuple[0], 3, F(2, 0, 4)));
    CHECK(tcheck_i(r->tuple[1], 3, I(1, 0, 5)));
  }
  literal_free(r);
  teardown();
}

TEST(scatter_batching_dims) {
  setup();
  Shape *x = tshape(M, T_S32, 2, D(2, 3)), *u = tshape(M, T_S32, 1, D(2));
  Instr *in = mkscatter(x, 1, &x, tshape(M, T_S32, 1, D(2)), &u, tbinary(M, "add", OP_ADD, T_S32));
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 1), .scatter_dims_to_operand_dims = L(M, 1),
                              .input_batching_dims = L(M, 0), .scatter_indices_batching_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *a[3] = {tlit_i(T_S32, 2, D(2, 3), I(0, 0, 0, 0, 0, 0)), tlit_i(T_S32, 1, D(2), I(2, 0)),
                   tlit_i(T_S32, 1, D(2), I(7, 8))};
  Literal *r = run(in, 3, a);
  CHECK(tcheck_i(r, 6, I(0, 0, 7, 8, 0, 0)));
  literal_free(r);
  teardown();
}

TEST(unsigned_indices) {
  setup();
  /* u64 index 2^64-1 is huge, not -1: gather clamps it to the last row. */
  Instr *in = mkgather(tshape(M, T_F32, 2, D(1, 2)), tshape(M, T_F32, 2, D(4, 2)), tshape(M, T_U64, 1, D(1)));
  in->gather = (GatherDims){.offset_dims = L(M, 1), .collapsed_slice_dims = L(M, 0),
                            .start_index_map = L(M, 0), .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 2);
  Literal *a[2] = {tlit_f(T_F32, 2, D(4, 2), ROWS), tlit_i(T_U64, 1, D(1), I(-1))};
  Literal *r = run(in, 2, a);
  CHECK(tcheck_f(r, 2, F(30, 31)));
  literal_free(r);
  /* u32 index 0xffffffff is out of bounds for scatter: skipped. */
  Shape *x = tshape(M, T_F32, 1, D(3)), *u = tshape(M, T_F32, 1, D(2));
  in = mkscatter(x, 1, &x, tshape(M, T_U32, 1, D(2)), &u, tbinary(M, "add", OP_ADD, T_F32));
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 0), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *b[3] = {tlit_f(T_F32, 1, D(3), F(0, 0, 0)), tlit_i(T_U32, 1, D(2), I(0xffffffff, 2)),
                   tlit_f(T_F32, 1, D(2), F(5, 6))};
  r = run(in, 3, b);
  CHECK(tcheck_f(r, 3, F(0, 0, 6)));
  literal_free(r);
  teardown();
}

TEST(gather_scatter_errors) {
  setup();
  Instr *in = mkgather(tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(4, 2)), tshape(M, T_S32, 1, D(3)));
  in->gather = (GatherDims){.offset_dims = L(M, 1), .collapsed_slice_dims = L(M, 0),
                            .start_index_map = L(M, 0), .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 3);
  Literal *a[2] = {tlit_f(T_F32, 2, D(4, 2), ROWS), tlit_i(T_S32, 1, D(3), I(0, 1, 2))};
  Literal *r = NULL;
  CHECK_ERR(interp_gather(&IP, in, a, &r), "slice size");
  in->slice_sizes = L(M, 1, 2);
  in->gather.index_vector_dim = 3;
  CHECK_ERR(interp_gather(&IP, in, a, &r), "index_vector_dim");
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
  return interp_gather(&IP, c->in, c->ops, out);
}

TEST(allocation_failures) {
  setup();
  Computation *f = module_add_computation(M, "f");
  ElemType ty[4] = {T_F32, T_S32, T_F32, T_S32};
  tparams(M, f, 4, ty);
  Instr **p = f->params;
  Instr *s0 = tadd(f, OP_ADD, p[0]->shape, 2, (Instr *[]){p[0], p[2]});
  Instr *s1 = tadd(f, OP_MAXIMUM, p[1]->shape, 2, (Instr *[]){p[1], p[3]});
  Shape *ts[2] = {p[0]->shape, p[1]->shape};
  f->root = tadd(f, OP_TUPLE, shape_new_tuple(&M->arena, 2, ts), 2, (Instr *[]){s0, s1});
  Shape *xs[2] = {tshape(M, T_F32, 1, D(3)), tshape(M, T_S32, 1, D(3))};
  Instr *in = mkscatter(shape_new_tuple(&M->arena, 2, xs), 2, xs, tshape(M, T_S32, 2, D(3, 1)), xs, f);
  in->scatter = (ScatterDims){.inserted_window_dims = L(M, 0), .scatter_dims_to_operand_dims = L(M, 0),
                              .index_vector_dim = 1};
  Literal *a[5] = {tlit_f(T_F32, 1, D(3), F(0, 0, 0)), tlit_i(T_S32, 1, D(3), I(0, 0, 0)),
                   tlit_i(T_S32, 2, D(3, 1), I(2, 0, 2)), tlit_f(T_F32, 1, D(3), F(1, 2, 3)),
                   tlit_i(T_S32, 1, D(3), I(5, 1, 4))};
  OomCtx c = {in, a};
  toom_sweep(oom_run, &c);
  for (int i = 0; i < 5; i++) literal_free(a[i]);
  in = mkgather(tshape(M, T_F32, 2, D(3, 2)), tshape(M, T_F32, 2, D(4, 2)), tshape(M, T_S32, 1, D(3)));
  in->gather = (GatherDims){.offset_dims = L(M, 1), .collapsed_slice_dims = L(M, 0),
                            .start_index_map = L(M, 0), .index_vector_dim = 1};
  in->slice_sizes = L(M, 1, 2);
  Literal *b[2] = {tlit_f(T_F32, 2, D(4, 2), ROWS), tlit_i(T_S32, 1, D(3), I(2, 9, -1))};
  c = (OomCtx){in, b};
  toom_sweep(oom_run, &c);
  literal_free(b[0]);
  literal_free(b[1]);
  teardown();
}

int main(void) {
  RUN(gather_rows_clamped);
  RUN(gather_2d_windows_and_index_vector_dim_0);
  RUN(gather_batching_dims);
  RUN(scatter_add_duplicates_and_oob);
  RUN(scatter_window_partially_out_of_bounds_is_skipped);
  RUN(scatter_set_last_wins);
  RUN(scatter_variadic_called_combiner);
  RUN(scatter_batching_dims);
  RUN(unsigned_indices);
  RUN(gather_scatter_errors);
  RUN(allocation_failures);
  return test_summary(__FILE__);
}
