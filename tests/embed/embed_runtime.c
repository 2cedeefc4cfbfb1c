/* A host program embedding libcxla.so through the public headers only
 * (built with -Iinclude, no -Isrc, linked against the shared library): it
 * parses a module, runs it through the runtime API on every registered
 * backend, with a host allocator of its own, and checks the values.
 * Prints "embed: N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxla/runtime.h"

static int passed, failed;

#define EXPECT(cond)                                                            \
  do {                                                                          \
    if (cond) passed++;                                                         \
    else {                                                                      \
      failed++;                                                                 \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                           \
  } while (0)

static int ok(cxla_status s) {
  if (!s) return 1;
  fprintf(stderr, "error: %s\n", cxla_status_message(s));
  cxla_status_free(s);
  return 0;
}

/* A counting allocator: every block it gives must come back. */
typedef struct Counter {
  long live;
} Counter;

static void *count_alloc(void *self, size_t size, size_t alignment) {
  ((Counter *)self)->live++;
  return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}

static void count_free(void *self, void *p, size_t size) {
  (void)size;
  ((Counter *)self)->live--;
  free(p);
}

static const char module_text[] =
    "HloModule axpy\n"
    "ENTRY main {\n"
    "  a = f32[] parameter(0)\n"
    "  x = f32[4] parameter(1)\n"
    "  y = f32[4] parameter(2)\n"
    "  ab = f32[4] broadcast(a), dimensions={}\n"
    "  ax = f32[4] multiply(ab, x)\n"
    "  ROOT r = f32[4] add(ax, y)\n"
    "}\n";

static void run_backend(const char *name, const cxla_module *m) {
  Counter counter = {0};
  cxla_allocator alloc = {sizeof alloc, &counter, count_alloc, count_free};
  cxla_client_options co = {.struct_size = sizeof co, .backend = name, .num_threads = 1,
                            .allocator = &alloc};
  cxla_client *c = NULL;
  if (!ok(cxla_client_create(&co, &c))) {
    failed++;
    return;
  }
  EXPECT(strcmp(cxla_client_backend(c), name) == 0);
  cxla_executable *e = NULL;
  EXPECT(ok(cxla_client_compile(c, m, NULL, &e)));
  if (e) {
    EXPECT(cxla_executable_num_parameters(e) == 3 && cxla_executable_num_results(e) == 1);
    float a = 2, x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, r[4] = {0};
    int64_t d4[1] = {4};
    cxla_host_buffer ha = {sizeof ha, CXLA_F32, 0, NULL, &a, sizeof a, CXLA_HOST_COPY, NULL, NULL, NULL};
    cxla_host_buffer hx = {sizeof hx, CXLA_F32, 1, d4, x, sizeof x, CXLA_HOST_COPY, NULL, NULL, NULL};
    cxla_host_buffer hy = {sizeof hy, CXLA_F32, 1, d4, y, sizeof y, CXLA_HOST_COPY, NULL, NULL, NULL};
    cxla_buffer *args[3] = {NULL, NULL, NULL}, *out[1] = {NULL};
    EXPECT(ok(cxla_buffer_from_host(c, NULL, &ha, &args[0], NULL)));
    EXPECT(ok(cxla_buffer_from_host(c, NULL, &hx, &args[1], NULL)));
    EXPECT(ok(cxla_buffer_from_host(c, NULL, &hy, &args[2], NULL)));
    cxla_event *done = NULL;
    EXPECT(ok(cxla_executable_execute(e, args, 3, NULL, out, &done)));
    EXPECT(ok(cxla_event_await(done)));
    cxla_event_destroy(done);
    if (out[0]) {
      EXPECT(ok(cxla_buffer_to_host(out[0], r, sizeof r, NULL)));
      EXPECT(r[0] == 12 && r[1] == 24 && r[2] == 36 && r[3] == 48);
    }
    for (int i = 0; i < 3; i++) cxla_buffer_destroy(args[i]);
    cxla_buffer_destroy(out[0]);
    cxla_executable_destroy(e);
  }
  cxla_client_destroy(c);
  EXPECT(counter.live == 0);
  printf("embed: backend %s ran\n", name);
}

int main(void) {
  cxla_module *m = NULL;
  if (!ok(cxla_module_parse(module_text, strlen(module_text), "axpy", &m))) return 1;
  EXPECT(cxla_backend_count() >= 1);
  for (int i = 0; i < cxla_backend_count(); i++) run_backend(cxla_backend_name(i), m);
  cxla_module_destroy(m);
  printf("embed: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
