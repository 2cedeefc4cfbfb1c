/* Cancellation, deadlines and the host allocator: the small services the
 * runtime offers backends (backend.h) and the cancel handles of runtime.h. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Blocks of RT_HUGE_MIN bytes and more: 2 MiB aligned and advised as huge
 * pages (runtime_internal.h; the advice is best effort: a kernel without
 * THP refuses it and the block stays as it is). */
static void *default_alloc(void *self, size_t size, size_t alignment) {
  bool huge = size >= RT_HUGE_MIN;
  if (huge && alignment < RT_HUGE_PAGE) alignment = RT_HUGE_PAGE;
  /* aligned_alloc wants a multiple of the alignment */
  size_t n = (size + alignment - 1) / alignment * alignment;
  if (n < size) return NULL;
  void *p = aligned_alloc(alignment, n ? n : alignment);
#if defined(MADV_HUGEPAGE)
  if (p && huge) (void)madvise(p, n, MADV_HUGEPAGE);
#endif
  return p;
}

static void default_free(void *self, void *p, size_t size) { free(p); }

void rt_host_init(RtHost *h, const cxla_allocator *user) {
  h->blocks = NULL;
  h->small_inline = false;
  if (user && user->alloc && user->free) {
    h->a = *user;
  } else {
    h->small_inline = true;
    h->a = (cxla_allocator){sizeof(cxla_allocator), NULL, default_alloc, default_free};
    /* without memory for the cache, blocks are simply not kept */
    h->blocks = cxla_calloc(1, sizeof *h->blocks);
    if (h->blocks) pthread_mutex_init(&h->blocks->mu, NULL);
  }
}

void rt_host_destroy(RtHost *h) {
  RtBlockCache *c = h->blocks;
  if (!c) return;
  for (int i = 0; i < c->n; i++) h->a.free(h->a.self, c->p[i], c->size[i]);
  pthread_mutex_destroy(&c->mu);
  cxla_free(c);
  h->blocks = NULL;
}

void *rt_alloc(const RtHost *host, size_t size) {
  RtBlockCache *c = host->blocks;
  if (c && size >= RT_HOST_BLOCK_MIN) {
    void *p = NULL;
    pthread_mutex_lock(&c->mu);
    for (int i = c->n - 1; i >= 0; i--)
      if (c->size[i] == size) {
        p = c->p[i];
        c->bytes -= size;
        memmove(&c->p[i], &c->p[i + 1], (size_t)(c->n - 1 - i) * sizeof c->p[0]);
        memmove(&c->size[i], &c->size[i + 1], (size_t)(c->n - 1 - i) * sizeof c->size[0]);
        c->n--;
        break;
      }
    pthread_mutex_unlock(&c->mu);
    if (p) return p;
  }
  void *p = host->a.alloc(host->a.self, size ? size : 1, CXLA_BUFFER_ALIGNMENT);
  if (p && ((uintptr_t)p % CXLA_BUFFER_ALIGNMENT) != 0) { /* a broken allocator */
    host->a.free(host->a.self, p, size ? size : 1);
    return NULL;
  }
  return p;
}

void rt_free(const RtHost *host, void *p, size_t size) {
  if (!p) return;
  RtBlockCache *c = host->blocks;
  if (c && size >= RT_HOST_BLOCK_MIN && size <= RT_HOST_CACHE_MAX) {
    void *evict[RT_HOST_BLOCKS + 1];
    size_t evict_size[RT_HOST_BLOCKS + 1];
    int ne = 0;
    pthread_mutex_lock(&c->mu);
    /* make room: the oldest blocks go */
    while (c->n > 0 && (c->n == RT_HOST_BLOCKS || c->bytes + size > RT_HOST_CACHE_MAX)) {
      evict[ne] = c->p[0];
      evict_size[ne++] = c->size[0];
      c->bytes -= c->size[0];
      memmove(&c->p[0], &c->p[1], (size_t)(c->n - 1) * sizeof c->p[0]);
      memmove(&c->size[0], &c->size[1], (size_t)(c->n - 1) * sizeof c->size[0]);
      c->n--;
    }
    c->p[c->n] = p;
    c->size[c->n++] = size;
    c->bytes += size;
    pthread_mutex_unlock(&c->mu);
    for (int i = 0; i < ne; i++) host->a.free(host->a.self, evict[i], evict_size[i]);
    return;
  }
  host->a.free(host->a.self, p, size ? size : 1);
}
