/* The fused multiply-add rule (contract.h). */
#include "ir/contract.h"

#include <string.h>

static bool fusable_mul(const Instr *in, const Instr *m, const int *users) {
  return m->op == OP_MULTIPLY && m->noperands == 2 && m->shape->type == in->shape->type &&
         users[m->id] == 1 && m->parent == in->parent;
}

cxla_status comp_fma_plan(const Computation *c, signed char **out) {
  int n = c->ninstrs;
  signed char *plan = cxla_calloc((size_t)(n ? n : 1), 1);
  int *users = cxla_calloc((size_t)(n ? n : 1), sizeof(int));
  if (!plan || !users) {
    cxla_free(plan);
    cxla_free(users);
    return cxla_oom();
  }
  memset(plan, -1, (size_t)(n ? n : 1));
  if (c->contract) {
    for (int i = 0; i < n; i++)
      for (int k = 0; k < c->instrs[i]->noperands; k++) {
        const Instr *o = c->instrs[i]->operands[k];
        if (o->id >= 0 && o->id < n && c->instrs[o->id] == o) users[o->id]++;
      }
    if (c->root && c->root->id >= 0 && c->root->id < n) users[c->root->id]++;
    for (int i = 0; i < n; i++) {
      const Instr *in = c->instrs[i];
      ElemType t = in->shape->type;
      if ((in->op != OP_ADD && in->op != OP_SUBTRACT) || in->noperands != 2 || (t != T_F32 && t != T_F64))
        continue;
      for (int k = 0; k < 2 && plan[i] < 0; k++)
        if (fusable_mul(in, in->operands[k], users)) plan[i] = (signed char)k;
    }
  }
  cxla_free(users);
  *out = plan;
  return NULL;
}
