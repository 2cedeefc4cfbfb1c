/* The pass registry and the pipeline that runs passes in order, verifying
 * and dumping the module between them. See pass.h.
 *
 * Ownership: pipeline_run borrows the module and the options; the report a
 * pass leaves in *ctx->report is the pipeline's (written to the dump
 * directory, then freed). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/rewrite.h"
#include "passes/passes.h"
#include "verify/verify.h"

/* ---- registry ---------------------------------------------------------------- */

/* Every pass, one line each. */
static const Pass kPasses[] = {
    {"call-inliner", pass_call_inliner, "inline call instructions into their callers"},
    {"dynamic-padder", pass_dynamic_padder,
     "bounded dynamic shapes made static; dynamic results handed out through SliceToDynamic"},
    {"flatten-call-graph", pass_flatten_call_graph,
     "give every call/while/conditional call site its own computation"},
    {"tuple-simplifier", pass_tuple_simplify,
     "get-tuple-element(tuple) -> operand; tuple(gte(x,0..n-1)) -> x"},
    {"algsimp", pass_algsimp,
     "algebraic simplification as XLA:CPU does it (bit-exact rules only in exact mode)"},
    {"constant-folding", pass_constant_folding,
     "evaluate instructions whose operands are all constants"},
    {"cse", pass_cse, "common subexpression elimination"},
    {"dce", pass_dce, "remove dead instructions and uncalled computations"},
    {"layout-assignment", pass_layout_assignment,
     "choose every layout (row-major unless another saves a transpose); insert copies"},
    {"fusion", pass_fusion, "loop, input and output fusion of producers into consumers"},
    {"multi-output-fusion", pass_multi_output_fusion,
     "merge sibling fusions that read the same input into one multi-output fusion"},
    {"while-loop-simplify", pass_while_loop_simplify,
     "dead loop state, loop-invariant code motion, unrolling of tiny counted loops"},
    {"batchnorm-expander", pass_batchnorm_expander, "batch-norm ops to elementwise ops and reduces"},
    {"logistic-expander", pass_logistic_expander, "logistic(x) to 1/(1+exp(-x))"},
    {"qr-expander", pass_qr_expander,
     "TensorFlow's Qr / ProductOfElementaryHouseholderReflectors custom-calls to HLO loops"},
    {"buffer-assignment", pass_buffer_assignment,
     "liveness, buffer reuse and offsets; report only (never changes the module)"},
    {"dot-canonicalize", pass_dot_canonicalize, "dots to batched matrix multiplies [B,M,K]x[B,K,N]"},
    {"reshape-to-bitcast", pass_reshape_to_bitcast,
     "reshapes whose operand and result are row-major in memory become bitcasts"},
    {"reduce-window-rewriter", pass_reduce_window_rewriter,
     "scans as reduce-windows (cumsum, cumprod, ...) to a log-depth tree of 16-wide windows"},
    {"float-normalization", pass_float_normalization,
     "f16/bf16 dots and convolutions, bf16 elementwise ops -> f32 between converts"},
    {"reshape-mover", pass_reshape_mover,
     "reshapes/transposes sink below the elementwise ops that read them"},
    {"sort-simplifier", pass_sort_simplifier,
     "multi-operand sorts drop the operands nobody reads"},
    {"topk-rewriter", pass_topk_rewriter,
     "f32 sorts read only through slices of their first k (greatest first) -> topk, as XLA:CPU"},
    {"zero-sized-hlo-elimination", pass_zero_sized_elimination,
     "instructions with empty array results -> empty constants"},
    {"conditional-simplifier", pass_conditional_simplifier,
     "conditionals with a constant predicate or one branch -> the branch, inlined"},
    {"while-loop-constant-sinking", pass_while_loop_constant_sinking,
     "constant loop state passed through unchanged -> the constant inside body and condition"},
    {"reduce-splitter", pass_reduce_splitter,
     "large reduces to a scalar -> per-row partials reduced again (rows split over threads)"},
    {"slice-views", pass_slice_views,
     "contiguous slices of a fusion's operand -> the fusion's operands (run as views; identical fusions)"},
    {"optimization-barrier-expander", pass_opt_barrier_expander,
     "opt-barriers removed (their operand read instead), as XLA:CPU does before layout"},
};

const Pass *pass_registry(int *n) {
  *n = (int)(sizeof kPasses / sizeof kPasses[0]);
  return kPasses;
}

const Pass *pass_find(const char *name) {
  int n;
  const Pass *p = pass_registry(&n);
  for (int i = 0; i < n; i++)
    if (strcmp(p[i].name, name) == 0) return &p[i];
  return NULL;
}

/* ---- dumps ------------------------------------------------------------------- */

/* mkdir -p. */
static cxla_status make_dirs(const char *path) {
  size_t n = strlen(path);
  char *buf = cxla_strdup(path);
  if (!buf) return cxla_oom();
  cxla_status s = NULL;
  for (size_t i = 1; i <= n && !s; i++) {
    if (buf[i] != '/' && buf[i] != '\0') continue;
    char keep = buf[i];
    buf[i] = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
      s = ERR(IO, "cannot create dump directory %s: %s", buf, strerror(errno));
    else if (keep == '\0' || buf[i + 1] == '\0') {
      struct stat st;
      if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        s = ERR(IO, "dump path %s is not a directory", buf);
    }
    buf[i] = keep;
  }
  cxla_free(buf);
  return s;
}

static cxla_status write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return ERR(IO, "cannot write %s: %s", path, strerror(errno));
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  ok &= fclose(f) == 0;
  return ok ? NULL : ERR(IO, "error writing %s", path);
}

/* The state of one pipeline run. */
typedef struct Runner {
  HloModule *m;
  const PipelineOptions *opts;
  PassContext ctx;
  char *report;   /* where passes leave their report (ctx.report points here) */
  int counter;    /* passes run so far */
  bool changed;   /* any pass changed the module */
  bool marked;    /* Computation.side_effects current: no pass changed m since */
} Runner;

/* Writes module_NNNN.NAME.<suffix>.txt with the module's current text. */
static cxla_status dump_text(Runner *r, const char *suffix, const char *text) {
  char *path = cxla_format("%s/module_%04d.%s.%s.txt", r->opts->dump_dir,
                           r->opts->module_number > 0 ? r->opts->module_number : 1, r->m->name,
                           suffix);
  if (!path) return cxla_oom();
  cxla_status s = write_file(path, text);
  cxla_free(path);
  return s;
}

static cxla_status dump_module(Runner *r, const char *suffix) {
  if (!r->opts->dump_dir) return NULL;
  char *text;
  TRY(cxla_module_print(r->m, &text));
  cxla_status s = dump_text(r, suffix, text);
  cxla_free_string(text);
  return s;
}

/* ---- running passes ------------------------------------------------------------ */

static cxla_status run_one(Runner *r, const Pass *p, bool *changed) {
  *changed = false;
  r->counter++;
  cxla_status s = NULL;
  if (!r->marked) s = module_mark_side_effects(r->m); /* what comp_prune must keep */
  r->marked = !s;
  if (!s) s = p->run(r->m, &r->ctx, changed);
  if (*changed) r->marked = false;
  if (s) return cxla_status_annotate(s, "pass %s", p->name);
  if (*changed) r->changed = true;
  /* As XLA's pass pipeline runs its invariant checkers: after a pass that
   * changed the module (an unchanged module was verified already). */
  if (r->opts->verify && *changed) {
    s = verify_module(r->m);
    if (s) return cxla_status_annotate(s, "pass %s broke the module", p->name);
  }
  if (*changed) {
    char suffix[128];
    snprintf(suffix, sizeof suffix, "%04d.after_%s", r->counter, p->name);
    TRY(dump_module(r, suffix));
  }
  if (r->report) {
    cxla_status w = r->opts->dump_dir ? dump_text(r, "buffer-assignment", r->report) : NULL;
    cxla_free(r->report);
    r->report = NULL;
    TRY(w);
  }
  return NULL;
}

/* Runs a registered pass of the default pipeline; a name that is not
 * registered is a bug in pipeline_default. */
static cxla_status run_pass(Runner *r, const char *name) {
  const Pass *p = pass_find(name);
  if (!p) return ERR(INTERNAL, "default pipeline names unknown pass %s", name);
  bool changed;
  return run_one(r, p, &changed);
}

/* Runs the passes in order, again and again until none changes the module,
 * at most max_iters rounds. */
static cxla_status run_fixed_point(Runner *r, const char *const *names, int n, int max_iters) {
  for (int it = 0; it < max_iters; it++) {
    bool any = false;
    for (int i = 0; i < n; i++) {
      const Pass *p = pass_find(names[i]);
      if (!p) return ERR(INTERNAL, "default pipeline names unknown pass %s", names[i]);
      bool changed;
      TRY(run_one(r, p, &changed));
      any |= changed;
    }
    if (!any) break;
  }
  return NULL;
}

/* Gives every shape without a layout its default one ({rank-1,...,0}), as
 * XLA's parser and shape builders do. The expanders build shapes without
 * layouts; rewrites that must keep a shape "layout included" would then
 * refuse (a no-op slice of a layout-less value stays) until layout
 * assignment fills the layouts in, and a second run of the pipeline would
 * find more to do. */
static cxla_status default_layout_leaves(Arena *a, Shape *s, int depth) {
  if (!s || depth > 64) return NULL;
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) TRY(default_layout_leaves(a, s->tuple[i], depth + 1));
    return NULL;
  }
  return !s->has_layout && type_is_array(s->type) ? shape_set_default_layout(a, s) : NULL;
}

static cxla_status default_layouts(HloModule *m) {
  for (int i = 0; i < m->ncomps; i++) {
    Computation *c = m->comps[i];
    for (int k = 0; k < c->ninstrs; k++)
      TRY(default_layout_leaves(&m->arena, c->instrs[k]->shape, 0));
  }
  return NULL;
}

/* The default pipeline, in the order the passes run. Passes still being
 * written elsewhere are listed commented out: uncomment the line when the
 * pass is registered. */
static cxla_status pipeline_default(Runner *r) {
  /* first, as in XLA: no other pass reads a dynamic dimension's size (a
   * module without one: one scan) */
  TRY(run_pass(r, "dynamic-padder"));
  /* ops XLA always expands before optimizing (its QrExpander and
   * BatchNormExpander): these change rounding (every op of an expansion
   * rounds, where the interpreter computes them in double), as in XLA */
  TRY(run_pass(r, "qr-expander"));
  TRY(run_pass(r, "batchnorm-expander"));
  TRY(run_pass(r, "call-inliner"));
  TRY(run_pass(r, "flatten-call-graph"));
  TRY(run_pass(r, "tuple-simplifier"));
  TRY(run_pass(r, "reduce-window-rewriter"));
  /* before float-normalization, as XLA:CPU's TopkRewriter runs before its
   * bf16 normalization (a bf16 top-k stays a sort); after the first
   * clean-ups, which its pattern needs (no dead users) */
  TRY(run_pass(r, "dce"));
  TRY(run_pass(r, "sort-simplifier"));
  TRY(run_pass(r, "topk-rewriter"));
  TRY(run_pass(r, "float-normalization"));
  TRY(default_layouts(r->m));
  static const char *const kSimplify[] = {"algsimp", "constant-folding", "tuple-simplifier",
                                          "cse", "dce", "sort-simplifier", "zero-sized-hlo-elimination",
                                          "while-loop-constant-sinking", "reshape-mover",
                                          "conditional-simplifier"};
  TRY(run_fixed_point(r, kSimplify, (int)(sizeof kSimplify / sizeof kSimplify[0]), 8));
  TRY(run_pass(r, "while-loop-simplify"));
  /* logistic-expander is not value-preserving (every op of the expansion
   * rounds) and XLA:CPU keeps logistic, so it stays out: */
  /* TRY(run_pass(r, "logistic-expander")); */
  /* TRY(run_pass(r, "rng-bit-generator-expander")); */
  /* TRY(run_pass(r, "select-and-scatter-expander")); */
  /* TRY(run_pass(r, "scatter-expander")); */
  TRY(run_pass(r, "dot-canonicalize"));
  TRY(run_fixed_point(r, kSimplify, (int)(sizeof kSimplify / sizeof kSimplify[0]), 8));
  /* as XLA:CPU, after simplification and CSE: the fences have done their
   * work (no rematerialization follows) */
  TRY(run_pass(r, "optimization-barrier-expander"));
  TRY(run_pass(r, "tuple-simplifier"));
  TRY(run_pass(r, "layout-assignment"));
  /* after layout assignment, as XLA:CPU simplifies again: the copies it
   * inserts can leave no-op reshapes and tuple/get-tuple-element pairs */
  static const char *const kPostLayout[] = {"algsimp", "tuple-simplifier", "cse", "dce"};
  TRY(run_fixed_point(r, kPostLayout, (int)(sizeof kPostLayout / sizeof kPostLayout[0]), 8));
  TRY(run_pass(r, "reshape-to-bitcast"));
  /* after the last algsimp (which would merge the two reduces back) */
  if (r->ctx.split_reduces) TRY(run_pass(r, "reduce-splitter"));
  TRY(run_pass(r, "fusion"));
  TRY(run_pass(r, "cse"));
  static const char *const kMerge[] = {"multi-output-fusion", "tuple-simplifier", "cse", "dce"};
  TRY(run_fixed_point(r, kMerge, (int)(sizeof kMerge / sizeof kMerge[0]), 8));
  if (r->ctx.slice_views) TRY(run_pass(r, "slice-views"));
  TRY(run_pass(r, "buffer-assignment"));
  return NULL;
}

/* run_pipeline's flags: PassContext.exact, keep_scans, split_reduces,
 * slice_views. */
enum { kExact = 1, kKeepScans = 2, kSplitReduces = 4, kSliceViews = 8 };

/* Shared by pipeline_run and pipeline_run_list: exactly one of `list`
 * (n passes) or the default pipeline (list == NULL). */
static cxla_status run_pipeline(HloModule *m, const Pass *const *list, int n,
                                const PipelineOptions *opts, int flags) {
  static const PipelineOptions kDefaults = {false, NULL, 1};
  if (!opts) opts = &kDefaults;
  Runner r = {.m = m, .opts = opts};
  r.ctx.fold_limit_bytes = PASS_DEFAULT_FOLD_LIMIT;
  /* Reports are only written to the dump; without one the analysis passes
   * that only report (buffer-assignment) are skipped: the runtime makes
   * its own plan, so a compile assigns buffers once. */
  r.ctx.report = opts->dump_dir ? &r.report : NULL;
  r.ctx.exact = (flags & kExact) != 0;
  r.ctx.keep_scans = (flags & kKeepScans) != 0;
  r.ctx.split_reduces = (flags & kSplitReduces) != 0;
  r.ctx.slice_views = (flags & kSliceViews) != 0;
  if (opts->verify) {
    cxla_status s = verify_module(m);
    if (s) return cxla_status_annotate(s, "the module does not verify before optimization");
  }
  if (opts->dump_dir) TRY(make_dirs(opts->dump_dir));
  cxla_status s = dump_module(&r, "before_optimizations");
  if (!s) {
    if (list) {
      for (int i = 0; i < n && !s; i++) {
        bool changed;
        s = run_one(&r, list[i], &changed);
      }
    } else {
      s = pipeline_default(&r);
    }
  }
  if (!s && !r.marked) s = module_mark_side_effects(m); /* current for the backends (the interpreter's liveness) */
  if (!s) s = dump_module(&r, "after_optimizations");
  cxla_free(r.report);
  return s;
}

static cxla_status run_named(HloModule *m, const char *const *names, int nnames,
                             const PipelineOptions *opts, int flags) {
  if (!names) return run_pipeline(m, NULL, 0, opts, flags);
  if (nnames < 0) return ERR(INVALID_ARGUMENT, "negative number of passes");
  /* Check the names before touching the module. */
  const Pass **list = cxla_calloc((size_t)nnames + 1, sizeof *list);
  if (!list) return cxla_oom();
  for (int i = 0; i < nnames; i++) {
    list[i] = names[i] ? pass_find(names[i]) : NULL;
    if (!list[i]) {
      cxla_status s = ERR(NOT_FOUND, "unknown pass '%s' (cxla opt --list-passes lists them)",
                          names[i] ? names[i] : "(null)");
      cxla_free(list);
      return s;
    }
  }
  cxla_status s = run_pipeline(m, list, nnames, opts, flags);
  cxla_free(list);
  return s;
}

cxla_status pipeline_run(HloModule *m, const char *const *names, int nnames,
                         const PipelineOptions *opts) {
  return run_named(m, names, nnames, opts, 0);
}

cxla_status pipeline_run_exact(HloModule *m, const char *const *names, int nnames,
                               const PipelineOptions *opts) {
  return run_named(m, names, nnames, opts, kExact);
}

cxla_status pipeline_run_keep_scans(HloModule *m, const PipelineOptions *opts) {
  return run_pipeline(m, NULL, 0, opts, kKeepScans | kSplitReduces | kSliceViews);
}

cxla_status pipeline_run_list(HloModule *m, const Pass *const *passes, int n,
                              const PipelineOptions *opts) {
  if (n < 0 || (n > 0 && !passes)) return ERR(INVALID_ARGUMENT, "bad pass list");
  for (int i = 0; i < n; i++)
    if (!passes[i] || !passes[i]->run || !passes[i]->name)
      return ERR(INVALID_ARGUMENT, "pass %d of the list is malformed", i);
  static const Pass *const kNone[1] = {NULL};
  return run_pipeline(m, n ? passes : kNone, n, opts, 0);
}
