/* pass_check.h: helpers for the optimizer pass tests (test_pass_fusion.c,
 * test_pass_layout.c): parse a small HLO text, run passes (verifying after
 * each), look at the result, and compare the interpreter's values before
 * and after on fixed inputs; plus a sweep over the corpus.
 *
 * Value checks: the arguments are made up from the parameter shapes
 * (small deterministic values), the original module and the optimized one
 * run on the same arguments, and the results must be bit-identical. When
 * the interpreter cannot run the original module at all, or stops on an op
 * it does not implement yet in the optimized one, the value check is
 * skipped and counted.
 *
 * Everything a helper allocates it frees, except modules it returns (freed
 * with module_destroy by the caller). Include after harness.h. */
#ifndef CXLA_TESTS_PASS_CHECK_H
#define CXLA_TESTS_PASS_CHECK_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "interp/interp.h"
#include "ir/ir.h"
#include "passes/passes.h"
#include "verify/verify.h"

static int pc_value_checks, pc_value_skips;

static inline HloModule *pc_parse(const char *text) {
  HloModule *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "test.hlo", &m);
  if (s) {
    fprintf(stderr, "%s: parse error: %s\n", harness_current, cxla_status_message(s));
    cxla_status_free(s);
    harness_failed_checks++;
    return NULL;
  }
  return m;
}

/* Two modules parsed from text (one to transform, one to compare it
 * with): both, or neither (a failed check). */
static inline bool pc_parse_two(const char *text, HloModule **a, HloModule **b) {
  *a = pc_parse(text);
  *b = *a ? pc_parse(text) : NULL;
  if (*b) return true;
  if (*a) module_destroy(*a);
  *a = NULL;
  return false;
}

/* Runs the comma-separated passes, verifying after each. */
static inline bool pc_run(HloModule *m, const char *passes) {
  char buf[256];
  const char *names[16];
  int n = 0;
  snprintf(buf, sizeof buf, "%s", passes);
  for (char *t = strtok(buf, ","); t && n < 16; t = strtok(NULL, ",")) names[n++] = t;
  PipelineOptions o = {true, NULL, 1};
  cxla_status s = pipeline_run(m, names, n, &o);
  if (s) {
    fprintf(stderr, "%s: passes %s: %s\n", harness_current, passes, cxla_status_message(s));
    cxla_status_free(s);
    harness_failed_checks++;
    return false;
  }
  return true;
}

/* The module's text (caller frees with cxla_free_string). */
static inline char *pc_text(const HloModule *m) {
  char *t = NULL;
  cxla_status s = cxla_module_print(m, &t);
  if (s) cxla_status_free(s);
  return t;
}

/* Instructions with opcode op in c. */
static inline int pc_count(const Computation *c, Opcode op) {
  int n = 0;
  for (int i = 0; i < c->ninstrs; i++) n += c->instrs[i]->op == op;
  return n;
}

/* ... in the whole module. */
static inline int pc_count_module(const HloModule *m, Opcode op) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++) n += pc_count(m->comps[i], op);
  return n;
}

/* The k-th instruction with opcode op in c, or NULL. */
static inline Instr *pc_find(const Computation *c, Opcode op, int k) {
  for (int i = 0; i < c->ninstrs; i++)
    if (c->instrs[i]->op == op && k-- == 0) return c->instrs[i];
  return NULL;
}

static inline Instr *pc_named(const Computation *c, const char *name) {
  return comp_find_instr(c, name);
}

/* Shape has layout m2m (rank entries). */
static inline bool pc_layout_is(const Shape *s, int rank, const int64_t *m2m) {
  if (!s->has_layout || s->rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (s->minor_to_major[i] != m2m[i]) return false;
  return true;
}

/* ---- values ---- */

/* Small deterministic values: floats in [-1.25, 1.25], integers 1..4 (so
 * that a loop counting down to 1 ends), alternating preds. */
static inline void pc_fill(Literal *l, int salt) {
  if (l->type == T_TUPLE) {
    for (int i = 0; i < l->ntuple; i++) pc_fill(l->tuple[i], salt + i);
    return;
  }
  for (int64_t i = 0; i < l->nelems; i++) {
    int64_t k = i * 7 + salt * 3 + 1;
    if (l->type == T_PRED) literal_set_i64(l, i, k % 2);
    else if (type_is_int(l->type)) literal_set_i64(l, i, k % 4 + 1);
    else literal_set_f64(l, i, (double)(k % 11 - 5) / 4.0);
  }
}

static inline void pc_free_args(Literal **args, int n) {
  for (int i = 0; i < n; i++) literal_free(args[i]);
  free(args);
}

/* Arguments for m's entry computation; NULL if a shape has no literal
 * (tokens). */
static inline Literal **pc_args(const HloModule *m, int *n) {
  *n = m->entry->nparams;
  Literal **args = calloc((size_t)*n + 1, sizeof(Literal *));
  for (int i = 0; i < *n; i++) {
    cxla_status s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
    if (s) {
      cxla_status_free(s);
      pc_free_args(args, i);
      return NULL;
    }
    pc_fill(args[i], i);
  }
  return args;
}

/* Fused computations run their adds with the multiplies they take in as
 * FMAs (ir/contract.h), a rounding choice of the backends that fusion
 * turns on: set aside here, where the passes' rewrites are checked bit
 * for bit (test_contract checks the FMAs). */
static inline void pc_no_contract(const HloModule *m) {
  for (int i = 0; i < m->ncomps; i++) m->comps[i]->contract = false;
}

/* Compares the values of `before` and `after` on made-up arguments:
 * 1 same, 0 different or the optimized module failed, -1 skipped (the
 * original does not run). Both lose their FMAs (pc_no_contract). */
static inline int pc_same_values(const HloModule *before, const HloModule *after) {
  pc_no_contract(before);
  pc_no_contract(after);
  int n;
  Literal **args = pc_args(before, &n);
  if (!args) {
    pc_value_skips++;
    return -1;
  }
  Literal *a = NULL, *b = NULL;
  cxla_status s = cxla_interp_run(before, args, n, &a);
  int r;
  if (s) {
    cxla_status_free(s);
    pc_value_skips++;
    r = -1;
  } else if ((s = cxla_interp_run(after, args, n, &b))) {
    /* An op the interpreter does not have yet (a copy the pass added) is
     * not a wrong value: skip. Any other failure is. */
    if (cxla_status_code_of(s) == CXLA_UNIMPLEMENTED) {
      pc_value_skips++;
      r = -1;
    } else {
      fprintf(stderr, "%s: the optimized module fails to run: %s\n", harness_current,
              cxla_status_message(s));
      r = 0;
    }
    cxla_status_free(s);
  } else {
    r = literal_equal(a, b);
    pc_value_checks++;
  }
  literal_free(a);
  literal_free(b);
  pc_free_args(args, n);
  return r;
}

/* Parses text twice, runs the passes on one copy and checks the values
 * agree. Returns the optimized module (caller frees) or NULL. */
static inline HloModule *pc_optimize_checked(const char *text, const char *passes) {
  HloModule *before = pc_parse(text), *after = pc_parse(text);
  if (!before || !after || !pc_run(after, passes)) {
    if (before) module_destroy(before);
    if (after) module_destroy(after);
    return NULL;
  }
  int same = pc_same_values(before, after);
  if (same == 0) {
    fprintf(stderr, "%s: values differ after %s\n", harness_current, passes);
    harness_failed_checks++;
  }
  module_destroy(before);
  return after;
}

/* Runs `passes` with the n-th allocation failing, for every n until the
 * passes complete: each run either succeeds or reports RESOURCE_EXHAUSTED,
 * never crashes or leaks (the module is thrown away after a failure). */
static inline void pc_oom_sweep(const char *text, const char *passes) {
  char buf[256];
  const char *names[16];
  int nn = 0;
  snprintf(buf, sizeof buf, "%s", passes);
  for (char *t = strtok(buf, ","); t && nn < 16; t = strtok(NULL, ",")) names[nn++] = t;
  bool finished = false;
  for (long n = 1; n < 100000 && !finished; n++) {
    HloModule *m = pc_parse(text);
    if (!m) return;
    cxla_status s = NULL;
    cxla_fail_alloc_at(n);
    for (int i = 0; i < nn && !s; i++) {
      bool changed;
      const Pass *p = pass_find(names[i]);
      s = p ? p->run(m, &(PassContext){(int64_t)1 << 20, NULL, false, false, false, false}, &changed) : NULL;
    }
    cxla_fail_alloc_at(0);
    if (!s) {
      finished = true;
      s = verify_module(m);
      CHECK(!s);
    } else {
      CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED);
    }
    cxla_status_free(s);
    module_destroy(m);
  }
  CHECK(finished);
}

/* ---- the corpus ---- */

typedef struct PcCorpusStats {
  int modules, verified, compared, skipped;
} PcCorpusStats;

/* Runs `passes` over every <dir>/<case>/{module,optimized}.hlo: each must
 * verify afterwards and compute the same values. `per_module` (may be
 * NULL) sees each optimized module. Returns false if dir is missing. */
static inline bool pc_corpus(const char *dir, const char *passes,
                      void (*per_module)(const char *name, const HloModule *m),
                      PcCorpusStats *st) {
  memset(st, 0, sizeof *st);
  DIR *d = opendir(dir);
  if (!d) return false;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    static const char *const files[] = {"module.hlo", "optimized.hlo"};
    for (int f = 0; f < 2; f++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, files[f]);
      struct stat sb;
      if (stat(path, &sb) != 0) continue;
      HloModule *before = NULL, *after = NULL;
      cxla_status s = cxla_module_parse_file(path, &before);
      if (!s) s = cxla_module_parse_file(path, &after);
      if (s) {
        fprintf(stderr, "%s: %s: %s\n", harness_current, path, cxla_status_message(s));
        cxla_status_free(s);
        harness_failed_checks++;
      } else {
        st->modules++;
        int failed = harness_failed_checks;
        if (pc_run(after, passes)) {
          st->verified++;
          int same = pc_same_values(before, after);
          if (same == 0) {
            fprintf(stderr, "%s: %s: values differ after %s\n", harness_current, path, passes);
            harness_failed_checks++;
          }
          st->compared += same == 1;
          st->skipped += same < 0;
          if (per_module && failed == harness_failed_checks) {
            char name[600];
            snprintf(name, sizeof name, "%s/%s", e->d_name, files[f]);
            per_module(name, after);
          }
        } else {
          fprintf(stderr, "  (in %s)\n", path);
        }
      }
      if (before) module_destroy(before);
      if (after) module_destroy(after);
    }
  }
  closedir(d);
  return true;
}

#endif
