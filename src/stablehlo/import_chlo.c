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


/* ---- expansions ------------------------------------------------------------------ */

/* Short names for the builders on one shape. */
#define K(v) ib_const(s, x->shape->type, (v), x->shape)
#define ADD(a, b) ib2(s, OP_ADD, (a), (b))
#define SUB(a, b) ib2(s, OP_SUBTRACT, (a), (b))
#define MUL(a, b) ib2(s, OP_MULTIPLY, (a), (b))
#define DIV(a, b) ib2(s, OP_DIVIDE, (a), (b))
#define U(op, a) ib1(s, OP_##op, (a))
#define SEL(p, a, b) ib_select(s, (p), (a), (b))
#define CMP(d, a, b) ib_cmp(s, CMP_##d, (a), (b))

/* Horner as XLA's expansions write it: c0*y + c1, then *y + c2, ... */
static Instr *poly(Scope *s, Instr *x, Instr *y, const double *c, int n) {
  Instr *p = MUL(y, K(c[0]));
  for (int k = 1; k < n; k++) {
    p = ADD(p, K(c[k]));
    if (k < n - 1) p = MUL(p, y);
  }
  return p;
}

/* Runs an f32 expansion for f16/bf16 inputs (as XLA does) and f32 inputs;
 * f64 gets `f64` when given. */
typedef Instr *(*Expand)(Scope *s, Instr *x);
static cxla_status upcast_f32(Scope *s, const MlirOp *op, Instr *x, Expand f32, Expand f64,
                              Instr **out) {
  ElemType t = x->shape->type;
  if (t == T_F64 && f64) {
    *out = f64(s, x);
  } else if (t == T_F32 || t == T_F16 || t == T_BF16) {
    *out = ib_convert(s, f32(s, ib_convert(s, x, T_F32)), t);
  } else {
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "not supported for element type %s",
                   type_name(t));
  }
  IMP_NN(*out);
  return NULL;
}

/* erf_inv, f32: Giles' single-precision approximation. */
static Instr *erf_inv_f32(Scope *s, Instr *x) {
  static const double a[9] = {2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
                              -4.39150654e-06, 0.00021858087,  -0.00125372503,
                              -0.00417768164,  0.246640727,    1.50140941};
  static const double b[9] = {-0.000200214257, 0.000100950558, 0.00134934322,
                              -0.00367342844,  0.00573950773,  -0.0076224613,
                              0.00943887047,   1.00167406,     2.83297682};
  Instr *w = U(NEGATE, U(LOG1P, MUL(x, U(NEGATE, x))));
  Instr *lt = CMP(LT, w, K(5));
  Instr *ww = SEL(lt, SUB(w, K(2.5)), SUB(U(SQRT, w), K(3)));
  Instr *p = SEL(lt, K(a[0]), K(b[0]));
  for (int k = 1; k < 9; k++) p = ADD(SEL(lt, K(a[k]), K(b[k])), MUL(p, ww));
  Instr *r = MUL(p, x);
  return SEL(CMP(EQ, U(ABS, x), K(1)), MUL(x, K(INFINITY)), r);
}

static cxla_status c_erf_inv(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], erf_inv_f32, NULL, out);
}

/* erfc, f32: 1 - erf(x) (polynomial) for |x| < 1, else exp(-x^2)/|x| times
 * a rational-free polynomial in 1/x^2, reflected for x < 0. */
static Instr *erfc_f32(Scope *s, Instr *x) {
  static const double e[7] = {7.85386146e-05, -0.000801019371, 0.00518832775, -0.0268538129,
                              0.112835854,    -0.37612626,     1.12837911};
  static const double pc[9] = {0.0232682,    -0.138703942, 0.368742466,
                               -0.582473278, 0.621000469,  -0.494451523,
                               0.340488,     -0.274112701, 0.563825965};
  static const double rc[8] = {-10.477664,  12.9772,    -7.49551868,  2.92101908,
                               -1.01526523, 0.42184633, -0.282076746, 0.564189494};
  Instr *one = K(1);
  Instr *small = CMP(LT, U(ABS, x), one);
  Instr *x2 = MUL(x, x);
  Instr *small_res = SUB(one, MUL(x, poly(s, x, x2, e, 7)));
  Instr *neg = CMP(LT, x, K(0));
  Instr *two = K(2);
  Instr *xx = MUL(x, x);
  Instr *mxx = U(NEGATE, xx);
  Instr *under = CMP(LT, mxx, K(-88.72283905206835));
  Instr *z = U(EXP, mxx);
  Instr *ax = U(ABS, x);
  Instr *zq = MUL(z, DIV(one, ax));
  Instr *lt2 = CMP(LT, ax, two);
  Instr *y = DIV(one, xx);
  Instr *p = SEL(lt2, poly(s, x, y, pc, 9), poly(s, x, y, rc, 8));
  Instr *r = SEL(under, K(0), MUL(zq, p));
  r = SEL(neg, SUB(two, r), r);
  return SEL(small, small_res, r);
}

static cxla_status c_erfc(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], erfc_f32, NULL, out);
}

/* Lanczos approximation (g = 7, n = 9), XLA's constants. */
static const double kLanczos[8] = {
    676.520368121885098567009190444019, -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,   -176.61502916214059906584551354,
    12.507343278686904814458936853,     -0.13857109526572011689554707,
    9.984369578019570859563e-6,         1.50563273514931155834e-7};
static const double kLanczosBase = 0.99999999999980993227684700473478;
static const double kLanczosGamma = 7.5; /* g + 1/2 */

static Instr *lgamma_any(Scope *s, Instr *x) {
  Instr *reflect = CMP(LT, x, K(0.5));
  Instr *z = SEL(reflect, U(NEGATE, x), SUB(x, K(1)));
  Instr *t = ADD(z, K(kLanczosGamma));
  Instr *log_t = ADD(U(LOG1P, DIV(z, K(kLanczosGamma))), K(log(kLanczosGamma)));
  Instr *log_y = ADD(MUL(SUB(ADD(z, K(0.5)), DIV(t, log_t)), log_t), K(0.91893853320467274178));
  Instr *sum = ADD(DIV(K(kLanczos[0]), ADD(z, K(1))), K(kLanczosBase));
  for (int k = 1; k < 8; k++) sum = ADD(sum, DIV(K(kLanczos[k]), ADD(z, K(k + 1))));
  log_y = ADD(log_y, U(LOG, sum));
  Instr *ax = U(ABS, x);
  Instr *frac = SUB(ax, U(FLOOR, ax));
  frac = SEL(CMP(LT, K(0.5), frac), SUB(K(1), frac), frac);
  Instr *denom = U(LOG, U(SIN, MUL(frac, K(M_PI))));
  Shape *psh = shape_with_type(s, x->shape, T_PRED);
  Instr *fin = psh && denom ? ib(s, OP_IS_FINITE, psh, 1, &denom) : NULL;
  Instr *refl = SEL(fin, SUB(SUB(K(1.1447298858494002), denom), log_y),
                    U(NEGATE, denom));
  Instr *r = SEL(reflect, refl, log_y);
  return SEL(CMP(EQ, U(ABS, x), K(INFINITY)), K(INFINITY), r);
}

static cxla_status c_lgamma(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], lgamma_any, lgamma_any, out);
}

static Instr *digamma_any(Scope *s, Instr *x) {
  Instr *reflect = CMP(LT, x, K(0.5));
  Instr *z = SEL(reflect, U(NEGATE, x), SUB(x, K(1)));
  Instr *num = NULL, *den = NULL;
  for (int k = 0; k < 8; k++) {
    Instr *zk = ADD(z, K(k + 1));
    Instr *q = DIV(K(kLanczos[k]), MUL(zk, zk));
    num = SUB(k ? num : K(0), q);
    Instr *d = DIV(K(kLanczos[k]), zk);
    den = k ? ADD(den, d) : ADD(d, K(kLanczosBase));
  }
  Instr *t = ADD(z, K(kLanczosGamma));
  Instr *log_t = ADD(U(LOG1P, DIV(z, K(kLanczosGamma))), K(log(kLanczosGamma)));
  Instr *y = SUB(ADD(log_t, DIV(num, den)), DIV(K(7), t));
  Instr *red = ADD(x, U(ABS, U(FLOOR, ADD(x, K(0.5)))));
  Instr *a = MUL(red, K(M_PI));
  Instr *refl = SUB(y, DIV(MUL(U(COS, a), K(M_PI)), U(SIN, a)));
  Instr *r = SEL(reflect, refl, y);
  Instr *pole = ib2(s, OP_AND, CMP(LE, x, K(0)), CMP(EQ, x, U(FLOOR, x)));
  return SEL(pole, K(NAN), r);
}

static cxla_status c_digamma(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], digamma_any, digamma_any, out);
}

/* next_after(x, y): the neighbour of x towards y, on the bits. */
static cxla_status c_next_after(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Instr *a = ops[0], *b = ops[1];
  ElemType ft = a->shape->type, it;
  switch (type_bits(ft)) {
  case 16: it = T_S16; break;
  case 32: it = T_S32; break;
  case 64: it = T_S64; break;
  default:
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "not supported for %s", type_name(ft));
  }
  if (!type_is_float(ft)) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "needs floats");
  int bits = type_bits(ft);
  const Shape *sh = a->shape;
  Shape *ish = shape_with_type(s, sh, it);
  IMP_NN(ish);
#define BC(v) ib(s, OP_BITCAST_CONVERT, ish, 1, &(v))
#define KI(v) ib_const_i(s, it, (v), sh)
  Instr *nan_in = ib2(s, OP_OR, ib_cmp(s, CMP_NE, a, a), ib_cmp(s, CMP_NE, b, b));
  Instr *nanc = ib_const(s, ft, NAN, sh);
  Instr *nan_res = nanc ? BC(nanc) : NULL;
  Instr *eq = ib_cmp(s, CMP_EQ, a, b);
  Instr *bi = BC(b), *ai = BC(a);
  int64_t absmask = (int64_t)((bits == 64 ? ~0ull : ((1ull << bits) - 1)) >> 1);
  int64_t signmask = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
  Instr *am = KI(absmask), *sm = KI(signmask), *zero = KI(0), *one = KI(1);
  Instr *a_abs = ib2(s, OP_AND, ai, am);
  Instr *a_zero = ib_cmp(s, CMP_EQ, a_abs, zero);
  Instr *b_abs = ib2(s, OP_AND, bi, am);
  Instr *b_zero = ib_cmp(s, CMP_EQ, b_abs, zero);
  Instr *b_sign = ib2(s, OP_AND, bi, sm);
  Instr *res_x0 = ib_select(s, b_zero, bi, ib2(s, OP_OR, b_sign, one));
  Instr *a_sign = ib2(s, OP_AND, ai, sm);
  Instr *smaller = ib2(s, OP_OR, ib_cmp(s, CMP_GT, a_abs, b_abs), ib_cmp(s, CMP_NE, a_sign, b_sign));
  Instr *adj = ib_select(s, smaller, KI(-1), one);
  Instr *r = ib2(s, OP_ADD, ai, adj);
  r = ib_select(s, a_zero, res_x0, r);
  r = ib_select(s, eq, bi, r);
  r = ib_select(s, nan_in, nan_res, r);
  IMP_NN(r);
  *out = ib(s, OP_BITCAST_CONVERT, a->shape, 1, &r);
  IMP_NN(*out);
#undef BC
#undef KI
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
    {"erf_inv", c_erf_inv}, {"erfc", c_erfc}, {"lgamma", c_lgamma}, {"digamma", c_digamma},
    {"next_after", c_next_after},
};

ImpFn imp_chlo_lookup(const char *name) {
  if (strncmp(name, "chlo.", 5)) return NULL;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (!strcmp(name + 5, table[k].name)) return table[k].fn;
  return NULL;
}
