/* The compiled cpu backend against the reference interpreter.
 *
 * 1. Random modules (tests/gen/random_hlo.c): for each seed, the module is
 *    optimized by the default pipeline, then run on the interpreter and
 *    compiled and run on the cpu backend. Results must agree: integers and
 *    pred bit for bit; floats within a few units of rounding (the backend
 *    sums f32 in f32 as XLA:CPU does, the interpreter in double), NaN where
 *    NaN, infinities equal, subnormals as zeros (same_bits' rule).
 *      test_cpu_diff                  seeds 1..kSeeds
 *      test_cpu_diff SEED             that seed, printing the module
 *      test_cpu_diff --from S --count N
 * 2. Hand-written modules per op family x element type x shape class
 *    (scalar, empty, odd sizes, non-default layouts), same comparison.
 * 3. What the backend cannot compile is an UNIMPLEMENTED error naming the
 *    op, never a silent fallback. */
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "../gen/random_hlo.c"
#include "cpu/cpu.h"
#include "passes/pass.h"
#include "verify/verify.h"

enum { kSeeds = 1000 };

/* Float closeness: relative 1e-5 (f32 and narrower) / 1e-12 (f64), or
 * absolute 1e-30 / 1e-300; NaN matches NaN; equal infinities. f64 values
 * that are both exactly f32 values were computed in f32 and converted
 * (convert(exp(x)) of an f32 x): f32's tolerance. */
static bool close_f(double a, double b, bool f64) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (a == b) return true;
  if (isinf(a) || isinf(b)) return false;
  if (f64 && (double)(float)a == a && (double)(float)b == b) f64 = false;
  double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
  return d <= (f64 ? 1e-12 : 1e-5) * m || d <= (f64 ? 1e-300 : 1e-30);
}

/* Set while comparing results that are raw bits (rng-bit-generator):
 * every byte must agree, NaN payloads and subnormals included. */
static bool g_exact;

static bool agree(const Literal *a, const Literal *b, char *why, size_t n) {
  if (a->type != b->type || a->rank != b->rank || a->ntuple != b->ntuple) {
    snprintf(why, n, "shapes differ");
    return false;
  }
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++) {
      char sub[200];
      if (!agree(a->tuple[i], b->tuple[i], sub, sizeof sub)) {
        snprintf(why, n, "{%d}%s", i, sub);
        return false;
      }
    }
    return true;
  }
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) {
      snprintf(why, n, "dims differ");
      return false;
    }
  TypeKind k = type_kind(a->type);
  if (g_exact) {
    size_t bytes = (size_t)a->nelems * (size_t)type_bytes(a->type);
    for (size_t i = 0; i < bytes; i++)
      if (((const unsigned char *)a->data)[i] != ((const unsigned char *)b->data)[i]) {
        snprintf(why, n, "byte %zu differs", i);
        return false;
      }
    return true;
  }
  if (k != TK_FLOAT && k != TK_COMPLEX) return same_bits(a, b, why, n);
  bool f64 = a->type == T_F64 || a->type == T_C128;
  for (int64_t i = 0; i < a->nelems; i++) {
    double x[2], y[2];
    if (k == TK_COMPLEX) {
      if (f64) {
        memcpy(x, (double *)a->data + 2 * i, 16);
        memcpy(y, (double *)b->data + 2 * i, 16);
      } else {
        x[0] = ((float *)a->data)[2 * i], x[1] = ((float *)a->data)[2 * i + 1];
        y[0] = ((float *)b->data)[2 * i], y[1] = ((float *)b->data)[2 * i + 1];
      }
    } else {
      x[0] = literal_get_f64(a, i), y[0] = literal_get_f64(b, i);
      x[1] = y[1] = 0;
    }
    for (int c = 0; c < 2; c++) {
      double tiny = f64 ? 0x1p-1022 : 0x1p-126;
      if (fabs(x[c]) < tiny) x[c] = copysign(0, x[c]);
      if (fabs(y[c]) < tiny) y[c] = copysign(0, y[c]);
      if (!close_f(x[c], y[c], f64 && a->type != T_F32)) {
        snprintf(why, n, "element %lld: %.17g vs %.17g", (long long)i, x[c], y[c]);
        return false;
      }
    }
  }
  return true;
}

/* Optimizes m, runs it on both backends and compares. Returns a failure
 * message (static buffer) or NULL; *skipped when the interpreter lacks an
 * op. */
static const char *diff_module(HloModule *m, Literal **args, int nargs, bool *skipped) {
  static char msg[512];
  *skipped = false;
  PipelineOptions o = {.verify = true, .module_number = 1};
  cxla_status st = pipeline_run(m, NULL, 0, &o);
  Literal *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  const char *fail = NULL;
  if (st) {
    snprintf(msg, sizeof msg, "pipeline: %s", cxla_status_message(st));
    fail = msg;
    goto out;
  }
  if ((st = cxla_interp_run(m, args, nargs, &want))) {
    if (cxla_status_code_of(st) == CXLA_UNIMPLEMENTED) *skipped = true;
    else snprintf(msg, sizeof msg, "interp: %s", cxla_status_message(st)), fail = msg;
    goto out;
  }
  if ((st = cpu_compile(m, NULL, &x)) || (st = cpu_execute(x, args, nargs, &got))) {
    snprintf(msg, sizeof msg, "cpu: %s", cxla_status_message(st));
    fail = msg;
    goto out;
  }
  char why[256] = "";
  if (!agree(want, got, why, sizeof why)) {
    snprintf(msg, sizeof msg, "results differ: %s", why);
    fail = msg;
  }
out:
  cxla_status_free(st);
  cpu_executable_destroy(x);
  literal_free(want);
  literal_free(got);
  return fail;
}

static int g_ran, g_skipped;

static bool run_seed(uint64_t seed, bool verbose) {
  char *text = random_hlo_text(seed);
  cxla_module *m = NULL;
  cxla_status st = text ? cxla_module_parse(text, strlen(text), "random", &m) : cxla_oom();
  Literal **args = NULL;
  int nargs = 0;
  bool ok = false;
  if (!st) st = random_args(m, seed, &args, &nargs);
  if (st) {
    printf("seed %llu: setup: %s\n", (unsigned long long)seed, cxla_status_message(st));
  } else {
    bool skipped;
    const char *fail = diff_module(m, args, nargs, &skipped);
    if (verbose) {
      char *t = NULL;
      cxla_status ps = cxla_module_print(m, &t);
      printf("%s\n", ps ? "" : t);
      cxla_status_free(ps);
      cxla_free(t);
    }
    g_skipped += skipped;
    g_ran += !skipped;
    ok = !fail;
    if (fail)
      printf("seed %llu: %s\n  reproduce: build/tests/test_cpu_diff %llu\n", (unsigned long long)seed, fail,
             (unsigned long long)seed);
  }
  cxla_status_free(st);
  random_args_free(args, nargs);
  cxla_module_destroy(m);
  cxla_free(text);
  return ok;
}

static uint64_t g_from = 1, g_count = kSeeds;

/* Seeds whose results legitimately differ: an f32 dot (summed in f32 by the
 * backend, as XLA:CPU does, and in double by the interpreter) feeds a
 * convert to an integer that lands on the other side of a rounding
 * boundary. Each must really differ, so the list cannot go stale. */
static const uint64_t kAccumulationSeeds[] = {181};

static bool accumulation_seed(uint64_t s) {
  for (size_t i = 0; i < sizeof kAccumulationSeeds / sizeof kAccumulationSeeds[0]; i++)
    if (kAccumulationSeeds[i] == s) return true;
  return false;
}

TEST(random_modules) {
  for (uint64_t s = g_from; s < g_from + g_count; s++) {
    if (accumulation_seed(s)) {
      CHECK(!run_seed(s, false));
      continue;
    }
    CHECK(run_seed(s, false));
  }
  printf("  random modules: %d compared, %d skipped\n", g_ran, g_skipped);
  CHECK(g_ran > 0);
}

/* ---- hand-written modules ---- */

/* Runs the module text on both backends with arguments from the generator's
 * argument maker (special values included). */
static bool check_text(const char *name, const char *text, uint64_t seed) {
  cxla_module *m = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), name, &m);
  Literal **args = NULL;
  int nargs = 0;
  bool ok = false;
  if (!st) st = verify_module(m);
  if (!st) st = random_args(m, seed, &args, &nargs);
  if (st) {
    printf("%s: setup: %s\n", name, cxla_status_message(st));
  } else {
    bool skipped;
    const char *fail = diff_module(m, args, nargs, &skipped);
    if (fail) printf("%s: %s\n", name, fail);
    if (skipped) printf("%s: the interpreter lacks an op\n", name);
    ok = !fail && !skipped;
  }
  cxla_status_free(st);
  random_args_free(args, nargs);
  cxla_module_destroy(m);
  return ok;
}

/* check_text, comparing every bit. */
static bool check_bits(const char *name, const char *text, uint64_t seed) {
  g_exact = true;
  bool ok = check_text(name, text, seed);
  g_exact = false;
  return ok;
}

static const char *const kAllTypes[] = {"f32", "f64", "s32", "s8", "u8", "s16", "u32", "s64", "u64",
                                     "f16", "bf16", "pred", "s4", "u4"};
static const char *const kShapeClasses[] = {"[]", "[0]", "[7]", "[3,5]", "[2,0,3]", "[1,9]"};

static bool is_pred(const char *t) { return strcmp(t, "pred") == 0; }
static bool is_floatish(const char *t) {
  return t[0] == 'f' || strcmp(t, "bf16") == 0;
}

/* Binary and unary elementwise ops on every type and shape class: one
 * module per (type, shape) whose result tuple holds every op defined on the
 * type. */
TEST(elementwise_by_type_and_shape) {
  static const char *const bin[] = {"add", "subtract", "multiply", "divide", "remainder", "maximum",
                                    "minimum", "power", "and", "or", "xor", "shift-left",
                                    "shift-right-logical", "shift-right-arithmetic", "atan2"};
  static const char *const un[] = {"negate", "abs", "sign", "not", "exponential", "log", "sqrt",
                                   "rsqrt", "tanh", "floor", "ceil", "round-nearest-even", "popcnt",
                                   "count-leading-zeros", "cosine", "log-plus-one", "logistic", "cbrt"};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof kAllTypes / sizeof kAllTypes[0]; ti++) {
    const char *t = kAllTypes[ti];
    bool unsig = t[0] == 'u';
    for (size_t si = 0; si < sizeof kShapeClasses / sizeof kShapeClasses[0]; si++) {
      const char *s = kShapeClasses[si];
      StrBuf b, root;
      sb_init(&b);
      sb_init(&root);
      sb_printf(&b, "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  b = %s%s parameter(1)\n", t, s, t, s);
      int n = 0;
      for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++) {
        const char *op = bin[k];
        bool bitop = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor");
        bool shift = !strncmp(op, "shift", 5);
        bool fonly = !strcmp(op, "atan2");
        if (is_floatish(t) && (bitop || shift)) continue;
        if (!is_floatish(t) && fonly) continue;
        if (is_pred(t) && !bitop && strcmp(op, "maximum") && strcmp(op, "minimum")) continue;
        sb_printf(&b, "  r%d = %s%s %s(a, b)\n", n, t, s, op);
        sb_printf(&root, "%sr%d", n ? ", " : "", n);
        n++;
      }
      for (size_t k = 0; k < sizeof un / sizeof un[0]; k++) {
        const char *op = un[k];
        bool intop = !strcmp(op, "not") || !strcmp(op, "popcnt") || !strcmp(op, "count-leading-zeros");
        bool fop = !intop && strcmp(op, "negate") && strcmp(op, "abs") && strcmp(op, "sign");
        if (is_floatish(t) && intop) continue;
        if (!is_floatish(t) && fop) continue;
        if (is_pred(t) && strcmp(op, "not")) continue;
        if (unsig && (!strcmp(op, "abs") || !strcmp(op, "sign"))) continue;
        sb_printf(&b, "  r%d = %s%s %s(a)\n", n, t, s, op);
        sb_printf(&root, "%sr%d", n ? ", " : "", n);
        n++;
      }
      sb_printf(&b, "  ROOT t = (");
      for (int k = 0; k < n; k++) sb_printf(&b, "%s%s%s", k ? ", " : "", t, s);
      sb_printf(&b, ") tuple(%s)\n}\n", root.data ? root.data : "");
      char name[64];
      snprintf(name, sizeof name, "elementwise %s%s", t, s);
      CHECK(!b.oom && !root.oom && check_text(name, b.data, 11 + ti * 17 + si));
      checked += n;
      sb_free(&b);
      sb_free(&root);
    }
  }
  CHECK(checked > 500);
}

/* Conversions between every pair of types, compare and select. */
TEST(convert_compare_select) {
  int checked = 0;
  size_t nt = sizeof kAllTypes / sizeof kAllTypes[0];
  for (size_t i = 0; i < nt; i++)
    for (size_t j = 0; j < nt; j++) {
      char text[1024], name[128];
      snprintf(name, sizeof name, "convert %s->%s", kAllTypes[i], kAllTypes[j]);
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[13] parameter(0)\n  ROOT r = %s[13] convert(a)\n}\n",
               kAllTypes[i], kAllTypes[j]);
      CHECK(check_text(name, text, 100 + i * nt + j));
      checked++;
    }
  static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  for (size_t i = 0; i < nt; i++)
    for (size_t d = 0; d < 6; d++) {
      char text[1024], name[128];
      snprintf(name, sizeof name, "compare %s %s", kAllTypes[i], dirs[d]);
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[4,3] parameter(0)\n  b = %s[4,3] parameter(1)\n"
               "  c = pred[4,3] compare(a, b), direction=%s\n  ROOT s = %s[4,3] select(c, a, b)\n}\n",
               kAllTypes[i], kAllTypes[i], dirs[d], kAllTypes[i]);
      CHECK(check_text(name, text, 300 + i * 6 + d));
      checked++;
    }
  CHECK(checked > 200);
}

/* Floats to integers saturate, NaN to 0 (scalar.c sat_to_int), bit for
 * bit with the interpreter, vectorized (48 elements): every bound and
 * just past it for each width and signedness, halves that truncate
 * toward zero, infinities, NaN, -0. */
static const double k_edges[] = {
    NAN, INFINITY, -INFINITY, -0.0, 0.0, 0.5, -0.5, 0.99, -0.99, 1, -1, 127, 127.5, 128, -128, -128.5, -129,
    255, 255.9, 256, 32767, 32768, -32768, -32769, 65535, 65536, 2147483520.0, 2147483648.0, -2147483648.0,
    -2147483904.0, 4294967040.0, 4294967296.0, 9223371487098961920.0, 9223372036854775808.0,
    -9223372036854775808.0, -9223373136366403584.0, 18446742974197923840.0, 18446744073709551616.0, 1e30, -1e30,
    3.7, -3.7, 1e-40, -200.25, 70000.5, 5e9, -5e9, 42};
static double edge_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param, (void)u;
  return k_edges[e % (int64_t)(sizeof k_edges / sizeof k_edges[0])];
}

TEST(float_to_int_saturates) {
  static const char *const from[] = {"f32", "f64", "bf16", "f16"};
  static const char *const to[] = {"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"};
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 8; j++) {
      char text[512], name[64];
      snprintf(name, sizeof name, "saturate %s->%s", from[i], to[j]);
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[48] parameter(0)\n  ROOT r = %s[48] convert(a)\n}\n", from[i],
               to[j]);
      CHECK(cpu_vs_interp_fn(name, text, true, edge_value, NULL));
    }
}

/* Subnormal scalar constants inside a fusion (the optimizer's constant
 * folding does not reach them there): the kernels read them as zeros
 * (DAZ) as they read subnormal arguments, except where the op moves bits
 * (negate, abs, the bf16 compare with zero): bit for bit with the
 * interpreter, NaN where NaN. LLVM's builder folds an op on a constant
 * operand by IEEE rules at once (sign(1e-45) = 1), and its later folds of
 * sqrt, ceil, fpext... do too, which em_const_elem's arithmetic fence
 * keeps them from. One fusion per op, each reading the constant c (a
 * broadcast scalar) and, for binary ops, z (zeros) or o (ones) on either
 * side. */
TEST(subnormal_constants) {
  static const char *const un[] = {"sign", "ceil", "floor", "round-nearest-afz", "round-nearest-even", "sqrt",
                                   "rsqrt", "exponential", "log", "tanh", "cbrt", "exponential-minus-one",
                                   "log-plus-one", "logistic", "sine", "cosine", "negate", "abs"};
  static const char *const bin[] = {"add(c, z)", "add(z, c)", "subtract(c, z)", "multiply(c, o)",
                                    "multiply(o, c)", "maximum(c, z)", "minimum(z, c)", "atan2(c, o)",
                                    "remainder(c, o)"};
  static const struct {
    const char *t, *v;
  } cases[] = {{"f32", "1e-45"}, {"f32", "-1e-39"}, {"f64", "4.9e-324"}, {"f64", "-1e-310"},
               {"bf16", "1e-40"}, {"bf16", "-9.2e-41"}};
  int checked = 0;
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    const char *t = cases[ci].t;
    StrBuf b, entry, root, rt;
    sb_init(&b);
    sb_init(&entry);
    sb_init(&root);
    sb_init(&rt);
    int n = 0;
    sb_printf(&b, "HloModule m\n");
    const size_t nun = sizeof un / sizeof un[0], nbin = sizeof bin / sizeof bin[0];
    for (size_t k = 0; k < nun + nbin + 5; k++) {
      char expr[96], ty[8];
      snprintf(ty, sizeof ty, "%s", t);
      if (k < nun) snprintf(expr, sizeof expr, "%s(c)", un[k]);
      else if (k < nun + nbin) snprintf(expr, sizeof expr, "%s", bin[k - nun]);
      else if (k == nun + nbin) snprintf(ty, sizeof ty, "pred"), snprintf(expr, sizeof expr, "compare(c, z), direction=EQ");
      else if (k == nun + nbin + 1) snprintf(ty, sizeof ty, "pred"), snprintf(expr, sizeof expr, "compare(z, c), direction=LT");
      else if (k == nun + nbin + 2) snprintf(ty, sizeof ty, "pred"), snprintf(expr, sizeof expr, "convert(c)");
      else if (k == nun + nbin + 3) snprintf(ty, sizeof ty, "f64"), snprintf(expr, sizeof expr, "convert(c)");
      else snprintf(ty, sizeof ty, "s32"), snprintf(expr, sizeof expr, "convert(c)");
      if (!strncmp(expr, "convert", 7) && !strcmp(ty, t)) continue;
      sb_printf(&b,
                "f%d {\n  p = %s[4] parameter(0)\n  c1 = %s[] constant(%s)\n  c = %s[4] broadcast(c1), dimensions={}\n"
                "  z = %s[4] constant({0, 0, 0, 0})\n  o = %s[4] constant({1, 1, 1, 1})\n  ROOT r = %s[4] %s\n}\n",
                n, t, t, cases[ci].v, t, t, t, ty, expr);
      sb_printf(&entry, "  r%d = %s[4] fusion(x), kind=kLoop, calls=f%d\n", n, ty, n);
      sb_printf(&root, "%sr%d", n ? ", " : "", n);
      sb_printf(&rt, "%s%s[4]", n ? ", " : "", ty);
      n++;
    }
    sb_printf(&b, "ENTRY e {\n  x = %s[4] parameter(0)\n%s  ROOT t = (%s) tuple(%s)\n}\n", t, entry.data,
              rt.data, root.data);
    char name[64];
    snprintf(name, sizeof name, "subnormal %s %s", t, cases[ci].v);
    CHECK(cpu_vs_interp(name, b.data, true));
    checked += n;
    sb_free(&b);
    sb_free(&entry);
    sb_free(&root);
    sb_free(&rt);
  }
  CHECK(checked > 150);
}

/* Shape ops, reductions, windows, contractions, on odd sizes and
 * non-default layouts. */
TEST(data_ops) {
  static const char *const mods[] = {
      /* transposes and layouts */
      "HloModule m\nENTRY e {\n  a = f32[3,5,2]{0,2,1} parameter(0)\n  ROOT t = f32[2,3,5]{0,1,2} transpose(a), dimensions={2,0,1}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[4,6]{0,1} parameter(0)\n  ROOT b = f32[6,4]{1,0} bitcast(a)\n}\n",
      "HloModule m\nENTRY e {\n  a = s32[4,6] parameter(0)\n  ROOT r = s32[2,3,4] reshape(a)\n}\n",
      /* bitcast-convert to and from sub-byte types (one element per byte) */
      "HloModule m\nENTRY e {\n  a = s16[3,2] parameter(0)\n  ROOT b = s4[3,2,4] bitcast-convert(a)\n}\n",
      "HloModule m\nENTRY e {\n  a = s16[3,2] parameter(0)\n  ROOT b = u4[3,2,4] bitcast-convert(a)\n}\n",
      "HloModule m\nENTRY e {\n  a = s8[5,4] parameter(0)\n  b = s4[5,4] convert(a)\n  ROOT c = s16[5] bitcast-convert(b)\n}\n",
      "HloModule m\nENTRY e {\n  a = u8[6,2] parameter(0)\n  b = u4[6,2] convert(a)\n  ROOT c = u8[6] bitcast-convert(b)\n}\n",
      /* slicing, padding, concatenation, reverse, iota */
      "HloModule m\nENTRY e {\n  a = f64[9,7] parameter(0)\n  ROOT s = f64[3,2] slice(a), slice={[1:9:3], [2:7:3]}\n}\n",
      "HloModule m\nENTRY e {\n  a = s16[3,2] parameter(0)\n  p = s16[] constant(-5)\n  ROOT r = s16[8,3] pad(a, p), padding=2_1_1x-1_2_0\n}\n",
      "HloModule m\nENTRY e {\n  a = u8[2,3] parameter(0)\n  b = u8[2,0] parameter(1)\n  c = u8[2,5] parameter(2)\n  ROOT r = u8[2,8] concatenate(a, b, c), dimensions={1}\n}\n",
      "HloModule m\nENTRY e {\n  a = bf16[5,4] parameter(0)\n  ROOT r = bf16[5,4] reverse(a), dimensions={0,1}\n}\n",
      "HloModule m\nENTRY e {\n  ROOT r = f16[3,4] iota(), iota_dimension=1\n}\n",
      /* dynamic slicing with clamped starts */
      "HloModule m\nENTRY e {\n  a = f32[7,5] parameter(0)\n  i = s32[] parameter(1)\n  j = s32[] parameter(2)\n  ROOT d = f32[3,2] dynamic-slice(a, i, j), dynamic_slice_sizes={3,2}\n}\n",
      "HloModule m\nENTRY e {\n  a = s64[7,5] parameter(0)\n  u = s64[2,3] parameter(1)\n  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n  ROOT d = s64[7,5] dynamic-update-slice(a, u, i, j)\n}\n",
      /* an update that is a reduction (a scan's per-step output): computed only where it
       * lands, behind a branch, with clamped starts */
      "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n  a = f32[10] parameter(0)\n  h = f32[8,32] parameter(1)\n  i = s64[] parameter(2)\n  z = f32[] constant(0)\n  r = f32[] reduce(h, z), dimensions={0,1}, to_apply=add\n  u = f32[1] bitcast(r)\n  ROOT d = f32[10] dynamic-update-slice(a, u, i)\n}\n",
      "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n  a = f32[6,4] parameter(0)\n  h = f32[2,4,3] parameter(1)\n  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n  z = f32[] constant(0)\n  r = f32[2,4] reduce(h, z), dimensions={2}, to_apply=add\n  ROOT d = f32[6,4] dynamic-update-slice(a, r, i, j)\n}\n",
      /* reductions: row, column, all, variadic (argmax) */
      "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n  a = f32[6,33] parameter(0)\n  z = f32[] constant(0)\n  ROOT r = f32[6] reduce(a, z), dimensions={1}, to_apply=add\n}\n",
      "HloModule m\nmx {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT s = s32[] maximum(x, y)\n}\nENTRY e {\n  a = s32[6,5,4] parameter(0)\n  z = s32[] constant(-2147483648)\n  ROOT r = s32[5] reduce(a, z), dimensions={0,2}, to_apply=mx\n}\n",
      "HloModule m\nam {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n  j = s32[] parameter(3)\n  g = pred[] compare(a, b), direction=GE\n  v = f32[] select(g, a, b)\n  k = s32[] select(g, i, j)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\nENTRY e {\n  a = f32[4,9] parameter(0)\n  ix = s32[4,9] iota(), iota_dimension=1\n  z = f32[] constant(-inf)\n  zi = s32[] constant(0)\n  ROOT r = (f32[4], s32[4]) reduce(a, ix, z, zi), dimensions={1}, to_apply=am\n}\n",
      "HloModule m\nadd {\n  x = f64[] parameter(0)\n  y = f64[] parameter(1)\n  ROOT s = f64[] add(x, y)\n}\nENTRY e {\n  a = f64[0,3] parameter(0)\n  z = f64[] constant(1.5)\n  ROOT r = f64[3] reduce(a, z), dimensions={0}, to_apply=add\n}\n",
      /* reduce-window with padding, strides and dilation */
      "HloModule m\nmx {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] maximum(x, y)\n}\nENTRY e {\n  a = f32[1,7,6,2] parameter(0)\n  z = f32[] constant(-inf)\n  ROOT r = f32[1,4,3,2] reduce-window(a, z), window={size=1x3x2x1 stride=1x2x2x1 pad=0_0x1_1x0_0x0_0}, to_apply=mx\n}\n",
      "HloModule m\nadd {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT s = s32[] add(x, y)\n}\nENTRY e {\n  a = s32[5,4] parameter(0)\n  z = s32[] constant(0)\n  ROOT r = s32[9,2] reduce-window(a, z), window={size=2x2 pad=1_0x0_0 lhs_dilate=2x1 rhs_dilate=1x2}, to_apply=add\n}\n",
      /* dots: BLAS (f32/f64/c64 with transposes and batch), loops (ints, bf16, mixed) */
      "HloModule m\nENTRY e {\n  a = f32[2,5,3] parameter(0)\n  b = f32[2,5,4] parameter(1)\n  ROOT d = f32[2,3,4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
      "HloModule m\nENTRY e {\n  a = f64[3,7] parameter(0)\n  b = f64[4,7] parameter(1)\n  ROOT d = f64[3,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
      "HloModule m\nENTRY e {\n  a = c64[3,2] parameter(0)\n  b = c64[2,5] parameter(1)\n  ROOT d = c64[3,5] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      /* c64 operands summed in c128 (jax preferred_element_type=complex128): the loop
       * kernel widens each operand element */
      "HloModule m\nENTRY e {\n  a = c64[3,4] parameter(0)\n  b = c64[4,2] parameter(1)\n  ROOT d = c128[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      /* complex clamp (ordered by real parts; the emitter calls the scalar evaluator) */
      "HloModule m\nENTRY e {\n  l = c64[] parameter(0)\n  x = c64[6] parameter(1)\n  h = c64[] parameter(2)\n  ROOT c = c64[6] clamp(l, x, h)\n}\n",
      "HloModule m\nENTRY e {\n  a = s32[3,6] parameter(0)\n  b = s32[6,2] parameter(1)\n  ROOT d = s32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      "HloModule m\nENTRY e {\n  a = bf16[4,3] parameter(0)\n  b = bf16[3] parameter(1)\n  ROOT d = f32[4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[3,0] parameter(0)\n  b = f32[0,2] parameter(1)\n  ROOT d = f32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      /* convolution: padding, strides, dilation, feature groups */
      "HloModule m\nENTRY e {\n  a = f32[2,7,6,4] parameter(0)\n  k = f32[3,2,2,6] parameter(1)\n  ROOT c = f32[2,4,5,6] convolution(a, k), window={size=3x2 stride=2x1 pad=1_1x0_1 rhs_dilate=1x2}, dim_labels=b01f_01io->b01f, feature_group_count=2\n}\n",
      "HloModule m\nENTRY e {\n  a = f64[1,3,9] parameter(0)\n  k = f64[2,3,3] parameter(1)\n  ROOT c = f64[1,2,11] convolution(a, k), window={size=3 pad=3_3 lhs_dilate=2 stride=2}, dim_labels=bf0_oi0->bf0\n}\n",
      /* gather: embedding rows, clamped starts, implicit index vector, batching dims */
      "HloModule m\nENTRY e {\n  a = f32[7,5] parameter(0)\n  i = s32[4,1] parameter(1)\n  ROOT g = f32[4,5] gather(a, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,5}\n}\n",
      "HloModule m\nENTRY e {\n  a = s32[6,8] parameter(0)\n  i = u8[3] parameter(1)\n  ROOT g = s32[3,6,2] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={1}, index_vector_dim=1, slice_sizes={6,2}\n}\n",
      "HloModule m\nENTRY e {\n  a = f64[2,5,3] parameter(0)\n  i = s64[2,4,2] parameter(1)\n  ROOT g = f64[2,4] gather(a, i), offset_dims={}, collapsed_slice_dims={1,2}, start_index_map={1,2}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1,1}\n}\n",
      /* sort with compiled comparators: keys with ties (stable), several operands, inner dims */
      "HloModule m\ncmp {\n  a = s8[] parameter(0)\n  b = s8[] parameter(1)\n  c = f32[] parameter(2)\n  d = f32[] parameter(3)\n  ROOT l = pred[] compare(a, b), direction=LT\n}\nENTRY e {\n  k = s8[5,9] parameter(0)\n  v = f32[5,9] parameter(1)\n  ROOT s = (s8[5,9], f32[5,9]) sort(k, v), dimensions={1}, is_stable=true, to_apply=cmp\n}\n",
      "HloModule m\ncmp {\n  a = f64[] parameter(0)\n  b = f64[] parameter(1)\n  ROOT l = pred[] compare(a, b), direction=GT, type=TOTALORDER\n}\nENTRY e {\n  k = f64[6,3] parameter(0)\n  ROOT s = f64[6,3] sort(k), dimensions={0}, to_apply=cmp\n}\n",
      /* an output fusion: its dot through BLAS before the epilogue kernel (f64: the
       * interpreter sums in double too, so overflow agrees) */
      "HloModule m\nENTRY e {\n  a = f64[24,40] parameter(0)\n  b = f64[40,33] parameter(1)\n  c = f64[33] parameter(2)\n  d = f64[24,33] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n  cb = f64[24,33] broadcast(c), dimensions={1}\n  s = f64[24,33] add(d, cb)\n  z = f64[] constant(0)\n  zb = f64[24,33] broadcast(z), dimensions={}\n  ROOT r = f64[24,33] maximum(s, zb)\n}\n",
      /* control flow */
      "HloModule m\ncond {\n  p = (s32[], f32[3]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  n = s32[] constant(5)\n  ROOT c = pred[] compare(i, n), direction=LT\n}\nbody {\n  p = (s32[], f32[3]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n  x = f32[3] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  y = f32[3] multiply(x, x)\n  ROOT t = (s32[], f32[3]) tuple(j, y)\n}\nENTRY e {\n  x = f32[3] parameter(0)\n  z = s32[] constant(0)\n  t = (s32[], f32[3]) tuple(z, x)\n  w = (s32[], f32[3]) while(t), condition=cond, body=body\n  ROOT r = f32[3] get-tuple-element(w), index=1\n}\n",
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "data op %zu", i);
    CHECK(check_text(name, mods[i], 500 + i));
  }
}


/* Concatenates and pads along the innermost dim, whose loop is split
 * into pieces where they change operand (cg.c emit_pieces): bit for bit,
 * with odd widths, an empty operand, pads that crop (negative edges),
 * a pad and a concatenate fused together (their points merged), a pad
 * with interior padding there (no pieces), too many operands for pieces,
 * a concatenate reached through a broadcast (another index), rank 1 (the
 * rows' range cuts the pieces), non-default layouts. */
TEST(innermost_pieces) {
  static const char *const mods[] = {
      "HloModule m\nENTRY e {\n  a = f32[5,3] parameter(0)\n  b = f32[5,17] parameter(1)\n  c = f32[5,1] parameter(2)\n"
      "  ROOT r = f32[5,21] concatenate(a, b, c), dimensions={1}\n}\n",
      "HloModule m\nENTRY e {\n  a = s16[4,2,9] parameter(0)\n  b = s16[4,2,0] parameter(1)\n  c = s16[4,2,40] parameter(2)\n"
      "  ROOT r = s16[4,2,49] concatenate(a, b, c), dimensions={2}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[6,20] parameter(0)\n  p = f32[] constant(-3)\n"
      "  ROOT r = f32[7,21] pad(a, p), padding=1_0x3_-2\n}\n",
      "HloModule m\nENTRY e {\n  a = f64[3,33] parameter(0)\n  p = f64[] parameter(1)\n"
      "  ROOT r = f64[3,36] pad(a, p), padding=0_0x-2_5\n}\n",
      "HloModule m\nENTRY e {\n  a = u8[3,5] parameter(0)\n  p = u8[] constant(7)\n"
      "  ROOT r = u8[3,13] pad(a, p), padding=0_0x2_2_1\n}\n",
      "HloModule m\nENTRY e {\n  x = f32[8,7] parameter(0)\n  y = f32[8,13] parameter(1)\n  w = f32[8,13] parameter(2)\n"
      "  c = f32[8,20] concatenate(x, y), dimensions={1}\n  z = f32[] constant(0.5)\n"
      "  q = f32[8,20] pad(w, z), padding=0_0x2_5\n  m = f32[8,20] multiply(c, q)\n"
      "  ROOT r = f32[8,20] add(m, c)\n}\n",
      "HloModule m\nENTRY e {\n  a = s32[3,2] parameter(0)\n  b = s32[3,3] parameter(1)\n"
      "  ROOT r = s32[3,25] concatenate(a, b, a, b, a, b, a, b, a, b), dimensions={1}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[3] parameter(0)\n  b = f32[6] parameter(1)\n"
      "  c = f32[9] concatenate(a, b), dimensions={0}\n  t = f32[9,9] broadcast(c), dimensions={0}\n"
      "  u = f32[9,9] parameter(2)\n  ROOT r = f32[9,9] add(t, u)\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[100] parameter(0)\n  b = f32[37] parameter(1)\n  p = f32[] constant(1)\n"
      "  c = f32[137] concatenate(a, b), dimensions={0}\n  ROOT r = f32[150] pad(c, p), padding=9_4\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[4,6]{0,1} parameter(0)\n  b = f32[4,10] parameter(1)\n"
      "  ROOT r = f32[4,16]{0,1} concatenate(a, b), dimensions={1}\n}\n",
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "pieces %zu", i);
    CHECK(check_bits(name, mods[i], 900 + i));
  }
}

/* ---- whole-op kernels: scatter, select-and-scatter, rng-bit-generator ---- */

/* The combiner computation `name` on scalars of type t: add (or for pred),
 * or assignment (the update wins). */
static void combiner(StrBuf *b, const char *name, const char *t, bool assign) {
  const char *op = is_pred(t) ? "or" : "add";
  sb_printf(b, "%s {\n  x = %s[] parameter(0)\n  y = %s[] parameter(1)\n", name, t, t);
  if (assign) sb_printf(b, "  ROOT r = %s[] copy(y)\n}\n", t);
  else sb_printf(b, "  ROOT r = %s[] %s(x, y)\n}\n", t, op);
}

/* Scatter on every type and shape class: duplicate, negative and
 * out-of-bounds indices (their windows skipped), rank-0 operands, empty
 * operands and updates, windows of rank 2, a large scatter, non-default
 * layouts. */
TEST(scatter_by_type_and_shape) {
  int checked = 0;
  for (size_t ti = 0; ti < sizeof kAllTypes / sizeof kAllTypes[0]; ti++) {
    const char *t = kAllTypes[ti];
    for (int assign = 0; assign < 2; assign++) {
      char geo[9][700];
      int ng = 0;
      /* rows of a [7,5] operand (layout {0,1}) picked by a [6,1] index array */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[7,5]{0,1} parameter(0)\n  i = s32[6,1] constant({{0},{3},{-1},{6},{3},{7}})\n"
               "  u = %s[6,5] parameter(1)\n"
               "  ROOT s = %s[7,5] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb\n", t, t, t);
      /* 2x2 windows of a [5,4] operand at (row, col) starts, partly out of bounds */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[5,4] parameter(0)\n  i = s64[2,3] constant({{0,1,3},{2,3,-1}})\n"
               "  u = %s[3,2,2] parameter(1)\n"
               "  ROOT s = %s[5,4] scatter(a, i, u), update_window_dims={1,2}, inserted_window_dims={}, "
               "scatter_dims_to_operand_dims={0,1}, index_vector_dim=0, to_apply=comb\n", t, t, t);
      /* elements of a rank-1 operand, implicit index vector, u8 indices */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[9] parameter(0)\n  i = u8[4] constant({8, 0, 200, 8})\n  u = %s[4] parameter(1)\n"
               "  ROOT s = %s[9] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb\n", t, t, t);
      /* a rank-0 operand: one scatter position, an empty index vector */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[] parameter(0)\n  i = s32[0] constant({})\n  u = %s[] parameter(1)\n"
               "  ROOT s = %s[] scatter(a, i, u), update_window_dims={}, inserted_window_dims={}, "
               "scatter_dims_to_operand_dims={}, index_vector_dim=0, to_apply=comb\n", t, t, t);
      /* no updates; then an empty operand */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[4,3] parameter(0)\n  i = s32[0,1] parameter(1)\n  u = %s[0,3] parameter(2)\n"
               "  ROOT s = %s[4,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb\n", t, t, t);
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[0,3] parameter(0)\n  i = s32[2,1] constant({{0},{1}})\n  u = %s[2,3] parameter(1)\n"
               "  ROOT s = %s[0,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb\n", t, t, t);
      /* batching dims: per batch b, row i[b, j] of a[b] */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[2,5,3] parameter(0)\n  i = s32[2,4] constant({{4,0,4,9},{1,1,-3,2}})\n"
               "  u = %s[2,4,3] parameter(1)\n"
               "  ROOT s = %s[2,5,3] scatter(a, i, u), update_window_dims={2}, inserted_window_dims={1}, "
               "input_batching_dims={0}, scatter_indices_batching_dims={0}, scatter_dims_to_operand_dims={1}, "
               "index_vector_dim=2, to_apply=comb\n", t, t, t);
      /* a scalar index: one row */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[5,2] parameter(0)\n  i = s32[] constant(3)\n  u = %s[2] parameter(1)\n"
               "  ROOT s = %s[5,2] scatter(a, i, u), update_window_dims={0}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=0, to_apply=comb\n", t, t, t);
      /* large: 3000 updates into 1000 rows, indices from an iota */
      snprintf(geo[ng++], sizeof geo[0],
               "  a = %s[1000,3] parameter(0)\n  io = s32[3000] iota(), iota_dimension=0\n"
               "  m = s32[] constant(1013)\n  mb = s32[3000] broadcast(m), dimensions={}\n"
               "  r = s32[3000] remainder(io, mb)\n  i = s32[3000,1] reshape(r)\n  u = %s[3000,3] parameter(1)\n"
               "  ROOT s = %s[1000,3] scatter(a, i, u), update_window_dims={1}, inserted_window_dims={0}, "
               "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=comb\n", t, t, t);
      for (int gi = 0; gi < ng; gi++) {
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, "HloModule m\n");
        combiner(&b, "comb", t, assign);
        sb_printf(&b, "ENTRY e {\n%s}\n", geo[gi]);
        char name[96];
        snprintf(name, sizeof name, "scatter %s %s geometry %d", t, assign ? "assign" : "combine", gi);
        CHECK(!b.oom && check_text(name, b.data, 700 + ti * 31 + (size_t)gi * 2 + (size_t)assign));
        checked++;
        sb_free(&b);
      }
    }
  }
  /* variadic: (value, index) pairs combined by a two-output computation */
  const char *var =
      "HloModule m\nmx {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n"
      "  j = s32[] parameter(3)\n  g = pred[] compare(a, b), direction=GE\n  v = f32[] select(g, a, b)\n"
      "  k = s32[] select(g, i, j)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\n"
      "ENTRY e {\n  a = f32[6,2] parameter(0)\n  b = s32[6,2] parameter(1)\n"
      "  i = s32[5,1] constant({{5},{0},{5},{-2},{2}})\n  u = f32[5,2] parameter(2)\n  v = s32[5,2] parameter(3)\n"
      "  ROOT s = (f32[6,2], s32[6,2]) scatter(a, b, i, u, v), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=mx\n}\n";
  CHECK(check_text("variadic scatter", var, 990));
  /* unsorted, non-unique flags change nothing; multiply combiner */
  const char *mul =
      "HloModule m\nmul {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT r = s32[] multiply(x, y)\n}\n"
      "ENTRY e {\n  a = s32[4] parameter(0)\n  i = s32[6] constant({3,3,1,0,3,1})\n  u = s32[6] parameter(1)\n"
      "  ROOT s = s32[4] scatter(a, i, u), update_window_dims={}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=true, unique_indices=false, to_apply=mul\n}\n";
  CHECK(check_text("scatter multiply", mul, 991));
  /* in place: a computed operand whose last use is the scatter takes the
   * updates in its own buffer; one used again afterwards must not */
  const char *inplace =
      "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT r = f32[] add(x, y)\n}\n"
      "ENTRY e {\n  a = f32[64,8] parameter(0)\n  b = f32[64,8] multiply(a, a)\n  c = f32[64,8] negate(a)\n"
      "  i = s32[5,1] constant({{1},{63},{1},{0},{64}})\n  u = f32[5,8] parameter(1)\n"
      "  s = f32[64,8] scatter(b, i, u), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
      "  t = f32[64,8] scatter(c, i, u), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n"
      "  d = f32[64,8] subtract(t, c)\n  ROOT r = (f32[64,8], f32[64,8], f32[64,8]) tuple(s, d, c)\n}\n";
  CHECK(check_text("scatter in place", inplace, 992));
  CHECK(checked >= 200);
}

/* select-and-scatter (max-pool gradients and more) on several types:
 * padding, strides, overlapping windows, a GT selector that keeps the last
 * maximum, empty sources, rank 1, a large case. */
TEST(select_and_scatter_by_type) {
  static const char *const types[] = {"f32", "f64", "s32", "s8", "u8", "s16", "u32", "s64", "f16", "bf16"};
  static const char *const geos[][3] = {
      /* operand, source, window */
      {"[1,7,6,2]", "[1,4,3,2]", "size=1x3x2x1 stride=1x2x2x1 pad=0_0x1_1x0_0x0_0"},
      {"[2,5,5,3]{0,1,2,3}", "[2,5,5,3]", "size=1x3x3x1 pad=0_0x1_1x1_1x0_0"},
      {"[9]", "[4]", "size=3 stride=2"},
      {"[4,0]", "[2,0]", "size=2x1 stride=2x1"},
      {"[3,4]", "[0,4]", "size=4x1 stride=1x1"},
      {"[64,64]", "[32,32]", "size=2x2 stride=2x2"},
  };
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
    const char *t = types[ti];
    for (size_t gi = 0; gi < sizeof geos / sizeof geos[0]; gi++)
      for (int dir = 0; dir < 2; dir++) {
        StrBuf b;
        sb_init(&b);
        sb_printf(&b, "HloModule m\nsel {\n  x = %s[] parameter(0)\n  y = %s[] parameter(1)\n"
                      "  ROOT c = pred[] compare(x, y), direction=%s\n}\n", t, t, dir ? "GT" : "GE");
        combiner(&b, "add", t, false);
        char src[32];
        /* the source's type is the operand's; its shape the window count */
        snprintf(src, sizeof src, "%s", geos[gi][1]);
        sb_printf(&b, "ENTRY e {\n  a = %s%s parameter(0)\n  s = %s%s parameter(1)\n  z = %s[] constant(0)\n"
                      "  ROOT r = %s%s select-and-scatter(a, s, z), window={%s}, select=sel, scatter=add\n}\n",
                  t, geos[gi][0], t, src, t, t, strchr(geos[gi][0], '{') ? "[2,5,5,3]" : geos[gi][0], geos[gi][2]);
        char name[96];
        snprintf(name, sizeof name, "select-and-scatter %s geometry %zu %s", t, gi, dir ? "GT" : "GE");
        CHECK(!b.oom && check_text(name, b.data, 1100 + ti * 13 + gi * 2 + (size_t)dir));
        checked++;
        sb_free(&b);
      }
  }
  CHECK(checked >= 100);
}

/* rng-bit-generator: both algorithms and the default, every output type
 * width, shape classes (scalar, empty, odd and even splits, large), state
 * sizes. Its results are bits: compared bit for bit. */
TEST(rng_bit_generator_by_type_and_shape) {
  static const char *const algs[] = {"rng_three_fry", "rng_philox", "rng_default"};
  static const char *const types[] = {"u32", "s32", "u64", "s64", "u8", "s8", "s16", "u16", "s4", "u4", "s2", "u2"};
  static const char *const shapes[] = {"[]", "[0]", "[7]", "[3,5]", "[5,3]", "[2,0,3]", "[1,9]", "[3,5,7]", "[1000,3]"};
  int checked = 0;
  for (size_t ai = 0; ai < 3; ai++)
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
      for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        int nstate = 2 + (int)((ti + si) % (ai == 0 ? 3 : 2)); /* three-fry also takes u64[4] */
        char text[512], name[96];
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  s = u64[%d] parameter(0)\n"
                 "  ROOT r = (u64[%d], %s%s) rng-bit-generator(s), algorithm=%s\n}\n",
                 nstate, nstate, types[ti], shapes[si], algs[ai]);
        snprintf(name, sizeof name, "rng %s %s%s u64[%d]", algs[ai], types[ti], shapes[si], nstate);
        CHECK(check_bits(name, text, 1300 + ai * 200 + ti * 11 + si));
        checked++;
      }
  CHECK(checked >= 300);
}


/* Dots and convolutions on the f8 types (and f4e2m1fn): computed in f32,
 * rounded once to an f8 result, or giving f32/f64/bf16/f16. */
TEST(f8_contractions) {
  static const char *const types[] = {"f8e4m3fn", "f8e5m2", "f8e4m3", "f8e3m4", "f8e4m3fnuz",
                                      "f8e5m2fnuz", "f8e4m3b11fnuz", "f4e2m1fn"};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
    const char *t = types[ti];
    const char *outs[5] = {t, "f32", "f64", "bf16", "f16"};
    for (int oi = 0; oi < 5; oi++) {
      const char *o = outs[oi];
      char text[4][1024];
      snprintf(text[0], sizeof text[0],
               "HloModule m\nENTRY e {\n  a = %s[3,5] parameter(0)\n  b = %s[5,4] parameter(1)\n"
               "  ROOT d = %s[3,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n", t, t, o);
      snprintf(text[1], sizeof text[1],
               "HloModule m\nENTRY e {\n  a = %s[2,3,4] parameter(0)\n  b = %s[2,4] parameter(1)\n"
               "  ROOT d = %s[2,3] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, "
               "rhs_contracting_dims={1}\n}\n", t, t, o);
      snprintf(text[2], sizeof text[2],
               "HloModule m\nENTRY e {\n  a = %s[] parameter(0)\n  b = %s[0] parameter(1)\n"
               "  ROOT d = %s[0] dot(a, b), lhs_contracting_dims={}, rhs_contracting_dims={}\n}\n", t, t, o);
      snprintf(text[3], sizeof text[3],
               "HloModule m\nENTRY e {\n  a = %s[1,5,4,2] parameter(0)\n  k = %s[3,2,2,3] parameter(1)\n"
               "  ROOT c = %s[1,5,3,3] convolution(a, k), window={size=3x2 pad=1_1x0_0}, dim_labels=b01f_01io->b01f\n}\n",
               t, t, o);
      for (int k = 0; k < 4; k++) {
        char name[96];
        snprintf(name, sizeof name, "f8 contraction %s -> %s #%d", t, o, k);
        CHECK(check_text(name, text[k], 1900 + ti * 13 + (size_t)oi * 4 + (size_t)k));
        checked++;
      }
    }
  }
  CHECK(checked >= 150);
}

/* Optimizes and runs `text` (no parameters) on the cpu backend; NULL after
 * a reported failure. */
static Literal *cpu_run_text(const char *name, const char *text) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  Literal *out = NULL;
  PipelineOptions o = {.verify = true, .module_number = 1};
  cxla_status st = cxla_module_parse(text, strlen(text), name, &m);
  if (!st) st = pipeline_run(m, NULL, 0, &o);
  if (!st) st = cpu_compile(m, NULL, &x);
  if (!st) st = cpu_execute(x, NULL, 0, &out);
  if (st) {
    printf("%s: %s\n", name, cxla_status_message(st));
    harness_failed_checks++;
  }
  cxla_status_free(st);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return out;
}

static void expect_ints(const char *name, const char *text, int n, const int64_t *want) {
  Literal *l = cpu_run_text(name, text);
  if (!l) return;
  bool ok = l->nelems == n;
  for (int i = 0; ok && i < n; i++) ok = literal_get_i64(l, i) == want[i];
  if (!ok) {
    printf("%s: got", name);
    for (int64_t i = 0; i < l->nelems; i++) printf(" %lld", (long long)literal_get_i64(l, i));
    printf("\n");
    harness_failed_checks++;
  }
  literal_free(l);
}

/* 2/4-bit integers (kept one per byte, as their value) through
 * bitcast-convert and iota; the f8 types through iota and dot (run in f32,
 * as XLA:CPU does). Expected values worked out by hand. */
TEST(sub_byte_and_f8) {
  /* -121 = 0x87: low nibble 7, high nibble 8 (s4 -8); 23 = 0x17 */
  static const int64_t split[] = {7, -8, 7, 1};
  expect_ints("s8->s4", "HloModule m\nENTRY e {\n  a = s8[2] constant({-121, 23})\n"
              "  ROOT b = s4[2,2] bitcast-convert(a)\n}\n", 4, split);
  static const int64_t usplit[] = {7, 8, 7, 1};
  expect_ints("s8->u4", "HloModule m\nENTRY e {\n  a = s8[2] constant({-121, 23})\n"
              "  ROOT b = u4[2,2] bitcast-convert(a)\n}\n", 4, usplit);
  static const int64_t joined[] = {-121, 23};
  expect_ints("s4->s8", "HloModule m\nENTRY e {\n  a = s4[2,2] constant({{7, -8}, {7, 1}})\n"
              "  ROOT b = s8[2] bitcast-convert(a)\n}\n", 2, joined);
  static const int64_t u16[] = {0x4321, 0xf0a5};
  expect_ints("u4->u16", "HloModule m\nENTRY e {\n  a = u4[2,4] constant({{1, 2, 3, 4}, {5, 10, 0, 15}})\n"
              "  ROOT b = u16[2] bitcast-convert(a)\n}\n", 2, u16);
  /* f32 1.0 = 0x3f800000: nibbles from the low end 0,0,0,0,0,8,15,3 */
  static const int64_t f32s4[] = {0, 0, 0, 0, 0, -8, -1, 3};
  expect_ints("f32->s4", "HloModule m\nENTRY e {\n  a = f32[1] constant({1})\n"
              "  ROOT b = s4[1,8] bitcast-convert(a)\n}\n", 8, f32s4);
  /* iota wraps in the type's width */
  static const int64_t is4[] = {0, 1, 2, 3, 4, 5, 6, 7, -8, -7};
  expect_ints("iota s4", "HloModule m\nENTRY e {\n  ROOT r = s4[10] iota(), iota_dimension=0\n}\n", 10, is4);
  static const int64_t iu2[] = {0, 1, 2, 3, 0, 1};
  expect_ints("iota u2", "HloModule m\nENTRY e {\n  ROOT r = u2[6] iota(), iota_dimension=0\n}\n", 6, iu2);
  /* f8e4m3fn has 3 mantissa bits: 17 rounds to 16 (ties to even), 19 to 20 */
  Literal *l = cpu_run_text("iota f8", "HloModule m\nENTRY e {\n  ROOT r = f8e4m3fn[2,20] iota(), iota_dimension=1\n}\n");
  if (l) {
    CHECK(literal_get_f64(l, 3) == 3 && literal_get_f64(l, 17) == 16 && literal_get_f64(l, 19) == 20 &&
          literal_get_f64(l, 20) == 0 && literal_get_f64(l, 38) == 18);
    literal_free(l);
  }
  /* a mixed f8 dot with an f32 result: [1.5 2 -0.25] . [4 0.5 8] = 6 + 1 - 2 */
  l = cpu_run_text("dot f8", "HloModule m\nENTRY e {\n  a = f8e4m3fn[1,3] constant({{1.5, 2, -0.25}})\n"
                   "  b = f8e5m2[3] constant({4, 0.5, 8})\n"
                   "  ROOT d = f32[1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  if (l) {
    CHECK(literal_get_f64(l, 0) == 5);
    literal_free(l);
  }
  /* and the same ops against the interpreter on random data */
  static const char *const mods[] = {
      "HloModule m\nENTRY e {\n  a = f16[3,2] parameter(0)\n  ROOT b = u4[3,2,4] bitcast-convert(a)\n}\n",
      "HloModule m\nENTRY e {\n  a = s4[5,2] parameter(0)\n  ROOT b = u8[5] bitcast-convert(a)\n}\n",
      "HloModule m\nENTRY e {\n  a = s2[3,4] parameter(0)\n  ROOT b = s8[3] bitcast-convert(a)\n}\n",
      "HloModule m\nENTRY e {\n  ROOT r = u4[3,21] iota(), iota_dimension=1\n}\n",
      "HloModule m\nENTRY e {\n  a = f8e5m2[4,3] parameter(0)\n  b = f8e4m3fn[3,2] parameter(1)\n  ROOT d = f32[4,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    char name[32];
    snprintf(name, sizeof name, "sub-byte op %zu", i);
    CHECK(check_text(name, mods[i], 700 + i));
  }
}

/* An op the backend cannot compile is an error naming it. */
TEST(unsupported_is_named_error) {
  const char *text = "HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n"
                     "  ROOT r = f32[4] custom-call(a), custom_call_target=\"no_such_target\"\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "u", &m));
  CpuExecutable *x = NULL;
  cxla_status st = m ? cpu_compile(m, NULL, &x) : NULL;
  /* an unknown custom-call target: a compile error naming it */
  CHECK(st && cxla_status_code_of(st) == CXLA_UNIMPLEMENTED && strstr(cxla_status_message(st), "no_such_target"));
  cxla_status_free(st);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);

  /* an f8e8m0fnu dot has no compiled path (its smallest values are f32
   * subnormals): compile error naming the dot */
  const char *t2 = "HloModule m\nENTRY e {\n  a = f8e8m0fnu[2,3] parameter(0)\n  b = f8e8m0fnu[3,2] parameter(1)\n"
                   "  ROOT d = f8e8m0fnu[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
  m = NULL;
  CHECK_OK(cxla_module_parse(t2, strlen(t2), "u2", &m));
  x = NULL;
  st = m ? cpu_compile(m, NULL, &x) : NULL;
  CHECK(st && cxla_status_code_of(st) == CXLA_UNIMPLEMENTED && strstr(cxla_status_message(st), "dot"));
  cxla_status_free(st);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--from") != 0 && argv[1][0] >= '0' && argv[1][0] <= '9') {
    bool ok = run_seed(strtoull(argv[1], NULL, 10), true);
    printf("seed %s: %s\n", argv[1], ok ? "ok" : "FAILED");
    return !ok;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--from") == 0) g_from = strtoull(argv[i + 1], NULL, 10);
    if (strcmp(argv[i], "--count") == 0) g_count = strtoull(argv[i + 1], NULL, 10);
  }
  RUN(unsupported_is_named_error);
  RUN(scatter_by_type_and_shape);
  RUN(select_and_scatter_by_type);
  RUN(rng_bit_generator_by_type_and_shape);
  RUN(f8_contractions);
  RUN(data_ops);
  RUN(innermost_pieces);
  RUN(sub_byte_and_f8);
  RUN(convert_compare_select);
  RUN(float_to_int_saturates);
  RUN(subnormal_constants);
  RUN(elementwise_by_type_and_shape);
  RUN(random_modules);
  return test_summary(__FILE__);
}
