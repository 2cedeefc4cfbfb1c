/* The cpu backend's GEMM plans against the reference interpreter:
 *   - a dot whose only use is a bitcast transposing its last two dims is
 *     computed transposed (operands swapped) and the bitcast is a view
 *     (compile.c: gemm_transposes): every transpose combination, batches,
 *     f32/f64/c64/s8, BLAS (finite operands) and the plain loops (NaN);
 *     and where it must not fire: another use of the dot, a bitcast that
 *     is a reshape, several free dims on a side.
 *   - an argument buffer's finiteness (the operand scan before BLAS) is
 *     kept across executions while its data cannot change, and given up
 *     once cxla_buffer_data hands out a writable pointer.
 * Each case checks the plan (which steps the program has) and the values
 * (floats to a relative 1e-5 of the largest result, integers exactly). */
#include <math.h>
#include <stdlib.h>

#include "cpu_vs_interp.h"
#include "harness.h"
#include "cpu/cpu_internal.h"
#include "cxla/runtime.h"
#include "runtime/runtime_internal.h"
#include "interp/interp.h"
#include "verify/verify.h"

/* Arguments: uniform in [-4, 4) (integers: small whole numbers); with nan,
 * every 11th element of a float argument a NaN. */
static cxla_status make_args(const HloModule *m, bool nan, Literal ***out) {
  const Computation *c = m->entry;
  Literal **a = cxla_calloc((size_t)(c->nparams ? c->nparams : 1), sizeof *a);
  if (!a) return cxla_oom();
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < c->nparams; i++) {
    cxla_status s = literal_create_for_shape(c->params[i]->shape, &a[i]);
    if (s) {
      for (int k = 0; k < i; k++) literal_free(a[k]);
      cxla_free(a);
      return s;
    }
    bool is_float = type_kind(a[i]->type) == TK_FLOAT;
    int64_t n = a[i]->nelems * (type_is_complex(a[i]->type) ? 2 : 1);
    for (int64_t e = 0; e < n; e++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      double v = (double)(x >> 11) / 9007199254740992.0 * 8 - 4;
      if (!is_float && !type_is_complex(a[i]->type)) v = floor(v);
      else if (nan && e % 11 == 5) v = NAN;
      if (type_is_complex(a[i]->type)) ((float *)a[i]->data)[e] = (float)v; /* c64 only here */
      else literal_set_f64(a[i], e, v);
    }
  }
  *out = a;
  return NULL;
}

/* The step of the instruction named `name` in the entry program. */
static const Step *step_named(const CpuExecutable *x, const char *name) {
  const Program *p = x->entry;
  for (int i = 0; i < p->nsteps; i++)
    if (p->steps[i].in && strcmp(p->steps[i].in->name, name) == 0) return &p->steps[i];
  return NULL;
}

/* Runs text on both backends (no pipeline: the shapes as written) and
 * compares; *swapped receives whether dot `d` was planned transposed with
 * bitcast `t` a view of it. */
static bool run_case(const char *name, const char *text, bool nan, bool *swapped) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  *swapped = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = make_args(m, nan, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, m->entry->nparams, &got);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    const Step *d = step_named(x, "d"), *t = step_named(x, "t");
    *swapped = d && t && d->kind == ST_BLAS_DOT && d->swap && t->kind == ST_VIEW;
    ok = cpu_vs_interp_close(name, want, got, false);
  }
  cxla_status_free(s);
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

TEST(transposed_results) {
  /* lhs [M,K] or [K,M], rhs [K,N] or [N,K]: M=5, K=7, N=3 */
  const char *lhs[2] = {"f32[5,7]{1,0}", "f32[7,5]{1,0}"}, *rhs[2] = {"f32[7,3]{1,0}", "f32[3,7]{1,0}"};
  const char *lc[2] = {"1", "0"}, *rc[2] = {"0", "1"};
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++)
      for (int nan = 0; nan < 2; nan++) {
        char text[1024], name[64];
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s parameter(0)\n  b = %s parameter(1)\n"
                 "  d = f32[5,3]{1,0} dot(a, b), lhs_contracting_dims={%s}, rhs_contracting_dims={%s}\n"
                 "  ROOT t = f32[3,5]{0,1} bitcast(d)\n}\n",
                 lhs[ta], rhs[tb], lc[ta], rc[tb]);
        snprintf(name, sizeof name, "2d ta=%d tb=%d nan=%d", ta, tb, nan);
        bool sw;
        CHECK(run_case(name, text, nan, &sw));
        CHECK(sw);
      }
  /* batched, each type the GEMMs take */
  const char *types[4] = {"f32", "f64", "c64", "s8"};
  for (int ti = 0; ti < 4; ti++)
    for (int nan = 0; nan < 2; nan++) {
      const char *t = types[ti], *o = strcmp(t, "s8") == 0 ? "s32" : t;
      char text[1024], name[64];
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[2,7,4]{2,1,0} parameter(0)\n  b = %s[2,6,7]{2,1,0} parameter(1)\n"
               "  d = %s[2,4,6]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
               "lhs_contracting_dims={1}, rhs_contracting_dims={2}\n"
               "  ROOT t = %s[2,6,4]{1,2,0} bitcast(d)\n}\n",
               t, t, o, o);
      snprintf(name, sizeof name, "batched %s nan=%d", t, nan);
      bool sw;
      CHECK(run_case(name, text, nan, &sw));
      CHECK(sw);
    }
  /* larger: BLAS's blocked kernels, not just its edges */
  bool sw;
  CHECK(run_case("64x80x96",
                 "HloModule m\nENTRY e {\n  a = f32[96,64]{1,0} parameter(0)\n  b = f32[96,80]{1,0} parameter(1)\n"
                 "  d = f32[64,80]{1,0} dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
                 "  ROOT t = f32[80,64]{0,1} bitcast(d)\n}\n",
                 false, &sw));
  CHECK(sw);
}

TEST(transposed_results_must_not_fire) {
  bool sw;
  /* the dot has another use: it keeps its own layout */
  CHECK(run_case("two uses",
                 "HloModule m\nENTRY e {\n  a = f32[5,7]{1,0} parameter(0)\n  b = f32[7,3]{1,0} parameter(1)\n"
                 "  d = f32[5,3]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                 "  t = f32[3,5]{0,1} bitcast(d)\n  n = f32[5,3]{1,0} negate(d)\n"
                 "  ROOT r = (f32[3,5]{0,1}, f32[5,3]{1,0}) tuple(t, n)\n}\n",
                 false, &sw));
  CHECK(!sw);
  /* a bitcast that is a reshape, not a transpose */
  CHECK(run_case("reshape",
                 "HloModule m\nENTRY e {\n  a = f32[5,7]{1,0} parameter(0)\n  b = f32[7,3]{1,0} parameter(1)\n"
                 "  d = f32[5,3]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                 "  ROOT t = f32[3,5]{1,0} bitcast(d)\n}\n",
                 false, &sw));
  CHECK(!sw);
  /* two free dims on the lhs: the GEMM's m is 2x3, the bitcast swaps 3 and 4 */
  CHECK(run_case("two free dims",
                 "HloModule m\nENTRY e {\n  a = f32[2,3,5]{2,1,0} parameter(0)\n  b = f32[5,4]{1,0} parameter(1)\n"
                 "  d = f32[2,3,4]{2,1,0} dot(a, b), lhs_contracting_dims={2}, rhs_contracting_dims={0}\n"
                 "  ROOT t = f32[2,4,3]{1,2,0} bitcast(d)\n}\n",
                 false, &sw));
  CHECK(!sw);
  /* a bitcast that moves the batch dim */
  CHECK(run_case("batch moved",
                 "HloModule m\nENTRY e {\n  a = f32[2,3,5]{2,1,0} parameter(0)\n  b = f32[2,5,4]{2,1,0} parameter(1)\n"
                 "  d = f32[2,3,4]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                 "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n"
                 "  ROOT t = f32[4,3,2]{0,1,2} bitcast(d)\n}\n",
                 false, &sw));
  CHECK(!sw);
}

/* Tall f32 products past the small-GEMM kernel's row limit (1024) whose
 * blocks of 1024 rows fit it run block after block (routines.c:
 * gemm_float): last partial blocks, NaNs propagated as the interpreter
 * does; and on BLAS as before: blocks of 1024 rows too large (m n k
 * limit), a transposed lhs. */
TEST(tall_products) {
  static const struct {
    int m, k, n;
    bool ta;
  } cases[] = {{2500, 64, 96, false}, {1100, 100, 700, false}, {2049, 3, 5, false}, {1100, 300, 700, false}, {1500, 16, 24, true}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int nan = 0; nan < 2; nan++) {
      char text[1024], name[64], lhs[64];
      int m = cases[c].m, k = cases[c].k, n = cases[c].n;
      if (cases[c].ta) snprintf(lhs, sizeof lhs, "f32[%d,%d]{1,0}", k, m);
      else snprintf(lhs, sizeof lhs, "f32[%d,%d]{1,0}", m, k);
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s parameter(0)\n  b = f32[%d,%d]{1,0} parameter(1)\n"
               "  ROOT d = f32[%d,%d]{1,0} dot(a, b), lhs_contracting_dims={%d}, rhs_contracting_dims={0}\n}\n",
               lhs, k, n, m, n, cases[c].ta ? 0 : 1);
      snprintf(name, sizeof name, "tall %dx%dx%d ta=%d nan=%d", m, k, n, cases[c].ta, nan);
      bool sw;
      CHECK(run_case(name, text, nan, &sw));
    }
}

/* A copied f64 buffer; NULL on error (printed). */
static cxla_buffer *f64_buffer(cxla_client *c, const double *v, int64_t rows, int64_t cols) {
  int64_t dims[2] = {rows, cols};
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_F64;
  h.rank = 2;
  h.dims = dims;
  h.data = v;
  h.size = (size_t)(rows * cols) * sizeof *v;
  cxla_buffer *b = NULL;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  return b;
}

/* a (2x3) . b (3x2) on e into r; false on error. */
static bool run_dot(cxla_executable *e, cxla_buffer *a, cxla_buffer *b, double r[4]) {
  cxla_buffer *args[2] = {a, b}, *out = NULL;
  cxla_status s = cxla_executable_execute(e, args, 2, NULL, &out, NULL);
  if (!s) s = cxla_buffer_to_host(out, r, 4 * sizeof *r, NULL);
  cxla_buffer_destroy(out);
  CHECK_OK(s);
  return !s;
}

TEST(argument_finiteness_kept) {
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  cxla_client *c = NULL;
  CHECK_OK(cxla_client_create(&o, &c));
  if (!c) return;
  const char *text = "HloModule f\nENTRY main {\n  a = f64[2,3] parameter(0)\n  b = f64[3,2] parameter(1)\n"
                     "  ROOT d = f64[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "f", &m));
  if (m) CHECK_OK(cxla_client_compile(c, m, NULL, &e));
  cxla_module_destroy(m);
  /* b's first row holds a zero: an infinity in a's first column gives
   * inf * 0 = NaN in C[0][0] and inf in C[0][1] (hand-computed) */
  double av[6] = {1, 2, 3, 4, 5, 6}, bv[6] = {0, 1, 1, 0, 1, 1}, iv[6] = {INFINITY, 2, 3, 4, 5, 6}, r[4];
  cxla_buffer *a = f64_buffer(c, av, 2, 3), *b = f64_buffer(c, bv, 3, 2), *inf = f64_buffer(c, iv, 2, 3);
  if (e && a && b && inf) {
    /* finite: scanned on the first execution, the answer kept */
    for (int rep = 0; rep < 2; rep++) {
      CHECK(run_dot(e, a, b, r) && r[0] == 5 && r[1] == 4 && r[2] == 11 && r[3] == 10);
      CHECK(a->finite == 1 && b->finite == 1);
    }
    /* an infinity: found once, and the answer kept keeps it off BLAS */
    for (int rep = 0; rep < 2; rep++) {
      CHECK(run_dot(e, inf, b, r) && isnan(r[0]) && isinf(r[1]) && r[1] > 0 && r[2] == 11 && r[3] == 10);
      CHECK(inf->finite == 2);
    }
    /* written through cxla_buffer_data after it was found finite: the
     * kept answer is not used any more */
    double *p = cxla_buffer_data(a);
    p[0] = INFINITY;
    CHECK(run_dot(e, a, b, r) && isnan(r[0]) && isinf(r[1]) && r[2] == 11 && r[3] == 10);
    p[0] = 1;
    CHECK(run_dot(e, a, b, r) && r[0] == 5 && r[1] == 4);
    p[0] = NAN;
    CHECK(run_dot(e, a, b, r) && isnan(r[0]) && isnan(r[1]) && r[2] == 11 && r[3] == 10);
  }
  cxla_buffer_destroy(a);
  cxla_buffer_destroy(b);
  cxla_buffer_destroy(inf);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

int main(void) {
  RUN(transposed_results);
  RUN(transposed_results_must_not_fire);
  RUN(tall_products);
  RUN(argument_finiteness_kept);
  return test_summary(__FILE__);
}
