/* OpenBLAS inside the cpu backend's threads (src/cpu/blas_threads.c):
 *   - OpenBLAS's thread count is one process-wide setting that the
 *     application may rely on for its own BLAS calls: the backend runs it
 *     at 1 while its executions run (seen from the step profile, on the
 *     executing thread) and puts back the application's count when the
 *     last running execution ends; checked from one thread and from
 *     several threads running executions at once;
 *   - cpu_blas_gemm, the GEMM split over the pool in single-threaded BLAS
 *     calls: every type, transposition, batch and split shape (rows,
 *     columns, uneven blocks, batch elements) against a plain loop in
 *     double. */
#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <pthread.h>

#include "cpu/blas.h"
#include "harness.h"
#include "runtime_test.h"

/* a GEMM big enough for the executor to hand it to OpenBLAS */
#define D "f32[576,576]"
enum { DN = 576 };
static const char k_gemm[] =
    "HloModule m\nENTRY e {\n  a = " D " parameter(0)\n  b = " D " parameter(1)\n"
    "  ROOT d = " D " dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";
/* a LAPACK routine: run at one thread */
static const char k_chol[] =
    "HloModule m\nENTRY e {\n  a = " D " parameter(0)\n  b = " D " parameter(1)\n"
    "  ROOT c = " D " cholesky(a), lower=true\n}\n";

typedef struct Prog {
  cxla_client *c;
  cxla_executable *e;
  cxla_buffer *args[2];
  const cxla_execute_options *opts; /* NULL: the defaults */
} Prog;

/* 2 x the identity: positive definite, and an exact product */
static float g_vals[DN * DN];

static bool prog_make(Prog *p, const char *text, int threads) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < DN; i++) g_vals[i * DN + i] = 2;
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  o.num_threads = threads;
  cxla_status s = cxla_client_create(&o, &p->c);
  if (s) {
    printf("client: %s\n", cxla_status_message(s));
    cxla_status_free(s);
    return false;
  }
  int64_t d[2] = {DN, DN};
  p->e = rt_compile(p->c, text);
  p->args[0] = rt_f32(p->c, g_vals, 2, d);
  p->args[1] = rt_f32(p->c, g_vals, 2, d);
  return p->e && p->args[0] && p->args[1];
}

/* Runs p once; checks the first element of the result (4 for the
 * product, sqrt(2) for the factor). */
static bool prog_run(Prog *p, float want) {
  cxla_buffer *out[1] = {0};
  cxla_status s = cxla_executable_execute(p->e, p->args, 2, p->opts, out, NULL);
  static _Thread_local float v[DN * DN];
  if (!s) s = cxla_buffer_to_host(out[0], v, sizeof v, NULL);
  cxla_buffer_destroy(out[0]);
  if (s) {
    printf("execute: %s\n", cxla_status_message(s));
    cxla_status_free(s);
    return false;
  }
  if (v[0] < want * 0.999f || v[0] > want * 1.001f) {
    printf("result %g, want %g\n", (double)v[0], (double)want);
    return false;
  }
  return true;
}

static void prog_free(Prog *p) {
  for (int i = 0; i < 2; i++) cxla_buffer_destroy(p->args[i]);
  cxla_executable_destroy(p->e);
  cxla_client_destroy(p->c);
}

/* the profile's callback: OpenBLAS's count after each step, and the
 * step's split */
typedef struct Seen {
  int steps, max_blas, max_split;
} Seen;

static void seen_step(void *arg, const cxla_profile_step *st) {
  Seen *s = arg;
  int n = openblas_get_num_threads();
  s->steps++;
  if (n > s->max_blas) s->max_blas = n;
  if (st->threads > s->max_split) s->max_split = st->threads;
}

TEST(blas_runs_on_one_thread_inside_an_execution) {
  Prog g;
  CHECK(prog_make(&g, k_gemm, 2));
  int before = openblas_get_num_threads();
  Seen seen = {0};
  cxla_execute_options o = CXLA_STRUCT_INIT(cxla_execute_options);
  o.profile = seen_step;
  o.profile_arg = &seen;
  g.opts = &o;
  for (int app = 1; app <= 4; app++) {
    openblas_set_num_threads(app);
    CHECK(prog_run(&g, 4));
    CHECK(openblas_get_num_threads() == app);
  }
  CHECK(seen.steps >= 4);
  CHECK(seen.max_blas == 1);
  openblas_set_num_threads(before);
  prog_free(&g);
}

TEST(the_application_count_is_restored) {
  Prog g, ch;
  CHECK(prog_make(&g, k_gemm, 2));
  CHECK(prog_make(&ch, k_chol, 2));
  int before = openblas_get_num_threads();
  /* the GEMM splits over the execution's 2 threads; the application's 1 comes back */
  openblas_set_num_threads(1);
  CHECK(prog_run(&g, 4));
  CHECK(openblas_get_num_threads() == 1);
  /* the routine runs on 1; the application's 2 and 3 come back */
  openblas_set_num_threads(2);
  CHECK(prog_run(&ch, 1.41421356f));
  CHECK(openblas_get_num_threads() == 2);
  openblas_set_num_threads(3);
  CHECK(prog_run(&ch, 1.41421356f));
  CHECK(prog_run(&g, 4));
  CHECK(openblas_get_num_threads() == 3);
  openblas_set_num_threads(before);
  prog_free(&g);
  prog_free(&ch);
}

typedef struct Runner {
  Prog *p;
  float want;
  int runs, ok;
} Runner;

static void *runner(void *arg) {
  Runner *r = arg;
  for (int i = 0; i < r->runs; i++) r->ok += prog_run(r->p, r->want);
  return NULL;
}

TEST(concurrent_executions_restore_it) {
  Prog g, ch;
  CHECK(prog_make(&g, k_gemm, 2));
  CHECK(prog_make(&ch, k_chol, 2));
  int before = openblas_get_num_threads();
  for (int app = 1; app <= 3; app += 2) {
    openblas_set_num_threads(app);
    Runner r[4] = {{&g, 4, 8, 0}, {&ch, 1.41421356f, 8, 0}, {&g, 4, 8, 0}, {&ch, 1.41421356f, 8, 0}};
    pthread_t t[4];
    for (int i = 0; i < 4; i++) CHECK(pthread_create(&t[i], NULL, runner, &r[i]) == 0);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) CHECK(r[i].ok == r[i].runs);
    CHECK(openblas_get_num_threads() == app);
  }
  openblas_set_num_threads(before);
  prog_free(&g);
  prog_free(&ch);
}

/* ---- cpu_blas_gemm ---- */

static uint64_t g_rng = 0x9e3779b97f4a7c15u;
static double next_val(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (double)(int)(g_rng % 2001 - 1000) / 500.0;
}

/* element (i, j) of op(X) for X stored rows x cols (leading dim ld), as
 * complex double; cplx: pairs */
static double complex elem(const void *x, ElemType t, bool trans, int64_t i, int64_t j, int ld) {
  int64_t at = trans ? j * ld + i : i * ld + j;
  switch (t) {
  case T_F32: return ((const float *)x)[at];
  case T_F64: return ((const double *)x)[at];
  case T_C64: return ((const float *)x)[2 * at] + I * ((const float *)x)[2 * at + 1];
  default: return ((const double *)x)[2 * at] + I * ((const double *)x)[2 * at + 1];
  }
}

/* One case: batch b of m x k by k x n, with the given transpositions,
 * every leading dim `pad` elements longer than the rows it holds, over a
 * pool of `threads` (1: no pool); checked to a relative 1e-5 (f32, c64)
 * or 1e-12 of the sum of |products|. */
static bool gemm_case(RtPool *pool, int threads, ElemType t, int64_t b, int m, int n, int k, bool ta, bool tb,
                      int pad) {
  int64_t es = type_bytes(t), nc = type_is_complex(t) ? 2 : 1;
  int lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
  int64_t sa = (int64_t)(ta ? k : m) * lda, sb = (int64_t)(tb ? n : k) * ldb, sc = (int64_t)m * ldc;
  char *A = malloc((size_t)(b * sa) * es), *B = malloc((size_t)(b * sb) * es), *C = malloc((size_t)(b * sc) * es);
  bool f32 = t == T_F32 || t == T_C64;
  for (int64_t i = 0; i < b * sa * nc; i++) {
    if (f32) ((float *)A)[i] = (float)next_val();
    else ((double *)A)[i] = next_val();
  }
  for (int64_t i = 0; i < b * sb * nc; i++) {
    if (f32) ((float *)B)[i] = (float)next_val();
    else ((double *)B)[i] = next_val();
  }
  memset(C, 0xff, (size_t)(b * sc) * es); /* NaNs: every element must be written */
  CpuBlasGemm g = {.type = t, .trans_a = ta, .trans_b = tb, .batch = b, .m = m, .n = n, .k = k, .a = A, .b = B,
                   .c = C, .lda = lda, .ldb = ldb, .ldc = ldc, .stride_a = sa, .stride_b = sb,
                   .stride_c = sc};
  cxla_status s = cpu_blas_gemm(&g, pool, threads);
  bool ok = s == NULL;
  if (s) {
    printf("cpu_blas_gemm: %s\n", cxla_status_message(s));
    cxla_status_free(s);
  }
  double tol = f32 ? 1e-5 : 1e-12;
  for (int64_t bi = 0; ok && bi < b; bi++)
    for (int64_t i = 0; ok && i < m; i++)
      for (int64_t j = 0; ok && j < n; j++) {
        double complex want = 0;
        double mag = 0;
        for (int64_t kk = 0; kk < k; kk++) {
          double complex p = elem(A + bi * sa * es, t, ta, i, kk, g.lda) * elem(B + bi * sb * es, t, tb, kk, j, g.ldb);
          want += p;
          mag += cabs(p);
        }
        double complex got = elem(C + bi * sc * es, t, false, i, j, ldc);
        if (!(cabs(got - want) <= tol * (mag + 1))) {
          printf("type %d b %lld %dx%dx%d ta %d tb %d pad %d threads %d: C[%lld][%lld][%lld] = %g%+gi, want %g%+gi\n",
                 (int)t, (long long)b, m, n, k, ta, tb, pad, threads, (long long)bi, (long long)i, (long long)j,
                 creal(got), cimag(got), creal(want), cimag(want));
          ok = false;
        }
      }
  free(A);
  free(B);
  free(C);
  return ok;
}

TEST(split_gemm_matches_the_plain_sums) {
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  const ElemType types[] = {T_F32, T_F64, T_C64, T_C128};
  /* shapes: rows split (m >= n, uneven 3-way blocks and a remainder past
   * the 16-row alignment), columns split (n > m), a batch spread over the
   * threads, a product too small to split, k = 1; matrix times vector
   * (GEMVs: n = 1 split by rows, m = 1 by columns, both 1, a batch) */
  const int shapes[][4] = {{1, 203, 67, 71}, {1, 50, 301, 64}, {5, 64, 70, 61}, {1, 7, 5, 3}, {2, 130, 96, 1},
                           {1, 611, 1, 437}, {1, 1, 555, 300}, {1, 1, 1, 77}, {3, 90, 1, 130}, {2, 1, 70, 1}};
  for (size_t ti = 0; ti < 4; ti++)
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
      for (int tr = 0; tr < 4; tr++)
        for (int th = 1; th <= 3; th += 2) {
          const int *sh = shapes[si];
          /* leading dims past the rows: vectors whose elements lie apart */
          for (int pad = 0; pad <= (si >= 5 ? 3 : 0); pad += 3)
            CHECK(gemm_case(th > 1 ? pool : NULL, th, types[ti], sh[0], sh[1], sh[2], sh[3], tr & 1, tr & 2, pad));
        }
  /* empty products write nothing and succeed */
  CpuBlasGemm e = {.type = T_F32, .batch = 1, .m = 0, .n = 4, .k = 4};
  CHECK_OK(cpu_blas_gemm(&e, pool, 3));
  /* a type BLAS has no GEMM for is an error, not a crash */
  CpuBlasGemm bad = {.type = T_S32, .batch = 1, .m = 2, .n = 2, .k = 2};
  cxla_status s = cpu_blas_gemm(&bad, pool, 3);
  CHECK(s != NULL && cxla_status_code_of(s) == CXLA_INTERNAL);
  cxla_status_free(s);
  rt_pool_destroy(pool);
}

int main(void) {
  RUN(blas_runs_on_one_thread_inside_an_execution);
  RUN(the_application_count_is_restored);
  RUN(split_gemm_matches_the_plain_sums);
  RUN(concurrent_executions_restore_it);
  return test_summary(__FILE__);
}
