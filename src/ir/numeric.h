/* numeric.h: bit-exact conversions for the small float types (f16, bf16,
 * the f8 family, f4e2m1fn) and total-order keys.
 *
 * Encoding rounds to nearest, ties to even, in one step from double (no
 * double rounding). Overflow gives +-Inf for types with infinities and NaN
 * for the "fn"/"fnuz" types that have none (ml_dtypes' behaviour, which XLA
 * follows); f4e2m1fn, which has neither, saturates. */
#ifndef CXLA_NUMERIC_H
#define CXLA_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

/* True for the types stored as raw bits and converted through these
 * functions: f16, bf16, f8*, f4*. */
bool minifloat_is(ElemType t);
double minifloat_decode(ElemType t, uint32_t bits);
uint32_t minifloat_encode(ElemType t, double v);

static inline float f16_to_f32(uint16_t h) { return (float)minifloat_decode(T_F16, h); }
static inline uint16_t f32_to_f16(float f) { return (uint16_t)minifloat_encode(T_F16, f); }
float bf16_to_f32(uint16_t h);    /* exact: the high half of an f32 */
uint16_t f32_to_bf16(float f);    /* round to nearest even; NaN stays NaN */

/* Rounds v to the value set of float type t (f16, bf16, f32, f64, f8...):
 * what storing and reloading v would give. */
double round_to_type(ElemType t, double v);

#endif
