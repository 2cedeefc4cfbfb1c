/* The cpu backend's window routines (src/cpu/rt_window.c) against the
 * interpreter: depthwise convolutions (summed in f32 against the
 * interpreter's double: a relative 1e-5 of the largest result), NHWC max
 * and sum pooling, select-and-scatter (the interpreter's fold order: bit
 * for bit; whole-prefix scans: test_cpu_scan.c), with the test arguments' NaNs
 * and -0s (wide depthwise windows also with finite arguments). Each case also says whether the routine must run it (the
 * executable has a routine step) or must leave it to the compiled kernels
 * (window on the channels, overlapping or padded select-and-scatter
 * windows, scans that do not cover the prefix, other layouts, ...), and
 * the routines split over a pool's threads give the single-thread bits.
 * Every case runs the AVX-512, AVX2 and plain variants the CPU has. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "verify/verify.h"
#include "runtime/threadpool.h"

/* Compiles text: whether a routine runs it, and whether 3 threads in
 * slices of one row give the bits of one thread. */
static bool routine_and_threads(const char *name, const char *text, bool *fired) {
  cxla_module *m = NULL;
  Literal **args = NULL, *one = NULL, *three = NULL;
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  setenv("CXLA_CPU_GRAIN", "1", 1);
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args(m, &args);
  if (!s) s = cpu_compile(m, NULL, &x);
  unsetenv("CXLA_CPU_GRAIN");
  if (!s) s = rt_pool_create(3, &pool);
  if (!s) s = cpu_execute(x, args, m->entry->nparams, &one);
  if (!s) {
    CpuExecOptions o = {.pool = pool};
    s = cpu_execute_opts(x, args, m->entry->nparams, &o, &three);
  }
  bool ok = !s;
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  else {
    *fired = cpu_executable_stats(x)->nroutines > 0;
    size_t n = (size_t)one->nelems * (size_t)type_bytes(one->type);
    ok = one->nelems == three->nelems && (n == 0 || memcmp(one->data, three->data, n) == 0);
    if (!ok) fprintf(stderr, "%s: 3 threads differ from 1\n", name);
  }
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(one);
  literal_free(three);
  rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* Finite arguments in [-1, 1): where a window is wide, cpu_vs_interp's
 * NaN every 17th element reaches nearly every output, which then says
 * nothing of the taps' order and placement. */
static double finite_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param, (void)e;
  return 2 * u - 1;
}

/* Agrees with the interpreter within rounding on finite_value's
 * arguments. */
static bool check_finite(const char *name, const char *text) {
  return cpu_vs_interp_fn(name, text, false, finite_value, NULL);
}

/* Agrees with the interpreter (exactly when `exact`), and a routine runs
 * it exactly when `routine`. */
static bool check(const char *name, const char *text, bool exact, bool routine) {
  bool fired = false;
  /* the AVX2 and plain variants too (the machine's best runs below) */
  static const char *const caps[] = {"base", "avx2"};
  for (int i = 0; i < 2; i++) {
    setenv("CXLA_CPU_WINDOW_ISA", caps[i], 1);
    bool ok = cpu_vs_interp(name, text, exact);
    unsetenv("CXLA_CPU_WINDOW_ISA");
    if (!ok) {
      fprintf(stderr, "%s: with CXLA_CPU_WINDOW_ISA=%s\n", name, caps[i]);
      return false;
    }
  }
  if (!cpu_vs_interp(name, text, exact)) return false;
  /* outputs stored around the caches (only large ops choose it) */
  setenv("CXLA_CPU_WINDOW_NT", "1", 1);
  bool nt_ok = cpu_vs_interp(name, text, exact);
  unsetenv("CXLA_CPU_WINDOW_NT");
  if (!nt_ok) {
    fprintf(stderr, "%s: with CXLA_CPU_WINDOW_NT=1\n", name);
    return false;
  }
  if (!routine_and_threads(name, text, &fired)) return false;
  if (fired != routine) fprintf(stderr, "%s: routine %s, expected %s\n", name, fired ? "ran" : "did not run",
                                routine ? "to run" : "not to");
  return fired == routine;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  static char buf[4][4096];
  static int k;
  va_list ap;
  va_start(ap, f);
  char *b = buf[k++ % 4];
  vsnprintf(b, sizeof buf[0], f, ap);
  va_end(ap);
  return b;
}

/* ---- depthwise convolutions ---- */

static const char *dw(const char *xs, const char *ks, const char *os, const char *win, int groups,
                      const char *labels) {
  return fmt("HloModule m\n\nENTRY e {\n  x = f32[%s] parameter(0)\n  k = f32[%s] parameter(1)\n"
             "  ROOT c = f32[%s] convolution(x, k), window={%s}, dim_labels=%s, feature_group_count=%d\n}\n",
             xs, ks, os, win, labels, groups);
}

TEST(depthwise) {
  const char *L = "b01f_01io->b01f";
  CHECK(check("dw_3x3_same", dw("2,9,10,32", "3,3,1,32", "2,9,10,32", "size=3x3 pad=1_1x1_1", 32, L), false, true));
  /* stride 1: blocks of 6 outputs across the row's interior (three, then
   * one single one; then one block and channels past the vectors) */
  CHECK(check("dw_3x3_blocks", dw("2,5,21,48", "3,3,1,48", "2,5,21,48", "size=3x3 pad=1_1x1_1", 48, L), false, true));
  /* rows with one or two rows of taps inside (padding 2 above and
   * below): the blocks take the taps from the right weight rows */
  CHECK(check("dw_3x3_edge_rows", dw("1,2,14,32", "3,3,1,32", "1,4,14,32", "size=3x3 pad=2_2x1_1", 32, L), false, true));
  /* windows 5 and 7 wide: blocks at the row's edges skip the columns
   * outside it, single outputs after the last block; 7 high over fewer
   * rows than the window, channels past the vectors; rows narrower than
   * a block; stride 2 (blocks too, each input column the tap of every
   * other output) */
  static const struct {
    const char *name, *xs, *ks, *os, *win;
    int c;
    bool finite; /* also on finite arguments (check_finite) */
  } wide[] = {
      {"dw_5x5_edges", "1,9,20,32", "5,5,1,32", "1,9,20,32", "size=5x5 pad=2_2x2_2", 32, true},
      {"dw_7x7_edges", "2,8,15,48", "7,7,1,48", "2,8,15,48", "size=7x7 pad=3_3x3_3", 48, true},
      {"dw_7x7_right", "1,3,12,16", "7,7,1,16", "1,3,12,16", "size=7x7 pad=3_3x3_3", 16, true},
      {"dw_7x7_tail", "1,5,13,40", "7,7,1,40", "1,5,13,40", "size=7x7 pad=3_3x3_3", 40, true},
      {"dw_5x3_uneven", "1,6,17,16", "3,5,1,16", "1,6,18,16", "size=3x5 pad=1_1x1_4", 16, true},
      {"dw_3x3_narrow", "1,5,4,16", "3,3,1,16", "1,5,4,16", "size=3x3 pad=1_1x1_1", 16, false},
      {"dw_3x3_s2", "1,9,26,32", "3,3,1,32", "1,4,13,32", "size=3x3 stride=2x2 pad=0_1x0_1", 32, true},
      {"dw_7x7_s2", "1,7,30,16", "7,7,1,16", "1,4,15,16", "size=7x7 stride=2x2 pad=3_3x3_3", 16, true},
      {"dw_5x5_s2", "1,11,23,32", "5,5,1,32", "1,6,12,32", "size=5x5 stride=2x2 pad=2_2x2_2", 32, true},
  };
  for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++) {
    const char *text = dw(wide[i].xs, wide[i].ks, wide[i].os, wide[i].win, wide[i].c, L);
    CHECK(check(wide[i].name, text, false, true));
    if (wide[i].finite) CHECK(check_finite(wide[i].name, text));
  }
  CHECK(check("dw_3x3_block_tail", dw("1,4,11,21", "3,3,1,21", "1,4,11,21", "size=3x3 pad=1_1x1_1", 21, L), false, true));
  /* 3x3 with AVX-512's pairs of channel vectors, then one vector, then
   * single channels; with stride and dilation (the next row prefetched
   * where it lies in the image) */
  CHECK(check("dw_3x3_pairs_tail", dw("2,7,9,57", "3,3,1,57", "2,7,9,57", "size=3x3 pad=1_1x1_1", 57, L), false, true));
  CHECK(check("dw_3x3_s2_d2", dw("1,13,12,40", "3,3,1,40", "1,7,6,40", "size=3x3 stride=2x2 pad=2_2x2_2 rhs_dilate=2x2", 40, L),
              false, true));
  /* channels past the last full vector, stride, dilation, uneven padding */
  CHECK(check("dw_stride_dil", dw("2,11,12,20", "3,2,1,20", "2,5,6,20", "size=3x2 stride=2x2 pad=0_2x1_0 rhs_dilate=2x2", 20, L),
              false, true));
  /* negative padding; window larger than the input (every pixel a border) */
  CHECK(check("dw_neg_pad", dw("1,8,9,17", "3,3,1,17", "1,5,9,17", "size=3x3 pad=-1_0x1_1", 17, L), false, true));
  CHECK(check("dw_big_window", dw("1,4,3,5", "5,5,1,5", "1,4,3,5", "size=5x5 pad=2_2x2_2", 5, L), false, true));
  CHECK(check("dw_1x1", dw("2,3,3,16", "1,1,1,16", "2,3,3,16", "size=1x1", 16, L), false, true));
  /* not depthwise in the routine's sense: channel multiplier 2, NCHW, base
   * dilation, groups of two channels */
  CHECK(check("dw_multiplier", dw("1,6,6,8", "3,3,1,16", "1,6,6,16", "size=3x3 pad=1_1x1_1", 8, L), false, false));
  CHECK(check("dw_nchw", dw("1,8,6,6", "8,1,3,3", "1,8,6,6", "size=3x3 pad=1_1x1_1", 8, "bf01_oi01->bf01"), false,
              false));
  CHECK(check("dw_lhs_dilate", dw("1,5,5,8", "3,3,1,8", "1,9,9,8", "size=3x3 pad=1_1x1_1 lhs_dilate=2x2", 8, L),
              false, false));
  CHECK(check("dw_groups_of_2", dw("1,6,6,8", "3,3,2,4", "1,6,6,4", "size=3x3 pad=1_1x1_1", 4, L), false, false));
}

/* ---- pooling ---- */

static const char *pool(const char *type, const char *op, const char *init, const char *xs, const char *os,
                        const char *win) {
  return fmt("HloModule m\n\nr {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT c = %s[] %s(a, b)\n}\n\n"
             "ENTRY e {\n  x = %s[%s] parameter(0)\n  i = %s[] constant(%s)\n"
             "  ROOT p = %s[%s] reduce-window(x, i), window={%s}, to_apply=r\n}\n",
             type, type, type, op, type, xs, type, init, type, os, win);
}

TEST(pooling) {
  CHECK(check("max_2x2", pool("f32", "maximum", "-inf", "2,8,8,20", "2,4,4,20", "size=1x2x2x1 stride=1x2x2x1"), true,
              true));
  CHECK(check("max_3x3_pad", pool("f32", "maximum", "-inf", "2,9,8,33", "2,5,4,33",
                                  "size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0"),
              true, true));
  /* channels in blocks of 4 vectors (64 floats with AVX-512) where every
   * tap is inside, then the rest: the padded border, the last channels */
  CHECK(check("max_2x2_wide", pool("f32", "maximum", "-inf", "2,8,8,80", "2,4,4,80", "size=1x2x2x1 stride=1x2x2x1"),
              true, true));
  CHECK(check("max_3x3_pad_wide", pool("f32", "maximum", "-inf", "1,9,8,136", "1,5,4,136",
                                       "size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0"),
              true, true));
  /* init -inf, which the routine starts from the first tap for: windows
   * wholly in the padding (no tap: init), dilated ones */
  CHECK(check("max_empty_windows", pool("f32", "maximum", "-inf", "1,4,5,16", "1,5,5,16",
                                        "size=1x2x2x1 stride=1x2x2x1 pad=0_0x3_3x3_3x0_0 rhs_dilate=1x1x2x1"),
              true, true));
  /* the init value is folded in (a relu'd max pool), window dilation */
  CHECK(check("max_init0_dil", pool("f32", "maximum", "0", "1,9,9,16", "1,4,4,16",
                                    "size=1x2x2x1 stride=1x2x2x1 rhs_dilate=1x2x2x1"),
              true, true));
  CHECK(check("sum_3x3", pool("f32", "add", "0.5", "2,6,7,19", "2,6,7,19",
                              "size=1x3x3x1 pad=0_0x1_1x1_1x0_0"),
              true, true));
  /* left to the kernels: window on the channels, other types and
   * reducers, base dilation, rank 3 */
  CHECK(check("max_on_channels", pool("f32", "maximum", "-inf", "1,8,8,16", "1,4,4,8", "size=1x2x2x2 stride=1x2x2x2"),
              true, false));
  CHECK(check("max_f64", pool("f64", "maximum", "-inf", "1,8,8,16", "1,4,4,16", "size=1x2x2x1 stride=1x2x2x1"), true,
              false));
  CHECK(check("min", pool("f32", "minimum", "inf", "1,8,8,16", "1,4,4,16", "size=1x2x2x1 stride=1x2x2x1"), true,
              false));
  CHECK(check("max_lhs_dilate", pool("f32", "maximum", "-inf", "1,4,4,16", "1,6,6,16",
                                     "size=1x2x2x1 lhs_dilate=1x2x2x1"),
              true, false));
  CHECK(check("max_rank3", pool("f32", "maximum", "-inf", "8,8,16", "4,4,16", "size=2x2x1 stride=2x2x1"), true, false));
}

/* Max pooling arguments with ties at zero: a quarter each -0, +0, negative
 * and positive integers, a NaN every 1999th element (most windows of 4
 * vectors of channels none, some one: then folded exactly). Where a
 * window's max is zero, it is +0 unless every zero tap is -0 (the
 * interpreter's fold). */
static double zeros_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param;
  if (e % 1999 == 1000) return NAN;
  return u < 0.25 ? -0.0 : u < 0.5 ? 0.0 : u < 0.75 ? -1 - floor(u * 16) : floor(u * 16);
}

/* Full windows over blocks of 64 channels (the routine's 4 vectors at a
 * time) and the rest, stored in place and around the caches; 9 taps (an
 * odd count) and 4. Fails where a tie at zero takes the wrong sign (a
 * plain maximum instruction's fold) or a NaN is dropped. */
TEST(pooling_signed_zeros) {
  static const char *const nts[] = {"0", "1"};
  for (int i = 0; i < 2; i++) {
    setenv("CXLA_CPU_WINDOW_NT", nts[i], 1);
    CHECK(cpu_vs_interp_fn("zeros_2x2", pool("f32", "maximum", "-inf", "2,16,16,128", "2,8,8,128",
                                             "size=1x2x2x1 stride=1x2x2x1"),
                           true, zeros_value, NULL));
    CHECK(cpu_vs_interp_fn("zeros_3x3", pool("f32", "maximum", "-inf", "1,17,17,80", "1,8,8,80",
                                             "size=1x3x3x1 stride=1x2x2x1"),
                           true, zeros_value, NULL));
    unsetenv("CXLA_CPU_WINDOW_NT");
  }
}

/* ---- select-and-scatter ---- */

static const char *sas(const char *dir, const char *xs, const char *ss, const char *win) {
  return fmt("HloModule m\n\nsel {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
             "  ROOT c = pred[] compare(a, b), direction=%s\n}\n\n"
             "sc {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n"
             "ENTRY e {\n  x = f32[%s] parameter(0)\n  s = f32[%s] parameter(1)\n  i = f32[] constant(0)\n"
             "  ROOT r = f32[%s] select-and-scatter(x, s, i), window={%s}, select=sel, scatter=sc\n}\n",
             dir, xs, ss, xs, win);
}

TEST(select_and_scatter) {
  CHECK(check("sas_2x2", sas("GE", "2,8,8,20", "2,4,4,20", "size=1x2x2x1 stride=1x2x2x1"), true, true));
  /* rows and columns no window reaches; GT picks the last of equals */
  CHECK(check("sas_uneven_gt", sas("GT", "1,7,9,17", "1,3,3,17", "size=1x2x3x1 stride=1x2x3x1"), true, true));
  CHECK(check("sas_gaps", sas("GE", "1,8,8,16", "1,3,3,16", "size=1x2x2x1 stride=1x3x3x1"), true, true));
  /* left to the kernels: overlapping windows, padding, LE select */
  CHECK(check("sas_overlap", sas("GE", "1,9,9,16", "1,4,4,16", "size=1x3x3x1 stride=1x2x2x1"), true, false));
  CHECK(check("sas_padded", sas("GE", "1,7,7,16", "1,4,4,16", "size=1x2x2x1 stride=1x2x2x1 pad=0_0x0_1x0_1x0_0"),
              true, false));
  CHECK(check("sas_le", sas("LE", "1,8,8,16", "1,4,4,16", "size=1x2x2x1 stride=1x2x2x1"), true, false));
}

/* ---- scans ---- */

static const char *scan(const char *type, const char *op, const char *init, const char *xs, const char *os,
                        const char *win) {
  return pool(type, op, init, xs, os, win);
}

/* Whole-prefix scans run in the rewriter's tree order: test_cpu_scan.c
 * checks them against the interpreter on the rewritten module. Here the
 * windows that are no whole-prefix scan, which the routine leaves. */
TEST(scans) {
  CHECK(check("window_short", scan("f32", "add", "0", "200", "200", "size=199 pad=198_0"), true, false));
  CHECK(check("strided", scan("f32", "add", "0", "200", "100", "size=200 stride=2 pad=199_0"), true, false));
  CHECK(check("base_dilated", scan("f32", "add", "0", "100", "199", "size=199 pad=198_0 lhs_dilate=2"), true, false));
}

int main(void) {
  RUN(depthwise);
  RUN(pooling);
  RUN(pooling_signed_zeros);
  RUN(select_and_scatter);
  RUN(scans);
  return test_summary(__FILE__);
}
