/* float-normalization: f16/bf16 dots and convolutions and bf16
 * elementwise ops run in f32 between converts, as XLA:CPU leaves them
 * (jax.jit output: bf16 add/exp/tanh/compare/select become f32 ops; f16
 * elementwise ops stay f16; f16 and bf16 dots become f32 dots). HLO in,
 * HLO out, where it must not fire, and values. */
#include "harness.h"
#include "pass_helpers.h"

#define M(body) "HloModule t\nENTRY e {\n" body "}\n"

static HloModule *norm(const char *text) {
  HloModule *m = pt_parse(text);
  if (m) pt_run(m, "float-normalization");
  return m;
}

static void expect_text(const char *text, const char *needle, bool present) {
  HloModule *m = norm(text);
  if (!m) return;
  char *t = pt_print(m);
  if (!t || (strstr(t, needle) != NULL) != present) {
    fprintf(stderr, "%s: '%s' %s in:\n%s\n", harness_current, needle,
            present ? "missing" : "unexpected", t ? t : "");
    CHECK(!"unexpected normalization");
  }
  cxla_free_string(t);
  module_destroy(m);
}

TEST(bf16_elementwise_runs_in_f32) {
  static const char *const kText =
      M("  x = bf16[8] parameter(0)\n  y = bf16[8] parameter(1)\n  a = bf16[8] add(x, y)\n"
        "  t = bf16[8] tanh(a)\n  c = pred[8] compare(t, x), direction=GT\n"
        "  ROOT s = bf16[8] select(c, t, y)\n");
  expect_text(kText, "f32[8] add(", true);
  expect_text(kText, "f32[8] tanh(", true);
  expect_text(kText, "pred[8] compare(%convert", true);
  expect_text(kText, "bf16[8] add(", false);
  /* values: one f32 op and one rounding, as the interpreter computes bf16 */
  HloModule *m = norm(kText);
  if (m) {
    CHECK(pt_values_agree(kText, m, 4) == 1);
    module_destroy(m);
  }
}

TEST(narrow_dots_run_in_f32) {
  expect_text(M("  x = f16[4,4] parameter(0)\n"
                "  ROOT d = f16[4,4] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
              "f32[4,4] dot(%convert", true);
  expect_text(M("  x = bf16[4,4] parameter(0)\n"
                "  ROOT d = f32[4,4] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
              "f32[4,4] dot(%convert", true);
  HloModule *m = norm(M("  x = f16[4,4] parameter(0)\n"
                        "  ROOT d = f16[4,4] dot(x, x), lhs_contracting_dims={1}, "
                        "rhs_contracting_dims={0}\n"));
  if (m) {
    CHECK(strcmp(pt_root_op(m), "convert") == 0 && m->entry->root->shape->type == T_F16);
    module_destroy(m);
  }
}

TEST(normalization_must_not_fire) {
  /* f16 elementwise ops stay f16 (XLA:CPU has kernels for them) */
  expect_text(M("  x = f16[8] parameter(0)\n  ROOT e = f16[8] exponential(x)\n"), "convert", false);
  /* f32 dots, converts themselves */
  expect_text(M("  x = f32[4,4] parameter(0)\n"
                "  ROOT d = f32[4,4] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
              "convert", false);
  expect_text(M("  x = bf16[8] parameter(0)\n  ROOT c = f32[8] convert(x)\n"), "f32[8] convert(%x)",
              true);
  /* reducers stay as written */
  expect_text("HloModule t\nsum {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
              "  ROOT s = bf16[] add(a, b)\n}\n"
              "ENTRY e {\n  x = bf16[8] parameter(0)\n  z = bf16[] constant(0)\n"
              "  ROOT r = bf16[] reduce(x, z), dimensions={0}, to_apply=sum\n}\n",
              "convert", false);
  /* exact mode: nothing */
  HloModule *m = pt_parse(M("  x = bf16[8] parameter(0)\n  ROOT a = bf16[8] add(x, x)\n"));
  if (m) {
    PipelineOptions o = {true, NULL, 1};
    const char *names[] = {"float-normalization"};
    CHECK_OK(pipeline_run_exact(m, names, 1, &o));
    CHECK(pt_count(m, "convert") == 0);
    module_destroy(m);
  }
}

int main(void) {
  RUN(bf16_elementwise_runs_in_f32);
  RUN(narrow_dots_run_in_f32);
  RUN(normalization_must_not_fire);
  return test_summary("test_pass_float_norm");
}
