/* Side effects inside called computations (a jax.debug.print in a loop
 * body or a cond branch: a custom-call with custom_call_has_side_effect):
 * the passes keep exactly one copy of each. A loop, branch or call whose
 * computation has one stays though nothing reads its result (DCE); what
 * replaces it (an inlined call, the taken branch, a loop with less state)
 * takes its place rather than running beside it; CSE does not merge two
 * calls of it; and the default pipeline keeps every one, once. */
#include "harness.h"
#include "pass_check.h"

#include "ir/rewrite.h"

/* The custom-calls of target "print" in the module, at any depth. */
static int prints(const HloModule *m) {
  int n = 0;
  for (int c = 0; c < m->ncomps; c++)
    for (int i = 0; i < m->comps[c]->ninstrs; i++) {
      const Instr *in = m->comps[c]->instrs[i];
      n += in->op == OP_CUSTOM_CALL && in->custom_call_target &&
           strcmp(in->custom_call_target, "print") == 0;
    }
  return n;
}

#define PRINT(x) \
  "  pr = () custom-call(" x "), custom_call_target=\"print\", custom_call_has_side_effect=true\n"

/* A loop over s32 i (three trips) whose body prints i; its result unused. */
static const char loop_unused[] =
    "HloModule m\n"
    "cond {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
    "  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
    "body {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
    "  k = f32[4] get-tuple-element(p), index=1\n" PRINT("i")
    "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
    "  ROOT t = (s32[], f32[4]) tuple(j, k)\n}\n"
    "ENTRY e {\n  x = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
    "  t = (s32[], f32[4]) tuple(z, x)\n"
    "  w = (s32[], f32[4]) while(t), condition=cond, body=body\n"
    "  ROOT r = f32[4] negate(x)\n}\n";

TEST(dce_keeps_a_loop_that_prints) {
  HloModule *m = pc_parse(loop_unused);
  if (!m) return;
  CHECK(pc_run(m, "dce"));
  CHECK(pc_count(m->entry, OP_WHILE) == 1 && prints(m) == 1);
  module_destroy(m);
  /* the same loop without the print goes */
  char quiet[sizeof loop_unused];
  snprintf(quiet, sizeof quiet, "%s", loop_unused);
  char *p = strstr(quiet, "  pr = ");
  memset(p, ' ', strchr(p, '\n') - p);
  m = pc_parse(quiet);
  if (!m) return;
  CHECK(pc_run(m, "dce"));
  CHECK(pc_count(m->entry, OP_WHILE) == 0);
  module_destroy(m);
}

/* a call of a printing computation, twice on the same operand, the
 * results unused */
static const char calls[] =
    "HloModule m\n"
    "f {\n  a = s32[] parameter(0)\n" PRINT("a") "  ROOT r = s32[] negate(a)\n}\n"
    "ENTRY e {\n  x = s32[] parameter(0)\n"
    "  c1 = s32[] call(x), to_apply=f\n  c2 = s32[] call(x), to_apply=f\n"
    "  ROOT r = s32[] abs(x)\n}\n";

TEST(cse_and_dce_keep_both_calls) {
  HloModule *m = pc_parse(calls);
  if (!m) return;
  CHECK(pc_run(m, "cse,dce"));
  CHECK(pc_count(m->entry, OP_CALL) == 2);
  module_destroy(m);
}

TEST(inlined_call_prints_once_per_call) {
  HloModule *m = pc_parse(calls);
  if (!m) return;
  CHECK(pc_run(m, "call-inliner"));
  CHECK(pc_count(m->entry, OP_CALL) == 0);
  CHECK(pc_count(m->entry, OP_CUSTOM_CALL) == 2 && prints(m) == 2);
  module_destroy(m);
}

TEST(taken_branch_prints_once) {
  HloModule *m = pc_parse(
      "HloModule m\n"
      "t {\n  p = s32[] parameter(0)\n" PRINT("p") "  ROOT r = s32[] negate(p)\n}\n"
      "f {\n  p = s32[] parameter(0)\n  ROOT r = s32[] abs(p)\n}\n"
      "ENTRY e {\n  x = s32[] parameter(0)\n  c = pred[] constant(true)\n"
      "  k = s32[] conditional(c, x, x), true_computation=t, false_computation=f\n"
      "  ROOT r = s32[] add(x, x)\n}\n");
  if (!m) return;
  CHECK(pc_run(m, "conditional-simplifier"));
  CHECK(pc_count(m->entry, OP_CONDITIONAL) == 0 && prints(m) == 1);
  CHECK(pc_count(m->entry, OP_CUSTOM_CALL) == 1);
  module_destroy(m);
}

/* While-loop simplification drops the state the result does not need;
 * the state an inner loop that prints reads stays, and the new loop
 * replaces the old one (one print, not one per rewrite). */
TEST(loop_state_removal_keeps_what_a_print_reads) {
  HloModule *m = pc_parse(
      "HloModule m\n"
      "icond {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  n = s32[] constant(2)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "ibody {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  k = f32[4] get-tuple-element(p), index=1\n" PRINT("k")
      "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
      "  ROOT t = (s32[], f32[4]) tuple(j, k)\n}\n"
      "cond {\n  p = (s32[], f32[4], f32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n  p = (s32[], f32[4], f32[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  k = f32[4] get-tuple-element(p), index=1\n  d = f32[] get-tuple-element(p), index=2\n"
      "  z = s32[] constant(0)\n  it = (s32[], f32[4]) tuple(z, k)\n"
      "  iw = (s32[], f32[4]) while(it), condition=icond, body=ibody\n"
      "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
      "  ROOT t = (s32[], f32[4], f32[]) tuple(j, k, d)\n}\n"
      "ENTRY e {\n  x = f32[4] parameter(0)\n  z = s32[] constant(0)\n  d = f32[] constant(2)\n"
      "  t = (s32[], f32[4], f32[]) tuple(z, x, d)\n"
      "  w = (s32[], f32[4], f32[]) while(t), condition=cond, body=body\n"
      "  ROOT r = s32[] get-tuple-element(w), index=0\n}\n");
  if (!m) return;
  CHECK(pc_run(m, "while-loop-simplify,dce"));
  CHECK(prints(m) == 1);
  module_destroy(m);
}

/* Loop-invariant code motion out of a loop that prints, read only through
 * get-tuple-elements: the extended loop replaces the old one (before, the
 * old one stayed for its print, and each of the 64 rewrites in a row left
 * one more: a Pallas interpret kernel ran its callbacks 65 times). */
TEST(hoisting_from_a_loop_that_prints_keeps_one_loop) {
  HloModule *m = pc_parse(
      "HloModule m\n"
      "cond {\n  p = (s32[], f32[4], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n  p = (s32[], f32[4], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  k = f32[4] get-tuple-element(p), index=1\n  a = f32[4] get-tuple-element(p), index=2\n" PRINT("i")
      "  e = f32[4] exponential(k)\n  s = f32[4] add(a, e)\n"
      "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
      "  ROOT t = (s32[], f32[4], f32[4]) tuple(j, k, s)\n}\n"
      "ENTRY e {\n  x = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
      "  t = (s32[], f32[4], f32[4]) tuple(z, x, x)\n"
      "  w = (s32[], f32[4], f32[4]) while(t), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=2\n}\n");
  if (!m) return;
  CHECK(pc_run(m, "while-loop-simplify,dce"));
  CHECK(prints(m) == 1 && pc_count(m->entry, OP_WHILE) == 1);
  /* the exponential left the loop */
  CHECK(pc_count(m->entry, OP_EXP) == 1);
  module_destroy(m);
}

/* The default pipeline: the loop and the branch keep their prints, once. */
TEST(default_pipeline_keeps_each_print_once) {
  HloModule *m = pc_parse(loop_unused);
  if (!m) return;
  PipelineOptions o = {true, NULL, 1};
  CHECK_OK(pipeline_run(m, NULL, 0, &o));
  CHECK(prints(m) == 1 && pc_count(m->entry, OP_WHILE) == 1);
  module_destroy(m);
  m = pc_parse(calls);
  if (!m) return;
  CHECK_OK(pipeline_run(m, NULL, 0, &o));
  CHECK(prints(m) == 2);
  module_destroy(m);
}

int main(void) {
  RUN(dce_keeps_a_loop_that_prints);
  RUN(cse_and_dce_keep_both_calls);
  RUN(inlined_call_prints_once_per_call);
  RUN(taken_branch_prints_once);
  RUN(loop_state_removal_keeps_what_a_print_reads);
  RUN(hoisting_from_a_loop_that_prints_keeps_one_loop);
  RUN(default_pipeline_keeps_each_print_once);
  return test_summary("test_pass_side_effects");
}
