/* The pass registry and the pipeline (minimal version on the passes-fusion
 * branch; the full one, with dumps, comes from passes-simplify). See pass.h.
 *
 * Ownership: pipeline_run borrows the module and the options. */
#include <string.h>

#include "passes/passes.h"
#include "verify/verify.h"

static const Pass kPasses[] = {
    {"layout-assignment", pass_layout_assignment,
     "give every shape a layout, absorb transposes, insert required copies"},
    {"fusion", pass_fusion, "loop, input and output fusion of producers into consumers"},
    {"multi-output-fusion", pass_multi_output_fusion,
     "merge sibling fusions that read the same operand into one multi-output fusion"},
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

static cxla_status run_one(HloModule *m, const Pass *p, const PipelineOptions *opts) {
  PassContext ctx = {(int64_t)1 << 20, NULL};
  bool changed = false;
  cxla_status s = p->run(m, &ctx, &changed);
  if (s) return cxla_status_annotate(s, "pass %s", p->name);
  if (opts->verify && (s = verify_module(m)))
    return cxla_status_annotate(s, "pass %s broke the module", p->name);
  return NULL;
}

cxla_status pipeline_run(HloModule *m, const char *const *names, int nnames,
                         const PipelineOptions *opts) {
  static const PipelineOptions kDefaults = {false, NULL, 1};
  static const char *const kDefault[] = {"layout-assignment", "fusion", "multi-output-fusion"};
  if (!opts) opts = &kDefaults;
  if (!names) {
    names = kDefault;
    nnames = (int)(sizeof kDefault / sizeof kDefault[0]);
  }
  for (int i = 0; i < nnames; i++)
    if (!names[i] || !pass_find(names[i]))
      return ERR(NOT_FOUND, "unknown pass '%s'", names[i] ? names[i] : "(null)");
  for (int i = 0; i < nnames; i++) TRY(run_one(m, pass_find(names[i]), opts));
  return NULL;
}
