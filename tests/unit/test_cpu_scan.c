/* The cpu backend's scan routine (src/cpu/rt_window.c) against the
 * interpreter on the module as reduce-window-rewriter rewrites it: the
 * backend keeps whole-prefix scans as reduce-windows (the optimizer's
 * keep_scans) and must compute the rewriter's tree order, bit for bit —
 * rows of 16 scanned from init, the rows' totals scanned by the same tree
 * and shifted, combined by the reducer. Forward, reverse and exclusive
 * scans, the scanned dim last or not, lengths around the tree's levels
 * (1..40, 255..257, 4097, 2^20), every type and reducer the routine takes,
 * 1 and 3 threads, every vector variant; and scans it must leave alone. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "verify/verify.h"
#include "passes/pass.h"
#include "runtime/threadpool.h"

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

/* reduce-window of x[xs] -> [os] with init and the reducer op. */
static const char *scan(const char *type, const char *op, const char *init, const char *xs, const char *os,
                        const char *win) {
  return fmt("HloModule m\n\nr {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT c = %s[] %s(a, b)\n}\n\n"
             "ENTRY e {\n  x = %s[%s] parameter(0)\n  i = %s[] constant(%s)\n"
             "  ROOT p = %s[%s] reduce-window(x, i), window={%s}, to_apply=r\n}\n",
             type, type, type, op, type, xs, type, init, type, os, win);
}

/* Arguments whose sums round in every order: values with many mantissa
 * bits in [-4, 4) (near 1 for products), every 29th -0; `nans`: every
 * 1001st a NaN. Integers in [-50, 50). */
static cxla_status args_for(const HloModule *m, bool mul, bool nans, Literal ***out) {
  TRY(cpu_vs_interp_args(m, out));
  Literal *a = (*out)[0];
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int64_t e = 0; e < a->nelems; e++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double u = (double)(x >> 11) / 9007199254740992.0;
    double v = type_kind(a->type) == TK_FLOAT ? (mul ? 0.75 + u / 2 : u * 8 - 4) : (double)((int64_t)(u * 100) - 50);
    if (type_kind(a->type) == TK_FLOAT && e % 29 == 28) v = -0.0;
    if (nans && e % 1001 == 1000) v = NAN;
    literal_set_f64(a, e, v);
  }
  return NULL;
}

static bool same_bits(const char *name, const char *what, const Literal *w, const Literal *g) {
  if (w->type != g->type || w->nelems != g->nelems) {
    fprintf(stderr, "%s: %s: shapes differ\n", name, what);
    return false;
  }
  size_t es = (size_t)type_bytes(w->type);
  for (int64_t i = 0; i < w->nelems; i++) {
    const char *a = (const char *)w->data + (size_t)i * es, *b = (const char *)g->data + (size_t)i * es;
    double x = literal_get_f64(w, i), y = literal_get_f64(g, i);
    if (isnan(x) && isnan(y)) continue;
    if (memcmp(a, b, es)) {
      fprintf(stderr, "%s: %s: element %lld: want %.17g got %.17g\n", name, what, (long long)i, x, y);
      return false;
    }
  }
  return true;
}

/* The cpu backend on the module as written against the interpreter on the
 * rewritten one, bit for bit (each vector variant, 1 and 3 threads);
 * whether the routine runs it must be `routine`. */
static bool check(const char *name, const char *text, bool routine, bool nans) {
  cxla_module *m = NULL, *rw = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  bool mul = strstr(text, "multiply(") != NULL;
  static const char *const kRewriter[] = {"reduce-window-rewriter"};
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cxla_module_parse(text, strlen(text), name, &rw);
  if (!s) s = pipeline_run(rw, kRewriter, 1, &po);
  if (!s) s = args_for(m, mul, nans, &args);
  if (!s) s = cxla_interp_run(rw, args, m->entry->nparams, &want);
  setenv("CXLA_CPU_GRAIN", "1", 1);
  /* a scan the routine leaves is rewritten for the cpu backend too */
  if (!s) s = cpu_compile(routine ? m : rw, NULL, &x);
  unsetenv("CXLA_CPU_GRAIN");
  if (!s) s = rt_pool_create(3, &pool);
  bool ok = !s;
  static const char *const caps[] = {"base", "avx2", NULL};
  for (int i = 0; ok && i < 3; i++) {
    if (caps[i]) setenv("CXLA_CPU_WINDOW_ISA", caps[i], 1);
    for (int threads = 1; ok && threads <= 3; threads += 2) {
      CpuExecOptions o = {.pool = threads > 1 ? pool : NULL};
      s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
      ok = !s && same_bits(name, fmt("isa %s, %d thread(s)", caps[i] ? caps[i] : "best", threads), want, got);
      literal_free(got);
      got = NULL;
    }
    unsetenv("CXLA_CPU_WINDOW_ISA");
  }
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  if (ok && (cpu_executable_stats(x)->nroutines > 0) != routine) {
    fprintf(stderr, "%s: routine %s, expected %s\n", name, routine ? "did not run" : "ran", routine ? "to run" : "not to");
    ok = false;
  }
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  cxla_module_destroy(rw);
  return ok;
}

/* A 1-D scan of n: forward / reverse, inclusive / exclusive. */
static bool one_d(const char *type, const char *op, const char *init, int64_t n, bool fwd, bool excl) {
  int64_t pad = excl ? n : n - 1;
  const char *win = fwd ? fmt("size=%lld pad=%lld_0", (long long)n, (long long)pad)
                        : fmt("size=%lld pad=0_%lld", (long long)n, (long long)pad);
  char name[96];
  snprintf(name, sizeof name, "%s_%s_%lld%s%s", type, op, (long long)n, fwd ? "" : "_rev", excl ? "_excl" : "");
  char xs[32], os[32];
  snprintf(xs, sizeof xs, "%lld", (long long)n);
  snprintf(os, sizeof os, "%lld", (long long)(n + (excl ? 1 : 0)));
  /* a window of 1 without padding is no scan */
  return check(name, scan(type, op, init, xs, os, win), n > 1 || excl, false);
}

TEST(lengths) {
  for (int64_t n = 1; n <= 40; n++) {
    CHECK(one_d("f32", "add", "0", n, true, false));
    CHECK(one_d("f32", "add", "0", n, false, false));
  }
  static const int64_t kLong[] = {255, 256, 257, 4097};
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 4; k++) CHECK(one_d("f32", "add", "0", kLong[i], k & 1, k & 2));
  CHECK(one_d("f32", "add", "0", 1 << 20, true, false));
  CHECK(one_d("f32", "add", "0", 1 << 20, false, true));
}

TEST(types_and_reducers) {
  static const char *const kTypes[] = {"f32", "f64", "s32", "s64"};
  static const char *const kOps[] = {"add", "multiply", "maximum", "minimum"};
  static const char *const kInit[4][4] = {{"0", "1", "-inf", "inf"},
                                          {"0", "1", "-inf", "inf"},
                                          {"0", "1", "-2147483648", "2147483647"},
                                          {"0", "1", "-9223372036854775808", "9223372036854775807"}};
  for (int t = 0; t < 4; t++)
    for (int o = 0; o < 4; o++)
      for (int k = 0; k < 4; k++) CHECK(one_d(kTypes[t], kOps[o], kInit[t][o], 300, k & 1, k & 2));
  /* an init that is not the reducer's identity is folded in at every level */
  CHECK(check("f32_add_init", scan("f32", "add", "0.3", "1000", "1000", "size=1000 pad=999_0"), true, false));
  CHECK(check("f32_add_init_rev", scan("f32", "add", "0.3", "1000", "1001", "size=1000 pad=0_1000"), true, false));
  /* NaNs */
  CHECK(check("f32_max_nan", scan("f32", "maximum", "-inf", "5000", "5000", "size=5000 pad=4999_0"), true, true));
  CHECK(check("f32_add_nan", scan("f32", "add", "0", "5000", "5000", "size=5000 pad=0_4999"), true, true));
}

TEST(several_rows) {
  /* the scanned dim first, in the middle, last, with several lines */
  CHECK(check("mid", scan("f32", "add", "0", "3,300,5", "3,300,5", "size=1x300x1 pad=0_0x299_0x0_0"), true, false));
  CHECK(check("mid_rev_excl", scan("f64", "add", "0", "3,300,5", "3,301,5", "size=1x300x1 pad=0_0x0_300x0_0"),
              true, false));
  CHECK(check("first", scan("f32", "multiply", "1", "40,17", "40,17", "size=40x1 pad=39_0x0_0"), true, false));
  CHECK(check("last", scan("s32", "add", "0", "7,1000", "7,1000", "size=1x1000 pad=0_0x999_0"), true, false));
  CHECK(check("last_rev", scan("f32", "add", "0", "7,1000", "7,1000", "size=1x1000 pad=0_0x0_999"), true, false));
  CHECK(check("wide_inner", scan("f32", "maximum", "-inf", "70,2,33", "71,2,33", "size=70x1x1 pad=70_0x0_0x0_0"),
              true, false));
}

TEST(must_not_fire) {
  /* not a whole prefix, strided, dilated, two scanned dims, other types */
  CHECK(check("window_short", scan("f32", "add", "0", "200", "200", "size=199 pad=198_0"), false, false));
  CHECK(check("strided", scan("f32", "add", "0", "200", "100", "size=200 stride=2 pad=199_0"), false, false));
  CHECK(check("two_dims", scan("f32", "add", "0", "20,20", "20,20", "size=20x20 pad=19_0x19_0"), false, false));
  CHECK(check("f16", scan("f16", "add", "0", "100", "100", "size=100 pad=99_0"), false, false));
  CHECK(check("both_pads", scan("f32", "add", "0", "100", "100", "size=100 pad=50_49"), false, false));
}

/* The optimizer with keep_scans (the cpu backend's) keeps exactly the
 * scans the routine takes; the default pipeline rewrites them all. */
static bool kept(const char *text, bool keep, const char *window) {
  cxla_module *m = NULL;
  char *out = NULL;
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), "m", &m);
  if (!s) s = keep ? pipeline_run_keep_scans(m, &po) : pipeline_run(m, NULL, 0, &po);
  if (!s) s = cxla_module_print(m, &out);
  bool k = !s && strstr(out, window) != NULL;
  if (s) fprintf(stderr, "kept: %s\n", cxla_status_message(s));
  cxla_status_free(s);
  cxla_free_string(out);
  cxla_module_destroy(m);
  return k;
}

TEST(optimizer_keeps) {
  const char *f32 = scan("f32", "add", "0", "1000", "1000", "size=1000 pad=999_0");
  CHECK(kept(f32, true, "size=1000 pad=999_0"));
  CHECK(!kept(f32, false, "size=1000 pad=999_0"));
  const char *rev = scan("s64", "maximum", "0", "5,100", "5,101", "size=1x100 pad=0_0x0_100");
  CHECK(kept(rev, true, "size=1x100 pad=0_0x0_100"));
  CHECK(!kept(rev, false, "size=1x100 pad=0_0x0_100"));
  /* f16: no routine, so rewritten as before */
  CHECK(!kept(scan("f16", "add", "0", "100", "100", "size=100 pad=99_0"), true, "size=100 pad=99_0"));
}

int main(void) {
  RUN(lengths);
  RUN(types_and_reducers);
  RUN(several_rows);
  RUN(must_not_fire);
  RUN(optimizer_keeps);
  return test_summary(__FILE__);
}
