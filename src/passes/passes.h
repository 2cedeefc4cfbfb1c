/* passes.h: the entry point of every optimizer pass (one file each, see
 * pass.h for the PassFn contract).
 *
 * One line per pass; the registry in pipeline.c names them. */
#ifndef CXLA_PASSES_H
#define CXLA_PASSES_H

#include "passes/pass.h"

cxla_status pass_layout_assignment(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_fusion(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_multi_output_fusion(HloModule *m, const PassContext *ctx, bool *changed);

#endif
