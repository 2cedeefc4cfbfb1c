/* Shape rules for elementwise ops: unary, binary, compare, select, clamp,
 * convert, bitcast-convert, stochastic-convert, reduce-precision.
 *
 * HLO has no implicit broadcasting: operands of elementwise ops have the
 * result's dims (XLA's verifier rejects "implicit broadcast"). The only
 * exceptions are select's predicate and clamp's bounds, which may be
 * scalars. Operand element types must agree exactly (cxla does not allow
 * XLA's optional mixed precision). */
#include "verify/infer.h"

/* Which element types a unary op accepts, XLA's rules. */
typedef enum {
  K_FLOAT,          /* floating point */
  K_FLOAT_COMPLEX,  /* floating point or complex */
  K_INT,            /* integral */
  K_NUMBER,         /* integral, floating point or complex */
  K_SIGNED_COMPLEX, /* signed integral, floating point or complex */
  K_PRED_INT,       /* pred or integral */
} TypeClass;

static bool in_class(ElemType t, TypeClass k) {
  switch (k) {
  case K_FLOAT: return type_is_float(t);
  case K_FLOAT_COMPLEX: return type_is_float(t) || type_is_complex(t);
  case K_INT: return type_is_int(t);
  case K_NUMBER: return type_is_int(t) || type_is_float(t) || type_is_complex(t);
  case K_SIGNED_COMPLEX: return type_is_signed(t) || type_is_complex(t);
  case K_PRED_INT: return t == T_PRED || type_is_int(t);
  }
  return false;
}

static const char *class_name(TypeClass k) {
  switch (k) {
  case K_FLOAT: return "floating point";
  case K_FLOAT_COMPLEX: return "floating point or complex";
  case K_INT: return "integral";
  case K_NUMBER: return "integral, floating point or complex";
  case K_SIGNED_COMPLEX: return "signed, floating point or complex";
  case K_PRED_INT: return "pred or integral";
  }
  return "?";
}

static TypeClass unary_class(Opcode op) {
  switch (op) {
  case OP_FLOOR: case OP_CEIL: case OP_CBRT: case OP_ERF: case OP_IS_FINITE:
  case OP_ROUND_NEAREST_AFZ: case OP_ROUND_NEAREST_EVEN:
    return K_FLOAT;
  case OP_CLZ: case OP_POPCNT:
    return K_INT;
  case OP_NEGATE:
    return K_NUMBER;
  case OP_ABS: case OP_SIGN:
    return K_SIGNED_COMPLEX;
  case OP_NOT:
    return K_PRED_INT;
  default: /* transcendental functions, real, imag */
    return K_FLOAT_COMPLEX;
  }
}

/* The real type of a complex type's components (c64 -> f32). */
static ElemType component_type(ElemType t) { return t == T_C128 ? T_F64 : T_F32; }

cxla_status infer_unary(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  TypeClass k = unary_class(in->op);
  if (!in_class(x->type, k))
    return verr("operand 0 has type %s, expected %s", type_name(x->type), class_name(k));
  ElemType t = x->type;
  if (in->op == OP_IS_FINITE) t = T_PRED;
  if ((in->op == OP_ABS || in->op == OP_REAL || in->op == OP_IMAG) && type_is_complex(t))
    t = component_type(t);
  return retype(a, x, t, out);
}

/* Operands [from, to) have operand `ref`'s dims and element type. */
static cxla_status same_shapes(Arena *a, const Instr *in, int ref, int from, int to) {
  const Shape *r = OPSHAPE(in, ref);
  for (int i = from; i < to; i++) {
    const Shape *s = OPSHAPE(in, i);
    if (s->type != r->type)
      return verr("operand %d has type %s, expected %s", i, type_name(s->type),
                  type_name(r->type));
    if (!same_dims(s, r))
      return verr("operand %d has shape %s, expected the dims of operand %d, %s", i,
                  shape_str(a, s), ref, shape_str(a, r));
  }
  return NULL;
}

cxla_status infer_binary(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  TRY(same_shapes(a, in, 0, 1, 2));
  const Shape *x = OPSHAPE(in, 0);
  ElemType t = x->type;
  switch (in->op) {
  case OP_ADD: case OP_MULTIPLY: case OP_MAXIMUM: case OP_MINIMUM:
    break;
  case OP_AND: case OP_OR: case OP_XOR:
    if (!in_class(t, K_PRED_INT)) return verr("operands have type %s, expected pred or integral", type_name(t));
    break;
  case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
  case OP_MULHI:
    if (!type_is_int(t)) return verr("operands have type %s, expected integral", type_name(t));
    break;
  case OP_ATAN2:
    if (!in_class(t, K_FLOAT_COMPLEX))
      return verr("operands have type %s, expected floating point or complex", type_name(t));
    break;
  case OP_COMPLEX:
    if (t != T_F32 && t != T_F64) return verr("operands have type %s, expected f32 or f64", type_name(t));
    t = t == T_F32 ? T_C64 : T_C128;
    break;
  default: /* subtract, divide, remainder, power: any arithmetic type */
    if (!in_class(t, K_NUMBER)) return verr("operands have type %s, expected an arithmetic type", type_name(t));
    break;
  }
  return retype(a, x, t, out);
}

/* The comparison type XLA derives from the operand type. */
static CmpType default_cmp_type(ElemType t) {
  if (type_is_float(t) || type_is_complex(t)) return CMPT_FLOAT;
  if (type_kind(t) == TK_SINT) return CMPT_SIGNED;
  return CMPT_UNSIGNED;
}

cxla_status infer_compare(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  TRY(same_shapes(a, in, 0, 1, 2));
  TRY(expect_attr(in, A_COMPARE, "direction"));
  if (in->cmp_dir < CMP_EQ || in->cmp_dir > CMP_GE) return verr("invalid comparison direction");
  const Shape *x = OPSHAPE(in, 0);
  if (type_is_complex(x->type) && in->cmp_dir != CMP_EQ && in->cmp_dir != CMP_NE)
    return verr("complex operands can only be compared with EQ or NE");
  if (in->cmp_type != CMPT_DEFAULT) {
    CmpType want = default_cmp_type(x->type);
    bool ok = want == CMPT_FLOAT && type_is_float(x->type)
                  ? in->cmp_type == CMPT_FLOAT || in->cmp_type == CMPT_TOTALORDER
                  : in->cmp_type == want;
    if (!ok) return verr("comparison type does not fit operand type %s", type_name(x->type));
  }
  return retype(a, x, T_PRED, out);
}

cxla_status infer_select(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 3));
  TRY(same_shapes(a, in, 1, 2, 3));
  const Shape *p = OPSHAPE(in, 0), *x = OPSHAPE(in, 1);
  if (p->type != T_PRED) return verr("operand 0 has type %s, expected pred", type_name(p->type));
  if (p->rank != 0 && !same_dims(p, x))
    return verr("operand 0 has shape %s, expected a scalar or the dims of operand 1, %s",
                shape_str(a, p), shape_str(a, x));
  return copy_shape(a, x, out);
}

cxla_status infer_clamp(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 3));
  const Shape *x = OPSHAPE(in, 1);
  for (int i = 0; i < 3; i += 2) {
    const Shape *b = OPSHAPE(in, i);
    if (b->type != x->type)
      return verr("operand %d has type %s, expected %s", i, type_name(b->type), type_name(x->type));
    if (b->rank != 0 && !same_dims(b, x))
      return verr("operand %d has shape %s, expected a scalar or the dims of operand 1, %s", i,
                  shape_str(a, b), shape_str(a, x));
  }
  return copy_shape(a, x, out);
}

cxla_status infer_convert(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  if (!shape_is_array(in->shape))
    return verr("result must be an array, got %s", shape_str(a, in->shape));
  return retype(a, OPSHAPE(in, 0), in->shape->type, out);
}

/* XLA's bit width for bitcasts: pred occupies a byte. */
static int bitcast_bits(ElemType t) { return t == T_PRED ? 8 : type_bits(t); }

cxla_status infer_bitcast_convert(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  const Shape *x = OPSHAPE(in, 0);
  ElemType to = in->shape->type;
  if (!type_is_array(to)) return verr("result must be an array, got %s", shape_str(a, in->shape));
  if (type_is_complex(x->type) != type_is_complex(to))
    return verr("cannot bitcast-convert between complex and real types (%s to %s)",
                type_name(x->type), type_name(to));
  int from_bits = bitcast_bits(x->type), to_bits = bitcast_bits(to);
  int lo = from_bits < to_bits ? from_bits : to_bits, hi = from_bits < to_bits ? to_bits : from_bits;
  if (hi % lo != 0)
    return verr("cannot bitcast-convert %s to %s: bit widths do not divide", type_name(x->type),
                type_name(to));
  int ratio = hi / lo;
  if (from_bits == to_bits) return retype(a, x, to, out);
  if (from_bits > to_bits) {
    /* Each element becomes `ratio` narrower ones: a new minor dimension. */
    TRY(make_array(a, to, x->rank + 1, NULL, out));
    for (int i = 0; i < x->rank; i++) (*out)->dims[i] = x->dims[i];
    (*out)->dims[x->rank] = ratio;
    return NULL;
  }
  /* Narrow to wide: the minor dimension holds the pieces and disappears. */
  if (x->rank < 1 || x->dims[x->rank - 1] != ratio)
    return verr("bitcast-convert %s to %s needs a last dimension of %d, operand is %s",
                type_name(x->type), type_name(to), ratio, shape_str(a, x));
  return make_array(a, to, x->rank - 1, x->dims, out);
}

cxla_status infer_stochastic_convert(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *x = OPSHAPE(in, 0), *r = OPSHAPE(in, 1);
  if (!type_is_float(x->type)) return verr("operand 0 has type %s, expected floating point", type_name(x->type));
  if (type_kind(r->type) != TK_UINT)
    return verr("operand 1 has type %s, expected unsigned integral", type_name(r->type));
  if (type_bits(r->type) != type_bits(x->type))
    return verr("operand 1 has type %s, expected %d bits like operand 0", type_name(r->type),
                type_bits(x->type));
  if (!same_dims(x, r))
    return verr("operand 1 has shape %s, expected the dims of operand 0, %s", shape_str(a, r),
                shape_str(a, x));
  if (!type_is_array(in->shape->type)) return verr("result must be an array");
  return retype(a, x, in->shape->type, out);
}

cxla_status infer_reduce_precision(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  TRY(expect_attr(in, A_REDUCE_PRECISION, "exponent_bits/mantissa_bits"));
  const Shape *x = OPSHAPE(in, 0);
  if (!type_is_float(x->type)) return verr("operand 0 has type %s, expected floating point", type_name(x->type));
  if (in->exponent_bits < 1 || in->exponent_bits > 64)
    return verr("exponent_bits=%lld out of range", (long long)in->exponent_bits);
  if (in->mantissa_bits < 0 || in->mantissa_bits > 64)
    return verr("mantissa_bits=%lld out of range", (long long)in->mantissa_bits);
  return copy_shape(a, x, out);
}
