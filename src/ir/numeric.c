/* Small-float encode/decode. See numeric.h. */
#include "ir/numeric.h"

#include <math.h>
#include <string.h>

enum { NAN_IEEE, NAN_FN, NAN_FNUZ, NAN_E8M0, NAN_NONE };

typedef struct MiniFmt {
  int ebits, mbits, bias;
  int nan_kind;
} MiniFmt;

static bool fmt_of(ElemType t, MiniFmt *f) {
  switch (t) {
  case T_F16: *f = (MiniFmt){5, 10, 15, NAN_IEEE}; return true;
  case T_BF16: *f = (MiniFmt){8, 7, 127, NAN_IEEE}; return true;
  case T_F8E5M2: *f = (MiniFmt){5, 2, 15, NAN_IEEE}; return true;
  case T_F8E4M3: *f = (MiniFmt){4, 3, 7, NAN_IEEE}; return true;
  case T_F8E3M4: *f = (MiniFmt){3, 4, 3, NAN_IEEE}; return true;
  case T_F8E4M3FN: *f = (MiniFmt){4, 3, 7, NAN_FN}; return true;
  case T_F8E4M3FNUZ: *f = (MiniFmt){4, 3, 8, NAN_FNUZ}; return true;
  case T_F8E4M3B11FNUZ: *f = (MiniFmt){4, 3, 11, NAN_FNUZ}; return true;
  case T_F8E5M2FNUZ: *f = (MiniFmt){5, 2, 16, NAN_FNUZ}; return true;
  case T_F8E8M0FNU: *f = (MiniFmt){8, 0, 127, NAN_E8M0}; return true;
  case T_F4E2M1FN: *f = (MiniFmt){2, 1, 1, NAN_NONE}; return true;
  default: return false;
  }
}

bool minifloat_is(ElemType t) {
  MiniFmt f;
  return fmt_of(t, &f);
}

double minifloat_decode(ElemType t, uint32_t bits) {
  MiniFmt f;
  if (!fmt_of(t, &f)) return 0;
  uint32_t emask = (1u << f.ebits) - 1, mmask = (1u << f.mbits) - 1;
  if (f.nan_kind == NAN_E8M0) {
    bits &= 0xff;
    if (bits == 0xff) return NAN;
    return ldexp(1.0, (int)bits - 127);
  }
  int sbit = f.ebits + f.mbits;
  bool neg = (bits >> sbit) & 1;
  uint32_t e = (bits >> f.mbits) & emask, m = bits & mmask;
  if (f.nan_kind == NAN_FNUZ && neg && e == 0 && m == 0) return NAN;
  if (f.nan_kind == NAN_FN && e == emask && m == mmask) return neg ? -NAN : NAN;
  if (f.nan_kind == NAN_IEEE && e == emask) {
    if (m) return neg ? -NAN : NAN;
    return neg ? -INFINITY : INFINITY;
  }
  double v;
  if (e == 0)
    v = ldexp((double)m, 1 - f.bias - f.mbits);
  else
    v = ldexp((double)(m | (1u << f.mbits)), (int)e - f.bias - f.mbits);
  return neg ? -v : v;
}

static double max_finite(const MiniFmt *f) {
  int emax;
  uint32_t mmax = (1u << f->mbits) - 1;
  uint32_t emask = (1u << f->ebits) - 1;
  switch (f->nan_kind) {
  case NAN_IEEE: emax = (int)emask - 1; break;
  case NAN_FN: emax = (int)emask; mmax -= 1; break;
  case NAN_E8M0: emax = 254; break;
  default: emax = (int)emask; break;
  }
  return ldexp((double)(mmax | (1u << f->mbits)), emax - f->bias - f->mbits);
}

uint32_t minifloat_encode(ElemType t, double v) {
  MiniFmt f;
  if (!fmt_of(t, &f)) return 0;
  int sbit = f.ebits + f.mbits;
  uint32_t emask = (1u << f.ebits) - 1;
  uint32_t nan_bits;
  switch (f.nan_kind) {
  case NAN_IEEE: nan_bits = (emask << f.mbits) | (1u << (f.mbits ? f.mbits - 1 : 0)); break;
  case NAN_FN: nan_bits = (emask << f.mbits) | ((1u << f.mbits) - 1); break;
  case NAN_FNUZ: nan_bits = 1u << sbit; break;
  case NAN_E8M0: nan_bits = 0xff; break;
  default: nan_bits = 0; break;
  }
  if (isnan(v)) {
    if (f.nan_kind == NAN_IEEE || f.nan_kind == NAN_FN)
      return nan_bits | (signbit(v) ? (1u << sbit) : 0);
    return nan_bits;
  }
  if (f.nan_kind == NAN_E8M0) {
    if (v <= 0) return 0; /* smallest value 2^-127 stands in for zero */
    if (isinf(v)) return 0xff;
    int e;
    double fr = frexp(v, &e); /* v = fr * 2^e, fr in [0.5, 1) */
    int ex = e - 1;
    if (fr > 0.75) ex++; /* nearest power of two; (ties up: rare) */
    ex += 127;
    if (ex < 0) ex = 0;
    if (ex > 254) return 0xff;
    return (uint32_t)ex;
  }
  bool neg = signbit(v);
  double a = fabs(v);
  uint32_t sign = neg ? (1u << sbit) : 0;
  double maxv = max_finite(&f);
  if (isinf(a)) {
    if (f.nan_kind == NAN_IEEE) return sign | (emask << f.mbits);
    if (f.nan_kind == NAN_NONE) return sign | (emask << f.mbits) | ((1u << f.mbits) - 1);
    return nan_bits | (f.nan_kind == NAN_FN ? sign : 0);
  }
  int minexp = 1 - f.bias; /* exponent of the smallest normal */
  double q;
  if (a == 0) {
    q = 1;
  } else {
    int e;
    frexp(a, &e);
    int E = e - 1;
    if (E < minexp) E = minexp;
    q = ldexp(1.0, E - f.mbits);
  }
  double n = nearbyint(a / q); /* ties to even in the default mode */
  double r = n * q;
  if (r > maxv) {
    if (f.nan_kind == NAN_IEEE) {
      /* IEEE: round to Inf only past max + half an ulp, which is exactly
       * what the rounding above computed: r > max means it rounded up. */
      return sign | (emask << f.mbits);
    }
    if (f.nan_kind == NAN_NONE) return sign | (emask << f.mbits) | ((1u << f.mbits) - 1);
    return nan_bits | (f.nan_kind == NAN_FN ? sign : 0);
  }
  if (r == 0) return f.nan_kind == NAN_FNUZ ? 0 : sign;
  double smallest_normal = ldexp(1.0, minexp);
  if (r < smallest_normal) {
    uint32_t m = (uint32_t)(r / ldexp(1.0, minexp - f.mbits));
    return sign | m;
  }
  int e;
  double fr = frexp(r, &e); /* r = fr*2^e, fr in [0.5,1) */
  uint32_t biased = (uint32_t)(e - 1 + f.bias);
  uint32_t m = (uint32_t)ldexp(fr * 2 - 1, f.mbits);
  return sign | (biased << f.mbits) | m;
}

float bf16_to_f32(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

uint16_t f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (isnan(f)) return (uint16_t)((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7fff + lsb;
  return (uint16_t)(u >> 16);
}

double round_to_type(ElemType t, double v) {
  switch (t) {
  case T_F64: return v;
  case T_F32: return (double)(float)v;
  default:
    if (minifloat_is(t)) return minifloat_decode(t, minifloat_encode(t, v));
    return v;
  }
}
