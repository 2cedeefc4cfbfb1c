/* Kernels' scratch blocks, kept between calls; see scratch.h.
 *
 * Every block carries a 64-byte header in front of what the caller gets:
 * the pointer malloc returned and the bytes usable from the caller's
 * pointer on, so that rt_scratch_free needs no size and a kept block can
 * serve any request up to its capacity. */
#include "runtime/scratch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"

typedef struct Header {
  void *raw;  /* what cxla_malloc returned */
  size_t cap; /* usable bytes from the caller's pointer */
} Header;

enum { HEADER_BYTES = 64 };

struct RtScratch {
  pthread_mutex_t mu;
  int n;
  size_t bytes;                  /* the capacities of the blocks kept */
  void *blk[RT_SCRATCH_BLOCKS];  /* callers' pointers */
};

static Header *header(void *p) { return (Header *)((char *)p - HEADER_BYTES); }

/* A line-aligned block (cxla_malloc_lines) of the header and n bytes. */
static void *fresh(size_t n) {
  if (n > SIZE_MAX - 2 * HEADER_BYTES) return NULL;
  void *raw;
  char *line = cxla_malloc_lines(n + HEADER_BYTES, &raw);
  if (!line) return NULL;
  Header *h = (Header *)line;
  h->raw = raw;
  h->cap = n;
  return line + HEADER_BYTES;
}

static void release(void *p) {
  if (p) cxla_free(header(p)->raw);
}

RtScratch *rt_scratch_create(void) {
  RtScratch *s = cxla_calloc(1, sizeof *s);
  if (s) pthread_mutex_init(&s->mu, NULL);
  return s;
}

void rt_scratch_destroy(RtScratch *s) {
  if (!s) return;
  for (int i = 0; i < s->n; i++) release(s->blk[i]);
  pthread_mutex_destroy(&s->mu);
  cxla_free(s);
}

/* Removes block i from s (under its mutex). */
static void *take(RtScratch *s, int i) {
  void *p = s->blk[i];
  s->bytes -= header(p)->cap;
  s->blk[i] = s->blk[--s->n];
  return p;
}

void *rt_scratch_alloc(RtPool *pool, size_t n) {
  RtScratch *s = rt_pool_scratch(pool);
  if (!s || n < RT_SCRATCH_MIN) return fresh(n);
  void *drop[RT_SCRATCH_BLOCKS], *got = NULL;
  int ndrop = 0;
  pthread_mutex_lock(&s->mu);
  int best = -1;
  for (int i = 0; i < s->n; i++) {
    size_t cap = header(s->blk[i])->cap;
    if (cap >= n && (best < 0 || cap < header(s->blk[best])->cap)) best = i;
  }
  if (best >= 0) {
    got = take(s, best);
  } else {
    /* nothing kept fits: the smaller blocks go (all of them, here) */
    while (s->n > 0) drop[ndrop++] = take(s, s->n - 1);
  }
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < ndrop; i++) release(drop[i]);
  return got ? got : fresh(n);
}

void rt_scratch_free(RtPool *pool, void *p) {
  if (!p) return;
  RtScratch *s = rt_pool_scratch(pool);
  size_t cap = header(p)->cap;
  if (s && cap >= RT_SCRATCH_MIN) {
    pthread_mutex_lock(&s->mu);
    bool keep = s->n < RT_SCRATCH_BLOCKS && s->bytes + cap <= RT_SCRATCH_BYTES;
    if (keep) {
      s->blk[s->n++] = p;
      s->bytes += cap;
    }
    pthread_mutex_unlock(&s->mu);
    if (keep) return;
  }
  release(p);
}

size_t rt_scratch_held(RtPool *pool, int *nblocks) {
  RtScratch *s = rt_pool_scratch(pool);
  size_t bytes = 0;
  int n = 0;
  if (s) {
    pthread_mutex_lock(&s->mu);
    bytes = s->bytes;
    n = s->n;
    pthread_mutex_unlock(&s->mu);
  }
  if (nblocks) *nblocks = n;
  return bytes;
}
