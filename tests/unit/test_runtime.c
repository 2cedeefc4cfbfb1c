/* The runtime API (include/cxla/runtime.h) on every registered backend:
 * clients by name, buffers (owned, borrowed, aligned), compile, execute,
 * events, cancellation and deadlines, status codes, the host allocator,
 * lifetimes, and allocation failures on every path. */
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "runtime_test.h"

#include "base/base.h" /* cxla_fail_alloc_at */

static const char axpy[] =
    "HloModule axpy\n"
    "ENTRY main {\n"
    "  a = f32[] parameter(0)\n"
    "  x = f32[4] parameter(1)\n"
    "  y = f32[4] parameter(2)\n"
    "  ab = f32[4] broadcast(a), dimensions={}\n"
    "  ax = f32[4] multiply(ab, x)\n"
    "  s = f32[4] add(ax, y)\n"
    "  n = s32[] constant(7)\n"
    "  inner = (s32[], f32[4]) tuple(n, x)\n"
    "  ROOT r = (f32[4], (s32[], f32[4])) tuple(s, inner)\n"
    "}\n";

static const char endless[] =
    "HloModule loop\n"
    "cond {\n"
    "  c = s32[] parameter(0)\n"
    "  ROOT t = pred[] constant(true)\n"
    "}\n"
    "body {\n"
    "  b = s32[] parameter(0)\n"
    "  one = s32[] constant(1)\n"
    "  ROOT n = s32[] add(b, one)\n"
    "}\n"
    "ENTRY main {\n"
    "  x = s32[] parameter(0)\n"
    "  ROOT w = s32[] while(x), condition=cond, body=body\n"
    "}\n";

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The codes and numbers of PJRT_Error_Code (absl::StatusCode). */
TEST(status_codes_are_pjrts) {
  static const struct {
    cxla_status_code code;
    int number;
    const char *name;
  } want[] = {
      {CXLA_OK, 0, "OK"},
      {CXLA_CANCELLED, 1, "CANCELLED"},
      {CXLA_UNKNOWN, 2, "UNKNOWN"},
      {CXLA_INVALID_ARGUMENT, 3, "INVALID_ARGUMENT"},
      {CXLA_DEADLINE_EXCEEDED, 4, "DEADLINE_EXCEEDED"},
      {CXLA_NOT_FOUND, 5, "NOT_FOUND"},
      {CXLA_ALREADY_EXISTS, 6, "ALREADY_EXISTS"},
      {CXLA_PERMISSION_DENIED, 7, "PERMISSION_DENIED"},
      {CXLA_RESOURCE_EXHAUSTED, 8, "RESOURCE_EXHAUSTED"},
      {CXLA_FAILED_PRECONDITION, 9, "FAILED_PRECONDITION"},
      {CXLA_ABORTED, 10, "ABORTED"},
      {CXLA_OUT_OF_RANGE, 11, "OUT_OF_RANGE"},
      {CXLA_UNIMPLEMENTED, 12, "UNIMPLEMENTED"},
      {CXLA_INTERNAL, 13, "INTERNAL"},
      {CXLA_UNAVAILABLE, 14, "UNAVAILABLE"},
      {CXLA_DATA_LOSS, 15, "DATA_LOSS"},
      {CXLA_UNAUTHENTICATED, 16, "UNAUTHENTICATED"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    CHECK((int)want[i].code == want[i].number);
    CHECK(strcmp(cxla_status_code_name(want[i].code), want[i].name) == 0);
    if (want[i].code == CXLA_OK) continue;
    cxla_status s = cxla_status_make(want[i].code, "x%d", 1);
    CHECK(cxla_status_code_of(s) == want[i].code);
    cxla_status_free(s);
  }
  CHECK(strcmp(cxla_status_code_name(CXLA_IO), "IO") == 0);
  CHECK(strcmp(cxla_status_code_name((cxla_status_code)99), "UNKNOWN") == 0);
}

TEST(clients_by_name) {
  int n = cxla_backend_count();
  CHECK(n >= 1);
  CHECK(cxla_backend_name(n) == NULL && cxla_backend_name(-1) == NULL);
  /* The interpreter is registered, last; the default is the first
   * compiled backend, or interp when there is none. */
  CHECK(n >= 1 && strcmp(cxla_backend_name(n - 1), "interp") == 0);
  const char *def = cxla_backend_default();
  CHECK(def != NULL);
  for (int i = 0; i < n; i++) {
    cxla_client *c = rt_client(cxla_backend_name(i));
    CHECK(c && strcmp(cxla_client_backend(c), cxla_backend_name(i)) == 0);
    if (c && cxla_client_compiles(c) && strcmp(def, "interp") == 0) CHECK(!"a compiled backend is not the default");
    if (c && !cxla_client_compiles(c)) CHECK(strcmp(cxla_backend_name(i), "interp") == 0);
    if (c) {
      CHECK(cxla_client_device_count(c) == 1);
      cxla_device *d = cxla_client_device(c, 0);
      CHECK(d && cxla_device_id(d) == 0 && strcmp(cxla_device_kind(d), "cpu") == 0);
      CHECK(cxla_client_device(c, 1) == NULL && cxla_client_device(c, -1) == NULL);
      CHECK(cxla_client_num_threads(c) >= 1);
      CHECK(strcmp(cxla_client_version(c), CXLA_VERSION) == 0);
    }
    cxla_client_destroy(c);
  }
  cxla_client *c = NULL;
  CHECK_OK(cxla_client_create(NULL, &c)); /* all defaults */
  CHECK(c && strcmp(cxla_client_backend(c), def) == 0);
  cxla_client_destroy(c);
  /* interp runs on one thread whatever it is given */
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "interp";
  o.num_threads = 8;
  CHECK_OK(cxla_client_create(&o, &c));
  CHECK(c && cxla_client_num_threads(c) == 1 && !cxla_client_compiles(c));
  cxla_client_destroy(c);
}

TEST(client_errors) {
  cxla_client *c = (cxla_client *)1;
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "tpu";
  cxla_status s = cxla_client_create(&o, &c);
  CHECK(cxla_status_code_of(s) == CXLA_NOT_FOUND);
  CHECK(strstr(cxla_status_message(s), "no backend named 'tpu'") != NULL);
  CHECK(strstr(cxla_status_message(s), "interp") != NULL); /* lists what there is */
  cxla_status_free(s);
  CHECK(c == NULL);
  o.backend = "interp";
  o.struct_size = 4; /* older than any version */
  s = cxla_client_create(&o, &c);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  CHECK(strstr(cxla_status_message(s), "struct_size") != NULL);
  cxla_status_free(s);
  o.struct_size = sizeof o;
  o.num_threads = -1;
  s = cxla_client_create(&o, &c);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  cxla_status_free(s);
  /* a newer caller's larger struct is fine: unknown fields are ignored */
  struct {
    cxla_client_options o;
    int64_t future;
  } big;
  memset(&big, 0, sizeof big);
  big.o.struct_size = sizeof big;
  big.o.backend = "interp";
  big.future = 42;
  CHECK_OK(cxla_client_create(&big.o, &c));
  /* an older caller's smaller struct: the fields it lacks are not read
   * (cxla_compile_options grew verify_passes after its first version) */
  cxla_module *m = NULL;
  const char *text = "HloModule n\nENTRY main {\n  ROOT p = f32[2] parameter(0)\n}\n";
  CHECK_OK(cxla_module_parse(text, strlen(text), "n", &m));
  cxla_compile_options co;
  memset(&co, 0xff, sizeof co); /* garbage past the old size */
  co.struct_size = offsetof(cxla_compile_options, verify_passes);
  co.no_optimize = 0;
  co.dump_dir = NULL;
  cxla_executable *e = NULL;
  if (c && m) CHECK_OK(cxla_client_compile(c, m, &co, &e));
  CHECK(e != NULL);
  cxla_executable_destroy(e);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
}

static int released;
static void on_release(void *arg) { released += *(int *)arg; }

TEST(buffers) {
  cxla_client *c = rt_client("interp");
  if (!c) return;
  /* owned: copied, aligned, independent of the host memory */
  float v[6] = {1, 2, 3, 4, 5, 6}, back[6] = {0};
  int64_t dims[2] = {2, 3};
  cxla_buffer *b = rt_f32(c, v, 2, dims);
  CHECK(b != NULL);
  if (b) {
    CHECK(((uintptr_t)cxla_buffer_data(b) % CXLA_BUFFER_ALIGNMENT) == 0);
    CHECK(!cxla_buffer_is_borrowed(b));
    CHECK(cxla_buffer_data(b) != (void *)v);
    CHECK(cxla_buffer_type(b) == CXLA_F32 && cxla_buffer_rank(b) == 2);
    CHECK(cxla_buffer_dims(b)[0] == 2 && cxla_buffer_dims(b)[1] == 3);
    CHECK(cxla_buffer_minor_to_major(b)[0] == 1 && cxla_buffer_minor_to_major(b)[1] == 0);
    CHECK(cxla_buffer_element_count(b) == 6 && cxla_buffer_size(b) == 24);
    CHECK(cxla_buffer_device(b) == cxla_client_device(c, 0));
    v[0] = 100;
    cxla_event *ev = NULL;
    CHECK_OK(cxla_buffer_to_host(b, back, sizeof back, &ev));
    CHECK(ev && cxla_event_is_ready(ev));
    CHECK_OK(cxla_event_await(ev));
    cxla_event_destroy(ev);
    CHECK(back[0] == 1 && back[5] == 6);
    CHECK_ERR(cxla_buffer_to_host(b, back, 20, NULL), "destination of 20 bytes");
    CHECK_OK(cxla_buffer_ready_event(b, &ev));
    CHECK_OK(cxla_event_await(ev));
    cxla_event_destroy(ev);
    cxla_literal *l = NULL;
    CHECK_OK(cxla_buffer_to_literal(b, &l));
    CHECK(l && cxla_literal_rank(l) == 2 && ((float *)cxla_literal_data(l))[4] == 5);
    cxla_buffer *b2 = NULL;
    CHECK_OK(cxla_buffer_from_literal(c, NULL, l, &b2));
    CHECK(b2 && cxla_buffer_size(b2) == 24 && memcmp(cxla_buffer_data(b2), cxla_buffer_data(b), 24) == 0);
    cxla_buffer_destroy(b2);
    cxla_literal_destroy(l);
  }
  cxla_buffer_destroy(b);

  /* borrowed: the buffer is the host memory; release runs once, at destroy */
  float *host = aligned_alloc(64, 64);
  for (int i = 0; i < 16; i++) host[i] = (float)i;
  int64_t d16[1] = {16};
  int one = 1;
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_F32;
  h.rank = 1;
  h.dims = d16;
  h.data = host;
  h.size = 64;
  h.semantics = CXLA_HOST_BORROW;
  h.release = on_release;
  h.release_arg = &one;
  released = 0;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  CHECK(b && cxla_buffer_is_borrowed(b) && cxla_buffer_data(b) == (void *)host);
  CHECK(released == 0);
  cxla_buffer_destroy(b);
  CHECK(released == 1);
  /* misaligned memory cannot be borrowed */
  h.data = (const char *)host + 4;
  h.rank = 1;
  int64_t d15[1] = {15};
  h.dims = d15;
  h.size = 60;
  b = (cxla_buffer *)1;
  cxla_status s = cxla_buffer_from_host(c, NULL, &h, &b, NULL);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT && b == NULL);
  CHECK(strstr(cxla_status_message(s), "64-byte aligned") != NULL);
  cxla_status_free(s);
  CHECK(released == 1);
  /* ... but copied it can */
  h.semantics = CXLA_HOST_COPY;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  CHECK(b && ((float *)cxla_buffer_data(b))[0] == 1 && ((uintptr_t)cxla_buffer_data(b) % 64) == 0);
  cxla_buffer_destroy(b);
  free(host);

  /* bad descriptions */
  h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_F32;
  h.rank = 1;
  h.dims = d16;
  h.data = v;
  h.size = 24; /* 16 floats are 64 bytes */
  CHECK_ERR(cxla_buffer_from_host(c, NULL, &h, &b, NULL), "host data of 24 bytes");
  h.type = CXLA_TUPLE;
  CHECK_ERR(cxla_buffer_from_host(c, NULL, &h, &b, NULL), "array type");
  int64_t neg[1] = {-1};
  h.type = CXLA_F32;
  h.dims = neg;
  CHECK_ERR(cxla_buffer_from_host(c, NULL, &h, &b, NULL), "negative");
  int64_t d23[2] = {2, 3}, col_major[2] = {0, 1}, row_major[2] = {1, 0};
  h.rank = 2;
  h.dims = d23;
  h.size = 24;
  h.minor_to_major = col_major;
  s = cxla_buffer_from_host(c, NULL, &h, &b, NULL);
  CHECK(cxla_status_code_of(s) == CXLA_UNIMPLEMENTED);
  cxla_status_free(s);
  h.minor_to_major = row_major;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  cxla_buffer_destroy(b);
  /* zero elements, and pred */
  int64_t zero[1] = {0};
  h.minor_to_major = NULL;
  h.rank = 1;
  h.dims = zero;
  h.size = 0;
  h.data = NULL;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  CHECK(b && cxla_buffer_size(b) == 0 && cxla_buffer_element_count(b) == 0);
  cxla_buffer_destroy(b);
  unsigned char p3[3] = {1, 0, 1};
  int64_t d3[1] = {3};
  h.type = CXLA_PRED;
  h.dims = d3;
  h.data = p3;
  h.size = 3;
  CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &b, NULL));
  CHECK(b && cxla_buffer_size(b) == 3);
  cxla_buffer_destroy(b);
  cxla_client_destroy(c);
}

/* axpy on every backend: values, the flattened tuple result, shapes. */
TEST(compile_and_execute) {
  for (int k = 0; k < cxla_backend_count(); k++) {
    cxla_client *c = rt_client(cxla_backend_name(k));
    if (!c) continue;
    cxla_executable *e = rt_compile(c, axpy);
    CHECK(e != NULL);
    if (!e) {
      cxla_client_destroy(c);
      continue;
    }
    CHECK(cxla_executable_num_parameters(e) == 3);
    CHECK(cxla_executable_num_results(e) == 3); /* f32[4], s32[], f32[4] */
    CHECK(strcmp(cxla_executable_name(e), "main") == 0);
    CHECK(cxla_executable_client(e) == c);
    cxla_type t;
    int rank;
    const int64_t *dims;
    CHECK_OK(cxla_executable_parameter(e, 1, &t, &rank, &dims));
    CHECK(t == CXLA_F32 && rank == 1 && dims[0] == 4);
    CHECK_OK(cxla_executable_result(e, 1, &t, &rank, NULL));
    CHECK(t == CXLA_S32 && rank == 0);
    cxla_status s = cxla_executable_result(e, 3, &t, &rank, &dims);
    CHECK(cxla_status_code_of(s) == CXLA_OUT_OF_RANGE && t == CXLA_TYPE_COUNT && dims == NULL);
    cxla_status_free(s);
    s = cxla_executable_parameter(e, -1, NULL, NULL, NULL);
    CHECK(cxla_status_code_of(s) == CXLA_OUT_OF_RANGE);
    cxla_status_free(s);
    const char *fp = cxla_executable_fingerprint(e);
    CHECK(fp && strlen(fp) == 32 && strspn(fp, "0123456789abcdef") == 32);
    CHECK(strstr(cxla_executable_hlo_text(e), "ENTRY") != NULL);
    CHECK(cxla_executable_temp_bytes(e) >= 0);

    float a = 2, x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
    int64_t d4[1] = {4};
    cxla_buffer *args[3] = {rt_f32(c, &a, 0, NULL), rt_f32(c, x, 1, d4), rt_f32(c, y, 1, d4)};
    cxla_buffer *out[3] = {NULL, NULL, NULL};
    cxla_event *done = NULL;
    CHECK_OK(cxla_executable_execute(e, args, 3, NULL, out, &done));
    CHECK(done && cxla_event_is_ready(done));
    CHECK_OK(cxla_event_await(done));
    cxla_event_destroy(done);
    float r[4] = {0}, xr[4] = {0};
    int32_t n = 0;
    if (out[0] && out[1] && out[2]) {
      CHECK_OK(cxla_buffer_to_host(out[0], r, sizeof r, NULL));
      CHECK_OK(cxla_buffer_to_host(out[1], &n, sizeof n, NULL));
      CHECK_OK(cxla_buffer_to_host(out[2], xr, sizeof xr, NULL));
      CHECK(((uintptr_t)cxla_buffer_data(out[0]) % 64) == 0);
    }
    CHECK(r[0] == 12 && r[1] == 24 && r[2] == 36 && r[3] == 48);
    CHECK(n == 7);
    CHECK(xr[0] == 1 && xr[3] == 4);
    for (int i = 0; i < 3; i++) {
      cxla_buffer_destroy(args[i]);
      cxla_buffer_destroy(out[i]);
    }
    /* the same module again: the same fingerprint; unoptimized: another */
    cxla_executable *e2 = rt_compile(c, axpy);
    CHECK(e2 && strcmp(cxla_executable_fingerprint(e2), fp) == 0);
    cxla_executable_destroy(e2);
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(axpy, strlen(axpy), "axpy", &m));
    cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
    co.no_optimize = 1;
    e2 = NULL;
    CHECK_OK(cxla_client_compile(c, m, &co, &e2));
    CHECK(e2 && strcmp(cxla_executable_fingerprint(e2), fp) != 0);
    cxla_executable_destroy(e2);
    cxla_module_destroy(m);
    /* its optimized text compiled as given (a serialized executable
     * loaded): the same program, the same fingerprint */
    const char *opt = cxla_executable_hlo_text(e);
    m = NULL;
    CHECK_OK(cxla_module_parse(opt, strlen(opt), "axpy.opt", &m));
    e2 = NULL;
    if (m) CHECK_OK(cxla_client_compile(c, m, &co, &e2));
    CHECK(e2 && strcmp(cxla_executable_fingerprint(e2), fp) == 0);
    cxla_executable_destroy(e2);
    cxla_module_destroy(m);
    /* compile stats: optimized (not no_optimize), a plan made */
    cxla_compile_stats st = CXLA_STRUCT_INIT(cxla_compile_stats);
    CHECK_OK(cxla_executable_compile_stats(e, &st));
    CHECK(st.optimize_seconds > 0 && st.plan_seconds > 0 && st.backend_seconds >= 0);
    CHECK(st.codegen_seconds >= 0 && st.llvm_seconds >= 0);
    CHECK(st.codegen_seconds + st.llvm_seconds <= st.backend_seconds + 1e-9);
    if (!cxla_client_compiles(c)) CHECK(st.codegen_seconds == 0 && st.cache_hit == 0);
    st.struct_size = 8;
    CHECK_ERR(cxla_executable_compile_stats(e, &st), "struct_size");
    cxla_executable *e3 = rt_compile(c, endless);
    CHECK(e3 && strcmp(cxla_executable_fingerprint(e3), fp) != 0);
    cxla_executable_destroy(e3);
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

/* The memory spaces of the entry's parameters and results: the entry
 * layout's S(n), on every backend; the default without one (and without
 * an entry layout); -1 out of range. */
TEST(memory_spaces) {
  static const char spaces[] =
      "HloModule spaces, entry_computation_layout={(f32[2]{0:S(5)}, f32[2]{0})->(f32[2]{0:S(6)}, f32[2]{0}, f32[2]{0:S(5)})}\n"
      "ENTRY main {\n"
      "  x = f32[2] parameter(0)\n"
      "  y = f32[2] parameter(1)\n"
      "  n = f32[2] negate(x)\n"
      "  ROOT r = (f32[2], f32[2], f32[2]) tuple(n, y, x)\n"
      "}\n";
  static const char plain[] = "HloModule plain\nENTRY main {\n  x = f32[2] parameter(0)\n  ROOT n = f32[2] negate(x)\n}\n";
  for (int k = 0; k < cxla_backend_count(); k++) {
    cxla_client *c = rt_client(cxla_backend_name(k));
    if (!c) continue;
    cxla_executable *e = rt_compile(c, spaces), *p = rt_compile(c, plain);
    CHECK(e && p);
    if (e) {
      CHECK(cxla_executable_parameter_memory_space(e, 0) == CXLA_MEMORY_PINNED_HOST);
      CHECK(cxla_executable_parameter_memory_space(e, 1) == CXLA_MEMORY_DEVICE);
      CHECK(cxla_executable_result_memory_space(e, 0) == CXLA_MEMORY_UNPINNED_HOST);
      CHECK(cxla_executable_result_memory_space(e, 1) == CXLA_MEMORY_DEVICE);
      CHECK(cxla_executable_result_memory_space(e, 2) == CXLA_MEMORY_PINNED_HOST);
      CHECK(cxla_executable_result_memory_space(e, 3) == -1 && cxla_executable_parameter_memory_space(e, -1) == -1);
    }
    if (p) CHECK(cxla_executable_parameter_memory_space(p, 0) == CXLA_MEMORY_DEVICE &&
                 cxla_executable_result_memory_space(p, 0) == CXLA_MEMORY_DEVICE);
    CHECK(cxla_executable_result_memory_space(NULL, 0) == -1);
    cxla_executable_destroy(e);
    cxla_executable_destroy(p);
    cxla_client_destroy(c);
  }
}

/* Token parameters and results (JAX's ordered effects thread a token
 * through the entry computation), on every backend: a token parameter
 * takes a token result or any buffer of zero bytes (JAX's first token is a
 * pred[0]) and refuses one with data; a token result is a CXLA_TOKEN
 * buffer of rank 0 and no bytes, in its place among the results. */
TEST(token_parameters_and_results) {
  static const char tokens[] =
      "HloModule tokens\n"
      "ENTRY main {\n"
      "  t = token[] parameter(0)\n"
      "  x = f32[2] parameter(1)\n"
      "  a = token[] after-all(t)\n"
      "  n = f32[2] negate(x)\n"
      "  ROOT r = (token[], f32[2]) tuple(a, n)\n"
      "}\n";
  for (int k = 0; k < cxla_backend_count(); k++) {
    cxla_client *c = rt_client(cxla_backend_name(k));
    if (!c) continue;
    cxla_executable *e = rt_compile(c, tokens);
    CHECK(e != NULL);
    if (!e) {
      cxla_client_destroy(c);
      continue;
    }
    cxla_type t = CXLA_TYPE_COUNT;
    int rank = -1;
    CHECK(cxla_executable_num_parameters(e) == 2 && cxla_executable_num_results(e) == 2);
    CHECK_OK(cxla_executable_parameter(e, 0, &t, &rank, NULL));
    CHECK(t == CXLA_TOKEN && rank == 0);
    CHECK_OK(cxla_executable_result(e, 0, &t, &rank, NULL));
    CHECK(t == CXLA_TOKEN && rank == 0);
    CHECK_OK(cxla_executable_result(e, 1, &t, &rank, NULL));
    CHECK(t == CXLA_F32 && rank == 1);
    float x[2] = {1.5f, -2}, r[2] = {0};
    int64_t d2[1] = {2}, d0[1] = {0};
    cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
    h.type = CXLA_PRED;
    h.rank = 1;
    h.dims = d0;
    cxla_buffer *empty = NULL;
    CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &empty, NULL));
    cxla_buffer *args[2] = {empty, rt_f32(c, x, 1, d2)};
    cxla_buffer *out[2] = {NULL, NULL}, *out2[2] = {NULL, NULL};
    CHECK_OK(cxla_executable_execute(e, args, 2, NULL, out, NULL));
    if (out[0] && out[1]) {
      CHECK(cxla_buffer_type(out[0]) == CXLA_TOKEN && cxla_buffer_rank(out[0]) == 0 &&
            cxla_buffer_size(out[0]) == 0);
      CHECK_OK(cxla_buffer_to_host(out[0], NULL, 0, NULL));
      CHECK_OK(cxla_buffer_to_host(out[1], r, sizeof r, NULL));
      CHECK(r[0] == -1.5f && r[1] == 2);
      /* the token result goes back in */
      cxla_buffer *again[2] = {out[0], args[1]};
      CHECK_OK(cxla_executable_execute(e, again, 2, NULL, out2, NULL));
      CHECK(out2[0] && cxla_buffer_type(out2[0]) == CXLA_TOKEN);
    }
    /* a buffer with data is no token */
    cxla_buffer *bad[2] = {args[1], args[1]};
    cxla_buffer *out3[2] = {NULL, NULL};
    CHECK_ERR(cxla_executable_execute(e, bad, 2, NULL, out3, NULL), "argument 0");
    CHECK(out3[0] == NULL && out3[1] == NULL);
    for (int i = 0; i < 2; i++) {
      cxla_buffer_destroy(args[i]);
      cxla_buffer_destroy(out[i]);
      cxla_buffer_destroy(out2[i]);
    }
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

/* Host callbacks (custom-call "cxla_host_callback"), on every backend:
 * the client's callback gets each call's id and array operands (tokens
 * not passed) and fills its array results; calls threaded by a token come
 * in order; a failing callback fails the execution with UNKNOWN and its
 * message; without a callback the call is FAILED_PRECONDITION; a call
 * without an id does not run. */
typedef struct CallLog {
  int n;
  uint64_t ids[8];
  float seen[8][3];
} CallLog;

static int log_callback(void *arg, uint64_t id, int nargs, const void *const *args, int nresults,
                        void *const *results, char *error, size_t error_size) {
  CallLog *l = arg;
  if (id == 99) {
    snprintf(error, error_size, "the callback says no");
    return 1;
  }
  if (l->n < 8) {
    l->ids[l->n] = id;
    if (nargs == 1) memcpy(l->seen[l->n], args[0], 3 * sizeof(float));
  }
  l->n++;
  if (id == 7 && nargs == 1 && nresults == 2) { /* y = 2x + 1, n = 42 */
    const float *x = args[0];
    float *y = results[0];
    for (int i = 0; i < 3; i++) y[i] = 2 * x[i] + 1;
    *(int32_t *)results[1] = 42;
  }
  return nresults == (id == 7 ? 2 : 0) ? 0 : 2;
}

TEST(host_callbacks) {
  static const char module[] =
      "HloModule cb\n"
      "ENTRY main {\n"
      "  t = token[] parameter(0)\n"
      "  x = f32[3] parameter(1)\n"
      "  c = (token[], f32[3], s32[]) custom-call(t, x), custom_call_target=\"cxla_host_callback\","
      " backend_config={id = 7 : ui64}, custom_call_has_side_effect=true\n"
      "  t2 = token[] get-tuple-element(c), index=0\n"
      "  y = f32[3] get-tuple-element(c), index=1\n"
      "  n = s32[] get-tuple-element(c), index=2\n"
      "  c2 = (token[]) custom-call(t2, y), custom_call_target=\"cxla_host_callback\","
      " backend_config={id = 8 : ui64}, custom_call_has_side_effect=true\n"
      "  t3 = token[] get-tuple-element(c2), index=0\n"
      "  c3 = () custom-call(x), custom_call_target=\"cxla_host_callback\","
      " backend_config={id = 9 : ui64}, custom_call_has_side_effect=true\n"
      "  ROOT r = (token[], f32[3], s32[]) tuple(t3, y, n)\n"
      "}\n";
  for (int k = 0; k < cxla_backend_count(); k++) {
    for (int variant = 0; variant < 3; variant++) { /* 0: works, 1: fails, 2: no callback */
      CallLog log = {0};
      cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
      o.backend = cxla_backend_name(k);
      o.host_callback = variant == 2 ? NULL : log_callback;
      o.host_callback_arg = &log;
      cxla_client *c = NULL;
      CHECK_OK(cxla_client_create(&o, &c));
      if (!c) continue;
      char text[sizeof module + 8];
      snprintf(text, sizeof text, "%s", module);
      if (variant == 1) memcpy(strstr(text, "id = 8"), "id = 99", 7); /* the second call fails */
      cxla_executable *e = rt_compile(c, text);
      CHECK(e != NULL);
      float x[3] = {1, 2, 3}, y[3] = {0};
      int64_t d3[1] = {3}, d0[1] = {0};
      cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
      h.type = CXLA_PRED;
      h.rank = 1;
      h.dims = d0;
      cxla_buffer *args[2] = {NULL, rt_f32(c, x, 1, d3)};
      CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &args[0], NULL));
      cxla_buffer *out[3] = {NULL, NULL, NULL};
      cxla_status s = e ? cxla_executable_execute(e, args, 2, NULL, out, NULL) : NULL;
      if (variant == 0) {
        CHECK_OK(s);
        s = NULL;
        int32_t n = 0;
        if (out[1] && out[2]) {
          CHECK_OK(cxla_buffer_to_host(out[1], y, sizeof y, NULL));
          CHECK_OK(cxla_buffer_to_host(out[2], &n, sizeof n, NULL));
        }
        CHECK(y[0] == 3 && y[1] == 5 && y[2] == 7 && n == 42);
        /* 7 before 8 (the token orders them); 9, which nothing reads, runs too */
        int at[10] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        for (int i = 0; i < log.n && i < 8; i++)
          if (log.ids[i] < 10) at[log.ids[i]] = i;
        CHECK(log.n == 3 && at[7] >= 0 && at[8] > at[7] && at[9] >= 0);
        if (at[7] >= 0 && at[8] >= 0)
          CHECK(log.seen[at[7]][2] == 3 && log.seen[at[8]][0] == 3 && log.seen[at[8]][2] == 7);
      } else if (variant == 1) {
        CHECK(cxla_status_code_of(s) == CXLA_UNKNOWN);
        CHECK(s && strstr(cxla_status_message(s), "host callback 99 failed: the callback says no"));
        CHECK(out[0] == NULL && out[1] == NULL && out[2] == NULL);
      } else {
        CHECK(cxla_status_code_of(s) == CXLA_FAILED_PRECONDITION);
        CHECK(log.n == 0);
      }
      cxla_status_free(s);
      for (int i = 0; i < 3; i++) cxla_buffer_destroy(out[i]);
      for (int i = 0; i < 2; i++) cxla_buffer_destroy(args[i]);
      cxla_executable_destroy(e);
      cxla_client_destroy(c);
    }
    /* without an id: refused by the compiled backend, by the interpreter when it runs */
    cxla_client *c = rt_client(cxla_backend_name(k));
    if (!c) continue;
    static const char noid[] =
        "HloModule cb\nENTRY main {\n  x = f32[3] parameter(0)\n"
        "  ROOT c = f32[3] custom-call(x), custom_call_target=\"cxla_host_callback\"\n}\n";
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(noid, strlen(noid), "noid", &m));
    cxla_executable *e = NULL;
    cxla_status s = cxla_client_compile(c, m, NULL, &e);
    if (!s) {
      float x[3] = {1, 2, 3};
      int64_t d3[1] = {3};
      cxla_buffer *a = rt_f32(c, x, 1, d3), *out[1] = {NULL};
      s = cxla_executable_execute(e, &a, 1, NULL, out, NULL);
      cxla_buffer_destroy(a);
      cxla_buffer_destroy(out[0]);
    }
    CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
    CHECK(s && strstr(cxla_status_message(s), "backend_config={id = N : ui64}"));
    cxla_status_free(s);
    cxla_executable_destroy(e);
    cxla_module_destroy(m);
    cxla_client_destroy(c);
  }
}

/* Results on both sides of the small-result size (64 bytes: data in the
 * buffer's own block with the default allocator), on every backend:
 * aligned, the right values, independent of each other and of the
 * arguments, freed with the buffer (LeakSanitizer). */
TEST(small_and_large_results) {
  static const char text[] =
      "HloModule sizes\n"
      "add {\n"
      "  p = f32[] parameter(0)\n"
      "  q = f32[] parameter(1)\n"
      "  ROOT r = f32[] add(p, q)\n"
      "}\n"
      "ENTRY main {\n"
      "  x = f32[17] parameter(0)\n"
      "  two = f32[] constant(2)\n"
      "  b = f32[17] broadcast(two), dimensions={}\n"
      "  big = f32[17] multiply(x, b)\n"
      "  s16 = f32[16] slice(big), slice={[1:17]}\n"
      "  s15 = f32[15] slice(x), slice={[0:15]}\n"
      "  e = f32[0] slice(x), slice={[0:0]}\n"
      "  z = f32[] constant(0)\n"
      "  sum = f32[] reduce(x, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[17], f32[16], f32[15], f32[0], f32[]) tuple(big, s16, s15, e, sum)\n"
      "}\n";
  for (int k = 0; k < cxla_backend_count(); k++) {
    cxla_client *c = rt_client(cxla_backend_name(k));
    if (!c) continue;
    cxla_executable *e = rt_compile(c, text);
    CHECK(e != NULL);
    float x[17];
    for (int i = 0; i < 17; i++) x[i] = (float)(i + 1);
    int64_t d17[1] = {17};
    cxla_buffer *arg = rt_f32(c, x, 1, d17);
    for (int run = 0; run < 2 && e && arg; run++) { /* the second reuses freed blocks */
      cxla_buffer *out[5] = {NULL};
      CHECK_OK(cxla_executable_execute(e, &arg, 1, NULL, out, NULL));
      if (!out[0] || !out[1] || !out[2] || !out[3] || !out[4]) continue;
      size_t want[5] = {68, 64, 60, 0, 4};
      for (int i = 0; i < 5; i++) {
        CHECK(cxla_buffer_size(out[i]) == want[i]);
        CHECK(((uintptr_t)cxla_buffer_data(out[i]) % CXLA_BUFFER_ALIGNMENT) == 0);
        CHECK(cxla_buffer_data(out[i]) != cxla_buffer_data(arg));
        for (int j = 0; j < i; j++) CHECK(want[i] == 0 || cxla_buffer_data(out[i]) != cxla_buffer_data(out[j]));
      }
      const float *big = cxla_buffer_data(out[0]), *s16 = cxla_buffer_data(out[1]), *s15 = cxla_buffer_data(out[2]);
      bool ok = true;
      for (int i = 0; i < 17; i++) ok = ok && big[i] == 2 * x[i];
      for (int i = 0; i < 16; i++) ok = ok && s16[i] == 2 * x[i + 1];
      for (int i = 0; i < 15; i++) ok = ok && s15[i] == x[i];
      CHECK(ok);
      CHECK(*(const float *)cxla_buffer_data(out[4]) == 153);
      CHECK(cxla_buffer_rank(out[3]) == 1 && cxla_buffer_dims(out[3])[0] == 0);
      for (int i = 0; i < 5; i++) cxla_buffer_destroy(out[i]);
    }
    cxla_buffer_destroy(arg);
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

TEST(execute_errors) {
  cxla_client *c = rt_client("interp"), *other = rt_client("interp");
  cxla_executable *e = c ? rt_compile(c, axpy) : NULL;
  if (!e) {
    CHECK(!"setup");
    cxla_client_destroy(c);
    cxla_client_destroy(other);
    return;
  }
  float a = 2, x[4] = {0}, three[3] = {0};
  int64_t d4[1] = {4}, d3[1] = {3};
  cxla_buffer *args[3] = {rt_f32(c, &a, 0, NULL), rt_f32(c, three, 1, d3), rt_f32(c, x, 1, d4)};
  cxla_buffer *out[3] = {(cxla_buffer *)1, (cxla_buffer *)1, (cxla_buffer *)1};
  cxla_event *done = NULL;
  CHECK_ERR(cxla_executable_execute(e, args, 2, NULL, out, NULL), "takes 3 arguments, got 2");
  CHECK(out[0] == NULL && out[2] == NULL);
  cxla_status s = cxla_executable_execute(e, args, 3, NULL, out, &done);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  CHECK(strstr(cxla_status_message(s), "argument 1: expected f32[4], got f32[3]") != NULL);
  cxla_status_free(s);
  /* the event carries the same error */
  s = done ? cxla_event_await(done) : NULL;
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  cxla_status_free(s);
  cxla_event_destroy(done);
  cxla_buffer *foreign = other ? rt_f32(other, x, 1, d4) : NULL;
  cxla_buffer *mixed[3] = {args[0], foreign, args[2]};
  CHECK_ERR(cxla_executable_execute(e, mixed, 3, NULL, out, NULL), "another client");
  cxla_buffer *with_null[3] = {args[0], NULL, args[2]};
  CHECK_ERR(cxla_executable_execute(e, with_null, 3, NULL, out, NULL), "argument 1 is NULL");
  cxla_execute_options xo = CXLA_STRUCT_INIT(cxla_execute_options);
  xo.timeout_seconds = -1;
  cxla_buffer *good[3] = {args[0], args[2], args[2]};
  CHECK_ERR(cxla_executable_execute(e, good, 3, &xo, out, NULL), "timeout_seconds");
  xo.struct_size = 3;
  CHECK_ERR(cxla_executable_execute(e, good, 3, &xo, out, NULL), "struct_size");
  for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
  cxla_buffer_destroy(foreign);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
  cxla_client_destroy(other);
}

TEST(compile_errors) {
  cxla_client *c = rt_client("interp");
  if (!c) return;
  cxla_executable *e = (cxla_executable *)1;
  const char *tuple_param =
      "HloModule t\nENTRY main {\n  p = (f32[2], f32[2]) parameter(0)\n"
      "  ROOT g = f32[2] get-tuple-element(p), index=0\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(tuple_param, strlen(tuple_param), "t", &m));
  cxla_status s = cxla_client_compile(c, m, NULL, &e);
  CHECK(cxla_status_code_of(s) == CXLA_UNIMPLEMENTED && e == NULL);
  CHECK(s && strstr(cxla_status_message(s), "not an array") != NULL);
  cxla_status_free(s);
  cxla_module_destroy(m);
  const char *bad_shape = "HloModule b\nENTRY main {\n  p = f32[2] parameter(0)\n"
                          "  ROOT n = f32[3] negate(p)\n}\n";
  CHECK_OK(cxla_module_parse(bad_shape, strlen(bad_shape), "b", &m));
  s = cxla_client_compile(c, m, NULL, &e);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT && e == NULL);
  cxla_status_free(s);
  cxla_module_destroy(m);
  /* elided constants compile but cannot run: FAILED_PRECONDITION */
  const char *elided = "HloModule el\nENTRY main {\n  ROOT k = f32[3] constant({...})\n}\n";
  CHECK_OK(cxla_module_parse(elided, strlen(elided), "el", &m));
  cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
  co.no_optimize = 1;
  e = NULL;
  s = cxla_client_compile(c, m, &co, &e);
  if (!s && e) {
    cxla_buffer *out[1] = {NULL};
    cxla_status r = cxla_executable_execute(e, NULL, 0, NULL, out, NULL);
    CHECK(cxla_status_code_of(r) == CXLA_FAILED_PRECONDITION && out[0] == NULL);
    cxla_status_free(r);
  } else {
    CHECK(cxla_status_code_of(s) == CXLA_FAILED_PRECONDITION);
  }
  cxla_status_free(s);
  cxla_executable_destroy(e);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
}

typedef struct Canceller {
  cxla_cancel *cancel;
  double delay;
} Canceller;

static void *cancel_later(void *arg) {
  Canceller *k = arg;
  usleep((useconds_t)(k->delay * 1e6));
  cxla_cancel_request(k->cancel);
  return NULL;
}

/* An endless loop stops at the deadline or when cancelled, on every
 * backend; the codes are DEADLINE_EXCEEDED and CANCELLED. */
TEST(cancel_and_deadline) {
  for (int k = 0; k < cxla_backend_count(); k++) {
    cxla_client *c = rt_client(cxla_backend_name(k));
    cxla_executable *e = c ? rt_compile(c, endless) : NULL;
    CHECK(e != NULL);
    if (!e) {
      cxla_client_destroy(c);
      continue;
    }
    int32_t zero = 0;
    cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
    h.type = CXLA_S32;
    h.data = &zero;
    h.size = 4;
    cxla_buffer *arg = NULL, *out[1] = {NULL};
    CHECK_OK(cxla_buffer_from_host(c, NULL, &h, &arg, NULL));
    cxla_execute_options xo = CXLA_STRUCT_INIT(cxla_execute_options);
    xo.timeout_seconds = 0.2;
    double t0 = now_s();
    cxla_status s = cxla_executable_execute(e, &arg, 1, &xo, out, NULL);
    double secs = now_s() - t0;
    CHECK(cxla_status_code_of(s) == CXLA_DEADLINE_EXCEEDED && out[0] == NULL);
    CHECK(secs >= 0.2 && secs < 10);
    cxla_status_free(s);

    cxla_cancel *cancel = NULL;
    CHECK_OK(cxla_cancel_create(&cancel));
    CHECK(!cxla_cancel_requested(cancel));
    xo.timeout_seconds = 0;
    xo.cancel = cancel;
    Canceller kk = {cancel, 0.1};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, cancel_later, &kk) == 0);
    s = cxla_executable_execute(e, &arg, 1, &xo, out, NULL);
    pthread_join(th, NULL);
    CHECK(cxla_status_code_of(s) == CXLA_CANCELLED && out[0] == NULL);
    cxla_status_free(s);
    /* already cancelled: stops at once */
    CHECK(cxla_cancel_requested(cancel));
    t0 = now_s();
    s = cxla_executable_execute(e, &arg, 1, &xo, out, NULL);
    CHECK(cxla_status_code_of(s) == CXLA_CANCELLED && now_s() - t0 < 5);
    cxla_status_free(s);
    cxla_cancel_destroy(cancel);
    cxla_buffer_destroy(arg);
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

/* A host allocator that counts, and fails on request. */
typedef struct TestAlloc {
  long live, calls;
  long fail_from; /* 0: never; else the fail_from-th call and later fail */
  bool misalign;
} TestAlloc;

static void *test_alloc(void *self, size_t size, size_t alignment) {
  TestAlloc *a = self;
  a->calls++;
  if (a->fail_from && a->calls >= a->fail_from) return NULL;
  char *p = aligned_alloc(alignment, (size + 2 * alignment - 1) / alignment * alignment);
  if (!p) return NULL;
  a->live++;
  if (a->misalign) return p + 8; /* never freed correctly: only refused */
  return p;
}

static void test_free(void *self, void *p, size_t size) {
  TestAlloc *a = self;
  a->live--;
  if (a->misalign) p = (char *)p - 8;
  free(p);
}

TEST(host_allocator) {
  TestAlloc ta = {0};
  cxla_allocator alloc = {sizeof alloc, &ta, test_alloc, test_free};
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "interp";
  o.allocator = &alloc;
  cxla_client *c = NULL;
  CHECK_OK(cxla_client_create(&o, &c));
  if (!c) return;
  cxla_executable *e = rt_compile(c, axpy);
  float a = 1, x[4] = {1, 1, 1, 1};
  int64_t d4[1] = {4};
  cxla_buffer *args[3] = {rt_f32(c, &a, 0, NULL), rt_f32(c, x, 1, d4), rt_f32(c, x, 1, d4)};
  CHECK(ta.live == 3); /* the three argument buffers came from the hook */
  cxla_buffer *out[3] = {NULL, NULL, NULL};
  if (e) CHECK_OK(cxla_executable_execute(e, args, 3, NULL, out, NULL));
  CHECK(ta.live == 6); /* and the three results (the arena went back) */
  for (int i = 0; i < 3; i++) cxla_buffer_destroy(out[i]);
  /* results fail to allocate: RESOURCE_EXHAUSTED, nothing kept */
  ta.fail_from = ta.calls + 2;
  cxla_status s = e ? cxla_executable_execute(e, args, 3, NULL, out, NULL) : NULL;
  CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED);
  CHECK(out[0] == NULL && out[1] == NULL && out[2] == NULL);
  cxla_status_free(s);
  CHECK(ta.live == 3);
  cxla_buffer *b = NULL;
  s = cxla_buffer_from_host(c, NULL, &(cxla_host_buffer){sizeof(cxla_host_buffer), CXLA_F32, 1, d4, x, 16, CXLA_HOST_COPY, NULL, NULL, NULL}, &b, NULL);
  CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED && b == NULL);
  cxla_status_free(s);
  ta.fail_from = 0;
  for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
  CHECK(ta.live == 0);
  /* a hook that hands out misaligned memory is refused, not used */
  TestAlloc bad = {.misalign = true};
  cxla_allocator balloc = {sizeof balloc, &bad, test_alloc, test_free};
  o.allocator = &balloc;
  CHECK_OK(cxla_client_create(&o, &c));
  b = c ? rt_f32(c, x, 1, d4) : (cxla_buffer *)1;
  CHECK(b == NULL && bad.live == 0);
  cxla_client_destroy(c);
  /* an allocator without free */
  cxla_allocator half = {sizeof half, &ta, test_alloc, NULL};
  o.allocator = &half;
  CHECK_ERR(cxla_client_create(&o, &c), "alloc and free");
}

/* Buffers and executables keep their client alive. */
TEST(lifetimes) {
  cxla_client *c = rt_client("interp");
  if (!c) return;
  cxla_executable *e = rt_compile(c, axpy);
  float a = 3, x[4] = {1, 2, 3, 4};
  int64_t d4[1] = {4};
  cxla_buffer *args[3] = {rt_f32(c, &a, 0, NULL), rt_f32(c, x, 1, d4), rt_f32(c, x, 1, d4)};
  cxla_client_destroy(c); /* the caller's reference only */
  cxla_buffer *out[3] = {NULL, NULL, NULL};
  if (e) CHECK_OK(cxla_executable_execute(e, args, 3, NULL, out, NULL));
  float r[4] = {0};
  if (out[0]) CHECK_OK(cxla_buffer_to_host(out[0], r, sizeof r, NULL));
  CHECK(r[0] == 4 && r[3] == 16);
  cxla_executable_destroy(e);
  for (int i = 0; i < 3; i++) {
    cxla_buffer_destroy(out[i]);
    cxla_buffer_destroy(args[i]);
  }
}

/* Every allocation of compile + execute may fail: each failure is an
 * error (never a crash), and nothing leaks (checked under ASan). */
TEST(allocation_failures) {
  cxla_client *c = rt_client("interp");
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(axpy, strlen(axpy), "axpy", &m));
  float a = 1, x[4] = {1, 2, 3, 4};
  int64_t d4[1] = {4};
  cxla_buffer *args[3] = {rt_f32(c, &a, 0, NULL), rt_f32(c, x, 1, d4), rt_f32(c, x, 1, d4)};
  if (!c || !m || !args[2]) return;
  int failures = 0;
  bool done = false;
  for (long n = 1; n < 100000 && !done; n++) {
    cxla_fail_alloc_at(n);
    cxla_executable *e = NULL;
    cxla_buffer *out[3] = {NULL, NULL, NULL};
    cxla_event *ev = NULL;
    cxla_status s = cxla_client_compile(c, m, NULL, &e);
    if (!s) s = cxla_executable_execute(e, args, 3, NULL, out, &ev);
    cxla_fail_alloc_at(0);
    if (s) {
      failures++;
      CHECK(e == NULL || out[0] == NULL);
      cxla_status_free(s);
    } else {
      done = true;
      CHECK(out[0] && out[1] && out[2]);
    }
    cxla_event_destroy(ev);
    for (int i = 0; i < 3; i++) cxla_buffer_destroy(out[i]);
    cxla_executable_destroy(e);
  }
  CHECK(done && failures > 10);
  for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
}

/* cxla_module_optimize is public: the pipeline, in place. */
TEST(module_optimize) {
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(axpy, strlen(axpy), "axpy", &m));
  if (!m) return;
  CHECK_OK(cxla_module_optimize(m, NULL));
  char *text = NULL;
  CHECK_OK(cxla_module_print(m, &text));
  CHECK(text && strstr(text, "fusion") != NULL); /* broadcast*x+y fused */
  cxla_free_string(text);
  cxla_compile_options o = CXLA_STRUCT_INIT(cxla_compile_options);
  o.verify_passes = 1;
  CHECK_OK(cxla_module_optimize(m, &o));
  CHECK_ERR(cxla_module_optimize(NULL, NULL), "module is NULL");
  cxla_module_destroy(m);
}

/* cxla_client_optimize: the pipeline the client's compile runs. The cpu
 * backend keeps a cumsum's reduce-window (it runs it as a scan); the
 * interpreter gets XLA's tree of short windows. */
static const char cumsum[] =
    "HloModule cumsum\nadd { a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
    " ROOT s = f32[] add(a, b) }\nENTRY e {\n x = f32[100] parameter(0)\n z = f32[] constant(0)\n"
    " ROOT r = f32[100] reduce-window(x, z), window={size=100 pad=99_0}, to_apply=add\n}\n";

static bool optimized_keeps_long_window(const char *backend) {
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = backend;
  cxla_client *c = NULL;
  cxla_module *m = NULL;
  char *text = NULL;
  CHECK_OK(cxla_client_create(&o, &c));
  CHECK_OK(cxla_module_parse(cumsum, strlen(cumsum), "cumsum", &m));
  if (c && m) CHECK_OK(cxla_client_optimize(c, m, NULL));
  if (m) CHECK_OK(cxla_module_print(m, &text));
  bool kept = text && strstr(text, "size=100 pad=99_0") != NULL;
  cxla_free_string(text);
  cxla_module_destroy(m);
  cxla_client_destroy(c);
  return kept;
}

TEST(client_optimize) {
  CHECK(optimized_keeps_long_window("cpu"));
  CHECK(!optimized_keeps_long_window("interp"));
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(cumsum, strlen(cumsum), "cumsum", &m));
  CHECK_ERR(cxla_client_optimize(NULL, m, NULL), "client or module is NULL");
  cxla_module_destroy(m);
}

static int cache_hit_of(cxla_executable *e) {
  cxla_compile_stats st = CXLA_STRUCT_INIT(cxla_compile_stats);
  cxla_status s = cxla_executable_compile_stats(e, &st);
  int hit = s ? -1 : st.cache_hit;
  cxla_status_free(s);
  return hit;
}

/* "y = x + K" for a K of our choosing: modules that differ. */
static cxla_executable *compile_plus(cxla_client *c, int k, const char *dump_dir) {
  char text[256];
  snprintf(text, sizeof text,
           "HloModule plus\nENTRY main {\n  x = f32[3] parameter(0)\n"
           "  k = f32[] constant(%d)\n  kb = f32[3] broadcast(k), dimensions={}\n"
           "  ROOT y = f32[3] add(x, kb)\n}\n", k);
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  cxla_compile_options o = CXLA_STRUCT_INIT(cxla_compile_options);
  o.dump_dir = dump_dir;
  cxla_status s = cxla_module_parse(text, strlen(text), "plus", &m);
  if (!s) s = cxla_client_compile(c, m, &o, &e);
  CHECK_OK(s);
  cxla_module_destroy(m);
  return e;
}

static float run_plus(cxla_executable *e) {
  float x[3] = {1, 2, 3}, y[3] = {0};
  int64_t d3[1] = {3};
  cxla_client *c = cxla_executable_client(e);
  cxla_buffer *a = rt_f32(c, x, 1, d3), *out[1] = {NULL};
  CHECK_OK(cxla_executable_execute(e, &a, 1, NULL, out, NULL));
  if (out[0]) CHECK_OK(cxla_buffer_to_host(out[0], y, sizeof y, NULL));
  cxla_buffer_destroy(a);
  cxla_buffer_destroy(out[0]);
  return y[0];
}

/* Compiling the same module with the same options twice in a process
 * compiles once (the client's cache): a hit says so in the stats, shares
 * the program, survives the first executable, and is bounded (least
 * recently used evicted). CXLA_CACHE=0 turns it off; dumps bypass it. */
TEST(compile_cache) {
  cxla_client *c = rt_client("interp");
  if (!c) return;
  cxla_executable *a = compile_plus(c, 5, NULL), *b = compile_plus(c, 5, NULL);
  CHECK(a && b && a != b);
  if (!a || !b) return;
  CHECK(cache_hit_of(a) == 0 && cache_hit_of(b) == 1);
  CHECK(strcmp(cxla_executable_fingerprint(a), cxla_executable_fingerprint(b)) == 0);
  cxla_executable_destroy(a);
  CHECK(run_plus(b) == 6); /* the shared program outlives the first handle */
  cxla_executable *d = compile_plus(c, 7, NULL); /* another module: a miss */
  CHECK(d && cache_hit_of(d) == 0 && run_plus(d) == 8);
  cxla_executable_destroy(d);
  char dir[] = "/tmp/cxla_rt_dump_XXXXXX";
  if (mkdtemp(dir)) {
    d = compile_plus(c, 5, dir); /* dumps asked for: compiled afresh */
    CHECK(d && cache_hit_of(d) == 0);
    cxla_executable_destroy(d);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
  }
  /* 5 was used just now; 40 others push it out (two keys per module) */
  for (int k = 100; k < 140; k++) cxla_executable_destroy(compile_plus(c, k, NULL));
  d = compile_plus(c, 5, NULL);
  CHECK(d && cache_hit_of(d) == 0);
  cxla_executable_destroy(d);
  d = compile_plus(c, 139, NULL); /* recent: still there */
  CHECK(d && cache_hit_of(d) == 1 && run_plus(d) == 140);
  cxla_executable_destroy(d);
  cxla_executable_destroy(b);
  cxla_client_destroy(c);
  /* off */
  setenv("CXLA_CACHE", "0", 1);
  c = rt_client("interp");
  a = c ? compile_plus(c, 5, NULL) : NULL;
  b = c ? compile_plus(c, 5, NULL) : NULL;
  CHECK(a && b && cache_hit_of(b) == 0);
  cxla_executable_destroy(a);
  cxla_executable_destroy(b);
  cxla_client_destroy(c);
  unsetenv("CXLA_CACHE");
}

/* $CXLA_NUM_THREADS: a whole number 1..4096 sets the default thread
 * count; anything else is an error naming the variable; an explicit
 * num_threads option does not read it. */
TEST(num_threads_env) {
  const char *old = getenv("CXLA_NUM_THREADS");
  char saved[64] = "";
  if (old) snprintf(saved, sizeof saved, "%s", old);
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  cxla_client *c = NULL;
  bool has_cpu = false;
  for (int i = 0; i < cxla_backend_count(); i++) has_cpu |= strcmp(cxla_backend_name(i), "cpu") == 0;
  if (!has_cpu) {
    SKIP("no cpu backend");
    return;
  }
  setenv("CXLA_NUM_THREADS", "3", 1);
  CHECK_OK(cxla_client_create(&o, &c));
  CHECK(c && cxla_client_num_threads(c) == 3);
  cxla_client_destroy(c);
  c = NULL;
  static const char *const bad[] = {"0", "-2", "two", "3x", " 3", "4097", "99999999999999999999", "1.5"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    setenv("CXLA_NUM_THREADS", bad[i], 1);
    CHECK_ERR(cxla_client_create(&o, &c), "CXLA_NUM_THREADS");
    CHECK(c == NULL);
  }
  o.num_threads = 2; /* the option wins; the variable is not read */
  CHECK_OK(cxla_client_create(&o, &c));
  CHECK(c && cxla_client_num_threads(c) == 2);
  cxla_client_destroy(c);
  c = NULL;
  o.num_threads = 0;
  setenv("CXLA_NUM_THREADS", "", 1); /* empty: unset, one per core */
  CHECK_OK(cxla_client_create(&o, &c));
  CHECK(c && cxla_client_num_threads(c) == (int)sysconf(_SC_NPROCESSORS_ONLN));
  cxla_client_destroy(c);
  if (saved[0]) setenv("CXLA_NUM_THREADS", saved, 1);
  else unsetenv("CXLA_NUM_THREADS");
}

/* The step profile (cxla_execute_options.profile): the cpu backend reports
 * each step that does work, the steps of a while body once per iteration,
 * with the GEMMs' flops; the interpreter reports nothing. */
typedef struct ProfileSeen {
  int steps, gemms, threads_bad;
  double flops, seconds;
} ProfileSeen;

static void profile_count(void *arg, const cxla_profile_step *st) {
  ProfileSeen *p = arg;
  p->steps++;
  if (strcmp(st->op, "dot") == 0 && strncmp(st->kind, "gemm", 4) == 0) p->gemms++;
  p->flops += st->flops;
  p->seconds += st->seconds;
  if (st->threads < 1 || !st->name || !st->name[0]) p->threads_bad++;
}

/* Executes e on args with the step profile fn(arg, step). */
static cxla_status execute_profiled(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                    void (*fn)(void *, const cxla_profile_step *), void *arg, cxla_buffer **out) {
  cxla_execute_options xo = CXLA_STRUCT_INIT(cxla_execute_options);
  xo.profile = fn;
  xo.profile_arg = arg;
  return cxla_executable_execute(e, args, nargs, &xo, out, NULL);
}

TEST(step_profile) {
  /* three iterations of x = x @ w, 32x32 */
  const char *loop =
      "HloModule loop\n"
      "cond {\n  p = (s32[], f32[32,32], f32[32,32]) parameter(0)\n"
      "  i = s32[] get-tuple-element(p), index=0\n  n = s32[] constant(3)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
      "body {\n  p = (s32[], f32[32,32], f32[32,32]) parameter(0)\n"
      "  i = s32[] get-tuple-element(p), index=0\n  one = s32[] constant(1)\n"
      "  j = s32[] add(i, one)\n  x = f32[32,32] get-tuple-element(p), index=1\n"
      "  w = f32[32,32] get-tuple-element(p), index=2\n"
      "  mm = f32[32,32] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  ROOT t = (s32[], f32[32,32], f32[32,32]) tuple(j, mm, w)\n}\n"
      "ENTRY main {\n  x = f32[32,32] parameter(0)\n  w = f32[32,32] parameter(1)\n"
      "  z = s32[] constant(0)\n  t = (s32[], f32[32,32], f32[32,32]) tuple(z, x, w)\n"
      "  r = (s32[], f32[32,32], f32[32,32]) while(t), condition=cond, body=body\n"
      "  ROOT o = f32[32,32] get-tuple-element(r), index=1\n}\n";
  static float x[32 * 32], w[32 * 32];
  for (int i = 0; i < 32 * 32; i++) {
    x[i] = (float)(i % 7) * 0.25f;
    w[i] = i % 33 == 0 ? 1.0f : 0.0f; /* the identity */
  }
  int64_t d[2] = {32, 32};
  const char *backends[2] = {"cpu", "interp"};
  for (int b = 0; b < 2; b++) {
    cxla_client *c = rt_client(backends[b]);
    if (!c) continue;
    cxla_executable *e = rt_compile(c, loop);
    CHECK(e != NULL);
    cxla_buffer *args[2] = {rt_f32(c, x, 2, d), rt_f32(c, w, 2, d)};
    cxla_buffer *out[1] = {NULL};
    ProfileSeen seen = {0};
    if (e) CHECK_OK(execute_profiled(e, args, 2, profile_count, &seen, out));
    if (out[0]) {
      static float r[32 * 32];
      CHECK_OK(cxla_buffer_to_host(out[0], r, sizeof r, NULL));
      CHECK(memcmp(r, x, sizeof r) == 0);
    }
    if (b == 0) {
      CHECK(seen.gemms == 3);
      CHECK(seen.flops == 3 * 2.0 * 32 * 32 * 32);
      CHECK(seen.steps >= 3 && seen.threads_bad == 0 && seen.seconds >= 0);
    } else {
      CHECK(seen.steps == 0);
    }
    /* not asked for: not called */
    ProfileSeen none = {0};
    cxla_execute_options plain = CXLA_STRUCT_INIT(cxla_execute_options);
    plain.profile_arg = &none;
    cxla_buffer_destroy(out[0]);
    out[0] = NULL;
    if (e) CHECK_OK(cxla_executable_execute(e, args, 2, &plain, out, NULL));
    CHECK(none.steps == 0);
    cxla_buffer_destroy(out[0]);
    for (int i = 0; i < 2; i++) cxla_buffer_destroy(args[i]);
    cxla_executable_destroy(e);
    cxla_client_destroy(c);
  }
}

/* The threads each step's profile entry names: a sort and a max pooling
 * large enough to split over the execution's two threads report 2, the
 * same ops on a few elements 1 (routines and sorts count the threads of
 * their own splits, not the execution's). */
typedef struct ThreadsSeen {
  int big_sort, small_sort, big_pool, small_pool;
} ThreadsSeen;

static void profile_threads(void *arg, const cxla_profile_step *st) {
  ThreadsSeen *t = arg;
  int *slot = !strcmp(st->name, "bs")   ? &t->big_sort
              : !strcmp(st->name, "ss") ? &t->small_sort
              : !strcmp(st->name, "bp") ? &t->big_pool
              : !strcmp(st->name, "sp") ? &t->small_pool
                                        : NULL;
  if (slot) *slot = st->threads;
}

TEST(step_profile_threads) {
  const char *text =
      "HloModule threads\n"
      "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=LT\n}\n"
      "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] maximum(a, b)\n}\n"
      "ENTRY main {\n  x = f32[262144] parameter(0)\n  y = f32[64] parameter(1)\n"
      "  bs = f32[262144] sort(x), dimensions={0}, to_apply=lt\n"
      "  ss = f32[64] sort(y), dimensions={0}, to_apply=lt\n"
      "  ninf = f32[] constant(-inf)\n"
      "  x2 = f32[2,256,256,2] reshape(x)\n"
      "  bp = f32[2,254,254,2] reduce-window(x2, ninf), window={size=1x3x3x1}, to_apply=mx\n"
      "  y2 = f32[1,8,8,1] reshape(y)\n"
      "  sp = f32[1,6,6,1] reduce-window(y2, ninf), window={size=1x3x3x1}, to_apply=mx\n"
      "  ROOT t = (f32[262144], f32[64], f32[2,254,254,2], f32[1,6,6,1]) tuple(bs, ss, bp, sp)\n}\n";
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = "cpu";
  o.num_threads = 2;
  cxla_client *c = NULL;
  cxla_status st = cxla_client_create(&o, &c);
  if (st) {
    cxla_status_free(st);
    SKIP("no cpu backend in this build");
    return;
  }
  cxla_executable *e = rt_compile(c, text);
  CHECK(e != NULL);
  static float x[262144], y[64];
  for (int i = 0; i < 262144; i++) x[i] = (float)((i * 7919) % 262144);
  for (int i = 0; i < 64; i++) y[i] = (float)((i * 37) % 64);
  int64_t dx[1] = {262144}, dy[1] = {64};
  cxla_buffer *args[2] = {rt_f32(c, x, 1, dx), rt_f32(c, y, 1, dy)};
  cxla_buffer *out[4] = {NULL};
  ThreadsSeen seen = {0};
  if (e) CHECK_OK(execute_profiled(e, args, 2, profile_threads, &seen, out));
  bool sorts_ok = seen.big_sort == 2 && seen.small_sort == 1, pools_ok = seen.big_pool == 2 && seen.small_pool == 1;
  CHECK(sorts_ok);
  CHECK(pools_ok);
  if (!sorts_ok || !pools_ok)
    printf("  threads: sorts %d and %d, poolings %d and %d\n", seen.big_sort, seen.small_sort, seen.big_pool,
           seen.small_pool);
  if (out[0]) { /* the sort ran: 0, 1, ... (x is a permutation) */
    static float r[262144];
    CHECK_OK(cxla_buffer_to_host(out[0], r, sizeof r, NULL));
    bool sorted = true;
    for (int i = 0; i < 262144; i++) sorted &= r[i] == (float)i;
    CHECK(sorted);
  }
  for (int i = 0; i < 4; i++) cxla_buffer_destroy(out[i]);
  for (int i = 0; i < 2; i++) cxla_buffer_destroy(args[i]);
  cxla_executable_destroy(e);
  cxla_client_destroy(c);
}

int main(void) {
  RUN(status_codes_are_pjrts);
  RUN(clients_by_name);
  RUN(client_errors);
  RUN(num_threads_env);
  RUN(buffers);
  RUN(compile_and_execute);
  RUN(token_parameters_and_results);
  RUN(memory_spaces);
  RUN(host_callbacks);
  RUN(small_and_large_results);
  RUN(execute_errors);
  RUN(compile_errors);
  RUN(cancel_and_deadline);
  RUN(host_allocator);
  RUN(lifetimes);
  RUN(allocation_failures);
  RUN(module_optimize);
  RUN(client_optimize);
  RUN(compile_cache);
  RUN(step_profile);
  RUN(step_profile_threads);
  return test_summary("test_runtime");
}
