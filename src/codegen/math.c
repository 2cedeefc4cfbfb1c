/* Transcendental functions: the one place the emitter chooses how each is
 * computed. Our own vectorizable implementations (em_vmath1/2, below) where
 * we have them; otherwise a call to the C library's double function (the
 * interpreter's definition). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "codegen/cg_internal.h"

const char *cg_math_unary_name(Opcode op) {
  switch (op) {
  case OP_ACOS: return "acos";
  case OP_ACOSH: return "acosh";
  case OP_ASIN: return "asin";
  case OP_ASINH: return "asinh";
  case OP_ATAN: return "atan";
  case OP_ATANH: return "atanh";
  case OP_CBRT: return "cbrt";
  case OP_COS: return "cos";
  case OP_COSH: return "cosh";
  case OP_ERF: return "erf";
  case OP_EXP: return "exp";
  case OP_EXPM1: return "expm1";
  case OP_LOG: return "log";
  case OP_LOG1P: return "log1p";
  case OP_SIN: return "sin";
  case OP_SINH: return "sinh";
  case OP_TAN: return "tan";
  case OP_TANH: return "tanh";
  default: return NULL;
  }
}

static LLVMValueRef math_fn(Em *e, const char *name, int nargs, LLVMTypeRef *ft) {
  Codegen *cg = e->cg;
  LLVMTypeRef ps[2] = {cg->f64, cg->f64};
  *ft = LLVMFunctionType(cg->f64, ps, (unsigned)nargs, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (!f) {
    f = LLVMAddFunction(cg->mod, name, *ft);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
  }
  return f;
}

LLVMValueRef em_math_call1(Em *e, const char *name, LLVMValueRef x) {
  LLVMTypeRef ft;
  LLVMValueRef f = math_fn(e, name, 1, &ft);
  return LLVMBuildCall2(e->b, ft, f, &x, 1, "");
}

LLVMValueRef em_math_call2(Em *e, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef ft;
  LLVMValueRef f = math_fn(e, name, 2, &ft);
  return LLVMBuildCall2(e->b, ft, f, (LLVMValueRef[]){x, y}, 2, "");
}

/* ---- vectorizable implementations of our own ----
 *
 * Each function below emits straight-line IR (no calls, no branches: special
 * cases are selects), so LLVM's loop vectorizer turns a loop over elements
 * into full-width SIMD code. exp, tanh, logistic, log, log1p, sin, cos and
 * erf of f32 (and bf16/f16, which arrive as f32) are computed in f32
 * arithmetic (em_vmath1_f32, below: twice the lanes; sin and cos reduce
 * large arguments in double). Everything else is computed in double:
 *   - f32 (and bf16/f16, which arrive widened to f32) are widened to double,
 *     computed with double's precision and rounded once to the element type:
 *     the result is within one unit of f32 rounding of the true value
 *     (correctly rounded but for rare double-rounding ties);
 *     Polynomials are shorter for these (`lite`: truncation below 2^-34);
 *   - f64 uses the same code, full length, for exp, expm1, log, log1p, tanh,
 *     logistic and cbrt, and its own sin/cos/tan, atan and atan2 (within one
 *     unit of double rounding); the other f64 functions keep the C
 *     library's (em_vmath1/2 return NULL).
 * The accuracy of each is measured by tests/unit/test_vmath.c against tables
 * computed with mpmath (tests/gen/vmath_ref.py) and against long double. */

static LLVMValueRef K(Em *e, double v) { return LLVMConstReal(e->cg->f64, v); }
static LLVMValueRef KI(Em *e, int64_t v) { return LLVMConstInt(e->cg->i64, (unsigned long long)v, 1); }
static LLVMValueRef vadd(Em *e, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFAdd(e->b, a, b, ""); }
static LLVMValueRef vsub(Em *e, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFSub(e->b, a, b, ""); }
static LLVMValueRef vmul(Em *e, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFMul(e->b, a, b, ""); }
static LLVMValueRef vdiv(Em *e, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFDiv(e->b, a, b, ""); }
static LLVMValueRef fneg(Em *e, LLVMValueRef a) { return LLVMBuildFNeg(e->b, a, ""); }
static LLVMValueRef vfma(Em *e, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
  return em_intrinsic(e, "llvm.fma", e->cg->f64, 3, (LLVMValueRef[]){a, b, c});
}
static LLVMValueRef fun1(Em *e, const char *intr, LLVMValueRef a) { return em_intrinsic(e, intr, e->cg->f64, 1, &a); }
static LLVMValueRef fabs_(Em *e, LLVMValueRef a) { return fun1(e, "llvm.fabs", a); }
static LLVMValueRef rint_(Em *e, LLVMValueRef a) { return fun1(e, "llvm.rint", a); }
static LLVMValueRef csign(Em *e, LLVMValueRef mag, LLVMValueRef sgn) {
  return em_intrinsic(e, "llvm.copysign", e->cg->f64, 2, (LLVMValueRef[]){mag, sgn});
}
static LLVMValueRef sel(Em *e, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(e->b, c, a, b, ""); }
static LLVMValueRef fcmp(Em *e, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(e->b, p, a, b, ""); }
/* The NaN an invalid operation gives on this host (x86: the sign bit set),
 * which is what the C library's functions return for arguments outside
 * their domain: results agree with the interpreter's, sign included (a
 * TOTALORDER compare sees it). */
#if defined(__x86_64__) || defined(__i386__)
#define CG_INVALID_NAN (-NAN)
#else
#define CG_INVALID_NAN NAN
#endif

static LLVMValueRef isnan_(Em *e, LLVMValueRef a) { return fcmp(e, LLVMRealUNO, a, a); }
static LLVMValueRef bits(Em *e, LLVMValueRef a) { return LLVMBuildBitCast(e->b, a, e->cg->i64, ""); }
static LLVMValueRef unbits(Em *e, LLVMValueRef a) { return LLVMBuildBitCast(e->b, a, e->cg->f64, ""); }

/* c[0] + x*(c[1] + x*(...)) */
static LLVMValueRef horner(Em *e, LLVMValueRef x, const double *c, int n) {
  LLVMValueRef r = K(e, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) r = vfma(e, r, x, K(e, c[i]));
  return r;
}

/* 2^k for an integral double k in [-1022, 1023]. */
static LLVMValueRef pow2i(Em *e, LLVMValueRef k) {
  LLVMValueRef ki = LLVMBuildFPToSI(e->b, k, e->cg->i64, "");
  return unbits(e, LLVMBuildShl(e->b, LLVMBuildAdd(e->b, ki, KI(e, 1023), ""), KI(e, 52), ""));
}

static double inv_fact(int n) {
  double f = 1;
  for (int i = 2; i <= n; i++) f *= i; /* exact up to 22! */
  return 1.0 / f;
}

#define LN2_HI 0x1.62e42fefa39efp-1 /* ln 2 rounded to double */
#define LN2_LO 0x1.abc9e3b39803fp-56 /* ln 2 - LN2_HI */
#define LOG2E 0x1.71547652b82fep+0
#define LN2_HI42 0x1.62e42fefa3800p-1 /* ln 2 to 42 bits: k * LN2_HI42 exact */
#define LN2_LO42 0x1.ef35793c76730p-45
#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54
#define PI_HI 0x1.921fb54442d18p+1
#define PIO6 0x1.0c152382d7366p-1
#define SQRT3 0x1.bb67ae8584caap+0

/* x = k ln2 + r, |r| <= ln2/2 (exactly up to LN2_LO's rounding: the first
 * step is exact under fma because x and k*LN2_HI are multiples of 2^-53
 * whose difference is small). x must be finite and |x| < 2^11. */
static LLVMValueRef exp_reduce(Em *e, LLVMValueRef x, LLVMValueRef *k) {
  *k = rint_(e, vmul(e, x, K(e, LOG2E)));
  LLVMValueRef nk = fneg(e, *k);
  return vfma(e, nk, K(e, LN2_LO), vfma(e, nk, K(e, LN2_HI), x));
}

/* expm1(r) for |r| <= 0.35: Taylor to degree 13 (truncation < 2^-60 of r);
 * `lite` (results rounded to f32 or narrower): degree 9 (< 2^-35). */
static LLVMValueRef expm1_poly(Em *e, LLVMValueRef r, bool lite) {
  double c[12];
  int n = lite ? 8 : 12;
  for (int i = 0; i < n; i++) c[i] = inv_fact(i + 2);
  LLVMValueRef q = horner(e, r, c, n);
  return vfma(e, vmul(e, r, r), q, r);
}

/* x clamped to [lo, hi]; NaN becomes 0 (callers select NaN back). */
static LLVMValueRef clamp0(Em *e, LLVMValueRef x, double lo, double hi) {
  LLVMValueRef c = sel(e, fcmp(e, LLVMRealOLT, x, K(e, lo)), K(e, lo), x);
  c = sel(e, fcmp(e, LLVMRealOGT, c, K(e, hi)), K(e, hi), c);
  return sel(e, isnan_(e, x), K(e, 0), c);
}

static LLVMValueRef v_exp(Em *e, LLVMValueRef x, bool lite) {
  LLVMValueRef xc = lite ? clamp0(e, x, -160, 100) : clamp0(e, x, -746, 710), k;
  LLVMValueRef r = exp_reduce(e, xc, &k);
  LLVMValueRef p = vadd(e, K(e, 1), expm1_poly(e, r, lite));
  /* f32 results: beyond the clamp they are 0 or inf in f32; 2^k is a
   * normal double */
  if (lite) return sel(e, isnan_(e, x), x, vmul(e, p, pow2i(e, k)));
  /* 2^k in two factors, each a normal number: overflow and underflow
   * (flushed under FTZ) come out of the multiplications. */
  LLVMValueRef k1 = fun1(e, "llvm.floor", vmul(e, k, K(e, 0.5)));
  LLVMValueRef res = vmul(e, vmul(e, p, pow2i(e, k1)), pow2i(e, vsub(e, k, k1)));
  return sel(e, isnan_(e, x), x, res);
}

static LLVMValueRef v_expm1(Em *e, LLVMValueRef x, bool lite) {
  LLVMValueRef xc = clamp0(e, x, -60, 710), k;
  LLVMValueRef r = exp_reduce(e, xc, &k);
  LLVMValueRef p = expm1_poly(e, r, lite);
  /* expm1(x) = 2^k (p + 1) - 1 = 2 (s p + (s - 1/2)) with s = 2^(k-1) */
  LLVMValueRef s = pow2i(e, vsub(e, k, K(e, 1)));
  LLVMValueRef res = vmul(e, K(e, 2), vfma(e, s, p, vsub(e, s, K(e, 0.5))));
  LLVMValueRef tiny = fcmp(e, LLVMRealOLT, fabs_(e, x), K(e, 0x1p-60));
  return sel(e, LLVMBuildOr(e->b, tiny, isnan_(e, x), ""), x, res);
}

/* log(u) + c for finite positive normal u and a small correction c (log1p's
 * rounding correction; 0 for log). u = 2^k m, sqrt(1/2) <= m < sqrt(2),
 * f = m - 1, s = f/(2+f): log(1+f) = f - hfsq + s (hfsq + R(s^2)), R's
 * Taylor series to z^10 (z^5 when `lite`: truncation < 2^-34). */
static LLVMValueRef log_core(Em *e, LLVMValueRef u, LLVMValueRef c, bool lite) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ub = bits(e, u);
  LLVMValueRef ex = LLVMBuildSub(B, LLVMBuildLShr(B, ub, KI(e, 52), ""), KI(e, 1023), "");
  LLVMValueRef m = unbits(e, LLVMBuildOr(B, LLVMBuildAnd(B, ub, KI(e, 0x000FFFFFFFFFFFFFLL), ""),
                                         KI(e, 0x3FF0000000000000LL), ""));
  LLVMValueRef big = fcmp(e, LLVMRealOGT, m, K(e, 0x1.6a09e667f3bcdp+0));
  m = sel(e, big, vmul(e, m, K(e, 0.5)), m);
  ex = sel(e, big, LLVMBuildAdd(B, ex, KI(e, 1), ""), ex);
  LLVMValueRef dk = LLVMBuildSIToFP(B, ex, e->cg->f64, "");
  LLVMValueRef f = vsub(e, m, K(e, 1));
  LLVMValueRef s = vdiv(e, f, vadd(e, K(e, 2), f));
  LLVMValueRef z = vmul(e, s, s);
  double cr[10];
  for (int i = 0; i < 10; i++) cr[i] = 2.0 / (2 * i + 3); /* 2/3, 2/5, ... */
  LLVMValueRef R = vmul(e, z, horner(e, z, cr, lite ? 5 : 10));
  LLVMValueRef hfsq = vmul(e, K(e, 0.5), vmul(e, f, f));
  LLVMValueRef lo = vfma(e, dk, K(e, LN2_LO42), c);
  LLVMValueRef t = vsub(e, vsub(e, hfsq, vfma(e, s, vadd(e, hfsq, R), lo)), f);
  return vsub(e, vmul(e, dk, K(e, LN2_HI42)), t);
}

static LLVMValueRef v_log(Em *e, LLVMValueRef x, bool lite) {
  LLVMValueRef pos = fcmp(e, LLVMRealOGT, x, K(e, 0));
  LLVMValueRef fin = fcmp(e, LLVMRealOLT, x, K(e, INFINITY));
  LLVMValueRef u = sel(e, LLVMBuildAnd(e->b, pos, fin, ""), x, K(e, 1));
  LLVMValueRef r = log_core(e, u, K(e, 0), lite);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, K(e, INFINITY)), x, r);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, K(e, 0)), K(e, -INFINITY), r);
  return sel(e, fcmp(e, LLVMRealULT, x, K(e, 0)), K(e, CG_INVALID_NAN), r); /* NaN or negative */
}

static LLVMValueRef v_log1p(Em *e, LLVMValueRef x, bool lite) {
  LLVMValueRef u = vadd(e, K(e, 1), x);
  /* the rounding error of 1 + x, relative to u */
  LLVMValueRef c = vdiv(e, vsub(e, x, vsub(e, u, K(e, 1))), u);
  LLVMValueRef ok = LLVMBuildAnd(e->b, fcmp(e, LLVMRealOGT, u, K(e, 0)), fcmp(e, LLVMRealOLT, x, K(e, INFINITY)), "");
  LLVMValueRef r = log_core(e, sel(e, ok, u, K(e, 1)), sel(e, ok, c, K(e, 0)), lite);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, K(e, INFINITY)), x, r);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, K(e, -1)), K(e, -INFINITY), r);
  r = sel(e, fcmp(e, LLVMRealULT, x, K(e, -1)), K(e, CG_INVALID_NAN), r);
  LLVMValueRef tiny = fcmp(e, LLVMRealOLT, fabs_(e, x), K(e, 0x1p-60)); /* and +-0 */
  return sel(e, LLVMBuildOr(e->b, tiny, isnan_(e, x), ""), x, r);
}

/* tanh's Taylor coefficients of x^3, x^5, ... x^45 (mpmath). */
static const double kTanhTaylor[22] = {
    -0x1.5555555555555p-2, 0x1.1111111111111p-3,  -0x1.ba1ba1ba1ba1cp-5, 0x1.664f4882c10fap-6,
    -0x1.226e355e6c23dp-7, 0x1.d6d3d0e157de0p-9,  -0x1.7da36452b75e3p-10, 0x1.3558248036744p-11,
    -0x1.f57d7734d1664p-13, 0x1.967e18afcafadp-14, -0x1.497d8eea25259p-15, 0x1.0b132d39a6050p-16,
    -0x1.b0f72d3ee24e9p-18, 0x1.5ef2da474e5b7p-19, -0x1.1c77df95c1c0dp-20, 0x1.cd299de4ae6bbp-22,
    -0x1.75cde6563fed9p-23, 0x1.2efe8db3aff1fp-24, -0x1.eb3229047434cp-26, 0x1.8e25ff9327e2cp-27,
    -0x1.42ba1a349b490p-28, 0x1.0597b61cb3092p-29};

/* 1/d for d in [1, 2] (or NaN) to 2^-45: an f32 quotient (a quarter of a
 * double one's cost in vector code) refined by one Newton step. */
static LLVMValueRef recip_1_2(Em *e, LLVMValueRef d) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef df = LLVMBuildFPTrunc(B, d, e->cg->f32, "");
  LLVMValueRef y = LLVMBuildFPExt(B, LLVMBuildFDiv(B, LLVMConstReal(e->cg->f32, 1), df, ""), e->cg->f64, "");
  return vfma(e, y, vfma(e, fneg(e, d), y, K(e, 1)), y);
}

/* f32 results: tanh(|x|) = -t / (t + 2), t = expm1(-2|x|); sign restored.
 * f64: |x| < 0.625 by its Taylor series (to x^45, truncation < 2^-56);
 * beyond, 1 - q with q = 2 / (exp(2|x|) + 1) computed with the rounding of
 * the sum and of the quotient corrected (fma residual). */
static LLVMValueRef v_tanh(Em *e, LLVMValueRef x, bool lite) {
  LLVMValueRef ax = fabs_(e, x);
  if (lite) {
    LLVMValueRef t = v_expm1(e, vmul(e, K(e, -2), ax), lite);
    return csign(e, vmul(e, fneg(e, t), recip_1_2(e, vadd(e, t, K(e, 2)))), x);
  }
  LLVMValueRef z = vmul(e, x, x);
  LLVMValueRef small = vfma(e, vmul(e, ax, z), horner(e, z, kTanhTaylor, 22), ax);
  LLVMValueRef ex = v_exp(e, vmul(e, K(e, 2), sel(e, fcmp(e, LLVMRealOGT, ax, K(e, 40)), K(e, 40), ax)), false);
  LLVMValueRef d = vadd(e, ex, K(e, 1));
  LLVMValueRef derr = vsub(e, K(e, 1), vsub(e, d, ex)); /* ex + 1 = d + derr (ex >= 1) */
  LLVMValueRef q = vdiv(e, K(e, 2), d);
  /* 2 - q (d + derr), divided by d */
  LLVMValueRef res = vsub(e, vfma(e, fneg(e, q), d, K(e, 2)), vmul(e, q, derr));
  q = vadd(e, q, vdiv(e, res, d));
  LLVMValueRef big = vsub(e, K(e, 1), q);
  return csign(e, sel(e, fcmp(e, LLVMRealOLT, ax, K(e, 0.625)), small, big), x);
}

/* f32 results: 1 / (1 + exp(-x)). f64: t = exp(-|x|) <= 1, then 1 / (1 + t)
 * for x >= 0 and t / (1 + t) below, with the rounding of the sum and of the
 * quotient corrected (fma residual). */
static LLVMValueRef v_logistic(Em *e, LLVMValueRef x, bool lite) {
  if (lite) return vdiv(e, K(e, 1), vadd(e, K(e, 1), v_exp(e, fneg(e, x), lite)));
  LLVMValueRef t = v_exp(e, fneg(e, fabs_(e, x)), false);
  LLVMValueRef n = sel(e, fcmp(e, LLVMRealOLT, x, K(e, 0)), t, K(e, 1));
  LLVMValueRef d = vadd(e, K(e, 1), t);
  LLVMValueRef derr = vsub(e, t, vsub(e, d, K(e, 1))); /* 1 + t = d + derr */
  LLVMValueRef q = vdiv(e, n, d);
  LLVMValueRef res = vsub(e, vfma(e, fneg(e, q), d, n), vmul(e, q, derr));
  return vadd(e, q, vdiv(e, res, d));
}

/* ---- sin, cos, tan of f32 values (in double) ----
 * Argument reduction exact enough for every f32 value (a vectorizable
 * Payne-Hanek): |x| = m 2^(E-23) with a 24-bit integer m; 2/pi's fraction
 * bits in 24-bit chunks c_j (value c_j 2^(-24(j+1))). Each m c_j is an exact
 * double, so the terms t_j = m c_j 2^(E-47-24j) of |x| 2/pi are exact.
 * Terms whose least bit weighs 4 or more do not change |x| 2/pi mod 4: the
 * sum starts at chunk j0 chosen so that the first term's least bit weighs
 * between 2^-22 and 2^1; five chunks (120 bits) follow. */
static const double kTwoOverPiChunks[9] = {0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd,
                                           0xc0db62, 0x95993c, 0x439041, 0xfe5163};

static LLVMValueRef mod4(Em *e, LLVMValueRef t) {
  return vsub(e, t, vmul(e, K(e, 4), fun1(e, "llvm.floor", vmul(e, t, K(e, 0.25)))));
}

/* r in [-pi/4, pi/4] (slightly beyond) and quadrant q (i64, 0..3) with
 * |x| = q pi/2 + r mod 2 pi; ax is |x|, a positive normal f32 value. */
static LLVMValueRef trig_reduce_f32(Em *e, LLVMValueRef ax, LLVMValueRef *q) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef b = bits(e, ax);
  LLVMValueRef E = LLVMBuildSub(B, LLVMBuildLShr(B, b, KI(e, 52), ""), KI(e, 1023), "");
  LLVMValueRef mi = LLVMBuildOr(B, LLVMBuildAnd(B, LLVMBuildLShr(B, b, KI(e, 29), ""), KI(e, 0x7fffff), ""),
                                KI(e, 0x800000), "");
  LLVMValueRef m = LLVMBuildSIToFP(B, mi, e->cg->f64, "");
  LLVMValueRef j0 = sel(e, LLVMBuildICmp(B, LLVMIntSGT, E, KI(e, 48), ""),
                        LLVMBuildSDiv(B, LLVMBuildSub(B, E, KI(e, 25), ""), KI(e, 24), ""), KI(e, 0));
  LLVMValueRef s0 = LLVMBuildSub(B, LLVMBuildSub(B, E, KI(e, 47), ""), LLVMBuildMul(B, j0, KI(e, 24), ""), "");
  LLVMValueRef scale = unbits(e, LLVMBuildShl(B, LLVMBuildAdd(B, s0, KI(e, 1023), ""), KI(e, 52), ""));
  LLVMValueRef t[5];
  for (int i = 0; i < 5; i++) {
    LLVMValueRef c = K(e, kTwoOverPiChunks[i]);
    for (int j = 1; j <= 4; j++)
      c = sel(e, LLVMBuildICmp(B, LLVMIntEQ, j0, KI(e, j), ""), K(e, kTwoOverPiChunks[i + j]), c);
    t[i] = vmul(e, vmul(e, vmul(e, m, c), K(e, ldexp(1, -24 * i))), scale);
  }
  LLVMValueRef a = vadd(e, mod4(e, t[0]), mod4(e, t[1])); /* exact */
  LLVMValueRef ka = rint_(e, a);
  LLVMValueRef f = vsub(e, a, ka);                      /* exact, |f| <= 1/2 */
  LLVMValueRef s = vadd(e, f, t[2]);                    /* two-sum */
  LLVMValueRef bb = vsub(e, s, f);
  LLVMValueRef err = vadd(e, vsub(e, f, vsub(e, s, bb)), vsub(e, t[2], bb));
  LLVMValueRef k2 = rint_(e, s);
  s = vsub(e, s, k2);                                   /* exact */
  LLVMValueRef fr = vadd(e, s, vadd(e, err, vadd(e, t[3], t[4])));
  LLVMValueRef qi = LLVMBuildAdd(B, LLVMBuildFPToSI(B, ka, e->cg->i64, ""), LLVMBuildFPToSI(B, k2, e->cg->i64, ""), "");
  *q = LLVMBuildAnd(B, qi, KI(e, 3), "");
  return vfma(e, fr, K(e, PIO2_HI), vmul(e, fr, K(e, PIO2_LO)));
}

/* sin and cos on the reduced interval (f32 results): Taylor to degree 11 /
 * 12 (truncation < 2^-36). */
static LLVMValueRef sin_poly(Em *e, LLVMValueRef r) {
  double c[5];
  for (int i = 0; i < 5; i++) c[i] = (i % 2 ? 1 : -1) * inv_fact(2 * i + 3);
  LLVMValueRef z = vmul(e, r, r);
  return vfma(e, vmul(e, r, z), horner(e, z, c, 5), r);
}
static LLVMValueRef cos_poly(Em *e, LLVMValueRef r) {
  double c[6];
  for (int i = 0; i < 6; i++) c[i] = (i % 2 ? 1 : -1) * inv_fact(2 * i + 2);
  LLVMValueRef z = vmul(e, r, r);
  return vfma(e, z, horner(e, z, c, 6), K(e, 1));
}

/* The fast reduction (Cody-Waite) for |x| < CG_TRIG_FAST_MAX, |x| a
 * positive f32 value: k = rint(|x| 2/pi), r = |x| - k P1 - k P2 with pi/2
 * = P1 + P2 + (under 2^-107). |x| - k P1 is exact (both are multiples of
 * 2^-52 for |x| >= 2^-29 and their difference is below 1; below, k = 0), so
 * r's error is its last rounding and k 2^-107 < 2^-87: 2^-59 of the least
 * |r| of f32 arguments below 2^20 (2^-27.8, at 0x1.f9cbe2p+7: an exhaustive
 * search). */
#define CG_TRIG_FAST_MAX 0x1p20
static LLVMValueRef trig_reduce_fast_k(Em *e, LLVMValueRef ax, LLVMValueRef *k) {
  *k = rint_(e, vmul(e, ax, K(e, 0x1.45f306dc9c883p-1))); /* 2/pi */
  LLVMValueRef nk = fneg(e, *k);
  return vfma(e, nk, K(e, PIO2_LO), vfma(e, nk, K(e, PIO2_HI), ax));
}
static LLVMValueRef trig_reduce_fast(Em *e, LLVMValueRef ax, LLVMValueRef *q) {
  LLVMValueRef k, r = trig_reduce_fast_k(e, ax, &k);
  *q = LLVMBuildAnd(e->b, LLVMBuildFPToSI(e->b, k, e->cg->i64, ""), KI(e, 3), "");
  return r;
}

enum { TRIG_SIN, TRIG_COS, TRIG_TAN };

/* tan of an f32 value, in double (sin and cos: v_sincos_f32). */
static LLVMValueRef v_tan_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef tiny = fcmp(e, LLVMRealOLT, ax, K(e, 0x1p-126)); /* +-0 (DAZ) */
  LLVMValueRef bad = fcmp(e, LLVMRealUGE, ax, K(e, INFINITY));  /* inf, NaN */
  LLVMValueRef q, r, skip = LLVMBuildOr(B, tiny, bad, "");
  if (e->spec_flag) {
    /* speculative (cg.c): the fast reduction; a finite argument beyond
     * its range raises the flag and gets a harmless stand-in (the chunk is
     * computed again without speculation) */
    LLVMValueRef far = LLVMBuildAnd(B, fcmp(e, LLVMRealOGE, ax, K(e, CG_TRIG_FAST_MAX)),
                                    LLVMBuildNot(B, bad, ""), "");
    em_spec_raise(e, far);
    r = trig_reduce_fast(e, sel(e, LLVMBuildOr(B, skip, far, ""), K(e, 1), ax), &q);
  } else {
    r = trig_reduce_f32(e, sel(e, skip, K(e, 1), ax), &q);
  }
  LLVMValueRef sp = sin_poly(e, r), cp = cos_poly(e, r);
  LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, q, KI(e, 1), ""), KI(e, 0), "");
  LLVMValueRef res = sel(e, odd, fneg(e, vdiv(e, cp, sp)), vdiv(e, sp, cp));
  res = vmul(e, res, csign(e, K(e, 1), x)); /* odd */
  res = sel(e, tiny, x, res);
  return sel(e, bad, vsub(e, x, x), res);
}

/* ---- sin, cos, tan of f64 values ----
 * Payne-Hanek reduction in integer arithmetic (vectorizable: 64-bit lanes,
 * 32x32->64-bit products, gathers from a constant table). |x| = M 2^(E-52)
 * with a 53-bit integer M. The bits b_i (weight 2^-i) of 2/pi that matter
 * for |x| 2/pi mod 4 start at i0 = E - 53 (bits before it give multiples of
 * 4); a 192-bit window W of them from i0 gives |x| 2/pi = M W 2^-190
 * (truncation below 2^-136). M W is summed in 32-bit columns; bits 190-191
 * are the quadrant, the 126 bits below the fraction, taken to the nearest
 * quadrant in integer arithmetic (no cancellation in floating point) and
 * converted to a double-double. |x| < pi/4 needs no reduction. */

/* 2/pi's bits in 32-bit words, most significant first, after 64 zero bits
 * (so that table bit p is 2/pi's bit p - 64, zero for p <= 64) (mpmath). */
static const uint64_t kTwoOverPiWords[40] = {
    0x00000000, 0x00000000, 0x517cc1b7, 0x27220a94, 0xfe13abe8, 0xfa9a6ee0, 0x6db14acc, 0x9e21c820,
    0xff28b1d5, 0xef5de2b0, 0xdb92371d, 0x2126e970, 0x03249775, 0x04e8c90e, 0x7f0ef58e, 0x5894d39f,
    0x74411afa, 0x975da242, 0x74ce3813, 0x5a2fbf20, 0x9cc8eb1c, 0xc1a99cfa, 0x4e422fc5, 0xdefc941d,
    0x8ffc4bff, 0xef02cc07, 0xf79788c5, 0xad05368f, 0xb69b3f67, 0x93e584db, 0xa7a31fb3, 0x4f2ff516,
    0xba93dd63, 0xf5f2f8bd, 0x9e839cfb, 0xc5294975, 0x35fdafd8, 0x8fc6ae84, 0x2b019823, 0x7e3db5d5};

static LLVMValueRef two_over_pi_table(Em *e) {
  Codegen *cg = e->cg;
  const char *name = "cxla.two_over_pi";
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  LLVMValueRef vals[40];
  for (int i = 0; i < 40; i++) vals[i] = LLVMConstInt(cg->i64, kTwoOverPiWords[i], 0);
  LLVMTypeRef at = LLVMArrayType2(cg->i64, 40);
  g = LLVMAddGlobal(cg->mod, at, name);
  LLVMSetInitializer(g, LLVMConstArray2(cg->i64, vals, 40));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddr(g, 1);
  return g;
}

static LLVMValueRef ilsr(Em *e, LLVMValueRef a, int n) { return LLVMBuildLShr(e->b, a, KI(e, n), ""); }
static LLVMValueRef iand(Em *e, LLVMValueRef a, int64_t m) { return LLVMBuildAnd(e->b, a, KI(e, m), ""); }
static LLVMValueRef iadd(Em *e, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAdd(e->b, a, b, ""); }

/* The reduced argument as a double-double *rl + return value (|r| <= pi/4)
 * and quadrant q (i64 0..3) for finite ax >= pi/4. */
static LLVMValueRef trig_reduce_f64(Em *e, LLVMValueRef ax, LLVMValueRef *rl, LLVMValueRef *q) {
  LLVMBuilderRef B = e->b;
  Codegen *cg = e->cg;
  const int64_t m32 = 0xffffffffLL;
  LLVMValueRef b = bits(e, ax);
  LLVMValueRef E = LLVMBuildSub(B, ilsr(e, b, 52), KI(e, 1023), "");
  LLVMValueRef M = LLVMBuildOr(B, iand(e, b, 0x000FFFFFFFFFFFFFLL), KI(e, 0x0010000000000000LL), "");
  LLVMValueRef Ml = iand(e, M, m32), Mh = ilsr(e, M, 32);
  /* window start p0 = E + 11 in the table, clamped for lanes not reduced */
  LLVMValueRef p0 = iadd(e, E, KI(e, 11));
  p0 = sel(e, LLVMBuildICmp(B, LLVMIntSLT, p0, KI(e, 0), ""), KI(e, 0), p0);
  p0 = sel(e, LLVMBuildICmp(B, LLVMIntSGT, p0, KI(e, 1034), ""), KI(e, 1034), p0);
  LLVMValueRef n0 = ilsr(e, p0, 5), sh = LLVMBuildSub(B, KI(e, 32), iand(e, p0, 31), "");
  LLVMValueRef tab = two_over_pi_table(e);
  LLVMTypeRef at = LLVMArrayType2(cg->i64, 40);
  LLVMValueRef T[7], w[6];
  for (int k = 0; k < 7; k++) {
    LLVMValueRef idx[2] = {KI(e, 0), iadd(e, n0, KI(e, k))};
    LLVMValueRef ptr = LLVMBuildInBoundsGEP2(B, at, tab, idx, 2, "");
    T[k] = LLVMBuildLoad2(B, cg->i64, ptr, "");
    LLVMSetAlignment(T[k], 8);
  }
  for (int k = 0; k < 6; k++) {
    LLVMValueRef two = LLVMBuildOr(B, LLVMBuildShl(B, T[k], KI(e, 32), ""), T[k + 1], "");
    w[k] = iand(e, LLVMBuildLShr(B, two, sh, ""), m32);
  }
  /* columns of M W (weights 2^(32 j)), j = 0..5 */
  LLVMValueRef col[7];
  for (int j = 0; j < 7; j++) col[j] = KI(e, 0);
  for (int k = 0; k < 6; k++) {
    LLVMValueRef pl = LLVMBuildMul(B, Ml, w[k], ""), ph = LLVMBuildMul(B, Mh, w[k], "");
    int c = 5 - k; /* Ml w_k at column c, Mh w_k at column c + 1 */
    col[c] = iadd(e, col[c], iand(e, pl, m32));
    col[c + 1] = iadd(e, col[c + 1], ilsr(e, pl, 32));
    col[c + 1] = iadd(e, col[c + 1], iand(e, ph, m32));
    if (c + 2 <= 6) col[c + 2] = iadd(e, col[c + 2], ilsr(e, ph, 32));
  }
  for (int j = 0; j < 5; j++) {
    col[j + 1] = iadd(e, col[j + 1], ilsr(e, col[j], 32));
    col[j] = iand(e, col[j], m32);
  }
  col[5] = iand(e, col[5], m32);
  LLVMValueRef qi = ilsr(e, col[5], 30);
  /* fraction F = bits 64..189: A = bits 126..189 of it (62 bits), Bw = the
   * 64 below; at or above one half, take 1 - F (two's complement) and the
   * next quadrant */
  LLVMValueRef A = LLVMBuildOr(B, LLVMBuildShl(B, iand(e, col[5], 0x3fffffff), KI(e, 32), ""), col[4], "");
  LLVMValueRef Bw = LLVMBuildOr(B, LLVMBuildShl(B, col[3], KI(e, 32), ""), col[2], "");
  LLVMValueRef up = LLVMBuildICmp(B, LLVMIntNE, iand(e, A, 0x2000000000000000LL), KI(e, 0), "");
  LLVMValueRef nB = LLVMBuildNeg(B, Bw, "");
  LLVMValueRef borrow = LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, Bw, KI(e, 0), ""), cg->i64, "");
  LLVMValueRef nA = LLVMBuildSub(B, LLVMBuildSub(B, KI(e, 0x4000000000000000LL), A, ""), borrow, "");
  A = sel(e, up, nA, A);
  Bw = sel(e, up, nB, Bw);
  *q = iand(e, iadd(e, qi, LLVMBuildZExt(B, up, cg->i64, "")), 3);
  /* F = (A + Bw 2^-64) 2^-62 as a double-double, sign negative when up */
  LLVMValueRef Ah = LLVMBuildUIToFP(B, A, cg->f64, "");
  LLVMValueRef Ar = LLVMBuildSub(B, A, LLVMBuildFPToUI(B, Ah, cg->i64, ""), ""); /* |.| < 2^9 */
  LLVMValueRef Al = vadd(e, LLVMBuildSIToFP(B, Ar, cg->f64, ""),
                         vmul(e, LLVMBuildUIToFP(B, Bw, cg->f64, ""), K(e, 0x1p-64)));
  LLVMValueRef fh = vadd(e, Ah, Al);
  LLVMValueRef fl = vsub(e, Al, vsub(e, fh, Ah));
  LLVMValueRef sgn = sel(e, up, K(e, -0x1p-62), K(e, 0x1p-62));
  fh = vmul(e, fh, sgn);
  fl = vmul(e, fl, sgn);
  /* r = F pi/2 */
  LLVMValueRef rh = vmul(e, fh, K(e, PIO2_HI));
  LLVMValueRef rt = vadd(e, vfma(e, fh, K(e, PIO2_HI), fneg(e, rh)),
                         vfma(e, fh, K(e, PIO2_LO), vmul(e, fl, K(e, PIO2_HI))));
  LLVMValueRef r = vadd(e, rh, rt);
  *rl = vsub(e, rt, vsub(e, r, rh));
  return r;
}

/* Double-precision kernels on |r| <= pi/4 (+ tail rl): Taylor to degree
 * 19 / 20 (truncation < 2^-64). */
/* a + b as a double-double (|a| >= |b|): returns the sum, *lo its error */
static LLVMValueRef fast_two_sum(Em *e, LLVMValueRef a, LLVMValueRef b, LLVMValueRef *lo) {
  LLVMValueRef s = vadd(e, a, b);
  *lo = vsub(e, b, vsub(e, s, a));
  return s;
}
static LLVMValueRef sin_k64(Em *e, LLVMValueRef r, LLVMValueRef rl, LLVMValueRef *lo) {
  double c[9];
  for (int i = 0; i < 9; i++) c[i] = (i % 2 ? 1 : -1) * inv_fact(2 * i + 3);
  LLVMValueRef z = vmul(e, r, r);
  /* r + (r^3 S(z) + rl (1 - z/2)) */
  LLVMValueRef t = vfma(e, vmul(e, r, z), horner(e, z, c, 9), vmul(e, rl, vfma(e, z, K(e, -0.5), K(e, 1))));
  return fast_two_sum(e, r, t, lo);
}
static LLVMValueRef cos_k64(Em *e, LLVMValueRef r, LLVMValueRef rl, LLVMValueRef *lo) {
  double c[9];
  for (int i = 0; i < 9; i++) c[i] = (i % 2 ? -1 : 1) * inv_fact(2 * i + 4);
  LLVMValueRef z = vmul(e, r, r);
  LLVMValueRef hz = vmul(e, K(e, 0.5), z);
  LLVMValueRef w = vsub(e, K(e, 1), hz);
  /* w + (((1 - w) - hz) + (z^2 C(z) - r rl)) */
  LLVMValueRef tail = vfma(e, vmul(e, z, z), horner(e, z, c, 9), fneg(e, vmul(e, r, rl)));
  return fast_two_sum(e, w, vadd(e, vsub(e, vsub(e, K(e, 1), w), hz), tail), lo);
}

static LLVMValueRef v_trig_f64(Em *e, int which, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef bad = fcmp(e, LLVMRealUGE, ax, K(e, INFINITY)); /* inf, NaN */
  LLVMValueRef small = fcmp(e, LLVMRealOLT, ax, K(e, 0x1.921fb54442d18p-1));
  LLVMValueRef rl, q, r = trig_reduce_f64(e, sel(e, LLVMBuildOr(B, bad, small, ""), K(e, 1), ax), &rl, &q);
  r = sel(e, small, ax, r);
  rl = sel(e, small, K(e, 0), rl);
  q = sel(e, small, KI(e, 0), q);
  LLVMValueRef sl, cl, sp = sin_k64(e, r, rl, &sl), cp = cos_k64(e, r, rl, &cl);
  LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, iand(e, q, 1), KI(e, 0), "");
  LLVMValueRef res;
  if (which == TRIG_TAN) {
    /* (nh + nl) / (dh + dl) with the quotient's rounding corrected */
    LLVMValueRef nh = sel(e, odd, cp, sp), nl = sel(e, odd, cl, sl);
    LLVMValueRef dh = sel(e, odd, fneg(e, sp), cp), dl = sel(e, odd, fneg(e, sl), cl);
    LLVMValueRef t = vdiv(e, nh, dh);
    LLVMValueRef res_ = vsub(e, vadd(e, vfma(e, fneg(e, t), dh, nh), nl), vmul(e, t, dl));
    res = vadd(e, t, vdiv(e, res_, dh));
  } else {
    if (which == TRIG_COS) q = iadd(e, q, KI(e, 1));
    odd = LLVMBuildICmp(B, LLVMIntNE, iand(e, q, 1), KI(e, 0), "");
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntNE, iand(e, q, 2), KI(e, 0), "");
    res = sel(e, odd, cp, sp);
    res = sel(e, neg, fneg(e, res), res);
  }
  if (which != TRIG_COS) res = vmul(e, res, csign(e, K(e, 1), x));
  return sel(e, bad, vsub(e, x, x), res);
}

/* ---- functions of f32 values built on the above ---- */

static LLVMValueRef v_sinh_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  ax = sel(e, fcmp(e, LLVMRealOGT, ax, K(e, 200)), K(e, 200), ax); /* beyond f32's range */
  LLVMValueRef t = v_expm1(e, ax, true);
  LLVMValueRef r = vmul(e, K(e, 0.5), vadd(e, t, vdiv(e, t, vadd(e, t, K(e, 1)))));
  return csign(e, r, x);
}

static LLVMValueRef v_cosh_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  ax = sel(e, fcmp(e, LLVMRealOGT, ax, K(e, 200)), K(e, 200), ax);
  LLVMValueRef t = v_exp(e, ax, true);
  return vadd(e, vmul(e, K(e, 0.5), t), vdiv(e, K(e, 0.5), t));
}

static LLVMValueRef v_atanh_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef y = vdiv(e, vmul(e, K(e, 2), ax), vsub(e, K(e, 1), ax));
  LLVMValueRef r = vmul(e, K(e, 0.5), v_log1p(e, y, true));
  r = sel(e, fcmp(e, LLVMRealOGT, ax, K(e, 1)), K(e, CG_INVALID_NAN), r);
  return csign(e, r, x);
}

static LLVMValueRef v_asinh_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef ia = vdiv(e, K(e, 1), ax);
  /* asinh(a) = log1p(a + a^2 / (1 + sqrt(1 + a^2))) */
  LLVMValueRef d = vadd(e, ia, fun1(e, "llvm.sqrt", vfma(e, ia, ia, K(e, 1))));
  LLVMValueRef r = v_log1p(e, vadd(e, ax, vdiv(e, ax, d)), true);
  return csign(e, r, x);
}

static LLVMValueRef v_acosh_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef t = vsub(e, x, K(e, 1));
  LLVMValueRef r = v_log1p(e, vadd(e, t, fun1(e, "llvm.sqrt", vfma(e, t, t, vmul(e, K(e, 2), t)))), true);
  return sel(e, fcmp(e, LLVMRealOLT, x, K(e, 1)), K(e, CG_INVALID_NAN), r);
}

/* cbrt: an estimate from the exponent bits, then three Halley steps; for
 * f64 a last Newton step on the exact residual. */
static LLVMValueRef v_cbrt(Em *e, LLVMValueRef x, bool from_f32) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef special = LLVMBuildOr(B, fcmp(e, LLVMRealOLT, ax, K(e, from_f32 ? 0x1p-126 : 0x1p-1022)),
                                     fcmp(e, LLVMRealUGE, ax, K(e, INFINITY)), "");
  LLVMValueRef a = sel(e, special, K(e, 1), ax);
  /* f64 below 2^-900 or above 2^900: scaled by 2^300 or 2^-300 (the result
   * by 2^-100 or 2^100) so that y^3 and 2 y^3 + a neither underflow nor
   * overflow */
  LLVMValueRef tiny = fcmp(e, LLVMRealOLT, a, K(e, 0x1p-900));
  LLVMValueRef huge = fcmp(e, LLVMRealOGT, a, K(e, 0x1p900));
  if (!from_f32) {
    a = sel(e, tiny, vmul(e, a, K(e, 0x1p300)), a);
    a = sel(e, huge, vmul(e, a, K(e, 0x1p-300)), a);
  }
  LLVMValueRef y = unbits(e, LLVMBuildAdd(B, LLVMBuildUDiv(B, bits(e, a), KI(e, 3), ""),
                                          KI(e, 0x2A9F7893782DA1CELL), ""));
  for (int i = 0; i < 3; i++) {
    LLVMValueRef y3 = vmul(e, vmul(e, y, y), y);
    y = vmul(e, y, vdiv(e, vfma(e, K(e, 2), a, y3), vfma(e, K(e, 2), y3, a)));
  }
  if (!from_f32) {
    /* one Newton step on the accurately computed residual a - y^3 */
    LLVMValueRef y2 = vmul(e, y, y), e2 = vfma(e, y, y, fneg(e, y2));
    LLVMValueRef res = vsub(e, vfma(e, fneg(e, y2), y, a), vmul(e, e2, y));
    y = vadd(e, y, vdiv(e, res, vmul(e, K(e, 3), y2)));
    y = sel(e, tiny, vmul(e, y, K(e, 0x1p-100)), y);
    y = sel(e, huge, vmul(e, y, K(e, 0x1p100)), y);
  }
  return sel(e, special, x, csign(e, y, x));
}

/* atan(a) for a >= 0 (or NaN): a > 1 through pi/2 - atan(1/a), then
 * a > tan(pi/12) through pi/6 + atan((a sqrt3 - 1) / (a + sqrt3)); Taylor to
 * degree 17 on |t| <= 0.268 (truncation < 2^-34; f32 results). */
static LLVMValueRef atan_pos(Em *e, LLVMValueRef a) {
  LLVMValueRef inv = fcmp(e, LLVMRealOGT, a, K(e, 1));
  LLVMValueRef t = sel(e, inv, vdiv(e, K(e, 1), a), a);
  LLVMValueRef red = fcmp(e, LLVMRealOGT, t, K(e, 0x1.126145e9ecd56p-2)); /* tan(pi/12) */
  LLVMValueRef tr = vdiv(e, vfma(e, t, K(e, SQRT3), K(e, -1)), vadd(e, t, K(e, SQRT3)));
  t = sel(e, red, tr, t);
  double c[8];
  for (int i = 0; i < 8; i++) c[i] = (i % 2 ? 1.0 : -1.0) / (2 * i + 3);
  LLVMValueRef z = vmul(e, t, t);
  LLVMValueRef r = vfma(e, vmul(e, t, z), horner(e, z, c, 8), t);
  r = sel(e, red, vadd(e, r, K(e, PIO6)), r);
  return sel(e, inv, vsub(e, K(e, PIO2_HI), r), r);
}

/* f64 atan(a) for a >= 0 (or NaN) and a first-order correction al (a's
 * tail): atan(c) + atan(t) with c in {0, 1/2, 1, 3/2, inf} by the interval
 * of a (breakpoints 7/16, 11/16, 19/16, 39/16), t = (a - c) / (1 + c a) (or
 * -1/a) formed with exact numerators, |t| <= 7/16; atan(t) by its Taylor
 * series to t^45 (truncation < 2^-56). */
static LLVMValueRef atan_pos64(Em *e, LLVMValueRef a, LLVMValueRef al, LLVMValueRef *lo_out) {
  static const double hi[5] = {0, 0x1.dac670561bb4fp-2, 0x1.921fb54442d18p-1, 0x1.f730bd281f69bp-1,
                               0x1.921fb54442d18p+0};
  static const double lo[5] = {0, 0x1.a2b7f222f65e2p-56, 0x1.1a62633145c07p-55, 0x1.007887af0cbbdp-56,
                               0x1.1a62633145c07p-54};
  LLVMValueRef i1 = fcmp(e, LLVMRealOGE, a, K(e, 7.0 / 16)), i2 = fcmp(e, LLVMRealOGE, a, K(e, 11.0 / 16));
  LLVMValueRef i3 = fcmp(e, LLVMRealOGE, a, K(e, 19.0 / 16)), i4 = fcmp(e, LLVMRealOGE, a, K(e, 39.0 / 16));
  LLVMValueRef num = a, den = K(e, 1);
  num = sel(e, i1, vsub(e, vmul(e, K(e, 2), a), K(e, 1)), num);
  den = sel(e, i1, vadd(e, K(e, 2), a), den);
  num = sel(e, i2, vsub(e, a, K(e, 1)), num);
  den = sel(e, i2, vadd(e, a, K(e, 1)), den);
  num = sel(e, i3, vsub(e, a, K(e, 1.5)), num);
  den = sel(e, i3, vfma(e, K(e, 1.5), a, K(e, 1)), den);
  num = sel(e, i4, K(e, -1), num);
  den = sel(e, i4, a, den);
  LLVMValueRef h = K(e, hi[0]), l = K(e, lo[0]);
  LLVMValueRef ii[5] = {NULL, i1, i2, i3, i4};
  for (int i = 1; i < 5; i++) {
    h = sel(e, ii[i], K(e, hi[i]), h);
    l = sel(e, ii[i], K(e, lo[i]), l);
  }
  LLVMValueRef t = vdiv(e, num, den);
  double c[22];
  for (int i = 0; i < 22; i++) c[i] = (i % 2 ? 1.0 : -1.0) / (2 * i + 3);
  LLVMValueRef z = vmul(e, t, t);
  /* the tail's effect: al / (1 + a^2) */
  LLVMValueRef corr = vdiv(e, al, vfma(e, a, a, K(e, 1)));
  LLVMValueRef tail = vfma(e, vmul(e, t, z), horner(e, z, c, 22), vadd(e, l, corr));
  LLVMValueRef m = vadd(e, t, tail), r = vadd(e, h, m);
  if (lo_out) *lo_out = vsub(e, m, vsub(e, r, h)); /* r + lo: h + m (|h| >= |m| or h = 0) */
  return r;
}

static LLVMValueRef v_atan_f64(Em *e, LLVMValueRef x) { return csign(e, atan_pos64(e, fabs_(e, x), K(e, 0), NULL), x); }

static LLVMValueRef v_atan_f32(Em *e, LLVMValueRef x) { return csign(e, atan_pos(e, fabs_(e, x)), x); }

static LLVMValueRef sign_bit(Em *e, LLVMValueRef x) {
  return LLVMBuildICmp(e->b, LLVMIntSLT, bits(e, x), KI(e, 0), "");
}

/* r, or the first of n, m that is NaN: the C library returns n + m there
 * (XLA:CPU calls it for pow and atan2), which keeps that operand's sign and
 * payload */
static LLVMValueRef nan_first(Em *e, LLVMValueRef n, LLVMValueRef m, LLVMValueRef r) {
  return sel(e, isnan_(e, n), n, sel(e, isnan_(e, m), m, r));
}

/* atan2(y, x) from atan(|y|/|x|): both zero gives ratio 0, both infinite 1;
 * a NaN operand comes through (x's first). */
static LLVMValueRef v_atan2_f32(Em *e, LLVMValueRef y, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ay = fabs_(e, y), ax = fabs_(e, x);
  LLVMValueRef ratio = vdiv(e, ay, ax);
  LLVMValueRef zz = LLVMBuildAnd(B, fcmp(e, LLVMRealOEQ, ay, K(e, 0)), fcmp(e, LLVMRealOEQ, ax, K(e, 0)), "");
  LLVMValueRef ii = LLVMBuildAnd(B, fcmp(e, LLVMRealOEQ, ay, K(e, INFINITY)), fcmp(e, LLVMRealOEQ, ax, K(e, INFINITY)), "");
  ratio = sel(e, zz, K(e, 0), sel(e, ii, K(e, 1), ratio));
  LLVMValueRef a = atan_pos(e, ratio);
  a = sel(e, sign_bit(e, x), vsub(e, K(e, PI_HI), a), a);
  return nan_first(e, x, y, csign(e, a, y));
}

/* f64: the quotient |y|/|x| as a double-double, pi - a with pi's tail. */
static LLVMValueRef v_atan2_f64(Em *e, LLVMValueRef y, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ay = fabs_(e, y), ax = fabs_(e, x);
  LLVMValueRef q = vdiv(e, ay, ax);
  LLVMValueRef ql = vdiv(e, vfma(e, fneg(e, q), ax, ay), ax);
  LLVMValueRef fin = fcmp(e, LLVMRealOLT, fabs_(e, ql), K(e, INFINITY)); /* not NaN or inf */
  ql = sel(e, LLVMBuildAnd(B, fin, fcmp(e, LLVMRealOLT, q, K(e, 0x1p500)), ""), ql, K(e, 0));
  LLVMValueRef zz = LLVMBuildAnd(B, fcmp(e, LLVMRealOEQ, ay, K(e, 0)), fcmp(e, LLVMRealOEQ, ax, K(e, 0)), "");
  LLVMValueRef ii = LLVMBuildAnd(B, fcmp(e, LLVMRealOEQ, ay, K(e, INFINITY)), fcmp(e, LLVMRealOEQ, ax, K(e, INFINITY)), "");
  q = sel(e, zz, K(e, 0), sel(e, ii, K(e, 1), q));
  ql = sel(e, LLVMBuildOr(B, zz, ii, ""), K(e, 0), ql);
  LLVMValueRef al, a = atan_pos64(e, q, ql, &al);
  LLVMValueRef pa = vadd(e, vsub(e, K(e, PI_HI), a), vsub(e, K(e, 0x1.1a62633145c07p-53), al));
  a = sel(e, sign_bit(e, x), pa, a);
  return nan_first(e, x, y, csign(e, a, y));
}

static LLVMValueRef v_asin_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef c = fun1(e, "llvm.sqrt", vmul(e, vsub(e, K(e, 1), ax), vadd(e, K(e, 1), ax)));
  return csign(e, atan_pos(e, vdiv(e, ax, c)), x);
}

static LLVMValueRef v_acos_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef c = fun1(e, "llvm.sqrt", vmul(e, vsub(e, K(e, 1), ax), vadd(e, K(e, 1), ax)));
  LLVMValueRef a = atan_pos(e, vdiv(e, c, ax));
  return sel(e, sign_bit(e, x), vsub(e, K(e, PI_HI), a), a);
}

/* An f32 subnormal as a signed zero (DAZ), also where LLVM folds the widening
 * conversion that the DAZ mode would have flushed it in. */
static LLVMValueRef daz32(Em *e, LLVMValueRef x) {
  return sel(e, fcmp(e, LLVMRealOLT, fabs_(e, x), K(e, 0x1p-126)), csign(e, K(e, 0), x), x);
}

/* pow(x, y) = exp(y log|x|) with the sign of x^y for negative x and odd
 * integer y; NaN for negative finite x and non-integer y; pow(-1, +-inf) is
 * 1; a NaN operand comes through (x's first), as x * x for a NaN x: negated
 * when x is negative and y an odd integer. (x == 1 or y == 0 giving 1 is
 * the caller's.) */
static LLVMValueRef v_pow_f32(Em *e, LLVMValueRef x, LLVMValueRef y) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ax = fabs_(e, x);
  LLVMValueRef l = v_log(e, ax, false);
  LLVMValueRef r = nan_first(e, x, y, v_exp(e, vmul(e, y, l), true));
  LLVMValueRef yint = fcmp(e, LLVMRealOEQ, fun1(e, "llvm.floor", y), y); /* false for NaN, true for inf */
  LLVMValueRef half = vmul(e, y, K(e, 0.5));
  LLVMValueRef yodd = LLVMBuildAnd(B, yint, fcmp(e, LLVMRealONE, fun1(e, "llvm.floor", half), half), "");
  LLVMValueRef neg = sign_bit(e, x);
  r = sel(e, LLVMBuildAnd(B, neg, yodd, ""), fneg(e, r), r);
  LLVMValueRef negfin = LLVMBuildAnd(B, fcmp(e, LLVMRealOLT, x, K(e, 0)), fcmp(e, LLVMRealOGT, x, K(e, -INFINITY)), "");
  LLVMValueRef ynum = fcmp(e, LLVMRealORD, y, y); /* a NaN y stays the result */
  r = sel(e, LLVMBuildAnd(B, LLVMBuildAnd(B, negfin, ynum, ""), LLVMBuildNot(B, yint, ""), ""), K(e, CG_INVALID_NAN), r);
  LLVMValueRef one_inf = LLVMBuildAnd(B, fcmp(e, LLVMRealOEQ, ax, K(e, 1)), fcmp(e, LLVMRealOEQ, fabs_(e, y), K(e, INFINITY)), "");
  return sel(e, one_inf, K(e, 1), r);
}

/* ---- exp, tanh, logistic, sin, cos of f32 values in f32 arithmetic ----
 * Sixteen lanes per AVX-512 instruction instead of eight: the f32 functions
 * most programs spend their time in (softmax's exp, GELU's tanh) are
 * computed in float with fma, each within one ulp of the correctly rounded
 * result (tanh: 1.5) (measured: tests/unit/test_vmath.c). Results below
 * the smallest normal are flushed to zero (FTZ), arguments below it read
 * as zero. */
static LLVMValueRef F(Em *e, double v) { return LLVMConstReal(e->cg->f32, v); }
static LLVMValueRef KI32(Em *e, int64_t v) { return LLVMConstInt(e->cg->i32, (unsigned long long)v, 1); }
static LLVMValueRef f32fma(Em *e, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
  return em_intrinsic(e, "llvm.fma", e->cg->f32, 3, (LLVMValueRef[]){a, b, c});
}
static LLVMValueRef ffun1(Em *e, const char *intr, LLVMValueRef a) { return em_intrinsic(e, intr, e->cg->f32, 1, &a); }
static LLVMValueRef fcsign(Em *e, LLVMValueRef mag, LLVMValueRef sgn) {
  return em_intrinsic(e, "llvm.copysign", e->cg->f32, 2, (LLVMValueRef[]){mag, sgn});
}
static LLVMValueRef fhorner(Em *e, LLVMValueRef x, const double *c, int n) {
  LLVMValueRef r = F(e, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) r = f32fma(e, r, x, F(e, c[i]));
  return r;
}

/* ln 2 = EXPF_C1 + EXPF_C2: EXPF_C1 has 15 significant bits, so k EXPF_C1
 * (|k| <= 128) is exact and x - k EXPF_C1 too (x and k ln 2 are close). */
#define EXPF_C1 0x1.62e4p-1

/* exp(x) = 2^k p for a finite f32 x with |x| <= 89: p = 1 + q, q = expm1(r)
 * for r = x - k ln2 (|r| <= ln2/2) carried as r + rl (the reduction's
 * rounding error rl kept: 1/4 ulp otherwise), Taylor to r^7 (truncation
 * below 2^-27). *k is k as i32; the result is p, in [1/sqrt2, sqrt2]. */
static LLVMValueRef expf_core(Em *e, LLVMValueRef x, LLVMValueRef *k, LLVMValueRef *lo) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef kf = ffun1(e, "llvm.rint", LLVMBuildFMul(B, x, F(e, LOG2E), ""));
  LLVMValueRef nk = LLVMBuildFNeg(B, kf, "");
  LLVMValueRef c2 = F(e, (double)(float)(LN2_HI - EXPF_C1));
  LLVMValueRef r1 = f32fma(e, nk, F(e, EXPF_C1), x); /* exact */
  LLVMValueRef r = f32fma(e, nk, c2, r1);
  LLVMValueRef rl = f32fma(e, nk, c2, LLVMBuildFSub(B, r1, r, "")); /* r1 - k c2 - r */
  double c[6];
  for (int i = 0; i < 6; i++) c[i] = inv_fact(i + 2);
  LLVMValueRef q = f32fma(e, LLVMBuildFMul(B, r, r, ""), fhorner(e, r, c, 6), rl);
  *k = LLVMBuildFPToSI(B, kf, e->cg->i32, "");
  LLVMValueRef sum = LLVMBuildFAdd(B, r, q, "");
  LLVMValueRef p = LLVMBuildFAdd(B, F(e, 1), sum, "");
  if (lo) *lo = LLVMBuildFSub(B, sum, LLVMBuildFSub(B, p, F(e, 1), ""), ""); /* 1 + sum = p + lo */
  return p;
}

/* The largest f32 whose exp is finite, and the least whose exp is normal. */
#define EXPF_MAX_ARG 0x1.62e42ep+6
#define EXPF_MIN_ARG -0x1.5d589ep+6

/* exp of an f32 value in f32 arithmetic, 20 vector operations and
 * no selects: x clamped to [-88, 88.8] (NaN kept: both compares are false
 * for it); k = rint(x log2e) by the 1.5 2^23 rounding trick (km, whose
 * low mantissa bits are k's), then capped at 127 so that 2^k is a normal
 * f32 made from k's bits (k = -127 makes the bits of +0); r = x - k ln2
 * as r + rl (Cody-Waite, rl the reduction's rounding error) lies in
 * [-ln2/2, ln2/2], or up to ln2 (0.77 at the clamp) where k was capped;
 * p = 1 + expm1(r), a polynomial to r^7 fitted on [-ln2/2, ln2] (2^-27.9
 * of p); max error 0.878 ulp over every f32 in [-88, 89] (an emulation
 * against double exp; Taylor to r^9: 0.85 over every 7th); the result is p 2^k,
 * one multiplication, which
 *   - overflows to inf exactly where p 2^127 reaches 2^128 (x beyond
 *     EXPF_MAX_ARG, and x = inf by the clamp);
 *   - is below the smallest normal where exp(x) is (k = -126 and p < 1):
 *     flushed to zero by the FTZ mode compiled code runs in (elsewhere a
 *     subnormal within the same ulp), and 0 for x <= -88 (2^k = +0);
 *   - is NaN for a NaN x (p is).
 * A subnormal x: exp is 1 whether or not it reads as zero (DAZ). */
static LLVMValueRef v_exp_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef xc = sel(e, fcmp(e, LLVMRealOLT, x, F(e, -88)), F(e, -88), x);
  /* an argument at most 0 (Em.exp_le0: softmax's x - max) needs neither
   * upper clamp: k <= 0. 18 operations instead of 20 (Zen 2, softmax_4096:
   * one thread 13.3 -> 12.7 ms, two 6.7 -> 6.4) */
  if (!e->exp_le0) xc = sel(e, fcmp(e, LLVMRealOGT, xc, F(e, 88.8)), F(e, 88.8), xc);
  /* km = 1.5 2^23 + 127 + k: its low bits are k + 127, 2^k's exponent field */
  const double magic = 0x1.8p23 + 127;
  LLVMValueRef km = f32fma(e, xc, F(e, LOG2E), F(e, magic));
  if (!e->exp_le0) km = sel(e, fcmp(e, LLVMRealOGT, km, F(e, magic + 127)), F(e, magic + 127), km);
  LLVMValueRef nk = LLVMBuildFSub(B, F(e, magic), km, ""); /* -k, exact */
  LLVMValueRef c2 = F(e, (double)(float)(LN2_HI - EXPF_C1));
  LLVMValueRef r1 = f32fma(e, nk, F(e, EXPF_C1), xc); /* exact */
  LLVMValueRef r = f32fma(e, nk, c2, r1);
  LLVMValueRef rl = f32fma(e, nk, c2, LLVMBuildFSub(B, r1, r, "")); /* r1 - k c2 - r */
  /* (exp(r) - 1 - r) / r^2 on [-0.3466, 0.6935]: 1/2 and 1/6 (f32), the
   * rest a fit in f32 of exp's relative error (2^-27.9) */
  static const double c[6] = {0x1p-1, 0x1.555556p-3, 0x1.555692p-5, 0x1.10f2b4p-7, 0x1.6b1c1ap-10, 0x1.de42fcp-13};
  LLVMValueRef q = f32fma(e, LLVMBuildFMul(B, r, r, ""), fhorner(e, r, c, 6), rl);
  LLVMValueRef p = LLVMBuildFAdd(B, F(e, 1), LLVMBuildFAdd(B, r, q, ""), "");
  LLVMValueRef sc = LLVMBuildBitCast(B, LLVMBuildShl(B, LLVMBuildBitCast(B, km, e->cg->i32, ""), KI32(e, 23), ""),
                                     e->cg->f32, ""); /* 2^k: (k + 127) << 23 */
  return LLVMBuildFMul(B, p, sc, "");
}

/* k = rint(x s) for 0 <= x s < 2^22 by the 1.5 2^23 rounding trick: the
 * result km = x s + 1.5 2^23 + bias rounded (one fma) holds k + bias in
 * its low mantissa bits (read them as an i32: its low bits are k +
 * bias's; bias 127 makes km << 23 the bits of 2^k), and *nk = -k as a
 * float. No float-to-int conversion, which a NaN would meet. */
static LLVMValueRef round_magic(Em *e, LLVMValueRef x, double s, int bias, LLVMValueRef *nk) {
  LLVMValueRef km = f32fma(e, x, F(e, s), F(e, 0x1.8p23 + bias));
  *nk = LLVMBuildFSub(e->b, F(e, 0x1.8p23 + bias), km, "");
  return km;
}

/* tanh of an f32 value in f32 arithmetic, two formulas computed for every
 * lane that share one division (no branch; 13 multiplies and fma, 27
 * operations and a division a vector, where the version before, a
 * polynomial below 0.75 and 1 - 2 / (1 + exp(2a)) with a reciprocal
 * estimate beyond, took 22 and 40; GELU's tanh form f32[16M], Zen 4, two
 * threads: 4.5 -> 3.7 ms), a = |x| clamped at 10 (tanh rounds to 1 in f32 beyond
 * 9.02; NaN stays NaN):
 *   a < 1: tanh(a) = a + a^3 R(a^2), R = P / Q, P of degree 1 and Q of
 *     degree 2 fitted to (tanh(a) - a) / a^3 (2^-24.8 relative with f32
 *     coefficients); the term a^3 R is at most a third of the result, so
 *     R's roundings reach it damped;
 *   from 1: tanh(a) = 1 - 2 / d, d = 1 + exp(2a): 2a = k ln2 + 2r, |r| <=
 *     ln2/4, r = a - k (ln2/2 rounded to f32) in one fma (k <= 29: r is off
 *     by at most 29 2^-26 ln2, whose effect on the result is below 0.02
 *     ulp), k from the 1.5 2^23 rounding trick (no float-to-int
 *     conversion meets a NaN), exp(2r) - 1 = s = r (2 + r E(r)), E of
 *     degree 3 (s to 2^-21 relative, exp(2r) = 1 + s to 2^-22.5: a relative
 *     error e in exp(2a) moves the result by e 2 exp(2a) / (1 + exp(2a))^2,
 *     under 0.21 e from a = 1), d = (2^k + 1) + 2^k s rounded once (fma).
 * One division for both: P / Q or 2 / d, each lane's pair selected; the
 * result is then one fma, a + a^3 q or 1 - q. Max error 1.22 ulp over
 * every f32 in [2^-14, 10] (an emulation against tanhl, fma and a
 * correctly rounded division; tests/unit/test_vmath.c checks the
 * compiled code against a bound of 1.5), where XLA:CPU's f32 tanh (a
 * clamped rational approximation, Eigen's ptanh_float) is at 4.9 ulp.
 * Coefficients: least squares on Chebyshev nodes, rounded to f32 one at
 * a time with the rest refitted. The sign is copied from x last (-0
 * stays -0, NaN propagates; a subnormal x reads as zero under DAZ, and a
 * tiny a^3 flushes to zero, leaving a). */
static const double kTanhP[2] = {-0x1.555556p-2, -0x1.e208b4p-7};
static const double kTanhQ[3] = {1, 0x1.c6ca66p-2, 0x1.0204bcp-6};
static const double kTanhE[4] = {0x1.fffe5p+0, 0x1.555442p+0, 0x1.571246p-1, 0x1.126b32p-2};

static LLVMValueRef v_tanh_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32, f32 = e->cg->f32;
  LLVMValueRef one = F(e, 1);
  LLVMValueRef ax = ffun1(e, "llvm.fabs", x);
  LLVMValueRef a = sel(e, fcmp(e, LLVMRealOGT, ax, F(e, 10)), F(e, 10), ax); /* NaN stays NaN */
  LLVMValueRef small = fcmp(e, LLVMRealOLT, a, one);
  LLVMValueRef z = LLVMBuildFMul(B, a, a, "");
  LLVMValueRef a3 = LLVMBuildFMul(B, a, z, "");
  LLVMValueRef p = fhorner(e, z, kTanhP, 2), q = fhorner(e, z, kTanhQ, 3);
  LLVMValueRef nk, km = round_magic(e, a, 2 * LOG2E, 127, &nk); /* 1.5 2^23 + 127 + k */
  LLVMValueRef r = f32fma(e, nk, F(e, LN2_HI / 2), a); /* one step: see above */
  LLVMValueRef s = LLVMBuildFMul(B, r, f32fma(e, r, fhorner(e, r, kTanhE, 4), F(e, 2)), "");
  LLVMValueRef sc = LLVMBuildBitCast(B, LLVMBuildShl(B, LLVMBuildBitCast(B, km, i32, ""), KI32(e, 23), ""), f32,
                                     ""); /* 2^k: (k + 127) << 23 */
  LLVMValueRef d = f32fma(e, sc, s, LLVMBuildFAdd(B, sc, one, ""));
  LLVMValueRef quo = LLVMBuildFDiv(B, sel(e, small, p, F(e, 2)), sel(e, small, q, d), "");
  LLVMValueRef res = f32fma(e, sel(e, small, a3, F(e, -1)), quo, sel(e, small, a, one));
  return fcsign(e, res, x);
}

/* erf of an f32 value in f32 arithmetic, two polynomials for every lane
 * and one selected (no exp: 18 multiplies and fma a vector, where the
 * version in double took two polynomials of degree 14 and 16 and an exp
 * at half the lanes; f32[64K] in cache, one thread: 160 -> 29 us), a =
 * |x| clamped at 3.92 (erf rounds to 1 in f32 from 3.9192; NaN stays NaN):
 *   a < 0.875: erf(a) = a + a P(a^2) (one fma: its product exact, so
 *     tiny a do not underflow), P of degree 6 fitted to erf(a)/a - 1
 *     (2^-29.9);
 *   from 0.875: erf(a) = K - t Q(t), one fma, t = a - m exact (Sterbenz),
 *     Q of degree 9, the centre m an f32 whose erf is within 2^-33 of the
 *     f32 K (so that erfc(m) = 1 - K is carried exactly and the result
 *     rounds once), on [0.875, 2.25) (m = 1.564) and [2.25, 3.92] (m =
 *     3.086), each lane's coefficients selected (one Horner chain for
 *     both: a blend and an fma a coefficient), erfc fitted to 2^-28.2 and
 *     2^-29.6.
 * Coefficients: least squares on Chebyshev nodes in double, rounded to
 * f32 one at a time with the rest refitted. Max error 0.837 ulp over
 * every 5th and 7th f32 in [2^-126, 5] (an emulation against erfl);
 * test_vmath's sweeps check the compiled code against the bound of 1 ulp.
 * The sign is copied from x (erf is odd; -0 stays -0; a subnormal x reads
 * as zero under DAZ). */
static const double kErfSmall[7] = {0x1.06eba8p-3,  -0x1.812744p-2, 0x1.ce2e76p-4, -0x1.b81966p-6,
                                    0x1.553cacp-8,  -0x1.aea858p-11, 0x1.6c9d36p-14};
static const struct {
  double m, k; /* the centre and erf(m) rounded to f32 */
  double q[10];
} kErfMid[2] = {
    {0x1.9077p+0, 0x1.f233eep-1,
     {-0x1.8ffff2p-4, 0x1.38dcf0p-3, -0x1.039d7ep-3, 0x1.8b16c0p-5, 0x1.020e0cp-7, -0x1.1603b4p-6, 0x1.6ebbe6p-8,
      0x1.7e345ap-10, -0x1.63b2d4p-10, 0x1.24b332p-13}},
    {0x1.8b01f8p+1, 0x1.fffe54p-1,
     {-0x1.5a02a2p-14, 0x1.0afb48p-12, -0x1.04701cp-11, 0x1.652374p-11, -0x1.68f384p-11, 0x1.151fc0p-11,
      -0x1.485f6ap-12, 0x1.03a9a2p-13, -0x1.14a4b6p-17, -0x1.99f2acp-17}},
};

/* Each lane's constant of the two: b where c holds, else a. */
static LLVMValueRef fpick(Em *e, LLVMValueRef c, double a, double b) { return sel(e, c, F(e, b), F(e, a)); }

static LLVMValueRef v_erf_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef a = ffun1(e, "llvm.fabs", x);
  a = sel(e, fcmp(e, LLVMRealOGT, a, F(e, 3.92)), F(e, 3.92), a); /* NaN stays NaN */
  LLVMValueRef small = f32fma(e, a, fhorner(e, LLVMBuildFMul(B, a, a, ""), kErfSmall, 7), a);
  LLVMValueRef hi = fcmp(e, LLVMRealOGE, a, F(e, 2.25));
  LLVMValueRef t = LLVMBuildFSub(B, a, fpick(e, hi, kErfMid[0].m, kErfMid[1].m), "");
  LLVMValueRef q = fpick(e, hi, kErfMid[0].q[9], kErfMid[1].q[9]);
  for (int i = 8; i >= 0; i--) q = f32fma(e, q, t, fpick(e, hi, kErfMid[0].q[i], kErfMid[1].q[i]));
  LLVMValueRef mid = f32fma(e, LLVMBuildFNeg(B, t, ""), q, fpick(e, hi, kErfMid[0].k, kErfMid[1].k));
  return fcsign(e, sel(e, fcmp(e, LLVMRealOLT, a, F(e, 0.875)), small, mid), x);
}

/* log of an f32 value in f32 arithmetic (sixteen lanes, where log_core
 * works in double): x = 2^k m, sqrt(1/2) <= m < sqrt(2), f = m - 1
 * (exact), s = f / (2 + f), log(1 + f) = f - hfsq + s (hfsq + R) with
 * hfsq = f^2 / 2 and R = 2z/3 + 2z^2/5 + 2z^3/7 + 2z^4/9, z = s^2 <=
 * 0.0295 (the terms left out: below 2^-30 of the result); k ln 2 added as
 * k EXPF_C1 (exact for |k| <= 150) and k times the rest. Within 1 ulp
 * (tests/unit/test_vmath.c). Special values as v_log's: +inf, -inf at
 * zero (and subnormals: the caller's DAZ), the invalid NaN for negative
 * arguments and NaN. f32[4096,4096]: 6.0 -> 2.2 ms. */
static LLVMValueRef logf_core(Em *e, LLVMValueRef u, LLVMValueRef c) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32, f32 = e->cg->f32;
  LLVMValueRef ub = LLVMBuildBitCast(B, u, i32, "");
  LLVMValueRef ex = LLVMBuildSub(B, LLVMBuildLShr(B, ub, KI32(e, 23), ""), KI32(e, 127), "");
  LLVMValueRef m = LLVMBuildBitCast(B, LLVMBuildOr(B, LLVMBuildAnd(B, ub, KI32(e, 0x7fffff), ""), KI32(e, 0x3f800000), ""),
                                    f32, "");
  LLVMValueRef big = fcmp(e, LLVMRealOGT, m, F(e, 0x1.6a09e6p+0)); /* m > sqrt(2) */
  m = sel(e, big, LLVMBuildFMul(B, m, F(e, 0.5), ""), m);
  ex = sel(e, big, LLVMBuildAdd(B, ex, KI32(e, 1), ""), ex);
  LLVMValueRef dk = LLVMBuildSIToFP(B, ex, f32, "");
  LLVMValueRef f = LLVMBuildFSub(B, m, F(e, 1), "");
  LLVMValueRef sv = LLVMBuildFDiv(B, f, LLVMBuildFAdd(B, F(e, 2), f, ""), "");
  LLVMValueRef z = LLVMBuildFMul(B, sv, sv, "");
  static const double rc[4] = {2.0 / 3, 2.0 / 5, 2.0 / 7, 2.0 / 9};
  LLVMValueRef R = LLVMBuildFMul(B, z, fhorner(e, z, rc, 4), "");
  LLVMValueRef hfsq = LLVMBuildFMul(B, F(e, 0.5), LLVMBuildFMul(B, f, f, ""), "");
  LLVMValueRef lo = f32fma(e, dk, F(e, (double)(float)(LN2_HI - EXPF_C1)), c);
  LLVMValueRef t = LLVMBuildFSub(B, LLVMBuildFSub(B, hfsq, f32fma(e, sv, LLVMBuildFAdd(B, hfsq, R, ""), lo), ""), f, "");
  return LLVMBuildFSub(B, LLVMBuildFMul(B, dk, F(e, EXPF_C1), ""), t, "");
}

static LLVMValueRef v_log_f32(Em *e, LLVMValueRef x) {
  LLVMValueRef pos = fcmp(e, LLVMRealOGT, x, F(e, 0)), fin = fcmp(e, LLVMRealOLT, x, F(e, INFINITY));
  LLVMValueRef u = sel(e, LLVMBuildAnd(e->b, pos, fin, ""), x, F(e, 1));
  LLVMValueRef r = logf_core(e, u, F(e, 0));
  r = sel(e, fcmp(e, LLVMRealOEQ, x, F(e, INFINITY)), x, r);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, F(e, 0)), F(e, -INFINITY), r);
  r = sel(e, fcmp(e, LLVMRealOLT, x, F(e, 0)), F(e, CG_INVALID_NAN), r); /* negative */
  /* a NaN argument is the result, its sign and payload kept (as the C
   * library's logf, the interpreter's, and XLA:CPU's log alone return
   * it; the invalid-operation NaN here turned +NaN into -NaN, which a
   * TOTALORDER compare sees) */
  return sel(e, isnan_(e, x), x, r);
}

/* log1p of an f32 value in f32 arithmetic: log(u) + c for u = 1 + x
 * rounded and c = (x - (u - 1)) / u, the rounding's share (logf_core
 * adds it with k ln 2's lower part). Special values as v_log1p's. */
static LLVMValueRef v_log1p_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef u = LLVMBuildFAdd(B, F(e, 1), x, "");
  LLVMValueRef c = LLVMBuildFDiv(B, LLVMBuildFSub(B, x, LLVMBuildFSub(B, u, F(e, 1), ""), ""), u, "");
  LLVMValueRef ok = LLVMBuildAnd(B, fcmp(e, LLVMRealOGT, u, F(e, 0)), fcmp(e, LLVMRealOLT, x, F(e, INFINITY)), "");
  LLVMValueRef r = logf_core(e, sel(e, ok, u, F(e, 1)), sel(e, ok, c, F(e, 0)));
  r = sel(e, fcmp(e, LLVMRealOEQ, x, F(e, INFINITY)), x, r);
  r = sel(e, fcmp(e, LLVMRealOEQ, x, F(e, -1)), F(e, -INFINITY), r);
  r = sel(e, fcmp(e, LLVMRealULT, x, F(e, -1)), F(e, CG_INVALID_NAN), r);
  LLVMValueRef tiny = fcmp(e, LLVMRealOLT, ffun1(e, "llvm.fabs", x), F(e, 0x1p-60)); /* and +-0 */
  return sel(e, LLVMBuildOr(B, tiny, isnan_(e, x), ""), x, r);
}

/* logistic: t = exp(-|x|) as th + tl (p's rounding kept), then 1 / (1 + t)
 * for x >= 0 and t / (1 + t) below, the rounding of the sum and of the
 * quotient corrected (two-sum, fma residual). |x| is clamped where exp(-|x|)
 * stops being normal: below, the result is flushed (x < 0) or 1. */
static LLVMValueRef v_logistic_f32(Em *e, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMValueRef ax = ffun1(e, "llvm.fabs", x);
  LLVMValueRef a = sel(e, fcmp(e, LLVMRealOLT, ax, F(e, -EXPF_MIN_ARG)), ax, F(e, -EXPF_MIN_ARG)); /* NaN too */
  LLVMValueRef k, pl, p = expf_core(e, LLVMBuildFNeg(B, a, ""), &k, &pl);
  LLVMValueRef sc = LLVMBuildBitCast(B, LLVMBuildShl(B, LLVMBuildAdd(B, k, KI32(e, 127), ""), KI32(e, 23), ""),
                                     e->cg->f32, ""); /* 2^k, k >= -126 */
  LLVMValueRef th = LLVMBuildFMul(B, p, sc, ""), tl = LLVMBuildFMul(B, pl, sc, "");
  LLVMValueRef one = F(e, 1);
  LLVMValueRef d = LLVMBuildFAdd(B, one, th, "");
  LLVMValueRef dl = LLVMBuildFAdd(B, LLVMBuildFSub(B, th, LLVMBuildFSub(B, d, one, ""), ""), tl, "");
  LLVMValueRef neg = fcmp(e, LLVMRealOLT, x, F(e, 0));
  LLVMValueRef n = sel(e, neg, th, one), nl = sel(e, neg, tl, F(e, 0));
  LLVMValueRef y = LLVMBuildFDiv(B, one, d, "");
  LLVMValueRef q = LLVMBuildFMul(B, n, y, "");
  LLVMValueRef nq = LLVMBuildFNeg(B, q, "");
  LLVMValueRef res = LLVMBuildFAdd(B, f32fma(e, nq, d, n), f32fma(e, nq, dl, nl), ""); /* (n + nl) - q (d + dl) */
  LLVMValueRef r = f32fma(e, res, y, q);
  r = sel(e, fcmp(e, LLVMRealOLT, x, F(e, EXPF_MIN_ARG)), F(e, 0), r); /* flushed */
  /* NaN: -x, quieted, as 1 / (1 + exp(-x)) propagates it (XLA:CPU, and the
   * interpreter) */
  LLVMValueRef nx = LLVMBuildXor(B, LLVMBuildBitCast(B, x, e->cg->i32, ""), KI32(e, INT32_MIN), "");
  nx = LLVMBuildBitCast(B, LLVMBuildOr(B, nx, KI32(e, 0x00400000), ""), e->cg->f32, "");
  return sel(e, isnan_(e, x), nx, r);
}

/* An f32 subnormal as a signed zero (DAZ). */
static LLVMValueRef dazf(Em *e, LLVMValueRef x) {
  return sel(e, fcmp(e, LLVMRealOLT, ffun1(e, "llvm.fabs", x), F(e, 0x1p-126)), fcsign(e, F(e, 0), x), x);
}

/* pi/2 = PIO2F_1 + PIO2F_2 + PIO2F_3 + (2^-76.3): f32 parts (mpmath). */
#define PIO2F_1 0x1.921fb6p+0
#define PIO2F_2 -0x1.777a5cp-25
#define PIO2F_3 -0x1.ee59dap-50
/* The bound below which the f32 reduction is taken (speculation level 2:
 * the bound em_spec_raise_f32 raises the flag from). */
#define CG_TRIG_F32_MAX CG_SPEC_F32_UP

/* The reduction in f32 arithmetic (Cody-Waite, sixteen lanes per AVX-512
 * instruction) for ax = |x| < CG_TRIG_F32_MAX, a positive f32 value or
 * zero: k = rint(ax 2/pi) (*q, i32: k mod 4 in its low bits) and
 * r = ax - k pi/2 as rh + *rl:
 *   r1 = ax - k PIO2F_1 is exact (fma; both are multiples of 2^-24 and
 *        their difference is below 1);
 *   p = k PIO2F_2 rounded, s = r1 - p rounded, t = r1 - s, exact (as in
 *        Fast2Sum; exact also where |r1| < |p|, r1 being a multiple of
 *        2^-24: compared with 2Sum for every f32 ax below 2^16), so that
 *        r1 - k PIO2F_2 = s + (t - k PIO2F_2) exactly;
 *   rh = s, rl = (t - k PIO2F_2) rounded once (fma) - k PIO2F_3.
 * (t - k PIO2F_2 is e - pl for Fast2Sum's error e of s and the product's
 * pl = k PIO2F_2 - p: the same value rounded once, so the same rl as
 * computing e and pl, in two operations instead of four.)
 * Only the last two roundings and PIO2F_3's truncation err (each growing
 * with k): |rh + rl - r| < 2^-33.8 |r| for every f32 ax below 2^16, 2^-39
 * below 2^14 (an exhaustive comparison with a quad-precision reduction;
 * the least |r| is 2^-27.8), against 2^-59 for the reduction in double:
 * at most 2^-9.8 ulp more in sin. |rl| can exceed half an ulp of rh (the
 * kernels below only add it to small terms). */
static LLVMValueRef trig_reduce_f32f(Em *e, LLVMValueRef ax, LLVMValueRef *rl, LLVMValueRef *q) {
  LLVMBuilderRef B = e->b;
  /* k by the rounding trick: km's low bits are k's (the kernels use k mod 4) */
  LLVMValueRef nk, km = round_magic(e, ax, 0x1.45f306p-1, 0, &nk); /* 2/pi */
  LLVMValueRef r1 = f32fma(e, nk, F(e, PIO2F_1), ax);
  LLVMValueRef s = LLVMBuildFAdd(B, r1, LLVMBuildFMul(B, nk, F(e, PIO2F_2), ""), ""); /* r1 - p */
  LLVMValueRef t = LLVMBuildFSub(B, r1, s, "");
  *rl = f32fma(e, nk, F(e, PIO2F_3), f32fma(e, nk, F(e, PIO2F_2), t));
  *q = LLVMBuildBitCast(B, km, e->cg->i32, "");
  return s;
}

/* sin and cos of f32 values: the argument reduced to rh + rl with
 * |r| <= pi/4 (slightly beyond) and its quadrant q, then one 16-lane f32
 * polynomial for every lane, sin(v) to v^7 (fitted, truncation < 0.06
 * ulp) with the low part carried through the first-order term:
 *   sin(v) = v + (v z S(z) + vl),  z = v^2;
 * v = r where the result is sin(r) (q even), v = r/2 where it is cos(r)
 * (q odd; halving is exact), cos(r) = 1 - 2 sin(r/2)^2 rounded once
 * (fma): sin(r/2) <= sin(pi/8) scales its error by at most 0.77 of cos's
 * ulp. One polynomial where sin's and cos's were both computed and one
 * selected: 14 multiplies and fma a vector instead of 19 (sin(x)^2 of
 * f32[16M] on two Zen 4 cores 3.40 -> 2.85 ms; the multiply pipes bound
 * it). Max error measured by an emulation over every 7th f32 in
 * [2^-126, 2^16) (two offsets): 0.938 ulp for sin and 0.935 for cos
 * (with sin's and cos's own polynomials: 0.874 and 0.877 over every
 * f32); test_vmath's sweeps check the compiled code against the bound of
 * 1 ulp. The reduction: when speculating at level 2 (cg.c), in f32
 * (trig_reduce_f32f) for |x| below CG_TRIG_F32_MAX, other arguments
 * (NaN and inf too) raising the flag; at level 1 in double
 * (the fast reduction, flag raised from 2^20); otherwise Payne-Hanek.
 * The double ones are within 2^-59 of r and split into f32 rh + rl, and
 * taken only from 2^16 (below, every pass reduces in f32, so that the
 * results do not depend on the pass). tan
 * stays in double (a quotient of the two would not be within 1 ulp). */
static LLVMValueRef v_sincos_f32(Em *e, int which, LLVMValueRef x) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef f32 = e->cg->f32, i32 = e->cg->i32;
  LLVMValueRef ax, tiny = NULL, bad = NULL, q, rh, rl;
  if (e->spec_flag && e->spec_level >= 2) {
    /* zero needs no special case (r = 0, k = 0), nor a subnormal x: the
     * DAZ mode compiled code runs in (cpu/exec.c) reads it as zero */
    ax = ffun1(e, "llvm.fabs", x);
    em_spec_raise_f32(e, ax); /* from CG_TRIG_F32_MAX, inf and NaN */
    rh = trig_reduce_f32f(e, ax, &rl, &q);
  } else {
    x = dazf(e, x);
    ax = ffun1(e, "llvm.fabs", x);
    tiny = fcmp(e, LLVMRealOLT, ax, F(e, 0x1p-126)); /* +-0 (DAZ) */
    bad = fcmp(e, LLVMRealUGE, ax, F(e, INFINITY));  /* inf, NaN */
    LLVMValueRef skip = LLVMBuildOr(B, tiny, bad, "");
    LLVMValueRef axd = LLVMBuildFPExt(B, ax, e->cg->f64, ""), rd;
    if (e->spec_flag) {
      /* speculative (cg.c): see v_tan_f32 */
      LLVMValueRef far = LLVMBuildAnd(B, fcmp(e, LLVMRealOGE, ax, F(e, CG_TRIG_FAST_MAX)), LLVMBuildNot(B, bad, ""), "");
      em_spec_raise(e, far);
      LLVMValueRef k;
      rd = trig_reduce_fast_k(e, sel(e, LLVMBuildOr(B, skip, far, ""), K(e, 1), axd), &k);
      q = LLVMBuildFPToSI(B, k, i32, "");
    } else {
      rd = trig_reduce_f32(e, sel(e, skip, K(e, 1), axd), &q);
      q = LLVMBuildTrunc(B, q, i32, "");
    }
    rh = LLVMBuildFPTrunc(B, rd, f32, "");
    rl = LLVMBuildFPTrunc(B, vsub(e, rd, LLVMBuildFPExt(B, rh, e->cg->f64, "")), f32, "");
    /* below 2^16 the f32 reduction's r and q, as level 2 computes them:
     * an element's result does not depend on which pass computes it
     * (which depends on its chunk's other elements) */
    LLVMValueRef nearf = fcmp(e, LLVMRealOLT, ax, F(e, CG_TRIG_F32_MAX));
    LLVMValueRef rl2, q2, rh2 = trig_reduce_f32f(e, sel(e, nearf, ax, F(e, 0)), &rl2, &q2);
    rh = sel(e, nearf, rh2, rh);
    rl = sel(e, nearf, rl2, rl);
    q = sel(e, nearf, q2, q);
  }
  if (which == TRIG_COS) q = LLVMBuildAdd(B, q, KI32(e, 1), "");
  LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, q, KI32(e, 1), ""), KI32(e, 0), "");
  /* one polynomial for every lane: sin(v) at v = r (even q) or r/2 (odd
   * q: cos(r) = 1 - 2 sin(r/2)^2); halving is exact */
  LLVMValueRef h = sel(e, odd, F(e, 0.5), F(e, 1));
  LLVMValueRef v = LLVMBuildFMul(B, rh, h, ""), vl = LLVMBuildFMul(B, rl, h, "");
  LLVMValueRef z = LLVMBuildFMul(B, v, v, "");
  /* (sin(v) - v) / v^3 as a polynomial in z of degree 2: a fit in f32
   * weighted by v^3 / ulp(sin(v)) on |v| <= pi/4 (its truncation is below
   * 0.06 ulp of sin; Taylor to v^9 took one more fma) */
  static const double S[3] = {-0x1.555546p-3, 0x1.110782p-7, -0x1.995492p-13};
  LLVMValueRef sp = LLVMBuildFAdd(B, v, f32fma(e, LLVMBuildFMul(B, v, z, ""), fhorner(e, z, S, 3), vl), "");
  LLVMValueRef cp = f32fma(e, LLVMBuildFNeg(B, LLVMBuildFAdd(B, sp, sp, ""), ""), sp, F(e, 1));
  LLVMValueRef res = LLVMBuildBitCast(B, sel(e, odd, cp, sp), i32, "");
  /* the sign: negative in quadrants 2 and 3 (q's bit 1, shifted to the
   * sign bit), flipped for sin of negative x (sin is odd) */
  LLVMValueRef sg = LLVMBuildShl(B, q, KI32(e, 30), "");
  if (which == TRIG_SIN) sg = LLVMBuildXor(B, sg, LLVMBuildBitCast(B, x, i32, ""), "");
  res = LLVMBuildXor(B, res, LLVMBuildAnd(B, sg, KI32(e, INT32_MIN), ""), "");
  res = LLVMBuildBitCast(B, res, f32, "");
  if (!tiny) return res;
  res = sel(e, tiny, which == TRIG_COS ? F(e, 1) : x, res);
  return sel(e, bad, LLVMBuildFSub(B, x, x, ""), res);
}


LLVMValueRef em_vmath1_f32(Em *e, Opcode op, LLVMValueRef x) {
  /* tanh: eight vectors side by side, each a long chain ending in a
   * division (GELU over f32[256K] in cache, one thread, with the old
   * reciprocal: 0.128 ms against 0.133 with four, 0.149 with two; with the
   * division, GELU f32[16M]: 3.7 ms at eight, 3.8-3.95 at four, 4.1 at
   * two; sin: two is best; AVX2's 16 registers take four, cg.c
   * chain_interleave). exp and logistic: two vectors of 16 lanes, four of
   * 8 (AVX2; Zen 2, f32[64,4096] in cache, one thread: exp 0.146 ->
   * 0.118 ms, logistic 0.353 -> 0.261; softmax f32[4096,4096] 7.1 -> 6.7
   * ms; sin, cos, log and tanh no faster) */
  bool narrow = em_host_f32_lanes() < 16;
  int il = op == OP_TANH ? 8
           : op == OP_EXP || op == OP_LOGISTIC ? (narrow ? 4 : 2)
           : op == OP_SIN || op == OP_COS || op == OP_LOG || op == OP_LOG1P ? 2
                                                                            : 0;
  if (il > e->long_chain) e->long_chain = il;
  switch (op) {
  case OP_EXP: return v_exp_f32(e, x); /* DAZ: v_exp_f32 */
  case OP_TANH: return v_tanh_f32(e, x); /* DAZ: the mode compiled code runs in (a subnormal x: a = 0, the result 0) */
  case OP_LOGISTIC: return v_logistic_f32(e, dazf(e, x));
  case OP_LOG: return v_log_f32(e, dazf(e, x));
  case OP_LOG1P: return v_log1p_f32(e, dazf(e, x));
  case OP_SIN: return v_sincos_f32(e, TRIG_SIN, x); /* DAZ: v_sincos_f32 */
  case OP_COS: return v_sincos_f32(e, TRIG_COS, x);
  case OP_ERF: return v_erf_f32(e, x); /* DAZ: the mode compiled code runs in (a subnormal x: a reads as 0) */
  default: return NULL;
  }
}

static LLVMValueRef vmath1(Em *e, Opcode op, bool from_f32, LLVMValueRef x);

LLVMValueRef em_vmath1(Em *e, Opcode op, bool from_f32, LLVMValueRef x) {
  LLVMValueRef r = vmath1(e, op, from_f32, x);
  if (r && e->long_chain < 2) e->long_chain = 2;
  return r;
}

static LLVMValueRef vmath1(Em *e, Opcode op, bool from_f32, LLVMValueRef x) {
  if (from_f32) x = daz32(e, x);
  switch (op) {
  case OP_EXP: return v_exp(e, x, from_f32);
  case OP_EXPM1: return v_expm1(e, x, from_f32);
  case OP_LOG: return v_log(e, x, from_f32);
  case OP_LOG1P: return v_log1p(e, x, from_f32);
  case OP_TANH: return v_tanh(e, x, from_f32);
  case OP_LOGISTIC: return v_logistic(e, x, from_f32);
  default: break;
  }
  if (!from_f32) {
    switch (op) {
    case OP_SIN: return v_trig_f64(e, TRIG_SIN, x);
    case OP_COS: return v_trig_f64(e, TRIG_COS, x);
    case OP_TAN: return v_trig_f64(e, TRIG_TAN, x);
    case OP_CBRT: return v_cbrt(e, x, false);
    case OP_ATAN: return v_atan_f64(e, x);
    default: return NULL;
    }
  }
  switch (op) {
  case OP_TAN: return v_tan_f32(e, x);
  case OP_SINH: return v_sinh_f32(e, x);
  case OP_COSH: return v_cosh_f32(e, x);
  case OP_ATANH: return v_atanh_f32(e, x);
  case OP_ASINH: return v_asinh_f32(e, x);
  case OP_ACOSH: return v_acosh_f32(e, x);
  case OP_CBRT: return v_cbrt(e, x, true);
  case OP_ATAN: return v_atan_f32(e, x);
  case OP_ASIN: return v_asin_f32(e, x);
  case OP_ACOS: return v_acos_f32(e, x);
  default: return NULL;
  }
}

LLVMValueRef em_vmath2(Em *e, Opcode op, bool from_f32, LLVMValueRef x, LLVMValueRef y) {
  if (((from_f32 && (op == OP_ATAN2 || op == OP_POWER)) || (!from_f32 && op == OP_ATAN2)) && e->long_chain < 2)
    e->long_chain = 2;
  if (from_f32 && op == OP_ATAN2) return v_atan2_f32(e, daz32(e, x), daz32(e, y));
  if (from_f32 && op == OP_POWER) return v_pow_f32(e, x, y);
  if (!from_f32 && op == OP_ATAN2) return v_atan2_f64(e, x, y);
  return NULL;
}
