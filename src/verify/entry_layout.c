/* Checks the module header's entry_computation_layout (the reader's typed
 * EntryLayout) against the entry computation's parameters and root: same
 * count, same element types and dims (layouts are not compared). */
#include <stdlib.h>

#include "verify/entry_layout.h"
#include "verify/infer.h"

cxla_status check_entry_layout(Arena *a, const HloModule *m) {
  const EntryLayout *el = m->entry_layout;
  if (!el || !m->entry) return NULL;
  if (!el->result) return verr("verify: entry_computation_layout has no result shape");
  for (int i = 0; i < el->nparams; i++)
    if (!el->params || !el->params[i])
      return verr("verify: entry_computation_layout parameter %d has no shape", i);
  Shape *const *params = el->params, *result = el->result;
  int n = el->nparams;
  const Computation *e = m->entry;
  if (n != e->nparams)
    return verr("verify: entry_computation_layout has %d parameters, entry computation %%%s "
                "has %d", n, e->name, e->nparams);
  for (int i = 0; i < n; i++)
    if (!shape_compatible(params[i], e->params[i]->shape))
      return verr("verify: entry_computation_layout gives parameter %d as %s, entry "
                  "computation %%%s has %s", i, shape_str(a, params[i]), e->name,
                  shape_str(a, e->params[i]->shape));
  if (!shape_compatible(result, e->root->shape))
    return verr("verify: entry_computation_layout gives the result as %s, entry computation "
                "%%%s returns %s", shape_str(a, result), e->name, shape_str(a, e->root->shape));
  return NULL;
}

/* The leaf of s at shape index ix, or NULL when ix does not name one. */
static const Shape *subshape(const Shape *s, const I64List *ix) {
  for (int i = 0; s && i < ix->n; i++)
    s = s->type == T_TUPLE && ix->v[i] >= 0 && ix->v[i] < s->ntuple ? s->tuple[ix->v[i]] : NULL;
  return s;
}

static int cmp_index(const void *pa, const void *pb) {
  const I64List *x = *(const I64List *const *)pa, *y = *(const I64List *const *)pb;
  for (int i = 0; i < x->n && i < y->n; i++)
    if (x->v[i] != y->v[i]) return x->v[i] < y->v[i] ? -1 : 1;
  return (x->n > y->n) - (x->n < y->n);
}

cxla_status check_io_alias(Arena *a, const HloModule *m) {
  const Computation *e = m->entry;
  if (!e || !e->root) return NULL;
  for (int i = 0; i < m->nio_alias; i++) {
    const IoAlias *al = &m->io_alias[i];
    if (al->param_number < 0 || al->param_number >= e->nparams)
      return verr("verify: input_output_alias entry %d names parameter %lld, entry "
                  "computation %%%s has %d", i, (long long)al->param_number, e->name,
                  e->nparams);
    const Shape *out = subshape(e->root->shape, &al->output_index);
    const Shape *in = subshape(e->params[al->param_number]->shape, &al->param_index);
    if (!out) return verr("verify: input_output_alias entry %d: no such output index", i);
    if (!in) return verr("verify: input_output_alias entry %d: no such parameter index", i);
    if (!shape_compatible(out, in))
      return verr("verify: input_output_alias entry %d aliases %s with %s", i, shape_str(a, out),
                  shape_str(a, in));
  }
  /* No output index twice: sort the indices, compare neighbours. */
  if (m->nio_alias < 2) return NULL;
  const I64List **ix = arena_array(a, (size_t)m->nio_alias, sizeof *ix);
  if (!ix) return cxla_oom();
  for (int i = 0; i < m->nio_alias; i++) ix[i] = &m->io_alias[i].output_index;
  qsort(ix, (size_t)m->nio_alias, sizeof *ix, cmp_index);
  for (int i = 1; i < m->nio_alias; i++)
    if (cmp_index(&ix[i - 1], &ix[i]) == 0) {
      StrBuf b;
      sb_init(&b);
      for (int k = 0; k < ix[i]->n; k++)
        sb_printf(&b, "%s%lld", k ? "," : "", (long long)ix[i]->v[k]);
      cxla_status st = verr("verify: input_output_alias names the output index {%s} twice",
                            b.data ? b.data : "");
      sb_free(&b);
      return st;
    }
  return NULL;
}
