/* rows.c: row reductions in a fused computation (see comp_row_reductions
 * in ir.h). */
#include <string.h>

#include "ir/ir.h"

static bool dims_equal(const Shape *a, const Shape *b) {
  return a->rank == b->rank && (a->rank == 0 || !memcmp(a->dims, b->dims, (size_t)a->rank * sizeof(int64_t)));
}

/* 2: the output's dims; 1: its first k dims (a row value); 0: other. */
static int row_class(const Shape *s, const Shape *out, int k) {
  if (s->rank == out->rank && dims_equal(s, out)) return 2;
  if (s->rank != k) return 0;
  for (int d = 0; d < k; d++)
    if (s->dims[d] != out->dims[d]) return 0;
  return 1;
}

int comp_rows(const Computation *c, const Shape *s, int k, int seed, bool row_root, int *nred_out,
              const Instr **red, int max) {
  *nred_out = 0;
  if (!c->root || !type_is_array(s->type) || s->type == T_TUPLE || s->rank < 2) return 0;
  if (k <= 0) k = -1;
  int nred = 0;
  signed char *cls = cxla_calloc((size_t)c->ninstrs + 1, 1); /* 0: no reduce below; 1 row; 2 full */
  if (!cls) return 0;
  bool ok = true;
  for (int i = 0; i < c->ninstrs && ok; i++) {
    const Instr *x = c->instrs[i];
    if (x->op == OP_PARAMETER && seed >= 0 && x->param_number == seed) {
      int kk = x->shape->rank;
      ok = kk > 0 && kk < s->rank && (k < 0 || kk == k) && row_class(x->shape, s, kk) == 1;
      k = kk;
      cls[i] = 1;
      continue;
    }
    bool dep = false;
    for (int q = 0; q < x->noperands && ok; q++) {
      int id = x->operands[q]->id;
      if (id < 0 || id >= i || c->instrs[id] != x->operands[q]) ok = false;
      else dep |= cls[id] != 0;
    }
    if (!ok) break;
    if (x->op == OP_REDUCE) {
      const Shape *is = x->operands[0]->shape;
      int kk = x->shape->rank;
      ok = x->noperands == 2 && type_is_array(x->shape->type) && !cls[x->operands[1]->id] &&
           dims_equal(is, s) && x->dimensions.n == s->rank - kk && kk > 0 && (k < 0 || kk == k);
      for (int d = 0; d < x->dimensions.n && ok; d++) {
        int64_t v = x->dimensions.v[d];
        ok = v >= kk && v < s->rank;
        for (int q = 0; q < d && ok; q++) ok = x->dimensions.v[q] != v;
      }
      if (!ok) break;
      k = kk;
      if (red && nred < max) red[nred] = x;
      nred++;
      cls[i] = 1;
      continue;
    }
    if (!dep) continue;
    if (k < 0) {
      ok = false;
      break;
    }
    int xc = row_class(x->shape, s, k);
    if (x->op == OP_BROADCAST) {
      ok = xc == 2 && cls[x->operands[0]->id] == 1 && x->dimensions.n == k;
      for (int d = 0; d < k && ok; d++) ok = x->dimensions.v[d] == d;
    } else {
      ok = xc != 0 && (op_info(x->op)->flags & OPF_EW);
      for (int q = 0; q < x->noperands && ok; q++) {
        int oc = cls[x->operands[q]->id];
        ok = oc == 0 ? x->operands[q]->shape->rank == 0 || row_class(x->operands[q]->shape, s, k) == xc
                     : oc == xc;
      }
    }
    cls[i] = (signed char)xc;
  }
  ok = ok && (cls[c->root->id] == 2 || (row_root && cls[c->root->id] == 1)) && (!red || nred <= max);
  cxla_free(cls);
  *nred_out = nred;
  return ok ? k : 0;
}

int comp_row_reductions(const Computation *c, const Shape *out, const Instr **red, int max) {
  int nred = 0, k = comp_rows(c, out, -1, -1, false, &nred, red, max);
  return nred > 0 ? k : 0;
}

