/* run_support.h: making a module's arguments and printing its results, for
 * `cxla run` (run_args.c, print_literal.c).
 *
 * Ownership: argument arrays from load_npy_args / make_random_args hold
 * literals owned by the caller; free them with free_args. */
#ifndef CXLA_TOOL_RUN_SUPPORT_H
#define CXLA_TOOL_RUN_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cxla/cxla.h"

/* Reads paths[0..n) as the entry's arguments, checking each file's dtype
 * and shape against the matching parameter; n must equal the parameter
 * count (checked here too). */
cxla_status load_npy_args(const cxla_module *m, char *const *paths, int n,
                          cxla_literal ***out_args);
/* Makes one argument per parameter, deterministically from seed: floats
 * normal(0, 1), complex numbers normal parts, signed ints in [-5, 5],
 * unsigned ints in [0, 10], pred 0/1 with probability 1/2. */
cxla_status make_random_args(const cxla_module *m, uint64_t seed, cxla_literal ***out_args);
/* Gives every elided constant ("constant({...})", value unknown) random
 * data drawn as make_random_args draws arguments (its own stream from
 * seed). */
cxla_status fill_elided_constants(cxla_module *m, uint64_t seed);
void free_args(cxla_literal **args, int n);

/* One line: "f32[2,3] min=-1.5 max=2 mean=0.25 [1, 2, ...]" (numbers);
 * pred arrays count their true elements. */
void print_summary(FILE *f, cxla_literal *l);
/* Every element, nested in brackets by dimension (numpy style). */
void print_values(FILE *f, cxla_literal *l);

#endif
