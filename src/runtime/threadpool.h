/* threadpool.h: the worker threads a client lends its backend, for
 * splitting a kernel over slices of its iteration space (a kernel is a
 * function over [begin, end) of its outermost loop; the runtime, not the
 * kernel, decides how many slices and which thread runs each).
 *
 * A pool has `size` threads in all: size - 1 workers plus the thread that
 * calls rt_pool_parallel_for, which runs slices too. Several threads may
 * call rt_pool_parallel_for on one pool at once (several executions of one
 * executable); each call gets its own job and waits only for its own
 * slices. A slice may itself call rt_pool_parallel_for (nested jobs cannot
 * deadlock: a caller can always run all of its own slices). */
#ifndef CXLA_RUNTIME_THREADPOOL_H
#define CXLA_RUNTIME_THREADPOOL_H

#include <stdint.h>

#include "cxla/status.h"

typedef struct RtPool RtPool;

/* A slice [begin, end) of a job's range; NULL on success. The first error
 * of a job is what rt_pool_parallel_for returns (later ones are freed);
 * slices not yet started when an error occurs are skipped. */
typedef cxla_status (*RtSliceFn)(void *arg, int64_t begin, int64_t end);

/* size >= 1 threads in all (size 1: no workers, everything runs on the
 * caller). */
cxla_status rt_pool_create(int size, RtPool **out);
/* Joins the workers; no job may be running. NULL is fine. */
void rt_pool_destroy(RtPool *pool);
int rt_pool_size(const RtPool *pool);
/* The machine's online processors when pool was made (1 for NULL): more
 * threads than these take turns on them. */
int rt_pool_cpus(const RtPool *pool);
/* The kernels' scratch blocks the pool keeps (scratch.h), or NULL (a NULL
 * pool, or none for want of memory). */
struct RtScratch *rt_pool_scratch(const RtPool *pool);

/* Runs fn over [0, n) in slices of at least min_slice elements (>= 1), on
 * at most max_threads threads at once (0 = the pool's size), and returns
 * when every slice has run. About four slices a thread, each thread's
 * contiguous run of them first: where min_slice allows four a thread,
 * the runs' shares of [0, n) differ by at most one element; else slices
 * of min_slice, the last the rest. A NULL pool runs fn(arg, 0, n) on the
 * caller. */
cxla_status rt_pool_parallel_for(RtPool *pool, int64_t n, int64_t min_slice, int max_threads,
                                 RtSliceFn fn, void *arg);

/* The threads rt_pool_parallel_for with these arguments splits the work
 * over, at most (1: it runs fn on the caller). */
int rt_pool_split(const RtPool *pool, int64_t n, int64_t min_slice, int max_threads);

#endif
