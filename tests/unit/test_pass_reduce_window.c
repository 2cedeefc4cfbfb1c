/* reduce-window-rewriter: scans (a reduce-window spanning the scanned
 * dimension) become a tree of 16-wide windows, as XLA:CPU rewrites them.
 * Structure (HLO in, HLO out), the cases where it must not fire, exact
 * values where the reducer is exact (integer add, max), and XLA:CPU's own
 * values for a float cumsum, whose sums the tree reassociates. */
#include "harness.h"
#include "pass_helpers.h"

#define SUM(T) "s {\n  a = " T "[] parameter(0)\n  b = " T "[] parameter(1)\n  ROOT r = " T "[] add(a, b)\n}\n"
#define MAX(T) "mx {\n  a = " T "[] parameter(0)\n  b = " T "[] parameter(1)\n  ROOT r = " T "[] maximum(a, b)\n}\n"

static const char *const kPasses = "reduce-window-rewriter,algsimp,dce";

/* The module after the pass has `n` reduce-windows. */
static void expect_windows(const char *text, int n) {
  HloModule *m = pt_parse(text);
  if (!m) return;
  pt_run(m, kPasses);
  if (pt_count(m, "reduce-window") != n) {
    char *t = pt_print(m);
    fprintf(stderr, "%s: %d reduce-windows, expected %d:\n%s\n", harness_current,
            pt_count(m, "reduce-window"), n, t);
    cxla_free_string(t);
    CHECK(!"unexpected reduce-window count");
  }
  module_destroy(m);
}

TEST(cumsum_becomes_a_tree) {
  /* 40 -> padded to 48 = 3 x 16: one 16-wide row scan, one exclusive scan
   * of the 3 row totals. */
  const char *text = "HloModule t\n" SUM("f32")
                     "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                     "  ROOT r = f32[40] reduce-window(x, z), window={size=40 pad=39_0}, to_apply=s\n}\n";
  HloModule *m = pt_parse(text);
  if (!m) return;
  pt_run(m, kPasses);
  char *t = pt_print(m);
  CHECK(t && strstr(t, "f32[48] pad(%x, %z), padding=0_8"));
  CHECK(t && strstr(t, "f32[3,16] reduce-window("));
  CHECK(t && strstr(t, "window={size=1x16 pad=0_0x15_0}"));
  CHECK(t && strstr(t, "f32[4] reduce-window("));
  CHECK(t && strstr(t, "window={size=3 pad=3_0}"));
  CHECK(t && strstr(t, "f32[3,16] add("));
  CHECK(t && strstr(t, "slice={[0:40]}"));
  cxla_free_string(t);
  module_destroy(m);
}

TEST(long_scans_recurse) {
  /* 4096 = 256 x 16 -> 16 x 16 -> 16: three reduce-windows. */
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[4096] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[4096] reduce-window(x, z), window={size=4096 pad=4095_0}, to_apply=s\n}\n",
                 3);
}

TEST(every_scan_kind) {
  /* Reverse, exclusive, along a non-last dimension, cummax, a reducer that
   * is not one op (a map): each fires and computes the same values (the
   * reducers here are exact in any order). */
  static const char *const kCases[] = {
      "HloModule t\n" SUM("s32")
      "ENTRY e {\n  x = s32[50] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = s32[50] reduce-window(x, z), window={size=50 pad=0_49}, to_apply=s\n}\n",
      "HloModule t\n" SUM("s32")
      "ENTRY e {\n  x = s32[50] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = s32[51] reduce-window(x, z), window={size=50 pad=50_0}, to_apply=s\n}\n",
      "HloModule t\n" SUM("s32")
      "ENTRY e {\n  x = s32[50] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = s32[51] reduce-window(x, z), window={size=50 pad=0_50}, to_apply=s\n}\n",
      "HloModule t\n" SUM("s32")
      "ENTRY e {\n  x = s32[37,3] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = s32[37,3] reduce-window(x, z), window={size=37x1 pad=36_0x0_0}, to_apply=s\n}\n",
      "HloModule t\n" MAX("f32")
      "ENTRY e {\n  x = f32[2,33] parameter(0)\n  z = f32[] constant(-inf)\n"
      "  ROOT r = f32[2,33] reduce-window(x, z), window={size=1x33 pad=0_0x32_0}, to_apply=mx\n}\n",
      "HloModule t\n"
      "f {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  n = s32[] negate(b)\n"
      "  n2 = s32[] negate(n)\n  ROOT r = s32[] add(a, n2)\n}\n"
      "ENTRY e {\n  x = s32[20] parameter(0)\n  z = s32[] constant(0)\n"
      "  ROOT r = s32[20] reduce-window(x, z), window={size=20 pad=19_0}, to_apply=f\n}\n",
  };
  for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; i++) {
    HloModule *m = pt_opt(kCases[i], "reduce-window-rewriter,dce");
    if (!m) continue;
    CHECK(pt_count(m, "reduce-window") == 2);
    module_destroy(m);
  }
}

TEST(must_not_fire) {
  /* Short scans (N <= 16). */
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[16] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[16] reduce-window(x, z), window={size=16 pad=15_0}, to_apply=s\n}\n",
                 1);
  /* A window shorter than the dimension (a moving sum). */
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[40] reduce-window(x, z), window={size=39 pad=38_0}, to_apply=s\n}\n",
                 1);
  /* Padding on both sides. */
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[41] reduce-window(x, z), window={size=40 pad=20_20}, to_apply=s\n}\n",
                 1);
  /* Stride, dilation, two scanned dimensions. */
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[20] reduce-window(x, z), window={size=40 stride=2 pad=39_0}, to_apply=s\n}\n",
                 1);
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[79] reduce-window(x, z), window={size=40 pad=39_0 lhs_dilate=2}, to_apply=s\n}\n",
                 1);
  expect_windows("HloModule t\n" SUM("f32")
                 "ENTRY e {\n  x = f32[20,20] parameter(0)\n  z = f32[] constant(0)\n"
                 "  ROOT r = f32[20,20] reduce-window(x, z), window={size=20x20 pad=19_0x19_0}, to_apply=s\n}\n",
                 1);
}

/* XLA:CPU's values for jax.jit(jnp.cumsum) on x[i] = f32((7i mod 13) - 6)
 * * f32(0.1), i < 40: from element 18 on they differ from a sequential
 * sum. */
TEST(float_cumsum_matches_xla) {
  static const float kWant[40] = {
      -0x1.333334p-1f, -0x1.000000p-1f, -0x1.000000p+0f, -0x1.99999ap-1f, -0x1.333334p+0f,
      -0x1.cccccep-1f, -0x1.333334p+0f, -0x1.99999cp-1f, -0x1.000002p+0f, -0x1.000004p-1f,
      -0x1.333338p-1f, -0x1.000000p-23f, -0x1.000000p-23f, -0x1.333338p-1f, -0x1.000004p-1f,
      -0x1.000002p+0f, -0x1.99999ep-1f, -0x1.333336p+0f, -0x1.ccccd0p-1f, -0x1.333336p+0f,
      -0x1.99999ep-1f, -0x1.000002p+0f, -0x1.000004p-1f, -0x1.333338p-1f, -0x1.000000p-23f,
      -0x1.000000p-23f, -0x1.333338p-1f, -0x1.000004p-1f, -0x1.000002p+0f, -0x1.99999ep-1f,
      -0x1.333336p+0f, -0x1.ccccd2p-1f, -0x1.333336p+0f, -0x1.9999a0p-1f, -0x1.000002p+0f,
      -0x1.000006p-1f, -0x1.333338p-1f, -0x1.800000p-23f, -0x1.800000p-23f, -0x1.33333ap-1f};
  HloModule *m = pt_parse("HloModule t\n" SUM("f32")
                          "ENTRY e {\n  x = f32[40] parameter(0)\n  z = f32[] constant(0)\n"
                          "  ROOT r = f32[40] reduce-window(x, z), window={size=40 pad=39_0}, "
                          "to_apply=s\n}\n");
  if (!m) return;
  pt_run(m, NULL); /* the default pipeline */
  Literal *x = NULL, *out = NULL;
  int64_t n = 40;
  CHECK_OK(literal_create(T_F32, 1, &n, &x));
  if (x) {
    for (int i = 0; i < 40; i++) ((float *)x->data)[i] = (float)((i * 7) % 13 - 6) * 0.1f;
    CHECK_OK(cxla_interp_run(m, &x, 1, &out));
  }
  if (out) {
    int bad = 0;
    for (int i = 0; i < 40; i++) bad += memcmp(&((float *)out->data)[i], &kWant[i], 4) != 0;
    if (bad) fprintf(stderr, "%s: %d of 40 elements differ from XLA's\n", harness_current, bad);
    CHECK(bad == 0);
  }
  literal_free(x);
  literal_free(out);
  module_destroy(m);
}

/* The same in bf16 (XLA:CPU's bits for jax.jit(jnp.cumsum) on the bf16
 * rounding of those inputs); without the rewrite 21 of the 40 differ. */
TEST(bf16_cumsum_matches_xla) {
  static const uint16_t kWant[40] = {
      0xbf1a, 0xbf00, 0xbf80, 0xbf4d, 0xbf9a, 0xbf67, 0xbf9a, 0xbf4e, 0xbf81, 0xbf02,
      0xbf1c, 0xbc00, 0xbc00, 0xbf1c, 0xbf02, 0xbf81, 0xbf4f, 0xbf9b, 0xbf68, 0xbf9b,
      0xbf4f, 0xbf81, 0xbf02, 0xbf1c, 0xbc00, 0xbc00, 0xbf1c, 0xbf02, 0xbf81, 0xbf4f,
      0xbf9b, 0xbf69, 0xbf9b, 0xbf50, 0xbf81, 0xbf03, 0xbf1c, 0xbc40, 0xbc40, 0xbf1d};
  HloModule *m = pt_parse("HloModule t\ns {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
                          "  ROOT r = bf16[] add(a, b)\n}\n"
                          "ENTRY e {\n  x = bf16[40] parameter(0)\n  z = bf16[] constant(0)\n"
                          "  ROOT r = bf16[40] reduce-window(x, z), window={size=40 pad=39_0}, "
                          "to_apply=s\n}\n");
  if (!m) return;
  pt_run(m, NULL);
  Literal *x = NULL, *out = NULL;
  int64_t n = 40;
  CHECK_OK(literal_create(T_BF16, 1, &n, &x));
  if (x) {
    for (int i = 0; i < 40; i++) literal_set_f64(x, i, (double)((float)((i * 7) % 13 - 6) * 0.1f));
    CHECK_OK(cxla_interp_run(m, &x, 1, &out));
  }
  if (out) {
    int bad = 0;
    for (int i = 0; i < 40; i++) bad += ((const uint16_t *)out->data)[i] != kWant[i];
    if (bad) fprintf(stderr, "%s: %d of 40 elements differ from XLA's\n", harness_current, bad);
    CHECK(bad == 0);
  }
  literal_free(x);
  literal_free(out);
  module_destroy(m);
}

int main(void) {
  RUN(cumsum_becomes_a_tree);
  RUN(long_scans_recurse);
  RUN(every_scan_kind);
  RUN(must_not_fire);
  RUN(float_cumsum_matches_xla);
  RUN(bf16_cumsum_matches_xla);
  return test_summary("test_pass_reduce_window");
}
