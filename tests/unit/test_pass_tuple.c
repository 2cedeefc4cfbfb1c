/* Tuple simplification and where it must not fire. */
#include "harness.h"
#include "pass_helpers.h"

static HloModule *tup(const char *text, bool *changed) {
  HloModule *m = pt_parse(text);
  if (!m) return NULL;
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  CHECK_OK(pass_tuple_simplify(m, &ctx, changed));
  CHECK_OK(verify_module(m));
  CHECK(pt_values_agree(text, m, 4) != 0);
  return m;
}

TEST(gte_of_tuple) {
  bool changed = false;
  HloModule *m = tup(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  q = s32[] parameter(1)\n"
      "  t = (f32[4], s32[]) tuple(p, q)\n"
      "  g = s32[] get-tuple-element(t), index=1\n"
      "  ROOT r = s32[] negate(g)\n"
      "}\n",
      &changed);
  if (!m) return;
  CHECK(changed);
  CHECK(m->entry->root->operands[0] == m->entry->params[1]);
  CHECK(pt_count(m, "tuple") == 0 && pt_count(m, "get-tuple-element") == 0);
  module_destroy(m);
}

TEST(tuple_of_all_gtes_in_order) {
  bool changed = false;
  HloModule *m = tup(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = (f32[4], s32[]) parameter(0)\n"
      "  g0 = f32[4] get-tuple-element(p), index=0\n"
      "  g1 = s32[] get-tuple-element(p), index=1\n"
      "  ROOT t = (f32[4], s32[]) tuple(g0, g1)\n"
      "}\n",
      &changed);
  if (!m) return;
  CHECK(changed && m->entry->root == m->entry->params[0]);
  module_destroy(m);
}

TEST(must_not_fire) {
  bool changed = true;
  /* Swapped order, a partial tuple, mixed sources, gte of a parameter. */
  HloModule *m = tup(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p = (f32[], f32[]) parameter(0)\n"
      "  q = (f32[], f32[]) parameter(1)\n"
      "  p0 = f32[] get-tuple-element(p), index=0\n"
      "  p1 = f32[] get-tuple-element(p), index=1\n"
      "  q1 = f32[] get-tuple-element(q), index=1\n"
      "  swapped = (f32[], f32[]) tuple(p1, p0)\n"
      "  partial = (f32[]) tuple(p0)\n"
      "  mixed = (f32[], f32[]) tuple(p0, q1)\n"
      "  ROOT r = ((f32[], f32[]), (f32[]), (f32[], f32[])) tuple(swapped, partial, mixed)\n"
      "}\n",
      &changed);
  if (!m) return;
  CHECK(!changed);
  CHECK(pt_count(m, "tuple") == 4 && pt_count(m, "get-tuple-element") == 3);
  module_destroy(m);
}

int main(void) {
  RUN(gte_of_tuple);
  RUN(tuple_of_all_gtes_in_order);
  RUN(must_not_fire);
  return test_summary("test_pass_tuple");
}
