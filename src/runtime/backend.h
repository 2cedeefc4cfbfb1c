/* backend.h: the interface between the runtime (include/cxla/runtime.h) and
 * the backends that compile and run programs (src/interp, src/cpu, ...).
 *
 * A backend is a `static const Backend` with a name and a few functions; the
 * registry (src/runtime/backends.c) lists them in a static const table,
 * compiled backends first and the reference interpreter last. There is no
 * mutable global state: whatever a backend keeps per client (a thread pool,
 * a JIT session) lives in the state client_create returns.
 *
 * The runtime does everything that is the same for every backend, so a
 * backend only turns a plan into code and runs it:
 *   compile:  the runtime verifies a copy of the module, runs the optimizer
 *             (unless no_optimize), renumbers instructions and makes the
 *             buffer plan (passes/buffer_assignment.h); then calls
 *             backend->compile with the optimized module AND the plan. Both
 *             are owned by the executable and outlive the program.
 *   execute:  the runtime checks the arguments against the entry's
 *             parameters, allocates every result array (64-byte aligned,
 *             from the client's allocator) and ONE arena of
 *             BackendProgram.arena_bytes for the execution's temporaries,
 *             then calls backend->execute with raw pointers and shapes.
 *             The backend reads the arguments, writes the results, uses the
 *             arena for its temporaries (allocating nothing per op) and
 *             calls rt_check() often enough that a cancellation or deadline
 *             is noticed (between instructions, while-loop iterations,
 *             kernel slices).
 *
 * Threads: compile and execute may be called from several threads at once,
 * also with the same program (each execution has its own arena and
 * results), so a program must be read-only once compiled.
 *
 * Sharing: the runtime's compile cache gives one program (with its module
 * and plan) to every executable compiled from the same module and options
 * in a client; program_destroy runs once, when the last of them and the
 * cache let go. BackendProgram.cache_hit is for a backend's own (disk)
 * cache.
 *
 * Stability: fields are only ever added at the end of these structs; an
 * optional function pointer may be NULL. Changes are announced by commits
 * whose message starts with "runtime:". */
#ifndef CXLA_RUNTIME_BACKEND_H
#define CXLA_RUNTIME_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "cxla/runtime.h"
#include "ir/ir.h"
#include "passes/buffer_assignment.h"
#include "runtime/threadpool.h"

/* A dense array handed to or returned from a backend: logical row-major
 * (last dimension fastest, the storage of Literal data), 64-byte aligned. */
typedef struct RtArray {
  ElemType type;
  int rank;
  const int64_t *dims;
  void *data;          /* arguments: read only; results: to be written */
  size_t size;         /* bytes: elements * type_bytes(type) */
  /* Arguments only: where whether every value is finite (no infinity or
   * NaN) is kept across executions -- 0: not known, 1: all finite, 2: not
   * -- read and written with atomics (concurrent executions store the
   * same answer); a backend that scans the data for it may read the
   * answer instead and store what it found. NULL: not kept (the data may
   * change between executions). */
  int *finite;
} RtArray;

/* Cancellation and deadline of one execution (see rt_check). */
typedef struct RtControl RtControl;

/* NULL while the execution may go on; otherwise a fresh CANCELLED or
 * DEADLINE_EXCEEDED status the backend returns (after freeing what it
 * holds). Cheap (an atomic load and, with a deadline, a clock read); call it
 * at least once per instruction, loop iteration or kernel slice. NULL
 * control: never stops. Thread-safe. */
cxla_status rt_check(const RtControl *control);
/* The cheaper question without a status: whether rt_check would fail. */
bool rt_should_stop(const RtControl *control);

/* Memory from the client's allocator (cxla_allocator), aligned to
 * CXLA_BUFFER_ALIGNMENT; NULL on failure. rt_free takes the size given to
 * rt_alloc. For a backend's per-client and per-program data; an execution's
 * temporaries come from its arena. */
typedef struct RtHost RtHost;
void *rt_alloc(const RtHost *host, size_t size);
void rt_free(const RtHost *host, void *p, size_t size);

/* Options a backend sees when a client is made. */
typedef struct BackendClientOptions {
  int num_threads;      /* resolved: >= 1 (option, $CXLA_NUM_THREADS, or cores) */
  const RtHost *host;   /* the client's allocator; lives as long as the client */
  /* The client's worker threads (num_threads in all, the caller included;
   * threadpool.h), or NULL when the backend runs on one thread
   * (max_threads == 1) or num_threads is 1. Lives as long as the client. */
  RtPool *pool;
} BackendClientOptions;

/* What compile receives. Everything is borrowed and lives as long as the
 * program (the executable owns it). */
typedef struct BackendCompileInput {
  void *client_state;                  /* from client_create (or NULL) */
  const HloModule *module;             /* optimized and verified; ids current */
  const BufferPlan *plan;              /* the entry computation's plan, with
                                          the plans of nested computations */
  const cxla_compile_options *options; /* never NULL; struct_size current */
  int num_threads;                     /* the client's */
  const RtHost *host;
} BackendCompileInput;

/* What compile produces. */
typedef struct BackendProgram {
  void *impl;            /* the backend's compiled program (opaque) */
  /* Bytes of the one arena each execution gets for its temporaries
   * (64-byte aligned); 0 = none. A backend that follows the plan uses
   * plan->temp_bytes. */
  int64_t arena_bytes;
  /* Optional timings and cache outcome, reported by
   * cxla_executable_compile_stats (and `cxla bench`): seconds spent
   * emitting code (e.g. LLVM IR) and in the code generator proper (LLVM's
   * optimization and machine code), and whether the program came from a
   * compile cache. Left 0 when not applicable. */
  double codegen_seconds;
  double llvm_seconds;
  bool cache_hit;
} BackendProgram;

/* What execute receives (all borrowed for the duration of the call). */
typedef struct BackendExecuteArgs {
  void *client_state;
  void *program;              /* BackendProgram.impl */
  const HloModule *module;    /* as given to compile */
  const BufferPlan *plan;     /* as given to compile */
  int nargs;
  const RtArray *args;        /* one per entry parameter, in order; a token
                                 parameter's is {T_TOKEN, rank 0, data NULL,
                                 size 0} */
  int nresults;
  const RtArray *results;     /* the array leaves of the entry's result,
                                 depth-first (token leaves are not among
                                 them: the runtime makes those); allocated,
                                 to be filled */
  void *arena;                /* arena_bytes bytes (uninitialised), or NULL */
  int64_t arena_bytes;
  const RtControl *control;   /* pass to rt_check */
  int num_threads;            /* for this execution: >= 1 */
  const RtHost *host;
  /* The client's pool (as in BackendClientOptions): split kernels with
   * rt_pool_parallel_for(pool, n, min_slice, num_threads, fn, arg). */
  RtPool *pool;
  /* cxla_execute_options.profile and its argument (NULL: no profile). */
  void (*profile)(void *profile_arg, const cxla_profile_step *step);
  void *profile_arg;
  /* The client's host callback (cxla_client_options.host_callback) and its
   * argument, for custom-calls "cxla_host_callback"; NULL: none. */
  cxla_host_callback_fn host_callback;
  void *host_callback_arg;
} BackendExecuteArgs;

typedef struct Backend {
  const char *name;      /* "cpu", "interp": what cxla_client_create takes */
  /* Generates code (true) or interprets (false). The default backend is the
   * first compiled one in the registry. */
  bool compiled;
  /* Optional: per-client state (thread pool, JIT); destroyed by
   * client_destroy when the last executable and buffer of the client are
   * gone. */
  cxla_status (*client_create)(const BackendClientOptions *options, void **out_state);
  void (*client_destroy)(void *state);
  /* Optional: UNIMPLEMENTED naming the first instruction the backend cannot
   * compile, else NULL. compile may rely on it having passed. */
  cxla_status (*supports)(void *client_state, const HloModule *module);
  /* Required. On error *out is left zeroed. */
  cxla_status (*compile)(const BackendCompileInput *input, BackendProgram *out);
  /* Required. On error, results may hold garbage (the runtime frees them). */
  cxla_status (*execute)(const BackendExecuteArgs *args);
  /* Required: frees BackendProgram.impl (NULL is fine). */
  void (*program_destroy)(void *client_state, void *program);
  /* The most threads one execution uses; 0 = as many as it is given. The
   * client's thread count (cxla_client_num_threads) is capped by it. */
  int max_threads;
  /* Optional, all three or none: the disk cache (disk_cache.h), which keeps
   * programs across processes. target_id names what the generated code
   * depends on besides the module and options (the CPU and its features;
   * static or client-owned storage); program_serialize writes a program as
   * bytes (*out cxla_malloc'd); program_deserialize makes a program from
   * such bytes instead of compiling (input as for compile). The runtime
   * keys entries by the optimized module's fingerprint and target_id, and
   * on a hit sets BackendProgram.cache_hit. A damaged entry is never given
   * to deserialize (checksummed); a deserialize error just recompiles. */
  const char *(*target_id)(void *client_state);
  cxla_status (*program_serialize)(void *client_state, void *program, void **out, size_t *len);
  cxla_status (*program_deserialize)(const BackendCompileInput *input, const void *data,
                                     size_t len, BackendProgram *out);
  /* The backend runs whole-prefix scans itself (in the reduce-window
   * rewriter's tree order): the optimizer leaves them as reduce-windows
   * (PassContext.keep_scans) instead of rewriting them into that tree. */
  bool keeps_scans;
} Backend;

/* The registry (backends.c): registry order, compiled backends first. */
int rt_backend_count(void);
const Backend *rt_backend_at(int i);
/* NULL when no backend has that name. */
const Backend *rt_backend_find(const char *name);

/* The backends this library has. A new backend declares its table here and
 * adds one line to backends.c. */
extern const Backend interp_backend; /* src/interp/backend.c */
extern const Backend cpu_backend;    /* src/cpu/backend.c */

#endif
