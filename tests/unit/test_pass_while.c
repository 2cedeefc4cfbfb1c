/* Tests of while-loop-simplify (src/passes/while_loop_simplify.c): HLO text
 * in, the pass, structural checks on the result (verified), and the
 * interpreter's values before and after (bit for bit), plus hand-computed
 * values where the loop is simple enough. */
#include <stdlib.h>

#include "harness.h"
#include "../gen/random_hlo.c"
#include "passes/passes.h"
#include "verify/verify.h"

static HloModule *parse(const char *text) {
  cxla_module *m = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), "test", &m);
  if (!st) st = verify_module(m);
  if (st) {
    fprintf(stderr, "%s: %s\n", harness_current, cxla_status_message(st));
    CHECK(!"the test module parses and verifies");
    cxla_status_free(st);
    module_destroy(m);
    return NULL;
  }
  return m;
}

static int count_op(const HloModule *m, Opcode op) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int j = 0; j < m->comps[i]->ninstrs; j++) n += m->comps[i]->instrs[j]->op == op;
  return n;
}

static int count_op_in(const Computation *c, Opcode op) {
  int n = 0;
  for (int j = 0; j < c->ninstrs; j++) n += c->instrs[j]->op == op;
  return n;
}

static Instr *find_op(const Computation *c, Opcode op) {
  for (int j = 0; j < c->ninstrs; j++)
    if (c->instrs[j]->op == op) return c->instrs[j];
  return NULL;
}

/* The module's text (cxla_free it). */
static char *text_of(const HloModule *m) {
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  return t;
}

/* Runs while-loop-simplify through the pipeline (which verifies after it)
 * and checks that the printed result parses and verifies again. Returns
 * whether the module changed. */
static bool simplify(HloModule *m) {
  char *before = text_of(m);
  const char *names[] = {"while-loop-simplify"};
  PipelineOptions o = {.verify = true, .module_number = 1};
  CHECK_OK(pipeline_run(m, names, 1, &o));
  char *after = text_of(m);
  bool changed = before && after && strcmp(before, after) != 0;
  cxla_module *again = NULL;
  if (after) {
    cxla_status st = cxla_module_parse(after, strlen(after), "round trip", &again);
    if (!st) st = verify_module(again);
    if (st) fprintf(stderr, "%s: %s\n", harness_current, cxla_status_message(st));
    CHECK(!st);
    cxla_status_free(st);
  }
  module_destroy(again);
  cxla_free(before);
  cxla_free(after);
  return changed;
}

/* Runs the pass on text with the given arguments (or random ones), checks
 * that the module still verifies and computes the same values; returns
 * the optimized module (or NULL) and its result in *result. */
static HloModule *run_pass(const char *text, Literal **given, int ngiven, bool expect_change,
                           Literal **result) {
  *result = NULL;
  HloModule *m = parse(text);
  if (!m) return NULL;
  Literal **args = given, *before = NULL;
  int nargs = ngiven;
  if (!given) CHECK_OK(random_args(m, 7, &args, &nargs));
  CHECK_OK(cxla_interp_run(m, args, nargs, &before));
  CHECK(simplify(m) == expect_change);
  Literal *after = NULL;
  CHECK_OK(cxla_interp_run(m, args, nargs, &after));
  char why[256] = "";
  CHECK(before && after && same_bits(before, after, why, sizeof why));
  if (why[0]) fprintf(stderr, "%s: %s\n", harness_current, why);
  if (!given) random_args_free(args, nargs);
  literal_free(before);
  *result = after;
  return m;
}

static Literal *f32_vec(int n, const float *v) {
  Literal *l = NULL;
  int64_t d = n;
  cxla_status st = literal_create(T_F32, 1, &d, &l);
  if (st) {
    cxla_status_free(st);
    return NULL;
  }
  memcpy(l->data, v, (size_t)n * sizeof(float));
  return l;
}

/* A fori_loop: x = x*x + i for i in [0, N). */
#define FORI(N, START)                                                        \
  "HloModule m\n"                                                             \
  "body {\n"                                                                  \
  "  s = (s32[], f32[4]) parameter(0)\n"                                      \
  "  i = s32[] get-tuple-element(s), index=0\n"                               \
  "  x = f32[4] get-tuple-element(s), index=1\n"                              \
  "  one = s32[] constant(1)\n"                                               \
  "  i1 = s32[] add(i, one)\n"                                                \
  "  fi = f32[] convert(i)\n"                                                 \
  "  b = f32[4] broadcast(fi), dimensions={}\n"                               \
  "  y = f32[4] multiply(x, x)\n"                                             \
  "  z = f32[4] add(y, b)\n"                                                  \
  "  ROOT t = (s32[], f32[4]) tuple(i1, z)\n"                                 \
  "}\n"                                                                       \
  "cond {\n"                                                                  \
  "  s = (s32[], f32[4]) parameter(0)\n"                                      \
  "  i = s32[] get-tuple-element(s), index=0\n"                               \
  "  n = s32[] constant(" #N ")\n"                                            \
  "  ROOT lt = pred[] compare(i, n), direction=LT\n"                          \
  "}\n"                                                                       \
  "ENTRY e {\n"                                                               \
  "  p = f32[4] parameter(0)\n"                                               \
  "  zero = s32[] constant(" #START ")\n"                                     \
  "  init = (s32[], f32[4]) tuple(zero, p)\n"                                 \
  "  w = (s32[], f32[4]) while(init), condition=cond, body=body\n"            \
  "  ROOT r = f32[4] get-tuple-element(w), index=1\n"                         \
  "}\n"

/* Five iterations: unrolled into straight-line code. By hand, from x = 0:
 * 0, 0+1 = 1, 1+2 = 3, 9+3 = 12, 144+4 = 148; from 1 or -1: 1, 2, 6, 39,
 * 1525. */
TEST(unroll_fori_loop) {
  float in[4] = {0, 1, -1, 0};
  Literal *arg = f32_vec(4, in), *r;
  HloModule *m = run_pass(FORI(5, 0), &arg, 1, true, &r);
  if (m) {
    CHECK(count_op(m, OP_WHILE) == 0);
    CHECK(count_op_in(m->entry, OP_MULTIPLY) == 5);
    CHECK(m->ncomps == 1); /* body and condition dropped */
    const float *v = r ? r->data : NULL;
    CHECK(v && v[0] == 148 && v[1] == 1525 && v[2] == 1525 && v[3] == 148);
  }
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

/* Eight iterations is the limit; nine stay a loop. */
TEST(unroll_limit) {
  Literal *r;
  HloModule *m = run_pass(FORI(8, 0), NULL, 0, true, &r);
  CHECK(m && count_op(m, OP_WHILE) == 0);
  literal_free(r);
  module_destroy(m);
  m = run_pass(FORI(9, 0), NULL, 0, false, &r);
  CHECK(m && count_op(m, OP_WHILE) == 1);
  literal_free(r);
  module_destroy(m);
  /* counted from 3 to 12: nine trips again */
  m = run_pass(FORI(12, 3), NULL, 0, false, &r);
  CHECK(m && count_op(m, OP_WHILE) == 1);
  literal_free(r);
  module_destroy(m);
  /* from 5 to 12: seven trips */
  m = run_pass(FORI(12, 5), NULL, 0, true, &r);
  CHECK(m && count_op(m, OP_WHILE) == 0 && count_op(m, OP_MULTIPLY) == 7);
  literal_free(r);
  module_destroy(m);
}

/* i starts at 7 and the condition is i < 5: the loop never runs and is
 * replaced by its init value. */
TEST(zero_trip_loop_removed) {
  float in[4] = {0.5f, -2, 3, 4};
  Literal *arg = f32_vec(4, in), *r;
  HloModule *m = run_pass(FORI(5, 7), &arg, 1, true, &r);
  if (m) {
    CHECK(count_op(m, OP_WHILE) == 0);
    CHECK(count_op(m, OP_MULTIPLY) == 0);
    CHECK(r && memcmp(r->data, in, sizeof in) == 0);
  }
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

/* The step is read from the state (data): no trip count, no unrolling. */
TEST(data_dependent_counter_not_unrolled) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], s32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  k = s32[] get-tuple-element(s), index=2\n"
      "  i1 = s32[] add(i, k)\n"
      "  y = f32[4] multiply(x, x)\n"
      "  ROOT t = (s32[], f32[4], s32[]) tuple(i1, y, k)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], s32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(4)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  k = s32[] parameter(1)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4], s32[]) tuple(zero, p, k)\n"
      "  w = (s32[], f32[4], s32[]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  float in[4] = {1, 2, -1, 0.5f};
  Literal *args[2] = {f32_vec(4, in), NULL}, *r;
  CHECK_OK(literal_create(T_S32, 0, NULL, &args[1]));
  if (args[1]) literal_set_i64(args[1], 0, 2); /* two trips: x^4 */
  HloModule *m = run_pass(t, args, 2, false, &r);
  if (m) {
    CHECK(count_op(m, OP_WHILE) == 1);
    const float *v = r ? r->data : NULL;
    CHECK(v && v[0] == 1 && v[1] == 16 && v[2] == 1 && v[3] == 0.0625f);
  }
  literal_free(r);
  literal_free(args[0]);
  literal_free(args[1]);
  module_destroy(m);
}

/* The counter is doubled, not stepped: not a counted loop. */
TEST(multiplied_counter_not_unrolled) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  two = s32[] constant(2)\n"
      "  i1 = s32[] multiply(i, two)\n"
      "  y = f32[4] add(x, x)\n"
      "  ROOT t = (s32[], f32[4]) tuple(i1, y)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(8)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  one = s32[] constant(1)\n"
      "  init = (s32[], f32[4]) tuple(one, p)\n"
      "  w = (s32[], f32[4]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  Literal *r;
  HloModule *m = run_pass(t, NULL, 0, false, &r);
  CHECK(m && count_op(m, OP_WHILE) == 1);
  literal_free(r);
  module_destroy(m);
}

/* The bound is a state element the body passes through, with a constant
 * init (3), and the counter is compared as `n > i`: three trips. */
TEST(bound_from_pass_through_element) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], s32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  n = s32[] get-tuple-element(s), index=2\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(one, i)\n"
      "  y = f32[4] add(x, x)\n"
      "  ROOT t = (s32[], f32[4], s32[]) tuple(i1, y, n)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], s32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] get-tuple-element(s), index=2\n"
      "  ROOT gt = pred[] compare(n, i), direction=GT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  zero = s32[] constant(0)\n"
      "  three = s32[] constant(3)\n"
      "  init = (s32[], f32[4], s32[]) tuple(zero, p, three)\n"
      "  w = (s32[], f32[4], s32[]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  float in[4] = {1, 0.5f, -3, 0};
  Literal *arg = f32_vec(4, in), *r;
  HloModule *m = run_pass(t, &arg, 1, true, &r);
  if (m) {
    CHECK(count_op(m, OP_WHILE) == 0);
    CHECK(count_op(m, OP_ADD) == 6); /* three counter and three x updates */
    const float *v = r ? r->data : NULL;
    CHECK(v && v[0] == 8 && v[1] == 4 && v[2] == -24 && v[3] == 0);
  }
  literal_free(r);
  literal_free(arg);
  module_destroy(m);
}

/* Twenty trips (not unrolled). Element 2 is recomputed every trip but
 * nobody reads it after the loop and no live element needs it; element 3
 * passes through unread: both go. Element 4 is read only by the
 * condition and element 5 only feeds x: both stay. */
TEST(dead_state_removed) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], f32[4], f32[4], f32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  junk = f32[4] get-tuple-element(s), index=2\n"
      "  idle = f32[4] get-tuple-element(s), index=3\n"
      "  lim = f32[] get-tuple-element(s), index=4\n"
      "  feed = f32[4] get-tuple-element(s), index=5\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  y = f32[4] multiply(x, feed)\n"
      "  j = f32[4] add(junk, y)\n"
      "  ROOT t = (s32[], f32[4], f32[4], f32[4], f32[], f32[4]) tuple(i1, y, j, idle, lim, feed)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], f32[4], f32[4], f32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(20)\n"
      "  lt = pred[] compare(i, n), direction=LT\n"
      "  lim = f32[] get-tuple-element(s), index=4\n"
      "  z = f32[] constant(0)\n"
      "  pos = pred[] compare(lim, z), direction=GT\n"
      "  ROOT both = pred[] and(lt, pos)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  q = f32[4] parameter(1)\n"
      "  l = f32[] parameter(2)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4], f32[4], f32[4], f32[], f32[4]) tuple(zero, p, q, q, l, q)\n"
      "  w = (s32[], f32[4], f32[4], f32[4], f32[], f32[4]) while(init), condition=cond, body=body\n"
      "  unused = f32[4] get-tuple-element(w), index=2\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  Literal *r;
  HloModule *m = run_pass(t, NULL, 0, true, &r);
  if (m) {
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w && w->shape->ntuple == 4); /* i, x, lim, feed */
    CHECK(w && w->called[1]->root->noperands == 4);
    CHECK(count_op(m, OP_ADD) == 1); /* j = junk + y is gone */
  }
  literal_free(r);
  module_destroy(m);
}

/* Every element is needed: nothing changes. */
TEST(live_state_kept) {
  Literal *r;
  HloModule *m = run_pass(FORI(20, 0), NULL, 0, false, &r);
  if (m) {
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w && w->shape->ntuple == 2);
  }
  literal_free(r);
  module_destroy(m);
}

/* exp(wt) + wt depends only on the pass-through element wt: computed once
 * before the loop and handed to the body as a new element; wt itself is
 * then dead in the loop and dropped. The broadcast of a constant is not
 * worth a state element and stays. */
TEST(invariant_code_hoisted) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  wt = f32[4] get-tuple-element(s), index=2\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  e = f32[4] exponential(wt)\n"
      "  f = f32[4] add(e, wt)\n"
      "  h = f32[] constant(0.5)\n"
      "  hb = f32[4] broadcast(h), dimensions={}\n"
      "  g = f32[4] multiply(x, f)\n"
      "  y = f32[4] multiply(g, hb)\n"
      "  ROOT t = (s32[], f32[4], f32[4]) tuple(i1, y, wt)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(30)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  q = f32[4] parameter(1)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4], f32[4]) tuple(zero, p, q)\n"
      "  w = (s32[], f32[4], f32[4]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  Literal *r;
  HloModule *m = run_pass(t, NULL, 0, true, &r);
  if (m) {
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w != NULL);
    if (w) {
      Computation *body = w->called[1];
      CHECK(count_op_in(body, OP_EXP) == 0);
      CHECK(count_op_in(body, OP_BROADCAST) == 1);
      CHECK(count_op_in(m->entry, OP_EXP) == 1);
      CHECK(w->shape->ntuple == 3); /* i, x, f (wt dropped) */
    }
  }
  literal_free(r);
  module_destroy(m);
}

/* An op reading the loop-varying x is not invariant; an rng is never
 * moved even when its operands are invariant. */
TEST(variant_and_side_effect_code_stays) {
  /* the same loop written with named get-tuple-elements */
  const char *t2 =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  a = f32[] get-tuple-element(s), index=2\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  e = f32[4] exponential(x)\n"
      "  ROOT t = (s32[], f32[4], f32[]) tuple(i1, e, a)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(30)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  a = f32[] parameter(1)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4], f32[]) tuple(zero, p, a)\n"
      "  w = (s32[], f32[4], f32[]) while(init), condition=cond, body=body\n"
      "  g1 = f32[4] get-tuple-element(w), index=1\n"
      "  g2 = f32[] get-tuple-element(w), index=2\n"
      "  ROOT r = (f32[4], f32[]) tuple(g1, g2)\n"
      "}\n";
  Literal *r;
  HloModule *m = run_pass(t2, NULL, 0, false, &r);
  if (m) {
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w && count_op_in(w->called[1], OP_EXP) == 1 && w->shape->ntuple == 3);
  }
  literal_free(r);
  module_destroy(m);
  /* rng with invariant operands (no interpreter run: rng is stateful) */
  const char *t3 =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  a = f32[] get-tuple-element(s), index=2\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  z = f32[] constant(0)\n"
      "  u = f32[4] rng(z, a), distribution=rng_uniform\n"
      "  y = f32[4] add(x, u)\n"
      "  ROOT t = (s32[], f32[4], f32[]) tuple(i1, y, a)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4], f32[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(30)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  a = f32[] parameter(1)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4], f32[]) tuple(zero, p, a)\n"
      "  w = (s32[], f32[4], f32[]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  m = parse(t3);
  if (m) {
    CHECK(!simplify(m));
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w && count_op_in(w->called[1], OP_RNG) == 1);
  }
  module_destroy(m);
}

/* A condition with a side effect runs even when the loop does not: such a
 * loop is not removed or unrolled. */
TEST(condition_with_side_effect_kept) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[4] get-tuple-element(s), index=1\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  ROOT t = (s32[], f32[4]) tuple(i1, x)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[4]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(3)\n"
      "  cc = f32[] custom-call(), custom_call_target=\"log\", custom_call_has_side_effect=true\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[4]) tuple(zero, p)\n"
      "  w = (s32[], f32[4]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n"
      "}\n";
  HloModule *m = parse(t);
  if (m) {
    CHECK(!simplify(m) && count_op(m, OP_WHILE) == 1);
  }
  module_destroy(m);
}

/* Arguments for a corpus module: floats 0.5, 0.75, 1, ... (positive, so
 * the Newton iteration of control_while_loop converges), integers 6 (a
 * short Collatz sequence, a short fori_loop). */
/* Scale: one pass simplifies every loop, however many (an early version
 * stopped after 1024 rewrites). 3000 fori loops of 2 trips, chained
 * through 3000 loops of unknown trip count whose counter and third
 * element are dead: every fori loop is unrolled, every other loop keeps
 * only its first element. */
TEST(thousands_of_loops_all_simplified) {
  enum { kLoops = 3000 };
  StrBuf b;
  sb_init(&b);
  sb_puts(&b, "HloModule many\n\n"
              "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
              "  ROOT c = f32[] add(a, b)\n}\n\n"
              "cond {\n  t = (f32[4], s32[], f32[4]) parameter(0)\n"
              "  i = s32[] get-tuple-element(t), index=1\n  n = s32[] constant(2)\n"
              "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n"
              "ucond {\n  t = (f32[4], s32[], f32[4]) parameter(0)\n"
              "  x = f32[4] get-tuple-element(t), index=0\n"
              "  z = f32[] constant(0)\n  s = f32[] reduce(x, z), dimensions={0}, to_apply=add\n"
              "  ROOT lt = pred[] compare(s, z), direction=LT\n}\n\n"
              "body {\n  t = (f32[4], s32[], f32[4]) parameter(0)\n"
              "  x = f32[4] get-tuple-element(t), index=0\n"
              "  i = s32[] get-tuple-element(t), index=1\n"
              "  d = f32[4] get-tuple-element(t), index=2\n"
              "  y = f32[4] sine(x)\n  e = f32[4] cosine(d)\n  one = s32[] constant(1)\n"
              "  j = s32[] add(i, one)\n  ROOT r = (f32[4], s32[], f32[4]) tuple(y, j, e)\n}\n\n"
              "ENTRY e {\n  v = f32[4] parameter(0)\n  zero = s32[] constant(0)\n");
  for (int k = 0; k < kLoops; k++) {
    char in[32] = "v"; /* the previous loop's result; the parameter first */
    if (k) snprintf(in, sizeof in, "v%d", k - 1);
    sb_printf(&b, "  t%d = (f32[4], s32[], f32[4]) tuple(%s, zero, %s)\n", k, in, in);
    sb_printf(&b, "  w%d = (f32[4], s32[], f32[4]) while(t%d), condition=cond, body=body\n", k, k);
    sb_printf(&b, "  g%d = f32[4] get-tuple-element(w%d), index=0\n", k, k);
    sb_printf(&b, "  s%d = (f32[4], s32[], f32[4]) tuple(g%d, zero, g%d)\n", k, k, k);
    sb_printf(&b, "  u%d = (f32[4], s32[], f32[4]) while(s%d), condition=ucond, body=body\n", k, k);
    sb_printf(&b, "  %sv%d = f32[4] get-tuple-element(u%d), index=0\n",
              k == kLoops - 1 ? "ROOT " : "", k, k);
  }
  sb_puts(&b, "}\n");
  char *text = sb_take(&b);
  HloModule *m = text ? parse(text) : NULL;
  cxla_free(text);
  if (!m) return;
  CHECK(count_op(m, OP_WHILE) == 2 * kLoops);
  CHECK(simplify(m));
  CHECK(count_op(m, OP_WHILE) == kLoops);
  int narrow = 0;
  for (int j = 0; j < m->entry->ninstrs; j++) {
    const Instr *w = m->entry->instrs[j];
    if (w->op == OP_WHILE) narrow += w->shape->type == T_TUPLE && w->shape->ntuple == 1;
  }
  CHECK(narrow == kLoops);
  module_destroy(m);
}

static Literal **corpus_args(const HloModule *m, int *n) {
  *n = m->entry->nparams;
  Literal **args = cxla_calloc((size_t)*n + 1, sizeof(Literal *));
  for (int i = 0; args && i < *n; i++) {
    const Shape *s = m->entry->params[i]->shape;
    CHECK_OK(literal_create(s->type, s->rank, s->dims, &args[i]));
    for (int64_t k = 0; args[i] && k < args[i]->nelems; k++) {
      if (type_is_float(s->type)) literal_set_f64(args[i], k, 0.5 + 0.25 * (double)k);
      else literal_set_i64(args[i], k, 6);
    }
  }
  return args;
}

/* A counted loop of `ND` trips whose body (after the counter update) is
 * BODY, reading x (f32[4,4]), w (f32[4,4]) and j (s32[], never changed)
 * and producing y (f32[4,4]). */
#define LOOP3(BODY)                                                            \
  "HloModule m\n"                                                              \
  "body {\n"                                                                   \
  "  s = (s32[], f32[4,4], f32[4,4], s32[]) parameter(0)\n"                    \
  "  i = s32[] get-tuple-element(s), index=0\n"                               \
  "  x = f32[4,4] get-tuple-element(s), index=1\n"                             \
  "  w = f32[4,4] get-tuple-element(s), index=2\n"                             \
  "  j = s32[] get-tuple-element(s), index=3\n"                                \
  "  one = s32[] constant(1)\n"                                                \
  "  i1 = s32[] add(i, one)\n"                                                 \
  "  zero = s32[] constant(0)\n"                                               \
  BODY                                                                        \
  "  ROOT t = (s32[], f32[4,4], f32[4,4], s32[]) tuple(i1, y, w, j)\n"          \
  "}\n"                                                                        \
  "cond {\n"                                                                   \
  "  s = (s32[], f32[4,4], f32[4,4], s32[]) parameter(0)\n"                    \
  "  i = s32[] get-tuple-element(s), index=0\n"                               \
  "  n = s32[] constant(3)\n"                                                  \
  "  ROOT lt = pred[] compare(i, n), direction=LT\n"                           \
  "}\n"                                                                        \
  "ENTRY e {\n"                                                                \
  "  p = f32[4,4] parameter(0)\n"                                              \
  "  q = f32[4,4] parameter(1)\n"                                              \
  "  k = s32[] parameter(2)\n"                                                 \
  "  c0 = s32[] constant(0)\n"                                                 \
  "  init = (s32[], f32[4,4], f32[4,4], s32[]) tuple(c0, p, q, k)\n"           \
  "  wl = (s32[], f32[4,4], f32[4,4], s32[]) while(init), condition=cond, body=body\n" \
  "  ROOT r = f32[4,4] get-tuple-element(wl), index=1\n"                       \
  "}\n"

/* Unrolled, each copy of a dot is a kernel of its own (a scan over
 * matrices): the loop stays, as XLA:CPU keeps it. */
TEST(loop_with_dot_not_unrolled) {
  Literal *r;
  HloModule *m = run_pass(LOOP3("  d = f32[4,4] dot(w, x), lhs_contracting_dims={1}, "
                                "rhs_contracting_dims={0}\n"
                                "  y = f32[4,4] tanh(d)\n"),
                          NULL, 0, true /* j is dead state */, &r);
  CHECK(m && count_op(m, OP_WHILE) == 1);
  literal_free(r);
  module_destroy(m);
}

/* A row read at a data-dependent index (j) stays a dynamic slice in every
 * copy: the loop stays. The same read at the counter's index becomes a
 * slice at a known offset in each copy, which fuses: unrolled. */
TEST(dynamic_slice_index_decides_unrolling) {
#define ROW(IDX)                                                                      \
  "  row = f32[1,4] dynamic-slice(x, " IDX ", zero), dynamic_slice_sizes={1,4}\n"    \
  "  e = f32[1,4] exponential(row)\n"                                                \
  "  y = f32[4,4] dynamic-update-slice(x, e, " IDX ", zero)\n"
  Literal *r;
  HloModule *m = run_pass(LOOP3(ROW("j")), NULL, 0, true /* w is dead state */, &r);
  CHECK(m && count_op(m, OP_WHILE) == 1);
  literal_free(r);
  module_destroy(m);
  m = run_pass(LOOP3(ROW("i")), NULL, 0, true, &r);
  CHECK(m && count_op(m, OP_WHILE) == 0 && count_op(m, OP_DYNAMIC_SLICE) == 3);
  literal_free(r);
  module_destroy(m);
#undef ROW
}

/* An elementwise body over the matrices (threefry's shape) unrolls. */
TEST(elementwise_body_unrolled) {
  Literal *r;
  HloModule *m = run_pass(LOOP3("  a = f32[4,4] add(x, w)\n  y = f32[4,4] multiply(a, a)\n"),
                          NULL, 0, true, &r);
  CHECK(m && count_op(m, OP_WHILE) == 0 && count_op(m, OP_MULTIPLY) == 3);
  literal_free(r);
  module_destroy(m);
}

/* The corpus's JAX loops stay loops: the scan (6 trips) does a
 * matrix-vector dot per step (unrolled, six dots: more kernels than the
 * loop), the fori_loop runs 10 times, the other loops have data-dependent
 * trip counts; every module verifies and computes what it did. */
TEST(corpus_jax_loops) {
  static const char *const cases[] = {"control_fori_loop", "control_scan", "control_while_loop"};
  static const int whiles_after[] = {2, 1, 2};
  const char *root = getenv("CXLA_CORPUS");
  char path[1024];
  for (size_t i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s/module.hlo", root ? root : "tests/corpus", cases[i]);
    FILE *f = fopen(path, "rb");
    if (!f) {
      snprintf(path, sizeof path, "/work/main/tests/corpus/%s/module.hlo", cases[i]);
      f = fopen(path, "rb");
    }
    if (!f) continue; /* corpus not present */
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    HloModule *probe = parse(text);
    if (!probe) continue;
    int nargs;
    Literal **args = corpus_args(probe, &nargs), *r = NULL;
    module_destroy(probe);
    HloModule *m = run_pass(text, args, nargs, whiles_after[i] == 0, &r);
    CHECK(m && count_op(m, OP_WHILE) == whiles_after[i]);
    random_args_free(args, nargs);
    literal_free(r);
    module_destroy(m);
  }
}

/* A scan over x[T=6,3,4]: h = tanh(dot(x[i + OFF], W) + dot(h, U)), i
 * counting to N. The input projection dot(x[i], W) is hoisted as one dot
 * of all of x before the loop (rule 6) when the loop runs at least T/2
 * times; the slice index may run past T (clamped, as before). */
#define SCAN(N, OFF)                                                                  \
  "HloModule m\n"                                                                     \
  "body {\n"                                                                          \
  "  s = (s32[], f32[3,5], f32[6,3,4], f32[4,5], f32[5,5]) parameter(0)\n"            \
  "  i = s32[] get-tuple-element(s), index=0\n"                                       \
  "  h = f32[3,5] get-tuple-element(s), index=1\n"                                    \
  "  x = f32[6,3,4] get-tuple-element(s), index=2\n"                                  \
  "  w = f32[4,5] get-tuple-element(s), index=3\n"                                    \
  "  u = f32[5,5] get-tuple-element(s), index=4\n"                                    \
  "  one = s32[] constant(1)\n"                                                       \
  "  off = s32[] constant(" #OFF ")\n"                                                \
  "  zero = s32[] constant(0)\n"                                                      \
  "  i1 = s32[] add(i, one)\n"                                                        \
  "  j = s32[] add(i, off)\n"                                                         \
  "  xs = f32[1,3,4] dynamic-slice(x, j, zero, zero), dynamic_slice_sizes={1,3,4}\n"  \
  "  xi = f32[3,4] reshape(xs)\n"                                                     \
  "  p = f32[3,5] dot(xi, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"   \
  "  q = f32[3,5] dot(h, u), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"    \
  "  a = f32[3,5] add(p, q)\n"                                                        \
  "  t = f32[3,5] tanh(a)\n"                                                          \
  "  ROOT r = (s32[], f32[3,5], f32[6,3,4], f32[4,5], f32[5,5]) tuple(i1, t, x, w, u)\n" \
  "}\n"                                                                               \
  "cond {\n"                                                                          \
  "  s = (s32[], f32[3,5], f32[6,3,4], f32[4,5], f32[5,5]) parameter(0)\n"            \
  "  i = s32[] get-tuple-element(s), index=0\n"                                       \
  "  n = s32[] constant(" #N ")\n"                                                    \
  "  ROOT lt = pred[] compare(i, n), direction=LT\n"                                  \
  "}\n"                                                                               \
  "ENTRY e {\n"                                                                       \
  "  x = f32[6,3,4] parameter(0)\n"                                                   \
  "  h = f32[3,5] parameter(1)\n"                                                     \
  "  w = f32[4,5] parameter(2)\n"                                                     \
  "  u = f32[5,5] parameter(3)\n"                                                     \
  "  zero = s32[] constant(0)\n"                                                      \
  "  init = (s32[], f32[3,5], f32[6,3,4], f32[4,5], f32[5,5]) tuple(zero, h, x, w, u)\n" \
  "  l = (s32[], f32[3,5], f32[6,3,4], f32[4,5], f32[5,5]) while(init), condition=cond, body=body\n" \
  "  ROOT r = f32[3,5] get-tuple-element(l), index=1\n"                               \
  "}\n"

/* The loop's body and the entry's dot counts after the pass. */
static void check_dots(const char *text, bool change, int body_dots, int entry_dots) {
  Literal *r;
  HloModule *m = run_pass(text, NULL, 0, change, &r);
  if (m) {
    Instr *w = find_op(m->entry, OP_WHILE);
    CHECK(w != NULL);
    if (w) CHECK(count_op_in(w->called[1], OP_DOT) == body_dots);
    CHECK(count_op_in(m->entry, OP_DOT) == entry_dots);
    if (!w || count_op_in(w->called[1], OP_DOT) != body_dots) {
      char *t = text_of(m);
      fprintf(stderr, "%s\n", t);
      cxla_free(t);
    }
  }
  literal_free(r);
  module_destroy(m);
}

TEST(scan_input_projection_hoisted) {
  check_dots(SCAN(6, 0), true, 1, 1);
  /* the index runs past the end (clamped to 5, the same values) */
  check_dots(SCAN(6, 2), true, 1, 1);
  /* three trips of six slices: still hoisted */
  check_dots(SCAN(3, 0), true, 1, 1);
}

TEST(scan_input_projection_kept) {
  /* two trips of six slices: the loop's own dots are cheaper */
  check_dots(SCAN(2, 0), false, 2, 0);
  /* an unknown trip count (the counter's update is not add(i, constant)) */
  char *v = cxla_strdup(SCAN(6, 0));
  char *at = v ? strstr(v, "  i1 = s32[] add(i, one)\n") : NULL;
  CHECK(at != NULL);
  if (at) {
    memcpy(at, "  i1 = s32[] add(j, one)\n", 25);
    check_dots(v, false, 2, 0);
  }
  cxla_free(v);
}

/* A product over all slices too large to stay in cache (3 x 512 x 1024
 * f32, 6 MiB; two trips of three slices): the body keeps its dot (each
 * trip would read its slice back from memory). */
TEST(scan_input_projection_too_large_kept) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[512,1024], f32[3,512,1], f32[1,1024]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  acc = f32[512,1024] get-tuple-element(s), index=1\n"
      "  x = f32[3,512,1] get-tuple-element(s), index=2\n"
      "  w = f32[1,1024] get-tuple-element(s), index=3\n"
      "  one = s32[] constant(1)\n"
      "  zero = s32[] constant(0)\n"
      "  i1 = s32[] add(i, one)\n"
      "  xs = f32[1,512,1] dynamic-slice(x, i, zero, zero), dynamic_slice_sizes={1,512,1}\n"
      "  xi = f32[512,1] reshape(xs)\n"
      "  p = f32[512,1024] dot(xi, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  a = f32[512,1024] add(acc, p)\n"
      "  ROOT r = (s32[], f32[512,1024], f32[3,512,1], f32[1,1024]) tuple(i1, a, x, w)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[512,1024], f32[3,512,1], f32[1,1024]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(2)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  x = f32[3,512,1] parameter(0)\n"
      "  w = f32[1,1024] parameter(1)\n"
      "  a = f32[512,1024] parameter(2)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[512,1024], f32[3,512,1], f32[1,1024]) tuple(zero, a, x, w)\n"
      "  l = (s32[], f32[512,1024], f32[3,512,1], f32[1,1024]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[512,1024] get-tuple-element(l), index=1\n"
      "}\n";
  check_dots(t, false, 1, 0);
}

/* The slice on the rhs, without a reshape: x[3,4,T=10] sliced along its
 * last dim, dot(W[5,3], x[:, :, i]) -> [5,4,1]; the product dot(W, x) is
 * [5,4,10] and the body slices its last dim (10 trips: not unrolled). */
TEST(rhs_slice_without_reshape_hoisted) {
  const char *t =
      "HloModule m\n"
      "body {\n"
      "  s = (s32[], f32[5,4,1], f32[3,4,10], f32[5,3]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  acc = f32[5,4,1] get-tuple-element(s), index=1\n"
      "  x = f32[3,4,10] get-tuple-element(s), index=2\n"
      "  w = f32[5,3] get-tuple-element(s), index=3\n"
      "  one = s32[] constant(1)\n"
      "  zero = s32[] constant(0)\n"
      "  i1 = s32[] add(i, one)\n"
      "  xs = f32[3,4,1] dynamic-slice(x, zero, zero, i), dynamic_slice_sizes={3,4,1}\n"
      "  p = f32[5,4,1] dot(w, xs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  m = f32[5,4,1] multiply(acc, p)\n"
      "  a = f32[5,4,1] add(m, p)\n"
      "  ROOT r = (s32[], f32[5,4,1], f32[3,4,10], f32[5,3]) tuple(i1, a, x, w)\n"
      "}\n"
      "cond {\n"
      "  s = (s32[], f32[5,4,1], f32[3,4,10], f32[5,3]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(10)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  x = f32[3,4,10] parameter(0)\n"
      "  w = f32[5,3] parameter(1)\n"
      "  a = f32[5,4,1] parameter(2)\n"
      "  zero = s32[] constant(0)\n"
      "  init = (s32[], f32[5,4,1], f32[3,4,10], f32[5,3]) tuple(zero, a, x, w)\n"
      "  l = (s32[], f32[5,4,1], f32[3,4,10], f32[5,3]) while(init), condition=cond, body=body\n"
      "  ROOT r = f32[5,4,1] get-tuple-element(l), index=1\n"
      "}\n";
  check_dots(t, true, 0, 1);
}

int main(void) {
  RUN(unroll_fori_loop);
  RUN(thousands_of_loops_all_simplified);
  RUN(unroll_limit);
  RUN(zero_trip_loop_removed);
  RUN(data_dependent_counter_not_unrolled);
  RUN(multiplied_counter_not_unrolled);
  RUN(bound_from_pass_through_element);
  RUN(dead_state_removed);
  RUN(live_state_kept);
  RUN(invariant_code_hoisted);
  RUN(variant_and_side_effect_code_stays);
  RUN(condition_with_side_effect_kept);
  RUN(loop_with_dot_not_unrolled);
  RUN(dynamic_slice_index_decides_unrolling);
  RUN(elementwise_body_unrolled);
  RUN(corpus_jax_loops);
  RUN(scan_input_projection_hoisted);
  RUN(scan_input_projection_kept);
  RUN(scan_input_projection_too_large_kept);
  RUN(rhs_slice_without_reshape_hoisted);
  return test_summary(__FILE__);
}
