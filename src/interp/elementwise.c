/* Elementwise evaluators: unary, binary and ternary arithmetic, compare,
 * select, clamp, convert, bitcast-convert, reduce-precision, complex/real/
 * imag, map and stochastic-convert, with XLA's semantics (as its reference
 * evaluator and its CPU backend define them).
 *
 * Working precision. Every float type computes in double and rounds once to
 * the result type. For add, subtract, multiply, divide and sqrt this gives
 * exactly the correctly rounded result of the narrower type (double has more
 * than 2p+2 bits for every p <= 24, so the double rounding is innocuous);
 * f16, bf16 and the f8 types thereby behave as XLA's "compute in f32, round
 * back per op". Transcendentals are as accurate as the C library's double
 * functions, i.e. at least as accurate as XLA's own approximations. Complex
 * numbers compute in double pairs. Integers compute in 64 bits (sign- or
 * zero-extended) and wrap to their width when stored. Float arithmetic
 * follows XLA:CPU's flush-to-zero / denormals-are-zero mode (ew_scalar.h).
 *
 * Speed: each op is one function pointer called per element by a loop that
 * dispatches on the type once, with direct f32/f64 loops for the common
 * cases. An operand of rank 0 broadcasts (HLO's implicit scalar broadcast of
 * select's predicate and clamp's bounds). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "interp/ew_scalar.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cxla's literal storage and bitcast-convert assume a little-endian host"
#endif

/* A source array: its bytes, element type, and step (1, or 0 to broadcast
 * element 0). */
typedef struct Src {
  const unsigned char *p;
  ElemType t;
  int64_t step;
} Src;

static Src src_of(const Literal *l, int64_t step) {
  return (Src){(const unsigned char *)l->data, l->type, step};
}

/* ======================================================================
 * Scalar functions
 * ====================================================================== */

/* ---- floats (double working precision) ---- */

typedef double (*FUn)(double);
typedef double (*FBin)(double, double);

static double f_neg(double x) { return -x; }
static double f_sign(double x) { return (isnan(x) || x == 0) ? x : copysign(1.0, x); }
static double f_rsqrt(double x) { return 1.0 / sqrt(x); }
static double f_logistic(double x) { return 1.0 / (1.0 + exp(-x)); }
/* Ties to even; nearbyint uses the current rounding mode, which cxla never
 * changes from the default round-to-nearest-even. */
static double f_round_even(double x) { return nearbyint(x); }
static double f_real(double x) { return x; }
static double f_imag(double x) { (void)x; return 0.0; }

static double f_add(double a, double b) { return a + b; }
static double f_sub(double a, double b) { return a - b; }
static double f_mul(double a, double b) { return a * b; }
static double f_div(double a, double b) { return a / b; }
/* XLA's float remainder is C's fmod (the sign of the dividend). */
static double f_rem(double a, double b) { return fmod(a, b); }
/* IEEE 754-2019 maximum/minimum, as XLA:CPU emits them (llvm.maximum): NaN
 * if either is NaN, and -0 < +0. */
static double f_max(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double f_min(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
/* 1^y = 1 and x^0 = 1 for every x and y, NaN included (Kahan); C's pow
 * agrees, the check makes it explicit. */
static double f_pow(double a, double b) { return (a == 1 || b == 0) ? 1.0 : pow(a, b); }
static double f_atan2(double a, double b) { return atan2(a, b); }

static FUn float_unary(Opcode op) {
  switch (op) {
  case OP_ABS: return fabs;
  case OP_ACOS: return acos;
  case OP_ACOSH: return acosh;
  case OP_ASIN: return asin;
  case OP_ASINH: return asinh;
  case OP_ATAN: return atan;
  case OP_ATANH: return atanh;
  case OP_CBRT: return cbrt;
  case OP_CEIL: return ceil;
  case OP_COS: return cos;
  case OP_COSH: return cosh;
  case OP_ERF: return erf;
  case OP_EXP: return exp;
  case OP_EXPM1: return expm1;
  case OP_FLOOR: return floor;
  case OP_LOG: return log;
  case OP_LOG1P: return log1p;
  case OP_LOGISTIC: return f_logistic;
  case OP_NEGATE: return f_neg;
  case OP_REAL: return f_real;
  case OP_IMAG: return f_imag;
  case OP_ROUND_NEAREST_AFZ: return round;
  case OP_ROUND_NEAREST_EVEN: return f_round_even;
  case OP_RSQRT: return f_rsqrt;
  case OP_SIGN: return f_sign;
  case OP_SIN: return sin;
  case OP_SINH: return sinh;
  case OP_SQRT: return sqrt;
  case OP_TAN: return tan;
  case OP_TANH: return tanh;
  default: return NULL;
  }
}

static FBin float_binary(Opcode op) {
  switch (op) {
  case OP_ADD: return f_add;
  case OP_SUBTRACT: return f_sub;
  case OP_MULTIPLY: return f_mul;
  case OP_DIVIDE: return f_div;
  case OP_REMAINDER: return f_rem;
  case OP_MAXIMUM: return f_max;
  case OP_MINIMUM: return f_min;
  case OP_POWER: return f_pow;
  case OP_ATAN2: return f_atan2;
  default: return NULL;
  }
}

/* ---- integers and pred ----
 * Values are int64: sign-extended (signed types) or zero-extended (unsigned
 * types, pred). Arithmetic goes through uint64 so that overflow wraps
 * instead of being undefined; the store wraps to the type's width. */

typedef struct IntT {
  int bits;
  bool sgn, pred;
} IntT;

static IntT int_info(ElemType t) {
  return (IntT){t == T_PRED ? 1 : type_bits(t), type_kind(t) == TK_SINT, t == T_PRED};
}

typedef int64_t (*IUn)(int64_t, const IntT *);
typedef int64_t (*IBin)(int64_t, int64_t, const IntT *);

static int64_t i_abs(int64_t a, const IntT *t) {
  /* |INT_MIN| wraps to INT_MIN, as in XLA. */
  return (t->sgn && a < 0) ? (int64_t)(0 - (uint64_t)a) : a;
}
static int64_t i_neg(int64_t a, const IntT *t) { (void)t; return (int64_t)(0 - (uint64_t)a); }
static int64_t i_not(int64_t a, const IntT *t) { return t->pred ? !a : ~a; }
static int64_t i_sign(int64_t a, const IntT *t) {
  return t->sgn ? (a > 0) - (a < 0) : (a != 0);
}
static int64_t i_popcnt(int64_t a, const IntT *t) {
  return __builtin_popcountll(ew_zext((uint64_t)a, t->bits));
}
static int64_t i_clz(int64_t a, const IntT *t) {
  uint64_t x = ew_zext((uint64_t)a, t->bits);
  return x ? __builtin_clzll(x) - (64 - t->bits) : t->bits;
}

static int64_t i_add(int64_t a, int64_t b, const IntT *t) {
  (void)t;
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
static int64_t i_sub(int64_t a, int64_t b, const IntT *t) {
  (void)t;
  return (int64_t)((uint64_t)a - (uint64_t)b);
}
static int64_t i_mul(int64_t a, int64_t b, const IntT *t) {
  (void)t;
  return (int64_t)((uint64_t)a * (uint64_t)b);
}
/* x / 0 = -1 (all ones: the maximum for unsigned types); INT_MIN / -1 =
 * INT_MIN. Quotients truncate toward zero. */
static int64_t i_div(int64_t a, int64_t b, const IntT *t) {
  if (b == 0) return -1;
  if (!t->sgn) return (int64_t)((uint64_t)a / (uint64_t)b);
  if (b == -1) return (int64_t)(0 - (uint64_t)a); /* wraps INT_MIN to itself */
  return a / b;
}
/* x % 0 = x; INT_MIN % -1 = 0. The sign follows the dividend. */
static int64_t i_rem(int64_t a, int64_t b, const IntT *t) {
  if (b == 0) return a;
  if (!t->sgn) return (int64_t)((uint64_t)a % (uint64_t)b);
  if (b == -1) return 0;
  return a % b;
}
static int64_t i_max(int64_t a, int64_t b, const IntT *t) {
  if (t->sgn) return a > b ? a : b;
  return (uint64_t)a > (uint64_t)b ? a : b;
}
static int64_t i_min(int64_t a, int64_t b, const IntT *t) {
  if (t->sgn) return a < b ? a : b;
  return (uint64_t)a < (uint64_t)b ? a : b;
}
static int64_t i_and(int64_t a, int64_t b, const IntT *t) { (void)t; return a & b; }
static int64_t i_or(int64_t a, int64_t b, const IntT *t) { (void)t; return a | b; }
static int64_t i_xor(int64_t a, int64_t b, const IntT *t) { (void)t; return a ^ b; }

/* Shift amounts are read as unsigned numbers of the operand's width; shifts
 * by the width or more give 0 (left, logical right) or the sign fill
 * (arithmetic right). */
static uint64_t shift_amount(int64_t b, const IntT *t) { return ew_zext((uint64_t)b, t->bits); }
static int64_t i_shl(int64_t a, int64_t b, const IntT *t) {
  uint64_t n = shift_amount(b, t);
  return n >= (uint64_t)t->bits ? 0 : (int64_t)((uint64_t)a << n);
}
static int64_t i_sra(int64_t a, int64_t b, const IntT *t) {
  uint64_t n = shift_amount(b, t);
  int64_t s = ew_sext((uint64_t)a, t->bits); /* unsigned types shift as signed */
  if (n >= (uint64_t)t->bits) return s < 0 ? -1 : 0;
  return s < 0 ? ~(~s >> n) : s >> n;
}
static int64_t i_srl(int64_t a, int64_t b, const IntT *t) {
  uint64_t n = shift_amount(b, t);
  return n >= (uint64_t)t->bits ? 0 : (int64_t)(ew_zext((uint64_t)a, t->bits) >> n);
}
/* x^0 = 1 and 1^y = 1; a negative exponent gives 0 except for base 1 (XLA
 * gives 0 for base -1 as well: both its evaluator and its CPU backend test
 * only base == 1). Otherwise exponentiation by squaring, wrapping. */
static int64_t i_pow(int64_t a, int64_t b, const IntT *t) {
  if (a == 1 || b == 0) return 1;
  if (t->sgn && b < 0) return 0;
  uint64_t base = (uint64_t)a, e = (uint64_t)b, acc = 1;
  while (e) {
    if (e & 1) acc *= base;
    base *= base;
    e >>= 1;
  }
  return (int64_t)acc;
}
/* The high half of the double-width product. */
static int64_t i_mulhi(int64_t a, int64_t b, const IntT *t) {
  if (t->sgn) {
    __int128 p = (__int128)a * (__int128)b;
    return (int64_t)(p >> t->bits);
  }
  unsigned __int128 p = (unsigned __int128)(uint64_t)a * (uint64_t)b;
  return (int64_t)(uint64_t)(p >> t->bits);
}

static IUn int_unary(Opcode op, bool pred) {
  if (pred) return op == OP_NOT ? i_not : NULL;
  switch (op) {
  case OP_ABS: return i_abs;
  case OP_NEGATE: return i_neg;
  case OP_NOT: return i_not;
  case OP_SIGN: return i_sign;
  case OP_POPCNT: return i_popcnt;
  case OP_CLZ: return i_clz;
  default: return NULL;
  }
}

static IBin int_binary(Opcode op, bool pred) {
  if (pred) {
    /* pred arithmetic is int8 arithmetic tested != 0: add/max are or,
     * multiply/min are and. */
    switch (op) {
    case OP_AND: case OP_MULTIPLY: case OP_MINIMUM: return i_and;
    case OP_OR: case OP_ADD: case OP_MAXIMUM: return i_or;
    case OP_XOR: return i_xor;
    default: return NULL;
    }
  }
  switch (op) {
  case OP_ADD: return i_add;
  case OP_SUBTRACT: return i_sub;
  case OP_MULTIPLY: return i_mul;
  case OP_DIVIDE: return i_div;
  case OP_REMAINDER: return i_rem;
  case OP_MAXIMUM: return i_max;
  case OP_MINIMUM: return i_min;
  case OP_AND: return i_and;
  case OP_OR: return i_or;
  case OP_XOR: return i_xor;
  case OP_SHIFT_LEFT: return i_shl;
  case OP_SHIFT_RIGHT_ARITHMETIC: return i_sra;
  case OP_SHIFT_RIGHT_LOGICAL: return i_srl;
  case OP_POWER: return i_pow;
  case OP_MULHI: return i_mulhi;
  default: return NULL;
  }
}

/* ---- complex (double pairs) ---- */

typedef EwComplex (*CUn)(EwComplex);
typedef EwComplex (*CBin)(EwComplex, EwComplex);

/* C11 lays a complex out as two reals; building it this way keeps infinite
 * and NaN parts intact (re + im*I would not). */
static inline double complex to_c(EwComplex z) {
  double parts[2] = {z.re, z.im};
  double complex c;
  memcpy(&c, parts, sizeof c);
  return c;
}
static inline EwComplex from_c(double complex z) { return (EwComplex){creal(z), cimag(z)}; }
static inline EwComplex cx(double re, double im) { return (EwComplex){re, im}; }

static EwComplex c_add(EwComplex a, EwComplex b) { return cx(a.re + b.re, a.im + b.im); }
static EwComplex c_sub(EwComplex a, EwComplex b) { return cx(a.re - b.re, a.im - b.im); }
/* The plain formula (no C99 Annex G recovery of infinities), as XLA. */
static EwComplex c_mul(EwComplex a, EwComplex b) {
  return cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
/* XLA's complex division: Smith's algorithm, then when the result is
 * (NaN, NaN), the corner cases of a zero denominator, an infinite numerator
 * over a finite denominator, and a finite numerator over an infinite one. */
static EwComplex c_div(EwComplex a, EwComplex b) {
  double ar = a.re, ai = a.im, br = b.re, bi = b.im;
  EwComplex c;
  if (fabs(br) < fabs(bi)) {
    double r = br / bi, d = bi + br * r;
    c = cx((r * ar + ai) / d, (r * ai - ar) / d);
  } else {
    double r = bi / br, d = br + bi * r;
    c = cx((r * ai + ar) / d, (ai - r * ar) / d);
  }
  if (!(isnan(c.re) && isnan(c.im))) return c;
  if (br == 0 && bi == 0 && (!isnan(ar) || !isnan(ai))) {
    double inf = copysign(INFINITY, br);
    return cx(inf * ar, inf * ai);
  }
  bool b_finite = isfinite(br) && isfinite(bi);
  if ((isinf(ar) || isinf(ai)) && b_finite) {
    double sr = copysign(isinf(ar) ? 1.0 : 0.0, ar), si = copysign(isinf(ai) ? 1.0 : 0.0, ai);
    return cx(INFINITY * (sr * br + si * bi), INFINITY * (si * br - sr * bi));
  }
  if ((isinf(br) || isinf(bi)) && isfinite(ar) && isfinite(ai)) {
    double sr = copysign(isinf(br) ? 1.0 : 0.0, br), si = copysign(isinf(bi) ? 1.0 : 0.0, bi);
    return cx(0.0 * (ar * sr + ai * si), 0.0 * (ai * sr - ar * si));
  }
  return c;
}
/* x^0 = 1 and 1^y = 1 (the evaluator's cases); inf^(a+0i) is inf for a > 0
 * and 0 for a < 0; 0^(c+0i) is 1 for c == 0 and 0 for c > 0; otherwise
 * |x|^c e^(-d arg x) (cos q + i sin q), q = c arg x + d ln|x| (XLA:CPU). */
static EwComplex c_pow(EwComplex x, EwComplex y) {
  if ((x.re == 1 && x.im == 0) || (y.re == 0 && y.im == 0)) return cx(1, 0);
  if (x.im == 0 && isinf(x.re) && x.re > 0 && y.im == 0) {
    if (y.re > 0) return x;
    if (y.re < 0) return cx(0, 0);
  }
  double a = x.re, b = x.im, c = y.re, d = y.im;
  double aa_bb = a * a + b * b;
  if (aa_bb == 0 && d == 0 && c >= 0) return cx(c == 0 ? 1 : 0, 0);
  double arg = atan2(b, a);
  double coeff = pow(aa_bb, 0.5 * c) * exp(-d * arg);
  double q = c * arg + 0.5 * d * log(aa_bb);
  return cx(coeff * cos(q), coeff * sin(q));
}
static EwComplex c_neg(EwComplex a) { return cx(-a.re, -a.im); }
/* e^(x+iy) as XLA computes it: e^x cos y + i e^x sin y, through
 * (e^(x/2) t) e^(x/2) when e^x overflows, and a +0 imaginary part when y is
 * 0. Unlike C's cexp there are no special cases, so an infinite or NaN y
 * gives NaN + NaN i (0 * NaN), e.g. e^(-inf + inf i). */
static EwComplex c_exp(EwComplex a) {
  double ex = exp(a.re), c = cos(a.im), s = sin(a.im);
  if (isinf(ex) && ex > 0) {
    double h = exp(a.re / 2);
    return cx(h * c * h, a.im == 0 ? 0.0 : h * s * h);
  }
  return cx(ex * c, a.im == 0 ? 0.0 : ex * s);
}
static EwComplex c_log(EwComplex a) { return from_c(clog(to_c(a))); }
static EwComplex c_sqrt(EwComplex a) { return from_c(csqrt(to_c(a))); }
static EwComplex c_rsqrt(EwComplex a) { return c_div(cx(1, 0), c_sqrt(a)); }
static EwComplex c_cbrt(EwComplex a) { return from_c(cpow(to_c(a), 1.0 / 3.0)); }
static EwComplex c_sin(EwComplex a) { return from_c(csin(to_c(a))); }
static EwComplex c_cos(EwComplex a) { return from_c(ccos(to_c(a))); }
/* tanh as XLA:CPU computes it, which is C99's ctanh except at these
 * points: tanh(+-inf + iy) is +-1 + 0i with the sign of sin 2y, and +0 when
 * y is 0, infinite or NaN; tanh(+-0 + iy) with y infinite or NaN is NaN + NaN i
 * (C99: +-0 + NaN i); and a zero imaginary part gives +0 whatever its sign.
 * Checked against jax 0.10.2 on CPU over {0, -0, +-1, 2.5, -3, 30, +-800, +-inf,
 * NaN}^2 (tests/unit/test_complex_edges.c). */
static EwComplex c_tanh(EwComplex a) {
  double x = a.re, y = a.im;
  if (isinf(x)) return cx(copysign(1.0, x), (y == 0 || !isfinite(y)) ? 0.0 : copysign(0.0, sin(2 * y)));
  if (x == 0 && !isfinite(y)) return cx(NAN, NAN);
  EwComplex r = from_c(ctanh(to_c(a)));
  if (y == 0) r.im = 0.0;
  return r;
}
/* tan z = -i tanh(iz), through the tanh above, which gives XLA:CPU's values
 * at the special points (C's ctan differs at x + NaN i and +-inf + 0i). */
static EwComplex c_tan(EwComplex a) {
  EwComplex t = c_tanh(cx(-a.im, a.re));
  return cx(t.im, -t.re);
}
static EwComplex c_sinh(EwComplex a) { return from_c(csinh(to_c(a))); }
static EwComplex c_cosh(EwComplex a) { return from_c(ccosh(to_c(a))); }
static EwComplex c_asin(EwComplex a) { return from_c(casin(to_c(a))); }
static EwComplex c_acos(EwComplex a) { return from_c(cacos(to_c(a))); }
static EwComplex c_atan(EwComplex a) { return from_c(catan(to_c(a))); }
static EwComplex c_asinh(EwComplex a) { return from_c(casinh(to_c(a))); }
static EwComplex c_acosh(EwComplex a) { return from_c(cacosh(to_c(a))); }
static EwComplex c_atanh(EwComplex a) { return from_c(catanh(to_c(a))); }
/* |z| as XLA computes it: NaN if either part is NaN (hypot would say inf
 * for an infinite other part). */
static double c_abs(EwComplex a) {
  if (isnan(a.re) || isnan(a.im)) return NAN;
  return hypot(a.re, a.im);
}
static EwComplex c_sign(EwComplex a) {
  double r = c_abs(a);
  if (r == 0) return cx(0, 0);
  return cx(a.re / r, a.im / r);
}
/* e^z - 1 without cancellation for small z:
 * e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y/2). As on XLA:CPU, a zero y
 * gives a +0 imaginary part (e^x sin y would be NaN for x = inf or NaN, and
 * -0 for y = -0) and a zero real part is +0. */
static EwComplex c_expm1(EwComplex a) {
  double s = sin(a.im / 2);
  double re = expm1(a.re) * cos(a.im) - 2 * s * s;
  return cx(re + 0.0, a.im == 0 ? 0.0 : exp(a.re) * sin(a.im));
}
/* log(1 + z): |1+z|^2 = 1 + (2x + x^2 + y^2). */
static EwComplex c_log1p(EwComplex a) {
  double x = a.re, y = a.im;
  if (fabs(x) > 0.5 || fabs(y) > 0.5 || !isfinite(x) || !isfinite(y)) return c_log(cx(1 + x, y));
  return cx(0.5 * log1p(x * (2 + x) + y * y), atan2(y, 1 + x));
}
static EwComplex c_logistic(EwComplex a) { return c_div(cx(1, 0), c_add(cx(1, 0), c_exp(c_neg(a)))); }
/* atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)). */
static EwComplex c_atan2(EwComplex y, EwComplex x) {
  EwComplex iy = cx(-y.im, y.re);
  EwComplex s = c_sqrt(c_add(c_mul(x, x), c_mul(y, y)));
  EwComplex l = c_log(c_div(c_add(x, iy), s));
  return cx(l.im, -l.re);
}

static CUn complex_unary(Opcode op) {
  switch (op) {
  case OP_NEGATE: return c_neg;
  case OP_EXP: return c_exp;
  case OP_EXPM1: return c_expm1;
  case OP_LOG: return c_log;
  case OP_LOG1P: return c_log1p;
  case OP_SQRT: return c_sqrt;
  case OP_RSQRT: return c_rsqrt;
  case OP_CBRT: return c_cbrt;
  case OP_SIN: return c_sin;
  case OP_COS: return c_cos;
  case OP_TAN: return c_tan;
  case OP_TANH: return c_tanh;
  case OP_SINH: return c_sinh;
  case OP_COSH: return c_cosh;
  case OP_ASIN: return c_asin;
  case OP_ACOS: return c_acos;
  case OP_ATAN: return c_atan;
  case OP_ASINH: return c_asinh;
  case OP_ACOSH: return c_acosh;
  case OP_ATANH: return c_atanh;
  case OP_SIGN: return c_sign;
  case OP_LOGISTIC: return c_logistic;
  default: return NULL;
  }
}

static CBin complex_binary(Opcode op) {
  switch (op) {
  case OP_ADD: return c_add;
  case OP_SUBTRACT: return c_sub;
  case OP_MULTIPLY: return c_mul;
  case OP_DIVIDE: return c_div;
  case OP_POWER: return c_pow;
  case OP_ATAN2: return c_atan2;
  default: return NULL;
  }
}

/* ======================================================================
 * Array kernels
 * ====================================================================== */

/* flush: the op is floating-point arithmetic, subject to XLA:CPU's DAZ on
 * inputs and FTZ on results (see ew_scalar.h); bit-level ops pass false. */
static void k_float_un(FUn f, Src a, ElemType ot, void *o, int64_t n, bool flush) {
  if (!flush || !ew_flushes(ot)) {
    for (int64_t i = 0; i < n; i++) ew_store_float(ot, o, i, f(ew_load_float(a.t, a.p, i)));
  } else if (a.t == T_F32 && ot == T_F32) {
    const float *x = (const float *)a.p;
    float *y = o;
    for (int64_t i = 0; i < n; i++) y[i] = (float)ew_ftz(T_F32, f(ew_daz(T_F32, x[i])));
  } else if (a.t == T_F64 && ot == T_F64) {
    const double *x = (const double *)a.p;
    double *y = o;
    for (int64_t i = 0; i < n; i++) y[i] = ew_ftz(T_F64, f(ew_daz(T_F64, x[i])));
  } else {
    for (int64_t i = 0; i < n; i++)
      ew_store_float(ot, o, i, ew_ftz(ot, f(ew_daz(a.t, ew_load_float(a.t, a.p, i)))));
  }
}

static void k_float_bin(FBin f, Src a, Src b, ElemType ot, void *o, int64_t n) {
  int64_t sa = a.step, sb = b.step;
  if (a.t == T_F32 && ot == T_F32) {
    const float *x = (const float *)a.p, *z = (const float *)b.p;
    float *y = o;
    for (int64_t i = 0; i < n; i++)
      y[i] = (float)ew_ftz(T_F32, f(ew_daz(T_F32, x[i * sa]), ew_daz(T_F32, z[i * sb])));
  } else if (a.t == T_F64 && ot == T_F64) {
    const double *x = (const double *)a.p, *z = (const double *)b.p;
    double *y = o;
    for (int64_t i = 0; i < n; i++)
      y[i] = ew_ftz(T_F64, f(ew_daz(T_F64, x[i * sa]), ew_daz(T_F64, z[i * sb])));
  } else {
    for (int64_t i = 0; i < n; i++) {
      double u = ew_daz(a.t, ew_load_float(a.t, a.p, i * sa));
      double v = ew_daz(b.t, ew_load_float(b.t, b.p, i * sb));
      ew_store_float(ot, o, i, ew_ftz(ot, f(u, v)));
    }
  }
}

/* ---- pow and atan2: the C library under FTZ/DAZ ----
 * XLA:CPU does not expand pow and atan2 into arithmetic of its own: it calls
 * the C library (powf/pow, atan2f/atan2; bf16 computes through the f32 one
 * and rounds back with the bit-level conversion, keeping subnormals) from
 * code that runs with the FTZ and DAZ bits set. The library tests its
 * arguments' bits before doing arithmetic, so subnormal inputs are not simply
 * read as zero there: pow(NaN, 1e-45) is NaN, atan2(5e-324, 0) is pi/2, and
 * atan2(1e-45, 1) returns its subnormal argument. The interpreter calls the
 * same functions under the same mode (only around the call: loads and stores
 * stay outside it, so they convert exactly), which agrees with XLA:CPU bit
 * for bit on an x86-64 glibc host. Elsewhere it calls them in the default
 * mode. */
typedef struct FtzMode {
  unsigned csr;
} FtzMode;

static FtzMode ftz_enter(void) {
  FtzMode m = {0};
#if defined(__x86_64__) || defined(__SSE2__)
  m.csr = _mm_getcsr();
  _mm_setcsr(m.csr | 0x8040u); /* FTZ (bit 15) and DAZ (bit 6) */
#endif
  return m;
}

static void ftz_leave(FtzMode m) {
#if defined(__x86_64__) || defined(__SSE2__)
  _mm_setcsr(m.csr);
#else
  (void)m;
#endif
}

static float libm_f32(Opcode op, float a, float b) {
  FtzMode m = ftz_enter();
  float r = op == OP_POWER ? powf(a, b) : atan2f(a, b);
  ftz_leave(m);
  return r;
}

static double libm_f64(Opcode op, double a, double b) {
  FtzMode m = ftz_enter();
  double r = op == OP_POWER ? pow(a, b) : atan2(a, b);
  ftz_leave(m);
  return r;
}

/* Whether op on real type t is one of the library calls above. f16 and the
 * f8 types have no subnormals in f32 and keep the double evaluation. */
static bool is_libm_bin(Opcode op, ElemType t) {
  return (op == OP_POWER || op == OP_ATAN2) && (t == T_F32 || t == T_F64 || t == T_BF16);
}

static void k_libm_bin(Opcode op, Src a, Src b, ElemType ot, void *o, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    double u = ew_load_float(a.t, a.p, i * a.step), v = ew_load_float(b.t, b.p, i * b.step);
    double r = ot == T_F64 ? libm_f64(op, u, v) : libm_f32(op, (float)u, (float)v);
    ew_store_float(ot, o, i, r);
  }
}

/* XLA:CPU computes maximum and minimum with a compare and a select, so a
 * NaN result is the NaN operand itself, bit for bit (a signalling NaN stays
 * signalling). Computing through double quiets it; copy the operand back. */
static void keep_nan_bits(Src a, Src b, Literal *o, int64_t n) {
  int w = type_bytes(o->type);
  unsigned char *out = o->data;
  for (int64_t i = 0; i < n; i++) {
    if (!isnan(literal_get_f64(o, i))) continue;
    const unsigned char *pa = (const unsigned char *)a.p + i * a.step * w;
    const unsigned char *pb = (const unsigned char *)b.p + i * b.step * w;
    double va = ew_load_float(a.t, a.p, i * a.step);
    memcpy(out + i * w, isnan(va) ? pa : pb, (size_t)w);
  }
}

static void k_int_un(IUn f, Src a, ElemType ot, void *o, int64_t n) {
  IntT it = int_info(a.t);
  for (int64_t i = 0; i < n; i++) ew_store_int(ot, o, i, f(ew_load_int(a.t, a.p, i), &it));
}

static void k_int_bin(IBin f, Src a, Src b, ElemType ot, void *o, int64_t n) {
  IntT it = int_info(a.t);
  int64_t sa = a.step, sb = b.step;
  if (a.t == T_S32 && ot == T_S32) {
    const int32_t *x = (const int32_t *)a.p, *z = (const int32_t *)b.p;
    int32_t *y = o;
    for (int64_t i = 0; i < n; i++) y[i] = (int32_t)f(x[i * sa], z[i * sb], &it);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    ew_store_int(ot, o, i, f(ew_load_int(a.t, a.p, i * sa), ew_load_int(b.t, b.p, i * sb), &it));
}

static EwComplex cx_daz(ElemType t, EwComplex z) { return cx(ew_daz(t, z.re), ew_daz(t, z.im)); }
static EwComplex cx_ftz(ElemType t, EwComplex z) { return cx(ew_ftz(t, z.re), ew_ftz(t, z.im)); }

static void k_complex_un(CUn f, Src a, ElemType ot, void *o, int64_t n, bool flush) {
  for (int64_t i = 0; i < n; i++) {
    EwComplex z = ew_load_complex(a.t, a.p, i);
    ew_store_complex(ot, o, i, flush ? cx_ftz(ot, f(cx_daz(a.t, z))) : f(z));
  }
}

static void k_complex_bin(CBin f, Src a, Src b, ElemType ot, void *o, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    EwComplex x = cx_daz(a.t, ew_load_complex(a.t, a.p, i * a.step));
    EwComplex y = cx_daz(b.t, ew_load_complex(b.t, b.p, i * b.step));
    ew_store_complex(ot, o, i, cx_ftz(ot, f(x, y)));
  }
}

/* ======================================================================
 * Compare
 * ====================================================================== */

/* An ordering: -1, 0, 1, or 2 for unordered (a NaN was involved). */
static bool cmp_holds(CmpDir d, int c) {
  switch (d) {
  case CMP_EQ: return c == 0;
  case CMP_NE: return c != 0;
  case CMP_LT: return c == -1;
  case CMP_LE: return c == -1 || c == 0;
  case CMP_GT: return c == 1;
  case CMP_GE: return c == 1 || c == 0;
  default: return false;
  }
}

static uint64_t load_raw(ElemType t, const void *base, int64_t i) {
  uint64_t v = 0;
  int nb = type_bytes(t);
  memcpy(&v, (const unsigned char *)base + i * nb, (size_t)nb);
  return v;
}

/* The total-order key of a float's bits: flipping the magnitude bits of
 * negative numbers orders -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN
 * as signed integers. */
static int64_t total_order_key(ElemType t, uint64_t bits) {
  int w = type_bits(t);
  if (t == T_F8E8M0FNU) return (int64_t)ew_zext(bits, w); /* no sign bit */
  int64_t s = ew_sext(bits, w);
  if (s < 0) s ^= (int64_t)((1ull << (w - 1)) - 1);
  return s;
}

static CmpType default_cmp_type(ElemType t) {
  switch (type_kind(t)) {
  case TK_FLOAT: case TK_COMPLEX: return CMPT_FLOAT;
  case TK_SINT: return CMPT_SIGNED;
  default: return CMPT_UNSIGNED;
  }
}

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
static int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
static int cmp_f64(double a, double b) {
  return a < b ? -1 : a > b ? 1 : a == b ? 0 : 2;
}

/* The ordering of element i of a and element j of b (same type t). */
static int compare_elems(CmpType ct, ElemType t, const void *a, int64_t i, const void *b,
                         int64_t j) {
  switch (type_kind(t)) {
  case TK_COMPLEX: {
    EwComplex x = cx_daz(t, ew_load_complex(t, a, i)), y = cx_daz(t, ew_load_complex(t, b, j));
    if (isnan(x.re) || isnan(x.im) || isnan(y.re) || isnan(y.im)) return 2;
    return (x.re == y.re && x.im == y.im) ? 0 : 1; /* only EQ/NE are defined */
  }
  case TK_FLOAT:
    if (ct == CMPT_TOTALORDER)
      return cmp_i64(total_order_key(t, load_raw(t, a, i)), total_order_key(t, load_raw(t, b, j)));
    return cmp_f64(ew_daz(t, ew_load_float(t, a, i)), ew_daz(t, ew_load_float(t, b, j)));
  default: {
    int w = t == T_PRED ? 1 : type_bits(t);
    uint64_t x = (uint64_t)ew_load_int(t, a, i), y = (uint64_t)ew_load_int(t, b, j);
    if (ct == CMPT_SIGNED) return cmp_i64(ew_sext(x, w), ew_sext(y, w));
    return cmp_u64(ew_zext(x, w), ew_zext(y, w));
  }
  }
}

bool ew_scalar_compare(CmpDir dir, CmpType ct, ElemType t, const void *a, const void *b) {
  if (ct == CMPT_DEFAULT) ct = default_cmp_type(t);
  return cmp_holds(dir, compare_elems(ct, t, a, 0, b, 0));
}

/* ======================================================================
 * Shared checks
 * ====================================================================== */


static bool is_array(const Literal *l) { return type_is_array(l->type) && !l->unknown; }

/* Operand k must have the result's dims (step 1) or be a scalar (step 0). */
static cxla_status operand_step(const Instr *in, int k, const Literal *a, const Literal *o,
                                int64_t *step) {
  if (!is_array(a)) return interp_error(in, CXLA_INVALID_ARGUMENT, "operand %d is not an array", k);
  bool same = a->rank == o->rank;
  for (int i = 0; same && i < a->rank; i++) same = a->dims[i] == o->dims[i];
  if (same) {
    *step = 1;
    return NULL;
  }
  if (a->rank == 0) {
    *step = 0;
    return NULL;
  }
  StrBuf x, y;
  sb_init(&x);
  sb_init(&y);
  literal_print_shape(&x, a);
  literal_print_shape(&y, o);
  cxla_status s = (x.oom || y.oom) ? cxla_oom()
                                   : interp_error(in, CXLA_INVALID_ARGUMENT,
                                                  "operand %d has shape %s but the result is %s",
                                                  k, x.data, y.data);
  sb_free(&x);
  sb_free(&y);
  return s;
}

static cxla_status type_error(const Instr *in, ElemType t) {
  return interp_error(in, CXLA_INVALID_ARGUMENT, "not defined on %s", type_name(t));
}

static cxla_status type_mismatch(const Instr *in, int k, ElemType got, ElemType want) {
  return interp_error(in, CXLA_INVALID_ARGUMENT, "operand %d is %s, expected %s", k,
                      type_name(got), type_name(want));
}

/* The result literal for the instruction's (array) shape. */
static cxla_status make_result(const Instr *in, Literal **out) {
  const Shape *s = in->shape;
  if (!s || !type_is_array(s->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result shape is not an array");
  return literal_create(s->type, s->rank, s->dims, out);
}

/* ======================================================================
 * Op families
 * ====================================================================== */

/* Float ops XLA:CPU does with bit manipulation: they keep subnormals. */
static bool is_bitwise(Opcode op) {
  return op == OP_ABS || op == OP_NEGATE || op == OP_REAL || op == OP_IMAG;
}

static cxla_status eval_unary(const Instr *in, const Literal *a, Literal *o) {
  int64_t step;
  TRY(operand_step(in, 0, a, o, &step));
  Src s = src_of(a, step);
  int64_t n = o->nelems;
  TypeKind k = type_kind(a->type);
  Opcode op = in->op;

  if (k == TK_COMPLEX && (op == OP_ABS || op == OP_REAL || op == OP_IMAG)) {
    if (o->type != ew_complex_part_type(a->type)) return type_mismatch(in, 0, a->type, o->type);
    for (int64_t i = 0; i < n; i++) {
      EwComplex z = ew_load_complex(a->type, a->data, i * step);
      double v = op == OP_REAL ? z.re : op == OP_IMAG ? z.im
                                                      : ew_ftz(o->type, c_abs(cx_daz(a->type, z)));
      ew_store_float(o->type, o->data, i, v);
    }
    return NULL;
  }
  if (op == OP_IS_FINITE) {
    if (k != TK_FLOAT) return type_error(in, a->type);
    if (o->type != T_PRED) return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be pred");
    unsigned char *y = o->data;
    for (int64_t i = 0; i < n; i++) y[i] = isfinite(ew_load_float(a->type, a->data, i * step));
    return NULL;
  }
  if (a->type != o->type) return type_mismatch(in, 0, a->type, o->type);
  switch (k) {
  case TK_FLOAT: {
    FUn f = float_unary(op);
    if (!f) return type_error(in, a->type);
    k_float_un(f, s, o->type, o->data, n, !is_bitwise(op));
    return NULL;
  }
  case TK_COMPLEX: {
    CUn f = complex_unary(op);
    if (!f) return type_error(in, a->type);
    k_complex_un(f, s, o->type, o->data, n, !is_bitwise(op));
    return NULL;
  }
  case TK_SINT: case TK_UINT: case TK_PRED: {
    IUn f = int_unary(op, k == TK_PRED);
    if (!f) return type_error(in, a->type);
    k_int_un(f, s, o->type, o->data, n);
    return NULL;
  }
  default:
    return type_error(in, a->type);
  }
}

static cxla_status eval_binary(const Instr *in, const Literal *a, const Literal *b, Literal *o) {
  int64_t sa, sb;
  TRY(operand_step(in, 0, a, o, &sa));
  TRY(operand_step(in, 1, b, o, &sb));
  if (b->type != a->type) return type_mismatch(in, 1, b->type, a->type);
  if (o->type != a->type) return type_mismatch(in, 0, a->type, o->type);
  Src x = src_of(a, sa), y = src_of(b, sb);
  int64_t n = o->nelems;
  TypeKind k = type_kind(a->type);
  switch (k) {
  case TK_FLOAT: {
    FBin f = float_binary(in->op);
    if (!f) return type_error(in, a->type);
    if (is_libm_bin(in->op, a->type)) k_libm_bin(in->op, x, y, o->type, o->data, n);
    else k_float_bin(f, x, y, o->type, o->data, n);
    if (in->op == OP_MAXIMUM || in->op == OP_MINIMUM) keep_nan_bits(x, y, o, n);
    return NULL;
  }
  case TK_COMPLEX: {
    CBin f = complex_binary(in->op);
    if (!f) return type_error(in, a->type);
    k_complex_bin(f, x, y, o->type, o->data, n);
    return NULL;
  }
  case TK_SINT: case TK_UINT: case TK_PRED: {
    IBin f = int_binary(in->op, k == TK_PRED);
    if (!f) return type_error(in, a->type);
    k_int_bin(f, x, y, o->type, o->data, n);
    return NULL;
  }
  default:
    return type_error(in, a->type);
  }
}

bool ew_scalar_binary(Opcode op, ElemType t, const void *a, const void *b, void *out) {
  Src x = {a, t, 0}, y = {b, t, 0};
  unsigned char tmp[16]; /* out may alias a or b */
  switch (type_kind(t)) {
  case TK_FLOAT: {
    FBin f = float_binary(op);
    if (!f) return false;
    if (is_libm_bin(op, t)) k_libm_bin(op, x, y, t, tmp, 1);
    else k_float_bin(f, x, y, t, tmp, 1);
    break;
  }
  case TK_COMPLEX: {
    CBin f = complex_binary(op);
    if (!f) return false;
    k_complex_bin(f, x, y, t, tmp, 1);
    break;
  }
  case TK_SINT: case TK_UINT: case TK_PRED: {
    IBin f = int_binary(op, t == T_PRED);
    if (!f) return false;
    k_int_bin(f, x, y, t, tmp, 1);
    break;
  }
  default:
    return false;
  }
  memcpy(out, tmp, (size_t)type_bytes(t));
  return true;
}

static cxla_status eval_compare(const Instr *in, const Literal *a, const Literal *b, Literal *o) {
  int64_t sa, sb;
  TRY(operand_step(in, 0, a, o, &sa));
  TRY(operand_step(in, 1, b, o, &sb));
  if (b->type != a->type) return type_mismatch(in, 1, b->type, a->type);
  if (o->type != T_PRED) return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be pred");
  CmpDir d = in->cmp_dir;
  if (d == CMP_NONE) return interp_error(in, CXLA_INVALID_ARGUMENT, "missing direction");
  if (type_is_complex(a->type) && d != CMP_EQ && d != CMP_NE)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "complex numbers compare only EQ and NE");
  CmpType ct = in->cmp_type == CMPT_DEFAULT ? default_cmp_type(a->type) : in->cmp_type;
  if (ct == CMPT_TOTALORDER && !type_is_float(a->type)) ct = default_cmp_type(a->type);
  if (ct == CMPT_FLOAT && !type_is_float(a->type) && !type_is_complex(a->type))
    ct = default_cmp_type(a->type);
  unsigned char *y = o->data;
  int64_t n = o->nelems;
  if (a->type == T_F32 && ct == CMPT_FLOAT) { /* the common case, direct */
    const float *p = a->data, *q = b->data;
    for (int64_t i = 0; i < n; i++)
      y[i] = cmp_holds(d, cmp_f64(ew_daz(T_F32, p[i * sa]), ew_daz(T_F32, q[i * sb])));
    return NULL;
  }
  for (int64_t i = 0; i < n; i++)
    y[i] = cmp_holds(d, compare_elems(ct, a->type, a->data, i * sa, b->data, i * sb));
  return NULL;
}

/* select(pred, on_true, on_false); pred may be a scalar. */
static cxla_status eval_select(const Instr *in, Literal *const *ops, Literal *o) {
  int64_t sp, st, sf;
  TRY(operand_step(in, 0, ops[0], o, &sp));
  TRY(operand_step(in, 1, ops[1], o, &st));
  TRY(operand_step(in, 2, ops[2], o, &sf));
  if (ops[0]->type != T_PRED) return type_mismatch(in, 0, ops[0]->type, T_PRED);
  if (ops[1]->type != o->type) return type_mismatch(in, 1, ops[1]->type, o->type);
  if (ops[2]->type != o->type) return type_mismatch(in, 2, ops[2]->type, o->type);
  const unsigned char *p = ops[0]->data, *t = ops[1]->data, *f = ops[2]->data;
  unsigned char *y = o->data;
  size_t es = (size_t)type_bytes(o->type);
  for (int64_t i = 0; i < o->nelems; i++) {
    const unsigned char *src = p[i * sp] ? t + (size_t)(i * st) * es : f + (size_t)(i * sf) * es;
    memcpy(y + (size_t)i * es, src, es);
  }
  return NULL;
}

/* clamp(lo, x, hi) = min(hi, max(lo, x)) with maximum/minimum's semantics
 * (NaN-propagating for floats); lo and hi may be scalars. Complex values
 * are ordered by their real parts alone, as XLA:CPU's compiled clamp does
 * (measured, jax 0.10.2): m = re(lo) >= re(x) ? lo : x, then
 * re(m) <= re(hi) ? m : hi, the real parts read under DAZ; a tie keeps the
 * earlier operand, a NaN real part the later one, and the chosen value is
 * copied bit for bit. (JAX's own maximum and minimum of complex numbers
 * compare lexicographically in the HLO they emit, not through this op.) */
static cxla_status eval_clamp(const Instr *in, Literal *const *ops, Literal *o) {
  int64_t sl, sx, sh;
  TRY(operand_step(in, 0, ops[0], o, &sl));
  TRY(operand_step(in, 1, ops[1], o, &sx));
  TRY(operand_step(in, 2, ops[2], o, &sh));
  ElemType t = o->type;
  for (int k = 0; k < 3; k++)
    if (ops[k]->type != t) return type_mismatch(in, k, ops[k]->type, t);
  const void *lo = ops[0]->data, *x = ops[1]->data, *hi = ops[2]->data;
  int64_t n = o->nelems;
  switch (type_kind(t)) {
  case TK_FLOAT:
    for (int64_t i = 0; i < n; i++) {
      double v = f_max(ew_daz(t, ew_load_float(t, lo, i * sl)), ew_daz(t, ew_load_float(t, x, i * sx)));
      v = f_min(ew_daz(t, ew_load_float(t, hi, i * sh)), v);
      ew_store_float(t, o->data, i, ew_ftz(t, v));
    }
    return NULL;
  case TK_SINT: case TK_UINT: case TK_PRED: {
    IntT it = int_info(t);
    for (int64_t i = 0; i < n; i++) {
      int64_t v = i_max(ew_load_int(t, lo, i * sl), ew_load_int(t, x, i * sx), &it);
      ew_store_int(t, o->data, i, i_min(ew_load_int(t, hi, i * sh), v, &it));
    }
    return NULL;
  }
  case TK_COMPLEX: {
    ElemType pt = ew_complex_part_type(t);
    size_t es = (size_t)type_bytes(t);
    for (int64_t i = 0; i < n; i++) {
      const char *pl = (const char *)lo + (size_t)(i * sl) * es, *px = (const char *)x + (size_t)(i * sx) * es;
      const char *ph = (const char *)hi + (size_t)(i * sh) * es;
      const char *m = ew_daz(pt, ew_load_float(pt, pl, 0)) >= ew_daz(pt, ew_load_float(pt, px, 0)) ? pl : px;
      const char *r = ew_daz(pt, ew_load_float(pt, m, 0)) <= ew_daz(pt, ew_load_float(pt, ph, 0)) ? m : ph;
      memcpy((char *)o->data + (size_t)i * es, r, es);
    }
    return NULL;
  }
  default:
    return type_error(in, t);
  }
}

/* complex(re, im). */
static cxla_status eval_make_complex(const Instr *in, const Literal *a, const Literal *b,
                                     Literal *o) {
  int64_t sa, sb;
  TRY(operand_step(in, 0, a, o, &sa));
  TRY(operand_step(in, 1, b, o, &sb));
  if (!type_is_complex(o->type)) return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be complex");
  ElemType pt = ew_complex_part_type(o->type);
  if (a->type != pt) return type_mismatch(in, 0, a->type, pt);
  if (b->type != pt) return type_mismatch(in, 1, b->type, pt);
  for (int64_t i = 0; i < o->nelems; i++)
    ew_store_complex(o->type, o->data, i,
                     cx(ew_load_float(pt, a->data, i * sa), ew_load_float(pt, b->data, i * sb)));
  return NULL;
}

/* ---- convert ---- */

/* v as a double from which one more rounding to any type of at most 51
 * significand bits is correct: exact below 2^53, else rounded to odd (the
 * sticky bit kept in the last place). */
static double u64_to_double_odd(uint64_t v) {
  if (v < (1ull << 53)) return (double)v;
  int shift = 11 - __builtin_clzll(v);
  uint64_t hi = v >> shift;
  if (v & ((1ull << shift) - 1)) hi |= 1;
  return ldexp((double)hi, shift);
}

static double int_to_double(int64_t v, bool sgn, ElemType dt) {
  bool exact_target = dt == T_F64 || dt == T_C128; /* one C conversion rounds correctly */
  if (sgn) {
    if (exact_target) return (double)v;
    double m = u64_to_double_odd(v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    return v < 0 ? -m : m;
  }
  return exact_target ? (double)(uint64_t)v : u64_to_double_odd((uint64_t)v);
}

/* Float to integer saturates; NaN gives 0 (and negatives give 0 for
 * unsigned types). */
static int64_t float_to_int(double d, const IntT *t) {
  if (t->pred) return d != 0; /* NaN != 0: true */
  if (isnan(d)) return 0;
  if (t->sgn) {
    double lim = ldexp(1.0, t->bits - 1);
    if (d >= lim) return (int64_t)((1ull << (t->bits - 1)) - 1);
    if (d <= -lim) return (int64_t)(0 - (1ull << (t->bits - 1)));
    return (int64_t)d;
  }
  if (d <= 0) return 0;
  if (d >= ldexp(1.0, t->bits)) return t->bits == 64 ? -1 : (int64_t)((1ull << t->bits) - 1);
  return (int64_t)(uint64_t)d;
}

/* Whether converting st to dt (floats or complex) is an FPU conversion, with
 * DAZ and FTZ, rather than a copy or one of the bit-shift conversions
 * between f32 and bf16 that XLA:CPU uses. */
static bool convert_flushes(ElemType st, ElemType dt) {
  if (!ew_flushes(st) || !ew_flushes(dt)) return false;
  ElemType s = type_is_complex(st) ? ew_complex_part_type(st) : st;
  ElemType d = type_is_complex(dt) ? ew_complex_part_type(dt) : dt;
  if (s == d) return false;
  return !((s == T_F32 && d == T_BF16) || (s == T_BF16 && d == T_F32));
}

static cxla_status eval_convert(const Instr *in, const Literal *a, Literal *o) {
  int64_t step;
  TRY(operand_step(in, 0, a, o, &step));
  ElemType st = a->type, dt = o->type;
  TypeKind sk = type_kind(st), dk = type_kind(dt);
  if (sk == TK_OTHER || dk == TK_OTHER) return type_error(in, sk == TK_OTHER ? st : dt);
  int64_t n = o->nelems;
  IntT dit = int_info(dt);
  bool s_int = sk == TK_SINT || sk == TK_UINT || sk == TK_PRED;
  bool d_int = dk == TK_SINT || dk == TK_UINT || dk == TK_PRED;
  /* Float to pred is a compare with zero, which reads subnormals as zero;
   * but bf16's compare with zero is decided on its bits (the widening to f32
   * is exact), so a bf16 subnormal is true, as on XLA:CPU. */
  bool daz = dk == TK_PRED ? ew_flushes(st) && st != T_BF16 : convert_flushes(st, dt);
  bool ftz = convert_flushes(st, dt);
  for (int64_t i = 0; i < n; i++) {
    int64_t j = i * step;
    if (s_int) {
      int64_t v = ew_load_int(st, a->data, j);
      if (d_int) ew_store_int(dt, o->data, i, dk == TK_PRED ? v != 0 : v);
      else if (dk == TK_FLOAT) ew_store_float(dt, o->data, i, int_to_double(v, sk == TK_SINT, dt));
      else ew_store_complex(dt, o->data, i, cx(int_to_double(v, sk == TK_SINT, dt), 0));
    } else if (sk == TK_FLOAT) {
      double d = ew_load_float(st, a->data, j);
      if (daz) d = ew_daz(st, d);
      if (ftz) d = ew_ftz(dt, d);
      if (d_int) ew_store_int(dt, o->data, i, float_to_int(d, &dit));
      else if (dk == TK_FLOAT) ew_store_float(dt, o->data, i, d);
      else ew_store_complex(dt, o->data, i, cx(d, 0));
    } else { /* complex: to a real type keeps the real part */
      EwComplex z = ew_load_complex(st, a->data, j);
      if (daz) z = cx_daz(st, z);
      if (ftz) z = cx_ftz(dt, z);
      if (dk == TK_PRED) ew_store_int(dt, o->data, i, z.re != 0 || z.im != 0);
      else if (d_int) ew_store_int(dt, o->data, i, float_to_int(z.re, &dit));
      else if (dk == TK_FLOAT) ew_store_float(dt, o->data, i, z.re);
      else ew_store_complex(dt, o->data, i, z);
    }
  }
  return NULL;
}

/* ---- bitcast-convert ---- */

/* Bit width of a type's values for bitcasting (pred counts as a byte). */
static int bitcast_width(ElemType t) { return t == T_PRED ? 8 : type_bits(t); }

/* Reinterprets the bits. Equal widths map element to element; a wider
 * operand splits into the result's last dimension, least significant part
 * first (little-endian), and a narrower one gathers its last dimension. In
 * row-major order both are the same stream of bits. */
static cxla_status eval_bitcast_convert(const Instr *in, const Literal *a, Literal *o) {
  if (!is_array(a)) return interp_error(in, CXLA_INVALID_ARGUMENT, "operand 0 is not an array");
  ElemType st = a->type, dt = o->type;
  int iw = bitcast_width(st), ow = bitcast_width(dt);
  if (iw == 0 || ow == 0) return type_error(in, iw == 0 ? st : dt);
  if (a->nelems * iw != o->nelems * ow)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%lld x %d bits cannot become %lld x %d bits",
                        (long long)a->nelems, iw, (long long)o->nelems, ow);
  if (o->nelems == 0) return NULL;
  bool bytewise = iw % 8 == 0 && ow % 8 == 0 && iw == 8 * type_bytes(st) &&
                  ow == 8 * type_bytes(dt);
  if (bytewise) {
    memcpy(o->data, a->data, (size_t)(o->nelems * type_bytes(dt)));
  } else {
    if (iw > 64 || ow > 64) return type_error(in, iw > 64 ? st : dt);
    /* Sub-byte types are stored one per byte: move bit by bit. */
    for (int64_t j = 0; j < o->nelems; j++) {
      uint64_t v = 0;
      for (int k = 0; k < ow; k++) {
        int64_t g = j * ow + k;
        uint64_t src = ew_zext(load_raw(st, a->data, g / iw), iw);
        v |= ((src >> (g % iw)) & 1) << k;
      }
      if (type_kind(dt) == TK_SINT) {
        ew_store_int(dt, o->data, j, ew_sext(v, ow));
      } else {
        int nb = type_bytes(dt);
        memcpy((unsigned char *)o->data + j * nb, &v, (size_t)nb);
      }
    }
  }
  if (dt == T_PRED) { /* a pred byte holds exactly 0 or 1 */
    unsigned char *p = o->data;
    for (int64_t i = 0; i < o->nelems; i++) p[i] = p[i] != 0;
  }
  return NULL;
}

/* ---- reduce-precision ---- */

/* XLA's reduce-precision on the bits x of an IEEE format with src_e
 * exponent and src_m mantissa bits: round the mantissa to dst_m bits (to
 * nearest, ties to even), then force exponents out of the reduced range to
 * +-Inf (overflow) or +-0 (underflow; denormals of the reduced format flush
 * to zero as well). NaNs stay NaN (they become +Inf when dst_m == 0). */
static uint64_t reduce_precision_bits(uint64_t x, int nbits, int src_e, int src_m, int dst_e,
                                      int dst_m) {
  uint64_t all = nbits == 64 ? ~0ull : (1ull << nbits) - 1;
  uint64_t sign = 1ull << (nbits - 1);
  uint64_t exp_mask = ((1ull << src_e) - 1) << src_m;
  uint64_t orig = x;
  bool is_nan = (x & ~sign & all) > exp_mask;
  if (dst_m < src_m) {
    uint64_t last = 1ull << (src_m - dst_m);
    uint64_t bias = (last >> 1) - 1 + ((x & last) >> (src_m - dst_m));
    x = ((x + bias) & ~(last - 1)) & all;
  }
  if (dst_e < src_e) {
    uint64_t ebias = (1ull << (src_e - 1)) - 1, rbias = (1ull << (dst_e - 1)) - 1;
    uint64_t rmax = ebias + rbias, rmin = ebias - rbias;
    uint64_t xe = x & exp_mask;
    if (xe > (rmax << src_m)) x = (x & sign) | exp_mask;
    else if (xe <= (rmin << src_m)) x = x & sign;
  }
  if (is_nan) x = dst_m > 0 ? orig : exp_mask;
  return x;
}

static cxla_status eval_reduce_precision(const Instr *in, const Literal *a, Literal *o) {
  int64_t step;
  TRY(operand_step(in, 0, a, o, &step));
  if (a->type != o->type) return type_mismatch(in, 0, a->type, o->type);
  if (in->exponent_bits < 1 || in->mantissa_bits < 0)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "exponent_bits=%lld mantissa_bits=%lld",
                        (long long)in->exponent_bits, (long long)in->mantissa_bits);
  int de = in->exponent_bits > 64 ? 64 : (int)in->exponent_bits;
  int dm = in->mantissa_bits > 64 ? 64 : (int)in->mantissa_bits;
  ElemType t = a->type;
  int nbits, se, sm;
  switch (t) {
  case T_F64: nbits = 64, se = 11, sm = 52; break;
  case T_F32: nbits = 32, se = 8, sm = 23; break;
  case T_F16: nbits = 16, se = 5, sm = 10; break;
  case T_BF16: nbits = 16, se = 8, sm = 7; break;
  default:
    if (!type_is_float(t)) return type_error(in, t);
    /* The f8/f4 types go through f32, as XLA's evaluator does. */
    for (int64_t i = 0; i < o->nelems; i++) {
      float f = (float)ew_load_float(t, a->data, i * step);
      uint32_t u;
      memcpy(&u, &f, 4);
      u = (uint32_t)reduce_precision_bits(u, 32, 8, 23, de, dm);
      memcpy(&f, &u, 4);
      ew_store_float(t, o->data, i, f);
    }
    return NULL;
  }
  int nb = nbits / 8;
  for (int64_t i = 0; i < o->nelems; i++) {
    uint64_t x = load_raw(t, a->data, i * step);
    x = reduce_precision_bits(x, nbits, se, sm, de, dm);
    memcpy((unsigned char *)o->data + i * nb, &x, (size_t)nb);
  }
  return NULL;
}

/* ---- stochastic-convert ---- */

/* Float to integer with stochastic rounding: the magnitude rounds up when
 * the random bits (as a fraction of 2^bits) fall below its fractional part;
 * NaN -> 0, out of range and infinities saturate. */
static cxla_status eval_stochastic_convert(const Instr *in, Literal *const *ops, Literal *o) {
  int64_t sa, sr;
  TRY(operand_step(in, 0, ops[0], o, &sa));
  TRY(operand_step(in, 1, ops[1], o, &sr));
  const Literal *a = ops[0], *r = ops[1];
  if (!type_is_float(a->type)) return type_error(in, a->type);
  if (type_kind(r->type) != TK_UINT || type_bits(r->type) != type_bits(a->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "random operand must be an unsigned type as wide as %s",
                        type_name(a->type));
  if (type_kind(o->type) != TK_SINT) return type_error(in, o->type);
  IntT it = int_info(o->type);
  int rb = type_bits(r->type);
  for (int64_t i = 0; i < o->nelems; i++) {
    double d = ew_daz(a->type, ew_load_float(a->type, a->data, i * sa));
    uint64_t rnd = (uint64_t)ew_load_int(r->type, r->data, i * sr);
    int64_t v;
    if (isnan(d)) {
      v = 0;
    } else if (isinf(d) || fabs(d) >= ldexp(1.0, it.bits - 1)) {
      v = float_to_int(d, &it);
    } else {
      double m = fabs(d), whole = floor(m), frac = m - whole;
      uint64_t fixed = (uint64_t)ldexp(frac, rb); /* frac * 2^bits */
      int64_t q = (int64_t)whole + (rnd < fixed);
      v = signbit(d) ? -q : q;
      v = float_to_int((double)v, &it); /* a round-up past the maximum saturates */
    }
    ew_store_int(o->type, o->data, i, v);
  }
  return NULL;
}

/* ---- map ---- */

/* Applies to_apply to the elements at each index. A computation that is one
 * binary elementwise op of its two parameters runs as that op directly. */
static cxla_status eval_map(Interp *ip, const Instr *in, Literal *const *ops, Literal *o) {
  if (in->ncalled < 1 || !in->called[0])
    return interp_error(in, CXLA_INVALID_ARGUMENT, "map without to_apply");
  const Computation *c = in->called[0];
  int n = in->noperands;
  if (c->nparams != n)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "to_apply takes %d parameters, map has %d operands",
                        c->nparams, n);
  for (int k = 0; k < n; k++) {
    int64_t step;
    TRY(operand_step(in, k, ops[k], o, &step));
    if (step == 0 && o->rank != 0)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "operand %d is not the result's shape", k);
  }
  ScalarFn sf = scalar_fn_of(c);
  if (n == 2 && sf.op != OP_COUNT && sf.op != OP_COMPARE && sf.op != OP_COMPLEX &&
      ops[0]->type == o->type && ops[1]->type == o->type) {
    Instr fake = *in;
    fake.op = sf.op;
    return eval_binary(&fake, ops[sf.swapped ? 1 : 0], ops[sf.swapped ? 0 : 1], o);
  }
  /* General case: one call per element, on reused scalar literals. */
  Literal *small[8], **args = small;
  if (n > 8 && !(args = cxla_calloc((size_t)n, sizeof(Literal *)))) return cxla_oom();
  cxla_status s = NULL;
  int made = 0;
  for (; made < n && !s; made++) s = literal_create(ops[made]->type, 0, NULL, &args[made]);
  if (s) made--;
  size_t oes = (size_t)type_bytes(o->type);
  for (int64_t i = 0; !s && i < o->nelems; i++) {
    for (int k = 0; k < n; k++) {
      size_t es = (size_t)type_bytes(ops[k]->type);
      memcpy(args[k]->data, (const unsigned char *)ops[k]->data + (size_t)i * es, es);
    }
    Literal *r = NULL;
    s = interp_call(ip, c, args, n, &r);
    if (!s && (r->type != o->type || r->rank != 0))
      s = interp_error(in, CXLA_INVALID_ARGUMENT, "to_apply must return a %s scalar",
                       type_name(o->type));
    if (!s) memcpy((unsigned char *)o->data + (size_t)i * oes, r->data, oes);
    literal_free(r);
  }
  for (int k = 0; k < made; k++) literal_free(args[k]);
  if (args != small) cxla_free(args);
  return s;
}

/* ======================================================================
 * Entry point
 * ====================================================================== */

static cxla_status check_arity(const Instr *in, int want) {
  if (in->noperands != want)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "expects %d operands, has %d", want,
                        in->noperands);
  return NULL;
}

static cxla_status dispatch(Interp *ip, const Instr *in, Literal *const *ops, Literal *o) {
  switch (in->op) {
  case OP_CONVERT:
    TRY(check_arity(in, 1));
    return eval_convert(in, ops[0], o);
  case OP_BITCAST_CONVERT:
    TRY(check_arity(in, 1));
    return eval_bitcast_convert(in, ops[0], o);
  case OP_REDUCE_PRECISION:
    TRY(check_arity(in, 1));
    return eval_reduce_precision(in, ops[0], o);
  case OP_COMPARE:
    TRY(check_arity(in, 2));
    return eval_compare(in, ops[0], ops[1], o);
  case OP_COMPLEX:
    TRY(check_arity(in, 2));
    return eval_make_complex(in, ops[0], ops[1], o);
  case OP_SELECT:
    TRY(check_arity(in, 3));
    return eval_select(in, ops, o);
  case OP_CLAMP:
    TRY(check_arity(in, 3));
    return eval_clamp(in, ops, o);
  case OP_STOCHASTIC_CONVERT:
    TRY(check_arity(in, 2));
    return eval_stochastic_convert(in, ops, o);
  case OP_MAP:
    return eval_map(ip, in, ops, o);
  default:
    break;
  }
  const OpInfo *info = op_info(in->op);
  if (!(info->flags & OPF_EW) || (info->arity != 1 && info->arity != 2))
    return interp_error(in, CXLA_UNIMPLEMENTED, "not an elementwise op");
  TRY(check_arity(in, info->arity));
  if (info->arity == 1) return eval_unary(in, ops[0], o);
  return eval_binary(in, ops[0], ops[1], o);
}

bool ew_scalar_eval(const Instr *in, const void *const *ops, void *out) {
  if (in->op == OP_MAP || in->noperands > 3 || !in->shape || !type_is_array(in->shape->type))
    return false;
  Literal lits[3], res, *ptrs[3];
  for (int k = 0; k < in->noperands; k++) {
    const Shape *s = in->operands[k]->shape;
    if (!s || !type_is_array(s->type)) return false;
    lits[k] = (Literal){.type = s->type, .nelems = 1, .data = (void *)ops[k]};
    ptrs[k] = &lits[k];
  }
  res = (Literal){.type = in->shape->type, .nelems = 1, .data = out};
  cxla_status s = dispatch(NULL, in, ptrs, &res);
  if (s) {
    cxla_status_free(s);
    return false;
  }
  return true;
}

cxla_status interp_fma(const Instr *in, int k, const Literal *a, const Literal *b, const Literal *c,
                       Literal **out) {
  *out = NULL;
  Literal *o;
  TRY(make_result(in, &o));
  int64_t sa, sb, sc;
  ElemType t = o->type;
  cxla_status s = operand_step(in, k, a, o, &sa);
  if (!s) s = operand_step(in, k, b, o, &sb);
  if (!s) s = operand_step(in, 1 - k, c, o, &sc);
  if (!s && (t != T_F32 && t != T_F64)) s = type_error(in, t);
  if (!s && (a->type != t || b->type != t)) s = type_mismatch(in, k, a->type != t ? a->type : b->type, t);
  if (!s && c->type != t) s = type_mismatch(in, 1 - k, c->type, t);
  if (s) {
    literal_free(o);
    return s;
  }
  /* c - a*b = fma(-a, b, c); a*b - c = fma(a, b, -c) */
  bool neg_a = in->op == OP_SUBTRACT && k == 1, neg_c = in->op == OP_SUBTRACT && k == 0;
  int64_t n = o->nelems;
  if (t == T_F32) {
    const float *x = a->data, *y = b->data, *z = c->data;
    float *r = o->data;
    for (int64_t i = 0; i < n; i++) {
      float u = (float)ew_daz(t, x[i * sa]), v = (float)ew_daz(t, y[i * sb]), w = (float)ew_daz(t, z[i * sc]);
      r[i] = (float)ew_ftz(t, fmaf(neg_a ? -u : u, v, neg_c ? -w : w));
    }
  } else {
    const double *x = a->data, *y = b->data, *z = c->data;
    double *r = o->data;
    for (int64_t i = 0; i < n; i++) {
      double u = ew_daz(t, x[i * sa]), v = ew_daz(t, y[i * sb]), w = ew_daz(t, z[i * sc]);
      r[i] = ew_ftz(t, fma(neg_a ? -u : u, v, neg_c ? -w : w));
    }
  }
  *out = o;
  return NULL;
}

cxla_status interp_elementwise(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  Literal *o;
  TRY(make_result(in, &o));
  cxla_status s = dispatch(ip, in, ops, o);
  if (s) {
    literal_free(o);
    return s;
  }
  *out = o;
  return NULL;
}
