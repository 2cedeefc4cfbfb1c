/* Several threads at once through the runtime API, on every backend: many
 * threads executing ONE executable with their own arguments (each result
 * checked against values computed here by hand), compiling on one client,
 * making and destroying buffers, and cancelling. Also run under
 * ThreadSanitizer by `make test-tsan`. Worker threads record their
 * findings; only the main thread CHECKs. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "harness.h"
#include "runtime_test.h"

#define NTHREADS 8
#define NRUNS 25

/* r = x * k + y over f32[64], reduced to a sum too: two results. */
static const char scale_add[] =
    "HloModule scale_add\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "ENTRY main {\n"
    "  x = f32[64] parameter(0)\n"
    "  y = f32[64] parameter(1)\n"
    "  k = f32[] parameter(2)\n"
    "  kb = f32[64] broadcast(k), dimensions={}\n"
    "  xk = f32[64] multiply(x, kb)\n"
    "  r = f32[64] add(xk, y)\n"
    "  z = f32[] constant(0)\n"
    "  sum = f32[] reduce(r, z), dimensions={0}, to_apply=add\n"
    "  ROOT t = (f32[64], f32[]) tuple(r, sum)\n"
    "}\n";

typedef struct Worker {
  cxla_client *client;
  cxla_executable *exe;
  int id;
  int ok_runs, bad_runs;
  char first_error[256];
} Worker;

static void note(Worker *w, const char *what, cxla_status s) {
  w->bad_runs++;
  if (!w->first_error[0])
    snprintf(w->first_error, sizeof w->first_error, "%s: %s", what,
             s ? cxla_status_message(s) : "wrong values");
  cxla_status_free(s);
}

static void *work(void *arg) {
  Worker *w = arg;
  int64_t d64[1] = {64};
  for (int run = 0; run < NRUNS; run++) {
    /* small integers: every sum is exact in f32 */
    float x[64], y[64], k = (float)(w->id + 1);
    for (int i = 0; i < 64; i++) {
      x[i] = (float)((i + run) % 7);
      y[i] = (float)(w->id * 3 + i % 5);
    }
    cxla_buffer *args[3] = {rt_f32(w->client, x, 1, d64), rt_f32(w->client, y, 1, d64),
                            rt_f32(w->client, &k, 0, NULL)};
    cxla_buffer *out[2] = {NULL, NULL};
    cxla_event *ev = NULL;
    cxla_status s = args[0] && args[1] && args[2]
                        ? cxla_executable_execute(w->exe, args, 3, NULL, out, &ev)
                        : cxla_status_make(CXLA_INTERNAL, "argument buffers");
    if (!s && ev) s = cxla_event_await(ev);
    cxla_event_destroy(ev);
    float r[64], sum = -1;
    if (!s) s = cxla_buffer_to_host(out[0], r, sizeof r, NULL);
    if (!s) s = cxla_buffer_to_host(out[1], &sum, sizeof sum, NULL);
    if (s) {
      note(w, "execute", s);
    } else {
      bool good = true;
      float want_sum = 0;
      for (int i = 0; i < 64; i++) {
        float want = x[i] * k + y[i];
        want_sum += want;
        good &= r[i] == want;
      }
      good &= sum == want_sum;
      if (good) w->ok_runs++;
      else note(w, "values", NULL);
    }
    for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
    for (int i = 0; i < 2; i++) cxla_buffer_destroy(out[i]);
  }
  return NULL;
}

TEST(one_executable_many_threads) {
  for (int b = 0; b < cxla_backend_count(); b++) {
    cxla_client *c = rt_client(cxla_backend_name(b));
    cxla_executable *e = c ? rt_compile(c, scale_add) : NULL;
    CHECK(e != NULL);
    if (!e) {
      cxla_client_destroy(c);
      continue;
    }
    Worker w[NTHREADS];
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
      w[i] = (Worker){.client = c, .exe = e, .id = i};
      CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    }
    for (int i = 0; i < NTHREADS; i++) {
      pthread_join(th[i], NULL);
      CHECK(w[i].ok_runs == NRUNS && w[i].bad_runs == 0);
      if (w[i].first_error[0])
        fprintf(stderr, "%s thread %d: %s\n", cxla_backend_name(b), i, w[i].first_error);
    }
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

/* The same with arrays large enough that the cpu backend splits its
 * kernels over the client's pool: r = x * k + y over f32[256,512] and its
 * row sums. Several executions share the pool at once. */
static const char scale_add_rows[] =
    "HloModule scale_add_rows\n"
    "add {\n"
    "  a = f32[] parameter(0)\n"
    "  b = f32[] parameter(1)\n"
    "  ROOT s = f32[] add(a, b)\n"
    "}\n"
    "ENTRY main {\n"
    "  x = f32[256,512] parameter(0)\n"
    "  y = f32[256,512] parameter(1)\n"
    "  k = f32[] parameter(2)\n"
    "  kb = f32[256,512] broadcast(k), dimensions={}\n"
    "  xk = f32[256,512] multiply(x, kb)\n"
    "  r = f32[256,512] add(xk, y)\n"
    "  z = f32[] constant(0)\n"
    "  sum = f32[256] reduce(r, z), dimensions={1}, to_apply=add\n"
    "  ROOT t = (f32[256,512], f32[256]) tuple(r, sum)\n"
    "}\n";

enum { ROWS = 256, COLS = 512, BIG_RUNS = 6 };

static void *work_rows(void *arg) {
  Worker *w = arg;
  int64_t dims[2] = {ROWS, COLS};
  float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS * COLS);
  float *r = malloc(sizeof(float) * ROWS * COLS), sum[ROWS];
  for (int run = 0; run < BIG_RUNS && x && y && r; run++) {
    /* small integers: every row sum is exact in f32 */
    float k = (float)(w->id + 1);
    for (int i = 0; i < ROWS * COLS; i++) {
      x[i] = (float)((i + run) % 7);
      y[i] = (float)(w->id * 3 + i % 5);
    }
    cxla_buffer *args[3] = {rt_f32(w->client, x, 2, dims), rt_f32(w->client, y, 2, dims),
                            rt_f32(w->client, &k, 0, NULL)};
    cxla_buffer *out[2] = {NULL, NULL};
    cxla_execute_options o = CXLA_STRUCT_INIT(cxla_execute_options);
    o.num_threads = 1 + (w->id + run) % 3; /* 1 to 3 of the client's 3 */
    cxla_status s = args[0] && args[1] && args[2]
                        ? cxla_executable_execute(w->exe, args, 3, &o, out, NULL)
                        : cxla_status_make(CXLA_INTERNAL, "argument buffers");
    if (!s) s = cxla_buffer_to_host(out[0], r, sizeof(float) * ROWS * COLS, NULL);
    if (!s) s = cxla_buffer_to_host(out[1], sum, sizeof sum, NULL);
    if (s) {
      note(w, "execute", s);
    } else {
      bool good = true;
      for (int i = 0; i < ROWS; i++) {
        float want_sum = 0;
        for (int j = 0; j < COLS; j++) {
          float want = x[i * COLS + j] * k + y[i * COLS + j];
          want_sum += want;
          good &= r[i * COLS + j] == want;
        }
        good &= sum[i] == want_sum;
      }
      if (good) w->ok_runs++;
      else note(w, "values", NULL);
    }
    for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
    for (int i = 0; i < 2; i++) cxla_buffer_destroy(out[i]);
  }
  free(x);
  free(y);
  free(r);
  return NULL;
}

TEST(split_kernels_many_threads) {
  cxla_client_options co = CXLA_STRUCT_INIT(cxla_client_options);
  co.num_threads = 3;
  cxla_client *c = NULL;
  CHECK_OK(cxla_client_create(&co, &c));
  cxla_executable *e = c ? rt_compile(c, scale_add_rows) : NULL;
  CHECK(e != NULL);
  enum { N = 4 };
  Worker w[N];
  pthread_t th[N];
  for (int i = 0; e && i < N; i++) {
    w[i] = (Worker){.client = c, .exe = e, .id = i};
    CHECK(pthread_create(&th[i], NULL, work_rows, &w[i]) == 0);
  }
  for (int i = 0; e && i < N; i++) {
    pthread_join(th[i], NULL);
    CHECK(w[i].ok_runs == BIG_RUNS && w[i].bad_runs == 0);
    if (w[i].first_error[0]) fprintf(stderr, "thread %d: %s\n", i, w[i].first_error);
  }
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

/* A dot large enough for OpenBLAS to use its own threads, run by several
 * threads at once at different thread counts (the executor sets
 * OpenBLAS's thread count before each call): every product exact. */
static const char matmul[] =
    "HloModule matmul\n"
    "ENTRY main {\n"
    "  a = f32[128,128] parameter(0)\n"
    "  b = f32[128,128] parameter(1)\n"
    "  ROOT d = f32[128,128] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    "}\n";

enum { MM = 128, MM_RUNS = 4 };

static void *work_matmul(void *arg) {
  Worker *w = arg;
  int64_t dims[2] = {MM, MM};
  float *a = malloc(sizeof(float) * MM * MM), *b = malloc(sizeof(float) * MM * MM);
  float *c = malloc(sizeof(float) * MM * MM);
  for (int run = 0; run < MM_RUNS && a && b && c; run++) {
    for (int i = 0; i < MM * MM; i++) {
      a[i] = (float)((i + w->id) % 5);
      b[i] = (float)((i / 3 + run) % 4);
    }
    cxla_buffer *args[2] = {rt_f32(w->client, a, 2, dims), rt_f32(w->client, b, 2, dims)};
    cxla_buffer *out[1] = {NULL};
    cxla_execute_options o = CXLA_STRUCT_INIT(cxla_execute_options);
    o.num_threads = 1 + (w->id + run) % 3;
    cxla_status s = args[0] && args[1] ? cxla_executable_execute(w->exe, args, 2, &o, out, NULL)
                                       : cxla_status_make(CXLA_INTERNAL, "argument buffers");
    if (!s) s = cxla_buffer_to_host(out[0], c, sizeof(float) * MM * MM, NULL);
    if (s) {
      note(w, "execute", s);
    } else {
      bool good = true;
      for (int i = 0; i < MM; i++)
        for (int j = 0; j < MM; j++) {
          float want = 0; /* small integers: exact in any order */
          for (int k = 0; k < MM; k++) want += a[i * MM + k] * b[k * MM + j];
          good &= c[i * MM + j] == want;
        }
      if (good) w->ok_runs++;
      else note(w, "values", NULL);
    }
    for (int i = 0; i < 2; i++) cxla_buffer_destroy(args[i]);
    cxla_buffer_destroy(out[0]);
  }
  free(a);
  free(b);
  free(c);
  return NULL;
}

TEST(blas_many_threads) {
  cxla_client_options co = CXLA_STRUCT_INIT(cxla_client_options);
  co.num_threads = 3;
  cxla_client *c = NULL;
  CHECK_OK(cxla_client_create(&co, &c));
  cxla_executable *e = c ? rt_compile(c, matmul) : NULL;
  CHECK(e != NULL);
  enum { N = 4 };
  Worker w[N];
  pthread_t th[N];
  for (int i = 0; e && i < N; i++) {
    w[i] = (Worker){.client = c, .exe = e, .id = i};
    CHECK(pthread_create(&th[i], NULL, work_matmul, &w[i]) == 0);
  }
  for (int i = 0; e && i < N; i++) {
    pthread_join(th[i], NULL);
    CHECK(w[i].ok_runs == MM_RUNS && w[i].bad_runs == 0);
    if (w[i].first_error[0]) fprintf(stderr, "thread %d: %s\n", i, w[i].first_error);
  }
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

typedef struct Compiler {
  cxla_client *client;
  int ok;
  char fp[40];
} Compiler;

static void *compile_one(void *arg) {
  Compiler *k = arg;
  cxla_executable *e = rt_compile(k->client, scale_add);
  if (e) {
    k->ok = 1;
    snprintf(k->fp, sizeof k->fp, "%s", cxla_executable_fingerprint(e));
  }
  cxla_executable_destroy(e);
  return NULL;
}

/* Compiling the same module on one client from several threads at once:
 * all succeed, with one fingerprint. */
TEST(concurrent_compiles) {
  cxla_client *c = rt_client(NULL);
  if (!c) return;
  Compiler k[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    k[i] = (Compiler){.client = c};
    CHECK(pthread_create(&th[i], NULL, compile_one, &k[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(k[i].ok);
    CHECK(strcmp(k[i].fp, k[0].fp) == 0);
  }
  cxla_client_destroy(c);
}

static const char endless[] =
    "HloModule loop\n"
    "cond {\n  c = s32[] parameter(0)\n  ROOT t = pred[] constant(true)\n}\n"
    "body {\n  b = s32[] parameter(0)\n  one = s32[] constant(1)\n"
    "  ROOT n = s32[] add(b, one)\n}\n"
    "ENTRY main {\n  x = s32[] parameter(0)\n"
    "  ROOT w = s32[] while(x), condition=cond, body=body\n}\n";

typedef struct Looper {
  cxla_executable *exe;
  cxla_buffer *arg;
  cxla_cancel *cancel;
  atomic_int started;
  cxla_status_code code;
} Looper;

static void *loop_until_cancelled(void *arg) {
  Looper *l = arg;
  cxla_execute_options o = CXLA_STRUCT_INIT(cxla_execute_options);
  o.cancel = l->cancel;
  o.timeout_seconds = 60; /* a safety net: the test wants CANCELLED */
  cxla_buffer *out[1] = {NULL};
  atomic_store(&l->started, 1);
  cxla_status s = cxla_executable_execute(l->exe, &l->arg, 1, &o, out, NULL);
  l->code = cxla_status_code_of(s);
  cxla_status_free(s);
  cxla_buffer_destroy(out[0]);
  return NULL;
}

/* One cancel handle stops four executions of one executable at once. */
TEST(cancel_many) {
  cxla_client *c = rt_client(NULL);
  cxla_executable *e = c ? rt_compile(c, endless) : NULL;
  if (!e) {
    CHECK(!"setup");
    cxla_client_destroy(c);
    return;
  }
  int32_t zero = 0;
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_S32;
  h.data = &zero;
  h.size = 4;
  cxla_buffer *arg = NULL;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &arg, NULL));
  cxla_cancel *cancel = NULL;
  CHECK_OK(cxla_cancel_create(&cancel));
  Looper l[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    l[i] = (Looper){.exe = e, .arg = arg, .cancel = cancel};
    atomic_init(&l[i].started, 0);
    CHECK(pthread_create(&th[i], NULL, loop_until_cancelled, &l[i]) == 0);
  }
  for (int i = 0; i < 4; i++)
    while (!atomic_load(&l[i].started)) sched_yield();
  cxla_cancel_request(cancel);
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(l[i].code == CXLA_CANCELLED);
  }
  cxla_cancel_destroy(cancel);
  cxla_buffer_destroy(arg);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

int main(void) {
  RUN(one_executable_many_threads);
  RUN(split_kernels_many_threads);
  RUN(blas_many_threads);
  RUN(concurrent_compiles);
  RUN(cancel_many);
  return test_summary("test_runtime_threads");
}
