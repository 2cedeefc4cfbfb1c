/* cxla run MODULE.hlo [ARG.npy ...] [--out DIR] [--random] [--seed N] [--print]
 *          [--no-opt] [--dump-to DIR] [--backend NAME] [--threads N]
 *          [--timeout SECONDS]:
 * compile a module for a backend (through cxla/runtime.h), run it and show
 * or save its results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend_run.h"
#include "base/base.h"
#include "commands.h"
#include "common.h"
#include "run_support.h"
#include "testing/npy.h"

static const char usage[] =
    "usage: cxla run MODULE.hlo [ARG.npy ...] [options]\n"
    "\n"
    "Parses and verifies MODULE.hlo, optimizes it (the default pipeline of\n"
    "'cxla opt'), compiles it for the backend, runs its entry computation\n"
    "and prints each result: its type and shape, and\n"
    "min/max/mean with the first few values. A tuple result is flattened\n"
    "into its array leaves, numbered 0, 1, ... in order.\n"
    "\n"
    "Arguments are .npy files, one per entry parameter, in order; each must\n"
    "match its parameter's element type and shape (bf16 and f8 parameters\n"
    "take unsigned-int files holding the raw bits). A StableHLO program with\n"
    "dynamic dimensions (jax.export with symbolic shapes) is specialized to\n"
    "the shapes of the files given.\n"
    "\n"
    "options:\n"
    "  --random      make the arguments instead (and the data of elided\n"
    "                constants, constant({...})): floats normal(0,1), signed\n"
    "                ints in [-5,5], unsigned in [0,10], pred 0/1\n"
    "  --seed N      seed for --random (default 0); the same seed gives the\n"
    "                same arguments\n"
    "  --print       print every value of each result\n"
    "  --out DIR     write result N to DIR/N.npy (DIR is created if needed)\n"
    "  --no-opt      run the module as given, without the optimizer\n"
    "  --dump-to DIR write the module before, during and after optimization\n"
    "                into DIR (see 'cxla opt --help')\n"
    "  --timeout S   stop the run with an error after S seconds (a loop that\n"
    "                never ends); default: no limit\n"
    BACKEND_OPTIONS_HELP
    "  --help        show this help\n"
    "\n"
    "example:\n"
    "  cxla run tests/corpus/dot_matvec/module.hlo tests/corpus/dot_matvec/args/*.npy\n";

typedef struct RunOptions {
  const char *module;
  char **npy;
  int nnpy;
  const char *out_dir;
  bool random, print, no_opt;
  const char *dump_dir;
  unsigned long long seed;
  double timeout;
  BackendChoice backend;
} RunOptions;

/* Creates dir and its missing parents (like mkdir -p). */
static cxla_status make_dirs(const char *dir) {
  char *p = cxla_strdup(dir);
  if (!p) return cxla_oom();
  cxla_status s = NULL;
  for (char *q = p + 1;; q++) {
    bool end = *q == 0;
    if (*q == '/' || end) {
      *q = 0;
      struct stat sb;
      if (stat(p, &sb) != 0) {
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
          s = ERR(IO, "cannot create %s: %s", p, strerror(errno));
          break;
        }
      } else if (!S_ISDIR(sb.st_mode)) {
        s = ERR(IO, "%s exists and is not a directory", p);
        break;
      }
      if (end) break;
      *q = '/';
    }
  }
  cxla_free(p);
  return s;
}

static cxla_status write_results(const char *dir, cxla_literal **leaves, int n) {
  TRY(make_dirs(dir));
  for (int i = 0; i < n; i++) {
    char *path = cxla_format("%s/%d.npy", dir, i);
    if (!path) return cxla_oom();
    cxla_status s = cxla_npy_write(path, leaves[i]);
    if (!s) printf("wrote %s\n", path);
    cxla_free(path);
    TRY(s);
  }
  return NULL;
}

static void show_results(cxla_literal **leaves, int n, bool all) {
  for (int i = 0; i < n; i++) {
    printf("result %d: ", i);
    if (all) print_values(stdout, leaves[i]);
    else print_summary(stdout, leaves[i]);
  }
}

/* The shapes of the .npy arguments, for programs with dynamic dimensions
 * (jax.export's symbolic shapes), which are specialized to them. */
static cxla_status npy_shapes(char *const *paths, int n, cxla_arg_shape **out, int64_t **dims) {
  *out = NULL;
  *dims = NULL;
  enum { MAXR = 64 };
  cxla_arg_shape *sh = cxla_calloc((size_t)(n ? n : 1), sizeof *sh);
  int64_t *d = cxla_calloc((size_t)(n ? n : 1) * MAXR, sizeof *d);
  if (!sh || !d) {
    cxla_free(sh);
    cxla_free(d);
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) {
    cxla_status s = cxla_npy_read_shape(paths[i], &sh[i].rank, d + (size_t)i * MAXR, MAXR);
    if (s) {
      cxla_free(sh);
      cxla_free(d);
      return cxla_status_annotate(s, "argument %d", i);
    }
    sh[i].dims = d + (size_t)i * MAXR;
  }
  *out = sh;
  *dims = d;
  return NULL;
}

static int run(const RunOptions *o) {
  cxla_module *m = NULL;
  cxla_arg_shape *shapes = NULL;
  int64_t *shape_dims = NULL;
  cxla_status s = NULL;
  if (!o->random) s = npy_shapes(o->npy, o->nnpy, &shapes, &shape_dims);
  if (!s) s = load_module_refined(o->module, true, shapes, o->nnpy > 0 ? o->nnpy : -1, &m);
  cxla_free(shapes);
  cxla_free(shape_dims);
  if (!s && o->random) s = fill_elided_constants(m, o->seed);
  if (s) {
    if (m) cxla_module_destroy(m);
    return fail_status(s);
  }
  cxla_client *client = NULL;
  if ((s = backend_client(&o->backend, &client))) {
    cxla_module_destroy(m);
    return fail_status(s);
  }
  cxla_compile_options co = CXLA_STRUCT_INIT(cxla_compile_options);
  co.no_optimize = o->no_opt;
  co.dump_dir = o->dump_dir;
  co.verify_passes = 1;
  int nargs = cxla_module_num_parameters(m);
  cxla_literal **args = NULL;
  s = o->random ? make_random_args(m, o->seed, &args) : load_npy_args(m, o->npy, o->nnpy, &args);
  cxla_literal **leaves = NULL;
  int nleaves = 0;
  if (!s) s = run_on_backend(client, m, &co, args, nargs, o->timeout, &leaves, &nleaves);
  free_args(args, nargs);
  cxla_module_destroy(m);
  cxla_client_destroy(client);
  if (!s) {
    show_results(leaves, nleaves, o->print);
    if (o->out_dir) s = write_results(o->out_dir, leaves, nleaves);
  }
  free_leaves(leaves, nleaves);
  return s ? fail_status(s) : EXIT_OK;
}

static bool parse_seconds(const char *v, double *out) {
  char *end = NULL;
  double d = strtod(v, &end);
  if (end == v || *end || !(d > 0) || d > 1e9) return false;
  *out = d;
  return true;
}

int cmd_run(int argc, char **argv) {
  RunOptions o = {0};
  /* Positionals are collected in place: argv[1..] is ours to reorder. */
  char **pos = argv + 1;
  int npos = 0;
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    bool missing = false;
    int rc;
    if (!options_done && a[0] == '-' && a[1]) {
      if (is_help(a)) {
        fputs(usage, stdout);
        return EXIT_OK;
      } else if (is_flag(a, "")) {
        options_done = true;
      } else if (is_flag(a, "random")) {
        o.random = true;
      } else if (is_flag(a, "print")) {
        o.print = true;
      } else if (is_flag(a, "no-opt")) {
        o.no_opt = true;
      } else if (take_value(argc, argv, &i, "dump-to", &v, &missing)) {
        if (missing || !*v) return usage_error("run", "--dump-to needs a directory");
        o.dump_dir = v;
      } else if (take_value(argc, argv, &i, "out", &v, &missing)) {
        if (missing || !*v) return usage_error("run", "--out needs a directory");
        o.out_dir = v;
      } else if (take_value(argc, argv, &i, "seed", &v, &missing)) {
        if (missing || !parse_u64(v, &o.seed))
          return usage_error("run", "--seed needs a non-negative integer");
      } else if (take_value(argc, argv, &i, "timeout", &v, &missing)) {
        if (missing || !parse_seconds(v, &o.timeout))
          return usage_error("run", "--timeout needs a positive number of seconds");
      } else if ((rc = take_backend_option("run", argc, argv, &i, &o.backend)) >= 0) {
        if (rc) return rc;
      } else {
        return usage_error("run", "unknown option '%s'", a);
      }
      continue;
    }
    pos[npos++] = argv[i];
  }
  if (npos == 0) return usage_error("run", "missing MODULE.hlo");
  o.module = pos[0];
  o.npy = pos + 1;
  o.nnpy = npos - 1;
  if (o.no_opt && o.dump_dir)
    return usage_error("run", "--dump-to shows the optimizer's work; it cannot go with --no-opt");
  if (o.random && o.nnpy)
    return usage_error("run", "--random makes the arguments; do not pass .npy files too");
  return run(&o);
}
