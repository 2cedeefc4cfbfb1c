/* Constant folding: instructions on constants become constants with the
 * interpreter's values; broadcasts, iotas, rng, side effects, control flow,
 * elided constants and results over the size limit stay. */
#include "harness.h"
#include "pass_helpers.h"

#define M(body) "HloModule t\nENTRY e {\n" body "}\n"

static HloModule *fold(const char *text) { return pt_opt(text, "constant-folding,dce"); }

static bool printed(const HloModule *m, const char *needle) {
  char *t = pt_print(m);
  bool found = t && strstr(t, needle);
  if (!found) fprintf(stderr, "%s: no \"%s\" in:\n%s\n", harness_current, needle, t ? t : "");
  cxla_free_string(t);
  return found;
}

TEST(folds_arithmetic_chains) {
  HloModule *m = fold(M("  a = f32[2] constant({1.5, -2})\n  b = f32[2] constant({2.25, 0.5})\n"
                        "  s = f32[2] add(a, b)\n  ROOT n = f32[2] negate(s)\n"));
  if (!m) return;
  CHECK(m->entry->ninstrs == 1 && m->entry->root->op == OP_CONSTANT);
  CHECK(printed(m, "constant({-3.75, 1.5})"));
  module_destroy(m);
}

TEST(folds_integer_wraparound_and_compare) {
  HloModule *m = fold(M("  a = s8[] constant(100)\n  b = s8[] constant(100)\n"
                        "  s = s8[] add(a, b)\n  z = s8[] constant(0)\n"
                        "  ROOT c = pred[] compare(s, z), direction=LT\n"));
  if (!m) return;
  CHECK(m->entry->root->op == OP_CONSTANT && printed(m, "constant(true)")); /* 200 wraps to -56 */
  module_destroy(m);
}

TEST(folds_reduce_with_its_computation) {
  HloModule *m = fold("HloModule t\n"
                      "sum {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
                      "  ROOT s = s32[] add(a, b)\n}\n"
                      "ENTRY e {\n  x = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                      "  z = s32[] constant(10)\n"
                      "  ROOT r = s32[2] reduce(x, z), dimensions={1}, to_apply=sum\n}\n");
  if (!m) return;
  CHECK(m->entry->root->op == OP_CONSTANT && printed(m, "constant({16, 25})"));
  CHECK(m->ncomps == 1); /* the reducer is no longer called */
  module_destroy(m);
}

TEST(folds_shape_ops_on_constants) {
  HloModule *m = fold(M("  x = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                        "  t = f32[3,2] transpose(x), dimensions={1,0}\n"
                        "  ROOT s = f32[2,2] slice(t), slice={[1:3], [0:2]}\n"));
  if (!m) return;
  CHECK(m->entry->root->op == OP_CONSTANT && printed(m, "constant({ { 2, 5 }, { 3, 6 } })"));
  module_destroy(m);
}

TEST(leaves_broadcast_iota_rng_and_parameters) {
  HloModule *m = fold(M("  c = f32[] constant(2)\n  b = f32[1000] broadcast(c), dimensions={}\n"
                        "  i = s32[1000] iota(), iota_dimension=0\n"
                        "  lo = f32[] constant(0)\n  hi = f32[] constant(1)\n"
                        "  r = f32[3] rng(lo, hi), distribution=rng_uniform\n"
                        "  p = f32[] parameter(0)\n  q = f32[] add(p, c)\n"
                        "  ROOT t = (f32[1000], s32[1000], f32[3], f32[]) tuple(b, i, r, q)\n"));
  if (!m) return;
  CHECK(pt_count(m, "broadcast") == 1 && pt_count(m, "iota") == 1 && pt_count(m, "rng") == 1 &&
        pt_count(m, "add") == 1);
  module_destroy(m);
}

TEST(leaves_side_effects_control_flow_and_elided_values) {
  HloModule *m = fold("HloModule t\n"
                      "cond {\n  s = s32[] parameter(0)\n  ten = s32[] constant(10)\n"
                      "  ROOT lt = pred[] compare(s, ten), direction=LT\n}\n"
                      "body {\n  s = s32[] parameter(0)\n  one = s32[] constant(1)\n"
                      "  ROOT n = s32[] add(s, one)\n}\n"
                      "ENTRY e {\n  z = s32[] constant(0)\n"
                      "  w = s32[] while(z), condition=cond, body=body\n"
                      "  cc = s32[] custom-call(z), custom_call_target=\"f\"\n"
                      "  el = s32[50] constant({...})\n  ne = s32[50] negate(el)\n"
                      "  ROOT t = (s32[], s32[], s32[50]) tuple(w, cc, ne)\n}\n");
  if (!m) return;
  CHECK(pt_count(m, "while") == 1 && pt_count(m, "custom-call") == 1 && pt_count(m, "negate") == 1);
  /* Inside the loop body, add(s, one) has a parameter operand: stays too. */
  CHECK(pt_count(m, "add") == 1);
  module_destroy(m);
}

TEST(size_limit) {
  const char *text = M("  c = f32[64] constant({0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
                       "21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,"
                       "46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63})\n"
                       "  ROOT n = f32[64] negate(c)\n");
  HloModule *m = pt_parse(text);
  if (!m) return;
  PassContext small = {64 * 4 - 1, NULL, false, false, false, false}; /* one byte short of the result */
  bool changed = true;
  CHECK_OK(pass_constant_folding(m, &small, &changed));
  CHECK(!changed && m->entry->root->op == OP_NEGATE);
  PassContext enough = {64 * 4, NULL, false, false, false, false};
  CHECK_OK(pass_constant_folding(m, &enough, &changed));
  CHECK(changed && m->entry->root->op == OP_CONSTANT);
  CHECK_OK(verify_module(m));
  module_destroy(m);
}

TEST(tuple_results_stay) {
  HloModule *m = fold("HloModule t\n"
                      "lt {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
                      "  c = f32[] parameter(2)\n  d = f32[] parameter(3)\n"
                      "  ROOT r = pred[] compare(a, b), direction=LT\n}\n"
                      "ENTRY e {\n  k = s32[3] constant({3, 1, 2})\n  v = f32[3] constant({1, 2, 3})\n"
                      "  ROOT s = (s32[3], f32[3]) sort(k, v), dimensions={0}, to_apply=lt\n}\n");
  if (!m) return;
  CHECK(pt_count(m, "sort") == 1);
  module_destroy(m);
}

int main(void) {
  RUN(folds_arithmetic_chains);
  RUN(folds_integer_wraparound_and_compare);
  RUN(folds_reduce_with_its_computation);
  RUN(folds_shape_ops_on_constants);
  RUN(leaves_broadcast_iota_rng_and_parameters);
  RUN(leaves_side_effects_control_flow_and_elided_values);
  RUN(size_limit);
  RUN(tuple_results_stay);
  return test_summary("test_pass_fold");
}
