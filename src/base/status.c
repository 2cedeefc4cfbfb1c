/* Status values: code + heap message. See include/cxla/status.h. */
#include "base/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cxla_status_s {
  cxla_status_code code;
  char *msg;
};

/* Never written: handed out (cast) when a status cannot be allocated, and
 * recognised by address in cxla_status_free / _annotate. */
static const struct cxla_status_s oom_status = {CXLA_RESOURCE_EXHAUSTED,
                                                (char *)"out of memory"};

cxla_status_code cxla_status_code_of(cxla_status s) {
  return s ? s->code : CXLA_OK;
}

const char *cxla_status_message(cxla_status s) { return s ? s->msg : ""; }

const char *cxla_status_code_name(cxla_status_code c) {
  switch (c) {
  case CXLA_OK: return "OK";
  case CXLA_CANCELLED: return "CANCELLED";
  case CXLA_UNKNOWN: return "UNKNOWN";
  case CXLA_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
  case CXLA_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
  case CXLA_NOT_FOUND: return "NOT_FOUND";
  case CXLA_ALREADY_EXISTS: return "ALREADY_EXISTS";
  case CXLA_PERMISSION_DENIED: return "PERMISSION_DENIED";
  case CXLA_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
  case CXLA_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
  case CXLA_ABORTED: return "ABORTED";
  case CXLA_OUT_OF_RANGE: return "OUT_OF_RANGE";
  case CXLA_UNIMPLEMENTED: return "UNIMPLEMENTED";
  case CXLA_INTERNAL: return "INTERNAL";
  case CXLA_UNAVAILABLE: return "UNAVAILABLE";
  case CXLA_DATA_LOSS: return "DATA_LOSS";
  case CXLA_UNAUTHENTICATED: return "UNAUTHENTICATED";
  case CXLA_IO: return "IO";
  }
  return "UNKNOWN";
}

void cxla_status_free(cxla_status s) {
  if (!s || s == &oom_status) return;
  free(s->msg);
  free(s);
}

static cxla_status make_v(cxla_status_code code, const char *fmt, va_list ap) {
  cxla_status s = malloc(sizeof *s);
  if (!s) return (cxla_status)&oom_status;
  s->code = code;
  s->msg = cxla_vformat(fmt, ap);
  if (!s->msg) {
    free(s);
    return (cxla_status)&oom_status;
  }
  return s;
}

cxla_status cxla_status_make(cxla_status_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cxla_status s = make_v(code, fmt, ap);
  va_end(ap);
  return s;
}

cxla_status cxla_status_annotate(cxla_status s, const char *fmt, ...) {
  if (!s || s == &oom_status) return s;
  va_list ap;
  va_start(ap, fmt);
  char *ctx = cxla_vformat(fmt, ap);
  va_end(ap);
  if (!ctx) return s;
  char *m = cxla_format("%s: %s", ctx, s->msg);
  free(ctx);
  if (m) {
    free(s->msg);
    s->msg = m;
  }
  return s;
}

cxla_status cxla_oom(void) { return (cxla_status)&oom_status; }
