/* pass.h: the optimizer's passes and the pipeline that runs them.
 *
 * A pass is one file, src/passes/<name>.c, with one entry point of type
 * PassFn: it rewrites the module in place and reports whether it changed
 * anything. Passes never print; they return statuses. The registry
 * (pipeline.c) lists every pass by name; the default pipeline is written out
 * in one function, pipeline_default(), in the order the passes run.
 *
 * Between passes the pipeline can run the verifier (PipelineOptions.verify:
 * on in tests and debug runs; on the input, then after every pass that
 * changed the module, as XLA's invariant checkers) and dump the module (PipelineOptions.dump_dir),
 * in the spirit of XLA's --xla_dump_to:
 *   module_0001.NAME.before_optimizations.txt
 *   module_0001.NAME.0003.after_fusion.txt       (only when the pass changed it)
 *   module_0001.NAME.after_optimizations.txt
 *   module_0001.NAME.buffer-assignment.txt       (when buffer assignment ran) */
#ifndef CXLA_PASS_H
#define CXLA_PASS_H

#include "ir/ir.h"

typedef struct PassContext {
  /* Largest constant (in bytes) that folding may create. */
  int64_t fold_limit_bytes;
  /* Report text a pass may leave behind (buffer assignment); owned by the
   * pipeline, freed by pipeline_run. NULL if none (when nothing would read
   * it: no dump); a pass that only reports then does nothing. */
  char **report;
  /* Only rewrites that keep every value bit for bit: leaves out those of
   * XLA's that round differently (x / C -> x * (1 / C), dot strength
   * reduction, the reduce-window tree of float sums). Tests that compare
   * values before and after the optimizer bit for bit set it. */
  bool exact;
  /* The backend computes whole-prefix scans itself, in the rewriter's tree
   * order (the CPU backend's rt_window): reduce-window-rewriter leaves
   * those it would take (one scanned dim, add / multiply / maximum /
   * minimum on f32, f64, s32, s64) as they are. */
  bool keep_scans;
  /* The backend splits a reduce's output rows over threads (the CPU
   * backend): the default pipeline runs reduce-splitter, which gives a
   * large reduce to a scalar rows of partials. */
  bool split_reduces;
  /* The backend runs a slice of one contiguous block as a view (the cpu
   * backend): the default pipeline runs slice-views last, which moves such
   * slices out of fusions. */
  bool slice_views;
} PassContext;

typedef cxla_status (*PassFn)(HloModule *m, const PassContext *ctx, bool *changed);

typedef struct Pass {
  const char *name;    /* e.g. "dce", "cse", "algsimp", "fusion" */
  PassFn run;
  const char *summary; /* one line for --list-passes */
} Pass;

/* All registered passes, in registry order; *n receives their number. */
const Pass *pass_registry(int *n);
const Pass *pass_find(const char *name);

typedef struct PipelineOptions {
  bool verify;            /* verify the input and after every pass that changed it */
  const char *dump_dir;   /* NULL: no dumps */
  int module_number;      /* the NNNN in module_NNNN (default 1) */
} PipelineOptions;

/* Runs the default pipeline (names == NULL) or exactly the named passes in
 * order (each once). Errors name the pass that failed; a verifier failure
 * after a pass says which pass broke the module. */
cxla_status pipeline_run(HloModule *m, const char *const *names, int nnames,
                         const PipelineOptions *opts);
/* pipeline_run with PassContext.exact set: every value stays bit for bit
 * (the randomized differential test runs this). */
cxla_status pipeline_run_exact(HloModule *m, const char *const *names, int nnames,
                               const PipelineOptions *opts);

/* The default pipeline with PassContext.keep_scans, split_reduces and
 * slice_views set:
 * for a backend that computes whole-prefix scans itself
 * (Backend.keeps_scans: the CPU backend, which also splits reduces' rows
 * over its threads). */
cxla_status pipeline_run_keep_scans(HloModule *m, const PipelineOptions *opts);

#endif
