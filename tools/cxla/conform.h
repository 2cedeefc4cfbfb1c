/* conform.h: the pieces of `cxla conform`:
 *   conform_list.c  finding case directories; the expected-failure list
 *   conform_run.c   running one case on a backend and judging its results
 *   cmd_conform.c   options, isolation of each run in a child process,
 *                   reporting
 *
 * Ownership: a PathList owns its strings (path_list_free); an ExpectList
 * owns its entries (expect_list_free). */
#ifndef CXLA_TOOL_CONFORM_H
#define CXLA_TOOL_CONFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "backend_run.h"
#include "cxla/cxla.h"

typedef struct PathList {
  int n, cap;
  char **paths;
} PathList;

/* Appends every directory at or under `root` that holds a case.json (not
 * looking inside case directories; skipping hidden and "*.tmp" entries). */
cxla_status find_cases(const char *root, PathList *out);
/* Sorts by strcmp and drops duplicates. */
void path_list_sort(PathList *l);
void path_list_free(PathList *l);

/* One line of the expected-failure file: "case[:module|:optimized]  reason". */
typedef struct Expect {
  char *name;       /* the case name */
  char *which;      /* "module", "optimized", or NULL for both */
  char *reason;     /* the rest of the line ("" if none) */
  int line;
  bool used;        /* matched a run */
} Expect;

typedef struct ExpectList {
  const char *file;
  int n, cap;
  Expect *items;
} ExpectList;

cxla_status expect_list_load(const char *path, ExpectList *out);
/* The entry that covers case `name` run as `which`, or NULL. */
Expect *expect_list_find(ExpectList *l, const char *name, const char *which);
void expect_list_free(ExpectList *l);

/* How a case's module is prepared before it runs. */
typedef struct ConformRunOptions {
  bool no_opt;           /* run the module as given (no optimizer pipeline) */
  const char *dump_dir;  /* pipeline dumps go to dump_dir/<case>.<which>/; or NULL */
  BackendChoice backend; /* where the cases run */
} ConformRunOptions;

/* Runs case_dir's `which` ("module"/"optimized") HLO on ro->backend,
 * after the optimizer's default pipeline unless ro->no_opt, and compares
 * with the expected results. Returns true on a pass; otherwise writes a
 * one-line reason into reason[0..n). */
bool conform_run_case(const char *case_dir, const char *which, const ConformRunOptions *ro,
                      char *reason, size_t n);

#endif
