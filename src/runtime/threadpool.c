/* A pthread pool with a queue of jobs; see threadpool.h. Claiming a slice,
 * finishing one and queueing happen under the pool's mutex; running a
 * slice does not. A job lives on its caller's stack: workers touch it only
 * under the mutex or while running a slice they claimed, and the caller
 * returns only after every claimed slice has finished.
 *
 * Waking a sleeping thread takes tens of microseconds on some machines
 * (a virtual CPU halted while idle), as long as a small kernel's whole
 * slice: a worker that found nothing to do, and a caller waiting for its
 * job's last slices, first watch for the change a while (SPIN_NS) before
 * sleeping on the condition, yielding the core at each look so that any
 * other runnable thread on it (another library's workers) goes first.
 * OpenMP runtimes and OpenBLAS's own threads wait the same way. A pool
 * with more threads than the process has CPUs never spins (a spinning
 * thread would hold a CPU that another of its threads needs). */
#include "runtime/threadpool.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "base/base.h"

typedef struct Job {
  RtSliceFn fn;
  void *arg;
  int64_t n, slice, nslices;
  int64_t next;        /* next slice to claim */
  int64_t finished;    /* slices run (or skipped after an error); written
                          with atomics under the mutex, read by its
                          caller's spin without it */
  int active, max_active;
  cxla_status error;   /* the first error */
  bool queued;
  struct Job *prev, *next_job;
} Job;

struct RtPool {
  pthread_mutex_t mu;
  pthread_cond_t work;   /* a job was queued, or stop */
  pthread_cond_t done;   /* a slice finished */
  Job *head, *tail;
  bool stop;
  int64_t queued;        /* jobs queued so far, and + 1 at stop: written with
                            atomics under the mutex, read by the workers'
                            spin without it */
  int size, nworkers;
  int64_t spin_ns;       /* how long to watch before sleeping (0: never) */
  pthread_t *workers;
};

static void dequeue(RtPool *p, Job *j) {
  if (!j->queued) return;
  if (j->prev) j->prev->next_job = j->next_job;
  else p->head = j->next_job;
  if (j->next_job) j->next_job->prev = j->prev;
  else p->tail = j->prev;
  j->queued = false;
  j->prev = j->next_job = NULL;
}

/* Under the mutex: a job of the queue with a slice to hand out and room
 * for one more thread; its slice index in *slice. Exhausted jobs leave the
 * queue. NULL if none. */
static Job *claim(RtPool *p, int64_t *slice) {
  for (Job *j = p->head; j;) {
    Job *nx = j->next_job;
    if (j->next >= j->nslices || j->error) {
      dequeue(p, j);
    } else if (j->active < j->max_active) {
      *slice = j->next++;
      j->active++;
      return j;
    }
    j = nx;
  }
  return NULL;
}

/* How long a thread watches for work (or for its job's end) before
 * sleeping. */
#define SPIN_NS 200000

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Returns once *v differs from old, or after p->spin_ns (called without
 * the mutex); yields the core between looks. */
static void spin_while_equal(const RtPool *p, const int64_t *v, int64_t old) {
  if (p->spin_ns <= 0) return;
  int64_t end = now_ns() + p->spin_ns;
  while (__atomic_load_n(v, __ATOMIC_ACQUIRE) == old && now_ns() < end) sched_yield();
}

/* Runs one claimed slice (mutex released meanwhile) and records it. */
static void run_slice(RtPool *p, Job *j, int64_t s) {
  pthread_mutex_unlock(&p->mu);
  int64_t b = s * j->slice, e = b + j->slice < j->n ? b + j->slice : j->n;
  cxla_status st = j->fn(j->arg, b, e);
  pthread_mutex_lock(&p->mu);
  j->active--;
  if (st && !j->error) {
    j->error = st;
    /* the rest are skipped: count them finished once, here */
    __atomic_add_fetch(&j->finished, 1 + j->nslices - j->next, __ATOMIC_RELEASE);
    j->next = j->nslices;
  } else {
    __atomic_add_fetch(&j->finished, 1, __ATOMIC_RELEASE);
    if (st) cxla_status_free(st);
  }
  pthread_cond_broadcast(&p->done); /* its caller may wait for room or for the end */
}

static void *worker(void *arg) {
  RtPool *p = arg;
  pthread_mutex_lock(&p->mu);
  bool spun = false;
  for (;;) {
    int64_t s;
    Job *j = claim(p, &s);
    if (j) {
      run_slice(p, j, s);
      spun = false;
      continue;
    }
    if (p->stop) break;
    if (!spun) { /* watch for the next job a while, then sleep */
      int64_t queued = p->queued;
      pthread_mutex_unlock(&p->mu);
      spin_while_equal(p, &p->queued, queued);
      pthread_mutex_lock(&p->mu);
      spun = true;
      continue;
    }
    pthread_cond_wait(&p->work, &p->mu);
    spun = false;
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

cxla_status rt_pool_create(int size, RtPool **out) {
  *out = NULL;
  if (size < 1 || size > 4096) return ERR(INVALID_ARGUMENT, "thread pool size %d", size);
  RtPool *p = cxla_calloc(1, sizeof *p);
  if (!p) return cxla_oom();
  p->size = size;
  cpu_set_t cpus;
  int ncpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  p->spin_ns = size <= ncpu ? SPIN_NS : 0;
  if (size > 1 && !(p->workers = cxla_calloc((size_t)size - 1, sizeof(pthread_t)))) {
    cxla_free(p);
    return cxla_oom();
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  for (int i = 0; i < size - 1; i++) {
    if (pthread_create(&p->workers[i], NULL, worker, p) != 0) {
      rt_pool_destroy(p);
      return ERR(RESOURCE_EXHAUSTED, "cannot start worker thread %d of %d", i + 1, size - 1);
    }
    p->nworkers++;
  }
  *out = p;
  return NULL;
}

void rt_pool_destroy(RtPool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = true;
  __atomic_add_fetch(&p->queued, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->workers[i], NULL);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  cxla_free(p->workers);
  cxla_free(p);
}

int rt_pool_size(const RtPool *p) { return p ? p->size : 1; }

cxla_status rt_pool_parallel_for(RtPool *p, int64_t n, int64_t min_slice, int max_threads,
                                 RtSliceFn fn, void *arg) {
  if (n <= 0) return NULL;
  if (min_slice < 1) min_slice = 1;
  int threads = p ? p->size : 1;
  if (max_threads > 0 && max_threads < threads) threads = max_threads;
  if (threads <= 1 || n <= min_slice) return fn(arg, 0, n);
  /* about four slices per thread, for balance, none under min_slice */
  int64_t want = 4 * (int64_t)threads;
  int64_t slice = (n + want - 1) / want;
  if (slice < min_slice) slice = min_slice;
  Job j;
  memset(&j, 0, sizeof j);
  j.fn = fn;
  j.arg = arg;
  j.n = n;
  j.slice = slice;
  j.nslices = (n + slice - 1) / slice;
  j.max_active = threads;
  pthread_mutex_lock(&p->mu);
  j.queued = true;
  j.prev = p->tail;
  if (p->tail) p->tail->next_job = &j;
  else p->head = &j;
  p->tail = &j;
  __atomic_add_fetch(&p->queued, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&p->work);
  /* the caller runs slices of its own job until none is left to claim */
  while (j.next < j.nslices && !j.error) {
    if (j.active >= j.max_active) { /* max_threads already busy on it */
      pthread_cond_wait(&p->done, &p->mu);
      continue;
    }
    int64_t s = j.next++;
    j.active++;
    run_slice(p, &j, s);
  }
  dequeue(p, &j);
  /* the slices other threads still run: watched a while, then slept on */
  bool spun = false;
  while (j.finished < j.nslices) {
    if (!spun) {
      int64_t finished = j.finished;
      pthread_mutex_unlock(&p->mu);
      spin_while_equal(p, &j.finished, finished);
      pthread_mutex_lock(&p->mu);
      spun = j.finished == finished; /* sleep only after a spin saw nothing */
      continue;
    }
    pthread_cond_wait(&p->done, &p->mu);
    spun = false;
  }
  pthread_mutex_unlock(&p->mu);
  return j.error;
}
