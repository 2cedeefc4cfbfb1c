/* pow and atan2 at the edges, and the DAZ mode at compile time.
 *
 * XLA:CPU computes pow and atan2 by calling the C library from code that
 * runs with FTZ and DAZ set; the library tests its arguments' bits before
 * doing arithmetic, so subnormal arguments are neither their values nor
 * zeros there (pow(1e-45, 0.5) is 2^-75, atan2(1e-40, 1) is 1e-40,
 * atan2(1e-45, 1e-45) is NaN). libm_edges.h holds XLA:CPU's results over
 * a grid of edge values (tests/gen/libm_edges.py); the interpreter and the
 * compiled backend must reproduce them: bit for bit, NaN by its sign, but
 * the compiled f32 atan2 of ordinary values within two units (its own
 * vector atan2; the library's is correctly rounded).
 *
 * And what LLVM must not fold by IEEE rules, the kernels running under
 * DAZ: a compare with a subnormal constant (max(x, 1e-45) < 1e-45 is
 * false for every x on XLA:CPU), and logistic of NaN (XLA:CPU's is the
 * NaN negated). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "libm_edges.h"
#include "verify/verify.h"

/* Runs text on the interpreter (backend 0) or the cpu backend (1) with
 * args; *out: the result. */
static cxla_status run_on(int backend, const char *text, Literal **args, int nargs, Literal **out) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "edges", &m);
  if (!s) s = verify_module(m);
  if (!s && backend == 0) s = cxla_interp_run(m, args, nargs, out);
  if (!s && backend == 1) s = cpu_compile(m, NULL, &x);
  if (!s && backend == 1) s = cpu_execute(x, args, nargs, out);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return s;
}

static uint64_t get_bits(const Literal *l, int64_t i) {
  int w = type_bytes(l->type);
  uint64_t b = 0;
  memcpy(&b, (const char *)l->data + i * w, (size_t)w);
  return b;
}

static double bits_value(ElemType t, uint64_t b) {
  if (t == T_F64) {
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  uint32_t u = t == T_BF16 ? (uint32_t)b << 16 : (uint32_t)b;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* got matches XLA's want: same bits; NaN for NaN with the same sign; for
 * `ulps` > 0 and both finite and nonzero with one sign, within ulps units. */
static bool edge_match(ElemType t, uint64_t want, uint64_t got, int ulps) {
  if (want == got) return true;
  double w = bits_value(t, want), g = bits_value(t, got);
  if (isnan(w)) return isnan(g) && signbit(w) == signbit(g);
  if (!ulps || !isfinite(w) || !isfinite(g) || w == 0 || g == 0 || signbit(w) != signbit(g)) return false;
  uint64_t d = want > got ? want - got : got - want; /* same sign: the bits are ordered */
  return d <= (uint64_t)ulps;
}

static void check_grid(const char *tname, ElemType t, const char *op, const uint64_t *vals, int n,
                       const uint64_t *want) {
  char text[512];
  int64_t nn = (int64_t)n * n;
  snprintf(text, sizeof text,
           "HloModule edges\nENTRY main {\n  x = %s[%lld] parameter(0)\n  y = %s[%lld] parameter(1)\n"
           "  ROOT r = %s[%lld] %s(x, y)\n}\n",
           tname, (long long)nn, tname, (long long)nn, tname, (long long)nn, op);
  Literal *args[2] = {NULL, NULL};
  int64_t dims[1] = {nn};
  CHECK_OK(literal_create(t, 1, dims, &args[0]));
  CHECK_OK(literal_create(t, 1, dims, &args[1]));
  if (!args[0] || !args[1]) return;
  int w = type_bytes(t);
  for (int64_t i = 0; i < nn; i++) {
    memcpy((char *)args[0]->data + i * w, &vals[i / n], (size_t)w);
    memcpy((char *)args[1]->data + i * w, &vals[i % n], (size_t)w);
  }
  for (int backend = 0; backend < 2; backend++) {
    Literal *got = NULL;
    cxla_status s = run_on(backend, text, args, 2, &got);
    CHECK_OK(s);
    if (s || !got) continue;
    int ulps = backend == 1 && strcmp(op, "atan2") == 0 && t == T_F32 ? 2 : 0;
    int bad = 0;
    for (int64_t i = 0; i < nn; i++) {
      uint64_t g = get_bits(got, i);
      if (edge_match(t, want[i], g, ulps)) continue;
      if (bad++ < 6)
        fprintf(stderr, "  %s %s %s(%.9g, %.9g): XLA 0x%llx, got 0x%llx\n", backend ? "cpu" : "interp", tname, op,
                bits_value(t, vals[i / n]), bits_value(t, vals[i % n]), (unsigned long long)want[i],
                (unsigned long long)g);
    }
    CHECK(bad == 0);
    literal_free(got);
  }
  literal_free(args[0]);
  literal_free(args[1]);
}

#define GRID(t, T, op, hlo) check_grid(#t, T, hlo, kEdge_##t, (int)(sizeof kEdge_##t / sizeof kEdge_##t[0]), kEdge_##op##_##t)

TEST(pow_edges_f32) { GRID(f32, T_F32, pow, "power"); }
TEST(pow_edges_bf16) { GRID(bf16, T_BF16, pow, "power"); }
TEST(pow_edges_f64) { GRID(f64, T_F64, pow, "power"); }
TEST(atan2_edges_f32) { GRID(f32, T_F32, atan2, "atan2"); }
TEST(atan2_edges_bf16) { GRID(bf16, T_BF16, atan2, "atan2"); }
TEST(atan2_edges_f64) { GRID(f64, T_F64, atan2, "atan2"); }

/* One f32[16] parameter of values vs; results as bits into out[k][16]. */
static void run_f32(int backend, const char *text, const float *vs, int nres, uint32_t out[][16]) {
  Literal *arg = NULL, *got = NULL;
  int64_t dims[1] = {16};
  CHECK_OK(literal_create(T_F32, 1, dims, &arg));
  if (!arg) return;
  memcpy(arg->data, vs, 16 * sizeof(float));
  cxla_status s = run_on(backend, text, &arg, 1, &got);
  CHECK_OK(s);
  if (!s && got) {
    for (int k = 0; k < nres; k++) {
      const Literal *l = nres == 1 ? got : got->tuple[k];
      for (int i = 0; i < 16; i++) out[k][i] = (uint32_t)get_bits(l, i);
    }
  }
  literal_free(arg);
  literal_free(got);
}

/* XLA:CPU: max(x, 1e-45) < 1e-45 is false for every x (1e-45 reads as
 * zero on both sides); LLVM, folding 0 < 1e-45 by IEEE rules, made it
 * true where max chose the (flushed) constant. Fused so that both are one
 * kernel, x converted from integers so that LLVM knows its values. */
TEST(compare_with_subnormal_constant) {
  static const char *text =
      "HloModule m\n"
      "%f (p: s32[16]) -> pred[16] {\n"
      "  %p = s32[16]{0} parameter(0)\n"
      "  %c = f32[] constant(1e-45)\n"
      "  %b = f32[16]{0} broadcast(%c), dimensions={}\n"
      "  %x = f32[16]{0} convert(%p)\n"
      "  %m = f32[16]{0} maximum(%x, %b)\n"
      "  ROOT %l = pred[16]{0} compare(%m, %b), direction=LT\n"
      "}\n"
      "ENTRY %main (a: s32[16]) -> pred[16] {\n"
      "  %a = s32[16]{0} parameter(0)\n"
      "  ROOT %r = pred[16]{0} fusion(%a), kind=kLoop, calls=%f\n"
      "}\n";
  Literal *arg = NULL;
  int64_t dims[1] = {16};
  CHECK_OK(literal_create(T_S32, 1, dims, &arg));
  if (!arg) return;
  for (int i = 0; i < 16; i++) ((int32_t *)arg->data)[i] = i - 8;
  for (int backend = 0; backend < 2; backend++) {
    Literal *got = NULL;
    CHECK_OK(run_on(backend, text, &arg, 1, &got));
    if (!got) continue;
    int ntrue = 0;
    for (int i = 0; i < 16; i++) ntrue += ((const uint8_t *)got->data)[i] != 0;
    if (ntrue) fprintf(stderr, "  %s: %d of 16 true\n", backend ? "cpu" : "interp", ntrue);
    CHECK(ntrue == 0);
    literal_free(got);
  }
  literal_free(arg);
}

/* logistic of a NaN is that NaN negated (and quieted) on XLA:CPU, as
 * 1 / (1 + exp(-x)) computes it; unfused, and fused with a compare in
 * total order against its argument (equal nowhere). */
TEST(logistic_nan_negated) {
  static const char *plain =
      "HloModule m\nENTRY main {\n  x = f32[16] parameter(0)\n  ROOT l = f32[16] logistic(x)\n}\n";
  static const char *fused =
      "HloModule m\nENTRY main {\n  x = f32[16] parameter(0)\n  l = f32[16] logistic(x)\n"
      "  e = pred[16] compare(l, x), direction=EQ, type=TOTALORDER\n  ROOT t = (pred[16], f32[16]) tuple(e, l)\n}\n";
  float vs[16];
  uint32_t nanbits[4] = {0x7fc00000u, 0xffc00000u, 0x7fc00001u, 0xffc12345u};
  for (int i = 0; i < 16; i++) {
    uint32_t b = nanbits[i % 4];
    memcpy(&vs[i], &b, 4);
  }
  for (int backend = 0; backend < 2; backend++) {
    uint32_t a[1][16] = {{0}}, t[2][16] = {{0}};
    run_f32(backend, plain, vs, 1, a);
    run_f32(backend, fused, vs, 2, t);
    for (int i = 0; i < 16; i++) {
      uint32_t want = nanbits[i % 4] ^ 0x80000000u;
      if (a[0][i] != want || t[1][i] != want || (t[0][i] & 0xff))
        fprintf(stderr, "  %s: logistic(0x%x): 0x%x, fused 0x%x, equal %u\n", backend ? "cpu" : "interp",
                nanbits[i % 4], a[0][i], t[1][i], t[0][i] & 0xff);
      CHECK(a[0][i] == want);
      CHECK(t[1][i] == want);
      CHECK((t[0][i] & 0xff) == 0);
    }
  }
}

/* Arithmetic reads a subnormal operand as zero and flushes a subnormal
 * result, on XLA:CPU at run time (x * 1e-45 for x = -inf is NaN, for
 * x = 1e30 zero), and in the compiled code also where both operands are
 * constants that the IR builder folds by IEEE rules (-inf * 1e-45 would
 * be -inf there): the interpreter's NaN. */
TEST(arithmetic_on_subnormal_constants) {
  static const char *text =
      "HloModule m\n"
      "%f (p: f32[16]) -> (f32[16], f32[16], f32[16]) {\n"
      "  %p = f32[16]{0} parameter(0)\n"
      "  %i = f32[] constant(-inf)\n"
      "  %bi = f32[16]{0} broadcast(%i), dimensions={}\n"
      "  %c = f32[] constant(1e-45)\n"
      "  %bc = f32[16]{0} broadcast(%c), dimensions={}\n"
      "  %k = f32[16]{0} multiply(%bi, %bc)\n"
      "  %x = f32[16]{0} multiply(%p, %bc)\n"
      "  %t = f32[] constant(1e-20)\n"
      "  %bt = f32[16]{0} broadcast(%t), dimensions={}\n"
      "  %u = f32[16]{0} multiply(%bt, %bt)\n"
      "  %v = f32[16]{0} add(%u, %p)\n"
      "  ROOT %r = (f32[16]{0}, f32[16]{0}, f32[16]{0}) tuple(%k, %x, %v)\n"
      "}\n"
      "ENTRY %main (a: f32[16]) -> (f32[16], f32[16], f32[16]) {\n"
      "  %a = f32[16]{0} parameter(0)\n"
      "  ROOT %r = (f32[16]{0}, f32[16]{0}, f32[16]{0}) fusion(%a), kind=kLoop, calls=%f\n"
      "}\n";
  float vs[16];
  for (int i = 0; i < 16; i++) vs[i] = i % 4 == 0 ? -INFINITY : i % 4 == 1 ? INFINITY : i % 4 == 2 ? 1e30f : 2.5f;
  for (int backend = 0; backend < 2; backend++) {
    uint32_t r[3][16] = {{0}};
    run_f32(backend, text, vs, 3, r);
    for (int i = 0; i < 16; i++) {
      float k, x, v;
      memcpy(&k, &r[0][i], 4);
      memcpy(&x, &r[1][i], 4);
      memcpy(&v, &r[2][i], 4);
      bool ok = isnan(k) && (i % 4 < 2 ? isnan(x) : x == 0) && memcmp(&v, &vs[i], 4) == 0;
      if (!ok) fprintf(stderr, "  %s [%d]: -inf*1e-45 %g, %g*1e-45 %g, 1e-40 + x %g\n", backend ? "cpu" : "interp", i, k, vs[i], x, v);
      CHECK(ok);
    }
  }
}

int main(void) {
  RUN(pow_edges_f32);
  RUN(pow_edges_bf16);
  RUN(pow_edges_f64);
  RUN(atan2_edges_f32);
  RUN(atan2_edges_bf16);
  RUN(atan2_edges_f64);
  RUN(compare_with_subnormal_constant);
  RUN(logistic_nan_negated);
  RUN(arithmetic_on_subnormal_constants);
  return test_summary(__FILE__);
}
