/* backend_run.h: running a module through the runtime API (cxla/runtime.h)
 * for `cxla run`, `cxla conform` and `cxla bench`: the --backend and
 * --threads options, and compile + execute with literals in and out.
 *
 * Ownership: run_on_backend's leaves are fresh literals owned by the caller
 * (free each with cxla_literal_destroy, then the array with cxla_free). */
#ifndef CXLA_TOOL_BACKEND_RUN_H
#define CXLA_TOOL_BACKEND_RUN_H

#include <stdbool.h>

#include "cxla/runtime.h"

typedef struct BackendChoice {
  const char *name;   /* NULL: cxla_backend_default() */
  int threads;        /* 0: the backend's default */
} BackendChoice;

/* Scans --backend NAME and --threads N at argv[*i]. Returns -1 when argv[*i]
 * is neither, 0 when it was taken, or EXIT_USAGE after printing the usage
 * error (an unknown backend lists the ones there are). */
int take_backend_option(const char *cmd, int argc, char **argv, int *i, BackendChoice *b);

/* The help text's lines for the two options. */
#define BACKEND_OPTIONS_HELP                                                           \
  "  --backend NAME  the backend that runs the module: cpu or interp (the\n"         \
  "                  reference interpreter); default: the first compiled\n"          \
  "                  backend this cxla has, else interp\n"                           \
  "  --threads N     worker threads (default: $CXLA_NUM_THREADS, else the cores)\n"

cxla_status backend_client(const BackendChoice *b, cxla_client **out);

/* Compiles m (borrowed) on the client (no_optimize: as given) and runs it
 * on args; *out_leaves receives the result's array leaves. timeout_s > 0
 * stops the run with DEADLINE_EXCEEDED after that many seconds. */
cxla_status run_on_backend(cxla_client *c, const cxla_module *m,
                           const cxla_compile_options *co, cxla_literal *const *args,
                           int nargs, double timeout_s, cxla_literal ***out_leaves,
                           int *out_n);

/* Executes a compiled program on argument buffers and returns its results
 * as literals (as run_on_backend). */
cxla_status execute_to_literals(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                double timeout_s, cxla_literal ***out_leaves, int *out_n);

/* Buffers for literal arguments (free with free_buffers). */
cxla_status buffers_from_literals(cxla_client *c, cxla_literal *const *args, int nargs,
                                  cxla_buffer ***out);
void free_buffers(cxla_buffer **b, int n);
void free_leaves(cxla_literal **leaves, int n);

#endif
