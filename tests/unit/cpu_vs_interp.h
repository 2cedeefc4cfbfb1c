/* cpu_vs_interp.h: a differential check for the CPU backend's unit tests
 * (test_cpu_reduce, _rows, _scan, _seq, _stream, _tiles, _window; defined in
 * cpu_vs_interp.c, linked into every unit test): parses a module, runs it
 * on the interpreter and on the cpu backend with deterministic arguments
 * and compares. */
#ifndef CXLA_TEST_CPU_VS_INTERP_H
#define CXLA_TEST_CPU_VS_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu.h"

/* Deterministic arguments for m's entry parameters (*out: nparams
 * literals, caller frees): floats in [-100, 100), every 17th element a
 * NaN, every 13th -0. */
cxla_status cpu_vs_interp_args(const HloModule *m, Literal ***out);
/* Arguments for m's entry parameters from a xorshift stream started at
 * seed: element e of parameter `param` is value(ctx, param, e, u), u the
 * stream's next number, uniform in [0, 1) (one per element, whatever value
 * does with it). *out as for cpu_vs_interp_args. */
cxla_status cpu_vs_interp_args_fn(const HloModule *m, uint64_t seed,
                                  double (*value)(void *ctx, int param, int64_t e, double u), void *ctx,
                                  Literal ***out);
/* Frees cpu_vs_interp_args' arguments (NULL: nothing). */
void cpu_vs_interp_free_args(const HloModule *m, Literal **args);

/* Whether got matches want, tuples element by element: exactly (bits,
 * NaN where NaN) when `exact`, else floats (complex: each part) to a
 * relative 1e-5 of the largest |want| (f16: 1e-2), equal infinities
 * equal, integers exactly. Prints the first differences on stderr. */
bool cpu_vs_interp_close(const char *name, const Literal *want, const Literal *got, bool exact);
/* Whether the cpu results on one thread (one) and on two (two) are the
 * same bits and one matches want as cpu_vs_interp_close says. Prints
 * what failed on stderr. */
bool cpu_vs_interp_threads_agree(const char *name, const Literal *want, const Literal *one, const Literal *two,
                                 bool exact);
/* Compiles m (cpu_compile, default options; *st: its statistics when st
 * is not NULL) and runs it on args on `threads` threads (a pool of its
 * own when more than one). */
cxla_status cpu_vs_interp_run_cpu(const HloModule *m, Literal **args, int threads, CpuCompileStats *st,
                                  Literal **out);

/* Runs module text on the interpreter and on the cpu backend with
 * cpu_vs_interp_args and compares: exactly (bits, NaN where NaN) when
 * `exact`, else floats to a relative 1e-5 of the largest result (f16:
 * 1e-2) and integers exactly. Prints what differs on stderr. */
bool cpu_vs_interp(const char *name, const char *text, bool exact);
/* cpu_vs_interp on the arguments of cpu_vs_interp_args_fn(value, ctx)
 * (its own seed). */
bool cpu_vs_interp_fn(const char *name, const char *text, bool exact,
                      double (*value)(void *ctx, int param, int64_t e, double u), void *ctx);
/* cpu_vs_interp that also counts the kernel outputs the cpu run wrote over
 * an operand's buffer (CpuExecOptions.kernels_inplace) into *inplace. */
bool cpu_vs_interp_inplace(const char *name, const char *text, bool exact, int64_t *inplace);
/* Runs module text on the cpu backend with cpu_vs_interp_args, on one
 * thread, or (split) on a pool of 2 with every kernel split into slices of
 * one row ($CXLA_CPU_GRAIN=1, and some kernel must have split), and
 * compares its result with want (the interpreter's when NULL) bit for bit.
 * Prints what failed on stderr. */
bool cpu_vs_interp_split(const char *name, const char *text, bool split, const Literal *want);

#endif
