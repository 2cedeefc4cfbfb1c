/* Running one conformance case and judging it; see conform.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "conform.h"
#include "ir/ir.h"
#include "testing/case.h"
#include "testing/compare.h"

/* "stage: first line of the message". */
static void set_reason(char *reason, size_t n, const char *stage, cxla_status s) {
  char *tidy = tidy_message(cxla_status_message(s));
  const char *msg = tidy ? tidy : cxla_status_message(s);
  const char *nl = strchr(msg, '\n');
  int len = nl ? (int)(nl - msg) : (int)strlen(msg);
  snprintf(reason, n, "%s: %.*s", stage, len, msg);
  cxla_free(tidy);
  cxla_status_free(s);
}

static void free_literals(Literal **v, int n) {
  if (!v) return;
  for (int i = 0; i < n; i++) literal_free(v[i]);
  cxla_free(v);
}

/* Compares the flattened leaves with the case's results/N.npy. */
static bool judge(Case *c, cxla_literal **leaves, int n, char *reason, size_t rn) {
  if (n != c->nresults) {
    snprintf(reason, rn, "results: got %d result array%s, the case has %d", n, n == 1 ? "" : "s",
             c->nresults);
    return false;
  }
  for (int i = 0; i < n; i++) {
    Literal *want;
    cxla_status s = case_load_tensor(&c->results[i], &want);
    if (s) {
      char stage[32];
      snprintf(stage, sizeof stage, "expected result %d", i);
      set_reason(reason, rn, stage, s);
      return false;
    }
    CompareReport r;
    bool ok = compare_literals(leaves[i], want, c->results[i].rtol, c->results[i].atol, &r);
    literal_free(want);
    if (!ok) {
      if (r.mismatches > 0)
        snprintf(reason, rn, "result %d: %s (rtol=%g, atol=%g)", i, r.detail, c->results[i].rtol,
                 c->results[i].atol);
      else
        snprintf(reason, rn, "result %d: %s", i, r.detail);
      return false;
    }
  }
  return true;
}

/* Compiles (after the default pipeline, verified after every pass, unless
 * no_opt; dumps, if asked for, in a directory of the case's own) and runs
 * the module on the chosen backend. */
static cxla_status run_module(Case *c, const char *which, const ConformRunOptions *ro,
                              cxla_module *m, cxla_literal **args, cxla_literal ***leaves,
                              int *nleaves) {
  char *dir = NULL;
  if (ro->dump_dir && !(dir = cxla_format("%s/%s.%s", ro->dump_dir, c->name, which)))
    return cxla_oom();
  cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
  co.no_optimize = ro->no_opt;
  co.dump_dir = dir;
  co.verify_passes = 1;
  cxla_client *client = NULL;
  cxla_status s = backend_client(&ro->backend, &client);
  if (!s) s = run_on_backend(client, m, &co, args, c->nargs, 0, leaves, nleaves);
  cxla_client_destroy(client);
  cxla_free(dir);
  return s;
}

static bool run_loaded(Case *c, const char *which, const ConformRunOptions *ro, char *reason,
                       size_t rn) {
  const char *path = case_hlo_path(c, which);
  if (!path) {
    set_reason(reason, rn, "setup", cxla_oom());
    return false;
  }
  cxla_module *m = NULL;
  char *text;
  size_t len;
  cxla_status s = read_text_file(path, &text, &len);
  if (s) {
    set_reason(reason, rn, "read", s);
    return false;
  }
  /* Programs with dynamic dimensions are specialized to the arguments. */
  cxla_arg_shape *shapes = cxla_calloc((size_t)(c->nargs ? c->nargs : 1), sizeof *shapes);
  if (!shapes) {
    cxla_free(text);
    set_reason(reason, rn, "setup", cxla_oom());
    return false;
  }
  for (int i = 0; i < c->nargs; i++) shapes[i] = (cxla_arg_shape){c->args[i].rank, c->args[i].dims};
  s = cxla_module_parse_refined(text, len, path, shapes, c->nargs, &m);
  cxla_free(shapes);
  cxla_free(text);
  if (s) {
    set_reason(reason, rn, "parse", s);
    return false;
  }
  bool ok = false;
  cxla_literal **args = NULL, **leaves = NULL;
  int nleaves = 0;
  if ((s = cxla_module_verify(m))) {
    set_reason(reason, rn, "verify", s);
    goto done;
  }
  args = cxla_calloc((size_t)(c->nargs ? c->nargs : 1), sizeof *args);
  if (!args) {
    set_reason(reason, rn, "setup", cxla_oom());
    goto done;
  }
  for (int i = 0; i < c->nargs; i++)
    if ((s = case_load_tensor(&c->args[i], &args[i]))) {
      set_reason(reason, rn, "args", s);
      goto done;
    }
  if ((s = run_module(c, which, ro, m, args, &leaves, &nleaves))) {
    set_reason(reason, rn, "run", s);
    goto done;
  }
  ok = judge(c, leaves, nleaves, reason, rn);
done:
  free_leaves(leaves, nleaves);
  free_literals(args, c->nargs);
  cxla_module_destroy(m);
  return ok;
}

bool conform_run_case(const char *case_dir, const char *which, const ConformRunOptions *ro,
                      char *reason, size_t n) {
  reason[0] = 0;
  Case *c;
  cxla_status s = case_load(case_dir, &c);
  if (s) {
    set_reason(reason, n, "case", s);
    return false;
  }
  bool ok = run_loaded(c, which, ro, reason, n);
  case_free(c);
  return ok;
}
