/* Call inlining: calls disappear, callees' bodies appear in the caller
 * wired to the call's operands; nested calls, repeated callees, name clashes
 * and control dependencies are handled; while/reduce callees stay. */
#include "harness.h"
#include "pass_helpers.h"

static HloModule *inl(const char *text) {
  return pt_opt(text, "call-inliner"); /* verified, values compared */
}

TEST(inlines_simple_call) {
  HloModule *m = inl(
      "HloModule m\n"
      "f {\n"
      "  a = f32[4] parameter(0)\n"
      "  b = f32[4] parameter(1)\n"
      "  d = f32[4] subtract(a, b)\n"
      "  ROOT n = f32[4] negate(d)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  q = f32[4] parameter(1)\n"
      "  c = f32[4] call(q, p), to_apply=f\n"
      "  ROOT r = f32[4] abs(c)\n"
      "}\n");
  if (!m) return;
  CHECK(m->ncomps == 1 && pt_count(m, "call") == 0);
  const Instr *d = comp_find_instr(m->entry, "d");
  CHECK(d && d->op == OP_SUBTRACT);
  /* Parameter 0 of f was q, parameter 1 was p: the operand order survives. */
  CHECK(d && strcmp(d->operands[0]->name, "q") == 0 && strcmp(d->operands[1]->name, "p") == 0);
  CHECK(strcmp(m->entry->root->operands[0]->name, "n") == 0);
  module_destroy(m);
}

TEST(nested_and_repeated_calls) {
  HloModule *m = inl(
      "HloModule m\n"
      "inner {\n"
      "  x = f32[] parameter(0)\n"
      "  ROOT y = f32[] exponential(x)\n"
      "}\n"
      "outer {\n"
      "  x = f32[] parameter(0)\n"
      "  c = f32[] call(x), to_apply=inner\n"
      "  ROOT y = f32[] negate(c)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[] parameter(0)\n"
      "  c1 = f32[] call(p), to_apply=outer\n"
      "  c2 = f32[] call(c1), to_apply=outer\n"
      "  ROOT y = f32[] add(c1, c2)\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "call") == 0);
  CHECK(m->ncomps == 1);
  /* Two copies of outer, each with its copy of inner. */
  CHECK(pt_count(m, "exponential") == 2 && pt_count(m, "negate") == 2);
  /* The caller already had a `y`: the copies got fresh names. */
  CHECK(strcmp(m->entry->root->name, "y") == 0 && m->entry->root->op == OP_ADD);
  module_destroy(m);
}

TEST(tuple_result_and_parameter_root) {
  HloModule *m = inl(
      "HloModule m\n"
      "f {\n"
      "  a = f32[2] parameter(0)\n"
      "  b = s32[] parameter(1)\n"
      "  ROOT t = (s32[], f32[2]) tuple(b, a)\n"
      "}\n"
      "g {\n"
      "  a = f32[2] parameter(0)\n"
      "  ROOT a2 = f32[2] copy(a)\n"
      "}\n"
      "id {\n"
      "  ROOT a = f32[2] parameter(0)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[2] parameter(0)\n"
      "  i = s32[] parameter(1)\n"
      "  c = (s32[], f32[2]) call(p, i), to_apply=f\n"
      "  g1 = f32[2] get-tuple-element(c), index=1\n"
      "  h = f32[2] call(g1), to_apply=id\n"
      "  ROOT k = f32[2] call(h), to_apply=g\n"
      "}\n");
  if (!m) return;
  CHECK(pt_count(m, "call") == 0 && m->ncomps == 1);
  const Instr *root = m->entry->root;
  CHECK(root->op == OP_COPY && root->operands[0]->op == OP_GET_TUPLE_ELEMENT);
  module_destroy(m);
}

TEST(control_dependencies_follow) {
  HloModule *m = inl(
      "HloModule m\n"
      "f {\n"
      "  a = f32[] parameter(0)\n"
      "  ROOT n = f32[] negate(a)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[] parameter(0)\n"
      "  before = f32[] exponential(p)\n"
      "  c = f32[] call(p), to_apply=f, control-predecessors={before}\n"
      "  after = f32[] log(p), control-predecessors={c}\n"
      "  ROOT r = (f32[], f32[], f32[]) tuple(before, c, after)\n"
      "}\n");
  if (!m) return;
  const Instr *n = comp_find_instr(m->entry, "n");
  const Instr *after = comp_find_instr(m->entry, "after");
  CHECK(n && n->ncontrol_preds == 1 && strcmp(n->control_preds[0]->name, "before") == 0);
  CHECK(after && after->ncontrol_preds == 1 && after->control_preds[0] == n);
  module_destroy(m);
}

TEST(while_and_reduce_are_not_inlined) {
  HloModule *m = pt_parse(
      "HloModule m\n"
      "cond {\n"
      "  s = s32[] parameter(0)\n"
      "  ten = s32[] constant(10)\n"
      "  ROOT lt = pred[] compare(s, ten), direction=LT\n"
      "}\n"
      "body {\n"
      "  s = s32[] parameter(0)\n"
      "  one = s32[] constant(1)\n"
      "  ROOT n = s32[] add(s, one)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = s32[] parameter(0)\n"
      "  ROOT w = s32[] while(p), condition=cond, body=body\n"
      "}\n");
  if (!m) return;
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  bool changed = true;
  CHECK_OK(pass_call_inliner(m, &ctx, &changed));
  CHECK(!changed && m->ncomps == 3 && pt_count(m, "while") == 1);
  module_destroy(m);
}

int main(void) {
  RUN(inlines_simple_call);
  RUN(nested_and_repeated_calls);
  RUN(tuple_result_and_parameter_root);
  RUN(control_dependencies_follow);
  RUN(while_and_reduce_are_not_inlined);
  return test_summary("test_pass_inline");
}
