/* cxla fmt MODULE.hlo: print the module in canonical HLO text. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common.h"

static const char usage[] =
    "usage: cxla fmt MODULE.hlo\n"
    "\n"
    "Parses an HLO module and prints it in cxla's canonical text form (the\n"
    "form XLA prints: one instruction per line, attributes in XLA's order).\n"
    "The module is not verified; use 'cxla check' for that.\n";

int cmd_fmt(int argc, char **argv) {
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (is_help(argv[i])) {
      fputs(usage, stdout);
      return EXIT_OK;
    }
    if (argv[i][0] == '-' && argv[i][1]) return usage_error("fmt", "unknown option '%s'", argv[i]);
    if (path) return usage_error("fmt", "expected one module file, got '%s' too", argv[i]);
    path = argv[i];
  }
  if (!path) return usage_error("fmt", "missing MODULE.hlo");
  cxla_module *m;
  cxla_status s = load_module(path, false, &m);
  if (s) return fail_status(s);
  char *text;
  s = cxla_module_print(m, &text);
  cxla_module_destroy(m);
  if (s) return fail_status(s);
  size_t n = strlen(text);
  fwrite(text, 1, n, stdout);
  if (n && text[n - 1] != '\n') fputc('\n', stdout);
  cxla_free_string(text);
  return EXIT_OK;
}
