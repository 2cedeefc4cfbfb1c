/* profile.h: `cxla bench --profile`: the time of each step of the timed
 * runs (cxla_execute_options.profile), summed per HLO instruction, and a
 * table of where the time went. */
#ifndef CXLA_TOOL_PROFILE_H
#define CXLA_TOOL_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "cxla/runtime.h"

typedef struct StepProfile StepProfile;

cxla_status step_profile_create(StepProfile **out);
void step_profile_destroy(StepProfile *p);
/* The callback and argument to put in cxla_execute_options. */
void step_profile_record(void *p, const cxla_profile_step *step);
/* Whether recording is on (steps outside the timed runs are dropped). */
void step_profile_enable(StepProfile *p, bool on);
/* Prints the totals per step kind and the `top` costliest steps, per run
 * (divided by runs), against the median run time run_s. A step that ran
 * out of memory while recording is reported as such. */
void step_profile_print(const StepProfile *p, FILE *f, int runs, double run_s, int top);

#endif
