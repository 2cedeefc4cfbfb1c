/* runtime_test.h: helpers shared by the runtime API tests
 * (test_runtime.c, test_runtime_threads.c): clients by name, modules from
 * text, f32 buffers from arrays and back. Everything through the public
 * API (cxla/runtime.h). */
#ifndef CXLA_RUNTIME_TEST_H
#define CXLA_RUNTIME_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxla/runtime.h"

/* A client for backend `name` (NULL: the default); NULL on error (printed). */
static inline cxla_client *rt_client(const char *name) {
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = name;
  cxla_client *c = NULL;
  cxla_status s = cxla_client_create(&o, &c);
  if (s) {
    fprintf(stderr, "client %s: %s\n", name ? name : "(default)", cxla_status_message(s));
    cxla_status_free(s);
  }
  return c;
}

/* Parses text and compiles it on c (optimized); NULL on error (printed). */
static inline cxla_executable *rt_compile(cxla_client *c, const char *text) {
  cxla_module *m = NULL;
  cxla_executable *e = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "test", &m);
  if (!s) s = cxla_client_compile(c, m, NULL, &e);
  if (s) {
    fprintf(stderr, "compile: %s\n", cxla_status_message(s));
    cxla_status_free(s);
  }
  cxla_module_destroy(m);
  return e;
}

/* A copied f32 buffer of the given dims; NULL on error. */
static inline cxla_buffer *rt_f32(cxla_client *c, const float *v, int rank, const int64_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = CXLA_F32;
  h.rank = rank;
  h.dims = dims;
  h.data = v;
  h.size = (size_t)n * sizeof(float);
  cxla_buffer *b = NULL;
  cxla_status s = cxla_buffer_from_host(c, NULL, &h, &b, NULL);
  if (s) {
    fprintf(stderr, "buffer: %s\n", cxla_status_message(s));
    cxla_status_free(s);
  }
  return b;
}

#endif
