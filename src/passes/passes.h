/* passes.h: the entry point of every optimizer pass, one line each.
 * Each is a PassFn (pass.h) defined in src/passes/<name>.c and registered by
 * name in pipeline.c. */
#ifndef CXLA_PASSES_H
#define CXLA_PASSES_H

#include "passes/pass.h"

cxla_status pass_buffer_assignment(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_while_loop_simplify(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_batchnorm_expander(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_logistic_expander(HloModule *m, const PassContext *ctx, bool *changed);

#endif
