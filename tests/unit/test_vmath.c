/* The compiled transcendental functions (src/codegen/math.c) against true
 * values: each function is compiled by the cpu backend as `T[n] op(x)` and
 * its error measured in units of the result type's rounding (ulp), over
 *   (a) tables of inputs and results computed with mpmath
 *       (tests/gen/vmath_ref.py -> vmath_ref.h),
 *   (b) a sweep over every binary exponent of the type (several mantissas,
 *       both signs) against the C library's long double functions,
 *   (c) special values (zeros, infinities, NaN, subnormals read as zero
 *       under DAZ, domain edges, overflow thresholds), exactly,
 *   (d) for the functions computed in f32 arithmetic and sin and cos,
 *       every 997th f32 and the hardest arguments of sin/cos's reduction.
 * Documented bounds (f32_bound, kF64Bounds): every function is within 1 ulp
 * (f32: exp expm1 log log1p sin cos tan logistic sinh cosh asinh acosh
 * atanh cbrt atan asin acos erf atan2 pow; f32 tanh within 1.5 (math.c
 * v_tanh_f32: XLA:CPU's own is 4.9 ulp); f64: exp expm1 log log1p tanh
 * logistic sin cos tan cbrt atan atan2; the others are the C library's).
 * Results below the smallest normal may be flushed to zero (XLA:CPU's FTZ).
 *   test_vmath -v   prints the max error of each function */
#include <float.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "passes/pass.h"
#include "vmath_ref.h"

static bool g_verbose;

/* Runs `ty[n] op(a[, b])` on the cpu backend; results as doubles. The
 * arguments are rounded to the type (written back to a when `rounded`). */
static bool run_cpu_type(const char *op, const char *ty, ElemType et, double *a, const double *b, int64_t n,
                         double *out, bool rounded) {
  char text[512];
  if (b)
    snprintf(text, sizeof text,
             "HloModule m\nENTRY e {\n  a = %s[%lld] parameter(0)\n  b = %s[%lld] parameter(1)\n"
             "  ROOT r = %s[%lld] %s(a, b)\n}\n",
             ty, (long long)n, ty, (long long)n, ty, (long long)n, op);
  else
    snprintf(text, sizeof text, "HloModule m\nENTRY e {\n  a = %s[%lld] parameter(0)\n  ROOT r = %s[%lld] %s(a)\n}\n",
             ty, (long long)n, ty, (long long)n, op);
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  Literal *args[2] = {NULL, NULL}, *res = NULL;
  PipelineOptions o = {.verify = true, .module_number = 1};
  int nargs = b ? 2 : 1;
  cxla_status st = cxla_module_parse(text, strlen(text), op, &m);
  if (!st) st = pipeline_run(m, NULL, 0, &o);
  for (int i = 0; i < nargs && !st; i++) {
    st = literal_create(et, 1, &n, &args[i]);
    for (int64_t j = 0; !st && j < n; j++) literal_set_f64(args[i], j, (i ? b : a)[j]);
  }
  for (int64_t j = 0; rounded && !st && j < n; j++) a[j] = literal_get_f64(args[0], j);
  if (!st) st = cpu_compile(m, NULL, &x);
  if (!st) st = cpu_execute(x, args, nargs, &res);
  bool ok = !st;
  if (st) printf("%s %s: %s\n", op, ty, cxla_status_message(st));
  for (int64_t j = 0; ok && j < n; j++) out[j] = literal_get_f64(res, j);
  cxla_status_free(st);
  for (int i = 0; i < nargs; i++) literal_free(args[i]);
  literal_free(res);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

static bool run_cpu(const char *op, bool f64, const double *a, const double *b, int64_t n, double *out) {
  return run_cpu_type(op, f64 ? "f64" : "f32", f64 ? T_F64 : T_F32, (double *)a, b, n, out, false);
}

/* Error of `got` in ulps of the type against the true value hi + lo.
 * NaN and infinities must match; a true value that rounds past the type's
 * largest finite value must give infinity (within one ulp: the largest
 * finite value); a true value below the smallest normal may give zero. */
static double ulp_err(double got, double hi, double lo, bool f64) {
  int mant = f64 ? 52 : 23, emin = f64 ? -1022 : -126;
  double maxv = f64 ? DBL_MAX : FLT_MAX;
  if (isnan(hi) || isnan(got)) return isnan(hi) && isnan(got) ? 0 : INFINITY;
  if (isinf(hi)) return got == hi ? 0 : INFINITY;
  if (fabs(hi) < ldexp(1, emin) && got == 0) return 0;
  int ex = ilogb(hi);
  if (ex < emin) ex = emin;
  long double u = ldexpl(1, ex - mant);
  long double g = got;
  if (isinf(got)) {
    if (signbit(got) != signbit(hi)) return INFINITY;
    g = copysignl((long double)maxv + u, got); /* the next value past the largest */
  }
  return (double)(fabsl(g - ((long double)hi + lo)) / u);
}

typedef long double (*LdFn)(long double);
static long double logisticl(long double x) { return 1.0L / (1.0L + expl(-x)); }

static LdFn ld_fn(const char *name) {
  static const struct { const char *n; LdFn f; } k[] = {
      {"exp", expl},     {"expm1", expm1l}, {"log", logl},     {"log1p", log1pl}, {"sin", sinl},
      {"cos", cosl},     {"tan", tanl},     {"tanh", tanhl},   {"logistic", logisticl},
      {"sinh", sinhl},   {"cosh", coshl},   {"asinh", asinhl}, {"acosh", acoshl}, {"atanh", atanhl},
      {"cbrt", cbrtl},   {"atan", atanl},   {"asin", asinl},   {"acos", acosl},   {"erf", erfl}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (!strcmp(k[i].n, name)) return k[i].f;
  return NULL;
}

/* Special values with exact expected results (f32 and f64 alike): x, want;
 * +-1e-40 stands for a subnormal of the type (read as a signed zero). */
typedef struct { const char *fn; double x, want; } Special;
static const Special kSpecials[] = {
    {"exp", 0.0, 1}, {"exp", -0.0, 1}, {"exp", INFINITY, INFINITY}, {"exp", -INFINITY, 0},
    {"exp", NAN, NAN}, {"exp", 1e-40, 1}, {"exp", -1000, 0}, {"exp", 1000, INFINITY},
    {"expm1", -0.0, -0.0}, {"expm1", 0.0, 0.0}, {"expm1", -INFINITY, -1}, {"expm1", INFINITY, INFINITY},
    {"expm1", NAN, NAN}, {"expm1", -1000, -1}, {"expm1", 1000, INFINITY},
    {"log", 0.0, -INFINITY}, {"log", -0.0, -INFINITY}, {"log", 1e-40, -INFINITY}, {"log", 1, 0},
    {"log", -1, NAN}, {"log", -INFINITY, NAN}, {"log", INFINITY, INFINITY}, {"log", NAN, NAN},
    {"log1p", -0.0, -0.0}, {"log1p", 0.0, 0.0}, {"log1p", -1, -INFINITY}, {"log1p", -2, NAN},
    {"log1p", INFINITY, INFINITY}, {"log1p", -INFINITY, NAN}, {"log1p", NAN, NAN},
    {"sin", -0.0, -0.0}, {"sin", 0.0, 0.0}, {"sin", -1e-40, -0.0}, {"sin", INFINITY, NAN},
    {"sin", -INFINITY, NAN}, {"sin", NAN, NAN},
    {"cos", -0.0, 1}, {"cos", 1e-40, 1}, {"cos", INFINITY, NAN}, {"cos", NAN, NAN},
    {"tan", -0.0, -0.0}, {"tan", INFINITY, NAN}, {"tan", NAN, NAN},
    {"tanh", -0.0, -0.0}, {"tanh", 0.0, 0.0}, {"tanh", INFINITY, 1}, {"tanh", -INFINITY, -1},
    {"tanh", 1000, 1}, {"tanh", -1000, -1}, {"tanh", NAN, NAN}, {"tanh", -1e-40, -0.0}, {"tanh", 1e-40, 0.0},
    {"logistic", INFINITY, 1}, {"logistic", -INFINITY, 0}, {"logistic", 0, 0.5}, {"logistic", NAN, NAN},
    {"sinh", -0.0, -0.0}, {"sinh", INFINITY, INFINITY}, {"sinh", -INFINITY, -INFINITY}, {"sinh", NAN, NAN},
    {"cosh", -0.0, 1}, {"cosh", -INFINITY, INFINITY}, {"cosh", NAN, NAN},
    {"asinh", -0.0, -0.0}, {"asinh", -INFINITY, -INFINITY}, {"asinh", NAN, NAN},
    {"acosh", 1, 0}, {"acosh", INFINITY, INFINITY}, {"acosh", 0.5, NAN}, {"acosh", -3, NAN},
    {"acosh", -INFINITY, NAN}, {"acosh", NAN, NAN},
    {"atanh", -0.0, -0.0}, {"atanh", 1, INFINITY}, {"atanh", -1, -INFINITY}, {"atanh", 2, NAN},
    {"atanh", -INFINITY, NAN}, {"atanh", NAN, NAN},
    {"cbrt", -0.0, -0.0}, {"cbrt", -27, -3}, {"cbrt", 0.125, 0.5}, {"cbrt", -INFINITY, -INFINITY},
    {"cbrt", INFINITY, INFINITY}, {"cbrt", NAN, NAN}, {"cbrt", -1e-40, -0.0},
    {"atan", -0.0, -0.0}, {"atan", NAN, NAN},
    {"asin", -0.0, -0.0}, {"asin", 1.5, NAN}, {"asin", -1.5, NAN}, {"asin", NAN, NAN},
    {"acos", 1, 0}, {"acos", 1.5, NAN}, {"acos", NAN, NAN},
    {"erf", -0.0, -0.0}, {"erf", INFINITY, 1}, {"erf", -INFINITY, -1}, {"erf", 10, 1}, {"erf", NAN, NAN},
};

static bool same_value(double a, double b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}

typedef struct { const char *name; double bound; } Bound;
/* The documented f64 bounds (ulp); f32 functions are within 1 (f32_bound). */
static const Bound kF64Bounds[] = {{"exp", 1}, {"log", 1}, {"expm1", 1}, {"log1p", 1}, {"tanh", 1},
                                   {"logistic", 1}, {"sin", 1}, {"cos", 1}, {"tan", 1},
                                   {"cbrt", 1}, {"atan", 1}};
static const double kF32Bound = 1;
/* f32 tanh, computed in f32 with one division for two paths (math.c
 * v_tanh_f32), is within 1.5 ulp (1.22 by an emulation over every f32 in
 * [2^-14, 10]; the sweeps here read 1.21 on the compiled code): inside
 * XLA:CPU's own f32 tanh, a clamped rational approximation, at 4.9 ulp
 * (measured over every f32 against double tanh; 6.9 evaluated without fma). */
static double f32_bound(const char *fn) { return !strcmp(fn, "tanh") ? 1.5 : kF32Bound; }

/* One function on one type: table, sweep and specials in one compiled run. */
static void check_fn(const VTable *t, bool f64, double bound) {
  LdFn ld = ld_fn(t->name);
  int emin = f64 ? -1022 : -126, emax = f64 ? 1023 : 127, nm = f64 ? 6 : 24;
  int64_t nsweep = (int64_t)(emax - emin + 1) * nm * 2;
  int64_t nspec = (int64_t)(sizeof kSpecials / sizeof kSpecials[0]);
  int64_t cap = t->n + nsweep + nspec, n = 0;
  double *x = malloc(sizeof(double) * (size_t)cap), *got = malloc(sizeof(double) * (size_t)cap);
  CHECK(x && got && ld);
  if (!x || !got || !ld) goto out;
  for (int i = 0; i < t->n; i++) x[n++] = t->ref[i].x;
  int64_t sweep0 = n;
  uint64_t rs = 0x9e3779b97f4a7c15ull;
  for (int ex = emin; ex <= emax; ex++)
    for (int k = 0; k < nm; k++)
      for (int s = 0; s < 2; s++) {
        rs = rs * 6364136223846793005ull + 1442695040888963407ull;
        double m = 1 + (double)(rs >> 11) * 0x1p-53;
        double v = ldexp(s ? -m : m, ex);
        x[n++] = f64 ? v : (double)(float)v;
      }
  int64_t spec0 = n;
  for (int64_t i = 0; i < nspec; i++)
    if (!strcmp(kSpecials[i].fn, t->name)) {
      double v = kSpecials[i].x;
      if (fabs(v) == 1e-40 && f64) v = copysign(1e-310, v); /* a subnormal of the type */
      x[n++] = f64 ? v : (double)(float)v;
    }
  if (!run_cpu(t->op, f64, x, NULL, n, got)) {
    CHECK(!"compiles and runs");
    goto out;
  }
  double max_tab = 0, max_sweep = 0;
  for (int64_t i = 0; i < t->n; i++) {
    double err = ulp_err(got[i], t->ref[i].hi, t->ref[i].lo, f64);
    if (err > max_tab) max_tab = err;
    if (err > bound) {
      printf("  %s %s(%a) = %a, true %a (%.3g ulp)\n", f64 ? "f64" : "f32", t->name, x[i], got[i], t->ref[i].hi, err);
      CHECK(err <= bound);
    }
  }
  int bad = 0;
  for (int64_t i = sweep0; i < spec0; i++) {
    long double r = ld(x[i]);
    double hi = (double)r, lo = isfinite(hi) ? (double)(r - hi) : 0;
    if (!f64 && fabs(hi) > FLT_MAX && fabsl(r) >= (long double)FLT_MAX + ldexpl(1, 103)) hi = copysign(INFINITY, hi), lo = 0;
    if (f64 && fabsl(r) >= (long double)DBL_MAX + ldexpl(1, 970)) hi = copysign(INFINITY, hi), lo = 0;
    double err = ulp_err(got[i], hi, lo, f64);
    if (err > max_sweep) max_sweep = err;
    if (err > bound && bad++ < 5) {
      printf("  %s %s(%a) = %a, long double %a (%.3g ulp)\n", f64 ? "f64" : "f32", t->name, x[i], got[i], hi, err);
      CHECK(err <= bound);
    }
  }
  int si = 0;
  for (int64_t i = spec0; i < n; i++, si++) {
    while (strcmp(kSpecials[si].fn, t->name)) si++;
    double want = kSpecials[si].want;
    if (!same_value(got[i], want)) {
      printf("  %s %s(%a) = %a, want %a\n", f64 ? "f64" : "f32", t->name, x[i], got[i], want);
      CHECK(same_value(got[i], want));
    }
  }
  if (g_verbose)
    printf("  %s %-9s max ulp: table %.3f, sweep %.3f (bound %g; %lld specials)\n", f64 ? "f64" : "f32", t->name,
           max_tab, max_sweep, bound, (long long)(n - spec0));
out:
  free(x);
  free(got);
}

TEST(f32_functions) {
  for (size_t i = 0; i < sizeof kTables_f32 / sizeof kTables_f32[0]; i++)
    check_fn(&kTables_f32[i], false, f32_bound(kTables_f32[i].name));
}

TEST(f64_functions) {
  for (size_t i = 0; i < sizeof kTables_f64 / sizeof kTables_f64[0]; i++) {
    double bound = -1;
    for (size_t j = 0; j < sizeof kF64Bounds / sizeof kF64Bounds[0]; j++)
      if (!strcmp(kF64Bounds[j].name, kTables_f64[i].name)) bound = kF64Bounds[j].bound;
    CHECK(bound > 0);
    check_fn(&kTables_f64[i], true, bound);
  }
}

/* atan2: the table, and the IEEE special cases. */
static void check_atan2(bool f64) {
  enum { NT = sizeof kRef_f32_atan2 / sizeof kRef_f32_atan2[0] };
  _Static_assert(sizeof kRef_f32_atan2 == sizeof kRef_f64_atan2, "equal tables");
  const VRef2 *ref = f64 ? kRef_f64_atan2 : kRef_f32_atan2;
  static const double pi = 3.14159265358979323846, h = pi / 2, q = pi / 4;
  static const struct { double y, x, want; } sp[] = {
      {0.0, 1, 0.0},   {-0.0, 1, -0.0},  {0.0, -1, pi},     {-0.0, -1, -pi},  {0.0, 0.0, 0.0},
      {-0.0, 0.0, -0.0}, {0.0, -0.0, pi}, {-0.0, -0.0, -pi}, {1, 0.0, h},      {-1, -0.0, -h},
      {INFINITY, INFINITY, q}, {-INFINITY, INFINITY, -q}, {INFINITY, -INFINITY, 3 * q},
      {-INFINITY, -INFINITY, -3 * q}, {INFINITY, 5, h}, {-INFINITY, -5, -h}, {5, INFINITY, 0.0},
      {-5, INFINITY, -0.0}, {5, -INFINITY, pi}, {-5, -INFINITY, -pi}, {NAN, 1, NAN}, {1, NAN, NAN}};
  enum { NS = sizeof sp / sizeof sp[0] };
  double y[NT + NS], x[NT + NS], got[NT + NS];
  for (int i = 0; i < NT; i++) y[i] = ref[i].a, x[i] = ref[i].b;
  for (int i = 0; i < NS; i++) y[NT + i] = sp[i].y, x[NT + i] = sp[i].x;
  if (!run_cpu("atan2", f64, y, x, NT + NS, got)) {
    CHECK(!"compiles and runs");
    return;
  }
  double mx = 0;
  for (int i = 0; i < NT; i++) {
    double err = ulp_err(got[i], ref[i].hi, ref[i].lo, f64);
    if (err > mx) mx = err;
    if (err > 1) printf("  atan2(%a, %a) = %a, true %a\n", y[i], x[i], got[i], ref[i].hi);
    CHECK(err <= 1);
  }
  for (int i = 0; i < NS; i++) {
    double want = isfinite(sp[i].want) && !f64 ? (double)(float)sp[i].want : sp[i].want;
    if (!same_value(got[NT + i], want)) printf("  atan2(%a, %a) = %a, want %a\n", y[NT + i], x[NT + i], got[NT + i], want);
    CHECK(same_value(got[NT + i], want));
  }
  if (g_verbose) printf("  %s atan2     max ulp: table %.3f\n", f64 ? "f64" : "f32", mx);
}

TEST(f32_atan2) { check_atan2(false); }
TEST(f64_atan2) { check_atan2(true); }

/* pow on f32: the table, and C99's special cases. */
TEST(f32_pow) {
  enum { NT = sizeof kRef_f32_pow / sizeof kRef_f32_pow[0] };
  static const struct { double x, y, want; } sp[] = {
      {NAN, 0.0, 1},       {2, -0.0, 1},          {1, NAN, 1},           {1, INFINITY, 1},
      {-1, INFINITY, 1},   {-1, -INFINITY, 1},    {NAN, 2, NAN},         {2, NAN, NAN},
      {0.0, 3, 0.0},       {-0.0, 3, -0.0},       {-0.0, 2, 0.0},        {-0.0, 0.5, 0.0},
      {0.0, -3, INFINITY}, {-0.0, -3, -INFINITY}, {-0.0, -2, INFINITY},  {0.0, -0.5, INFINITY},
      {INFINITY, 2, INFINITY}, {INFINITY, -2, 0.0}, {-INFINITY, 3, -INFINITY}, {-INFINITY, 2, INFINITY},
      {-INFINITY, -3, -0.0}, {-INFINITY, -0.5, 0.0}, {-INFINITY, 0.5, INFINITY},
      {0.5, INFINITY, 0.0}, {0.5, -INFINITY, INFINITY}, {2, INFINITY, INFINITY}, {2, -INFINITY, 0.0},
      {-2, 0.5, NAN},      {-8, 1.0 / 3, NAN},    {-2, 3, -8},           {-2, -2, 0.25},
      {2, 10, 1024},       {4, 0.5, 2},           {2, 200, INFINITY},    {2, -200, 0.0},
      {-2, 201, -INFINITY}};
  enum { NS = sizeof sp / sizeof sp[0] };
  double x[NT + NS], y[NT + NS], got[NT + NS];
  for (int i = 0; i < NT; i++) x[i] = kRef_f32_pow[i].a, y[i] = kRef_f32_pow[i].b;
  for (int i = 0; i < NS; i++) x[NT + i] = sp[i].x, y[NT + i] = (double)(float)sp[i].y;
  if (!run_cpu("power", false, x, y, NT + NS, got)) {
    CHECK(!"compiles and runs");
    return;
  }
  double mx = 0;
  for (int i = 0; i < NT; i++) {
    double err = ulp_err(got[i], kRef_f32_pow[i].hi, kRef_f32_pow[i].lo, false);
    if (err > mx) mx = err;
    if (err > kF32Bound) printf("  pow(%a, %a) = %a, true %a\n", x[i], y[i], got[i], kRef_f32_pow[i].hi);
    CHECK(err <= kF32Bound);
  }
  for (int i = 0; i < NS; i++) {
    if (!same_value(got[NT + i], sp[i].want)) printf("  pow(%a, %a) = %a, want %a\n", x[NT + i], y[NT + i], got[NT + i], sp[i].want);
    CHECK(same_value(got[NT + i], sp[i].want));
  }
  if (g_verbose) printf("  f32 pow       max ulp: table %.3f\n", mx);
}

/* bf16 and f16: computed in f32 and rounded once more, so within one unit
 * of the narrow type's rounding (normal results; f16 keeps subnormals). */
TEST(narrow_types) {
  static const struct { const char *fn, *op; } fns[] = {
      {"exp", "exponential"}, {"log", "log"}, {"sin", "sine"}, {"tanh", "tanh"}, {"erf", "erf"}};
  static const struct { const char *ty; ElemType et; int mant, emin; double maxv; } tys[] = {
      {"bf16", T_BF16, 7, -126, 0x1.fep+127}, {"f16", T_F16, 10, -14, 65504}};
  enum { N = 2 * 8 * 60 };
  for (size_t t = 0; t < 2; t++)
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
      double x[N], got[N], mx = 0;
      for (int i = 0; i < N; i++) x[i] = (i % 2 ? -1 : 1) * ldexp(1 + (i / 2 % 8) / 8.0, i / 16 - 20);
      if (!run_cpu_type(fns[f].op, tys[t].ty, tys[t].et, x, NULL, N, got, true)) {
        CHECK(!"compiles and runs");
        continue;
      }
      LdFn ld = ld_fn(fns[f].fn);
      for (int i = 0; i < N; i++) {
        long double r = ld(x[i]);
        if (isnan((double)r)) {
          CHECK(isnan(got[i]));
          continue;
        }
        if (fabsl(r) < ldexpl(1, tys[t].emin) || fabsl(r) > tys[t].maxv) continue;
        double err = (double)(fabsl(got[i] - r) / ldexpl(1, ilogbl(r) - tys[t].mant));
        if (err > mx) mx = err;
        if (err > 1) printf("  %s %s(%a) = %a, long double %La\n", tys[t].ty, fns[f].fn, x[i], got[i], r);
        CHECK(err <= 1);
      }
      if (g_verbose) printf("  %-4s %-9s max ulp: %.3f\n", tys[t].ty, fns[f].fn, mx);
    }
}

/* The f32 functions computed in f32 arithmetic (exp, tanh, logistic) and
 * sin and cos: every 997th f32 bit pattern (both signs, every exponent,
 * NaNs included) and the hardest arguments of sin and cos's reduction
 * against long double, within 1 ulp; the max error is printed under -v. */
TEST(f32_dense) {
  static const struct { const char *fn, *op; } fns[] = {{"exp", "exponential"}, {"tanh", "tanh"}, {"logistic", "logistic"}, {"sin", "sine"}, {"cos", "cosine"}, {"log", "log"}, {"log1p", "log-plus-one"}};
  enum { STEP = 997 };
  /* the f32 values below 2^12 nearest to multiples of pi/2 (an exhaustive
   * search with long double): the hardest for sin and cos's reduction */
  static const float hard[] = {0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f, 0x1.2d97c8p+2f, 0x1.f9cbe2p+9f,
                               0x1.2d97c8p+3f, 0x1.f9cbe2p+10f, 0x1.c463acp+3f, 0x1.921fb6p+0f};
  enum { NHARD = sizeof hard / sizeof hard[0] };
  int64_t nd = (int64_t)((0x100000000ull + STEP - 1) / STEP), n = nd + 2 * NHARD;
  double *x = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
  CHECK(x && got);
  if (!x || !got) goto out;
  for (int64_t i = 0; i < nd; i++) {
    uint32_t b = (uint32_t)((uint64_t)i * STEP);
    float f;
    memcpy(&f, &b, sizeof f);
    x[i] = f;
  }
  for (int i = 0; i < NHARD; i++) x[nd + 2 * i] = hard[i], x[nd + 2 * i + 1] = -hard[i];
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    if (!run_cpu(fns[k].op, false, x, NULL, n, got)) {
      CHECK(!"compiles and runs");
      continue;
    }
    LdFn ld = ld_fn(fns[k].fn);
    double mx = 0;
    int bad = 0;
    int64_t checked = 0;
    for (int64_t i = 0; i < n; i++) {
      double v = fabs(x[i]) < 0x1p-126 ? copysign(0.0, x[i]) : x[i]; /* DAZ */
      long double r = ld(v);
      double hi = (double)r, lo = isfinite(hi) ? (double)(r - hi) : 0;
      if (fabs(hi) > FLT_MAX && fabsl(r) >= (long double)FLT_MAX + ldexpl(1, 103)) hi = copysign(INFINITY, hi), lo = 0;
      double err = ulp_err(got[i], hi, lo, false);
      checked++;
      if (err > mx) mx = err;
      if (err > f32_bound(fns[k].fn) && bad++ < 5) {
        printf("  f32 %s(%a) = %a, long double %a (%.3g ulp)\n", fns[k].fn, x[i], got[i], hi, err);
        CHECK(err <= f32_bound(fns[k].fn));
      }
    }
    CHECK(checked == n);
    if (g_verbose) printf("  f32 %-9s max ulp over %lld values: %.3f\n", fns[k].fn, (long long)checked, mx);
  }
out:
  free(x);
  free(got);
}

/* Appends x and -x for every step-th f32 bit pattern x in [b0, b1] to
 * v from v[n]; returns the new count. */
static int64_t add_both_signs(double *v, int64_t n, uint32_t b0, uint32_t b1, uint32_t step) {
  for (uint32_t b = b0; b <= b1; b += step) {
    float f;
    memcpy(&f, &b, 4);
    v[n++] = f, v[n++] = -f;
  }
  return n;
}

/* f32 results got[0, n) of fn at x[0, n) against the long double ref,
 * each within bound ulp (a true value at or past FLT_MAX's rounding
 * boundary is infinity); the first 5 misses printed. Returns the largest
 * error. */
static double f32_sweep_check(const char *fn, const double *x, const double *got, int64_t n,
                              long double (*ref)(long double), double bound) {
  double mx = 0;
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    long double r = ref(x[i]);
    double h = (double)r, l = (double)(r - h);
    if (fabsl(r) >= (long double)FLT_MAX + ldexpl(1, 103)) h = INFINITY, l = 0;
    double err = ulp_err(got[i], h, l, false);
    if (err > mx) mx = err;
    if (err > bound && bad++ < 5) {
      printf("  f32 %s(%a) = %a, long double %a (%.3g ulp)\n", fn, x[i], got[i], h, err);
      CHECK(err <= bound);
    }
  }
  return mx;
}

/* Appends edge_x[0, ne) and a NaN to x[0, n) (sweep values, capacity for
 * them), runs op on the cpu backend, and checks the sweep within fn's
 * bound against ref, each edge's result exactly (edge_want) and the NaN;
 * returns the sweep's max ulp error (0 when it did not run). */
static double sweep_with_edges(const char *fn, const char *op, long double (*ref)(long double), double *x,
                               double *got, int64_t n, const float *edge_x, const float *edge_want, int ne) {
  int64_t e0 = n;
  for (int i = 0; i < ne; i++) x[n++] = edge_x[i];
  x[n++] = NAN;
  if (!run_cpu(op, false, x, NULL, n, got)) {
    CHECK(!"compiles and runs");
    return 0;
  }
  double mx = f32_sweep_check(fn, x, got, e0, ref, f32_bound(fn));
  for (int i = 0; i < ne; i++)
    if (!same_value(got[e0 + i], edge_want[i])) {
      printf("  f32 %s(%a) = %a, want %a\n", fn, x[e0 + i], got[e0 + i], (double)edge_want[i]);
      CHECK(same_value(got[e0 + i], edge_want[i]));
    }
  CHECK(isnan(got[n - 1]));
  return mx;
}

/* f32 erf in f32 arithmetic (math.c v_erf_f32: a + a P(a^2) below
 * 0.875, K - t Q(t) about two centres on [0.875, 2.25) and [2.25, 3.92],
 * 1 beyond): the 65536 f32 either side of the two joins and of 3.92,
 * every 61st from 2^-20 to 4 and every 4099th below 2^-20, both
 * signs, against long double within 1 ulp; the edges exactly (signed
 * zeros, subnormals read as zero, +-1 from 3.92 on and at +-inf, NaN). */
TEST(f32_erf_ranges) {
  static const float edge_x[] = {0.0f, -0.0f, 0x1p-149f, -0x1.fffffcp-127f, 3.92f, -3.92f, 4.0f, 1e30f, INFINITY, -INFINITY};
  static const float edge_want[] = {0.0f, -0.0f, 0.0f, -0.0f, 1, -1, 1, 1, 1, -1};
  enum { NE = sizeof edge_x / sizeof edge_x[0] };
  static const float joins[] = {0.875f, 2.25f, 3.92f};
  uint32_t lo, hi;
  float f0 = 0x1p-20f, f1 = 4.0f, f2 = 0x1p-126f;
  memcpy(&lo, &f0, 4), memcpy(&hi, &f1, 4);
  uint32_t tiny;
  memcpy(&tiny, &f2, 4);
  int64_t cap = 2 * ((hi - lo) / 61 + (lo - tiny) / 4099 + 3 * (2 * 65536 + 2) + 4) + NE + 1, n = 0;
  double *x = malloc(sizeof(double) * (size_t)cap), *got = malloc(sizeof(double) * (size_t)cap);
  CHECK(x && got);
  if (!x || !got) goto out;
  for (int j = 0; j < 3; j++) {
    uint32_t b;
    memcpy(&b, &joins[j], 4);
    n = add_both_signs(x, n, b - 65536, b + 65536, 1);
  }
  n = add_both_signs(x, n, lo, hi, 61);
  n = add_both_signs(x, n, tiny, lo, 4099);
  CHECK(n + NE + 1 <= cap);
  double mx = sweep_with_edges("erf", "erf", erfl, x, got, n, edge_x, edge_want, NE);
  if (g_verbose) printf("  f32 erf dense: max ulp %.3f over %lld values\n", mx, (long long)n);
out:
  free(x);
  free(got);
}

/* f32 sin or cos results got[0, n) at x[0, n) against long double, as
 * the compiled code computes them: a subnormal x read as a signed zero
 * (DAZ), the zero's sign kept (sin(-0) = -0), every result within
 * f32_bound ulp; the first 5 misses printed (with tag). Returns the
 * largest error, its argument in *at if at is not NULL. */
static double f32_trig_check(const char *fn, const double *x, const double *got, int64_t n, const char *tag,
                             double *at) {
  LdFn ld = ld_fn(fn);
  double mx = 0, bound = f32_bound(fn);
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double v = fabs(x[i]) < 0x1p-126 ? copysign(0.0, x[i]) : x[i]; /* DAZ */
    long double r = ld(v);
    double hi = (double)r, lo = isfinite(hi) ? (double)(r - hi) : 0;
    double err = ulp_err(got[i], hi, lo, false);
    if (v == 0 && !same_value(got[i], hi)) err = INFINITY;
    if (err > mx) {
      mx = err;
      if (at) *at = x[i];
    }
    if (err > bound && bad++ < 5) {
      printf("  f32 %s(%a) = %a, long double %a (%.3g ulp; %s)\n", fn, x[i], got[i], hi, err, tag);
      CHECK(err <= bound);
    }
  }
  return mx;
}

/* f32 tanh's two paths (math.c v_tanh_f32: a + a^3 R(a^2) below 1, 1 -
 * 2/(1 + exp(2|x|)) from there, |x| clamped at 10): every 3rd f32 in
 * [0.74, 1.26] (the join, where the exp path's error weighs most: moved
 * to 0.75 it fails, 1.8 ulp, as does a degree lower of exp's polynomial) and every
 * 5th in [8.9, 10.5] (both signs) against long double, within f32_bound;
 * the edges exactly: signed zeros and subnormals (DAZ: signed zeros),
 * +-inf and the clamp's neighbourhood (+-1), NaN. */
TEST(f32_tanh_paths) {
  static const float edge_x[] = {0.0f, -0.0f, 0x1p-149f, -0x1p-149f, 0x1.fffffcp-127f, INFINITY, -INFINITY,
                                 9.5f, 10.0f, -10.0f, 0x1.400002p+3f, 1e30f, -FLT_MAX};
  static const float edge_want[] = {0.0f, -0.0f, 0.0f, -0.0f, 0.0f, 1, -1, 1, 1, -1, 1, 1, -1};
  enum { NE = sizeof edge_x / sizeof edge_x[0] };
  float lo1 = 0.74f, hi1 = 1.26f, lo2 = 8.9f, hi2 = 10.5f;
  uint32_t b0, b1, b2, b3;
  memcpy(&b0, &lo1, 4), memcpy(&b1, &hi1, 4), memcpy(&b2, &lo2, 4), memcpy(&b3, &hi2, 4);
  int64_t cap = 2 * ((int64_t)(b1 - b0) / 3 + (b3 - b2) / 5 + 2) + NE + 1, n = 0;
  double *x = malloc(sizeof(double) * (size_t)cap), *got = malloc(sizeof(double) * (size_t)cap);
  CHECK(x && got);
  if (!x || !got) goto out;
  n = add_both_signs(x, n, b0, b1, 3);
  n = add_both_signs(x, n, b2, b3, 5);
  double mx = sweep_with_edges("tanh", "tanh", tanhl, x, got, n, edge_x, edge_want, NE);
  if (g_verbose) printf("  f32 tanh near 1 and 10: max ulp %.3f over %lld values\n", mx, (long long)n);
out:
  free(x);
  free(got);
}

/* f32 exp near its overflow and underflow thresholds (math.c v_exp_f32:
 * x clamped to [-88, 88.8], k capped at 127, the scaling one
 * multiplication by 2^k): every f32 in [86.5, 89] and [-89, -86.5] against
 * long double, within 1 ulp; exactly: the largest x whose exp is finite
 * gives a finite result and the next inf; the least whose exp is normal a
 * normal result and the one below a result below the smallest normal (zero
 * under FTZ); -88, -inf give 0, 88.8, inf and FLT_MAX give inf, NaN NaN. */
TEST(f32_exp_thresholds) {
  static const float edge_x[] = {-88.0f, -INFINITY, -FLT_MAX, 88.8f, INFINITY, FLT_MAX, 0x1.62e42ep+6f,
                                 0x1.62e430p+6f, -0x1.5d589ep+6f, -0x1.5d58a0p+6f};
  enum { NE = sizeof edge_x / sizeof edge_x[0] };
  float lo = 86.5f, hi = 89.0f;
  uint32_t b0, b1;
  memcpy(&b0, &lo, 4), memcpy(&b1, &hi, 4);
  int64_t cap = 2 * ((int64_t)(b1 - b0) + 1) + NE + 1, n = 0;
  double *x = malloc(sizeof(double) * (size_t)cap), *got = malloc(sizeof(double) * (size_t)cap);
  CHECK(x && got);
  if (!x || !got) goto out;
  n = add_both_signs(x, n, b0, b1, 1);
  int64_t e0 = n;
  for (int i = 0; i < NE; i++) x[n++] = edge_x[i];
  x[n++] = NAN;
  if (!run_cpu("exponential", false, x, NULL, n, got)) {
    CHECK(!"compiles and runs");
    goto out;
  }
  double mx = f32_sweep_check("exp", x, got, e0, expl, 1);
  const double *g = got + e0;
  CHECK(g[0] == 0 && g[1] == 0 && g[2] == 0);
  CHECK(g[3] == INFINITY && g[4] == INFINITY && g[5] == INFINITY);
  CHECK(isfinite(g[6]) && g[6] > 3.4e38 && g[7] == INFINITY);
  CHECK(g[8] >= 0x1p-126 && g[9] < 0x1p-126);
  CHECK(isnan(got[n - 1]));
  if (g_verbose) printf("  f32 exp near its thresholds: max ulp %.3f over %lld values\n", mx, (long long)e0);
out:
  free(x);
  free(got);
}

/* f32 sin and cos with the argument reduced in f32 (math.c
 * trig_reduce_f32f: |x| < 2^16, when every element of a chunk of 1024 is):
 * runs whose arguments are all below 2^16 (every 9973rd f32 bit pattern
 * below it, the hardest arguments for the reduction and their neighbours,
 * the largest f32 values below 2^16, signed zeros and subnormals), then
 * runs at and beyond 2^16 (the reduction in double) and with NaN and
 * infinities; within 1 ulp of long double, zeros' signs exact. */
TEST(f32_trig_f32_reduction) {
  static const struct { const char *fn, *op; } fns[] = {{"sin", "sine"}, {"cos", "cosine"}};
  static const float hard[] = {0x1.f9cbe2p+7f, 0x1.f9cbe2p+8f, 0x1.2d97c8p+2f, 0x1.f9cbe2p+9f,
                               0x1.2d97c8p+3f, 0x1.f9cbe2p+10f, 0x1.c463acp+3f, 0x1.921fb6p+0f,
                               0x1.f9cbe2p+11f, 0x1.f9cbe2p+12f, 0x1.f9cbe2p+13f, 0x1.f9cbe2p+14f,
                               0x1.f9cbe2p+15f};
  enum { NHARD = sizeof hard / sizeof hard[0], CAP = 1 << 20 };
  double *x = malloc(sizeof(double) * CAP), *got = malloc(sizeof(double) * CAP);
  CHECK(x && got);
  for (int run = 0; x && got && run < 2; run++) {
    int64_t n = 0;
    if (run == 0) {
      for (uint32_t b = 0; b < 0x47800000u; b += 9973) { /* 2^16 */
        float f;
        memcpy(&f, &b, sizeof f);
        x[n++] = f, x[n++] = -f;
      }
      for (int i = 0; i < NHARD; i++)
        for (int d = -2; d <= 2; d++) {
          float f = hard[i];
          for (int j = 0; j < (d < 0 ? -d : d); j++) f = nextafterf(f, d < 0 ? 0 : INFINITY);
          if (f < 0x1p16f) x[n++] = f, x[n++] = -f;
        }
      for (float f = 0x1p16f, j = 0; j < 64; j++) f = nextafterf(f, 0), x[n++] = f, x[n++] = -f;
      x[n++] = 0.0, x[n++] = -0.0, x[n++] = 1e-40, x[n++] = -1e-40, x[n++] = 0x1p-126, x[n++] = -0x1p-149;
    } else {
      for (float f = 0x1p16f, j = 0; j < 64; j++) x[n++] = f, x[n++] = -f, f = nextafterf(f, INFINITY);
      static const double more[] = {70000.5, 1048575.9, 1048576, 3e9, 1e30, FLT_MAX, INFINITY, NAN};
      for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) x[n++] = (float)more[i], x[n++] = -(float)more[i];
    }
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
      if (!run_cpu(fns[k].op, false, x, NULL, n, got)) {
        CHECK(!"compiles and runs");
        continue;
      }
      double mx = f32_trig_check(fns[k].fn, x, got, n, run ? "from 2^16" : "below 2^16", NULL);
      if (g_verbose) printf("  f32 %-4s %s 2^16: max ulp %.3f over %lld values\n", fns[k].fn,
                            run ? "from" : "below", mx, (long long)n);
    }
  }
  free(x);
  free(got);
}

/* f32 sin and cos of an argument below 2^16 are the same bits whichever
 * pass computes them: alone (the f32 reduction), in chunks with a NaN (the
 * reduction in double for the others), with a value beyond 2^20 (the
 * exact one), with 2^16 (cg.c skips the f32 pass for the chunks after). */
TEST(f32_trig_same_any_pass) {
  static const char *ops[] = {"sine", "cosine"};
  enum { N = 8192 };
  double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
  double *a = malloc(sizeof(double) * N), *b = malloc(sizeof(double) * N);
  CHECK(x && y && a && b);
  for (int k = 0; x && y && a && b && k < 2; k++) {
    for (int i = 0; i < N; i++) {
      float f = (float)(sin(i * 0.731) * (i % 3 == 0 ? 60000.0 : 30.0));
      x[i] = y[i] = f;
    }
    for (int c = 0; c < N / 1024; c++) y[c * 1024 + 5] = c % 3 == 0 ? NAN : c % 3 == 1 ? 3e9 : 65536.0;
    CHECK(run_cpu(ops[k], false, x, NULL, N, a));
    CHECK(run_cpu(ops[k], false, y, NULL, N, b));
    int bad = 0;
    for (int i = 0; i < N; i++)
      if (i % 1024 != 5 && !same_value(a[i], b[i]) && bad++ < 5) {
        printf("  f32 %s(%a): %a alone, %a beside a slow argument\n", ops[k], x[i], a[i], b[i]);
        CHECK(same_value(a[i], b[i]));
      }
  }
  free(x), free(y), free(a), free(b);
}

/* f32 sin and cos near the f32 reduction's bound (math.c trig_reduce_f32f,
 * cg.c em_spec_raise_f32): the f32 values nearest to each multiple
 * k pi/2 from 2^16 - 200 pi/2 up to 2^16 and their neighbours (the
 * reduction's largest k: a reduction without its tail rl is off by
 * hundreds of ulp there), all in chunks below the bound; then, in a chunk
 * of small arguments, one value at the bound or beyond (2^16, inf, NaN,
 * either sign: the flag is raised from |x|'s bits, so -NaN too) or just
 * below it (not raised). Every result within 1 ulp of long double (NaN
 * for NaN and inf). */
TEST(f32_trig_near_bound) {
  static const struct { const char *fn, *op; } fns[] = {{"sin", "sine"}, {"cos", "cosine"}};
  enum { N = 4096 };
  double *x = malloc(sizeof(double) * N), *got = malloc(sizeof(double) * N);
  CHECK(x && got);
  const float below = nextafterf(0x1p16f, 0);
  const double specials[] = {0x1p16, -0x1p16, below, -below, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -FLT_MAX};
  enum { NSPEC = sizeof specials / sizeof specials[0] };
  for (int run = 0; x && got && run <= NSPEC; run++) {
    int64_t n = 0;
    if (run == 0) {
      const long double pio2 = 1.5707963267948966192313216916397514L;
      for (int k = 41722; k > 41722 - 200 && n + 6 <= N; k--) {
        float f = (float)(k * pio2);
        if (f >= 0x1p16f) continue;
        float lo = nextafterf(f, 0), hi = nextafterf(f, INFINITY);
        x[n++] = f, x[n++] = -f, x[n++] = lo, x[n++] = -lo;
        if (hi < 0x1p16f) x[n++] = hi, x[n++] = -hi;
      }
    } else {
      for (; n < 2048; n++) x[n] = (float)(sin(n * 0.37) * 100);
      x[700] = specials[run - 1];
    }
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
      if (!run_cpu(fns[k].op, false, x, NULL, n, got)) {
        CHECK(!"compiles and runs");
        continue;
      }
      double mx = f32_trig_check(fns[k].fn, x, got, n, run ? "a special in the chunk" : "near k pi/2", NULL);
      if (g_verbose && run == 0)
        printf("  f32 %-4s nearest to k pi/2 below 2^16: max ulp %.3f over %lld values\n", fns[k].fn, mx, (long long)n);
    }
  }
  free(x);
  free(got);
}

/* `test_vmath --sweep97` (not part of `make test`: minutes): f32 sin and
 * cos at every 97th f32 bit pattern of magnitude below 2^20 (the fast
 * reduction's range; both signs), in runs of 2^22 values, against long
 * double, within 1 ulp; prints the max error of each. */
static void sweep97(void) {
  enum { STEP = 97, RUN = 1 << 22 };
  static const struct { const char *fn, *op; } fns[] = {{"sin", "sine"}, {"cos", "cosine"}};
  const uint32_t lim = 0x49800000u; /* 2^20 */
  double *x = malloc(sizeof(double) * RUN), *got = malloc(sizeof(double) * RUN);
  CHECK(x && got);
  for (size_t k = 0; x && got && k < sizeof fns / sizeof fns[0]; k++) {
    double mx = 0, at = 0;
    int64_t checked = 0;
    for (uint64_t b = 0; b < 2ull * lim;) {
      int64_t n = 0;
      for (; n < RUN && b < 2ull * lim; b += STEP) {
        uint32_t bits = b < lim ? (uint32_t)b : (uint32_t)(b - lim) | 0x80000000u;
        float f;
        memcpy(&f, &bits, sizeof f);
        x[n++] = f;
      }
      if (!run_cpu(fns[k].op, false, x, NULL, n, got)) {
        CHECK(!"compiles and runs");
        break;
      }
      double a = 0, e = f32_trig_check(fns[k].fn, x, got, n, "every 97th", &a);
      checked += n;
      if (e > mx) mx = e, at = a;
    }
    CHECK(checked > 0);
    printf("  f32 %-4s every %dth f32 below 2^20: max ulp %.3f at %a over %lld values\n", fns[k].fn, STEP, mx, at,
           (long long)checked);
  }
  free(x);
  free(got);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--sweep97")) {
    RUN(sweep97);
    return test_summary(__FILE__);
  }
  g_verbose = argc > 1 && !strcmp(argv[1], "-v");
  RUN(f32_functions);
  RUN(f64_functions);
  RUN(f32_atan2);
  RUN(f64_atan2);
  RUN(f32_pow);
  RUN(narrow_types);
  RUN(f32_dense);
  RUN(f32_tanh_paths);
  RUN(f32_erf_ranges);
  RUN(f32_exp_thresholds);
  RUN(f32_trig_f32_reduction);
  RUN(f32_trig_same_any_pass);
  RUN(f32_trig_near_bound);
  return test_summary(__FILE__);
}
