/* DCE: dead instructions and uncalled computations go; parameters,
 * side-effecting instructions and what they use stay. */
#include "harness.h"
#include "pass_helpers.h"

/* The text of the module under test, for the value comparison. */
static const char *g_text;
static HloModule *parse(const char *text) {
  g_text = text;
  return pt_parse(text);
}

static bool run_dce(HloModule *m) {
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  bool changed = false;
  CHECK_OK(pass_dce(m, &ctx, &changed));
  CHECK_OK(verify_module(m));
  CHECK(pt_values_agree(g_text, m, 2) != 0);
  return changed;
}

TEST(removes_dead_chain_keeps_parameters) {
  HloModule *m = parse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[4] parameter(0)\n"
      "  p1 = f32[4] parameter(1)\n"
      "  a = f32[4] negate(p0)\n"
      "  b = f32[4] exponential(a)\n"
      "  ROOT r = f32[4] abs(p0)\n"
      "}\n");
  if (!m) return;
  CHECK(run_dce(m));
  CHECK(m->entry->ninstrs == 3); /* p0, p1 (unused but a parameter), r */
  CHECK(comp_find_instr(m->entry, "p1") && !comp_find_instr(m->entry, "a") &&
        !comp_find_instr(m->entry, "b"));
  CHECK(!run_dce(m)); /* nothing left to do */
  module_destroy(m);
}

TEST(keeps_side_effects_and_their_operands) {
  HloModule *m = parse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[4] parameter(0)\n"
      "  n = f32[4] negate(p0)\n"
      "  cc = f32[4] custom-call(n), custom_call_target=\"log_it\", custom_call_has_side_effect=true\n"
      "  pure = f32[4] custom-call(n), custom_call_target=\"pure_fn\"\n"
      "  ROOT r = f32[4] abs(p0)\n"
      "}\n");
  if (!m) return;
  CHECK(run_dce(m));
  CHECK(comp_find_instr(m->entry, "cc") && comp_find_instr(m->entry, "n"));
  CHECK(!comp_find_instr(m->entry, "pure"));
  module_destroy(m);
}

TEST(keeps_dead_control_predecessor_of_live_instruction) {
  HloModule *m = parse(
      "HloModule m\n"
      "ENTRY e {\n"
      "  p0 = f32[4] parameter(0)\n"
      "  n = f32[4] negate(p0)\n"
      "  ROOT r = f32[4] abs(p0), control-predecessors={n}\n"
      "}\n");
  if (!m) return;
  CHECK(!run_dce(m));
  CHECK(comp_find_instr(m->entry, "n") != NULL);
  module_destroy(m);
}

static const char *kReduce =
    "HloModule m\n"
    "sum {\n"
    "  x = f32[] parameter(0)\n"
    "  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(x, y)\n"
    "}\n"
    "mx {\n"
    "  x = f32[] parameter(0)\n"
    "  y = f32[] parameter(1)\n"
    "  ROOT s = f32[] maximum(x, y)\n"
    "}\n"
    "ENTRY e {\n"
    "  p0 = f32[4] parameter(0)\n"
    "  z = f32[] constant(0)\n"
    "  dead = f32[] reduce(p0, z), dimensions={0}, to_apply=sum\n"
    "  ROOT live = f32[] reduce(p0, z), dimensions={0}, to_apply=mx\n"
    "}\n";

TEST(removes_computations_only_dead_code_called) {
  HloModule *m = parse(kReduce);
  if (!m) return;
  CHECK(m->ncomps == 3);
  CHECK(run_dce(m));
  CHECK(m->ncomps == 2);
  CHECK(module_find_computation(m, "sum") == NULL);
  CHECK(module_find_computation(m, "mx") != NULL);
  char *t = pt_print(m);
  CHECK(t && !strstr(t, "%sum") && strstr(t, "to_apply=%mx"));
  cxla_free_string(t);
  module_destroy(m);
}

TEST(dead_code_inside_called_computations) {
  HloModule *m = parse(
      "HloModule m\n"
      "body {\n"
      "  x = f32[] parameter(0)\n"
      "  y = f32[] parameter(1)\n"
      "  junk = f32[] multiply(x, y)\n"
      "  ROOT s = f32[] add(x, y)\n"
      "}\n"
      "ENTRY e {\n"
      "  p0 = f32[4] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[] reduce(p0, z), dimensions={0}, to_apply=body\n"
      "}\n");
  if (!m) return;
  CHECK(run_dce(m));
  CHECK(pt_count(m, "multiply") == 0);
  CHECK(module_find_computation(m, "body")->nparams == 2); /* parameters stay */
  module_destroy(m);
}

int main(void) {
  RUN(removes_dead_chain_keeps_parameters);
  RUN(keeps_side_effects_and_their_operands);
  RUN(keeps_dead_control_predecessor_of_live_instruction);
  RUN(removes_computations_only_dead_code_called);
  RUN(dead_code_inside_called_computations);
  return test_summary("test_pass_dce");
}
