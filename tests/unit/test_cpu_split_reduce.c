/* reduce-splitter (src/passes/reduce_splitter.c) in the cpu backend's
 * pipeline: a large reduce to a scalar becomes per-row partials reduced
 * again, so that its rows split over the threads. Each case runs the
 * module unoptimized on the interpreter, then optimized (the cpu
 * pipeline, pipeline_run_keep_scans) on the cpu backend on one thread and
 * on two (every kernel split into one-row slices): the two cpu results
 * must be the same bits (the partition depends on the shape only), and
 * equal the interpreter's bit for bit for integer sums and for max / min
 * (NaNs included: the first NaN in index order, -0 below +0), and to a
 * relative 1e-5 for float sums (cpu_vs_interp's tolerance; the values are
 * in [0, 1), no cancellation). Shapes: partial counts that do not divide
 * the threads' slices, odd row lengths, several leading dims kept, a
 * fused producer and epilogue; column reductions split over their first
 * reduced dim (through a bitcast, or that dim whole), batch-norm
 * statistics; sums over short columns (fewer than 16 elements) folded
 * into rows of whole vectors; and reduces the pass must leave alone (small, a multiply,
 * integer sum with a non-zero init, rank 1, columns too wide or too few
 * rows, exact mode). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "passes/pass.h"
#include "runtime/threadpool.h"
#include "verify/verify.h"

/* Argument values: kind 0 uniform in [0, 1); 1 integers in [-50, 50)
 * with -0 among them; 2 as 1 with two NaNs (elements nan_at and
 * nan_at + 7) when nan_at >= 0. */
typedef struct Vals {
  int kind;
  int64_t nan_at;
} Vals;

static double value(void *ctx, int param, int64_t e, double u) {
  const Vals *v = ctx;
  (void)param;
  if (v->kind == 0) return u;
  if (v->kind == 2 && v->nan_at >= 0 && (e == v->nan_at || e == v->nan_at + 7)) return NAN;
  if (e % 13 == 12) return -0.0;
  return floor(u * 100) - 50;
}

/* Reduces in m (fused ones included) with an array result of rank >= 1. */
static int partial_reduces(const HloModule *m) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      n += in->op == OP_REDUCE && type_is_array(in->shape->type) && in->shape->rank >= 1;
    }
  return n;
}

static cxla_status run_cpu(const HloModule *m, Literal **args, bool split, Literal **out) {
  if (split) setenv("CXLA_CPU_GRAIN", "1", 1);
  cxla_status s = cpu_vs_interp_run_cpu(m, args, split ? 2 : 1, NULL, out);
  if (split) unsetenv("CXLA_CPU_GRAIN");
  return s;
}

/* The check described at the top; `split`: whether the pass must fire. */
static bool check(const char *name, const char *text, Vals vals, bool exact, bool split) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *one = NULL, *two = NULL;
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args_fn(m, 7, value, &vals, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  int before = s ? 0 : partial_reduces(m);
  if (!s) s = pipeline_run_keep_scans(m, &po);
  if (!s) s = run_cpu(m, args, false, &one);
  if (!s) s = run_cpu(m, args, true, &two);
  bool ok = !s;
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  if (ok && (partial_reduces(m) > before) != split) {
    fprintf(stderr, "%s: the pass %s\n", name, split ? "did not fire" : "fired");
    ok = false;
  }
  if (ok) ok = cpu_vs_interp_threads_agree(name, want, one, two, exact);
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(one);
  literal_free(two);
  cxla_module_destroy(m);
  return ok;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  static char buf[4096];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

/* reduce of x[dims] (all of them: `all`) with reducer op and init */
static const char *full(const char *t, const char *op, const char *init, const char *dims, const char *all) {
  return fmt("HloModule m\n\nr {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT c = %s[] %s(a, b)\n}\n\n"
             "ENTRY e {\n  x = %s[%s] parameter(0)\n  i = %s[] constant(%s)\n"
             "  ROOT s = %s[] reduce(x, i), dimensions={%s}, to_apply=r\n}\n",
             t, t, t, op, t, dims, t, init, t, all);
}

TEST(float_sums) {
  Vals u = {0, -1};
  CHECK(check("f32_37", full("f32", "add", "0", "37,3001", "0,1"), u, false, true));
  CHECK(check("f32_3x5", full("f32", "add", "0", "3,5,7001", "0,1,2"), u, false, true));
  CHECK(check("f32_negzero_init", full("f32", "add", "-0", "19,4099", "0,1"), u, false, true));
  CHECK(check("f64_64", full("f64", "add", "0", "64,1025", "0,1"), u, false, true));
  /* a producer and an epilogue fused around the partials, as a loss */
  CHECK(check("fused_loss",
              "HloModule m\n\nr {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n"
              "ENTRY e {\n  x = f32[6,7,41,61] parameter(0)\n  sq = f32[6,7,41,61] multiply(x, x)\n"
              "  z = f32[] constant(0)\n  s = f32[] reduce(sq, z), dimensions={0,1,2,3}, to_apply=r\n"
              "  k = f32[] constant(0.5)\n  ROOT m = f32[] multiply(s, k)\n}\n",
              u, false, true));
}

/* reduce of x[dims] over `red`, kept dims `kept` */
static const char *cols(const char *t, const char *op, const char *init, const char *dims, const char *red,
                        const char *kept) {
  return fmt("HloModule m\n\nr {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT c = %s[] %s(a, b)\n}\n\n"
             "ENTRY e {\n  x = %s[%s] parameter(0)\n  i = %s[] constant(%s)\n"
             "  ROOT s = %s[%s] reduce(x, i), dimensions={%s}, to_apply=r\n}\n",
             t, t, t, op, t, dims, t, init, t, kept, red);
}

TEST(column_sums) {
  Vals u = {0, -1};
  /* 16 partials of 125 rows (a bitcast to [16,125,37]) */
  CHECK(check("col_2000x37", cols("f32", "add", "0", "2000,37", "0", "37"), u, false, true));
  /* 8 partials, the batch dim whole (no bitcast) */
  CHECK(check("col_nhwc", cols("f32", "add", "0", "8,29,31,24", "0,1,2", "24"), u, false, true));
  CHECK(check("col_f64_15", cols("f64", "add", "0", "3000,33", "0", "33"), u, false, true));
  CHECK(check("col_two_kept", cols("f32", "add", "-0", "4096,4,5", "0", "4,5"), u, false, true));
  /* batch-norm statistics: the two sums' partials in one sweep, the
   * mean and variance after the second reduces */
  CHECK(check("bn_stats",
              "HloModule m\n\nr {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\n"
              "ENTRY e {\n  x = f32[8,20,20,24] parameter(0)\n  z = f32[] constant(0)\n"
              "  s = f32[24] reduce(x, z), dimensions={0,1,2}, to_apply=r\n"
              "  sq = f32[8,20,20,24] multiply(x, x)\n  q = f32[24] reduce(sq, z), dimensions={0,1,2}, to_apply=r\n"
              "  k = f32[] constant(0.0003125)\n  kb = f32[24] broadcast(k), dimensions={}\n"
              "  mean = f32[24] multiply(s, kb)\n  ex2 = f32[24] multiply(q, kb)\n"
              "  m2 = f32[24] multiply(mean, mean)\n  var = f32[24] subtract(ex2, m2)\n"
              "  ROOT out = f32[48] concatenate(mean, var), dimensions={0}\n}\n",
              u, false, true));
}

/* Sums over columns of fewer than 16 elements: g positions of the run's
 * last dim folded into one row of g K (16 K / gcd(K, 16)) elements, then
 * the g partials summed: RGB channels over H and W, columns of 4 over the
 * batch (after the column split, its bitcast folded into this one),
 * integer sums (exact), two kept dims of 2 x 3; left alone: a run whose
 * last dim is no multiple of g, and a max. */
TEST(short_columns) {
  Vals u = {0, -1}, ints = {1, -1};
  CHECK(check("rgb", cols("f32", "add", "0", "8,64,48,3", "1,2", "8,3"), u, false, true));
  CHECK(check("cols_of_4", cols("f32", "add", "0", "40000,4", "0", "4"), u, false, true));
  CHECK(check("s32_cols_of_6", cols("s32", "add", "0", "16,1024,6", "1", "16,6"), ints, true, true));
  CHECK(check("kept_2x3", cols("f32", "add", "0", "8,2048,2,3", "1", "8,2,3"), u, false, true));
  CHECK(check("run_5001", cols("f32", "add", "0", "16,5001,3", "1", "16,3"), u, false, false));
  CHECK(check("max_of_3", cols("f32", "maximum", "-inf", "16,1024,3", "1", "16,3"), u, true, false));
}

TEST(exact_reductions) {
  Vals ints = {1, -1};
  CHECK(check("s32_sum", full("s32", "add", "0", "33,2049", "0,1"), ints, true, true));
  CHECK(check("s64_sum", full("s64", "add", "0", "5,3,4500", "0,1,2"), ints, true, true));
  CHECK(check("s32_max", full("s32", "maximum", "-7", "40,1700", "0,1"), ints, true, true));
  /* NaNs in a middle partial, in the last one, none; -0 next to +0 */
  int64_t at[] = {-1, 30000, 65000};
  for (int i = 0; i < 3; i++) {
    Vals v = {2, at[i]};
    CHECK(check("f32_max", full("f32", "maximum", "-inf", "41,1601", "0,1"), v, true, true));
    CHECK(check("f32_min_init", full("f32", "minimum", "3", "41,1601", "0,1"), v, true, true));
    CHECK(check("f64_max", full("f64", "maximum", "-inf", "17,4001", "0,1"), v, true, true));
  }
  Vals nan_init = {1, -1};
  CHECK(check("f32_max_nan_init", full("f32", "maximum", "nan", "41,1601", "0,1"), nan_init, true, true));
  /* columns: integer sums, max with NaNs (in a middle partial, the last) */
  CHECK(check("col_s32", cols("s32", "add", "0", "4000,20", "0", "20"), ints, true, true));
  for (int i = 0; i < 3; i++) {
    Vals v = {2, at[i] + 11};
    CHECK(check("col_f32_max", cols("f32", "maximum", "-inf", "2000,40", "0", "40"), v, true, true));
    CHECK(check("col_f32_min", cols("f32", "minimum", "5", "4,70,9,33", "0,1,2", "33"), v, true, true));
  }
}

TEST(left_alone) {
  Vals u = {0, -1}, ints = {1, -1};
  CHECK(check("small", full("f32", "add", "0", "100,100", "0,1"), u, false, false));
  CHECK(check("s32_multiply", full("s32", "multiply", "1", "40,2000", "0,1"), ints, true, false));
  CHECK(check("s32_init7", full("s32", "add", "7", "33,2049", "0,1"), ints, true, false));
  CHECK(check("rank1", full("f32", "add", "0", "100000", "0"), u, false, false));
  /* rows of 80 KB (the partials' accumulators would leave the cache);
   * 64 rows (no partial of 64 rows and more than one of them) */
  CHECK(check("col_wide", cols("f32", "add", "0", "100,20000", "0", "20000"), u, false, false));
  CHECK(check("col_few_rows", cols("f32", "add", "0", "64,2048", "0", "2048"), u, false, false));
}

/* The pass itself in exact mode (PassContext.exact): float sums stay one
 * reduce, integer sums and float max still split. */
static int split_exact(const char *text) {
  cxla_module *m = NULL;
  const char *names[] = {"reduce-splitter"};
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), "exact", &m);
  if (!s) s = pipeline_run_exact(m, names, 1, &po);
  int n = s ? -1 : partial_reduces(m);
  cxla_status_free(s);
  cxla_module_destroy(m);
  return n;
}

TEST(exact_mode) {
  CHECK(split_exact(full("f32", "add", "0", "37,3001", "0,1")) == 0);
  CHECK(split_exact(full("s32", "add", "0", "37,3001", "0,1")) == 1);
  CHECK(split_exact(full("f32", "maximum", "-inf", "37,3001", "0,1")) == 1);
  CHECK(split_exact(cols("f32", "add", "0", "2000,37", "0", "37")) == 1); /* the reduce itself */
  CHECK(split_exact(cols("s32", "add", "0", "2000,37", "0", "37")) == 2);
}

int main(void) {
  RUN(exact_mode);
  RUN(float_sums);
  RUN(column_sums);
  RUN(short_columns);
  RUN(exact_reductions);
  RUN(left_alone);
  return test_summary(__FILE__);
}
