/* The interpreter driver: argument checks, elided constants, value
 * lifetimes (freed after the last use, parameters borrowed, results owned),
 * dispatch, the call-depth limit, and the shared helpers. */
#include <sys/resource.h>

#include "harness.h"
#include "interp_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static long peak_rss_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* A chain of 200 multiplies over a 4 MiB array: with values freed after
 * their last use at most a few arrays are live at once; keeping them all
 * would need 800 MiB. (Run first: peak RSS only grows.) */
TEST(values_are_freed_after_last_use) {
  int64_t n = 1 << 20;
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F32, 1, (int)n);
  Instr *x = tm_param(c, 0, s);
  Instr *v = x;
  for (int i = 0; i < 200; i++) v = tm_op(c, OP_MULTIPLY, s, 2, v, x);
  tm_root(c, v);
  tm_entry(m, c);
  Literal *arg = tl_new(T_F32, 1, &n);
  float *a = arg->data;
  for (int64_t i = 0; i < n; i++) a[i] = 1.0f;
  a[7] = -1.0f;
  long before = peak_rss_kb();
  Literal *out = NULL;
  CHECK_OK(tm_run(m, &arg, 1, &out));
  long grew_mb = (peak_rss_kb() - before) / 1024;
  CHECK(out && ((float *)out->data)[7] == -1.0f && ((float *)out->data)[0] == 1.0f);
#ifndef UNDER_ASAN /* ASan's quarantine holds freed memory back */
  if (grew_mb >= 64) fprintf(stderr, "  peak grew by %ld MiB\n", grew_mb);
  CHECK(grew_mb < 64);
#else
  (void)grew_mb;
#endif
  literal_free(out);
  literal_free(arg);
  module_destroy(m);
}

/* A value read by several later instructions (and twice by one) lives until
 * its last reader: exp(x); b = e + e; c = b * e. */
TEST(shared_operands) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F64, 1, 2);
  Instr *x = tm_param(c, 0, s);
  Instr *e = tm_op(c, OP_EXP, s, 1, x);
  Instr *b = tm_op(c, OP_ADD, s, 2, e, e);
  Instr *r = tm_op(c, OP_MULTIPLY, s, 2, b, e);
  tm_root(c, r);
  tm_entry(m, c);
  double v[] = {0, 1};
  Literal *arg = tl_from(T_F64, 2, v), *out = NULL;
  CHECK_OK(tm_run(m, &arg, 1, &out));
  CHECK(out && ((double *)out->data)[0] == 2 && ((double *)out->data)[1] == 2 * exp(1) * exp(1));
  literal_free(out);
  literal_free(arg);
  module_destroy(m);
}

/* The root may be a parameter: the caller gets its own copy. */
TEST(root_parameter_is_cloned) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  tm_root(c, tm_param(c, 0, tm_shape(m, T_S32, 1, 2)));
  tm_entry(m, c);
  int32_t v[] = {5, 6};
  Literal *arg = tl_from(T_S32, 2, v), *out = NULL;
  CHECK_OK(tm_run(m, &arg, 1, &out));
  CHECK(out && out != arg && literal_equal(out, arg));
  literal_free(out);
  CHECK(((int32_t *)arg->data)[1] == 6);
  literal_free(arg);
  module_destroy(m);
}

/* Instructions the root does not depend on are never evaluated; an
 * unsupported op on the live path is refused by name. */
TEST(dead_code_skipped_and_unsupported_ops_named) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_scalar(m, T_F32);
  Instr *x = tm_param(c, 0, s);
  Instr *dead = comp_add_instr(c, OP_INFEED, s, 1, &x, "feed");
  (void)dead;
  tm_root(c, tm_op(c, OP_NEGATE, s, 1, x));
  tm_entry(m, c);
  Literal *arg = tl_f32(2), *out = NULL;
  CHECK_OK(tm_run(m, &arg, 1, &out));
  CHECK(out && *(float *)out->data == -2);
  literal_free(out);
  tm_root(c, dead);
  out = NULL;
  cxla_status st = tm_run(m, &arg, 1, &out);
  CHECK(cxla_status_code_of(st) == CXLA_UNIMPLEMENTED);
  CHECK_ERR(st, "infeed %feed: the interpreter cannot run this op");
  CHECK(!out);
  literal_free(arg);
  module_destroy(m);
}

TEST(argument_checks) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_shape(m, T_F32, 2, 2, 3);
  Instr *p0 = comp_add_instr(c, OP_PARAMETER, s, 0, NULL, "x");
  p0->param_number = 0;
  c->params = arena_array(&m->arena, 2, sizeof(Instr *));
  c->params[0] = p0;
  Shape *t = tm_tuple(m, 2, tm_scalar(m, T_S32), tm_shape(m, T_PRED, 1, 4));
  Instr *p1 = comp_add_instr(c, OP_PARAMETER, t, 0, NULL, "y");
  p1->param_number = 1;
  c->params[1] = p1;
  c->nparams = 2;
  tm_root(c, p0);
  tm_entry(m, c);
  int64_t d23[] = {2, 3}, d32[] = {3, 2}, d4[] = {4}, d5[] = {5};
  Literal *good = tl_new(T_F32, 2, d23), *wrong_dims = tl_new(T_F32, 2, d32);
  Literal *wrong_type = tl_new(T_S32, 2, d23);
  Literal *el[2] = {tl_s32(1), tl_new(T_PRED, 1, d4)}, *tup = NULL, *bad_tup = NULL;
  CHECK_OK(literal_create_tuple(2, el, &tup));
  Literal *el2[2] = {tl_s32(1), tl_new(T_PRED, 1, d5)};
  CHECK_OK(literal_create_tuple(2, el2, &bad_tup));
  Literal *out = NULL;
  Literal *a1[1] = {good};
  CHECK_ERR(tm_run(m, a1, 1, &out), "entry computation %main takes 2 arguments, got 1");
  Literal *a2[2] = {wrong_dims, tup};
  CHECK_ERR(tm_run(m, a2, 2, &out),
            "argument 0 does not match parameter %x: expected f32[2,3], got f32[3,2]");
  Literal *a3[2] = {wrong_type, tup};
  CHECK_ERR(tm_run(m, a3, 2, &out), "expected f32[2,3], got s32[2,3]");
  Literal *a4[2] = {good, bad_tup};
  CHECK_ERR(tm_run(m, a4, 2, &out),
            "argument 1 does not match parameter %y: expected (s32[], pred[4]), got (s32[], pred[5])");
  Literal *a5[2] = {good, tup};
  CHECK_OK(tm_run(m, a5, 2, &out));
  CHECK(out && literal_equal(out, good));
  literal_free(out);
  literal_free(good), literal_free(wrong_dims), literal_free(wrong_type);
  literal_free(tup), literal_free(bad_tup);
  module_destroy(m);
}

TEST(elided_constants_are_refused) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Literal *l = tl_f32(0);
  Instr *k = tm_const(c, l);
  literal_free(l);
  k->literal->unknown = true;
  k->name = "weights";
  tm_root(c, tm_op(c, OP_NEGATE, k->shape, 1, k));
  tm_entry(m, c);
  Literal *out = NULL;
  cxla_status s = tm_run(m, NULL, 0, &out);
  CHECK(cxla_status_code_of(s) == CXLA_FAILED_PRECONDITION);
  CHECK_ERR(s, "constant %weights has an elided value {...}; cxla cannot run it");
  CHECK(!out);
  module_destroy(m);
}

/* A computation that calls itself runs into the depth limit instead of
 * exhausting the stack. */
TEST(call_depth_limit) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_scalar(m, T_F32);
  Instr *x = tm_param(c, 0, s);
  Instr *k = tm_op(c, OP_CALL, s, 1, x);
  tm_calls(m, k, 1, c);
  tm_root(c, k);
  tm_entry(m, c);
  Literal *arg = tl_f32(1), *out = NULL;
  cxla_status st = tm_run(m, &arg, 1, &out);
  CHECK(cxla_status_code_of(st) == CXLA_RESOURCE_EXHAUSTED);
  CHECK_ERR(st, "calls nest deeper than");
  literal_free(arg);
  module_destroy(m);
}

/* Every elementwise opcode reaches the elementwise evaluator: running it
 * either works or fails on the type, never as an unknown op. */
TEST(every_elementwise_op_is_dispatched) {
  for (int op = 0; op < OP_COUNT; op++) {
    const OpInfo *info = op_info((Opcode)op);
    if (!(info->flags & OPF_EW) || op == OP_MAP) continue;
    int n = info->arity;
    Literal *args[3] = {tl_f32(0.5f), tl_f32(0.25f), tl_f32(1)};
    if (op == OP_SELECT) {
      literal_free(args[0]);
      args[0] = tl_pred(true);
    }
    cxla_status st = NULL;
    Literal *r = tm_eval_op((Opcode)op, T_F32, n, args, NULL, NULL, &st);
    if (st && strstr(cxla_status_message(st), "cannot run")) {
      fprintf(stderr, "  %s: %s\n", op_name((Opcode)op), cxla_status_message(st));
      CHECK(!"elementwise op not dispatched");
    }
    cxla_status_free(st);
    literal_free(r);
    for (int i = 0; i < 3; i++) literal_free(args[i]);
  }
}

TEST(stale_ids_and_bad_operands) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Shape *s = tm_scalar(m, T_F32);
  Instr *x = tm_param(c, 0, s);
  Instr *n = tm_op(c, OP_NEGATE, s, 1, x);
  tm_root(c, n);
  tm_entry(m, c);
  n->id = 5;
  Literal *arg = tl_f32(1), *out = NULL;
  CHECK_ERR(tm_run(m, &arg, 1, &out), "instruction ids are stale");
  comp_renumber(c);
  /* An operand that comes later than its user. */
  Instr *later = tm_op(c, OP_NEGATE, s, 1, x);
  n->operands[0] = later;
  CHECK_ERR(tm_run(m, &arg, 1, &out), "is not an earlier instruction");
  literal_free(arg);
  module_destroy(m);
}

TEST(interp_error_format) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Instr *x = comp_add_instr(c, OP_ADD, tm_scalar(m, T_F32), 0, NULL, "sum.3");
  cxla_status s = interp_error(x, CXLA_INVALID_ARGUMENT, "bad %d", 7);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  CHECK(strcmp(cxla_status_message(s), "add %sum.3: bad 7") == 0);
  cxla_status_free(s);
  module_destroy(m);
}

TEST(scalar_fn_and_strides) {
  HloModule *m = tm_module();
  Shape *f = tm_scalar(m, T_F32);
  struct {
    Opcode op;
    int a, b;
    Opcode want;
    bool swapped;
  } cases[] = {
      {OP_ADD, 0, 1, OP_ADD, false},       {OP_MAXIMUM, 1, 0, OP_MAXIMUM, true},
      {OP_MULTIPLY, 0, 0, OP_COUNT, false}, {OP_AND, 0, 1, OP_AND, false},
      {OP_COMPARE, 0, 1, OP_COMPARE, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    Computation *c = tm_comp(m, "f");
    Instr *p[2] = {tm_param(c, 0, f), tm_param(c, 1, f)};
    tm_root(c, tm_op(c, cases[i].op, f, 2, p[cases[i].a], p[cases[i].b]));
    ScalarFn sf = scalar_fn_of(c);
    CHECK(sf.op == cases[i].want);
    if (sf.op != OP_COUNT) CHECK(sf.swapped == cases[i].swapped);
  }
  /* Three parameters, or a root that is not elementwise: not recognised. */
  Computation *c3 = tm_comp(m, "g");
  Instr *q0 = tm_param(c3, 0, f), *q1 = tm_param(c3, 1, f);
  tm_param(c3, 2, f);
  tm_root(c3, tm_op(c3, OP_ADD, f, 2, q0, q1));
  CHECK(scalar_fn_of(c3).op == OP_COUNT);
  Computation *c4 = tm_comp(m, "h");
  Instr *r0 = tm_param(c4, 0, f), *r1 = tm_param(c4, 1, f);
  tm_root(c4, tm_op(c4, OP_TUPLE, tm_tuple(m, 2, f, f), 2, r0, r1));
  CHECK(scalar_fn_of(c4).op == OP_COUNT);
  module_destroy(m);
  int64_t dims[] = {2, 3, 4}, st[3] = {0};
  row_major_strides(3, dims, st);
  CHECK(st[0] == 12 && st[1] == 4 && st[2] == 1);
}

int main(void) {
  RUN(values_are_freed_after_last_use);
  RUN(shared_operands);
  RUN(root_parameter_is_cloned);
  RUN(dead_code_skipped_and_unsupported_ops_named);
  RUN(argument_checks);
  RUN(elided_constants_are_refused);
  RUN(call_depth_limit);
  RUN(every_elementwise_op_is_dispatched);
  RUN(stale_ids_and_bad_operands);
  RUN(interp_error_format);
  RUN(scalar_fn_and_strides);
  return test_summary("test_interp_core");
}
