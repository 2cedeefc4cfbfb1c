/* stubs_math_tmp.c: TEMPORARY weak definitions of the interpreter driver's
 * helpers, so that the math evaluators (dot, conv, fft, linalg) link and can
 * be unit-tested before interp.c lands. The real definitions in interp.c
 * override these. The lead deletes this file at integration. */
#include <stdio.h>
#include <string.h>

#include "interp/interp.h"

__attribute__((weak)) cxla_status interp_error(const Instr *in, cxla_status_code code,
                                               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = cxla_vformat(fmt, ap);
  va_end(ap);
  cxla_status s = cxla_status_make(code, "%s %%%s: %s", op_name(in->op),
                                   in->name ? in->name : "?", msg ? msg : "(oom)");
  cxla_free(msg);
  return s;
}

__attribute__((weak)) void row_major_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
}

__attribute__((weak)) cxla_status interp_call(Interp *ip, const Computation *c,
                                              Literal *const *args, int nargs,
                                              Literal **out) {
  (void)ip; (void)args; (void)nargs; (void)out;
  return ERR(UNIMPLEMENTED, "interp_call is not linked (computation %s)", c->name);
}
