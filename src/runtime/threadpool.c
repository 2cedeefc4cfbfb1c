/* A pthread pool with a queue of jobs; see threadpool.h. Claiming a slice,
 * finishing one and queueing happen under the pool's mutex; running a
 * slice does not. A job lives on its caller's stack: workers touch it only
 * under the mutex or while running a slice they claimed, and the caller
 * returns only after every claimed slice has finished.
 *
 * Waiting spins before it sleeps: a worker that finds no work watches the
 * pool's job counter for up to kSpinNs before it blocks on the condition
 * variable, and a caller whose slices are all claimed watches its job's
 * finished count as long before it blocks (less when a yield between
 * checks shows other threads waiting for the core). Programs run one short
 * parallel step after another (a loop body's GEMM and elementwise
 * kernels, each a few microseconds): a sleeping thread costs a futex wake
 * and a reschedule per step, often more than the step itself. */
#include "runtime/threadpool.h"
#include "runtime/scratch.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

enum {
  kSpinNs = 100000,  /* how long a waiting thread spins before it sleeps */
  kYieldedNs = 20000 /* a yield this long: the core is wanted, stop spinning */
};

#include "base/base.h"
#include "base/fpenv.h"

/* Slices are shared out in `parts` contiguous runs, one a thread: the
 * caller's is run 0, worker w's run w. A thread takes its own run's slices
 * first, in order, then the last unclaimed slice of the run with the most
 * left. A program runs its kernels again and again on the same arrays, and
 * so each thread reads the same part of an array on every call, which its
 * core's caches may still hold from the call before; handing slices out
 * first come, first served mixed them up. Measured (2026-12-06, 2 threads
 * summing the rows of a 64 MiB f32 array, 6 rounds alternated): each
 * thread its own half every call 0.57-0.64 ms (4 rounds of 6), the halves
 * swapped every call 1.03-1.17 ms, first come first served in 8 slices
 * 0.62-1.23 ms. */
#define POOL_PARTS 64
typedef struct Part {
  int64_t next, end; /* unclaimed slices [next, end) */
} Part;

typedef struct Job {
  RtSliceFn fn;
  void *arg;
  int64_t n, slice, nslices; /* slice 0: proportional (plan_split) */
  int64_t claimed;     /* slices handed out (or skipped after an error) */
  _Atomic int64_t finished; /* slices run (or skipped after an error); read
                               unlocked by its spinning caller */
  int active, max_active;
  int parts;           /* runs in part[] */
  cxla_status error;   /* the first error */
  bool queued;
  struct Job *prev, *next_job;
  Part part[POOL_PARTS];
} Job;

typedef struct Worker {
  RtPool *pool;
  int id; /* 1 .. size - 1: its run of each job (the caller's is 0) */
  pthread_t thread;
} Worker;

struct RtPool {
  pthread_mutex_t mu;
  pthread_cond_t work;   /* a job was queued, or stop */
  pthread_cond_t done;   /* a slice finished */
  Job *head, *tail;
  bool stop;
  _Atomic unsigned gen;  /* bumped when a job is queued or stop is set; read
                            unlocked by spinning workers */
  int sleepers;          /* workers blocked on `work` */
  int size, nworkers;
  int cpus; /* the machine's online processors when the pool was made */
  Worker *workers;
  RtScratch *scratch; /* kernels' scratch blocks kept between calls, or NULL */
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

/* Under the mutex: the next slice of j for thread `id` (0 the caller, w
 * worker w): its own run's next, else the last of the run with the most
 * left. j has one unclaimed. */
static int64_t take(Job *j, int id) {
  Part *own = id < j->parts ? &j->part[id] : NULL;
  j->claimed++;
  if (own && own->next < own->end) return own->next++;
  Part *most = &j->part[0];
  for (int i = 1; i < j->parts; i++)
    if (j->part[i].end - j->part[i].next > most->end - most->next) most = &j->part[i];
  return --most->end;
}

/* Under the mutex: a job of the queue with a slice to hand out and room
 * for one more thread; its slice index for worker `id` in *slice. Exhausted
 * jobs leave the queue. NULL if none. */
static Job *claim(RtPool *p, int id, int64_t *slice) {
  for (Job *j = p->head; j;) {
    Job *nx = j->next_job;
    if (j->claimed >= j->nslices || j->error) {
      dequeue(p, j);
    } else if (j->active < j->max_active) {
      *slice = take(j, id);
      j->active++;
      return j;
    }
    j = nx;
  }
  return NULL;
}

/* Where proportional slice s starts: s n / nslices (without overflow). */
static int64_t slice_start(const Job *j, int64_t s) {
  return s * (j->n / j->nslices) + s * (j->n % j->nslices) / j->nslices;
}

/* Runs one claimed slice (mutex released meanwhile) and records it. */
static void run_slice(RtPool *p, Job *j, int64_t s) {
  pthread_mutex_unlock(&p->mu);
  int64_t b, e;
  if (j->slice) b = s * j->slice, e = b + j->slice < j->n ? b + j->slice : j->n;
  else b = slice_start(j, s), e = slice_start(j, s + 1);
  cxla_status st = j->fn(j->arg, b, e);
  pthread_mutex_lock(&p->mu);
  j->active--;
  j->finished++;
  if (st) {
    if (!j->error) {
      j->error = st;
      /* the rest are skipped: count them finished once, here */
      j->finished += j->nslices - j->claimed;
      j->claimed = j->nslices;
    } else {
      cxla_status_free(st);
    }
  }
  pthread_cond_broadcast(&p->done); /* its caller may wait for room or for the end */
}

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Between checks of a spin: false when the spin should end, at `end` or
 * when the core is wanted (a yield that let another thread run for
 * kYieldedNs or more: on a machine with more runnable threads than cores
 * a spinning thread only delays the one it waits for, so it sleeps). */
static bool yield_idle(int64_t end) {
  int64_t t = now_ns();
  if (t >= end) return false;
  sched_yield();
  return now_ns() - t < kYieldedNs;
}

/* Spins (no lock held) until *v differs from `from` or kSpinNs pass;
 * whether it changed. */
static bool spin_gen(_Atomic unsigned *v, unsigned from) {
  int64_t end = now_ns() + kSpinNs;
  for (;;) {
    for (int i = 0; i < 64; i++) {
      if (atomic_load_explicit(v, memory_order_acquire) != from) return true;
      CPU_RELAX();
    }
    if (!yield_idle(end)) return false;
  }
}

/* Spins (no lock held) until *v reaches `target` or kSpinNs pass. */
static void spin_count(_Atomic int64_t *v, int64_t target) {
  int64_t end = now_ns() + kSpinNs;
  for (;;) {
    for (int i = 0; i < 64; i++) {
      if (atomic_load_explicit(v, memory_order_acquire) >= target) return;
      CPU_RELAX();
    }
    if (!yield_idle(end)) return;
  }
}

static void *worker(void *arg) {
  const Worker *w = arg;
  RtPool *p = w->pool;
  /* a new thread inherits its creator's floating-point mode: start from the
   * default one (base/fpenv.h) */
  (void)fpenv_default_enter();
  pthread_mutex_lock(&p->mu);
  bool spun = false;
  for (;;) {
    int64_t s;
    Job *j = claim(p, w->id, &s);
    if (j) {
      run_slice(p, j, s);
      spun = false;
      continue;
    }
    if (p->stop) break;
    if (!spun) { /* spin until a job is queued; sleep after a spin in vain */
      unsigned g = atomic_load_explicit(&p->gen, memory_order_relaxed);
      pthread_mutex_unlock(&p->mu);
      spun = !spin_gen(&p->gen, g);
      pthread_mutex_lock(&p->mu);
      continue;
    }
    p->sleepers++;
    pthread_cond_wait(&p->work, &p->mu);
    p->sleepers--;
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
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  p->cpus = cpus >= 1 && cpus <= 1 << 20 ? (int)cpus : 1;
  if (size > 1 && !(p->workers = cxla_calloc((size_t)size - 1, sizeof(Worker)))) {
    cxla_free(p);
    return cxla_oom();
  }
  p->scratch = rt_scratch_create(); /* NULL: no blocks kept */
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  for (int i = 0; i < size - 1; i++) {
    p->workers[i].pool = p;
    p->workers[i].id = i + 1;
    if (pthread_create(&p->workers[i].thread, NULL, worker, &p->workers[i]) != 0) {
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
  atomic_fetch_add(&p->gen, 1);
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) pthread_join(p->workers[i].thread, NULL);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  rt_scratch_destroy(p->scratch);
  cxla_free(p->workers);
  cxla_free(p);
}

int rt_pool_size(const RtPool *p) { return p ? p->size : 1; }

int rt_pool_cpus(const RtPool *p) { return p ? p->cpus : 1; }

RtScratch *rt_pool_scratch(const RtPool *p) { return p ? p->scratch : NULL; }

/* How rt_pool_parallel_for splits [0, n): the threads (0: none, 1: all
 * on the caller) and, for more than one, *nslices slices: of *slice
 * elements each (the last the rest), or when *slice is 0 of n / *nslices
 * elements or one more (slice s from s n / *nslices). About four slices a
 * thread, for balance, none under min_slice: four a thread exactly where
 * min_slice allows it, their sizes then proportional, so every thread's
 * run (Part) holds the same share to within a slice's element: 14
 * elements on two threads as 8 slices of 1 or 2, 7 a run, rather than 7
 * slices of 2 (runs of 3 and 4 slices, 6 and 8 elements); with heavy
 * elements (blocks of rows of a GEMM, gemm_big.c) the threads finished
 * 4 : 3 apart. Where min_slice binds, slices of min_slice (callers ask
 * for a number of slices that way: ceil(n / threads) each). */
static int plan_split(const RtPool *p, int64_t n, int64_t min_slice, int max_threads, int64_t *slice,
                      int64_t *nslices) {
  *slice = n;
  *nslices = 1;
  if (n <= 0) return 0;
  if (min_slice < 1) min_slice = 1;
  int threads = p ? p->size : 1;
  if (max_threads > 0 && max_threads < threads) threads = max_threads;
  if (threads <= 1 || n <= min_slice) return 1;
  int64_t want = 4 * (int64_t)threads;
  if ((n + want - 1) / want > min_slice) {
    *slice = 0;
    *nslices = want;
  } else {
    *slice = min_slice;
    *nslices = (n + min_slice - 1) / min_slice;
  }
  return threads;
}

int rt_pool_split(const RtPool *p, int64_t n, int64_t min_slice, int max_threads) {
  int64_t slice, nslices;
  int threads = plan_split(p, n, min_slice, max_threads, &slice, &nslices);
  if (threads <= 1) return 1;
  return nslices < threads ? (int)nslices : threads; /* each thread runs one at a time */
}

cxla_status rt_pool_parallel_for(RtPool *p, int64_t n, int64_t min_slice, int max_threads,
                                 RtSliceFn fn, void *arg) {
  int64_t slice, nslices;
  int threads = plan_split(p, n, min_slice, max_threads, &slice, &nslices);
  if (threads == 0) return NULL;
  if (threads == 1) return fn(arg, 0, n);
  Job j;
  memset(&j, 0, offsetof(Job, part)); /* the runs in use are set below */
  j.fn = fn;
  j.arg = arg;
  j.n = n;
  j.slice = slice;
  j.nslices = nslices;
  j.max_active = threads;
  j.parts = threads < POOL_PARTS ? threads : POOL_PARTS;
  if (j.parts > j.nslices) j.parts = (int)j.nslices;
  for (int i = 0; i < j.parts; i++) {
    j.part[i].next = j.nslices * i / j.parts;
    j.part[i].end = j.nslices * (i + 1) / j.parts;
  }
  atomic_init(&j.finished, 0);
  pthread_mutex_lock(&p->mu);
  j.queued = true;
  j.prev = p->tail;
  if (p->tail) p->tail->next_job = &j;
  else p->head = &j;
  p->tail = &j;
  atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
  if (p->sleepers) pthread_cond_broadcast(&p->work);
  /* the caller runs slices of its own job until none is left to claim */
  while (j.claimed < j.nslices && !j.error) {
    if (j.active >= j.max_active) { /* max_threads already busy on it */
      pthread_cond_wait(&p->done, &p->mu);
      continue;
    }
    int64_t s = take(&j, 0);
    j.active++;
    run_slice(p, &j, s);
  }
  dequeue(p, &j);
  if (j.finished < j.nslices) { /* other threads run the last slices */
    pthread_mutex_unlock(&p->mu);
    spin_count(&j.finished, j.nslices);
    pthread_mutex_lock(&p->mu);
  }
  while (j.finished < j.nslices) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
  return j.error;
}
