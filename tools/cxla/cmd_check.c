/* cxla check MODULE.hlo: parse and verify; report the module's size. */
#include <stdio.h>

#include "commands.h"
#include "common.h"
#include "ir/ir.h"

static const char usage[] =
    "usage: cxla check MODULE.hlo\n"
    "\n"
    "Parses and verifies an HLO module (shape inference and structural\n"
    "checks). Prints \"ok: N computations, M instructions\" and exits 0 if\n"
    "the module is valid; otherwise prints the error (with file:line:col)\n"
    "and exits 1.\n";

int cmd_check(int argc, char **argv) {
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      fputs(usage, stdout);
      return EXIT_OK;
    }
    if (argv[i][0] == '-' && argv[i][1]) return usage_error("check", "unknown option '%s'", argv[i]);
    if (path) return usage_error("check", "expected one module file, got '%s' too", argv[i]);
    path = argv[i];
  }
  if (!path) return usage_error("check", "missing MODULE.hlo");
  cxla_module *m;
  cxla_status s = load_module(path, true, &m);
  if (s) return fail_status(s);
  long ninstrs = 0;
  for (int i = 0; i < m->ncomps; i++) ninstrs += m->comps[i]->ninstrs;
  printf("ok: %d computation%s, %ld instruction%s\n", m->ncomps, m->ncomps == 1 ? "" : "s",
         ninstrs, ninstrs == 1 ? "" : "s");
  cxla_module_destroy(m);
  return EXIT_OK;
}
