/* Control flow and single-replica collectives, on modules built by hand.
 * (These use constant, tuple and get-tuple-element from shape_ops.c.) */
#include "harness.h"
#include "interp_test.h"

static Instr *gte(Computation *c, Instr *t, int i) {
  Instr *g = tm_op(c, OP_GET_TUPLE_ELEMENT, t->shape->tuple[i], 1, t);
  g->index = i;
  g->attrs |= A_INDEX;
  return g;
}

static Instr *const_s32(Computation *c, int32_t v) {
  Literal *l = tl_s32(v);
  Instr *in = tm_const(c, l);
  literal_free(l);
  return in;
}

static Instr *compare(Computation *c, Instr *a, Instr *b, CmpDir d) {
  Instr *r = tm_op(c, OP_COMPARE, tm_scalar(c->module, T_PRED), 2, a, b);
  r->cmp_dir = d;
  r->attrs |= A_COMPARE;
  return r;
}

/* Runs m's entry on args and returns the result, checking for success. */
static Literal *run(HloModule *m, Literal **args, int n) {
  Literal *out = NULL;
  CHECK_OK(tm_run(m, args, n, &out));
  return out;
}

static int32_t s32_of(const Literal *l) { return *(const int32_t *)l->data; }

/* while (i < 10) { s += i; i += 1 } on the state (i, s). */
static HloModule *sum_loop(void) {
  HloModule *m = tm_module();
  Shape *st = tm_tuple(m, 2, tm_scalar(m, T_S32), tm_scalar(m, T_S32));
  Computation *cond = tm_comp(m, "cond");
  Instr *cp = tm_param(cond, 0, st);
  tm_root(cond, compare(cond, gte(cond, cp, 0), const_s32(cond, 10), CMP_LT));
  Computation *body = tm_comp(m, "body");
  Instr *bp = tm_param(body, 0, st);
  Instr *i = gte(body, bp, 0), *s = gte(body, bp, 1);
  Instr *i1 = tm_op(body, OP_ADD, tm_scalar(m, T_S32), 2, i, const_s32(body, 1));
  Instr *s1 = tm_op(body, OP_ADD, tm_scalar(m, T_S32), 2, s, i);
  tm_root(body, tm_op(body, OP_TUPLE, st, 2, i1, s1));
  Computation *c = tm_comp(m, "main");
  Instr *p = tm_param(c, 0, st);
  Instr *w = tm_op(c, OP_WHILE, st, 1, p);
  tm_calls(m, w, 2, cond, body);
  tm_root(c, w);
  tm_entry(m, c);
  return m;
}

static Literal *pair_s32(int32_t a, int32_t b) {
  Literal *el[2] = {tl_s32(a), tl_s32(b)}, *t = NULL;
  CHECK_OK(literal_create_tuple(2, el, &t));
  return t;
}

TEST(while_loop) {
  HloModule *m = sum_loop();
  Literal *arg = pair_s32(0, 0);
  Literal *r = run(m, &arg, 1);
  CHECK(r && r->type == T_TUPLE && s32_of(r->tuple[0]) == 10 && s32_of(r->tuple[1]) == 45);
  literal_free(r);
  literal_free(arg);
  /* No iteration: the result is a copy of the operand, which stays intact. */
  arg = pair_s32(20, 7);
  r = run(m, &arg, 1);
  CHECK(r && r != arg && s32_of(r->tuple[0]) == 20 && s32_of(r->tuple[1]) == 7);
  CHECK(s32_of(arg->tuple[0]) == 20);
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

TEST(while_condition_must_be_pred) {
  HloModule *m = tm_module();
  Computation *cond = tm_comp(m, "cond");
  Instr *cp = tm_param(cond, 0, tm_scalar(m, T_S32));
  tm_root(cond, cp);
  Computation *body = tm_comp(m, "body");
  tm_root(body, tm_param(body, 0, tm_scalar(m, T_S32)));
  Computation *c = tm_comp(m, "main");
  Instr *w = tm_op(c, OP_WHILE, tm_scalar(m, T_S32), 1, tm_param(c, 0, tm_scalar(m, T_S32)));
  tm_calls(m, w, 2, cond, body);
  tm_root(c, w);
  tm_entry(m, c);
  Literal *arg = tl_s32(1), *out = NULL;
  CHECK_ERR(tm_run(m, &arg, 1, &out), "condition must return a pred scalar");
  CHECK(!out);
  literal_free(arg);
  module_destroy(m);
}

/* conditional(pred, a, b): true -> negate(a), false -> b + b. */
TEST(conditional_pred) {
  HloModule *m = tm_module();
  Shape *f = tm_scalar(m, T_F32);
  Computation *t = tm_comp(m, "on_true");
  tm_root(t, tm_op(t, OP_NEGATE, f, 1, tm_param(t, 0, f)));
  Computation *e = tm_comp(m, "on_false");
  Instr *ep = tm_param(e, 0, f);
  tm_root(e, tm_op(e, OP_ADD, f, 2, ep, ep));
  Computation *c = tm_comp(m, "main");
  Instr *p = tm_param(c, 0, tm_scalar(m, T_PRED)), *a = tm_param(c, 1, f), *b = tm_param(c, 2, f);
  Instr *k = tm_op(c, OP_CONDITIONAL, f, 3, p, a, b);
  tm_calls(m, k, 2, t, e);
  tm_root(c, k);
  tm_entry(m, c);
  Literal *args[3] = {tl_pred(true), tl_f32(3), tl_f32(5)};
  Literal *r = run(m, args, 3);
  CHECK(r && *(float *)r->data == -3);
  literal_free(r);
  literal_free(args[0]);
  args[0] = tl_pred(false);
  r = run(m, args, 3);
  CHECK(r && *(float *)r->data == 10);
  literal_free(r);
  for (int i = 0; i < 3; i++) literal_free(args[i]);
  module_destroy(m);
}

/* conditional(index, x, x, x) with branches returning 100, 200, 300. */
TEST(conditional_index_out_of_range_takes_last) {
  HloModule *m = tm_module();
  Shape *s = tm_scalar(m, T_S32);
  Computation *br[3];
  for (int i = 0; i < 3; i++) {
    char name[24]; /* "branch" and any int: gcc -O1 cannot bound i */
    snprintf(name, sizeof name, "branch%d", i);
    br[i] = tm_comp(m, name);
    tm_param(br[i], 0, s);
    tm_root(br[i], const_s32(br[i], 100 * (i + 1)));
  }
  Computation *c = tm_comp(m, "main");
  Instr *idx = tm_param(c, 0, s), *x = tm_param(c, 1, s);
  Instr *k = tm_op(c, OP_CONDITIONAL, s, 4, idx, x, x, x);
  tm_calls(m, k, 3, br[0], br[1], br[2]);
  tm_root(c, k);
  tm_entry(m, c);
  int32_t idxs[] = {0, 1, 2, 5, -1}, want[] = {100, 200, 300, 300, 300};
  for (int i = 0; i < 5; i++) {
    Literal *args[2] = {tl_s32(idxs[i]), tl_s32(0)};
    Literal *r = run(m, args, 2);
    CHECK(r && s32_of(r) == want[i]);
    literal_free(r);
    literal_free(args[0]);
    literal_free(args[1]);
  }
  module_destroy(m);
}

/* call and fusion evaluate their computation on the operands. */
TEST(call_and_fusion) {
  for (int fusion = 0; fusion < 2; fusion++) {
    HloModule *m = tm_module();
    Shape *s = tm_shape(m, T_F32, 1, 2);
    Computation *f = tm_comp(m, "sub");
    Instr *a = tm_param(f, 0, s), *b = tm_param(f, 1, s);
    tm_root(f, tm_op(f, OP_SUBTRACT, s, 2, a, b));
    Computation *c = tm_comp(m, "main");
    Instr *x = tm_param(c, 0, s), *y = tm_param(c, 1, s);
    Instr *k = tm_op(c, fusion ? OP_FUSION : OP_CALL, s, 2, y, x);
    tm_calls(m, k, 1, f);
    tm_root(c, k);
    tm_entry(m, c);
    float vx[] = {1, 2}, vy[] = {10, 20};
    Literal *args[2] = {tl_from(T_F32, 2, vx), tl_from(T_F32, 2, vy)};
    Literal *r = run(m, args, 2);
    CHECK(r && ((float *)r->data)[0] == 9 && ((float *)r->data)[1] == 18);
    literal_free(r);
    literal_free(args[0]);
    literal_free(args[1]);
    module_destroy(m);
  }
}

/* Builds main(x: f32[3]) = <op>(x [, extra operands]) and runs it. */
static Literal *run_on_f32_3(Opcode op, Shape *(*shape)(HloModule *), const char *raw_name,
                             const char *raw_value, cxla_status *err) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F32, 1, 3);
  Instr *x = tm_param(c, 0, s);
  Instr *r = tm_op(c, op, shape ? shape(m) : s, 1, x);
  if (raw_name) instr_add_raw(m, r, raw_name, raw_value);
  tm_root(c, r);
  tm_entry(m, c);
  float v[] = {1, 2, 3};
  Literal *arg = tl_from(T_F32, 3, v), *out = NULL;
  cxla_status st = tm_run(m, &arg, 1, &out);
  if (err) *err = st;
  else CHECK_OK(st);
  literal_free(arg);
  module_destroy(m);
  return out;
}

static bool is_123(const Literal *r) {
  const float *v = r ? r->data : NULL;
  return r && r->type == T_F32 && r->nelems == 3 && v[0] == 1 && v[1] == 2 && v[2] == 3;
}

static Shape *f32_6(HloModule *m) { return tm_shape(m, T_F32, 1, 6); }

TEST(single_replica_collectives) {
  Opcode ident[] = {OP_ALL_REDUCE, OP_ALL_GATHER, OP_REDUCE_SCATTER, OP_ALL_TO_ALL,
                    OP_COLLECTIVE_BROADCAST, OP_OPT_BARRIER, OP_DOMAIN};
  for (size_t i = 0; i < sizeof ident / sizeof ident[0]; i++) {
    Literal *r = run_on_f32_3(ident[i], NULL, NULL, NULL, NULL);
    CHECK(is_123(r));
    literal_free(r);
  }
  Literal *r = run_on_f32_3(OP_COLLECTIVE_PERMUTE, NULL, "source_target_pairs", "{{1,0},{0,0}}", NULL);
  CHECK(is_123(r));
  literal_free(r);
  r = run_on_f32_3(OP_COLLECTIVE_PERMUTE, NULL, "source_target_pairs", "{{0,1},{1,0}}", NULL);
  CHECK(r && r->nelems == 3 && ((float *)r->data)[0] == 0 && ((float *)r->data)[2] == 0);
  literal_free(r);
  cxla_status err = NULL;
  r = run_on_f32_3(OP_ALL_GATHER, f32_6, NULL, NULL, &err);
  CHECK(!r);
  CHECK_ERR(err, "several replicas");
}

TEST(multi_operand_all_reduce_and_ids) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *a = tm_shape(m, T_F32, 1, 2), *b = tm_scalar(m, T_S32);
  Instr *x = tm_param(c, 0, a), *y = tm_param(c, 1, b);
  Instr *ar = tm_op(c, OP_ALL_REDUCE, tm_tuple(m, 2, a, b), 2, x, y);
  Instr *rid = tm_op(c, OP_REPLICA_ID, tm_scalar(m, T_U32), 0);
  Instr *pid = tm_op(c, OP_PARTITION_ID, tm_scalar(m, T_U32), 0);
  tm_root(c, tm_op(c, OP_TUPLE, tm_tuple(m, 3, ar->shape, rid->shape, pid->shape), 3, ar, rid, pid));
  tm_entry(m, c);
  float v[] = {4, 5};
  Literal *args[2] = {tl_from(T_F32, 2, v), tl_s32(9)};
  Literal *r = run(m, args, 2);
  CHECK(r && r->ntuple == 3);
  if (r && r->ntuple == 3) {
    CHECK(r->tuple[0]->ntuple == 2 && ((float *)r->tuple[0]->tuple[0]->data)[1] == 5 &&
          s32_of(r->tuple[0]->tuple[1]) == 9);
    CHECK(r->tuple[1]->type == T_U32 && *(uint32_t *)r->tuple[1]->data == 0);
    CHECK(r->tuple[2]->type == T_U32 && *(uint32_t *)r->tuple[2]->data == 0);
  }
  literal_free(r);
  literal_free(args[0]);
  literal_free(args[1]);
  module_destroy(m);
}

TEST(tokens_and_dependencies) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F32, 1, 3);
  Instr *x = tm_param(c, 0, s);
  Instr *tok = tm_op(c, OP_AFTER_ALL, tm_scalar(m, T_TOKEN), 0);
  Instr *dep = tm_op(c, OP_ADD_DEPENDENCY, s, 2, x, tok);
  tm_root(c, tm_op(c, OP_TUPLE, tm_tuple(m, 2, s, tok->shape), 2, dep, tok));
  tm_entry(m, c);
  float v[] = {1, 2, 3};
  Literal *arg = tl_from(T_F32, 3, v);
  Literal *r = run(m, &arg, 1);
  CHECK(r && r->ntuple == 2 && is_123(r->tuple[0]) && r->tuple[1]->type == T_TOKEN);
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

static Literal *custom_call(const char *target, cxla_status *err) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F32, 1, 3);
  Instr *r = tm_op(c, OP_CUSTOM_CALL, s, 1, tm_param(c, 0, s));
  r->custom_call_target = target;
  r->attrs |= A_CUSTOM_CALL;
  tm_root(c, r);
  tm_entry(m, c);
  float v[] = {1, 2, 3};
  Literal *arg = tl_from(T_F32, 3, v), *out = NULL;
  *err = tm_run(m, &arg, 1, &out);
  literal_free(arg);
  module_destroy(m);
  return out;
}

TEST(custom_call_dispatch) {
  cxla_status err = NULL;
  Literal *r = custom_call("Sharding", &err);
  CHECK_OK(err);
  CHECK(is_123(r));
  literal_free(r);
  r = custom_call("my_kernel", &err);
  CHECK(!r);
  CHECK(cxla_status_code_of(err) == CXLA_UNIMPLEMENTED);
  CHECK_ERR(err, "unsupported custom-call target 'my_kernel'");
}

/* async-start/update/done around negate, and copy-start/done. */
TEST(async_and_copy_wrappers) {
  HloModule *m = tm_module();
  Shape *s = tm_shape(m, T_F32, 1, 3);
  Computation *neg = tm_comp(m, "neg");
  tm_root(neg, tm_op(neg, OP_NEGATE, s, 1, tm_param(neg, 0, s)));
  Computation *c = tm_comp(m, "main");
  Instr *x = tm_param(c, 0, s);
  Shape *ss = tm_tuple(m, 3, tm_tuple(m, 1, s), s, tm_scalar(m, T_S32));
  Instr *st = tm_op(c, OP_ASYNC_START, ss, 1, x);
  tm_calls(m, st, 1, neg);
  Instr *up = tm_op(c, OP_ASYNC_UPDATE, ss, 1, st);
  Instr *dn = tm_op(c, OP_ASYNC_DONE, s, 1, up);
  Shape *cs = tm_tuple(m, 3, s, s, tm_scalar(m, T_U32));
  Instr *cst = tm_op(c, OP_COPY_START, cs, 1, dn);
  Instr *cdn = tm_op(c, OP_COPY_DONE, s, 1, cst);
  Instr *gds = tm_op(c, OP_GET_DIMENSION_SIZE, tm_scalar(m, T_S32), 1, cdn);
  gds->dimensions.n = 1;
  gds->dimensions.v = arena_i64dup(&m->arena, (int64_t[]){0}, 1);
  gds->attrs |= A_DIMENSIONS;
  tm_root(c, tm_op(c, OP_TUPLE, tm_tuple(m, 2, s, gds->shape), 2, cdn, gds));
  tm_entry(m, c);
  float v[] = {1, 2, 3};
  Literal *arg = tl_from(T_F32, 3, v);
  Literal *r = run(m, &arg, 1);
  CHECK(r && r->ntuple == 2);
  if (r && r->ntuple == 2) {
    const float *o = r->tuple[0]->data;
    CHECK(o[0] == -1 && o[1] == -2 && o[2] == -3);
    CHECK(s32_of(r->tuple[1]) == 3);
  }
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

int main(void) {
  RUN(while_loop);
  RUN(while_condition_must_be_pred);
  RUN(conditional_pred);
  RUN(conditional_index_out_of_range_takes_last);
  RUN(call_and_fusion);
  RUN(single_replica_collectives);
  RUN(multi_operand_all_reduce_and_ids);
  RUN(tokens_and_dependencies);
  RUN(custom_call_dispatch);
  RUN(async_and_copy_wrappers);
  return test_summary("test_control");
}
