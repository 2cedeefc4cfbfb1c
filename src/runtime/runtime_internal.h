/* runtime_internal.h: the runtime's own structures, shared by its files
 * (control.c, memory.c, client.c, buffer.c, executable.c). Backends see
 * only backend.h. */
#ifndef CXLA_RUNTIME_INTERNAL_H
#define CXLA_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include "base/base.h"
#include "runtime/backend.h"

struct cxla_cancel {
  atomic_int requested;
};

struct RtControl {
  const cxla_cancel *cancel;   /* or NULL */
  bool has_deadline;
  struct timespec deadline;    /* CLOCK_MONOTONIC */
  double timeout_seconds;      /* for the message */
};

/* Sets up a control for an execution starting now. */
void rt_control_init(RtControl *c, const cxla_cancel *cancel, double timeout_seconds);

/* Freed large blocks kept for reuse (control.c): running a program again
 * gets its arrays' memory back without mapping fresh pages and faulting
 * each one in. Exact sizes only (a program's sizes repeat); at most
 * RT_HOST_BLOCKS blocks of RT_HOST_BLOCK_MIN bytes or more, RT_HOST_CACHE_MAX
 * bytes in all; the most recently freed are kept.
 * With it, a program's runs after the first allocate nothing new: `cxla
 * bench` of maxpool or reduce_rows_4096 makes no mmap, brk or madvise
 * call and takes no page fault after run 1 (strace; perf page-faults are
 * the same for 5 and 105 runs), and their arrays are in huge pages from
 * run 1 (smaps AnonHugePages). That such cases still get faster over
 * their first 5-15 runs is the host's last-level cache (480 MiB, shared
 * with other tenants) taking in an array over several passes: a plain C
 * loop summing a fresh 16 MiB array goes 18 -> 30 GB/s in 4 passes, a
 * 64 MiB one 4.2 -> 2.6 ms in about 20, a 1 GiB one stays at 17 GB/s, and
 * the speed-up is lost after 100 ms without use (2026-12-03). */
#define RT_HOST_BLOCKS 64
/* 128 KiB: an execution's own cache (cpu RvCache) takes blocks up to 256
 * KiB; below 1 MiB glibc's heap would trim and map such blocks again on
 * every run (cnn_train_step's 400-800 KiB activations: 850 page faults a
 * run, 0.74-0.86x wall time without them) */
#define RT_HOST_BLOCK_MIN ((size_t)1 << 17)
#define RT_HOST_CACHE_MAX ((size_t)1 << 30)
/* The default allocator's blocks of RT_HUGE_MIN bytes or more start on a
 * 2 MiB boundary and are advised as transparent huge pages (madvise
 * MADV_HUGEPAGE; numpy does the same from 4 MiB): where the kernel's THP
 * mode is "madvise" (this machine kind's), a stream over such an array
 * crosses a page every 2 MiB instead of every 4 KiB, and the hardware
 * prefetcher, which stops at page boundaries, keeps running. Measured,
 * cold process, 5 runs (cxla bench, alternating, two rounds): maxpool
 * 0.93 / 0.98 -> 0.75 / 0.81 ms, softmax_4096 11.5 / 9.9 -> 9.0 / 9.1 ms;
 * reduce_rows_4096 mixed (2.2 -> 1.5 ms, 1.4 -> 2.1 ms). */
#define RT_HUGE_MIN ((size_t)4 << 20)
#define RT_HUGE_PAGE ((size_t)2 << 20)
typedef struct RtBlockCache {
  pthread_mutex_t mu;
  int n;
  size_t bytes;
  void *p[RT_HOST_BLOCKS];
  size_t size[RT_HOST_BLOCKS];
} RtBlockCache;

struct RtHost {
  cxla_allocator a;            /* always complete (defaults filled in) */
  RtBlockCache *blocks;        /* NULL: none (a caller's allocator) */
  /* the default allocator: small results' data may lie in their buffer's
   * own block (rt_buffer_new_small); a caller's allocator gets all data */
  bool small_inline;
};

/* A caller's allocator is used as given; the default one caches blocks. */
void rt_host_init(RtHost *h, const cxla_allocator *user);
/* Frees the cached blocks (client teardown: no buffer is left). */
void rt_host_destroy(RtHost *h);

/* ---- the objects of runtime.h ---- */

struct cxla_device {
  cxla_client *client;
  int id;
};

/* A compiled program, shared by the executables made from it and by the
 * client's cache (executable.c). */
typedef struct RtCompiled RtCompiled;
void rt_compiled_release(RtCompiled *c);

/* The client's in-memory compile cache: the most recently used programs
 * by key (a 32-hex-digit fingerprint); each entry holds a reference. */
#define RT_CACHE_ENTRIES 64
typedef struct RtCacheEntry {
  char key[33];
  RtCompiled *compiled;
  uint64_t used;               /* the cache's clock at the last use */
} RtCacheEntry;

struct cxla_client {
  atomic_int refs;             /* the caller's + one per executable and buffer */
  const Backend *backend;
  void *state;                 /* backend->client_create's */
  RtHost host;
  int num_threads;
  RtPool *pool;                /* see BackendClientOptions.pool */
  cxla_host_callback_fn host_callback; /* cxla_client_options'; may be NULL */
  void *host_callback_arg;
  cxla_device device;
  bool cache_on;               /* $CXLA_CACHE is not "0" */
  char *disk_dir;              /* the disk cache's directory, or NULL */
  pthread_mutex_t cache_mu;
  int ncache;
  uint64_t cache_clock;
  RtCacheEntry cache[RT_CACHE_ENTRIES];
};

/* A new reference to the cached program under key, or NULL. */
RtCompiled *rt_cache_find(cxla_client *c, const char *key);
/* Caches (a new reference to) compiled under key, evicting the least
 * recently used entry when full; a key already there is left alone. */
void rt_cache_add(cxla_client *c, const char *key, RtCompiled *compiled);
/* Drops every entry (client teardown). */
void rt_cache_clear(cxla_client *c);
/* Takes a reference (the cache's and executables' use). */
void rt_compiled_retain(RtCompiled *c);

struct cxla_buffer {
  cxla_client *client;         /* a reference */
  ElemType type;
  int rank;
  int64_t *dims, *minor_to_major; /* rank entries each, in the struct's own block */
  int64_t nelems;
  void *data;
  size_t size;
  bool borrowed;
  bool inline_data; /* data lies in the struct's own block (rt_buffer_new_small) */
  void (*release)(void *arg);
  void *release_arg;
  /* Whether every value is finite, kept for the backends (RtArray.finite;
   * 0: not known). Only while the data cannot change: buffers are
   * immutable (borrowed host memory by contract) until cxla_buffer_data
   * hands out a writable pointer, which sets exposed (atomically) for
   * good: the caller may write through it between executions. */
  int finite;
  int exposed;
};

/* Events are made ready: every operation completes before it returns. */
struct cxla_event {
  cxla_status error;           /* owned; NULL on success */
};

/* A client reference for a new executable or buffer; and its release. */
void rt_client_retain(cxla_client *c);
void rt_client_release(cxla_client *c);

/* A ready event holding a copy of s (NULL for success); s stays the
 * caller's. NULL out is fine (no event wanted). */
cxla_status rt_event_ready(cxla_status s, cxla_event **out);

/* The size of the first version of an options struct: up to and including
 * its last field then. Callers compiled against that version pass it as
 * struct_size; later fields are added after it and read only when the
 * caller's struct_size covers them. */
#define RT_SIZE_UPTO(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
#define RT_CLIENT_OPTIONS_V1 RT_SIZE_UPTO(cxla_client_options, allocator)
#define RT_HOST_BUFFER_V1 RT_SIZE_UPTO(cxla_host_buffer, minor_to_major)
#define RT_COMPILE_OPTIONS_V1 RT_SIZE_UPTO(cxla_compile_options, dump_dir)
#define RT_EXECUTE_OPTIONS_V1 RT_SIZE_UPTO(cxla_execute_options, num_threads)

/* Copies a user's options struct into *dst (full bytes, zero-filled for
 * the fields the user's struct_size does not cover). NULL user: all zero.
 * A struct_size below min_size is INVALID_ARGUMENT naming `what`. */
/* The client's default thread count (cxla_client_options.num_threads 0)
 * from the value of $CXLA_NUM_THREADS (NULL or "" when unset): that
 * number, 1 to 4096 in decimal digits, else INVALID_ARGUMENT; unset: the
 * online cores. */
cxla_status rt_default_threads(const char *env, int *out);

cxla_status rt_read_options(const void *user, size_t full, size_t min_size, void *dst,
                            const char *what);

/* A buffer around data (owned unless borrowed) with a row-major layout;
 * takes a client reference. Frees nothing on error. */
cxla_status rt_buffer_wrap(cxla_client *c, ElemType t, int rank, const int64_t *dims,
                           void *data, size_t size, bool borrowed, cxla_buffer **out);

/* Results of at most RT_SMALL_BYTES get their data in the buffer's own
 * block (with the default allocator: RtHost.small_inline): a small
 * program's call (a few hundred nanoseconds) makes one allocation per
 * result rather than two, and the aligned one was the slower. */
#define RT_SMALL_BYTES 64
/* An owned buffer of size <= RT_SMALL_BYTES bytes (contents undefined)
 * whose data, CXLA_BUFFER_ALIGNMENT-aligned, is in the same block as the
 * struct; takes a client reference. */
cxla_status rt_buffer_new_small(cxla_client *c, ElemType t, int rank, const int64_t *dims,
                                size_t size, cxla_buffer **out);

#endif
