/* The runtime's thread pool (src/runtime/threadpool.h): every index of a
 * range run exactly once, slices no smaller than asked, at most
 * max_threads at once, errors propagated (the first one), several callers
 * at once, nested jobs, each thread its own run of slices on every call.
 * Also under ThreadSanitizer (make test-tsan). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"
#include "runtime/threadpool.h"

#define MAXN 5000

typedef struct Cover {
  atomic_int hits[MAXN];
  atomic_int active, peak, calls;
  int64_t min_slice_seen;
  atomic_llong sum;
  pthread_mutex_t mu;
} Cover;

static cxla_status cover(void *arg, int64_t b, int64_t e) {
  Cover *c = arg;
  int now = atomic_fetch_add(&c->active, 1) + 1;
  int peak = atomic_load(&c->peak);
  while (now > peak && !atomic_compare_exchange_weak(&c->peak, &peak, now)) {}
  atomic_fetch_add(&c->calls, 1);
  pthread_mutex_lock(&c->mu);
  if (c->min_slice_seen < 0 || e - b < c->min_slice_seen) c->min_slice_seen = e - b;
  pthread_mutex_unlock(&c->mu);
  for (int64_t i = b; i < e; i++) {
    atomic_fetch_add(&c->hits[i], 1);
    atomic_fetch_add(&c->sum, i);
  }
  for (volatile int spin = 0; spin < 2000; spin++) {} /* give others a chance to overlap */
  atomic_fetch_sub(&c->active, 1);
  return NULL;
}

static void cover_init(Cover *c) {
  memset(c, 0, sizeof *c);
  c->min_slice_seen = -1;
  pthread_mutex_init(&c->mu, NULL);
}

TEST(every_index_once) {
  static const int64_t ns[] = {1, 2, 7, 64, 1000, 4999};
  static const int64_t mins[] = {1, 3, 100};
  for (int size = 1; size <= 4; size++) {
    RtPool *p = NULL;
    CHECK_OK(rt_pool_create(size, &p));
    CHECK(rt_pool_size(p) == size);
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
      for (size_t b = 0; b < sizeof mins / sizeof mins[0]; b++) {
        Cover *c = malloc(sizeof *c);
        cover_init(c);
        CHECK_OK(rt_pool_parallel_for(p, ns[a], mins[b], 0, cover, c));
        bool once = true;
        for (int64_t i = 0; i < MAXN; i++) once &= atomic_load(&c->hits[i]) == (i < ns[a]);
        CHECK(once);
        CHECK(atomic_load(&c->sum) == ns[a] * (ns[a] - 1) / 2);
        /* no slice under min_slice except the last piece of the range */
        CHECK(c->min_slice_seen >= (ns[a] < mins[b] ? ns[a] : 1));
        if (ns[a] >= 4 * mins[b] * size && size > 1) CHECK(atomic_load(&c->calls) > 1);
        if (size == 1) CHECK(atomic_load(&c->calls) == 1);
        CHECK(atomic_load(&c->peak) <= size);
        pthread_mutex_destroy(&c->mu);
        free(c);
      }
    rt_pool_destroy(p);
  }
}

TEST(null_pool_and_empty_range) {
  Cover *c = malloc(sizeof *c);
  cover_init(c);
  CHECK_OK(rt_pool_parallel_for(NULL, 100, 1, 0, cover, c));
  CHECK(atomic_load(&c->calls) == 1 && atomic_load(&c->sum) == 4950);
  CHECK_OK(rt_pool_parallel_for(NULL, 0, 1, 0, cover, c));
  CHECK(atomic_load(&c->calls) == 1);
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(3, &p));
  CHECK_OK(rt_pool_parallel_for(p, 0, 1, 0, cover, c));
  CHECK_OK(rt_pool_parallel_for(p, -5, 1, 0, cover, c));
  CHECK(atomic_load(&c->calls) == 1);
  rt_pool_destroy(p);
  CHECK(rt_pool_size(NULL) == 1);
  cxla_status s = rt_pool_create(0, &p);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT && p == NULL);
  cxla_status_free(s);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

TEST(max_threads_respected) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(4, &p));
  for (int mt = 1; mt <= 4; mt++) {
    Cover *c = malloc(sizeof *c);
    cover_init(c);
    CHECK_OK(rt_pool_parallel_for(p, 4000, 1, mt, cover, c));
    CHECK(atomic_load(&c->sum) == 4000LL * 3999 / 2);
    CHECK(atomic_load(&c->peak) <= mt);
    if (mt == 1) CHECK(atomic_load(&c->calls) == 1);
    pthread_mutex_destroy(&c->mu);
    free(c);
  }
  rt_pool_destroy(p);
}

/* The slices rt_pool_parallel_for cuts: four a thread where min_slice
 * allows, their sizes proportional (slice s from s n / (4 threads)), so
 * each thread's run of four holds n / threads elements to within one
 * (14 on two threads: 7 and 7; uniform slices of 2 had made runs of 6
 * and 8); where min_slice binds, slices of min_slice and the rest. */
typedef struct Slices {
  pthread_mutex_t mu;
  int n;
  int64_t lo[64], hi[64];
} Slices;

static cxla_status record_slice(void *arg, int64_t b, int64_t e) {
  Slices *r = arg;
  pthread_mutex_lock(&r->mu);
  if (r->n < 64) r->lo[r->n] = b, r->hi[r->n] = e;
  r->n++;
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

static int by_start(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

TEST(runs_share_evenly) {
  static const struct {
    int64_t n, min;
    int threads;
    int64_t slices, size; /* size: each slice's (the last the rest); 0: proportional */
  } cases[] = {{14, 1, 2, 8, 0}, {10, 1, 2, 8, 0}, {1000, 1, 3, 12, 0}, {1001, 7, 4, 16, 0}, {9, 1, 2, 8, 0},
               {100, 60, 2, 2, 60}, {23, 5, 2, 5, 5}, {16, 2, 2, 8, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    RtPool *p = NULL;
    CHECK_OK(rt_pool_create(cases[i].threads, &p));
    Slices r = {.mu = PTHREAD_MUTEX_INITIALIZER};
    CHECK_OK(rt_pool_parallel_for(p, cases[i].n, cases[i].min, 0, record_slice, &r));
    rt_pool_destroy(p);
    CHECK(r.n == cases[i].slices);
    if (r.n != cases[i].slices) continue;
    int64_t pairs[64][2];
    for (int s = 0; s < r.n; s++) pairs[s][0] = r.lo[s], pairs[s][1] = r.hi[s];
    qsort(pairs, (size_t)r.n, sizeof *pairs, by_start);
    int64_t n = cases[i].n, T = cases[i].threads;
    bool ok = pairs[0][0] == 0 && pairs[r.n - 1][1] == n;
    for (int s = 0; s < r.n; s++) {
      if (s > 0) ok &= pairs[s][0] == pairs[s - 1][1];
      if (cases[i].size) ok &= pairs[s][0] == s * cases[i].size;
      else ok &= pairs[s][0] == s * n / r.n; /* so run t starts at t n / T */
    }
    if (!cases[i].size)
      for (int64_t t = 0; t < T; t++) ok &= pairs[4 * t][0] == t * n / T;
    CHECK(ok);
    pthread_mutex_destroy(&r.mu);
  }
}

/* rt_pool_split: the threads a call splits over, from its slicing (about
 * four slices a thread, none under min_slice); its slices then number at
 * least that and never run on more threads at once. */
TEST(split_counts) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(4, &p));
  CHECK(rt_pool_split(p, 4000, 1, 0) == 4);
  CHECK(rt_pool_split(p, 4000, 1, 2) == 2);
  CHECK(rt_pool_split(p, 100, 60, 0) == 2); /* two slices of 60 and 40 */
  CHECK(rt_pool_split(p, 60, 60, 0) == 1);  /* one slice: on the caller */
  CHECK(rt_pool_split(p, 3, 1, 0) == 3);
  CHECK(rt_pool_split(p, 4000, 1, 1) == 1);
  CHECK(rt_pool_split(p, 0, 1, 0) == 1);
  CHECK(rt_pool_split(NULL, 4000, 1, 0) == 1);
  static const int64_t ns[] = {100, 60, 3, 4000};
  static const int64_t mins[] = {60, 60, 1, 1};
  for (int i = 0; i < 4; i++) {
    Cover *c = malloc(sizeof *c);
    cover_init(c);
    CHECK_OK(rt_pool_parallel_for(p, ns[i], mins[i], 0, cover, c));
    int split = rt_pool_split(p, ns[i], mins[i], 0);
    CHECK(atomic_load(&c->peak) <= split && atomic_load(&c->calls) >= split);
    pthread_mutex_destroy(&c->mu);
    free(c);
  }
  rt_pool_destroy(p);
}

typedef struct Failing {
  atomic_int ran;
} Failing;

static cxla_status fail_from_1000(void *arg, int64_t b, int64_t e) {
  Failing *f = arg;
  atomic_fetch_add(&f->ran, 1);
  if (e > 1000) return cxla_status_make(CXLA_ABORTED, "slice [%lld, %lld) failed", (long long)b,
                                        (long long)e);
  return NULL;
}

TEST(errors_propagate) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(3, &p));
  Failing f;
  atomic_init(&f.ran, 0);
  cxla_status s = rt_pool_parallel_for(p, 4000, 10, 0, fail_from_1000, &f);
  CHECK(cxla_status_code_of(s) == CXLA_ABORTED);
  CHECK(strstr(cxla_status_message(s), "failed") != NULL);
  cxla_status_free(s);
  CHECK(atomic_load(&f.ran) >= 1 && atomic_load(&f.ran) <= 12);
  /* the pool still works afterwards */
  Cover *c = malloc(sizeof *c);
  cover_init(c);
  CHECK_OK(rt_pool_parallel_for(p, 300, 1, 0, cover, c));
  CHECK(atomic_load(&c->sum) == 300 * 299 / 2);
  pthread_mutex_destroy(&c->mu);
  free(c);
  rt_pool_destroy(p);
}

typedef struct Caller {
  RtPool *pool;
  int ok;
} Caller;

static cxla_status inner(void *arg, int64_t b, int64_t e) {
  atomic_llong *sum = arg;
  for (int64_t i = b; i < e; i++) atomic_fetch_add(sum, i);
  return NULL;
}

/* A slice that runs a job of its own on the same pool. */
static cxla_status outer(void *arg, int64_t b, int64_t e) {
  RtPool *p = arg;
  for (int64_t i = b; i < e; i++) {
    atomic_llong sum;
    atomic_init(&sum, 0);
    cxla_status s = rt_pool_parallel_for(p, 200, 7, 0, inner, &sum);
    if (s) return s;
    if (atomic_load(&sum) != 200 * 199 / 2) return cxla_status_make(CXLA_INTERNAL, "nested sum");
  }
  return NULL;
}

static void *call_many(void *arg) {
  Caller *c = arg;
  c->ok = 1;
  for (int k = 0; k < 50; k++) {
    atomic_llong sum;
    atomic_init(&sum, 0);
    cxla_status s = rt_pool_parallel_for(c->pool, 1000 + k, 5, 0, inner, &sum);
    if (s || atomic_load(&sum) != (long long)(1000 + k) * (999 + k) / 2) c->ok = 0;
    cxla_status_free(s);
  }
  cxla_status s = rt_pool_parallel_for(c->pool, 8, 1, 0, outer, c->pool);
  if (s) c->ok = 0;
  cxla_status_free(s);
  return NULL;
}

TEST(concurrent_and_nested_callers) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(3, &p));
  Caller cs[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    cs[i] = (Caller){p, 0};
    CHECK(pthread_create(&th[i], NULL, call_many, &cs[i]) == 0);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(th[i], NULL);
    CHECK(cs[i].ok);
  }
  rt_pool_destroy(p);
}

/* Yields until ready(arg) or a second has passed. */
static void wait_a_second_for(bool (*ready)(void *), void *arg) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (!ready(arg)) {
    sched_yield();
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) >= 1000000000L) return;
  }
}

/* A slice that waits (up to a second) until `want` slices are inside at
 * once: a job of two such slices on a pool of two completes promptly only
 * if the worker takes the second one. */
typedef struct Meet {
  atomic_int inside, peak;
  int want;
} Meet;

static bool met(void *arg) {
  Meet *m = arg;
  return atomic_load(&m->peak) >= m->want;
}

static cxla_status meet(void *arg, int64_t b, int64_t e) {
  (void)b, (void)e;
  Meet *m = arg;
  int now = atomic_fetch_add(&m->inside, 1) + 1;
  int peak = atomic_load(&m->peak);
  while (now > peak && !atomic_compare_exchange_weak(&m->peak, &peak, now)) {}
  wait_a_second_for(met, m);
  atomic_fetch_sub(&m->inside, 1);
  return NULL;
}

/* Jobs back to back (the worker still spinning for the next one) and
 * after pauses longer than the spin (the worker asleep): each time the
 * worker joins the job. */
TEST(workers_join_while_spinning_and_after_sleeping) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(2, &p));
  for (int r = 0; r < 40; r++) {
    if (r % 4 == 3) {
      struct timespec d = {0, 3000000}; /* 3 ms */
      nanosleep(&d, NULL);
    }
    Meet m = {.want = 2};
    atomic_init(&m.inside, 0);
    atomic_init(&m.peak, 0);
    CHECK_OK(rt_pool_parallel_for(p, 2, 1, 0, meet, &m));
    CHECK(atomic_load(&m.peak) == 2);
  }
  /* many tiny jobs in a row: every index once */
  for (int r = 0; r < 2000; r++) {
    Cover *c = malloc(sizeof *c);
    cover_init(c);
    CHECK_OK(rt_pool_parallel_for(p, 16, 1, 0, cover, c));
    CHECK(atomic_load(&c->sum) == 120);
    pthread_mutex_destroy(&c->mu);
    free(c);
  }
  rt_pool_destroy(p);
}

/* Which thread runs which slice. Every slice waits (up to a second) until
 * every thread of the pool has begun one, so no thread claims a second
 * slice before each has claimed its first. */
typedef struct Owners {
  pthread_t who[64];
  pthread_t seen[8];
  int nseen, threads;
  pthread_mutex_t mu;
} Owners;

static bool all_seen(void *arg) {
  Owners *o = arg;
  pthread_mutex_lock(&o->mu);
  bool all = o->nseen >= o->threads;
  pthread_mutex_unlock(&o->mu);
  return all;
}

static cxla_status own(void *arg, int64_t b, int64_t e) {
  Owners *o = arg;
  pthread_mutex_lock(&o->mu);
  for (int64_t i = b; i < e; i++) o->who[i] = pthread_self();
  bool known = false;
  for (int i = 0; i < o->nseen; i++) known |= pthread_equal(o->seen[i], pthread_self());
  if (!known && o->nseen < 8) o->seen[o->nseen++] = pthread_self();
  pthread_mutex_unlock(&o->mu);
  wait_a_second_for(all_seen, o);
  return NULL;
}

/* A job's slices are shared out in one contiguous run a thread, and the
 * same thread takes the same run's slices on every call: a program's
 * kernels run again and again on the same arrays, and each thread finds
 * its part of them in its own core's caches. With three threads and 12
 * slices: slice 0 is the caller's, slices 4 and 8 (the workers' runs'
 * first) are each a worker's, never the caller's, and on every one of
 * 20 calls the same worker starts slice 4. */
TEST(slices_keep_their_thread) {
  RtPool *p = NULL;
  CHECK_OK(rt_pool_create(3, &p));
  pthread_t first4 = pthread_self();
  for (int r = 0; r < 20; r++) {
    Owners *o = calloc(1, sizeof *o);
    pthread_mutex_init(&o->mu, NULL);
    o->threads = 3;
    CHECK_OK(rt_pool_parallel_for(p, 12, 1, 0, own, o));
    CHECK(o->nseen == 3);
    pthread_t me = pthread_self();
    CHECK(pthread_equal(o->who[0], me));
    CHECK(!pthread_equal(o->who[4], me) && !pthread_equal(o->who[8], me));
    CHECK(!pthread_equal(o->who[4], o->who[8]));
    if (r == 0) first4 = o->who[4];
    CHECK(pthread_equal(o->who[4], first4));
    pthread_mutex_destroy(&o->mu);
    free(o);
  }
  rt_pool_destroy(p);
}

int main(void) {
  RUN(every_index_once);
  RUN(null_pool_and_empty_range);
  RUN(max_threads_respected);
  RUN(split_counts);
  RUN(runs_share_evenly);
  RUN(errors_propagate);
  RUN(concurrent_and_nested_callers);
  RUN(workers_join_while_spinning_and_after_sleeping);
  RUN(slices_keep_their_thread);
  return test_summary("test_runtime_pool");
}
