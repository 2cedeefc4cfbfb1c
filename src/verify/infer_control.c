/* Shape rules for ops that call computations with their operands as
 * arguments: call, fusion, map, while, conditional. Signatures are compared
 * on element types and dims (layouts ignored), tuples element by element. */
#include "verify/infer.h"

/* Operand `op` may be passed as parameter `p` of callee c. */
static cxla_status check_arg(Arena *a, const Instr *in, int op, const Computation *c, int p) {
  const Shape *arg = OPSHAPE(in, op), *param = callee_param(c, p);
  if (!shape_compatible(arg, param))
    return verr("operand %d has shape %s, but parameter %d of %%%s is %s", op, shape_str(a, arg),
                p, c->name, shape_str(a, param));
  return NULL;
}

/* call and fusion: the operands are the callee's arguments, its result
 * the instruction's. */
static cxla_status infer_callable(Arena *a, const Instr *in, Shape **out) {
  const Computation *c;
  TRY(get_callee(in, 1, 0, in->noperands, &c));
  for (int i = 0; i < in->noperands; i++) TRY(check_arg(a, in, i, c, i));
  return copy_shape(a, callee_result(c), out);
}

cxla_status infer_call(Arena *a, const Instr *in, Shape **out) { return infer_callable(a, in, out); }

cxla_status infer_fusion(Arena *a, const Instr *in, Shape **out) {
  return infer_callable(a, in, out);
}

cxla_status infer_map(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  TRY(expect_array_operands(a, in, 0, in->noperands));
  const Shape *x0 = OPSHAPE(in, 0);
  for (int i = 1; i < in->noperands; i++)
    if (!same_dims(OPSHAPE(in, i), x0))
      return verr("operand %d has shape %s, expected the dims of operand 0, %s", i,
                  shape_str(a, OPSHAPE(in, i)), shape_str(a, x0));
  /* Map applies its computation to every element: dimensions, when given,
   * must list all of them in order. */
  const I64List *d = &in->dimensions;
  if (d->n != 0) {
    if (d->n != x0->rank) return verr("dimensions= must list every operand dimension");
    for (int i = 0; i < d->n; i++)
      if (d->v[i] != i) return verr("dimensions= must be 0..%d in order", x0->rank - 1);
  }
  const Computation *c;
  TRY(get_callee(in, 1, 0, in->noperands, &c));
  for (int i = 0; i < in->noperands; i++) {
    const Shape *p = callee_param(c, i);
    if (!shape_is_scalar(p) || p->type != OPSHAPE(in, i)->type)
      return verr("parameter %d of %%%s is %s, expected %s[]", i, c->name, shape_str(a, p),
                  type_name(OPSHAPE(in, i)->type));
  }
  const Shape *r = callee_result(c);
  if (!shape_is_scalar(r))
    return verr("%%%s must return a scalar, returns %s", c->name, shape_str(a, r));
  return make_array(a, r->type, x0->rank, x0->dims, out);
}

cxla_status infer_while(Arena *a, const Instr *in, Shape **out) {
  const Computation *cond, *body;
  TRY(get_callee(in, 2, 0, 1, &cond));
  TRY(get_callee(in, 2, 1, 1, &body));
  const Shape *init = OPSHAPE(in, 0);
  TRY(check_arg(a, in, 0, cond, 0));
  TRY(check_arg(a, in, 0, body, 0));
  const Shape *cr = callee_result(cond), *br = callee_result(body);
  if (!shape_is_scalar(cr) || cr->type != T_PRED)
    return verr("condition %%%s must return pred[], returns %s", cond->name, shape_str(a, cr));
  if (!shape_compatible(br, init))
    return verr("body %%%s returns %s, expected the loop state shape %s", body->name,
                shape_str(a, br), shape_str(a, init));
  return copy_shape(a, init, out);
}

cxla_status infer_conditional(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_min_operands(in, 1));
  const Shape *sel = OPSHAPE(in, 0);
  int nb = in->ncalled;
  if (!shape_is_scalar(sel) || (sel->type != T_PRED && sel->type != T_S32))
    return verr("operand 0 must be pred[] or s32[], got %s", shape_str(a, sel));
  if (sel->type == T_PRED && nb != 2)
    return verr("a conditional on pred needs 2 branch computations, got %d", nb);
  if (nb < 1) return verr("a conditional needs at least one branch computation");
  if (in->noperands != nb + 1)
    return verr("expected %d operands (the branch index and one per branch), got %d", nb + 1,
                in->noperands);
  const Computation *first = NULL;
  for (int j = 0; j < nb; j++) {
    const Computation *c;
    TRY(get_callee(in, nb, j, 1, &c));
    TRY(check_arg(a, in, j + 1, c, 0));
    if (!first) {
      first = c;
    } else if (!shape_compatible(callee_result(c), callee_result(first))) {
      return verr("branch %d %%%s returns %s, but branch 0 %%%s returns %s", j, c->name,
                  shape_str(a, callee_result(c)), first->name,
                  shape_str(a, callee_result(first)));
    }
  }
  return copy_shape(a, callee_result(first), out);
}
