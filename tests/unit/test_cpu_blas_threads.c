/* OpenBLAS's thread count is one process-wide setting that the
 * application may rely on for its own BLAS calls: the cpu backend changes
 * it while its executions run (GEMM steps at the execution's threads,
 * LAPACK routines at 1) and puts back the application's count when the
 * last running execution ends (src/cpu/blas_threads.c). Checked from one
 * thread in both directions (a GEMM raises it, a routine lowers it) and
 * from several threads running executions at once. */
#include <cblas.h>
#include <pthread.h>

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
  cxla_status s = cxla_executable_execute(p->e, p->args, 2, NULL, out, NULL);
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

TEST(the_application_count_is_restored) {
  Prog g, ch;
  CHECK(prog_make(&g, k_gemm, 2));
  CHECK(prog_make(&ch, k_chol, 2));
  int before = openblas_get_num_threads();
  /* the GEMM runs on 2 threads; the application's 1 comes back */
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

int main(void) {
  RUN(the_application_count_is_restored);
  RUN(concurrent_executions_restore_it);
  return test_summary(__FILE__);
}
