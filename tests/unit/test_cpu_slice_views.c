/* slice-views (src/passes/slice_views.c) in the cpu backend's pipeline,
 * and contiguous slices run as views (src/cpu/compile.c: a slice's
 * address in its operand, no copy). Each case runs the module
 * unoptimized on the interpreter, then optimized (pipeline_run_keep_scans)
 * on the cpu backend on one thread and on two: the results must equal the
 * interpreter's (integers exactly, floats to cpu_vs_interp's relative
 * 1e-5), and the optimized module must have exactly the expected number
 * of slices moved out of fusions (slices outside fusion computations) and
 * left inside. A loop unrolled over row blocks must compile to one kernel
 * for all its blocks (the rest aliases, CpuCompileStats.nshared).
 * Moved: one row or a block of rows of a matrix, a run of the middle dim
 * of a rank-3 array; left inside: a column block, a strided slice, a
 * parameter read by two slices. A contiguous slice that is the entry's
 * result and one of an intermediate value are checked too. */
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
#include "verify/verify.h"

static double value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param;
  return floor(u * 100) - 50 + (double)(e % 7) / 8; /* exact in f32, distinct per element */
}

/* Slices in fusion computations (*inside) and elsewhere (*outside). */
static void count_slices(const HloModule *m, int *inside, int *outside) {
  *inside = *outside = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++)
      if (m->comps[i]->instrs[k]->op == OP_SLICE) ++*(m->comps[i]->is_fusion ? inside : outside);
}

/* The check described at the top: `moved` slices outside fusions and
 * `kept` inside after the pipeline; nshared >= min_shared. */
static bool check(const char *name, const char *text, int moved, int kept, int min_shared) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *one = NULL, *two = NULL;
  CpuCompileStats st;
  memset(&st, 0, sizeof st);
  PipelineOptions po = {.verify = true, .module_number = 1};
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args_fn(m, 11, value, NULL, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = pipeline_run_keep_scans(m, &po);
  if (!s) s = cpu_vs_interp_run_cpu(m, args, 1, &st, &one);
  if (!s) s = cpu_vs_interp_run_cpu(m, args, 2, NULL, &two);
  bool ok = !s;
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  int in = 0, out = 0;
  if (ok) count_slices(m, &in, &out);
  if (ok && (out != moved || in != kept)) {
    fprintf(stderr, "%s: %d slices outside fusions and %d inside, %d and %d expected\n", name, out, in, moved, kept);
    ok = false;
  }
  if (ok && st.nshared < min_shared) {
    fprintf(stderr, "%s: %d of %d kernels shared, at least %d expected\n", name, st.nshared, st.nkernels, min_shared);
    ok = false;
  }
  if (ok) ok = cpu_vs_interp_threads_agree(name, want, one, two, false);
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(one);
  literal_free(two);
  cxla_module_destroy(m);
  return ok;
}

/* A scan unrolled n times over blocks of x = T[n*rows*step, cols]: block
 * i (rows [i*rows*step, (i+1)*rows*step) step `step`, columns [c0, c1))
 * combined with the carry, tanh(s + c) (s32: s * c + s), then multiplied
 * by w (a dot, which fusion leaves apart) into the next carry: one fusion
 * per step, each reading its block of x and the carry before it. */
static char *unrolled(const char *t, int n, int rows, int cols, int c0, int c1, int step) {
  size_t cap = 4096 + (size_t)n * 512;
  char *b = malloc(cap);
  int w = c1 - c0;
  bool fl = t[0] == 'f';
  int len = snprintf(b, cap,
                     "HloModule unrolled\n\nENTRY main {\n  x = %s[%d,%d] parameter(0)\n  w = %s[%d,%d] parameter(1)\n"
                     "  c.0 = %s[%d,%d] parameter(2)\n",
                     t, n * rows * step, cols, t, w, w, t, rows, w);
  for (int i = 0; i < n; i++) {
    int r0 = i * rows * step, r1 = r0 + rows * step;
    len += snprintf(b + len, cap - (size_t)len, "  s.%d = %s[%d,%d] slice(x), slice={[%d:%d:%d], [%d:%d]}\n", i, t,
                    rows, w, r0, r1, step, c0, c1);
    if (fl) {
      len += snprintf(b + len, cap - (size_t)len, "  a.%d = %s[%d,%d] add(s.%d, c.%d)\n", i, t, rows, w, i, i);
      len += snprintf(b + len, cap - (size_t)len, "  h.%d = %s[%d,%d] tanh(a.%d)\n", i, t, rows, w, i);
    } else {
      len += snprintf(b + len, cap - (size_t)len, "  a.%d = %s[%d,%d] multiply(s.%d, c.%d)\n", i, t, rows, w, i, i);
      len += snprintf(b + len, cap - (size_t)len, "  h.%d = %s[%d,%d] add(a.%d, s.%d)\n", i, t, rows, w, i, i);
    }
    len += snprintf(b + len, cap - (size_t)len,
                    "  c.%d = %s[%d,%d] dot(h.%d, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n", i + 1, t,
                    rows, w, i);
  }
  snprintf(b + len, cap - (size_t)len, "  ROOT r = %s[%d,%d] copy(c.%d)\n}\n", t, rows, w, n);
  return b;
}

/* Unrolled scans: moved (one row, full width; blocks of 5 rows of s32,
 * exact), every block's fusion then one kernel; kept (a block of columns,
 * rows apart in memory; every other row). */
TEST(unrolled_scans) {
  static const struct {
    const char *name, *type;
    int n, rows, cols, c0, c1, step, moved, kept, shared;
  } cases[] = {
      {"rows_f32", "f32", 24, 1, 16, 0, 16, 1, 24, 0, 20}, {"blocks_s32", "s32", 9, 5, 33, 0, 33, 1, 9, 0, 6},
      {"columns", "f32", 6, 2, 16, 4, 12, 1, 0, 6, 0},     {"strided", "s32", 5, 3, 8, 0, 8, 2, 0, 5, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *t = unrolled(cases[i].type, cases[i].n, cases[i].rows, cases[i].cols, cases[i].c0, cases[i].c1, cases[i].step);
    CHECK(check(cases[i].name, t, cases[i].moved, cases[i].kept, cases[i].shared));
    free(t);
  }
}

TEST(rank3_middle_run_and_two_slices_of_one_param) {
  /* [2:3], [1:4], [0:16] of f32[4,6,16]: one run; [1:2], [0:6], [0:8] is not */
  CHECK(check("rank3",
              "HloModule r3\n\nENTRY main {\n  x = f32[4,6,16] parameter(0)\n"
              "  a = f32[1,3,16] slice(x), slice={[2:3], [1:4], [0:16]}\n  ea = f32[1,3,16] exponential(a)\n"
              "  b = f32[1,6,8] slice(x), slice={[1:2], [0:6], [0:8]}\n  eb = f32[1,6,8] exponential(b)\n"
              "  ROOT t = (f32[1,3,16], f32[1,6,8]) tuple(ea, eb)\n}\n",
              1, 1, 0));
  /* one fused parameter read by two slices: both stay */
  CHECK(check("two_slices",
              "HloModule two\n\nENTRY main {\n  x = s32[8,16] parameter(0)\n"
              "  a = s32[1,16] slice(x), slice={[2:3], [0:16]}\n  b = s32[1,16] slice(x), slice={[5:6], [0:16]}\n"
              "  ROOT m = s32[1,16] multiply(a, b)\n}\n",
              0, 2, 0));
}

TEST(views_as_results_and_of_intermediates) {
  /* the entry's result a contiguous slice (a view, copied into the
   * caller's array), and a tuple of two */
  CHECK(check("result_view",
              "HloModule rv\n\nENTRY main {\n  x = s32[10,7] parameter(0)\n"
              "  ROOT s = s32[3,7] slice(x), slice={[4:7], [0:7]}\n}\n",
              1, 0, 0));
  CHECK(check("result_views",
              "HloModule rv2\n\nENTRY main {\n  x = f32[10,7] parameter(0)\n"
              "  a = f32[1,7] slice(x), slice={[9:10], [0:7]}\n  b = f32[2,7] slice(x), slice={[0:2], [0:7]}\n"
              "  ROOT t = (f32[1,7], f32[2,7]) tuple(a, b)\n}\n",
              2, 0, 0));
  /* blocks of a value computed first (a kernel's output), both read by
   * one fusion (so they stay in it), and the value itself a result */
  CHECK(check("intermediate",
              "HloModule im\n\nENTRY main {\n  x = f32[6,32] parameter(0)\n  y = f32[6,32] parameter(1)\n"
              "  p = f32[6,32] multiply(x, y)\n  q = f32[6,32] exponential(p)\n"
              "  a = f32[2,32] slice(q), slice={[0:2], [0:32]}\n  b = f32[2,32] slice(q), slice={[4:6], [0:32]}\n"
              "  ta = f32[2,32] tanh(a)\n  tb = f32[2,32] tanh(b)\n  s = f32[2,32] add(ta, tb)\n"
              "  ROOT t = (f32[2,32], f32[6,32]) tuple(s, q)\n}\n",
              0, 2, 0));
}

int main(void) {
  RUN(unrolled_scans);
  RUN(rank3_middle_run_and_two_slices_of_one_param);
  RUN(views_as_results_and_of_intermediates);
  return test_summary(__FILE__);
}
