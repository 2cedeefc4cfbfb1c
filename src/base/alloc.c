/* Checked allocation with a failure-injection hook for tests. */
#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The failure-injection state is per thread (no state shared between
 * threads or between two embedders of the library): a test arms it on the
 * thread whose allocations it wants to fail. */
static _Thread_local long alloc_count;
static _Thread_local long fail_at; /* 0: off; else fail when alloc_count reaches it */

long cxla_fail_alloc_at(long n) {
  long c = alloc_count;
  alloc_count = 0;
  fail_at = n;
  return c;
}

static bool should_fail(void) {
  alloc_count++;
  return fail_at != 0 && alloc_count == fail_at;
}

void *cxla_malloc(size_t n) {
  if (should_fail()) return NULL;
  return malloc(n ? n : 1);
}

void *cxla_malloc_lines(size_t n, void **raw) {
  *raw = cxla_malloc(n + 64);
  return *raw ? (void *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63) : NULL;
}

void *cxla_calloc(size_t n, size_t size) {
  if (should_fail()) return NULL;
  return calloc(n ? n : 1, size ? size : 1);
}

void *cxla_realloc(void *p, size_t n) {
  if (should_fail()) return NULL;
  return realloc(p, n ? n : 1);
}

void cxla_free(void *p) { free(p); }

char *cxla_strndup(const char *s, size_t n) {
  char *d = cxla_malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *cxla_strdup(const char *s) { return cxla_strndup(s, strlen(s)); }

char *cxla_vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return NULL;
  char *s = cxla_malloc((size_t)n + 1);
  if (!s) return NULL;
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *cxla_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = cxla_vformat(fmt, ap);
  va_end(ap);
  return s;
}
