/* Cancellation, deadlines and the host allocator: the small services the
 * runtime offers backends (backend.h) and the cancel handles of runtime.h. */
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime_internal.h"

cxla_status cxla_cancel_create(cxla_cancel **out_cancel) {
  if (!out_cancel) return ERR(INVALID_ARGUMENT, "cxla_cancel_create: out_cancel is NULL");
  *out_cancel = NULL;
  cxla_cancel *c = cxla_malloc(sizeof *c);
  if (!c) return cxla_oom();
  atomic_init(&c->requested, 0);
  *out_cancel = c;
  return NULL;
}

void cxla_cancel_request(cxla_cancel *cancel) {
  if (cancel) atomic_store(&cancel->requested, 1);
}

int cxla_cancel_requested(const cxla_cancel *cancel) {
  return cancel ? atomic_load(&((cxla_cancel *)cancel)->requested) : 0;
}

void cxla_cancel_destroy(cxla_cancel *cancel) { cxla_free(cancel); }

void rt_control_init(RtControl *c, const cxla_cancel *cancel, double timeout_seconds) {
  memset(c, 0, sizeof *c);
  c->cancel = cancel;
  if (timeout_seconds > 0) {
    c->has_deadline = true;
    c->timeout_seconds = timeout_seconds;
    clock_gettime(CLOCK_MONOTONIC, &c->deadline);
    if (timeout_seconds > 1e9) timeout_seconds = 1e9; /* ~30 years */
    long long whole = (long long)timeout_seconds;
    long nsec = c->deadline.tv_nsec + (long)((timeout_seconds - (double)whole) * 1e9);
    c->deadline.tv_sec += (time_t)whole + nsec / 1000000000L;
    c->deadline.tv_nsec = nsec % 1000000000L;
  }
}

static bool past_deadline(const RtControl *c) {
  if (!c->has_deadline) return false;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > c->deadline.tv_sec ||
         (now.tv_sec == c->deadline.tv_sec && now.tv_nsec >= c->deadline.tv_nsec);
}

bool rt_should_stop(const RtControl *c) {
  if (!c) return false;
  return cxla_cancel_requested(c->cancel) || past_deadline(c);
}

cxla_status rt_check(const RtControl *c) {
  if (!c) return NULL;
  if (cxla_cancel_requested(c->cancel)) return ERR(CANCELLED, "execution cancelled");
  if (past_deadline(c))
    return ERR(DEADLINE_EXCEEDED, "execution stopped after its timeout of %g s",
               c->timeout_seconds);
  return NULL;
}

/* ---- memory ---- */

static void *default_alloc(void *self, size_t size, size_t alignment) {
  /* aligned_alloc wants a multiple of the alignment */
  size_t n = (size + alignment - 1) / alignment * alignment;
  if (n < size) return NULL;
  return aligned_alloc(alignment, n ? n : alignment);
}

static void default_free(void *self, void *p, size_t size) { free(p); }

void rt_host_init(RtHost *h, const cxla_allocator *user) {
  if (user && user->alloc && user->free) {
    h->a = *user;
  } else {
    h->a = (cxla_allocator){sizeof(cxla_allocator), NULL, default_alloc, default_free};
  }
}

void *rt_alloc(const RtHost *host, size_t size) {
  void *p = host->a.alloc(host->a.self, size ? size : 1, CXLA_BUFFER_ALIGNMENT);
  if (p && ((uintptr_t)p % CXLA_BUFFER_ALIGNMENT) != 0) { /* a broken allocator */
    host->a.free(host->a.self, p, size ? size : 1);
    return NULL;
  }
  return p;
}

void rt_free(const RtHost *host, void *p, size_t size) {
  if (p) host->a.free(host->a.self, p, size ? size : 1);
}
