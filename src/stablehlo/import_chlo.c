/* CHLO -> HLO: the CHLO ops JAX emits. Ops with an HLO counterpart map to
 * it; the others are expanded into HLO as XLA's ChloLegalizeToStablehlo
 * expands them (same formulas and constants, so results match XLA's). */
#include <math.h>
#include <string.h>

#include "stablehlo/import_internal.h"

static cxla_status res_shape(Scope *s, const MlirOp *op, Shape **out) {
  if (op->nresults != 1) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "expected one result");
  return imp_shape(s->imp, op, op->results[0].type, out);
}

static cxla_status direct(Scope *s, const MlirOp *op, Instr **ops, Opcode hop, Instr **out) {
  Shape *sh;
  TRY(res_shape(s, op, &sh));
  *out = ib(s, hop, sh, op->noperands, ops);
  IMP_NN(*out);
  return NULL;
}

#define DIRECT(fname, HOP)                                                         \
  static cxla_status fname(Scope *s, const MlirOp *op, Instr **ops, Instr **out) { \
    return direct(s, op, ops, OP_##HOP, out);                                      \
  }
DIRECT(c_acos, ACOS)
DIRECT(c_acosh, ACOSH)
DIRECT(c_asin, ASIN)
DIRECT(c_asinh, ASINH)
DIRECT(c_atan, ATAN)
DIRECT(c_atanh, ATANH)
DIRECT(c_cosh, COSH)
DIRECT(c_sinh, SINH)
DIRECT(c_tan, TAN)
DIRECT(c_erf, ERF)

static cxla_status c_square(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  *out = ib2(s, OP_MULTIPLY, ops[0], ops[0]);
  IMP_NN(*out);
  return NULL;
}

static cxla_status c_top_k(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->nresults != 2) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "top_k has 2 results");
  Shape *el[2];
  TRY(imp_shape(s->imp, op, op->results[0].type, &el[0]));
  TRY(imp_shape(s->imp, op, op->results[1].type, &el[1]));
  Shape *sh = shape_new_tuple(&s->imp->hm->arena, 2, el);
  IMP_NN(sh);
  *out = ib(s, OP_TOPK, sh, 1, ops);
  IMP_NN(*out);
  TRY(attr_int(s->imp, op, "k", true, 0, &(*out)->topk_k));
  (*out)->topk_largest = true;
  (*out)->attrs |= A_TOPK;
  return NULL;
}

static const struct {
  const char *name;
  ImpFn fn;
} table[] = {
    {"acos", c_acos}, {"acosh", c_acosh}, {"asin", c_asin}, {"asinh", c_asinh},
    {"atan", c_atan}, {"atanh", c_atanh}, {"cosh", c_cosh}, {"sinh", c_sinh},
    {"tan", c_tan}, {"erf", c_erf}, {"square", c_square}, {"top_k", c_top_k},
};

ImpFn imp_chlo_lookup(const char *name) {
  if (strncmp(name, "chlo.", 5)) return NULL;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (!strcmp(name + 5, table[k].name)) return table[k].fn;
  return NULL;
}
