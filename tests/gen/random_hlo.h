/* random_hlo.h: random valid HLO modules for differential tests, and the
 * helpers to run them.
 *
 * random_hlo_text(seed) writes a module as HLO text: an entry computation
 * that is a DAG of 5-40 instructions over a few small shapes of types f32,
 * f64, s32 and pred, drawn from elementwise unary/binary ops, compare,
 * select, clamp, convert, broadcast, reshape, transpose, slice, concatenate,
 * pad, reverse, reduce (add/max/min/multiply/and/or), dot (general dot_general
 * too: batch and contracting dims anywhere, lists in any order), iota, constants
 * (special values included), dynamic-slice, dynamic-update-slice,
 * tuple/get-tuple-element, calls, conditionals (pred and index forms), and
 * while loops counted from a constant (some with a data-dependent step,
 * some with pass-through and unused state elements). The same seed always gives the same text. Ops whose result
 * XLA leaves to the implementation (rng, reduce with a non-identity init)
 * are not used.
 *
 * random_args(m, seed) makes arguments for the entry computation of m: a
 * mix of ordinary values and special ones (0, -0, inf, nan, extremes).
 *
 * same_bits() compares two results bit for bit, except that any two NaNs
 * are equal (their payloads may differ) and subnormals equal zeros of the
 * same sign (see below).
 *
 * Use: tests #include "../gen/random_hlo.c" (one translation unit per test
 * binary, no Makefile change). Ownership: random_hlo_text's string and the
 * argument array are heap memory (cxla_free / random_args_free). */
#ifndef CXLA_RANDOM_HLO_H
#define CXLA_RANDOM_HLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* The module text for a seed (cxla_free it); NULL on out of memory. */
char *random_hlo_text(uint64_t seed);

/* Arguments for m's entry parameters. */
cxla_status random_args(const HloModule *m, uint64_t seed, Literal ***out_args, int *out_n);
void random_args_free(Literal **args, int n);

/* Bitwise equality, except that any two NaNs are equal and that a
 * subnormal f32/f64 equals a zero or subnormal of the same sign (the
 * interpreter flushes subnormals in arithmetic, XLA:CPU's FTZ/DAZ, so
 * removing an identity op may keep a subnormal that used to be flushed).
 * On a difference,
 * writes where into why (e.g. "{1}[3]: 0x3f800000 vs 0x3f800001"). */
bool same_bits(const Literal *a, const Literal *b, char *why, size_t why_len);

#endif
