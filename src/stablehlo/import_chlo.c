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
DIRECT(c_tan, TAN)
DIRECT(c_erf, ERF)
DIRECT(c_mulhi, MULHI)

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

/* cosh and sinh: real types map to HLO's ops; complex ones expand as XLA
 * does, e^(x + log 1/2) +- e^(log 1/2 - x) (the complex exp's special
 * values carry through: cosh(inf + inf i) is NaN + NaN i, not C's
 * inf + NaN i). */
static cxla_status hyperbolic(Scope *s, const MlirOp *op, Instr **ops, Opcode real_op, Opcode join,
                              Instr **out) {
  Instr *x = ops[0];
  if (!type_is_complex(x->shape->type)) return direct(s, op, ops, real_op, out);
  Instr *log_half = U(LOG, K(0.5));
  Instr *e_plus = U(EXP, ADD(x, log_half));
  Instr *e_minus = U(EXP, SUB(log_half, x));
  *out = ib2(s, join, e_plus, e_minus);
  IMP_NN(*out);
  return NULL;
}
static cxla_status c_cosh(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return hyperbolic(s, op, ops, OP_COSH, OP_ADD, out);
}
static cxla_status c_sinh(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return hyperbolic(s, op, ops, OP_SINH, OP_SUBTRACT, out);
}

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


/* Monic Horner: (y + c0) * y + c1 ... (the denominators). */
static Instr *poly_monic(Scope *s, Instr *x, Instr *y, const double *c, int n) {
  Instr *p = ADD(y, K(c[0]));
  for (int k = 1; k < n; k++) p = ADD(MUL(p, y), K(c[k]));
  return p;
}

/* erf_inv, f64: Giles' double-precision approximation, three ranges of
 * w = -log(1 - x^2): w < 6.25, w < 16, else. */
static Instr *erf_inv_f64(Scope *s, Instr *x) {
  static const double a[23] = {
      -3.64441206401782e-21,   -1.6850591381820166e-19, 1.28584807152564e-18,
      1.1157877678025181e-17,  -1.3331716628546209e-16, 2.0972767875968562e-17,
      6.6376381343583238e-15,  -4.0545662729752069e-14, -8.1519341976054722e-14,
      2.6335093153082323e-12,  -1.2975133253453532e-11, -5.4154120542946279e-11,
      1.0512122733215323e-09,  -4.1126339803469837e-09, -2.9070369957882005e-08,
      4.2347877827932404e-07,  -1.3654692000834679e-06, -1.3882523362786469e-05,
      0.00018673420803405714,  -0.000740702534166267,   -0.0060336708714301491,
      0.24015818242558962,     1.6536545626831027};
  static const double b[19] = {
      2.2137376921775787e-09,  9.0756561938885391e-08,  -2.7517406297064545e-07,
      1.8239629214389228e-08,  1.5027403968909828e-06,  -4.013867526981546e-06,
      2.9234449089955446e-06,  1.2475304481671779e-05,  -4.7318229009055734e-05,
      6.8284851459573175e-05,  2.4031110387097894e-05,  -0.00035503752036284748,
      0.0009532893797373805,   -0.0016882755560235047,  0.0024914420961078508,
      -0.0037512085075692412,  0.0053709145535900636,  1.0052589676941592,
      3.0838856104922208};
  static const double c[17] = {
      -2.7109920616438573e-11, -2.5556418169965252e-10, 1.5076572693500548e-09,
      -3.789465440126737e-09,  7.61570120807834e-09,    -1.496002662714924e-08,
      2.9147953450901081e-08,  -6.7711997758452339e-08, 2.2900482228026655e-07,
      -9.9298272942317e-07,    4.5260625972231537e-06,  -1.9681778105531671e-05,
      7.5995277030017761e-05,  -0.00021503011930044477, -0.00013871931833623122,
      1.0103004648645344,      4.8499064014085844};
  Instr *w = U(NEGATE, U(LOG1P, MUL(x, U(NEGATE, x))));
  Instr *lt6 = CMP(LT, w, K(6.25)), *lt16 = CMP(LT, w, K(16));
  Instr *ww = SEL(lt6, SUB(w, K(3.125)), SUB(U(SQRT, w), SEL(lt16, K(3.25), K(5))));
  Instr *p = SEL(lt16, SEL(lt6, K(a[0]), K(b[0])), K(c[0]));
  for (int k = 1; k < 17; k++) p = ADD(SEL(lt16, SEL(lt6, K(a[k]), K(b[k])), K(c[k])), MUL(p, ww));
  for (int k = 17; k < 19; k++) p = SEL(lt16, ADD(SEL(lt6, K(a[k]), K(b[k])), MUL(p, ww)), p);
  for (int k = 19; k < 23; k++) p = SEL(lt6, ADD(MUL(p, ww), K(a[k])), p);
  Instr *r = MUL(p, x);
  return SEL(CMP(EQ, U(ABS, x), K(1)), MUL(x, K(INFINITY)), r);
}

/* erfc, f64 (Cephes' ndtr coefficients): 1 - x T(x^2)/U(x^2) for |x| < 1,
 * else exp(-x^2) P(|x|)/Q(|x|) below 8 and exp(-x^2) R(|x|)/S(|x|) above. */
static Instr *erfc_f64(Scope *s, Instr *x) {
  static const double t[5] = {9.6049737398705162, 90.026019720384269, 2232.0053459468431,
                              7003.3251411280507, 55592.301301039493};
  static const double u[5] = {33.561714164750313, 521.35794978015269, 4594.3238297098014,
                              22629.000061389095, 49267.394260863592};
  static const double pc[9] = {2.4619698147353052e-10, 0.56418956483106886, 7.4632105644226989,
                               48.637197098568137,     196.5208329560771,   526.44519499547732,
                               934.52852717195765,     1027.5518868951572,  557.53533536939938};
  static const double qc[8] = {13.228195115474499, 86.707214088598974, 354.93777888781989,
                               975.70850174320549, 1823.9091668790973, 2246.3376081871097,
                               1656.6630919416134, 557.53534081772773};
  static const double rc[6] = {0.56418958354775506, 1.275366707599781,  5.0190504225118051,
                               6.160210979930536,   7.4097426995044895, 2.9788666537210022};
  static const double sc[6] = {2.2605286322011726, 9.3960352493800148, 12.048953980809666,
                               17.081445074756591, 9.6089680906328585, 3.3690764510008151};
  Instr *one = K(1);
  Instr *small = CMP(LT, U(ABS, x), one);
  Instr *x2 = MUL(x, x);
  Instr *small_res = SUB(one, DIV(MUL(x, poly(s, x, x2, t, 5)), poly_monic(s, x, x2, u, 5)));
  Instr *neg = CMP(LT, x, K(0));
  Instr *mxx = U(NEGATE, MUL(x, x));
  Instr *under = CMP(LT, mxx, K(-709.782712893384));
  Instr *ax = U(ABS, x);
  Instr *lt8 = CMP(LT, ax, K(8));
  Instr *z = U(EXP, mxx);
  Instr *pp = DIV(MUL(z, poly(s, x, ax, pc, 9)), poly_monic(s, x, ax, qc, 8));
  Instr *rr = DIV(MUL(z, poly(s, x, ax, rc, 6)), poly_monic(s, x, ax, sc, 6));
  Instr *y = SEL(under, K(0), SEL(lt8, pp, rr));
  y = SEL(neg, SUB(K(2), y), y);
  return SEL(small, small_res, y);
}

static cxla_status c_erf_inv(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], erf_inv_f32, erf_inv_f64, out);
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
  return upcast_f32(s, op, ops[0], erfc_f32, erfc_f64, out);
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


/* Hurwitz zeta(x, q), f32 and f64: the first 10 terms summed, then Euler-Maclaurin
 * with the Bernoulli terms B(2k)/(2k)!, k = 1..12, as XLA expands it. */
static Instr *zeta_any(Scope *s, Instr *x, Instr *q) {
  static const double bern[12] = {
      -1.3954464685812522e-19, 5.5090028283602295e-18, -2.1748686985580619e-16,
      8.5860620562778446e-15,  -3.3896802963225829e-13, 1.3382536530684679e-11,
      -5.2841901386874932e-10, 2.0876756987868100e-08, -8.2671957671957673e-07,
      3.3068783068783070e-05,  -1.3888888888888889e-03, 8.3333333333333333e-02};
  Instr *neg_x = U(NEGATE, x);
  Instr *a = q, *sum = NULL;
  for (int k = 0; k < 10; k++) {
    Instr *t = ib2(s, OP_POWER, a, neg_x);
    sum = k ? ADD(sum, t) : t;
    a = ADD(a, K(1));
  }
  Instr *a_pow = ib2(s, OP_POWER, a, neg_x);
  Instr *tiny = CMP(LT, U(ABS, a_pow), MUL(U(ABS, sum), K(x->shape->type == T_F64 ? 4.9406564584124654e-324 : 1.401298464324817e-45)));
  Instr *s_plus = ADD(sum, DIV(MUL(a_pow, a), SUB(x, K(1))));
  Instr *t = DIV(x, a);
  Instr *inv_a2 = DIV(K(1), MUL(a, a));
  Instr *r = MUL(inv_a2, K(bern[0]));
  for (int j = 11; j >= 1; j--) {
    r = MUL(MUL(ADD(x, K(2 * j)), ADD(x, K(2 * j - 1))), r);
    r = ADD(r, K(bern[12 - j]));
    if (j > 1) r = MUL(inv_a2, r);
  }
  Instr *res = ADD(s_plus, MUL(a_pow, ADD(MUL(t, r), K(0.5))));
  res = SEL(tiny, sum, res);
  res = SEL(CMP(LT, x, K(1)), K(NAN), res);
  Instr *q_le0 = CMP(LE, q, K(0));
  Instr *q_int = CMP(EQ, q, U(FLOOR, q));
  Instr *x_int = CMP(EQ, x, U(FLOOR, x));
  Instr *x_even = CMP(EQ, ib2(s, OP_REMAINDER, x, K(2)), K(0));
  res = SEL(ib2(s, OP_AND, q_le0, CMP(NE, x, U(FLOOR, x))), K(NAN), res);
  res = SEL(ib2(s, OP_AND, q_le0, q_int), SEL(ib2(s, OP_AND, x_int, x_even), K(INFINITY), K(NAN)),
            res);
  return SEL(CMP(EQ, x, K(1)), K(INFINITY), res);
}

static cxla_status binary_f32(Scope *s, const MlirOp *op, Instr **ops,
                              Instr *(*f)(Scope *, Instr *, Instr *), Instr **out) {
  ElemType t = ops[0]->shape->type;
  if (t == T_F64) {
    *out = f(s, ops[0], ops[1]);
    IMP_NN(*out);
    return NULL;
  }
  if (t != T_F32 && t != T_F16 && t != T_BF16)
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "not supported for element type %s yet",
                   type_name(t));
  Instr *a = ib_convert(s, ops[0], T_F32), *b = ib_convert(s, ops[1], T_F32);
  IMP_NN(a && b);
  *out = ib_convert(s, f(s, a, b), t);
  IMP_NN(*out);
  return NULL;
}

static cxla_status c_zeta(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return binary_f32(s, op, ops, zeta_any, out);
}

/* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x); digamma for n = 0; NaN
 * for a non-integer n. */
static Instr *polygamma_any(Scope *s, Instr *n, Instr *x) {
  ElemType ft = n->shape->type;
  Instr *one = ib_const(s, ft, 1, n->shape);
  Instr *sign = ib_select(s, ib_cmp(s, CMP_EQ, ib2(s, OP_REMAINDER, n, ib_const(s, ft, 2, n->shape)),
                                    ib_const(s, ft, 0, n->shape)),
                          ib_const(s, ft, -1, n->shape), one);
  Instr *n1 = ib2(s, OP_ADD, n, one);
  Instr *fact = ib1(s, OP_EXP, lgamma_any(s, n1));
  Instr *r = ib2(s, OP_MULTIPLY, ib2(s, OP_MULTIPLY, sign, fact), zeta_any(s, n1, x));
  r = ib_select(s, ib_cmp(s, CMP_NE, n, ib1(s, OP_FLOOR, n)), ib_const(s, ft, NAN, n->shape), r);
  return ib_select(s, ib_cmp(s, CMP_EQ, n, ib_const(s, ft, 0, n->shape)), digamma_any(s, x), r);
}

static cxla_status c_polygamma(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return binary_f32(s, op, ops, polygamma_any, out);
}

/* Clenshaw's recurrence for a Chebyshev series (Cephes' chbevl), with the
 * leading zero terms written as XLA's expansion writes them. */
static Instr *chbevl(Scope *s, Instr *x, Instr *y, const double *c, int n) {
  Instr *b0 = ADD(MUL(y, K(0)), K(c[0])), *b1 = NULL, *b2 = NULL;
  for (int k = 1; k < n; k++) {
    b2 = b1;
    b1 = b0;
    b0 = MUL(y, b1);
    if (b2) b0 = SUB(b0, b2);
    b0 = ADD(b0, K(c[k]));
  }
  return MUL(b2 ? SUB(b0, b2) : b0, K(0.5));
}

/* bessel_i1e: Cephes' i1e Chebyshev series on [0, 8] and (8, inf). */
static Instr *i1e_series(Scope *s, Instr *x, const double *a, int na, const double *b, int nb) {
  Instr *ax = U(ABS, x);
  Instr *small = MUL(ax, chbevl(s, x, SUB(MUL(ax, K(0.5)), K(2)), a, na));
  Instr *large = DIV(chbevl(s, x, SUB(DIV(K(32), ax), K(2)), b, nb), U(SQRT, ax));
  return MUL(U(SIGN, x), SEL(CMP(LE, ax, K(8)), small, large));
}

static Instr *i1e_f32(Scope *s, Instr *x) {
  static const double a[17] = {9.38153732e-09,  -4.44505908e-08, 2.00329481e-07, -8.56872e-07,
                               3.47025139e-06,  -1.32731639e-05, 4.78156508e-05, -0.000161760821,
                               0.000512286,     -0.00151357241,  0.0041564228,   -0.0105640851,
                               0.0247264486,    -0.0529459827,   0.102643661,    -0.176416516,
                               0.252587199};
  static const double b[7] = {-3.83538046e-09, -2.63146891e-08, -2.51223611e-07, -3.88256467e-06,
                              -0.000110588939, -0.00976109784,  0.778576255};
  return i1e_series(s, x, a, 17, b, 7);
}

static Instr *i1e_f64(Scope *s, Instr *x) {
  static const double a[29] = {
      2.7779141127610464e-18,  -2.111421214358166e-17,  1.5536319577362005e-16,
      -1.1055969477353862e-15, 7.6006842947354077e-15,  -5.0421855047279118e-14,
      3.2237933659455748e-13,  -1.9839743977649436e-12, 1.1736186298890901e-11,
      -6.6634897235020271e-11, 3.6255902815521172e-10,  -1.8872497517228294e-09,
      9.3815373864957726e-09,  -4.4450591287963281e-08, 2.0032947535521353e-07,
      -8.5687202646954547e-07, 3.4702513081376785e-06,  -1.3273163656039436e-05,
      4.7815651075500542e-05,  -0.00016176081582589674, 0.00051228595616857576,
      -0.0015135724506312532,  0.0041564229443128882,   -0.010564084894626197,
      0.024726449030626516,    -0.052945981208094989,   0.10264365868984709,
      -0.17641651835783406,    0.25258718644363365};
  static const double b[25] = {
      7.5172963108421052e-18,  4.4143483230717077e-18,  -4.6503053684893586e-17,
      -3.2095259219934238e-17, 2.96262899764595e-16,    3.3082023109209285e-16,
      -1.8803547755107825e-15, -3.8144030724370075e-15, 1.0420276984128802e-14,
      4.272440016711951e-14,   -2.1015418427726643e-14, -4.0835511110921974e-13,
      -7.1985517762459084e-13, 2.0356285441470896e-12,  1.4125807436613782e-11,
      3.2526035830154884e-11,  -1.8974958123505413e-11, -5.5897434621965838e-10,
      -3.835380385964237e-09,  -2.6314688468895196e-08, -2.5122362378702088e-07,
      -3.8825648088776906e-06, -0.00011058893876262371, -0.0097610974913614687,
      0.77857623501828011};
  return i1e_series(s, x, a, 29, b, 25);
}

static cxla_status c_bessel_i1e(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return upcast_f32(s, op, ops[0], i1e_f32, i1e_f64, out);
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


/* is_inf, is_pos_inf, is_neg_inf: comparisons with infinity. */
static cxla_status inf_test(Scope *s, const MlirOp *op, Instr *x, int which, Instr **out) {
  if (!type_is_float(x->shape->type))
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "needs a float operand");
  Instr *v = which == 0 ? U(ABS, x) : x;
  *out = CMP(EQ, v, K(which < 0 ? -INFINITY : INFINITY));
  IMP_NN(*out);
  return NULL;
}
static cxla_status c_is_inf(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return inf_test(s, op, ops[0], 0, out);
}
static cxla_status c_is_pos_inf(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return inf_test(s, op, ops[0], 1, out);
}
static cxla_status c_is_neg_inf(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return inf_test(s, op, ops[0], -1, out);
}

/* conj(z) = complex(real(z), -imag(z)); real operands are their own conjugate. */
static cxla_status c_conj(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Instr *z = ops[0];
  ElemType t = z->shape->type;
  if (!type_is_complex(t)) {
    *out = z;
    return NULL;
  }
  Shape *rs = shape_with_type(s, z->shape, t == T_C64 ? T_F32 : T_F64);
  IMP_NN(rs);
  Instr *re = ib(s, OP_REAL, rs, 1, &z), *im = ib(s, OP_IMAG, rs, 1, &z);
  Instr *nim = ib1(s, OP_NEGATE, im);
  IMP_NN(re && nim);
  Instr *o[2] = {re, nim};
  *out = ib(s, OP_COMPLEX, z->shape, 2, o);
  IMP_NN(*out);
  return NULL;
}

/* constant_like: the scalar `value` in the operand's shape and type. */
static cxla_status c_constant_like(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *v = mlir_op_attr(op, "value");
  Instr *x = ops[0];
  if (v && v->kind == MA_FLOAT) *out = K(v->f);
  else if (v && (v->kind == MA_INT || v->kind == MA_BOOL)) *out = ib_const_i(s, x->shape->type, v->i, x->shape);
  else return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "constant_like needs a scalar value");
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
    {"erf_inv", c_erf_inv}, {"erfc", c_erfc}, {"lgamma", c_lgamma}, {"digamma", c_digamma},
    {"next_after", c_next_after}, {"zeta", c_zeta}, {"polygamma", c_polygamma},
    {"bessel_i1e", c_bessel_i1e}, {"is_inf", c_is_inf}, {"is_pos_inf", c_is_pos_inf},
    {"is_neg_inf", c_is_neg_inf}, {"conj", c_conj}, {"constant_like", c_constant_like},
    {"mulhi", c_mulhi},
};

/* Operand counts: every CHLO op here is unary except these. */
int imp_chlo_arity(const char *name) {
  if (!strcmp(name, "chlo.next_after") || !strcmp(name, "chlo.zeta") ||
      !strcmp(name, "chlo.polygamma") || !strcmp(name, "chlo.mulhi"))
    return 2;
  return 1;
}

ImpFn imp_chlo_lookup(const char *name) {
  if (strncmp(name, "chlo.", 5)) return NULL;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (!strcmp(name + 5, table[k].name)) return table[k].fn;
  return NULL;
}
