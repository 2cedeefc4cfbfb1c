/* The pass registry and the pipeline driver (minimal version; see pass.h). */
#include <string.h>

#include "passes/passes.h"
#include "verify/verify.h"

static const Pass kPasses[] = {
    {"batchnorm-expander", pass_batchnorm_expander, "batch-norm ops to elementwise ops and reductions"},
    {"logistic-expander", pass_logistic_expander, "logistic(x) to 1/(1+exp(-x))"},
    {"while-loop-simplify", pass_while_loop_simplify, "dead loop state, invariant code motion, unrolling"},
    {"buffer-assignment", pass_buffer_assignment, "liveness and buffer reuse report (analysis only)"},
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

/* The default pipeline, in the order the passes run. The expanders are
 * registered but not listed: they round at every op of the expansion, so
 * they do not preserve the interpreter's values bit for bit. */
static const char *const kDefault[] = {
    "while-loop-simplify",
    "buffer-assignment",
};

/* Fresh names ("<opcode>.<N>") must not collide with parsed ones: raise
 * next_id past every numeric suffix in the module. */
static void reserve_names(HloModule *m) {
  for (int i = 0; i < m->ncomps; i++)
    for (int j = 0; j < m->comps[i]->ninstrs; j++) {
      const char *dot = strrchr(m->comps[i]->instrs[j]->name, '.');
      if (!dot || !dot[1]) continue;
      long long v = 0;
      const char *q = dot + 1;
      for (; *q >= '0' && *q <= '9' && v < (1LL << 40); q++) v = v * 10 + (*q - '0');
      if (!*q && v >= m->next_id && v < (1LL << 30)) m->next_id = (int)v + 1;
    }
}

cxla_status pipeline_run(HloModule *m, const char *const *names, int nnames,
                         const PipelineOptions *opts) {
  reserve_names(m);
  if (!names) {
    names = kDefault;
    nnames = (int)(sizeof kDefault / sizeof kDefault[0]);
  }
  char *report = NULL;
  PassContext ctx = {.fold_limit_bytes = 1 << 20, .report = &report};
  cxla_status st = NULL;
  for (int i = 0; i < nnames && !st; i++) {
    const Pass *p = pass_find(names[i]);
    if (!p) {
      st = ERR(NOT_FOUND, "pipeline: unknown pass '%s'", names[i]);
      break;
    }
    bool changed = false;
    st = p->run(m, &ctx, &changed);
    if (st) {
      st = cxla_status_annotate(st, "pass %s", p->name);
      break;
    }
    if (opts && opts->verify && (st = verify_module(m)))
      st = cxla_status_annotate(st, "after pass %s", p->name);
  }
  cxla_free(report);
  return st;
}
