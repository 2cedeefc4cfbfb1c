/* cxla bench MODULE.hlo [ARG.npy ...] [options]: time each stage of running
 * a module -- parse, verify, optimize, compile, run -- and report the run
 * time's median, min and max over several runs, and the peak memory.
 *
 * bench/run.py calls this with --json to compare cxla against XLA:CPU; the
 * keys of that object are listed in `usage` and bench/README.md. Timing is
 * wall-clock (CLOCK_MONOTONIC). The module runs through the runtime API
 * (cxla/runtime.h) on the chosen backend; the report names it and its
 * thread count. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "backend_run.h"
#include "base/base.h"
#include "commands.h"
#include "common.h"
#include "profile.h"
#include "run_support.h"
#include "testing/npy.h"

static const char usage[] =
    "usage: cxla bench MODULE.hlo [ARG.npy ...] [options]\n"
    "\n"
    "Times the stages of running MODULE.hlo: parse (read + parse the text),\n"
    "verify, optimize (the default pass pipeline, as `cxla run` uses), compile\n"
    "(buffer planning and the backend's code generation, with its parts:\n"
    "emitting code, LLVM, and whether a compile cache hit) and run: the median, min and max of --iters runs after --warmup runs.\n"
    "Also reports the peak resident memory of the process (getrusage).\n"
    "\n"
    "Arguments are .npy files, one per entry parameter, as for `cxla run`,\n"
    "or --random ones.\n"
    "\n"
    "options:\n"
    "  --random          make the arguments (as `cxla run --random`)\n"
    "  --seed N          seed for --random (default 0)\n"
    "  --iters N         timed runs (default 10, at least 1)\n"
    "  --warmup N        untimed runs first (default 1)\n"
    "  --warmup-seconds S  after the --warmup runs (when there are any), more\n"
    "                    untimed runs until the warm-up has taken S seconds\n"
    "                    (default 0): a program's first runs over freshly\n"
    "                    allocated memory can be slower for several runs\n"
    "  --min-seconds S   after the --iters timed runs, more timed runs until the\n"
    "                    timed runs together have taken S seconds (default 0;\n"
    "                    at most 1000000 runs): a short program's median then\n"
    "                    stands on enough samples that a moment's noise from\n"
    "                    other processes does not move it\n"
    "  --max-seconds S   stop starting runs once S seconds of running (warm-up\n"
    "                    included) have passed; at least one run is always\n"
    "                    timed. If the warm-up alone used up S, its last run is\n"
    "                    the only sample (\"from_warmup\": true). Default 60;\n"
    "                    0 means no limit\n"
    "  --no-opt          skip the optimizer\n"
    "  --dump-to DIR     write the module before, during and after optimization\n"
    "                    and, with a compiling backend, its code: LLVM IR of\n"
    "                    every kernel before and after LLVM's optimization, and\n"
    "                    the assembly (see 'cxla opt --help'); the compile\n"
    "                    cache is not used then\n"
    BACKEND_OPTIONS_HELP
    "  --out DIR         write the last run's result N to DIR/N.npy\n"
    "  --progress        print \"progress: run K start T\" and \"progress: run K\n"
    "                    done T SECS\" on stderr around each run (T: the\n"
    "                    CLOCK_MONOTONIC time), for callers that may kill a\n"
    "                    slow run\n"
    "  --profile [N]     also time each step of the timed runs (kernels, GEMMs,\n"
    "                    routines; the cpu backend) and print the totals per\n"
    "                    kind and the N costliest steps (default 25) with\n"
    "                    their ms per run, GFLOP/s and HLO name (on stderr\n"
    "                    with --json); off: no clock is read per step\n"
    "  --json            print one JSON object instead of text, with keys\n"
    "                    module, backend, threads, optimized, parse_s, verify_s,\n"
    "                    optimize_s, compile_s, plan_s, codegen_s, llvm_s,\n"
    "                    cache_hit, run_median_s, run_min_s,\n"
    "                    run_max_s, runs, warmup_runs, iters, stopped_early,\n"
    "                    from_warmup, max_seconds, total_run_s, peak_rss_bytes,\n"
    "                    base_rss_bytes (resident memory with the arguments\n"
    "                    loaded, before optimizing; peak_rss_bytes is the\n"
    "                    peak from there on (optimize, compile, runs)\n"
    "                    where Linux lets the peak be reset), results\n"
    "  --help            show this help\n"
    "\n"
    "example:\n"
    "  cxla bench bench/cases/matmul_f32_256/module.hlo --random --iters 20 --json\n";

typedef struct BenchOptions {
  const char *module, *out_dir, *dump_dir;
  char **npy;
  int nnpy;
  bool random, json, no_opt, progress;
  unsigned long long seed, iters, warmup;
  int profile_top;        /* --profile: steps listed (0: no profile) */
  StepProfile *profile;
  double max_seconds;
  double warmup_seconds; /* --warmup-seconds */
  double min_seconds;    /* --min-seconds */
  BackendChoice backend;
} BenchOptions;

/* What one bench measured; seconds unless named otherwise. */
typedef struct BenchReport {
  double parse, verify, optimize, compile;
  double median, min, max, total_run;
  int runs, warmup_runs, results;
  bool optimized, stopped_early, from_warmup;
  long long peak_rss_bytes;
  long long base_rss_bytes; /* before loading the module (-1: unknown) */
  double plan, codegen, llvm; /* parts of compile */
  bool cache_hit;
  const char *backend;  /* the backend that ran (static storage) */
  bool compiled;        /* whether it generates code */
  int threads;
} BenchReport;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The process's peak resident memory. Linux's VmHWM (/proc/self/status)
 * first: getrusage's ru_maxrss survives fork + exec, so a child of a big
 * process (bench/run.py with XLA loaded) would report its parent's peak. */
static long long proc_status_kib(const char *fmt) {
  FILE *f = fopen("/proc/self/status", "r");
  long long kib = -1;
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, fmt, &kib) == 1) break;
    fclose(f);
  }
  return kib;
}

static long long peak_rss_bytes(void) {
  long long kib = proc_status_kib("VmHWM: %lld kB");
  if (kib >= 0) return kib * 1024;
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
  return (long long)ru.ru_maxrss * 1024; /* Linux reports KiB */
}

/* Resets the process's peak resident memory (VmHWM) to what is resident
 * now (Linux: /proc/self/clear_refs "5"); where that is not possible the
 * peak stays the process's. */
static void reset_peak_rss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return;
  fputs("5", f);
  fclose(f);
}

/* The resident memory now (VmRSS), or -1 where /proc is missing: the
 * baseline that peak_rss_bytes is compared with (what compiling and
 * running the program added, as bench/run.py measures XLA's side). */
static long long rss_bytes(void) {
  long long kib = proc_status_kib("VmRSS: %lld kB");
  return kib >= 0 ? kib * 1024 : -1;
}

/* ---- stages ---------------------------------------------------------------- */

/* Reads, parses and verifies the module, timing parse and verify apart. */
static cxla_status load_timed(const char *path, cxla_module **out, BenchReport *r) {
  *out = NULL;
  double t0 = now_s();
  char *text = NULL;
  size_t len = 0;
  TRY(read_text_file(path, &text, &len));
  cxla_status s = cxla_module_parse(text, len, path, out);
  cxla_free(text);
  TRY(s);
  double t1 = now_s();
  s = cxla_module_verify(*out);
  r->parse = t1 - t0;
  r->verify = now_s() - t1;
  if (s) {
    cxla_module_destroy(*out);
    *out = NULL;
  }
  return s;
}

/* The default pass pipeline, timed, without the verifier between passes (a
 * compiler's production setting); the result is verified once afterwards,
 * untimed, so that a pass that breaks the module is caught here rather than
 * as a wrong or failed run. */
static cxla_status optimize_timed(cxla_module *m, cxla_client *client, bool skip,
                                  const char *dump_dir, BenchReport *r) {
  r->optimize = 0.0;
  r->optimized = false;
  if (skip) return NULL;
  cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
  co.dump_dir = dump_dir;
  double t0 = now_s();
  TRY(cxla_client_optimize(client, m, &co)); /* as the client's compile does it */
  r->optimize = now_s() - t0;
  r->optimized = true;
  return cxla_module_verify(m);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts the run times (qsort: --iters may ask for millions of a tiny
 * program's runs). */
static void sort_doubles(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmp_double); }

static void summarize(double *t, int n, BenchReport *r) {
  sort_doubles(t, n);
  r->min = t[0];
  r->max = t[n - 1];
  r->median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  r->runs = n;
}

/* One run (number k, warm-up runs included); the previous *last result is
 * replaced by the new one. With --progress, stderr gets
 * "progress: run K start T" and "progress: run K done T SECS" (T: the
 * CLOCK_MONOTONIC time in seconds, which Python's time.monotonic() reads on
 * Linux), so that a caller that kills a slow run still knows how far it got
 * and how long the unfinished run had been going. */
static cxla_status run_once(cxla_executable *e, cxla_buffer *const *args, int nargs,
                            const BenchOptions *o, int k, cxla_buffer **results, double *secs) {
  int n = cxla_executable_num_results(e);
  for (int i = 0; i < n; i++) {
    cxla_buffer_destroy(results[i]);
    results[i] = NULL;
  }
  /* the progress line (a write to stderr, about a microsecond) is printed
   * before the clock starts: a tiny program's run would count it */
  if (o->progress) fprintf(stderr, "progress: run %d start %.6f\n", k, now_s());
  double t0 = now_s();
  cxla_execute_options xo = CXLA_STRUCT_INIT(cxla_execute_options);
  if (o->profile) {
    xo.profile = step_profile_record;
    xo.profile_arg = o->profile;
  }
  cxla_status s = cxla_executable_execute(e, args, nargs, &xo, results, NULL);
  double t1 = now_s();
  *secs = t1 - t0;
  if (s) return s;
  if (o->progress)
    fprintf(stderr, "progress: run %d done %.6f %.9g\n", k, t1, *secs);
  return NULL;
}

/* most timed runs --min-seconds adds up to */
enum { kMaxRuns = 1000000 };

/* The warm-up and timed runs, under the --max-seconds budget (see usage). */
static cxla_status run_timed(cxla_executable *m, cxla_buffer *const *args, int nargs,
                             const BenchOptions *o, cxla_buffer **last, BenchReport *r) {
  int iters = o->iters > 0 ? (int)o->iters : 1;
  double *t = cxla_calloc((size_t)iters, sizeof *t);
  if (!t) return cxla_oom();
  double start = now_s(), secs = 0.0;
  bool limited = o->max_seconds > 0;
  cxla_status s = NULL;
  for (unsigned long long w = 0;
       !s && (w < o->warmup || (o->warmup > 0 && now_s() - start < o->warmup_seconds)); w++) {
    s = run_once(m, args, nargs, o, r->warmup_runs + 1, last, &secs);
    if (!s) r->warmup_runs++;
    if (limited && now_s() - start > o->max_seconds) break;
  }
  int n = 0, cap = iters;
  double timed = 0.0;
  if (!s && r->warmup_runs > 0 && limited && now_s() - start > o->max_seconds) {
    t[n++] = secs; /* the warm-up used up the budget: its last run is the sample */
    r->from_warmup = true;
    r->stopped_early = true;
  }
  if (o->profile) step_profile_enable(o->profile, true);
  while (!s && (n < iters || (timed < o->min_seconds && n < kMaxRuns)) && !r->from_warmup) {
    if (n == cap) {
      /* --min-seconds: more samples than --iters */
      int grown = cap < kMaxRuns / 2 ? 2 * cap : kMaxRuns;
      double *g = cxla_realloc(t, (size_t)grown * sizeof *g);
      if (!g) {
        s = cxla_oom();
        break;
      }
      t = g;
      cap = grown;
    }
    s = run_once(m, args, nargs, o, r->warmup_runs + n + 1, last, &t[n]);
    if (s) break;
    timed += t[n++];
    if ((n < iters || timed < o->min_seconds) && limited && now_s() - start > o->max_seconds) {
      r->stopped_early = n < iters;
      break;
    }
  }
  r->total_run = now_s() - start;
  if (!s) summarize(t, n, r);
  if (o->profile) step_profile_enable(o->profile, false);
  cxla_free(t);
  return s;
}

/* ---- output ---------------------------------------------------------------- */

static cxla_status write_results(const char *dir, cxla_buffer **results, int n) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return ERR(IO, "cannot create %s: %s", dir, strerror(errno));
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    char *path = cxla_format("%s/%d.npy", dir, i);
    cxla_literal *l = NULL;
    s = path ? cxla_buffer_to_literal(results[i], &l) : cxla_oom();
    if (!s) s = cxla_npy_write(path, l);
    cxla_literal_destroy(l);
    cxla_free(path);
  }
  return s;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void print_json(const BenchOptions *o, const BenchReport *r) {
  printf("{\"module\": ");
  json_string(stdout, o->module);
  printf(", \"backend\": ");
  json_string(stdout, r->backend);
  printf(", \"threads\": %d, \"optimized\": %s,\n", r->threads,
         r->optimized ? "true" : "false");
  printf(" \"parse_s\": %.9g, \"verify_s\": %.9g, \"optimize_s\": %.9g, \"compile_s\": %.9g,\n",
         r->parse, r->verify, r->optimize, r->compile);
  printf(" \"plan_s\": %.9g, \"codegen_s\": %.9g, \"llvm_s\": %.9g, \"cache_hit\": %s,\n",
         r->plan, r->codegen, r->llvm, r->cache_hit ? "true" : "false");
  printf(" \"run_median_s\": %.9g, \"run_min_s\": %.9g, \"run_max_s\": %.9g,\n", r->median,
         r->min, r->max);
  printf(" \"runs\": %d, \"warmup_runs\": %d, \"iters\": %llu, \"stopped_early\": %s,"
         " \"from_warmup\": %s, \"max_seconds\": %.9g, \"total_run_s\": %.9g,\n",
         r->runs, r->warmup_runs, o->iters, r->stopped_early ? "true" : "false",
         r->from_warmup ? "true" : "false", o->max_seconds, r->total_run);
  printf(" \"peak_rss_bytes\": %lld, \"base_rss_bytes\": %lld, \"results\": %d}\n",
         r->peak_rss_bytes, r->base_rss_bytes, r->results);
}

static void print_text(const BenchOptions *o, const BenchReport *r) {
  printf("module     %s\n", o->module);
  printf("backend    %s (%s, %d thread%s)\n", r->backend,
         r->compiled ? "compiled" : "interpreted", r->threads, r->threads == 1 ? "" : "s");
  printf("parse      %.6f s\n", r->parse);
  printf("verify     %.6f s\n", r->verify);
  if (r->optimized) printf("optimize   %.6f s\n", r->optimize);
  else
    printf("optimize   0 s (--no-opt)\n");
  printf("compile    %.6f s (buffer plan %.6f s, codegen %.6f s, llvm %.6f s, cache %s)\n",
         r->compile, r->plan, r->codegen, r->llvm, r->cache_hit ? "hit" : "miss");
  printf("run        median %.6f s, min %.6f s, max %.6f s over %d run%s", r->median, r->min,
         r->max, r->runs, r->runs == 1 ? "" : "s");
  printf(" after %d warm-up run%s\n", r->warmup_runs, r->warmup_runs == 1 ? "" : "s");
  if (r->from_warmup)
    printf("           (the warm-up alone took over --max-seconds %g: its last run is the "
           "sample)\n", o->max_seconds);
  else if (r->stopped_early)
    printf("           (stopped after %d of %llu runs: --max-seconds %g)\n", r->runs, o->iters,
           o->max_seconds);
  printf("peak RSS   %.1f MiB", (double)r->peak_rss_bytes / (1024.0 * 1024.0));
  if (r->base_rss_bytes >= 0)
    printf(" (%.1f MiB over the %.1f MiB with the arguments loaded)",
           (double)(r->peak_rss_bytes - r->base_rss_bytes) / (1024.0 * 1024.0),
           (double)r->base_rss_bytes / (1024.0 * 1024.0));
  printf("\n");
}

/* ---- the command ----------------------------------------------------------- */

/* Compiles the optimized module, timed; the client's backend and threads
 * go into the report. */
static cxla_status compile_timed(cxla_client *c, const cxla_module *m, const char *dump_dir,
                                 BenchReport *r, cxla_executable **out) {
  cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
  co.no_optimize = 1; /* optimize_timed did it */
  co.dump_dir = dump_dir; /* the backend's dumps; no cache then */
  double t0 = now_s();
  TRY(cxla_client_compile(c, m, &co, out));
  r->compile = now_s() - t0;
  cxla_compile_stats st = CXLA_STRUCT_INIT(cxla_compile_stats);
  TRY(cxla_executable_compile_stats(*out, &st));
  r->plan = st.plan_seconds;
  r->codegen = st.codegen_seconds;
  r->llvm = st.llvm_seconds;
  r->cache_hit = st.cache_hit != 0;
  r->backend = cxla_client_backend(c);
  r->threads = cxla_client_num_threads(c);
  r->compiled = cxla_client_compiles(c);
  return NULL;
}

static int bench(const BenchOptions *o) {
  BenchReport r = {0};
  cxla_module *m = NULL;
  cxla_client *client = NULL;
  cxla_executable *e = NULL;
  cxla_status s = load_timed(o->module, &m, &r);
  if (s) return fail_status(s);
  s = backend_client(&o->backend, &client);
  /* The arguments go into the client's buffers first: the memory the case
   * adds is then what optimizing, compiling and running take, measured
   * from here as bench/run.py measures XLA's side (its arguments exist
   * before; lowering and compiling count). The optimizer keeps the entry
   * parameters' shapes. */
  int nargs = cxla_module_num_parameters(m);
  cxla_literal **args = NULL;
  if (!s)
    s = o->random ? make_random_args(m, o->seed, &args) : load_npy_args(m, o->npy, o->nnpy, &args);
  cxla_buffer **bufs = NULL;
  if (!s) s = buffers_from_literals(client, args, nargs, &bufs);
  free_args(args, nargs);
  reset_peak_rss();
  r.base_rss_bytes = rss_bytes();
  if (!s) s = optimize_timed(m, client, o->no_opt, o->dump_dir, &r);
  if (!s) s = compile_timed(client, m, o->dump_dir, &r, &e);
  cxla_module_destroy(m);
  int nres = e ? cxla_executable_num_results(e) : 0;
  cxla_buffer **last = cxla_calloc((size_t)nres + 1, sizeof *last);
  if (!s && !last) s = cxla_oom();
  if (!s) s = run_timed(e, bufs, nargs, o, last, &r);
  r.peak_rss_bytes = peak_rss_bytes();
  free_buffers(bufs, nargs);
  r.results = nres;
  if (!s && o->out_dir) s = write_results(o->out_dir, last, nres);
  if (last) free_buffers(last, nres);
  if (!s) {
    if (o->json) print_json(o, &r);
    else print_text(o, &r);
    /* the profile's names live as long as the executable */
    if (o->profile) step_profile_print(o->profile, o->json ? stderr : stdout, r.runs, r.median, o->profile_top);
  }
  cxla_executable_destroy(e);
  cxla_client_destroy(client);
  if (s) return fail_status(s);
  return EXIT_OK;
}

static bool parse_seconds(const char *v, double *out) {
  char *end = NULL;
  errno = 0;
  double d = strtod(v, &end);
  if (errno || end == v || *end || !(d >= 0) || d > 1e9) return false;
  *out = d;
  return true;
}

/* Scans one option at argv[*i]; returns -1 if it was fine, else the exit
 * status to return (help or a usage error). */
static int take_option(int argc, char **argv, int *i, BenchOptions *o) {
  const char *a = argv[*i], *v = NULL;
  bool missing = false;
  int rc;
  if (is_help(a)) {
    fputs(usage, stdout);
    return EXIT_OK;
  } else if (is_flag(a, "random")) {
    o->random = true;
  } else if (is_flag(a, "json")) {
    o->json = true;
  } else if (is_flag(a, "no-opt")) {
    o->no_opt = true;
  } else if (is_flag(a, "progress")) {
    o->progress = true;
  } else if (is_flag(a, "profile")) {
    o->profile_top = 25;
    unsigned long long top;
    if (*i + 1 < argc && parse_u64(argv[*i + 1], &top)) {
      if (top < 1 || top > 1000000) return usage_error("bench", "--profile N needs N from 1 to 1000000");
      o->profile_top = (int)top;
      (*i)++;
    }
  } else if ((rc = take_backend_option("bench", argc, argv, i, &o->backend)) >= 0) {
    return rc ? rc : -1;
  } else if (take_value(argc, argv, i, "out", &v, &missing)) {
    if (missing || !*v) return usage_error("bench", "--out needs a directory");
    o->out_dir = v;
  } else if (take_value(argc, argv, i, "dump-to", &v, &missing)) {
    if (missing || !*v) return usage_error("bench", "--dump-to needs a directory");
    o->dump_dir = v;
  } else if (take_value(argc, argv, i, "seed", &v, &missing)) {
    if (missing || !parse_u64(v, &o->seed))
      return usage_error("bench", "--seed needs a non-negative integer");
  } else if (take_value(argc, argv, i, "iters", &v, &missing)) {
    if (missing || !parse_u64(v, &o->iters) || o->iters < 1 || o->iters > 1000000)
      return usage_error("bench", "--iters needs an integer from 1 to 1000000");
  } else if (take_value(argc, argv, i, "warmup", &v, &missing)) {
    if (missing || !parse_u64(v, &o->warmup) || o->warmup > 1000000)
      return usage_error("bench", "--warmup needs an integer from 0 to 1000000");
  } else if (take_value(argc, argv, i, "warmup-seconds", &v, &missing)) {
    if (missing || !parse_seconds(v, &o->warmup_seconds))
      return usage_error("bench", "--warmup-seconds needs a non-negative number of seconds");
  } else if (take_value(argc, argv, i, "min-seconds", &v, &missing)) {
    if (missing || !parse_seconds(v, &o->min_seconds))
      return usage_error("bench", "--min-seconds needs a non-negative number of seconds");
  } else if (take_value(argc, argv, i, "max-seconds", &v, &missing)) {
    if (missing || !parse_seconds(v, &o->max_seconds))
      return usage_error("bench", "--max-seconds needs a non-negative number of seconds");
  } else {
    return usage_error("bench", "unknown option '%s'", a);
  }
  return -1;
}

int cmd_bench(int argc, char **argv) {
  BenchOptions o = {.iters = 10, .warmup = 1, .max_seconds = 60.0};
  /* Positionals are collected in place: argv[1..] is ours to reorder. */
  char **pos = argv + 1;
  int npos = 0;
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!options_done && a[0] == '-' && a[1]) {
      if (is_flag(a, "")) {
        options_done = true;
        continue;
      }
      int rc = take_option(argc, argv, &i, &o);
      if (rc >= 0) return rc;
      continue;
    }
    pos[npos++] = argv[i];
  }
  if (npos == 0) return usage_error("bench", "missing MODULE.hlo");
  o.module = pos[0];
  o.npy = pos + 1;
  o.nnpy = npos - 1;
  if (o.random && o.nnpy > 0)
    return usage_error("bench", "give either .npy arguments or --random, not both");
  if (o.profile_top > 0) {
    cxla_status s = step_profile_create(&o.profile);
    if (s) return fail_status(s);
  }
  int rc = bench(&o);
  step_profile_destroy(o.profile);
  return rc;
}
