/* runtime_internal.h: the runtime's own structures, shared by its files
 * (control.c, memory.c, client.c, buffer.c, executable.c). Backends see
 * only backend.h. */
#ifndef CXLA_RUNTIME_INTERNAL_H
#define CXLA_RUNTIME_INTERNAL_H

#include <stdatomic.h>
#include <time.h>

#include "base/base.h"
#include "runtime/backend.h"

struct cxla_cancel {
  atomic_int requested;
};

struct RtControl {
  const cxla_cancel *cancel;   /* or NULL */
  bool has_deadline;
  struct timespec deadline;    /* CLOCK_MONOTONIC */
  double timeout_seconds;      /* for the message */
};

/* Sets up a control for an execution starting now. */
void rt_control_init(RtControl *c, const cxla_cancel *cancel, double timeout_seconds);

struct RtHost {
  cxla_allocator a;            /* always complete (defaults filled in) */
};

void rt_host_init(RtHost *h, const cxla_allocator *user);

#endif
