/* The runtime's cache of freed large blocks (src/runtime/control.c,
 * RtBlockCache): a freed block of RT_HOST_BLOCK_MIN (128 KiB) or more
 * (a mid-sized 300 KiB one too) comes back for the next
 * allocation of its exact size; small blocks, and blocks from a caller's
 * allocator, are never kept; the cache holds at most RT_HOST_BLOCKS blocks
 * and RT_HOST_CACHE_MAX bytes, dropping the oldest; threads share it
 * safely (this file also runs under ThreadSanitizer); teardown frees what
 * it holds (LeakSanitizer). Blocks of RT_HUGE_MIN (4 MiB) or more start on
 * a 2 MiB boundary and carry the kernel's huge-page advice. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "harness.h"
#include "runtime/runtime_internal.h"

TEST(reuses_exact_sizes) {
  RtHost h;
  rt_host_init(&h, NULL);
  CHECK(h.blocks != NULL);
  size_t mb2 = (size_t)2 << 20;
  void *p = rt_alloc(&h, mb2);
  CHECK(p != NULL && (uintptr_t)p % CXLA_BUFFER_ALIGNMENT == 0);
  rt_free(&h, p, mb2);
  CHECK(h.blocks->n == 1 && h.blocks->bytes == mb2);
  /* another size does not take it (and cannot be it: it is still held) */
  void *r = rt_alloc(&h, mb2 + 64);
  CHECK(r != NULL && r != p);
  void *q = rt_alloc(&h, mb2);
  CHECK(q == p);
  CHECK(h.blocks->n == 0 && h.blocks->bytes == 0);
  rt_free(&h, q, mb2);
  rt_free(&h, r, mb2 + 64);
  CHECK(h.blocks->n == 2);
  rt_host_destroy(&h);
  CHECK(h.blocks == NULL);
}

/* Whether the mapping holding p has MADV_HUGEPAGE's "hg" among its
 * VmFlags in /proc/self/smaps (-1: no smaps, or p in no mapping). */
static int advised_huge(const void *p) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  int in = 0, found = -1;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) { /* a mapping's first line */
      in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
      continue;
    }
    if (in && strncmp(line, "VmFlags:", 8) == 0) {
      found = strstr(line, " hg") != NULL;
      break;
    }
  }
  fclose(f);
  return found;
}

TEST(large_blocks_are_huge_page_advised) {
  RtHost h;
  rt_host_init(&h, NULL);
  size_t big = RT_HUGE_MIN, small = RT_HUGE_MIN - 64;
  void *p = rt_alloc(&h, big), *q = rt_alloc(&h, small);
  CHECK(p != NULL && (uintptr_t)p % RT_HUGE_PAGE == 0);
  CHECK(q != NULL && (uintptr_t)q % CXLA_BUFFER_ALIGNMENT == 0);
  /* the advice itself, where this kernel takes it (probed on a mapping of
   * our own: without THP, madvise refuses and nothing is advised) */
  void *probe = mmap(NULL, RT_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bool kernel_takes = probe != MAP_FAILED && madvise(probe, RT_HUGE_PAGE, MADV_HUGEPAGE) == 0;
  if (probe != MAP_FAILED) munmap(probe, RT_HUGE_PAGE);
  if (kernel_takes && advised_huge(p) >= 0) {
    CHECK(advised_huge(p) == 1);
    CHECK(advised_huge((char *)p + big - 1) == 1);
  }
  rt_free(&h, p, big);
  rt_free(&h, q, small);
  rt_host_destroy(&h);
  if (!kernel_takes) SKIP("the kernel takes no MADV_HUGEPAGE advice: only the alignment was checked");
}

/* a block between an execution's own cache (256 KiB) and 1 MiB: kept */
TEST(mid_sized_blocks_are_kept) {
  RtHost h;
  rt_host_init(&h, NULL);
  size_t n = (size_t)300 << 10;
  void *p = rt_alloc(&h, n);
  CHECK(p != NULL);
  rt_free(&h, p, n);
  CHECK(h.blocks->n == 1 && h.blocks->bytes == n);
  void *q = rt_alloc(&h, n);
  CHECK(q == p);
  rt_free(&h, q, n);
  rt_host_destroy(&h);
}

TEST(small_blocks_are_not_kept) {
  RtHost h;
  rt_host_init(&h, NULL);
  void *p = rt_alloc(&h, 4096);
  CHECK(p != NULL);
  rt_free(&h, p, 4096);
  CHECK(h.blocks->n == 0);
  rt_host_destroy(&h);
}

TEST(bounded_oldest_first) {
  RtHost h;
  rt_host_init(&h, NULL);
  size_t mb = RT_HOST_BLOCK_MIN;
  for (int i = 0; i < RT_HOST_BLOCKS + 5; i++) {
    void *p = rt_alloc(&h, mb + (size_t)i * 64); /* distinct sizes: no reuse */
    CHECK(p != NULL);
    rt_free(&h, p, mb + (size_t)i * 64);
  }
  CHECK(h.blocks->n == RT_HOST_BLOCKS);
  /* the five oldest went; the newest is last */
  CHECK(h.blocks->size[0] == mb + 5 * 64);
  CHECK(h.blocks->size[RT_HOST_BLOCKS - 1] == mb + (size_t)(RT_HOST_BLOCKS + 4) * 64);
  /* bytes: two blocks of more than half the bound cannot both stay */
  size_t big = RT_HOST_CACHE_MAX / 2 + 4096;
  void *a = rt_alloc(&h, big), *b = rt_alloc(&h, big);
  CHECK(a && b);
  rt_free(&h, a, big);
  rt_free(&h, b, big);
  CHECK(h.blocks->bytes <= RT_HOST_CACHE_MAX);
  CHECK(h.blocks->n >= 1 && h.blocks->p[h.blocks->n - 1] == b);
  bool a_kept = false;
  for (int i = 0; i < h.blocks->n; i++) a_kept |= h.blocks->p[i] == a;
  CHECK(!a_kept);
  rt_host_destroy(&h);
}

static int g_user_allocs, g_user_frees;
static void *user_alloc(void *self, size_t size, size_t alignment) {
  (void)self;
  g_user_allocs++;
  return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
static void user_free(void *self, void *p, size_t size) {
  (void)self, (void)size;
  g_user_frees++;
  free(p);
}

TEST(callers_allocator_is_used_as_given) {
  cxla_allocator a = {sizeof a, NULL, user_alloc, user_free};
  RtHost h;
  rt_host_init(&h, &a);
  CHECK(h.blocks == NULL);
  size_t mb2 = (size_t)2 << 20;
  void *p = rt_alloc(&h, mb2);
  rt_free(&h, p, mb2);
  p = rt_alloc(&h, mb2);
  rt_free(&h, p, mb2);
  CHECK(g_user_allocs == 2 && g_user_frees == 2);
  rt_host_destroy(&h);
}

static void *churn(void *arg) {
  RtHost *h = arg;
  for (int i = 0; i < 200; i++) {
    size_t n = RT_HOST_BLOCK_MIN + (size_t)(i % 3) * 4096;
    unsigned char *p = rt_alloc(h, n);
    if (!p) return (void *)1;
    p[0] = (unsigned char)i, p[n - 1] = (unsigned char)i;
    rt_free(h, p, n);
  }
  return NULL;
}

TEST(threads_share_it) {
  RtHost h;
  rt_host_init(&h, NULL);
  pthread_t t[4];
  for (int i = 0; i < 4; i++) CHECK(pthread_create(&t[i], NULL, churn, &h) == 0);
  for (int i = 0; i < 4; i++) {
    void *r = NULL;
    pthread_join(t[i], &r);
    CHECK(r == NULL);
  }
  CHECK(h.blocks->n <= RT_HOST_BLOCKS && h.blocks->bytes <= RT_HOST_CACHE_MAX);
  rt_host_destroy(&h);
}

int main(void) {
  RUN(reuses_exact_sizes);
  RUN(mid_sized_blocks_are_kept);
  RUN(large_blocks_are_huge_page_advised);
  RUN(small_blocks_are_not_kept);
  RUN(bounded_oldest_first);
  RUN(callers_allocator_is_used_as_given);
  RUN(threads_share_it);
  return test_summary(__FILE__);
}
