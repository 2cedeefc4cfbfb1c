/* Elementwise rules of the algebraic simplifier. All are exact; the only
 * freedom taken is the sign and payload of a NaN result, which IEEE 754
 * leaves unspecified (x - y and x + (-y) may differ there), as XLA does.
 *
 * Floats: x + (-0) -> x and x - (+0) -> x are exact; x + (+0) and x - (-0)
 * are not (they turn -0 into +0) and stay. x * 0 and x - x stay for floats
 * (NaN, Inf, -0). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "ir/numeric.h"
#include "ir/rewrite.h"
#include "passes/algsimp.h"

static bool is_real_float(ElemType t) { return type_is_float(t); }
static bool is_integral(ElemType t) { return type_is_int(t); }

static Instr *zeros_like(Simp *s, const Instr *in) { return simp_filled(s, in->shape, 0, 0); }

static Instr *binary(Simp *s, Opcode op, const Instr *like, Instr *a, Instr *b) {
  Instr *ops[2] = {a, b};
  return simp_new(s, op, like->shape, 2, ops);
}

/* x + 0 -> x (ints), x + (-0) -> x (floats); x + (-y) -> x - y. */
static cxla_status rule_add(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  for (int k = 0; k < 2; k++) {
    Instr *x = k ? b : a, *z = k ? a : b;
    if ((is_integral(t) || t == T_PRED) && is_int_value(z, 0)) return (*out = x), NULL;
    if (is_real_float(t) && is_float_value(z, 0.0, true)) return (*out = x), NULL;
  }
  if (t == T_PRED) return NULL;
  for (int k = 0; k < 2; k++) {
    Instr *x = k ? b : a, *n = k ? a : b;
    if (n->op == OP_NEGATE) {
      if (!(*out = binary(s, OP_SUBTRACT, in, x, n->operands[0]))) return cxla_oom();
      return NULL;
    }
  }
  return NULL;
}

/* x - 0 -> x (ints), x - (+0) -> x (floats); x - (-y) -> x + y;
 * integer x - x -> 0. */
static cxla_status rule_subtract(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (is_integral(t) && is_int_value(b, 0)) return (*out = a), NULL;
  if (is_real_float(t) && is_float_value(b, 0.0, false)) return (*out = a), NULL;
  if (is_integral(t) && a == b) {
    if (!(*out = zeros_like(s, in))) return cxla_oom();
    return NULL;
  }
  if (b->op == OP_NEGATE && !type_is_complex(t)) {
    if (!(*out = binary(s, OP_ADD, in, a, b->operands[0]))) return cxla_oom();
  }
  return NULL;
}

/* x * 1 -> x; integer x * 0 -> 0. */
static cxla_status rule_multiply(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (is_one(b)) return (*out = a), NULL;
  if (is_one(a)) return (*out = b), NULL;
  if (is_integral(t) && (is_int_value(a, 0) || is_int_value(b, 0))) {
    if (!(*out = zeros_like(s, in))) return cxla_oom();
  }
  return NULL;
}

/* ---- division by a constant ----
 * XLA's simplifier rewrites A / C, C a constant or a broadcast of one and A
 * not a constant, into A * (1 / C) for f16, bf16, f32, f64, c64 and c128,
 * elementwise, whatever the constant holds (0 -> inf, inf -> 0, NaN ->
 * NaN). It is not exact (x / 3 and x * 0.33333334f differ by an ulp on
 * some x) but it is what XLA:CPU computes, and what cxla must agree with.
 * The reciprocal is computed as XLA:CPU computes it: in the type itself
 * for f32/f64 (subnormal inputs read as zero, subnormal results flushed,
 * the FTZ/DAZ mode XLA:CPU's compiler runs in), in f32 rounded once for
 * f16, and for bf16 the division is done in f32 as XLA:CPU's bf16
 * normalization leaves it: convert(convert(A, f32) * (1 / f32(C)), bf16). */

static float ftz32(float v) { return fabsf(v) < 0x1p-126f ? copysignf(0.0f, v) : v; }
static double ftz64(double v) { return fabs(v) < 0x1p-1022 ? copysign(0.0, v) : v; }

/* Writes 1 / src[i] into dst (type t: f16, f32, f64, c64, c128). */
static void invert_elements(const Literal *src, Literal *dst, ElemType t) {
  for (int64_t i = 0; i < src->nelems; i++) {
    switch (t) {
    case T_F32: {
      float v = ftz32((float)literal_get_f64(src, i));
      ((float *)dst->data)[i] = ftz32(1.0f / v);
      break;
    }
    case T_F64: {
      double v = ftz64(literal_get_f64(src, i));
      ((double *)dst->data)[i] = ftz64(1.0 / v);
      break;
    }
    case T_C64: {
      const float *p = (const float *)src->data + 2 * i;
      float _Complex z = ftz32(p[0]) + ftz32(p[1]) * _Complex_I;
      volatile float _Complex one = 1.0f;
      float _Complex r = one / z;
      ((float *)dst->data)[2 * i] = ftz32(crealf(r));
      ((float *)dst->data)[2 * i + 1] = ftz32(cimagf(r));
      break;
    }
    case T_C128: {
      const double *p = (const double *)src->data + 2 * i;
      double _Complex z = ftz64(p[0]) + ftz64(p[1]) * _Complex_I;
      volatile double _Complex one = 1.0;
      double _Complex r = one / z;
      ((double *)dst->data)[2 * i] = ftz64(creal(r));
      ((double *)dst->data)[2 * i + 1] = ftz64(cimag(r));
      break;
    }
    default: /* f16: Eigen's half divides in f32 and rounds once */
      literal_set_f64(dst, i, (double)(1.0f / (float)literal_get_f64(src, i)));
      break;
    }
  }
}

/* A constant instruction holding 1 / c's elements, of type t (c's type,
 * or f32 for a bf16 c). NULL on OOM. */
static Instr *reciprocal_constant(Simp *s, const Instr *c, ElemType t) {
  const Literal *l = c->literal;
  Literal *r;
  cxla_status st = literal_create(t, l->rank, l->dims, &r);
  if (st) {
    cxla_status_free(st);
    return NULL;
  }
  if (t == T_F32 && l->type == T_BF16) {
    for (int64_t i = 0; i < l->nelems; i++) {
      float v = ftz32((float)literal_get_f64(l, i));
      ((float *)r->data)[i] = ftz32(1.0f / v);
    }
  } else {
    invert_elements(l, r, t);
  }
  if (module_own_literal(s->m, r)) return NULL;
  Shape *sh = shape_clone(&s->m->arena, c->shape);
  if (!sh) return NULL;
  sh->type = t;
  Instr *k = comp_add_instr(s->c, OP_CONSTANT, sh, 0, NULL, NULL);
  if (k) k->literal = r;
  return k;
}

/* Every element is a power of two whose reciprocal is a normal number of
 * its type: x * (1 / C) is then x / C exactly (real types only). */
static bool exact_reciprocals(const Literal *l) {
  if (type_is_complex(l->type)) return false;
  for (int64_t i = 0; i < l->nelems; i++) {
    double c = literal_get_f64(l, i);
    int e;
    if (!isfinite(c) || c == 0 || fabs(frexp(c, &e)) != 0.5) return false;
    double r = 1.0 / c;
    double tiny = l->type == T_F64 ? 0x1p-1022 : l->type == T_F16 ? 0x1p-14 : 0x1p-126;
    if (round_to_type(l->type, r) != r || fabs(r) < tiny || fabs(c) < tiny) return false;
  }
  return true;
}

static Instr *convert_to(Simp *s, Instr *x, ElemType t) {
  Shape *sh = shape_clone(&s->m->arena, x->shape);
  if (!sh) return NULL;
  sh->type = t;
  return comp_add_instr(s->c, OP_CONVERT, sh, 1, &x, NULL);
}

static cxla_status divide_by_constant(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (!(t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64 || t == T_C64 || t == T_C128))
    return NULL;
  if (a->op == OP_CONSTANT) return NULL;
  Instr *c = b->op == OP_BROADCAST && b->noperands == 1 ? b->operands[0] : b;
  if (c->op != OP_CONSTANT || !c->literal || c->literal->unknown || !c->literal->data ||
      c->literal->type != t)
    return NULL;
  if (s->exact && !exact_reciprocals(c->literal)) return NULL;
  ElemType rt = t == T_BF16 ? T_F32 : t;
  Instr *rc = reciprocal_constant(s, c, rt);
  if (!rc) return cxla_oom();
  if (c != b) {
    Shape *sh = shape_clone(&s->m->arena, b->shape);
    if (!sh || !(rc = instr_clone(s->c, b, 1, &rc, NULL))) return cxla_oom();
    sh->type = rt;
    rc->shape = sh;
  }
  if (t != T_BF16) {
    if (!(*out = binary(s, OP_MULTIPLY, in, a, rc))) return cxla_oom();
    return NULL;
  }
  Instr *wide = convert_to(s, a, T_F32);
  if (!wide) return cxla_oom();
  Instr *ops[2] = {wide, rc};
  Instr *mul = simp_new(s, OP_MULTIPLY, wide->shape, 2, ops);
  if (!mul || !(*out = convert_to(s, mul, T_BF16))) return cxla_oom();
  return NULL;
}

/* x / 1 -> x; float x / C -> x * (1 / C) as XLA does it (above); unsigned
 * x / 2^k -> x >> k. */
static cxla_status rule_divide(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (is_one(b)) return (*out = a), NULL;
  TRY(divide_by_constant(s, in, out));
  if (*out) return NULL;
  const Literal *l = as_uniform(b);
  if (!l) return NULL;
  if (type_kind(t) == TK_UINT) {
    uint64_t v = (uint64_t)literal_get_i64(l, 0);
    if (v < 2 || (v & (v - 1))) return NULL;
    int k = 0;
    while ((1ull << k) != v) k++;
    Instr *sh = simp_filled(s, in->shape, 0, k);
    if (!sh || !(*out = binary(s, OP_SHIFT_RIGHT_LOGICAL, in, a, sh))) return cxla_oom();
  }
  return NULL;
}

/* max(x, x) -> x; max(x, lowest) -> x; min likewise with highest. IEEE
 * maximum/minimum propagate NaN, so the float identities are exact. */
static cxla_status rule_minmax(Simp *s, Instr *in, Instr **out) {
  (void)s;
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (a == b) return (*out = a), NULL;
  bool is_max = in->op == OP_MAXIMUM;
  for (int k = 0; k < 2; k++) {
    Instr *x = k ? b : a, *z = k ? a : b;
    if (is_real_float(t) && is_float_value(z, is_max ? -INFINITY : INFINITY, false))
      return (*out = x), NULL;
    if ((is_integral(t) || t == T_PRED) && is_int_value(z, is_max ? simp_int_min(t) : simp_int_max(t)))
      return (*out = x), NULL;
  }
  return NULL;
}

/* Bitwise and/or/xor on ints and preds. */
static cxla_status rule_logic(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (!(is_integral(t) || t == T_PRED)) return NULL;
  if (a == b && in->op != OP_XOR) return (*out = a), NULL;
  if (a == b) {
    if (!(*out = zeros_like(s, in))) return cxla_oom();
    return NULL;
  }
  int64_t ones = simp_all_ones(t);
  for (int k = 0; k < 2; k++) {
    Instr *x = k ? b : a, *z = k ? a : b;
    if (in->op == OP_AND && is_int_value(z, ones)) return (*out = x), NULL;
    if (in->op != OP_AND && is_int_value(z, 0)) return (*out = x), NULL;
    if ((in->op == OP_AND && is_int_value(z, 0)) || (in->op == OP_OR && is_int_value(z, ones))) {
      /* The constant itself, in the result's shape. */
      if (!(*out = simp_filled(s, in->shape, 0, in->op == OP_AND ? 0 : ones))) return cxla_oom();
      return NULL;
    }
  }
  return NULL;
}

/* pow(x, 0) -> 1, pow(x, 1) -> x, pow(x, 2) -> x * x, float pow(x, -1) ->
 * 1 / x. pow(x, 0.5) stays: sqrt(-0) = -0 but pow(-0, 0.5) = +0. */
static cxla_status rule_power(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  ElemType t = in->shape->type;
  if (!(is_real_float(t) || is_integral(t))) return NULL;
  const Literal *l = as_uniform(b);
  if (!l) return NULL;
  double e = literal_get_f64(l, 0);
  if (e == 0) {
    if (!(*out = simp_filled(s, in->shape, 1.0, 1))) return cxla_oom();
  } else if (e == 1) {
    *out = a;
  } else if (e == 2) {
    if (!(*out = binary(s, OP_MULTIPLY, in, a, a))) return cxla_oom();
  } else if (e == -1 && is_real_float(t)) {
    Instr *one = simp_filled(s, in->shape, 1.0, 1);
    if (!one || !(*out = binary(s, OP_DIVIDE, in, one, a))) return cxla_oom();
  }
  return NULL;
}

/* compare(x, x): always decided for ints and preds, and for floats under
 * the total order (a NaN equals itself there). */
static cxla_status rule_compare(Simp *s, Instr *in, Instr **out) {
  Instr *a = in->operands[0], *b = in->operands[1];
  if (a != b) return NULL;
  ElemType t = a->shape->type;
  bool exact = is_integral(t) || t == T_PRED ||
               (is_real_float(t) && in->cmp_type == CMPT_TOTALORDER);
  if (!exact) return NULL;
  bool v;
  switch (in->cmp_dir) {
  case CMP_EQ: case CMP_LE: case CMP_GE: v = true; break;
  case CMP_NE: case CMP_LT: case CMP_GT: v = false; break;
  default: return NULL;
  }
  if (!(*out = simp_filled(s, in->shape, v, v))) return cxla_oom();
  return NULL;
}

/* select(p, x, x) -> x; select(constant p, a, b) -> a or b;
 * select(not(p), a, b) -> select(p, b, a). */
static cxla_status rule_select(Simp *s, Instr *in, Instr **out) {
  Instr *p = in->operands[0], *a = in->operands[1], *b = in->operands[2];
  if (a == b) return (*out = a), NULL;
  bool v;
  if (uniform_bool(p, &v)) return (*out = v ? a : b), NULL;
  if (p->op == OP_NOT && p->shape->type == T_PRED) {
    Instr *ops[3] = {p->operands[0], b, a};
    if (!(*out = simp_new(s, OP_SELECT, in->shape, 3, ops))) return cxla_oom();
  }
  return NULL;
}

/* Whether every value of type `from` converts to `to` and back exactly. */
static bool lossless(ElemType from, ElemType to) {
  if (from == to) return true;
  TypeKind kf = type_kind(from), kt = type_kind(to);
  int bf = type_bits(from), bt = type_bits(to);
  if (kf == TK_PRED) return kt == TK_SINT || kt == TK_UINT || kt == TK_FLOAT;
  if (kf == TK_SINT && kt == TK_SINT) return bt >= bf;
  if (kf == TK_UINT && kt == TK_UINT) return bt >= bf;
  if (kf == TK_UINT && kt == TK_SINT) return bt > bf;
  /* Integers into floats: the magnitude must fit the significand. */
  int sig = to == T_F64 ? 53 : to == T_F32 ? 24 : to == T_F16 ? 11 : to == T_BF16 ? 8 : 0;
  if ((kf == TK_SINT || kf == TK_UINT) && kt == TK_FLOAT)
    return sig > 0 && (kf == TK_SINT ? bf - 1 : bf) <= sig;
  if (kf == TK_FLOAT && kt == TK_FLOAT) {
    if (to == T_F64) return from == T_F32 || from == T_F16 || from == T_BF16;
    if (to == T_F32) return from == T_F16 || from == T_BF16;
  }
  return false;
}

/* convert to the same type -> x; convert(convert(x, T2), T3) with T2
 * holding every value of x exactly -> convert(x, T3), or x if T3 is x's
 * type. */
static cxla_status rule_convert(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  if (x->shape->type == in->shape->type) return (*out = x), NULL;
  if (x->op != OP_CONVERT) return NULL;
  Instr *src = x->operands[0];
  if (!lossless(src->shape->type, x->shape->type)) return NULL;
  if (src->shape->type == in->shape->type) return (*out = src), NULL;
  if (!(*out = simp_new(s, OP_CONVERT, in->shape, 1, &src))) return cxla_oom();
  return NULL;
}

/* A non-scalar constant whose elements are all equal -> broadcast of a
 * scalar constant (the canonical form other rules and passes expect). */
static cxla_status rule_constant(Simp *s, Instr *in, Instr **out) {
  const Literal *l = in->literal;
  if (in->shape->rank == 0 || !l || l->nelems < 2 || !as_uniform(in)) return NULL;
  Literal *scalar;
  TRY(literal_create(l->type, 0, NULL, &scalar));
  memcpy(scalar->data, l->data, (size_t)type_bytes(l->type));
  TRY(module_own_literal(s->m, scalar));
  Shape *sh = shape_new(&s->m->arena, l->type, 0, NULL);
  if (!sh) return cxla_oom();
  Instr *c = comp_add_instr(s->c, OP_CONSTANT, sh, 0, NULL, NULL);
  if (!c) return cxla_oom();
  c->literal = scalar;
  Instr *b = simp_new(s, OP_BROADCAST, in->shape, 1, &c);
  if (!b) return cxla_oom();
  b->attrs |= A_DIMENSIONS;
  *out = b;
  return NULL;
}

/* An elementwise op whose operands are all broadcasts of scalars ->
 * broadcast of the op on the scalars (the same value in every element;
 * constant folding then sees scalar constants). */
static cxla_status sink_scalar_broadcasts(Simp *s, Instr *in, Instr **out) {
  if (in->shape->rank == 0 || in->noperands < 1 || in->noperands > 8 || in->ncalled) return NULL;
  Instr *scalars[8];
  for (int k = 0; k < in->noperands; k++) {
    const Instr *b = in->operands[k];
    if (b->op != OP_BROADCAST || b->operands[0]->shape->rank != 0) return NULL;
    scalars[k] = b->operands[0];
  }
  Instr *op = instr_clone(s->c, in, in->noperands, scalars, NULL);
  if (!op) return cxla_oom();
  Shape *sh = shape_new(&s->m->arena, in->shape->type, 0, NULL);
  if (!sh) return cxla_oom();
  op->shape = sh;
  op->ncontrol_preds = 0;
  Instr *b = simp_new(s, OP_BROADCAST, in->shape, 1, &op);
  if (!b) return cxla_oom();
  b->attrs |= A_DIMENSIONS;
  b->dimensions = (I64List){0, NULL};
  *out = b;
  return NULL;
}

/* real(complex(a, b)) -> a, imag(complex(a, b)) -> b, complex(real(z),
 * imag(z)) -> z (XLA:CPU's output for these). */
static cxla_status rule_complex_parts(Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  if ((in->op == OP_REAL || in->op == OP_IMAG) && x->op == OP_COMPLEX && x->noperands == 2) {
    Instr *part = x->operands[in->op == OP_REAL ? 0 : 1];
    if (shape_equal(part->shape, in->shape, true)) *out = part;
  } else if (in->op == OP_COMPLEX && in->noperands == 2) {
    Instr *re = in->operands[0], *im = in->operands[1];
    if (re->op == OP_REAL && im->op == OP_IMAG && re->operands[0] == im->operands[0] &&
        shape_equal(re->operands[0]->shape, in->shape, true))
      *out = re->operands[0];
  }
  return NULL;
}

/* reduce-precision to the type's own exponent and mantissa widths is the
 * identity (XLA's no-op reduce-precision rule). */
static cxla_status rule_reduce_precision(Instr *in, Instr **out) {
  static const struct { ElemType t; int64_t e, m; } kOwn[] = {
      {T_F16, 5, 10}, {T_BF16, 8, 7}, {T_F32, 8, 23}, {T_F64, 11, 52}};
  for (size_t i = 0; i < sizeof kOwn / sizeof kOwn[0]; i++)
    if (in->shape->type == kOwn[i].t && in->exponent_bits == kOwn[i].e &&
        in->mantissa_bits == kOwn[i].m)
      *out = in->operands[0];
  return NULL;
}

/* iota along a dimension of size 1 is all zeros. */
static cxla_status rule_iota(Simp *s, Instr *in, Instr **out) {
  int64_t d = in->index;
  if (d < 0 || d >= in->shape->rank || in->shape->dims[d] != 1) return NULL;
  if (!(*out = zeros_like(s, in))) return cxla_oom();
  return NULL;
}

cxla_status algsimp_arith(Simp *s, Instr *in, Instr **out) {
  if (!type_is_array(in->shape->type)) return NULL;
  if ((op_info(in->op)->flags & OPF_EW) && in->op != OP_MAP) {
    TRY(sink_scalar_broadcasts(s, in, out));
    if (*out) return NULL;
  }
  switch (in->op) {
  case OP_ADD: return rule_add(s, in, out);
  case OP_SUBTRACT: return rule_subtract(s, in, out);
  case OP_MULTIPLY: return rule_multiply(s, in, out);
  case OP_DIVIDE: return rule_divide(s, in, out);
  case OP_MAXIMUM: case OP_MINIMUM: return rule_minmax(s, in, out);
  case OP_AND: case OP_OR: case OP_XOR: return rule_logic(s, in, out);
  case OP_POWER: return rule_power(s, in, out);
  case OP_COMPARE: return rule_compare(s, in, out);
  case OP_SELECT: return rule_select(s, in, out);
  case OP_CONVERT: return rule_convert(s, in, out);
  case OP_CONSTANT: return rule_constant(s, in, out);
  case OP_REAL: case OP_IMAG: case OP_COMPLEX: return rule_complex_parts(in, out);
  case OP_REDUCE_PRECISION: return rule_reduce_precision(in, out);
  case OP_IOTA: return rule_iota(s, in, out);
  case OP_NEGATE:
  case OP_NOT:
    /* negate(negate(x)) -> x; not(not(x)) -> x. */
    if (in->operands[0]->op == in->op) *out = in->operands[0]->operands[0];
    return NULL;
  case OP_ABS: {
    /* abs(negate(x)) -> abs(x); abs(abs(x)) -> abs(x). */
    Instr *x = in->operands[0];
    if (type_is_complex(x->shape->type)) return NULL;
    if (x->op == OP_ABS) *out = x;
    else if (x->op == OP_NEGATE && !(*out = simp_new(s, OP_ABS, in->shape, 1, &x->operands[0])))
      return cxla_oom();
    return NULL;
  }
  case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
    /* x shifted by 0 -> x. */
    if (is_int_value(in->operands[1], 0)) *out = in->operands[0];
    return NULL;
  default:
    return NULL;
  }
}
