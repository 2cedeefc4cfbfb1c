/* cxla/runtime.h: compile HLO modules and run them on a backend.
 *
 * The concepts map one to one onto PJRT's C API (xla/pjrt/c/pjrt_c_api.h),
 * so that a PJRT plugin is a thin layer over this header:
 *
 *   cxla_client      PJRT_Client       created by backend name ("cpu", "interp")
 *   cxla_device      PJRT_Device       the client's devices (one today)
 *   cxla_buffer      PJRT_Buffer       a dense array on a device: element
 *                                      type, dims, layout; 64-byte aligned;
 *                                      owned, or borrowed from host memory
 *   cxla_executable  PJRT_LoadedExecutable  (and PJRT_Executable: name,
 *                                      parameter/result shapes, fingerprint)
 *   cxla_event       PJRT_Event        completion of a transfer or execution
 *   cxla_status      PJRT_Error        a code (cxla/status.h) and a message
 *
 *   cxla_client_create            PJRT_Client_Create
 *   cxla_client_compile           PJRT_Client_Compile
 *   cxla_buffer_from_host         PJRT_Client_BufferFromHostBuffer
 *   cxla_buffer_to_host           PJRT_Buffer_ToHostBuffer
 *   cxla_executable_execute       PJRT_LoadedExecutable_Execute (one device)
 *   cxla_event_await / _on_ready  PJRT_Event_Await / PJRT_Event_OnReady
 *
 * Conventions (as in cxla.h): every fallible function returns a cxla_status
 * (NULL on success) and sets its out_* parameters to NULL (or 0) on entry.
 * What a *_create / *_compile / *_from_host / *_execute function returns
 * through out_* belongs to the caller, who releases it with the matching
 * *_destroy. Pointers returned by accessors belong to the object they came
 * from and live as long as it does.
 *
 * Option structs begin with `struct_size`: set it to sizeof the struct as
 * your code was compiled (CXLA_STRUCT_INIT does it). Newer fields are only
 * read when struct_size covers them, so old callers keep working when the
 * struct grows; a struct_size smaller than the first version of the struct
 * is INVALID_ARGUMENT. A NULL options pointer means all defaults.
 *
 * Threads: clients, executables and buffers may be used from several
 * threads at once; in particular several threads may execute one executable
 * concurrently (each execution has its own temporaries). Destroying an object
 * while another thread uses it is the caller's error. An executable keeps its
 * client alive (reference counted); a buffer keeps its client alive too, so
 * the destroy calls may come in any order. */
#ifndef CXLA_RUNTIME_H
#define CXLA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "cxla/cxla.h"
#include "cxla/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cxla_client cxla_client;
typedef struct cxla_device cxla_device;
typedef struct cxla_buffer cxla_buffer;
typedef struct cxla_executable cxla_executable;
typedef struct cxla_event cxla_event;
typedef struct cxla_cancel cxla_cancel;

/* Declares and zero-fills an options struct with its struct_size set:
 *   cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options); */
#define CXLA_STRUCT_INIT(type) ((type){.struct_size = sizeof(type)})

/* The alignment of every buffer's data (XLA:CPU's minimum alignment). */
#define CXLA_BUFFER_ALIGNMENT 64

/* ---- the host allocator hook ------------------------------------------------ */

/* Where a client takes the memory of buffers and execution temporaries.
 * alloc returns `size` bytes aligned to `alignment` (a power of two, at
 * least CXLA_BUFFER_ALIGNMENT) or NULL; free releases a block alloc gave,
 * with the same size. Both may be called from any thread at once. `self` is
 * passed back unchanged. The allocator must outlive the client and every
 * buffer and executable made from it. */
typedef struct cxla_allocator {
  size_t struct_size;
  void *self;
  void *(*alloc)(void *self, size_t size, size_t alignment);
  void (*free)(void *self, void *ptr, size_t size);
} cxla_allocator;

/* ---- backends ----------------------------------------------------------------- */

/* The backends built into this library, in registry order (compiled
 * backends first, the reference interpreter "interp" last). i in
 * [0, cxla_backend_count()); NULL when out of range. Static storage. */
CXLA_API int cxla_backend_count(void);
CXLA_API const char *cxla_backend_name(int i);
/* The backend a client gets when none is named: the first registered
 * compiled backend ("cpu" when built with it), else "interp". */
CXLA_API const char *cxla_backend_default(void);

/* ---- client ---------------------------------------------------------------------- */

/* A host callback: what a custom-call with target "cxla_host_callback"
 * runs (JAX's jax.debug.print, jax.pure_callback and io_callback on cxla,
 * through the PJRT plugin). The custom call names which function of the
 * embedder's by an id, its backend_config {id = N : ui64}; its operands
 * are arrays and tokens, its result an array, a token, or a tuple of them.
 * The callback gets the id, the array operands' data (dense, row-major,
 * read only; tokens are not passed) and the array results' memory (dense,
 * row-major, to be filled), during the execution and on one of its
 * threads (calls without a token between them may come from several
 * threads at once). It returns 0 on success; otherwise it writes a
 * NUL-terminated message of at most error_size bytes into error, and the
 * execution fails with UNKNOWN, naming the id and the message. */
typedef int (*cxla_host_callback_fn)(void *arg, uint64_t id, int nargs, const void *const *args,
                                     int nresults, void *const *results, char *error,
                                     size_t error_size);

typedef struct cxla_client_options {
  size_t struct_size;
  /* "cpu", "interp", or NULL for cxla_backend_default(). An unknown name is
   * NOT_FOUND, naming the backends there are. */
  const char *backend;
  /* Worker threads for executions: 0 = the default, $CXLA_NUM_THREADS when
   * set (a whole number from 1 to 4096; any other value makes
   * cxla_client_create fail with INVALID_ARGUMENT), else the number of
   * cores. A backend that runs on one thread (interp) caps it at 1. */
  int num_threads;
  /* Memory for buffers and temporaries; NULL = the C library's
   * aligned_alloc/free. Copied; the pointed-to allocator is not. */
  const cxla_allocator *allocator;
  /* What custom-calls "cxla_host_callback" call, and its first argument;
   * NULL: such a call fails with FAILED_PRECONDITION. */
  cxla_host_callback_fn host_callback;
  void *host_callback_arg;
} cxla_client_options;

CXLA_API cxla_status cxla_client_create(const cxla_client_options *options,
                                        cxla_client **out_client);
/* Drops the caller's reference; the client lives on while executables or
 * buffers made from it remain. NULL is fine. */
CXLA_API void cxla_client_destroy(cxla_client *client);
/* The backend's name ("cpu", "interp"): PJRT's platform name. */
CXLA_API const char *cxla_client_backend(const cxla_client *client);
/* Whether the backend generates code (1) or interprets (0). */
CXLA_API int cxla_client_compiles(const cxla_client *client);
/* The cxla version the client runs (PJRT's platform version). */
CXLA_API const char *cxla_client_version(const cxla_client *client);
/* The worker threads executions use (after defaults are resolved). */
CXLA_API int cxla_client_num_threads(const cxla_client *client);
CXLA_API int cxla_client_device_count(const cxla_client *client);
/* The i-th device (owned by the client); NULL when out of range. */
CXLA_API cxla_device *cxla_client_device(const cxla_client *client, int i);

/* ---- device ------------------------------------------------------------------------ */

CXLA_API int cxla_device_id(const cxla_device *device);
/* "cpu" for the host CPU (both backends run there). */
CXLA_API const char *cxla_device_kind(const cxla_device *device);

/* ---- events ------------------------------------------------------------------------ */

/* Blocks until the event is ready; returns (a copy of) its error, or NULL
 * when the work it stands for succeeded. May be called more than once. */
CXLA_API cxla_status cxla_event_await(cxla_event *event);
CXLA_API int cxla_event_is_ready(const cxla_event *event);
/* Calls fn(status, arg) once, when the event is ready (at once, on this
 * thread, if it already is). fn owns status (NULL on success). */
CXLA_API cxla_status cxla_event_on_ready(cxla_event *event,
                                         void (*fn)(cxla_status status, void *arg),
                                         void *arg);
/* Waits for the event, then frees it. NULL is fine. */
CXLA_API void cxla_event_destroy(cxla_event *event);

/* ---- cancellation -------------------------------------------------------------------- */

/* A flag an execution checks while it runs (between instructions, loop
 * iterations, kernel slices): once cxla_cancel_request is called, running
 * and later executions given it stop with CANCELLED. Thread-safe. */
CXLA_API cxla_status cxla_cancel_create(cxla_cancel **out_cancel);
CXLA_API void cxla_cancel_request(cxla_cancel *cancel);
CXLA_API int cxla_cancel_requested(const cxla_cancel *cancel);
CXLA_API void cxla_cancel_destroy(cxla_cancel *cancel);

/* ---- buffers --------------------------------------------------------------------------- */

/* How cxla_buffer_from_host treats the host memory (PJRT's
 * HostBufferSemantics). */
typedef enum cxla_host_semantics {
  /* Copy the data during the call; the host memory is free to reuse when
   * the call returns (kImmutableOnlyDuringCall). */
  CXLA_HOST_COPY = 0,
  /* Borrow it: the buffer's data IS the host memory (kImmutableZeroCopy).
   * It must be CXLA_BUFFER_ALIGNMENT-aligned (else INVALID_ARGUMENT) and
   * row-major-dense, stay alive and unchanged until the buffer is destroyed;
   * then `release(release_arg)` is called if given. */
  CXLA_HOST_BORROW = 1,
} cxla_host_semantics;

typedef struct cxla_host_buffer {
  size_t struct_size;
  cxla_type type;           /* an array type (not tuple or token) */
  int rank;
  const int64_t *dims;      /* rank entries, each >= 0 */
  /* The host data: dense, logical row-major (last dimension fastest), in
   * the storage of cxla_literal_data (pred one byte, bf16 raw bits, ...). */
  const void *data;
  size_t size;              /* bytes at data: exactly elements * type size */
  cxla_host_semantics semantics;
  void (*release)(void *release_arg); /* CXLA_HOST_BORROW only; may be NULL */
  void *release_arg;
  /* The layout the buffer keeps on the device, minor-to-major (a
   * permutation of 0..rank-1); NULL = row-major {rank-1, ..., 0}. Only
   * row-major layouts are accepted today (else UNIMPLEMENTED); BORROW
   * requires row-major. */
  const int64_t *minor_to_major;
} cxla_host_buffer;

/* Makes a buffer on `device` (NULL = the client's first device). On
 * success *out_done (if out_done is non-NULL) receives an event that is
 * ready when the host memory may be reused (ready at once for COPY). */
CXLA_API cxla_status cxla_buffer_from_host(cxla_client *client, cxla_device *device,
                                           const cxla_host_buffer *host,
                                           cxla_buffer **out_buffer,
                                           cxla_event **out_done);
/* Convenience over cxla_buffer_from_host: copies an array literal. */
CXLA_API cxla_status cxla_buffer_from_literal(cxla_client *client, cxla_device *device,
                                              const cxla_literal *literal,
                                              cxla_buffer **out_buffer);
/* Frees a buffer (or drops the borrow, calling its release). NULL is fine. */
CXLA_API void cxla_buffer_destroy(cxla_buffer *buffer);

CXLA_API cxla_type cxla_buffer_type(const cxla_buffer *buffer);
CXLA_API int cxla_buffer_rank(const cxla_buffer *buffer);
CXLA_API const int64_t *cxla_buffer_dims(const cxla_buffer *buffer);
/* The device layout, rank entries minor-to-major. */
CXLA_API const int64_t *cxla_buffer_minor_to_major(const cxla_buffer *buffer);
CXLA_API int64_t cxla_buffer_element_count(const cxla_buffer *buffer);
/* Bytes of the buffer's data (PJRT_Buffer_OnDeviceSizeInBytes). */
CXLA_API size_t cxla_buffer_size(const cxla_buffer *buffer);
CXLA_API cxla_device *cxla_buffer_device(const cxla_buffer *buffer);
/* Whether the data is borrowed host memory (CXLA_HOST_BORROW). */
CXLA_API int cxla_buffer_is_borrowed(const cxla_buffer *buffer);
/* The data on the device (host memory for both backends today), aligned to
 * CXLA_BUFFER_ALIGNMENT; do not write to it while an execution reads it
 * (PJRT_Buffer_UnsafePointer). */
CXLA_API void *cxla_buffer_data(cxla_buffer *buffer);
/* Ready when the buffer's data is (results: when their execution ended).
 * The caller owns the event. */
CXLA_API cxla_status cxla_buffer_ready_event(cxla_buffer *buffer, cxla_event **out_event);

/* Copies the buffer's data, logical row-major, into dst (size must be
 * exactly cxla_buffer_size, else INVALID_ARGUMENT). *out_done (if non-NULL)
 * is ready when dst holds the data. */
CXLA_API cxla_status cxla_buffer_to_host(cxla_buffer *buffer, void *dst, size_t size,
                                         cxla_event **out_done);
/* Convenience: a fresh array literal holding the buffer's value. */
CXLA_API cxla_status cxla_buffer_to_literal(cxla_buffer *buffer, cxla_literal **out_literal);

/* ---- compilation ------------------------------------------------------------------------ */

typedef struct cxla_compile_options {
  size_t struct_size;
  /* 0 = run the optimizer's default pipeline (cxla_module_optimize) before
   * handing the module to the backend; 1 = compile the module as given. */
  int no_optimize;
  /* Dumps of the module before/after each pass and of the buffer plan go
   * to this directory (as `cxla opt --dump-to`); NULL = none. Backends may
   * add their own files (e.g. generated code). */
  const char *dump_dir;
  /* Nonzero: run the verifier after every pass (slower; names the pass
   * that broke a module). The optimized module is verified once anyway. */
  int verify_passes;
} cxla_compile_options;

/* The optimizer's default pipeline over m, in place (what `cxla opt` runs):
 * simplification, fusion, layout assignment, buffer assignment. Reads
 * dump_dir and verify_passes of options (NULL = defaults; no_optimize is
 * ignored). */
CXLA_API cxla_status cxla_module_optimize(cxla_module *module,
                                          const cxla_compile_options *options);

/* The pipeline cxla_client_compile runs for the client's backend, over m
 * in place: cxla_module_optimize's, with what the backend asks for (the
 * cpu backend keeps cumulative reduce-windows, which it runs as scans). */
CXLA_API cxla_status cxla_client_optimize(cxla_client *client, cxla_module *module,
                                          const cxla_compile_options *options);

/* Verifies and (unless options->no_optimize) optimizes a copy of `module`
 * (borrowed; unchanged), plans its buffers and compiles it for the client's
 * backend. The module's entry parameters must be arrays. A module the
 * backend cannot run is an error naming what it cannot (UNIMPLEMENTED), not
 * a silent fallback to another backend.
 *
 * Compiling the same module with the same options again on a client
 * compiles once: the client keeps its recent programs (keyed by the
 * module's text, and by the optimized module's fingerprint, with the
 * backend, options and cxla version), and the new executable shares the
 * program (cxla_compile_stats.cache_hit says so). $CXLA_CACHE=0 turns the
 * cache off; a compile with dump_dir always compiles afresh. */
CXLA_API cxla_status cxla_client_compile(cxla_client *client, const cxla_module *module,
                                         const cxla_compile_options *options,
                                         cxla_executable **out_executable);
CXLA_API void cxla_executable_destroy(cxla_executable *executable);

/* The entry computation's name (the module's name when it has none). */
CXLA_API const char *cxla_executable_name(const cxla_executable *executable);
/* A hex digest of the optimized module's text, the backend and the options
 * that shape the code: equal fingerprints mean interchangeable executables
 * (PJRT_Executable_Fingerprint). */
CXLA_API const char *cxla_executable_fingerprint(const cxla_executable *executable);
CXLA_API cxla_client *cxla_executable_client(const cxla_executable *executable);
/* Parameters of the entry computation, in order: arrays and tokens
 * (CXLA_TOKEN, rank 0). A token parameter takes a token result of an
 * earlier execution, or any buffer of zero bytes (as JAX passes pred[0]
 * for an effect's first token). */
CXLA_API int cxla_executable_num_parameters(const cxla_executable *executable);
/* Results: the array and token leaves of the entry's result, depth-first
 * (a tuple result is flattened, as PJRT untuples results); a token
 * result is a buffer of type CXLA_TOKEN, rank 0 and no bytes. */
CXLA_API int cxla_executable_num_results(const cxla_executable *executable);
/* Type, rank and dims (owned by the executable) of parameter/result i;
 * INVALID_ARGUMENT when i is out of range. Any out pointer may be NULL. */
CXLA_API cxla_status cxla_executable_parameter(const cxla_executable *executable, int i,
                                               cxla_type *out_type, int *out_rank,
                                               const int64_t **out_dims);
CXLA_API cxla_status cxla_executable_result(const cxla_executable *executable, int i,
                                            cxla_type *out_type, int *out_rank,
                                            const int64_t **out_dims);
/* Memory spaces of entry parameters and results: where the caller keeps
 * them, as the module's entry_computation_layout says (XLA's layout memory
 * space, "{0:S(5)}"; from StableHLO, a function argument's or result's
 * mhlo.memory_kind). Every space is host memory to the cpu and interp
 * backends: the space only labels a buffer for the caller (JAX's memory
 * kinds "device", "pinned_host" and "unpinned_host"). */
typedef enum cxla_memory_space {
  CXLA_MEMORY_DEVICE = 0,        /* the default */
  CXLA_MEMORY_PINNED_HOST = 5,   /* S(5) */
  CXLA_MEMORY_UNPINNED_HOST = 6, /* S(6) */
} cxla_memory_space;
/* The memory space (cxla_memory_space) of parameter/result i; -1 when i
 * is out of range or the executable is NULL. */
CXLA_API int cxla_executable_parameter_memory_space(const cxla_executable *executable, int i);
CXLA_API int cxla_executable_result_memory_space(const cxla_executable *executable, int i);
/* The optimized module's HLO text (owned by the executable). */
CXLA_API const char *cxla_executable_hlo_text(const cxla_executable *executable);
/* Bytes of the one arena of temporaries each execution allocates
 * (PJRT_Executable_GetCompiledMemoryStats' temp size): what the backend
 * asks for, the buffer plan's arena for a compiled backend; 0 for interp,
 * which allocates its values as it goes. */
CXLA_API int64_t cxla_executable_temp_bytes(const cxla_executable *executable);

/* Where compile time went (PJRT has no equivalent; `cxla bench` shows it). */
typedef struct cxla_compile_stats {
  size_t struct_size;
  double optimize_seconds; /* the optimizer's pipeline (0 with no_optimize) */
  double plan_seconds;     /* buffer assignment */
  double backend_seconds;  /* the backend's compile, all of it */
  double codegen_seconds;  /* of which: emitting code (0 for interp) */
  double llvm_seconds;     /* of which: LLVM optimizing and making machine code */
  int cache_hit;           /* 1 when the program came from a compile cache (the
                              client's, or the backend's own); the times
                              above are then those of this compile (0) */
} cxla_compile_stats;

/* Fills *out (set out->struct_size first; fields past it are not written). */
CXLA_API cxla_status cxla_executable_compile_stats(const cxla_executable *executable,
                                                   cxla_compile_stats *out);

/* ---- execution ---------------------------------------------------------------------------- */

/* One step as the profile reports it; the strings live as long as the
 * executable. */
typedef struct cxla_profile_step {
  const char *name;  /* the HLO instruction's name */
  const char *op;    /* its opcode: "fusion", "dot", ... */
  const char *kind;  /* how the backend ran it: "kernel", "gemm", "gemm-in-fusion",
                        "conv", "routine", "sort", ... */
  double seconds;    /* wall-clock time of the step */
  double flops;      /* GEMMs and convolutions: 2 x multiply-adds; else 0 */
  int threads;       /* threads the step was split over (1: not split; a
                        routine or sort: the most of any of its splits;
                        GEMMs and convolutions: the threads they were given) */
} cxla_profile_step;

typedef struct cxla_execute_options {
  size_t struct_size;
  /* Stop with DEADLINE_EXCEEDED once the execution has run this long;
   * 0 = no limit. Checked between instructions / loop iterations / kernel
   * slices, so it also ends a while loop that never terminates. */
  double timeout_seconds;
  /* Stop with CANCELLED once cxla_cancel_request(cancel) is called; NULL =
   * not cancellable. Borrowed for the duration of the call. */
  cxla_cancel *cancel;
  /* Worker threads for this execution; 0 = the client's. */
  int num_threads;
  /* Optional step profile (`cxla bench --profile`): when set, a backend
   * that supports it calls profile(profile_arg, &step) after each step
   * of the execution that does work (kernels, GEMMs, routines; nested
   * programs' steps included, not the loops or calls around them), on the
   * executing thread. Unset: no clock is read. The interpreter reports
   * nothing. */
  void (*profile)(void *profile_arg, const cxla_profile_step *step);
  void *profile_arg;
} cxla_execute_options;

/* Runs the executable on args[0..nargs) (borrowed; nargs must equal
 * cxla_executable_num_parameters; each buffer's type and dims must match
 * its parameter, else INVALID_ARGUMENT naming it). out_results must have
 * room for cxla_executable_num_results buffers; on success each receives a
 * fresh buffer the caller owns (on error all are NULL). *out_done (if
 * out_done is non-NULL) receives the execution's completion event (PJRT's
 * device_complete_events): errors that occur while running are reported
 * both by the return value and by the event. */
CXLA_API cxla_status cxla_executable_execute(cxla_executable *executable,
                                             cxla_buffer *const *args, int nargs,
                                             const cxla_execute_options *options,
                                             cxla_buffer **out_results,
                                             cxla_event **out_done);

#ifdef __cplusplus
}
#endif
#endif
