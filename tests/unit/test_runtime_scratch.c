/* Kernels' scratch blocks kept by the thread pool (src/runtime/scratch.h):
 * a block given back serves the next request it fits (the smallest such),
 * small blocks and blocks past the caps are not kept, a request no kept
 * block fits drops the kept ones, every block is 64-byte aligned and
 * writable over its whole size, a NULL pool allocates afresh, threads at
 * once never share a block, and out of memory is NULL without a leak.
 * Also under ThreadSanitizer (make test-tsan). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "base/base.h"
#include "runtime/scratch.h"

#define MIB ((size_t)1 << 20)

static bool aligned64(const void *p) { return ((uintptr_t)p & 63) == 0; }

TEST(reuse_and_best_fit) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(2, &p));
  int n = -1;
  CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  char *a = rt_scratch_alloc(p, MIB), *b = rt_scratch_alloc(p, 4 * MIB);
  CHECK(a && b && a != b && aligned64(a) && aligned64(b));
  memset(a, 1, MIB);
  memset(b, 2, 4 * MIB);
  rt_scratch_free(p, a);
  rt_scratch_free(p, b);
  CHECK(rt_scratch_held(p, &n) == 5 * MIB && n == 2);
  /* 2 MiB: only the 4 MiB block fits; 512 KiB: both do, the smaller wins */
  char *c = rt_scratch_alloc(p, 2 * MIB);
  CHECK(c == b);
  char *d = rt_scratch_alloc(p, MIB / 2);
  CHECK(d == a);
  CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  rt_scratch_free(p, d);
  rt_scratch_free(p, c);
  /* the same size again: the same block */
  char *e = rt_scratch_alloc(p, MIB);
  CHECK(e == a);
  rt_scratch_free(p, e);
  rt_pool_destroy(p); /* frees both kept blocks (LeakSanitizer) */
}

TEST(miss_drops_smaller_blocks) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(1, &p));
  char *a = rt_scratch_alloc(p, MIB), *b = rt_scratch_alloc(p, 2 * MIB);
  rt_scratch_free(p, a);
  rt_scratch_free(p, b);
  int n = 0;
  CHECK(rt_scratch_held(p, &n) == 3 * MIB && n == 2);
  char *c = rt_scratch_alloc(p, 3 * MIB); /* fits neither */
  CHECK(c != NULL);
  memset(c, 3, 3 * MIB);
  CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  rt_scratch_free(p, c);
  CHECK(rt_scratch_held(p, &n) == 3 * MIB && n == 1);
  rt_pool_destroy(p);
}

TEST(small_blocks_and_caps) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(1, &p));
  int n = 0;
  /* under RT_SCRATCH_MIN (zero bytes included): malloc's, never kept */
  char *s0 = rt_scratch_alloc(p, 0), *s1 = rt_scratch_alloc(p, RT_SCRATCH_MIN - 1);
  CHECK(s0 && s1 && aligned64(s0) && aligned64(s1));
  memset(s1, 4, RT_SCRATCH_MIN - 1);
  rt_scratch_free(p, s0);
  rt_scratch_free(p, s1);
  CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  /* at most RT_SCRATCH_BLOCKS kept: the rest freed */
  char *blk[RT_SCRATCH_BLOCKS + 3];
  for (int i = 0; i < RT_SCRATCH_BLOCKS + 3; i++) CHECK((blk[i] = rt_scratch_alloc(p, RT_SCRATCH_MIN)) != NULL);
  for (int i = 0; i < RT_SCRATCH_BLOCKS + 3; i++) rt_scratch_free(p, blk[i]);
  CHECK(rt_scratch_held(p, &n) == RT_SCRATCH_BLOCKS * RT_SCRATCH_MIN && n == RT_SCRATCH_BLOCKS);
  rt_scratch_free(p, NULL);
  rt_pool_destroy(p);
  /* more than RT_SCRATCH_BYTES in all: not kept (malloc reserves the
   * pages; only the few touched here are backed) */
  CHECK_OK(rt_pool_create(1, &p));
  char *big = rt_scratch_alloc(p, RT_SCRATCH_BYTES + 1);
  if (big) {
    big[0] = 1;
    big[RT_SCRATCH_BYTES] = 2;
    rt_scratch_free(p, big);
    CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  }
  rt_pool_destroy(p);
}

TEST(null_pool) {
  int n = 5;
  CHECK(rt_scratch_held(NULL, &n) == 0 && n == 0);
  char *a = rt_scratch_alloc(NULL, 2 * MIB);
  CHECK(a && aligned64(a));
  memset(a, 5, 2 * MIB);
  rt_scratch_free(NULL, a);
  rt_scratch_free(NULL, NULL);
}

TEST(out_of_memory) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(1, &p));
  cxla_fail_alloc_at(1);
  CHECK(rt_scratch_alloc(p, MIB) == NULL);
  cxla_fail_alloc_at(1);
  CHECK(rt_scratch_alloc(NULL, 100) == NULL);
  cxla_fail_alloc_at(0);
  /* sizes past what can be asked for */
  CHECK(rt_scratch_alloc(p, SIZE_MAX) == NULL);
  CHECK(rt_scratch_alloc(p, SIZE_MAX - 100) == NULL);
  int n = 0;
  CHECK(rt_scratch_held(p, &n) == 0 && n == 0);
  rt_pool_destroy(p);
}

/* Threads taking and giving back blocks of mixed sizes from one pool at
 * once: each fills its block with its own byte and finds it intact after
 * the others have had time to write theirs. */
typedef struct Racer {
  RtPool *pool;
  int id;
  int bad;
} Racer;

static void *race(void *arg) {
  Racer *r = arg;
  for (int it = 0; it < 200; it++) {
    size_t n = (size_t)(1 + (it * 7 + r->id) % 5) * (RT_SCRATCH_MIN / 2);
    unsigned char *b = rt_scratch_alloc(r->pool, n);
    if (!b) {
      r->bad++;
      continue;
    }
    memset(b, r->id, n);
    for (volatile int spin = 0; spin < 1000; spin++) {}
    for (size_t i = 0; i < n; i += 4096) r->bad += b[i] != (unsigned char)r->id;
    r->bad += b[n - 1] != (unsigned char)r->id;
    rt_scratch_free(r->pool, b);
  }
  return NULL;
}

TEST(threads_at_once) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(2, &p));
  enum { T = 4 };
  pthread_t th[T];
  Racer r[T];
  for (int i = 0; i < T; i++) {
    r[i] = (Racer){.pool = p, .id = i + 1};
    CHECK(pthread_create(&th[i], NULL, race, &r[i]) == 0);
  }
  for (int i = 0; i < T; i++) {
    pthread_join(th[i], NULL);
    CHECK(r[i].bad == 0);
  }
  int n = 0;
  size_t held = rt_scratch_held(p, &n);
  CHECK(n >= 1 && n <= RT_SCRATCH_BLOCKS && held >= RT_SCRATCH_MIN);
  rt_pool_destroy(p);
}

int main(void) {
  RUN(reuse_and_best_fit);
  RUN(miss_drops_smaller_blocks);
  RUN(small_blocks_and_caps);
  RUN(null_pool);
  RUN(out_of_memory);
  RUN(threads_at_once);
  return test_summary("test_runtime_scratch");
}
