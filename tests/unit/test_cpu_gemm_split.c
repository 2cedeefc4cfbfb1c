/* The CPU backend's f32/f64/c64 GEMMs split over the pool's threads
 * (routines.c): batched products by batch, single products up to 2^26
 * multiply-adds by rows (one part per thread), each part a one-thread
 * BLAS call; against the interpreter (relative 1e-5 of the largest
 * result; f64 1e-12), with two threads and with none. Checks that the
 * split fires (the executor's split counter) where it should, and not on
 * products too small to split (fewer than 32 rows), nor on large single
 * products (OpenBLAS's own threads), nor without a pool; transposed
 * operand storage; uneven row counts. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "runtime/threadpool.h"
#include "verify/verify.h"

static RtPool *pool;

/* Runs the module on the interpreter and on the cpu backend (pool or
 * none); whether they agree and the GEMM split count is `splits`. */
static bool check(const char *name, const char *text, bool use_pool, int64_t splits) {
  cxla_module *m = NULL;
  Literal *args[2] = {0}, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  int64_t nsplit = 0;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  uint64_t r = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 2 && !s; i++) {
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
    for (int64_t e = 0; !s && e < args[i]->nelems * (type_is_complex(args[i]->type) ? 2 : 1); e++) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      double v = (double)(r >> 11) / 9007199254740992.0 * 2 - 1;
      if (args[i]->type == T_F64) ((double *)args[i]->data)[e] = v;
      else ((float *)args[i]->data)[e] = (float)v;
    }
  }
  if (!s) s = cxla_interp_run(m, args, 2, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) {
    CpuExecOptions o = {.pool = use_pool ? pool : NULL, .kernels_split = &nsplit};
    s = cpu_execute_opts(x, args, 2, &o, &got);
  }
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    int64_t n = want->nelems * (type_is_complex(want->type) ? 2 : 1);
    bool f64 = want->type == T_F64;
    double mx = 0, tol = f64 ? 1e-12 : 1e-5;
    for (int64_t i = 0; i < n; i++) {
      double w = f64 ? ((double *)want->data)[i] : ((float *)want->data)[i];
      if (fabs(w) > mx) mx = fabs(w);
    }
    ok = want->type == got->type && want->nelems == got->nelems;
    for (int64_t i = 0; ok && i < n; i++) {
      double w = f64 ? ((double *)want->data)[i] : ((float *)want->data)[i];
      double g = f64 ? ((double *)got->data)[i] : ((float *)got->data)[i];
      if (!(fabs(w - g) <= tol * mx)) {
        fprintf(stderr, "%s: element %lld: want %.17g got %.17g\n", name, (long long)i, w, g);
        ok = false;
      }
    }
    if (nsplit != splits) {
      fprintf(stderr, "%s: %lld GEMMs split, want %lld\n", name, (long long)nsplit, (long long)splits);
      ok = false;
    }
  }
  cxla_status_free(s);
  literal_free(args[0]);
  literal_free(args[1]);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

#define DOT(A, B, O, ATTRS)                                                                        \
  "HloModule m\n\nENTRY e {\n  a = " A " parameter(0)\n  b = " B " parameter(1)\n  ROOT d = " O \
  " dot(a, b), " ATTRS "\n}\n"
#define MK "lhs_contracting_dims={1}, rhs_contracting_dims={0}"
#define BATCH "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"

TEST(split_by_batch) {
  CHECK(check("f32_batch", DOT("f32[5,33,40]", "f32[5,40,20]", "f32[5,33,20]", BATCH), true, 1));
  CHECK(check("f64_batch", DOT("f64[3,17,9]", "f64[3,9,31]", "f64[3,17,31]", BATCH), true, 1));
  CHECK(check("c64_batch_transposed",
              DOT("c64[4,30,20]", "c64[4,25,30]", "c64[4,20,25]",
                  "lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0}, rhs_contracting_dims={2}"),
              true, 1));
  CHECK(check("f32_batch_no_pool", DOT("f32[5,33,40]", "f32[5,40,20]", "f32[5,33,20]", BATCH), false, 0));
}

TEST(split_by_rows) {
  CHECK(check("f32_rows", DOT("f32[257,100]", "f32[100,70]", "f32[257,70]", MK), true, 1));
  CHECK(check("f32_rows_lhs_transposed", DOT("f32[100,101]", "f32[100,70]", "f32[101,70]",
                                             "lhs_contracting_dims={0}, rhs_contracting_dims={0}"), true, 1));
  CHECK(check("f64_rows_rhs_transposed", DOT("f64[65,64]", "f64[48,64]", "f64[65,48]",
                                             "lhs_contracting_dims={1}, rhs_contracting_dims={1}"), true, 1));
  /* too few rows to split; too large (OpenBLAS's threads); no pool */
  CHECK(check("f32_few_rows", DOT("f32[31,300]", "f32[300,300]", "f32[31,300]", MK), true, 0));
  CHECK(check("f32_large", DOT("f32[512,512]", "f32[512,257]", "f32[512,257]", MK), true, 0));
  CHECK(check("f32_rows_no_pool", DOT("f32[257,100]", "f32[100,70]", "f32[257,70]", MK), false, 0));
}

int main(void) {
  if (rt_pool_create(2, &pool)) return 1;
  RUN(split_by_batch);
  RUN(split_by_rows);
  rt_pool_destroy(pool);
  return test_summary(__FILE__);
}
