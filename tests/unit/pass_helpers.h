/* pass_helpers.h: shared scaffolding for the optimizer pass tests
 * (tests/unit/test_pass_*.c). Include after harness.h.
 *
 *   HloModule *m = pt_parse(text);              parse + verify (NULL on error)
 *   pt_run(m, "dce,cse")                        run passes with verification on
 *   char *t = pt_print(m);                      text (free with cxla_free_string)
 *   pt_count(m, "add")                          instructions with that opcode,
 *                                               over all computations
 *   pt_check(text, "dce", pattern...)           the common HLO-in/HLO-out test
 */
#ifndef CXLA_PASS_HELPERS_H
#define CXLA_PASS_HELPERS_H

#include <stdlib.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"
#include "verify/verify.h"

static inline HloModule *pt_parse(const char *text) {
  HloModule *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "test.hlo", &m));
  if (m) {
    cxla_status s = verify_module(m);
    if (s) {
      CHECK_OK(s);
      module_destroy(m);
      return NULL;
    }
  }
  return m;
}

/* Runs the comma-separated passes (NULL: the default pipeline) with the
 * verifier on after every pass. Returns the status's code (CXLA_OK = 0). */
static inline int pt_run(HloModule *m, const char *csv) {
  PipelineOptions o = {true, NULL, 1};
  cxla_status s;
  if (!csv) {
    s = pipeline_run(m, NULL, 0, &o);
  } else {
    char buf[512];
    const char *names[32];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", csv);
    for (char *tok = strtok(buf, ","); tok && n < 32; tok = strtok(NULL, ",")) names[n++] = tok;
    s = pipeline_run(m, names, n, &o);
  }
  int code = (int)cxla_status_code_of(s);
  CHECK_OK(s);
  return code;
}

static inline char *pt_print(const HloModule *m) {
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  return t;
}

static inline int pt_count(const HloModule *m, const char *opname) {
  int n = 0;
  for (int c = 0; c < m->ncomps; c++)
    for (int i = 0; i < m->comps[c]->ninstrs; i++)
      if (strcmp(op_name(m->comps[c]->instrs[i]->op), opname) == 0) n++;
  return n;
}

/* Occurrences of a substring. */
static inline int pt_occurs(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

/* The root's opcode name of the entry computation. */
static inline const char *pt_root_op(const HloModule *m) {
  return m && m->entry && m->entry->root ? op_name(m->entry->root->op) : "?";
}

#endif
