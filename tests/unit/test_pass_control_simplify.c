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

/* ---- topk-rewriter ---- */

/* lax.approx_max_k(x, 3) on f32 as JAX lowers it for a CPU: an unstable
 * sort of (x, iota) by GT, both sliced to 3. */
#define TOPK_TEXT(type, dims, kdims, sortdim, iotadim, dir, stable, start)                                    \
  "HloModule t\ncmp {\n  a = " type "[] parameter(0)\n  b = " type "[] parameter(1)\n"                        \
  "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT g = pred[] compare(a, b), direction=" dir "\n}\n" \
  "ENTRY e {\n  x = " type dims " parameter(0)\n  i = s32" dims " iota(), iota_dimension=" iotadim "\n"          \
  "  s = (" type dims ", s32" dims ") sort(x, i), dimensions={" sortdim "}" stable ", to_apply=cmp\n"             \
  "  v = " type dims " get-tuple-element(s), index=0\n  w = s32" dims " get-tuple-element(s), index=1\n"        \
  "  vs = " type kdims " slice(v), slice={" start "}\n  ws = s32" kdims " slice(w), slice={" start "}\n"        \
  "  ROOT r = (" type kdims ", s32" kdims ") tuple(vs, ws)\n}\n"

/* The rewritten module on rows with ties, -0 and +0, NaN and infinities:
 * the values and indices XLA:CPU's TopK gives (jax 0.10.2, approx_max_k of
 * these rows): greatest first in the total order, ties by lower index. */
static void check_topk_values(HloModule *m, bool transposed) {
  static const float rows[3][12] = {{1, 5, 5, 2, 5, 0, 4, 5, 1, 1, 3, 2},
                                    {0, -0.0f, NAN, 3, -INFINITY, INFINITY, 0, 3, 2, 1, 0, -0.0f},
                                    {-0.0f, 0, -1, -2, -0.0f, -3, -4, -5, -6, 0, -7, -8}};
  static const int32_t want_i[3][3] = {{1, 2, 4}, {2, 5, 3}, {1, 9, 0}};
  static const float want_v[3][3] = {{5, 5, 5}, {NAN, INFINITY, 3}, {0, 0, -0.0f}};
  int64_t d[2] = {transposed ? 12 : 3, transposed ? 3 : 12};
  Literal *x = NULL, *out = NULL;
  CHECK_OK(literal_create(T_F32, 2, d, &x));
  if (!x) return;
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < 12; j++) ((float *)x->data)[transposed ? j * 3 + r : r * 12 + j] = rows[r][j];
  CHECK_OK(cxla_interp_run(m, &x, 1, &out));
  if (out && out->type == T_TUPLE && out->ntuple == 2) {
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 3; j++) {
        int at = transposed ? j * 3 + r : r * 3 + j;
        float v = ((const float *)out->tuple[0]->data)[at];
        int32_t i = ((const int32_t *)out->tuple[1]->data)[at];
        bool same = isnan(want_v[r][j]) ? isnan(v) : memcmp(&v, &want_v[r][j], 4) == 0;
        if (i != want_i[r][j] || !same) {
          fprintf(stderr, "  row %d, %d: got %g at %d, want %g at %d\n", r, j, v, i, want_v[r][j], want_i[r][j]);
          CHECK(false);
        }
      }
  } else {
    CHECK(false);
  }
  literal_free(x);
  literal_free(out);
}

/* parsed and rewritten, without pt_opt's check that values stay: they
 * need not here (an unstable sort's ties, -0 and +0) */
static HloModule *topk_opt(const char *text) {
  HloModule *m = pt_parse(text);
  if (m) pt_run(m, "topk-rewriter,dce");
  return m;
}

TEST(topk_rewriter_as_xla) {
  HloModule *m = topk_opt(TOPK_TEXT("f32", "[3,12]", "[3,3]", "1", "1", "GT", "", "[0:3], [0:3]"));
  if (m) {
    CHECK(pt_count(m, "sort") == 0 && pt_count(m, "topk") == 1 && pt_count(m, "transpose") == 0);
    check_topk_values(m, false);
    module_destroy(m);
  }
  /* along dimension 0: transposed in and out */
  m = topk_opt(TOPK_TEXT("f32", "[12,3]", "[3,3]", "0", "0", "GT", ", is_stable=true", "[0:3], [0:3]"));
  if (m) {
    CHECK(pt_count(m, "sort") == 0 && pt_count(m, "topk") == 1 && pt_count(m, "transpose") == 3);
    check_topk_values(m, true);
    module_destroy(m);
  }
  /* not XLA:CPU's pattern: bf16 keys, LT, a slice not from 0, an iota
   * along the other dimension */
  const char *const keep[] = {TOPK_TEXT("bf16", "[3,12]", "[3,3]", "1", "1", "GT", "", "[0:3], [0:3]"),
                              TOPK_TEXT("f32", "[3,12]", "[3,3]", "1", "1", "LT", "", "[0:3], [0:3]"),
                              TOPK_TEXT("f32", "[3,12]", "[3,3]", "1", "1", "GT", "", "[0:3], [1:4]"),
                              TOPK_TEXT("f32", "[12,12]", "[12,3]", "1", "0", "GT", "", "[0:12], [0:3]")};
  for (int i = 0; i < 4; i++) {
    m = topk_opt(keep[i]);
    if (m) {
      CHECK(pt_count(m, "sort") == 1 && pt_count(m, "topk") == 0);
      module_destroy(m);
    }
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
  RUN(topk_rewriter_as_xla);
  RUN(opt_barrier_removed);
  return test_summary("test_pass_control_simplify");
}
