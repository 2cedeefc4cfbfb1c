/* cxla opt MODULE.hlo [--passes a,b,c] [--list-passes] [-o OUT.hlo]
 *          [--dump-to DIR] [--no-verify]:
 * run the optimizer's passes over a module and print the result. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "ir/rewrite.h"
#include "passes/passes.h"

static const char usage[] =
    "usage: cxla opt MODULE.hlo [options]\n"
    "\n"
    "Parses and verifies MODULE.hlo, runs the optimizer's default pipeline\n"
    "(or the passes named with --passes, in that order) and prints the\n"
    "optimized module. The verifier runs after every pass that changed the\n"
    "module; an error names the pass that broke it.\n"
    "\n"
    "options:\n"
    "  --passes A,B,C   run exactly these passes, in order (see --list-passes)\n"
    "  --list-passes    list the passes with a one-line summary each, and exit\n"
    "  -o OUT.hlo       write the optimized module to OUT.hlo instead of stdout\n"
    "  --dump-to DIR    write the module before and after the pipeline and\n"
    "                   after every pass that changed it into DIR (created if\n"
    "                   needed), named like XLA's --xla_dump_to files:\n"
    "                   module_0001.NAME.0003.after_PASS.txt\n"
    "  --no-verify      do not verify the input nor the module between passes\n"
    "  --help           show this help\n"
    "\n"
    "example:\n"
    "  cxla opt tests/corpus/model_mlp_forward/module.hlo --passes call-inliner,algsimp,dce\n";

enum { MAX_PASSES = 256 };

typedef struct OptOptions {
  const char *module, *out, *dump_dir, *passes;
  bool no_verify;
} OptOptions;

static void list_passes(void) {
  int n;
  const Pass *p = pass_registry(&n);
  for (int i = 0; i < n; i++) printf("%-20s %s\n", p[i].name, p[i].summary);
}

/* Splits "a,b,c" in place into names[]; returns their number, or -1 (with
 * a usage error printed) if the list is malformed or names an unknown pass. */
static int split_passes(char *list, const char **names) {
  int n = 0;
  for (char *p = list;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!*p) return usage_error("opt", "--passes has an empty pass name"), -1;
    if (!pass_find(p))
      return usage_error("opt", "unknown pass '%s' (cxla opt --list-passes lists them)", p), -1;
    if (n == MAX_PASSES) return usage_error("opt", "--passes names too many passes"), -1;
    names[n++] = p;
    if (!comma) return n;
    p = comma + 1;
  }
}

static cxla_status write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f) return ERR(IO, "cannot write %s: %s", path, strerror(errno));
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  ok &= fclose(f) == 0;
  return ok ? NULL : ERR(IO, "error writing %s", path);
}

static int optimize(const OptOptions *o, const char **names, int npasses) {
  cxla_module *m;
  cxla_status s = load_module(o->module, !o->no_verify, &m);
  if (s) return fail_status(s);
  int before = module_instr_count(m);
  PipelineOptions po = {!o->no_verify, o->dump_dir, 1};
  s = pipeline_run(m, o->passes ? names : NULL, npasses, &po);
  char *text = NULL;
  if (!s) s = cxla_module_print(m, &text);
  int after = module_instr_count(m);
  cxla_module_destroy(m);
  if (!s && o->out) {
    s = write_text(o->out, text);
    if (!s) printf("wrote %s (%d instructions, %d before)\n", o->out, after, before);
  } else if (!s) {
    fputs(text, stdout);
  }
  cxla_free_string(text);
  return s ? fail_status(s) : EXIT_OK;
}

int cmd_opt(int argc, char **argv) {
  OptOptions o = {0};
  bool list = false, options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    bool missing = false;
    if (!options_done && a[0] == '-' && a[1]) {
      if (is_help(a)) {
        fputs(usage, stdout);
        return EXIT_OK;
      } else if (is_flag(a, "")) {
        options_done = true;
      } else if (is_flag(a, "list-passes")) {
        list = true;
      } else if (is_flag(a, "no-verify")) {
        o.no_verify = true;
      } else if (strcmp(a, "-o") == 0 || take_value(argc, argv, &i, "out", &v, &missing)) {
        if (strcmp(a, "-o") == 0) {
          missing = i + 1 >= argc;
          v = missing ? NULL : argv[++i];
        }
        if (missing || !*v) return usage_error("opt", "-o needs a file name");
        o.out = v;
      } else if (take_value(argc, argv, &i, "dump-to", &v, &missing)) {
        if (missing || !*v) return usage_error("opt", "--dump-to needs a directory");
        o.dump_dir = v;
      } else if (take_value(argc, argv, &i, "passes", &v, &missing)) {
        if (missing) return usage_error("opt", "--passes needs a comma-separated list");
        o.passes = v;
      } else {
        return usage_error("opt", "unknown option '%s'", a);
      }
      continue;
    }
    if (o.module) return usage_error("opt", "expected one module file, got '%s' too", a);
    o.module = a;
  }
  if (list) {
    list_passes();
    return EXIT_OK;
  }
  if (!o.module) return usage_error("opt", "missing MODULE.hlo");
  const char *names[MAX_PASSES];
  int npasses = 0;
  char *copy = NULL;
  if (o.passes) {
    copy = cxla_strdup(o.passes);
    if (!copy) return fail_status(cxla_oom());
    npasses = split_passes(copy, names);
    if (npasses < 0) {
      cxla_free(copy);
      return EXIT_USAGE;
    }
  }
  int rc = optimize(&o, names, npasses);
  cxla_free(copy);
  return rc;
}
