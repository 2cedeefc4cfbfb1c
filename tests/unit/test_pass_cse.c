/* CSE: identical instructions merge; anything that differs in opcode,
 * operands, shape or layout, typed or raw attributes, called computations
 * or constant value does not; parameters, rng and side effects never do. */
#include "harness.h"
#include "pass_helpers.h"

static HloModule *cse(const char *text) {
  return pt_opt(text, "cse"); /* verified, values compared */
}

TEST(merges_identical_and_cascades) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  a = f32[4] negate(p)\n"
      "  b = f32[4] negate(p)\n"
      "  ea = f32[4] exponential(a)\n"
      "  eb = f32[4] exponential(b)\n"
      "  ROOT r = f32[4] add(ea, eb)\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "negate") == 1 && pt_count(m, "exponential") == 1);
  const Instr *r = m->entry->root;
  CHECK(r->operands[0] == r->operands[1]);
  module_destroy(m);
}

TEST(constants_by_value) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  c1 = f32[2] constant({1, 2})\n"
      "  c2 = f32[2] constant({1, 2})\n"
      "  c3 = f32[2] constant({1, 3})\n"
      "  z1 = f32[] constant(0)\n"
      "  z2 = f32[] constant(-0)\n"
      "  i1 = s32[] constant(0)\n"
      "  t = (f32[2], f32[2], f32[2], f32[], f32[], s32[]) tuple(c1, c2, c3, z1, z2, i1)\n"
      "  ROOT r = (f32[2], f32[2], f32[2], f32[], f32[], s32[]) tuple(c1, c2, c3, z1, z2, i1)\n"
      "}\n");
  if (!m) return;
  /* c1 == c2; c3 differs; +0 and -0 differ; s32 0 is another type. */
  CHECK(pt_count(m, "constant") == 5);
  const Instr *r = m->entry->root;
  CHECK(r->operands[0] == r->operands[1]);
  CHECK(r->operands[0] != r->operands[2]);
  CHECK(r->operands[3] != r->operands[4]);
  module_destroy(m);
}

TEST(attributes_shapes_and_layouts_must_match) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4,4]{1,0} parameter(0)\n"
      "  sl1 = f32[2,4]{1,0} slice(p), slice={[0:2], [0:4]}\n"
      "  sl2 = f32[2,4]{1,0} slice(p), slice={[2:4], [0:4]}\n"
      "  t1 = f32[4,4]{1,0} transpose(p), dimensions={1,0}\n"
      "  t2 = f32[4,4]{0,1} transpose(p), dimensions={1,0}\n"
      "  c1 = pred[4,4]{1,0} compare(p, p), direction=LT\n"
      "  c2 = pred[4,4]{1,0} compare(p, p), direction=GT\n"
      "  n1 = f32[4,4]{1,0} negate(p), metadata={op_name=\"a\"}\n"
      "  n2 = f32[4,4]{1,0} negate(p), metadata={op_name=\"b\"}\n"
      "  k1 = f32[4,4]{1,0} abs(p), backend_config=\"x\"\n"
      "  k2 = f32[4,4]{1,0} abs(p), backend_config=\"y\"\n"
      "  ROOT r = (f32[2,4]{1,0}, f32[2,4]{1,0}, f32[4,4]{1,0}, f32[4,4]{0,1}, pred[4,4]{1,0}, pred[4,4]{1,0}, f32[4,4]{1,0}, f32[4,4]{1,0}, f32[4,4]{1,0}, f32[4,4]{1,0}) tuple(sl1, sl2, t1, t2, c1, c2, n1, n2, k1, k2)\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "slice") == 2);
  CHECK(pt_count(m, "transpose") == 2); /* layouts differ */
  CHECK(pt_count(m, "compare") == 2);
  CHECK(pt_count(m, "negate") == 1);    /* metadata is ignored */
  CHECK(pt_count(m, "abs") == 2);       /* other raw attributes are not */
  module_destroy(m);
}

TEST(never_merges_parameters_rng_side_effects) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[] parameter(0)\n"
      "  p1 = f32[] parameter(1)\n"
      "  lo = f32[] constant(0)\n"
      "  hi = f32[] constant(1)\n"
      "  r1 = f32[3] rng(lo, hi), distribution=rng_uniform\n"
      "  r2 = f32[3] rng(lo, hi), distribution=rng_uniform\n"
      "  sl1 = f32[] custom-call(p0), custom_call_target=\"f\", custom_call_has_side_effect=true\n"
      "  sl2 = f32[] custom-call(p0), custom_call_target=\"f\", custom_call_has_side_effect=true\n"
      "  ROOT r = (f32[], f32[], f32[3], f32[3], f32[], f32[]) tuple(p0, p1, r1, r2, sl1, sl2)\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "parameter") == 2);
  CHECK(pt_count(m, "rng") == 2);
  CHECK(pt_count(m, "custom-call") == 2);
  module_destroy(m);
}

/* Nothing that produces or reads a value holding a token merges (an
 * effect's order rides on it), through a tuple too; the same reads of a
 * tuple without one do (whether a shape holds a token is worked out once
 * per instruction). */
TEST(tokens_never_merge) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = (f32[2], token[]) parameter(0)\n"
      "  q = (f32[2], f32[2]) parameter(1)\n"
      "  g1 = f32[2] get-tuple-element(p), index=0\n"
      "  g2 = f32[2] get-tuple-element(p), index=0\n"
      "  h1 = f32[2] get-tuple-element(q), index=0\n"
      "  h2 = f32[2] get-tuple-element(q), index=0\n"
      "  a1 = token[] after-all()\n"
      "  a2 = token[] after-all()\n"
      "  ROOT r = (f32[2], f32[2], f32[2], f32[2], token[], token[]) tuple(g1, g2, h1, h2, a1, a2)\n"
      "}\n");
  if (!m) return;
  const Instr *r = m->entry->root;
  CHECK(r->operands[0] != r->operands[1]);
  CHECK(r->operands[2] == r->operands[3]);
  CHECK(r->operands[4] != r->operands[5]);
  CHECK(pt_count(m, "get-tuple-element") == 3 && pt_count(m, "after-all") == 2);
  module_destroy(m);
}

TEST(elided_constants_are_not_merged) {
  HloModule *m = cse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  c1 = f32[100] constant({...})\n"
      "  c2 = f32[100] constant({...})\n"
      "  ROOT r = f32[100] add(c1, c2)\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "constant") == 2);
  module_destroy(m);
}

static const char *kReducers =
    "HloModule m\n"
    "sum1 {\n"
    "  x = f32[] parameter(0)\n"
    "  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n"
    "}\n"
    "sum2 {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT t = f32[] add(a, b)\n"
    "}\n"
    "sub {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT t = f32[] subtract(a, b)\n"
    "}\n"
    "swapped {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT t = f32[] add(b, a)\n"
    "}\n"
    "ENTRY e {\n"
    "  p = f32[8] parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  r1 = f32[] reduce(p, z), dimensions={0}, to_apply=sum1\n"
    "  r2 = f32[] reduce(p, z), dimensions={0}, to_apply=sum2\n"
    "  r3 = f32[] reduce(p, z), dimensions={0}, to_apply=sub\n"
    "  r4 = f32[] reduce(p, z), dimensions={0}, to_apply=swapped\n"
    "  ROOT r = (f32[], f32[], f32[], f32[]) tuple(r1, r2, r3, r4)\n"
    "}\n";

TEST(structurally_identical_reducers_merge) {
  HloModule *m = cse(kReducers);
  if (!m) return;
  /* sum1 and sum2 are the same computation; sub and the swapped add are not. */
  CHECK(pt_count(m, "reduce") == 3);
  const Instr *r = m->entry->root;
  CHECK(r->operands[0] == r->operands[1]);
  CHECK(r->operands[0] != r->operands[2] && r->operands[0] != r->operands[3]);
  /* sum2 was a duplicate of sum1: gone. */
  CHECK(m->ncomps == 4 && module_find_computation(m, "sum2") == NULL);
  module_destroy(m);
}

/* While bodies are flattened call sites: identical ones stay separate. */
TEST(identical_while_bodies_stay_separate) {
  HloModule *m = pt_parse(
      "HloModule m\n"
      "c1 {\n  s = s32[] parameter(0)\n  ten = s32[] constant(10)\n"
      "  ROOT lt = pred[] compare(s, ten), direction=LT\n}\n"
      "b1 {\n  s = s32[] parameter(0)\n  one = s32[] constant(1)\n  ROOT n = s32[] add(s, one)\n}\n"
      "c2 {\n  s = s32[] parameter(0)\n  ten = s32[] constant(10)\n"
      "  ROOT lt = pred[] compare(s, ten), direction=LT\n}\n"
      "b2 {\n  s = s32[] parameter(0)\n  one = s32[] constant(1)\n  ROOT n = s32[] add(s, one)\n}\n"
      "ENTRY e {\n  p = s32[] parameter(0)\n"
      "  w1 = s32[] while(p), condition=c1, body=b1\n"
      "  w2 = s32[] while(w1), condition=c2, body=b2\n"
      "  ROOT r = s32[] add(w1, w2)\n}\n");
  if (!m) return;
  pt_run(m, "cse");
  CHECK(m->ncomps == 5);
  module_destroy(m);
}

TEST(no_change_reports_no_change) {
  HloModule *m = pt_parse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  a = f32[4] negate(p)\n"
      "  ROOT b = f32[4] add(a, p)\n"
      "}\n");
  if (!m) return;
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  bool changed = true;
  CHECK_OK(pass_cse(m, &ctx, &changed));
  CHECK(!changed);
  module_destroy(m);
}

int main(void) {
  RUN(merges_identical_and_cascades);
  RUN(tokens_never_merge);
  RUN(constants_by_value);
  RUN(attributes_shapes_and_layouts_must_match);
  RUN(never_merges_parameters_rng_side_effects);
  RUN(elided_constants_are_not_merged);
  RUN(structurally_identical_reducers_merge);
  RUN(identical_while_bodies_stay_separate);
  RUN(no_change_reports_no_change);
  return test_summary("test_pass_cse");
}
