/* codegen_probe.h: what the cpu backend's emitter decides about the entry
 * root of an HLO text (its kernel's rows, whether it runs in place),
 * asked without compiling. For the tests built with LLVM's headers (the
 * Makefile's list: codegen.h includes them). */
#ifndef CXLA_TESTS_CODEGEN_PROBE_H
#define CXLA_TESTS_CODEGEN_PROBE_H

#include <string.h>

#include "codegen/codegen.h"

/* ask(root) for the entry root of text; -1 when it does not parse. */
static inline int64_t probe_root(const char *text, int64_t (*ask)(const Instr *)) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "probe", &m);
  int64_t n = s ? -1 : ask(m->entry->root);
  cxla_status_free(s);
  cxla_module_destroy(m);
  return n;
}

#endif
