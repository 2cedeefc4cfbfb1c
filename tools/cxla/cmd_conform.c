/* cxla conform DIR... : run corpus cases and compare with XLA's results.
 *
 * Each case/which pair runs in a child process of its own, so that a crash,
 * a sanitizer report or a runaway loop in one case is reported as that
 * case's failure (with a time limit) instead of ending the whole run. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"
#include "commands.h"
#include "common.h"
#include "conform.h"

static const char usage[] =
    "usage: cxla conform DIR... [options]\n"
    "\n"
    "Finds every case directory (one holding case.json) under the given\n"
    "directories, in sorted order, runs its module.hlo and/or optimized.hlo\n"
    "on the backend with the case's arguments, and compares each result with\n"
    "XLA's (|got - want| <= atol + rtol*|want|; NaN matches NaN; integers\n"
    "exact). StableHLO with dynamic dimensions (jax.export's symbolic\n"
    "shapes) is specialized to the shapes of the case's arguments. Prints one\n"
    "line per failure and ends with\n"
    "\"N passed, M failed[, K skipped]\"; exits 1 if anything failed.\n"
    "\n"
    "options:\n"
    "  --backend NAME       cpu or interp (the reference interpreter); default:\n"
    "                       the first compiled backend this cxla has, else interp\n"
    "  --threads N          worker threads per run (default: the cores)\n"
    "  --which W            which input of each case: hlo (or module: module.hlo),\n"
    "                       optimized (optimized.hlo), mlir (module.mlir, StableHLO\n"
    "                       text), mlirbc (module.mlirbc, the portable artifact),\n"
    "                       both (hlo and optimized; the default) or all\n"
    "  --expect-fail FILE   known failures, one per line:\n"
    "                         case_name[:module|:optimized|:mlir|:mlirbc]  reason\n"
    "                       (# starts a comment). They count as skipped; one\n"
    "                       that passes is reported and counts as failed.\n"
    "  --filter SUBSTR      only cases whose name contains SUBSTR\n"
    "  -j N                 run N cases at a time (default 1)\n"
    "  --timeout SEC        time limit per case run (default 120; 0: none)\n"
    "  --no-fork            run cases in this process (for debuggers)\n"
    "  --no-opt             run the modules as given; by default the optimizer's\n"
    "                       pipeline (cxla opt) runs on each module first\n"
    "  --dump-to DIR        write each module before, during and after\n"
    "                       optimization into DIR/CASE.WHICH/\n"
    "  -v                   also list passing and skipped runs\n"
    "  --help               show this help\n"
    "\n"
    "example:\n"
    "  cxla conform tests/corpus --expect-fail tests/conform_expected_failures.txt\n";

typedef struct Options {
  char **dirs;
  int ndirs;
  bool do_which[4]; /* module, optimized, mlir, mlirbc */
  const char *expect_file, *filter;
  unsigned long long jobs, timeout;
  bool no_fork, verbose;
  ConformRunOptions run;
} Options;

typedef struct Job {
  const char *dir, *name, *which;
  Expect *expect;
  pid_t pid;
  int fd;
  bool started, done, pass;
  double start, secs;
  char reason[1024];
} Job;

typedef struct Tally {
  int passed, failed, skipped;
} Tally;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* ---- running jobs ------------------------------------------------------------------ */

static void run_in_process(Job *j, const ConformRunOptions *ro) {
  j->start = now();
  j->pass = conform_run_case(j->dir, j->which, ro, j->reason, sizeof j->reason);
  j->secs = now() - j->start;
  j->done = true;
}

static bool start_child(Job *j, unsigned long long timeout, const ConformRunOptions *ro) {
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(j->reason, sizeof j->reason, "cannot create a pipe: %s", strerror(errno));
    return false;
  }
  fflush(stdout);
  fflush(stderr);
  j->start = now();
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(j->reason, sizeof j->reason, "cannot fork: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    close(fds[0]);
    if (timeout) alarm((unsigned)timeout);
    char reason[sizeof j->reason];
    bool ok = conform_run_case(j->dir, j->which, ro, reason, sizeof reason);
    if (!ok) {
      size_t n = strlen(reason);
      ssize_t w = write(fds[1], reason, n);
      (void)w;
    }
    close(fds[1]);
    exit(ok ? 0 : 1); /* exit, not _exit: sanitizers check for leaks here */
  }
  close(fds[1]);
  j->pid = pid;
  j->fd = fds[0];
  j->started = true;
  return true;
}

/* Collects a finished child's verdict. */
static void finish_child(Job *j, int status, unsigned long long timeout) {
  j->secs = now() - j->start;
  j->done = true;
  size_t len = 0;
  ssize_t r;
  while (len + 1 < sizeof j->reason &&
         (r = read(j->fd, j->reason + len, sizeof j->reason - 1 - len)) > 0)
    len += (size_t)r;
  j->reason[len] = 0;
  close(j->fd);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    j->pass = false;
    if (sig == SIGALRM)
      snprintf(j->reason, sizeof j->reason, "timed out after %llu s", timeout);
    else
      snprintf(j->reason, sizeof j->reason, "crashed (signal %d, %s)", sig, strsignal(sig));
    return;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0 && len == 0) {
    j->pass = true;
  } else if (code == 1 && len > 0) {
    j->pass = false;
  } else {
    j->pass = false;
    char prev[sizeof j->reason];
    snprintf(prev, sizeof prev, "%s", j->reason);
    snprintf(j->reason, sizeof j->reason,
             "exited with status %d (a sanitizer report on stderr?)%s%.900s", code,
             prev[0] ? "; " : "", prev);
  }
}

/* ---- reporting ------------------------------------------------------------------------ */

static void report(const Options *o, Job *j, Tally *t) {
  if (j->pass && !j->expect) {
    t->passed++;
    if (o->verbose) printf("ok    %s:%s (%.2fs)\n", j->name, j->which, j->secs);
  } else if (j->pass) {
    t->failed++;
    printf("FAIL  %s:%s: unexpectedly passed; remove it from %s (line %d)\n", j->name, j->which,
           o->expect_file, j->expect->line);
  } else if (j->expect) {
    t->skipped++;
    if (o->verbose)
      printf("skip  %s:%s: %s (expected failure: %s)\n", j->name, j->which, j->reason,
             j->expect->reason[0] ? j->expect->reason : "no reason given");
  } else {
    t->failed++;
    printf("FAIL  %s:%s: %s\n", j->name, j->which, j->reason);
  }
  fflush(stdout);
}

static void run_jobs(const Options *o, Job *jobs, int n, Tally *t) {
  int next = 0, printed = 0, running = 0;
  while (printed < n) {
    /* Start as many as allowed. */
    while (!o->no_fork && next < n && running < (int)o->jobs) {
      if (start_child(&jobs[next], o->timeout, &o->run)) running++;
      else jobs[next].done = true; /* reason already set; pass stays false */
      next++;
    }
    if (o->no_fork && next < n) run_in_process(&jobs[next++], &o->run);
    /* Reap one child. */
    if (running > 0) {
      int status;
      pid_t pid = waitpid(-1, &status, 0);
      if (pid < 0 && errno == EINTR) continue;
      for (int i = 0; pid > 0 && i < next; i++)
        if (jobs[i].started && !jobs[i].done && jobs[i].pid == pid) {
          finish_child(&jobs[i], status, o->timeout);
          running--;
        }
      if (pid < 0) running = 0; /* no children left: should not happen */
    }
    /* Print finished jobs in order, so the output does not depend on -j. */
    while (printed < n && jobs[printed].done) report(o, &jobs[printed++], t);
  }
}

/* ---- the command ------------------------------------------------------------------------ */

static const char *const whiches[4] = {"module", "optimized", "mlir", "mlirbc"};

/* Does case directory dir hold module.mlir (w = 2) / module.mlirbc (w = 3)? */
static bool stablehlo_input_exists(const char *dir, int w) {
  char *p = cxla_format("%s/module.%s", dir, whiches[w]);
  if (!p) return true; /* let the run report the allocation failure */
  struct stat st;
  bool ok = stat(p, &st) == 0;
  cxla_free(p);
  return ok;
}

/* --which W: one input of each case, "both" (module and optimized HLO) or
 * "all" four. */
static bool which_select(const char *v, bool *sel) {
  for (int w = 0; w < 4; w++) sel[w] = false;
  if (!strcmp(v, "all")) {
    for (int w = 0; w < 4; w++) sel[w] = true;
    return true;
  }
  if (!strcmp(v, "both")) {
    sel[0] = sel[1] = true;
    return true;
  }
  if (!strcmp(v, "hlo")) v = "module";
  for (int w = 0; w < 4; w++)
    if (!strcmp(v, whiches[w])) sel[w] = true;
  return sel[0] || sel[1] || sel[2] || sel[3];
}

static int parse_options(int argc, char **argv, Options *o) {
  o->dirs = argv + 1;
  o->do_which[0] = o->do_which[1] = true;
  o->jobs = 1;
  o->timeout = 120;
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    bool missing = false;
    int rc;
    if (options_done || a[0] != '-' || !a[1]) {
      o->dirs[o->ndirs++] = argv[i];
      continue;
    }
    if (is_help(a)) {
      fputs(usage, stdout);
      return -1;
    } else if (is_flag(a, "")) {
      options_done = true;
    } else if (strcmp(a, "-v") == 0 || is_flag(a, "verbose")) {
      o->verbose = true;
    } else if (is_flag(a, "no-fork")) {
      o->no_fork = true;
    } else if (is_flag(a, "no-opt")) {
      o->run.no_opt = true;
    } else if (take_value(argc, argv, &i, "dump-to", &v, &missing)) {
      if (missing || !*v) return usage_error("conform", "--dump-to needs a directory");
      o->run.dump_dir = v;
    } else if ((rc = take_backend_option("conform", argc, argv, &i, &o->run.backend)) >= 0) {
      if (rc) return rc;
    } else if (take_value(argc, argv, &i, "which", &v, &missing)) {
      if (missing) return usage_error("conform", "--which needs hlo, optimized, mlir, mlirbc, both or all");
      if (!which_select(v, o->do_which))
        return usage_error("conform",
                           "--which must be hlo (or module), optimized, mlir, mlirbc, both "
                           "(hlo and optimized) or all, not '%s'", v);
    } else if (take_value(argc, argv, &i, "expect-fail", &v, &missing)) {
      if (missing) return usage_error("conform", "--expect-fail needs a file");
      o->expect_file = v;
    } else if (take_value(argc, argv, &i, "filter", &v, &missing)) {
      if (missing) return usage_error("conform", "--filter needs a substring");
      o->filter = v;
    } else if (take_value(argc, argv, &i, "timeout", &v, &missing)) {
      if (missing || !parse_u64(v, &o->timeout) || o->timeout > 1000000)
        return usage_error("conform", "--timeout needs a number of seconds");
    } else if (strncmp(a, "-j", 2) == 0) {
      const char *num = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
      if (!parse_u64(num, &o->jobs) || o->jobs < 1 || o->jobs > 256)
        return usage_error("conform", "-j needs a number from 1 to 256");
    } else {
      return usage_error("conform", "unknown option '%s'", a);
    }
  }
  if (o->ndirs == 0) return usage_error("conform", "missing DIR (e.g. tests/corpus)");
  if (o->run.no_opt && o->run.dump_dir)
    return usage_error("conform", "--dump-to shows the optimizer's work; it cannot go with --no-opt");
  return 0;
}

static void warn_unused(const Options *o, ExpectList *el) {
  if (o->filter) return; /* a filtered run cannot tell */
  for (int i = 0; i < el->n; i++) {
    Expect *e = &el->items[i];
    bool selected = !e->which;
    for (int w = 0; w < 4; w++)
      if (e->which && !strcmp(e->which, whiches[w]) && o->do_which[w]) selected = true;
    if (!e->used && selected)
      print_warning("%s:%d: '%s%s%s' matches no case that ran", el->file, e->line, e->name,
                    e->which ? ":" : "", e->which ? e->which : "");
  }
}

int cmd_conform(int argc, char **argv) {
  Options o = {0};
  int rc = parse_options(argc, argv, &o);
  if (rc) return rc < 0 ? EXIT_OK : rc;

  ExpectList el = {0};
  cxla_status s = NULL;
  if (o.expect_file && (s = expect_list_load(o.expect_file, &el))) return fail_status(s);
  PathList cases = {0};
  for (int i = 0; !s && i < o.ndirs; i++) s = find_cases(o.dirs[i], &cases);
  if (s) {
    path_list_free(&cases);
    expect_list_free(&el);
    return fail_status(s);
  }
  path_list_sort(&cases);

  Job *jobs = cxla_calloc((size_t)cases.n * 4 + 1, sizeof *jobs);
  if (!jobs) {
    path_list_free(&cases);
    expect_list_free(&el);
    return fail_status(cxla_oom());
  }
  int njobs = 0, absent = 0;
  for (int i = 0; i < cases.n; i++) {
    const char *name = base_name(cases.paths[i]);
    if (o.filter && !strstr(name, o.filter)) continue;
    for (int w = 0; w < 4; w++) {
      if (!o.do_which[w]) continue;
      if (w >= 2 && !stablehlo_input_exists(cases.paths[i], w)) {
        /* Cases not made from JAX (the TensorFlow ones) have no StableHLO
         * forms: skipped, and said so. */
        absent++;
        if (o.verbose)
          printf("skip  %s:%s: the case has no module.%s\n", name, whiches[w], whiches[w]);
        continue;
      }
      Job *j = &jobs[njobs++];
      j->dir = cases.paths[i];
      j->name = name;
      j->which = whiches[w];
      j->expect = expect_list_find(&el, name, whiches[w]);
      if (j->expect) j->expect->used = true;
    }
  }
  if (cases.n == 0) {
    print_error("no case directories (holding case.json) under %s%s", o.dirs[0],
                o.ndirs > 1 ? " and the other directories given" : "");
    rc = EXIT_INPUT;
  } else if (njobs == 0 && !absent) {
    print_error("no case name contains '%s'", o.filter);
    rc = EXIT_INPUT;
  } else {
    Tally t = {0, 0, absent};
    run_jobs(&o, jobs, njobs, &t);
    warn_unused(&o, &el);
    if (t.skipped) printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
    else printf("%d passed, %d failed\n", t.passed, t.failed);
    rc = t.failed ? EXIT_INPUT : EXIT_OK;
  }
  cxla_free(jobs);
  path_list_free(&cases);
  expect_list_free(&el);
  return rc;
}
