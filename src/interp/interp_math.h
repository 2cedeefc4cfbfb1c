/* interp_math.h: helpers shared by the interpreter's math evaluators (dot.c,
 * conv.c, fft.c, linalg.c). Private to src/interp; defined in dot.c.
 *
 * XLA evaluates dot and convolution by first converting each operand element
 * to the result's element type, then multiplying and summing. cxla does the
 * same, summing in one of three accumulation domains chosen by the result
 * type:
 *   ACC_REAL  real floats (f64/f32/f16/bf16/f8...): sums in double, rounded
 *             once to the result type at the end. (XLA:CPU sums f32 in f32;
 *             double is at least as accurate and within every tolerance.)
 *   ACC_CPLX  c64/c128: sums of (re, im) in double.
 *   ACC_INT   integers and pred: sums in uint64 (two's complement wraps), cut
 *             to the result width when stored, which equals arithmetic that
 *             wraps in the result type. For pred, a nonzero sum stores true,
 *             which is the OR of ANDs that XLA's bool arithmetic gives.
 *
 * Packed buffers hold operand elements converted to the result type, in
 * accumulation form: one double (REAL), two doubles (CPLX) or one uint64
 * (INT) per element. They are cxla_malloc'd; the caller frees them. */
#ifndef CXLA_INTERP_MATH_H
#define CXLA_INTERP_MATH_H

#include "interp/interp.h"

typedef enum AccKind { ACC_REAL, ACC_CPLX, ACC_INT } AccKind;

AccKind acc_kind(ElemType result);
/* Bytes per element of a packed buffer of this kind. */
size_t acc_elem_bytes(AccKind k);

/* Element i of l converted to type t (XLA's convert: float->int saturates,
 * NaN->0; int->int wraps; anything->pred is "nonzero"; complex->real takes
 * the real part), in accumulation form. */
double acc_get_real(const Literal *l, int64_t i, ElemType t);
/* Stores a real accumulator into element i, flushing a subnormal result to
 * zero as XLA:CPU's FTZ mode does for f32/f64/bf16. */
void acc_set_real(Literal *l, int64_t i, double v);
void acc_get_cplx(const Literal *l, int64_t i, ElemType t, double out[2]);
uint64_t acc_get_int(const Literal *l, int64_t i, ElemType t);

/* Stores an accumulated value into element i of l (rounding once / wrapping
 * to l's type). */
void acc_set_cplx(Literal *l, int64_t i, double re, double im);

/* Packs l, converted to type t, with its dimensions reordered: dimension j
 * of the packed array is dimension perm[j] of l (perm is a permutation of
 * 0..rank-1). *out receives a fresh buffer (NULL for an empty array). */
cxla_status acc_pack(const Literal *l, ElemType t, const int *perm, void **out);

#endif
