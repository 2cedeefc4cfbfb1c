/* TEMPORARY: weak placeholders for the parts of the public API that other
 * branches provide (the interpreter), so that the CLI links
 * before they land. A real definition in libcxla.a overrides these only if
 * its object is pulled in for another reason, so this file must go once
 * they are in main (the lead deletes it at integration). */
#include "cxla/cxla.h"
#include "base/base.h"

#define WEAK __attribute__((weak))

WEAK cxla_status cxla_interp_run(const cxla_module *m, cxla_literal *const *args, int nargs,
                                 cxla_literal **out_result) {
  (void)m, (void)args, (void)nargs;
  *out_result = NULL;
  return ERR(UNIMPLEMENTED, "the interpreter is not linked into this build");
}
