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

/* cholesky and triangular-solve on f16/bf16 run in f32 (XLA:CPU solves
 * an f16 triangular system in f32: jax.lax.linalg.triangular_solve on
 * float16, its optimized HLO); f32 ones stay as written. */
TEST(narrow_linalg_runs_in_f32) {
  static const char *const kSolve =
      M("  a = f16[3,3] parameter(0)\n  b = f16[3,2] parameter(1)\n"
        "  ROOT x = f16[3,2] triangular-solve(a, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE\n");
  expect_text(kSolve, "f32[3,2] triangular-solve(%convert", true);
  expect_text(M("  a = bf16[4,4] parameter(0)\n  ROOT c = bf16[4,4] cholesky(a), lower=true\n"),
              "f32[4,4] cholesky(%convert", true);
  expect_text(M("  a = f32[4,4] parameter(0)\n  ROOT c = f32[4,4] cholesky(a), lower=true\n"), "convert",
              false);
  HloModule *m = norm(kSolve);
  if (m) {
    CHECK(strcmp(pt_root_op(m), "convert") == 0 && m->entry->root->shape->type == T_F16);
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
  /* f32 and f16 reduces stay as written, reducers included */
  expect_text("HloModule t\nsum {\n  a = f16[] parameter(0)\n  b = f16[] parameter(1)\n"
              "  ROOT s = f16[] add(a, b)\n}\n"
              "ENTRY e {\n  x = f16[8] parameter(0)\n  z = f16[] constant(0)\n"
              "  ROOT r = f16[] reduce(x, z), dimensions={0}, to_apply=sum\n}\n",
              "convert", false);
  expect_text("HloModule t\nsum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
              "  ROOT s = f32[] add(a, b)\n}\n"
              "ENTRY e {\n  x = f32[8] parameter(0)\n  z = f32[] constant(0)\n"
              "  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=sum\n}\n",
              "clone", false);
  /* a bf16 reducer that calls a computation of its own: left as written */
  expect_text("HloModule t\nneg {\n  a = bf16[] parameter(0)\n  ROOT n = bf16[] negate(a)\n}\n"
              "sum {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
              "  c = bf16[] call(b), to_apply=neg\n  ROOT s = bf16[] add(a, c)\n}\n"
              "ENTRY e {\n  x = bf16[8] parameter(0)\n  z = bf16[] constant(0)\n"
              "  ROOT r = bf16[] reduce(x, z), dimensions={0}, to_apply=sum\n}\n",
              "f32[] reduce(", false);
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

/* bf16 reduce, reduce-window, sort and scatter run in f32 as XLA:CPU
 * leaves them (jnp.max, jnp.sort, .at[].add on bf16): operands converted
 * up, results down, and a copy of the reducer whose bf16 ops compute in
 * f32 and round to bf16 and back; the reducer itself stays as written.
 * Values are the bf16 op's, bit for bit. */
static const char kMax[] =
    "HloModule t\nmx {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
    "  ROOT m = bf16[] maximum(a, b)\n}\n"
    "sum {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
    "  ROOT s = bf16[] add(a, b)\n}\n"
    "ENTRY e {\n  x = bf16[8,4] parameter(0)\n  z = bf16[] constant(-inf)\n"
    "  r = bf16[4] reduce(x, z), dimensions={0}, to_apply=mx\n"
    "  zero = bf16[] constant(0)\n"
    "  w = bf16[7,3] reduce-window(x, zero), window={size=2x2}, to_apply=sum\n"
    "  ROOT t = (bf16[4], bf16[7,3]) tuple(r, w)\n}\n";

static const char kArgmax[] =
    "HloModule t\nam {\n  a = bf16[] parameter(0)\n  i = s32[] parameter(1)\n"
    "  b = bf16[] parameter(2)\n  j = s32[] parameter(3)\n"
    "  gt = pred[] compare(a, b), direction=GT\n  m = bf16[] select(gt, a, b)\n"
    "  k = s32[] select(gt, i, j)\n  ROOT t = (bf16[], s32[]) tuple(m, k)\n}\n"
    "ENTRY e {\n  x = bf16[8,4] parameter(0)\n  io = s32[8,4] iota(), iota_dimension=0\n"
    "  z = bf16[] constant(-inf)\n  zi = s32[] constant(0)\n"
    "  ROOT r = (bf16[4], s32[4]) reduce(x, io, z, zi), dimensions={0}, to_apply=am\n}\n";

static const char kSort[] =
    "HloModule t\nlt {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
    "  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n"
    "  ia = s16[] bitcast-convert(a)\n  ib = s16[] bitcast-convert(b)\n"
    "  ROOT c = pred[] compare(ia, ib), direction=LT\n}\n"
    "ENTRY e {\n  x = bf16[16] parameter(0)\n  io = s32[16] iota(), iota_dimension=0\n"
    "  ROOT s = (bf16[16], s32[16]) sort(x, io), dimensions={0}, to_apply=lt\n}\n";

static const char kScatter[] =
    "HloModule t\nadd {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
    "  ROOT s = bf16[] add(a, b)\n}\n"
    "ENTRY e {\n  x = bf16[8,4] parameter(0)\n  i = s32[3,1] constant({{1},{5},{1}})\n"
    "  u = bf16[3,4] parameter(1)\n"
    "  ROOT s = bf16[8,4] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0},"
    " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n";

TEST(bf16_reducers_run_in_f32) {
  expect_text(kMax, "f32[4] reduce(%convert", true);
  expect_text(kMax, "f32[] maximum(%a, %b)", true);
  expect_text(kMax, "bf16[] convert(%maximum", true); /* the bf16 rounding, per step */
  expect_text(kMax, "bf16[] maximum(%a, %b)", true);  /* mx itself as written */
  expect_text(kMax, "f32[7,3] reduce-window(%convert", true);
  expect_text(kMax, "to_apply=%sum.clone", true);
  expect_text(kArgmax, "(f32[4], s32[4]) reduce(%convert", true);
  expect_text(kArgmax, "(f32[], s32[]) tuple(", true);
  expect_text(kSort, "(f32[16], s32[16]) sort(%convert", true);
  /* the comparator's bitcast-convert reads the bf16 value itself */
  expect_text(kSort, "s16[] bitcast-convert(%convert", true);
  expect_text(kScatter, "f32[8,4] scatter(%convert", true);
  const char *const all[] = {kMax, kArgmax, kSort, kScatter};
  for (int i = 0; i < 4; i++) {
    HloModule *m = norm(all[i]);
    if (!m) continue;
    CHECK(pt_values_agree(all[i], m, 4) == 1);
    module_destroy(m);
  }
}

int main(void) {
  RUN(bf16_elementwise_runs_in_f32);
  RUN(narrow_dots_run_in_f32);
  RUN(narrow_linalg_runs_in_f32);
  RUN(normalization_must_not_fire);
  RUN(bf16_reducers_run_in_f32);
  return test_summary("test_pass_float_norm");
}
