/* conditional-simplifier, while-loop-constant-sinking,
 * zero-sized-hlo-elimination, sort-simplifier and
 * optimization-barrier-expander: HLO in, HLO out, the cases where each must
 * not fire, and the same values before and after (all three are exact). */
#include "harness.h"
#include "pass_helpers.h"

static HloModule *opt(const char *text, const char *passes) { return pt_opt(text, passes); }

/* ---- conditional-simplifier ---- */

#define BRANCHES                                                                          \
  "t {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] negate(p)\n}\n"                  \
  "f {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] exponential(p)\n}\n"

TEST(conditional_with_constant_predicate) {
  HloModule *m = opt("HloModule c\n" BRANCHES
                     "ENTRY e {\n  x = f32[4] parameter(0)\n  y = f32[4] parameter(1)\n"
                     "  c = pred[] constant(false)\n"
                     "  ROOT r = f32[4] conditional(c, x, y), true_computation=t, false_computation=f\n}\n",
                     "conditional-simplifier,dce");
  if (m) {
    CHECK(pt_count(m, "conditional") == 0 && strcmp(pt_root_op(m), "exponential") == 0);
    CHECK(m->entry->root->operands[0] == m->entry->params[1]);
    CHECK(m->ncomps == 1); /* the branches are gone */
    module_destroy(m);
  }
  /* a branch index out of range takes the last branch */
  m = opt("HloModule c\n" BRANCHES
          "ENTRY e {\n  x = f32[4] parameter(0)\n  c = s32[] constant(7)\n"
          "  ROOT r = f32[4] conditional(c, x, x), branch_computations={t, f}\n}\n",
          "conditional-simplifier,dce");
  if (m) {
    CHECK(strcmp(pt_root_op(m), "exponential") == 0);
    module_destroy(m);
  }
  m = opt("HloModule c\n" BRANCHES
          "ENTRY e {\n  x = f32[4] parameter(0)\n  c = s32[] constant(0)\n"
          "  ROOT r = f32[4] conditional(c, x, x), branch_computations={t, f}\n}\n",
          "conditional-simplifier,dce");
  if (m) {
    CHECK(strcmp(pt_root_op(m), "negate") == 0);
    module_destroy(m);
  }
  /* must not fire: a predicate known only at run time */
  m = opt("HloModule c\n" BRANCHES
          "ENTRY e {\n  x = f32[4] parameter(0)\n  c = pred[] parameter(1)\n"
          "  ROOT r = f32[4] conditional(c, x, x), true_computation=t, false_computation=f\n}\n",
          "conditional-simplifier,dce");
  if (m) {
    CHECK(pt_count(m, "conditional") == 1);
    module_destroy(m);
  }
}

TEST(conditional_with_one_branch) {
  HloModule *m = opt("HloModule c\n" BRANCHES
                     "ENTRY e {\n  x = f32[4] parameter(0)\n  c = s32[] parameter(1)\n"
                     "  ROOT r = f32[4] conditional(c, x), branch_computations={t}\n}\n",
                     "conditional-simplifier,dce");
  if (m) {
    CHECK(pt_count(m, "conditional") == 0 && strcmp(pt_root_op(m), "negate") == 0);
    module_destroy(m);
  }
}

/* ---- while-loop-constant-sinking ---- */

static const char *const kLoop =
    "HloModule w\n"
    "cond {\n  p = (s32[], f32[4], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
    "  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
    "body {\n  p = (s32[], f32[4], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
    "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
    "  x = f32[4] get-tuple-element(p), index=1\n  k = f32[4] get-tuple-element(p), index=2\n"
    "  y = f32[4] multiply(x, k)\n  ROOT t = (s32[], f32[4], f32[4]) tuple(j, y, k)\n}\n"
    "ENTRY e {\n  a = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
    "  k = f32[4] constant({1, 2, 3, 4})\n  t = (s32[], f32[4], f32[4]) tuple(z, a, k)\n"
    "  w = (s32[], f32[4], f32[4]) while(t), condition=cond, body=body\n"
    "  ROOT r = f32[4] get-tuple-element(w), index=1\n}\n";

TEST(constant_state_sinks_into_the_body) {
  HloModule *m = opt(kLoop, "while-loop-constant-sinking");
  if (!m) return;
  Computation *body = module_find_computation(m, "body");
  CHECK(body != NULL);
  if (body) {
    /* the multiply reads a constant; the root still passes element 2 on */
    Instr *mul = NULL;
    for (int i = 0; i < body->ninstrs; i++)
      if (body->instrs[i]->op == OP_MULTIPLY) mul = body->instrs[i];
    CHECK(mul && mul->operands[1]->op == OP_CONSTANT);
    CHECK(body->root->operands[2]->op == OP_GET_TUPLE_ELEMENT);
  }
  /* the counter (element 0) starts as a constant but changes: it stays */
  Computation *cond = module_find_computation(m, "cond");
  CHECK(cond && pt_count(m, "compare") == 1 &&
        cond->root->operands[0]->op == OP_GET_TUPLE_ELEMENT);
  module_destroy(m);
}

TEST(non_constant_state_stays) {
  /* element 2 starts as a parameter: nothing to sink */
  const char *p = strstr(kLoop, "  k = f32[4] constant({1, 2, 3, 4})\n");
  CHECK(p != NULL);
  if (!p) return;
  char text[4096];
  snprintf(text, sizeof text, "%.*s  k = f32[4] parameter(1)\n%s", (int)(p - kLoop), kLoop,
           p + strlen("  k = f32[4] constant({1, 2, 3, 4})\n"));
  HloModule *m = pt_parse(text);
  if (!m) return;
  pt_run(m, "while-loop-constant-sinking");
  Computation *body = module_find_computation(m, "body");
  CHECK(body && pt_count(m, "constant") == 3); /* n, one, z: none added */
  module_destroy(m);
}

TEST(shared_loop_body_is_left_alone) {
  /* two loops share body and cond (not flattened): the second starts from
   * a different constant, so nothing may sink */
  char text[4096];
  const char *entry = strstr(kLoop, "ENTRY e {");
  CHECK(entry != NULL);
  if (!entry) return;
  snprintf(text, sizeof text,
           "%.*sENTRY e {\n  a = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
           "  k = f32[4] constant({1, 2, 3, 4})\n  k2 = f32[4] constant({5, 6, 7, 8})\n"
           "  t = (s32[], f32[4], f32[4]) tuple(z, a, k)\n  t2 = (s32[], f32[4], f32[4]) tuple(z, a, k2)\n"
           "  w = (s32[], f32[4], f32[4]) while(t), condition=cond, body=body\n"
           "  w2 = (s32[], f32[4], f32[4]) while(t2), condition=cond, body=body\n"
           "  r = f32[4] get-tuple-element(w), index=1\n  r2 = f32[4] get-tuple-element(w2), index=1\n"
           "  ROOT o = (f32[4], f32[4]) tuple(r, r2)\n}\n",
           (int)(entry - kLoop), kLoop);
  HloModule *m = opt(text, "while-loop-constant-sinking");
  if (!m) return;
  Computation *body = module_find_computation(m, "body");
  CHECK(body && pt_count(m, "constant") == 5); /* n, one, z, k, k2: none added */
  module_destroy(m);
}

/* ---- zero-sized-hlo-elimination ---- */

TEST(empty_results_become_constants) {
  HloModule *m = opt("HloModule z\n"
                     "ENTRY e {\n  x = f32[3,0] parameter(0)\n  y = f32[3,0] exponential(x)\n"
                     "  a = f32[4] parameter(1)\n  b = f32[4] negate(a)\n"
                     "  ROOT t = (f32[3,0], f32[4]) tuple(y, b)\n}\n",
                     "zero-sized-hlo-elimination,dce");
  if (!m) return;
  CHECK(pt_count(m, "exponential") == 0 && pt_count(m, "constant") == 1);
  CHECK(pt_count(m, "negate") == 1); /* not empty: stays */
  CHECK(m->entry->root->operands[0]->op == OP_CONSTANT);
  module_destroy(m);
  /* parameters and side effects stay */
  m = opt("HloModule z\nENTRY e {\n  x = f32[0] parameter(0)\n  ROOT r = f32[0] copy(x)\n}\n",
          "zero-sized-hlo-elimination,dce");
  if (m) {
    CHECK(pt_count(m, "parameter") == 1 && pt_count(m, "constant") == 1);
    module_destroy(m);
  }
}

/* ---- sort-simplifier ---- */

#define CMP3(extra)                                                                        \
  "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n"   \
  "  d = s32[] parameter(3)\n  e = f32[] parameter(4)\n  f = f32[] parameter(5)\n" extra "}\n"

TEST(sort_drops_unread_operands) {
  HloModule *m = opt("HloModule s\n" CMP3("  ROOT lt = pred[] compare(a, b), direction=LT\n")
                     "ENTRY e {\n  k = f32[8] parameter(0)\n  v = s32[8] parameter(1)\n"
                     "  w = f32[8] parameter(2)\n"
                     "  s = (f32[8], s32[8], f32[8]) sort(k, v, w), dimensions={0}, to_apply=cmp\n"
                     "  ROOT g = s32[8] get-tuple-element(s), index=1\n}\n",
                     "sort-simplifier,dce");
  if (m) {
    const Instr *srt = m->entry->root->operands[0];
    CHECK(srt->op == OP_SORT && srt->noperands == 2 && srt->called[0]->nparams == 4);
    CHECK(m->entry->root->index == 1);
    module_destroy(m);
  }
  /* only the keys are read: an array-shaped sort */
  m = opt("HloModule s\n" CMP3("  ROOT lt = pred[] compare(a, b), direction=LT\n")
          "ENTRY e {\n  k = f32[8] parameter(0)\n  v = s32[8] parameter(1)\n"
          "  w = f32[8] parameter(2)\n"
          "  s = (f32[8], s32[8], f32[8]) sort(k, v, w), dimensions={0}, to_apply=cmp\n"
          "  ROOT g = f32[8] get-tuple-element(s), index=0\n}\n",
          "sort-simplifier,dce");
  if (m) {
    CHECK(strcmp(pt_root_op(m), "sort") == 0 && m->entry->root->noperands == 1);
    module_destroy(m);
  }
  /* must not fire: the comparator reads operand 2 (a tie-break), or the
   * tuple itself is used */
  m = opt("HloModule s\n"
          CMP3("  lt = pred[] compare(a, b), direction=LT\n  eq = pred[] compare(a, b), direction=EQ\n"
               "  l2 = pred[] compare(e, f), direction=LT\n  t = pred[] and(eq, l2)\n"
               "  ROOT o = pred[] or(lt, t)\n")
          "ENTRY e {\n  k = f32[8] parameter(0)\n  v = s32[8] parameter(1)\n"
          "  w = f32[8] parameter(2)\n"
          "  s = (f32[8], s32[8], f32[8]) sort(k, v, w), dimensions={0}, to_apply=cmp\n"
          "  ROOT g = s32[8] get-tuple-element(s), index=1\n}\n",
          "sort-simplifier,dce");
  if (m) {
    CHECK(m->entry->root->operands[0]->noperands == 3);
    module_destroy(m);
  }
  m = opt("HloModule s\n" CMP3("  ROOT lt = pred[] compare(a, b), direction=LT\n")
          "ENTRY e {\n  k = f32[8] parameter(0)\n  v = s32[8] parameter(1)\n"
          "  w = f32[8] parameter(2)\n"
          "  ROOT s = (f32[8], s32[8], f32[8]) sort(k, v, w), dimensions={0}, to_apply=cmp\n}\n",
          "sort-simplifier,dce");
  if (m) {
    CHECK(m->entry->root->noperands == 3);
    module_destroy(m);
  }
}

/* ---- optimization-barrier-expander ---- */

/* jax.checkpoint's barrier: removed, its users read its operand (a tuple
 * here, which the tuple simplifier then looks through). Must not: a
 * barrier with a control predecessor stays. */
TEST(opt_barrier_removed) {
  static const char kText[] =
      "HloModule b\nENTRY e {\n  x = f32[4] parameter(0)\n  s = f32[4] sine(x)\n"
      "  t = (f32[4], f32[4]) tuple(s, x)\n"
      "  b = (f32[4], f32[4]) opt-barrier(t)\n"
      "  g = f32[4] get-tuple-element(b), index=0\n  ROOT r = f32[4] cosine(g)\n}\n";
  HloModule *m = opt(kText, "optimization-barrier-expander,tuple-simplifier,dce");
  if (m) {
    CHECK(pt_count(m, "opt-barrier") == 0 && pt_count(m, "tuple") == 0);
    CHECK(m->entry->root->operands[0]->op == OP_SIN);
    CHECK(pt_values_agree(kText, m, 2) == 1);
    module_destroy(m);
  }
  m = opt("HloModule b\nENTRY e {\n  x = f32[4] parameter(0)\n  s = f32[4] sine(x)\n"
          "  b = f32[4] opt-barrier(x), control-predecessors={s}\n"
          "  ROOT r = (f32[4], f32[4]) tuple(b, s)\n}\n",
          "optimization-barrier-expander");
  if (m) {
    CHECK(pt_count(m, "opt-barrier") == 1);
    module_destroy(m);
  }
}

int main(void) {
  RUN(conditional_with_constant_predicate);
  RUN(conditional_with_one_branch);
  RUN(constant_state_sinks_into_the_body);
  RUN(non_constant_state_stays);
  RUN(shared_loop_body_is_left_alone);
  RUN(empty_results_become_constants);
  RUN(sort_drops_unread_operands);
  RUN(opt_barrier_removed);
  return test_summary("test_pass_control_simplify");
}
