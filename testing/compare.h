/* compare.h: matching results against expected values, and printing
 * elements, for conformance testing and the CLI.
 *
 * The corpus' rule, per element:
 *   floats (f16, bf16, f32, f64, f8, f4): NaN matches NaN only; an infinity
 *     matches the same infinity only; otherwise |got - want| <= atol +
 *     rtol * |want|, computed in double;
 *   complex: the real parts and the imaginary parts each by the float rule;
 *   integers and pred: exact.
 * The arrays must have the same element type and dimensions.
 *
 * Ownership: nothing here allocates except literal_flatten, whose array
 * (not the leaves) the caller frees with cxla_free. */
#ifndef CXLA_TESTING_COMPARE_H
#define CXLA_TESTING_COMPARE_H

#include <stddef.h>

#include "ir/ir.h"

typedef struct CompareReport {
  int64_t mismatches;  /* elements out of tolerance; -1 if type or shape differ */
  int64_t first;       /* row-major index of the first mismatch, or -1 */
  char detail[512];    /* "" on a match, else a one-line explanation, e.g.
                          "3 of 32 elements differ; first at [1,2]: got 1.5,
                          want 1.25" */
} CompareReport;

/* The float rule above for one pair of values. */
bool compare_float(double got, double want, double rtol, double atol);

/* Compares two array literals (tuples are refused: flatten first). Returns
 * true on a match; fills *r either way. */
bool compare_literals(const Literal *got, const Literal *want, double rtol, double atol,
                      CompareReport *r);

/* Writes element i of array l into buf: floats in the shortest form that
 * reads back to the same value of their type ("0.1", "-inf", "nan"),
 * integers in decimal, pred as "true"/"false", complex as "(re, im)". */
void literal_format_element(const Literal *l, int64_t i, char *buf, size_t n);

/* Writes "[i,j,k]", the multi-dimensional index of row-major element `flat`
 * of dims, into buf ("[]" for scalars). */
void format_index(int rank, const int64_t *dims, int64_t flat, char *buf, size_t n);

/* Writes "f32[2,3]" into buf. */
void format_shape(ElemType t, int rank, const int64_t *dims, char *buf, size_t n);

/* The array leaves of l in order (a tuple's elements depth-first; an array
 * is its own single leaf). *out is a cxla_malloc'd array of borrowed
 * pointers into l. */
cxla_status literal_flatten(Literal *l, Literal ***out, int *n);

#endif
