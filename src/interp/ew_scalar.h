/* ew_scalar.h: element access and scalar elementwise arithmetic shared by the
 * evaluators (elementwise.c, and any family that combines single elements:
 * reducers, scatter combiners, sort comparators).
 *
 * Element storage is the Literal storage of ir.h. The load/store helpers
 * convert one element to and from a wide working type:
 *   - integers and pred as int64_t: sign-extended for signed types,
 *     zero-extended for unsigned ones (u64 keeps its bit pattern), pred 0/1;
 *     stores wrap to the type's width (pred stores v != 0);
 *   - floats (f16, bf16, f32, f64, the f8/f4 types) as double; stores round
 *     once, to nearest even, to the type (f32 via a C cast);
 *   - complex as two doubles.
 * All functions here are pure and never fail. */
#ifndef CXLA_INTERP_EW_SCALAR_H
#define CXLA_INTERP_EW_SCALAR_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "interp/interp.h"
#include "ir/numeric.h"

/* Sign-extends the low `bits` bits of v. */
static inline int64_t ew_sext(uint64_t v, int bits) {
  if (bits >= 64) return (int64_t)v;
  uint64_t m = (1ull << bits) - 1, sign = 1ull << (bits - 1);
  v &= m;
  return (int64_t)((v ^ sign) - sign);
}

/* Low `bits` bits of v, zero-extended. */
static inline uint64_t ew_zext(uint64_t v, int bits) {
  return bits >= 64 ? v : (v & ((1ull << bits) - 1));
}

static inline int64_t ew_load_int(ElemType t, const void *base, int64_t i) {
  const unsigned char *p = (const unsigned char *)base + i * type_bytes(t);
  switch (t) {
  case T_PRED: return *p != 0;
  case T_S2: case T_S4: case T_S8: { int8_t v; memcpy(&v, p, 1); return v; }
  case T_S16: { int16_t v; memcpy(&v, p, 2); return v; }
  case T_S32: { int32_t v; memcpy(&v, p, 4); return v; }
  case T_S64: { int64_t v; memcpy(&v, p, 8); return v; }
  case T_U2: case T_U4: case T_U8: return *p;
  case T_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case T_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
  case T_U64: { uint64_t v; memcpy(&v, p, 8); return (int64_t)v; }
  default: return 0;
  }
}

static inline void ew_store_int(ElemType t, void *base, int64_t i, int64_t v) {
  unsigned char *p = (unsigned char *)base + i * type_bytes(t);
  switch (t) {
  case T_PRED: *p = v != 0; break;
  case T_S2: *p = (unsigned char)(int8_t)ew_sext((uint64_t)v, 2); break;
  case T_S4: *p = (unsigned char)(int8_t)ew_sext((uint64_t)v, 4); break;
  case T_S8: case T_U8: *p = (unsigned char)v; break;
  case T_U2: *p = (unsigned char)(v & 3); break;
  case T_U4: *p = (unsigned char)(v & 15); break;
  case T_S16: case T_U16: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); break; }
  case T_S32: case T_U32: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
  case T_S64: case T_U64: { uint64_t w = (uint64_t)v; memcpy(p, &w, 8); break; }
  default: break;
  }
}

static inline double ew_load_float(ElemType t, const void *base, int64_t i) {
  switch (t) {
  case T_F32: { float f; memcpy(&f, (const char *)base + 4 * i, 4); return f; }
  case T_F64: { double d; memcpy(&d, (const char *)base + 8 * i, 8); return d; }
  case T_BF16: { uint16_t h; memcpy(&h, (const char *)base + 2 * i, 2); return bf16_to_f32(h); }
  case T_F16: { uint16_t h; memcpy(&h, (const char *)base + 2 * i, 2); return minifloat_decode(T_F16, h); }
  default: return minifloat_decode(t, ((const unsigned char *)base)[i]);
  }
}

static inline void ew_store_float(ElemType t, void *base, int64_t i, double v) {
  switch (t) {
  case T_F32: { float f = (float)v; memcpy((char *)base + 4 * i, &f, 4); break; }
  case T_F64: memcpy((char *)base + 8 * i, &v, 8); break;
  case T_BF16: case T_F16: {
    uint16_t h = (uint16_t)minifloat_encode(t, v);
    memcpy((char *)base + 2 * i, &h, 2);
    break;
  }
  default: ((unsigned char *)base)[i] = (unsigned char)minifloat_encode(t, v); break;
  }
}

/* ---- XLA:CPU's denormal handling ----
 * XLA:CPU runs with the x86 FTZ and DAZ bits set: floating-point
 * instructions read f32/f64 subnormal inputs as (signed) zero and flush
 * subnormal results to zero. bf16 is computed in f32, so it behaves the
 * same; f16 and the f8 types compute in f32, where their subnormals are
 * normal numbers, so they keep them. Operations XLA implements with bit
 * manipulation (abs, negate, select, copies, bitcast, reduce-precision, the
 * f32<->bf16 conversions, real/imag) keep subnormals. cxla's interpreter
 * reproduces this, since XLA:CPU's results are what it must agree with. */
static inline bool ew_flushes(ElemType t) {
  return t == T_F32 || t == T_F64 || t == T_BF16 || t == T_C64 || t == T_C128;
}

static inline double ew_tiny(ElemType t) { return (t == T_F64 || t == T_C128) ? 0x1p-1022 : 0x1p-126; }

/* An input as the hardware reads it (DAZ). */
static inline double ew_daz(ElemType t, double v) {
  if (ew_flushes(t) && v != 0 && fabs(v) < ew_tiny(t)) return copysign(0.0, v);
  return v;
}

/* A result as the hardware writes it (FTZ): subnormal after rounding to t
 * (f32 precision for bf16 and c64 parts) becomes a signed zero. */
static inline double ew_ftz(ElemType t, double v) {
  if (!ew_flushes(t) || v == 0) return v;
  double r = (t == T_F64 || t == T_C128) ? v : (double)(float)v;
  return (r != 0 && fabs(r) < ew_tiny(t)) ? v * 0.0 : v;
}

typedef struct EwComplex {
  double re, im;
} EwComplex;

static inline EwComplex ew_load_complex(ElemType t, const void *base, int64_t i) {
  EwComplex z;
  if (t == T_C64) {
    float f[2];
    memcpy(f, (const char *)base + 8 * i, 8);
    z.re = f[0];
    z.im = f[1];
  } else {
    double d[2];
    memcpy(d, (const char *)base + 16 * i, 16);
    z.re = d[0];
    z.im = d[1];
  }
  return z;
}

static inline void ew_store_complex(ElemType t, void *base, int64_t i, EwComplex z) {
  if (t == T_C64) {
    float f[2] = {(float)z.re, (float)z.im};
    memcpy((char *)base + 8 * i, f, 8);
  } else {
    double d[2] = {z.re, z.im};
    memcpy((char *)base + 16 * i, d, 16);
  }
}

/* The component type of a complex type (c64 -> f32, c128 -> f64). */
static inline ElemType ew_complex_part_type(ElemType t) { return t == T_C64 ? T_F32 : T_F64; }

/* *out = op(*a, *b) for one element of type t, where op is a binary
 * elementwise opcode (add, subtract, multiply, divide, remainder, maximum,
 * minimum, power, atan2, and, or, xor, shift-*). a, b and out point at one
 * element's storage each (out may alias a or b). Returns false, writing
 * nothing, if op is not defined on t. Same semantics as the array op. */
bool ew_scalar_binary(Opcode op, ElemType t, const void *a, const void *b, void *out);

/* compare(*a, *b) with a direction and comparison type (CMPT_DEFAULT: the
 * one XLA derives from t) on one element of type t. */
bool ew_scalar_compare(CmpDir dir, CmpType ct, ElemType t, const void *a, const void *b);

/* Evaluates the elementwise instruction `in` (any elementwise opcode but
 * map, including compare, select, clamp, convert, bitcast-convert between
 * types of one width, reduce-precision) on one element per operand: ops[k]
 * points at one element of operand k's type, out at one element of the
 * result type (Literal storage). Same semantics as the array op; the
 * instruction's dims are ignored. Returns false, writing nothing, if the op
 * is not defined on these types. Compiled backends call it for the op and
 * type combinations they do not emit inline. */
bool ew_scalar_eval(const Instr *in, const void *const *ops, void *out);

#endif
