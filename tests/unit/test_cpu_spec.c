/* Speculative chunks (src/codegen/cg.c emit_inner_speculative): kernels
 * with f32 / bf16 sin or cos compute each chunk of 1024 elements with the
 * argument reduced in f32 (|x| < 2^16), a chunk with an element beyond (or
 * NaN or inf) again with the reduction in double (|x| < 2^20; tan starts
 * there), and a chunk with an element beyond that again the exact way.
 * Against the reference interpreter (f32: see close_elem; bf16 within one
 * bf16 unit), on arguments that put huge values in some chunks and not
 * others, at chunk edges, in a partial last chunk, next to the 2^16 and
 * 2^20 bounds (a chunk that stops at the f32 reduction, one that stops at
 * the double one), beside infinities and NaN (which need no exact
 * reduction), signed zeros and subnormals; in rank-1 and
 * rank-2 nests, multi-output kernels, split over rows (CXLA_CPU_GRAIN 1);
 * and where a chunk must not be computed twice: a column reduction's
 * epilogue reads its own output. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "passes/pass.h"
#include "verify/verify.h"

/* Argument element i of n: small values, with huge ones in some places. */
static double arg_value(int64_t i, int64_t n) {
  double v = sin((double)i * 0.37) * 40.0;
  if (i == 1500 || i == 1023 || i == 2048 || i == n - 1) v = 3.0e9 + (double)i; /* chunks 1, 0, 2, last */
  if (i == 3000) v = -1.0e30;
  if (i == 3001) v = 1048575.9;       /* just below 2^20: fast */
  if (i == 3002) v = -1048576.0;      /* 2^20: exact */
  if (i == 100) v = INFINITY;         /* chunk 0: no exact reduction needed */
  if (i == 101) v = NAN;
  if (i == 102) v = -0.0;
  if (i == 103) v = 1e-40;            /* subnormal: zero under DAZ */
  /* chunk 4: reduced in f32 only, beside its bound, zeros, subnormals */
  if (i == 4200) v = 65535.99609375;  /* the largest f32 below 2^16 */
  if (i == 4201) v = -65535.99609375;
  if (i == 4202) v = 0x1.f9cbe2p+7;   /* the f32 nearest a multiple of pi/2 */
  if (i == 4203) v = -0x1.f9cbe2p+9;
  if (i == 4204) v = -0.0;
  if (i == 4205) v = -1e-40;
  /* chunk 5: again with the reduction in double, not the exact one */
  if (i == 5500) v = 65536.0;
  if (i == 5501) v = -70000.5;
  if (i == 5502) v = NAN;
  if (i == 5503) v = -INFINITY;
  return v;
}

/* f32: within 2^-22 (|w| + 1): sin, cos and tan are each within one unit
 * of the true value, so a compiled result may differ from the
 * interpreter's (correctly rounded through double) by a unit in each,
 * which a product (sin^2: up to 5 units of the square) or a sum that
 * cancels (cos + tan) carries. */
static bool close_elem(double w, double g, ElemType t) {
  if (isnan(w) || isnan(g)) return isnan(w) && isnan(g);
  if (w == 0 && g == 0) return signbit(w) == signbit(g);
  double tol = t == T_BF16 ? 0x1p-7 * fabs(w) : 0x1p-22 * (fabs(w) + 1);
  return fabs(w - g) <= tol + 1e-30;
}

static bool run(const char *name, const char *text) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  int np = s ? 0 : m->entry->nparams;
  if (!s && !(args = cxla_calloc((size_t)np + 1, sizeof *args))) s = cxla_oom();
  for (int i = 0; i < np && !s; i++) {
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
    for (int64_t e = 0; !s && e < args[i]->nelems; e++) literal_set_f64(args[i], e, arg_value(e + 7 * i, args[i]->nelems));
  }
  if (!s) s = cxla_interp_run(m, args, np, &want);
  if (!s) s = pipeline_run(m, NULL, 0, &po);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, np, &got);
  bool ok = !s;
  if (s) printf("%s: %s\n", name, cxla_status_message(s));
  int nl = ok ? (want->type == T_TUPLE ? want->ntuple : 1) : 0;
  for (int k = 0; k < nl && ok; k++) {
    const Literal *w = want->type == T_TUPLE ? want->tuple[k] : want;
    const Literal *g = got->type == T_TUPLE ? got->tuple[k] : got;
    ok = w->nelems == g->nelems && w->type == g->type;
    for (int64_t i = 0; ok && i < w->nelems; i++) {
      double a = literal_get_f64(w, i), b = literal_get_f64(g, i);
      if (!close_elem(a, b, w->type)) {
        printf("%s: result %d element %lld: want %.9g got %.9g\n", name, k, (long long)i, a, b);
        ok = false;
      }
    }
  }
  cxla_status_free(s);
  for (int i = 0; i < np && args; i++) literal_free(args[i]);
  cxla_free(args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

static const char k_sin_sq[] =
    "HloModule m\nENTRY e {\n  x = f32[6200] parameter(0)\n  s = f32[6200] sine(x)\n"
    "  ROOT r = f32[6200] multiply(s, s)\n}\n";

/* sin and cos alone: signed zeros kept */
static const char k_sin[] =
    "HloModule m\nENTRY e {\n  x = f32[6200] parameter(0)\n  ROOT s = f32[6200] sine(x)\n}\n";
static const char k_cos[] =
    "HloModule m\nENTRY e {\n  x = f32[6200] parameter(0)\n  ROOT s = f32[6200] cosine(x)\n}\n";

static const char k_rank2[] =
    "HloModule m\nENTRY e {\n  x = f32[3,1700] parameter(0)\n  c = f32[3,1700] cosine(x)\n"
    "  t = f32[3,1700] tan(x)\n  ROOT r = f32[3,1700] add(c, t)\n}\n";

/* rows short enough to be flattened with the next dim (split > 1) */
static const char k_split[] =
    "HloModule m\nENTRY e {\n  x = f32[2,4,700] parameter(0)\n  ROOT s = f32[2,4,700] sine(x)\n}\n";

static const char k_bf16[] =
    "HloModule m\nENTRY e {\n  x = bf16[4000] parameter(0)\n  ROOT s = bf16[4000] sine(x)\n}\n";

/* sin and cos of one argument: a multi-output kernel */
static const char k_multi[] =
    "HloModule m\nENTRY e {\n  x = f32[4000] parameter(0)\n  s = f32[4000] sine(x)\n"
    "  c = f32[4000] cosine(x)\n  n = f32[4000] negate(c)\n  ROOT t = (f32[4000], f32[4000]) tuple(s, n)\n}\n";

/* f64: no speculation, the same answers */
static const char k_f64[] =
    "HloModule m\nENTRY e {\n  x = f64[3000] parameter(0)\n  ROOT s = f64[3000] sine(x)\n}\n";

/* sin of column maxima (some beyond 2^20; max: exact on both sides): the
 * column reduction keeps its maxima in the output and the epilogue
 * rewrites them, which must happen once */
static const char k_colsum[] =
    "HloModule m\nmx { a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] maximum(a, b) }\n"
    "ENTRY e {\n  x = f32[3,2500] parameter(0)\n  z = f32[] constant(-inf)\n"
    "  r = f32[2500] reduce(x, z), dimensions={0}, to_apply=mx\n  ROOT s = f32[2500] sine(r)\n}\n";

TEST(speculative_trig) {
  CHECK(run("sin_sq", k_sin_sq));
  CHECK(run("sin", k_sin));
  CHECK(run("cos", k_cos));
  CHECK(run("rank2", k_rank2));
  CHECK(run("split", k_split));
  CHECK(run("bf16", k_bf16));
  CHECK(run("multi", k_multi));
  CHECK(run("f64", k_f64));
}

TEST(not_twice_in_place) { CHECK(run("colsum", k_colsum)); }

TEST(split_over_rows) {
  /* every kernel split row by row (the executor's grain); one thread runs
   * the slices in turn, each its own chunks */
  setenv("CXLA_CPU_GRAIN", "1", 1);
  CHECK(run("sin_sq rows", k_sin_sq));
  CHECK(run("rank2 rows", k_rank2));
  CHECK(run("colsum rows", k_colsum));
  unsetenv("CXLA_CPU_GRAIN");
}

int main(void) {
  RUN(speculative_trig);
  RUN(not_twice_in_place);
  RUN(split_over_rows);
  return test_summary(__FILE__);
}
