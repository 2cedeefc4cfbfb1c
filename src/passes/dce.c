/* Dead code elimination: drops instructions no root reaches (keeping
 * parameters and side-effecting instructions, see comp_prune), then
 * computations nothing calls any more. */
#include "ir/rewrite.h"
#include "passes/passes.h"

cxla_status pass_dce(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  int removed = 0;
  for (int i = 0; i < m->ncomps; i++) removed += comp_prune(m->comps[i]);
  removed += module_prune_computations(m);
  *changed = removed > 0;
  return NULL;
}
