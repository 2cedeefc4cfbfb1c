/* fpenv.h: cxla's work in the default floating-point mode, whatever the
 * caller's.
 *
 * Parsing a constant, folding one, printing one, the interpreter: all of
 * it reads and writes floats through the SSE unit, whose MXCSR register
 * belongs to the calling thread. A host that runs with flush-to-zero and
 * denormals-are-zero set (jaxlib around PJRT calls; TensorFlow's threads)
 * would have every subnormal constant of a module read as zero there
 * (constant(1e-40) broadcast gave zeros under JAX). The public entry points
 * that compute run in the default mode: round to nearest, no FTZ/DAZ,
 * exceptions masked; the caller's mode comes back on return. Compiled
 * kernels set XLA:CPU's FTZ/DAZ themselves (cpu_fp_mode_enter). */
#ifndef CXLA_BASE_FPENV_H
#define CXLA_BASE_FPENV_H

#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>

/* The default MXCSR: all exceptions masked, round to nearest, no FTZ/DAZ. */
#define FPENV_DEFAULT_CSR 0x1F80u

static inline unsigned fpenv_default_enter(void) {
  unsigned old = _mm_getcsr();
  if ((old & ~0x3Fu) != FPENV_DEFAULT_CSR) _mm_setcsr(FPENV_DEFAULT_CSR | (old & 0x3Fu));
  return old;
}

static inline void fpenv_leave(unsigned old) {
  unsigned now = _mm_getcsr();
  if ((now & ~0x3Fu) != (old & ~0x3Fu)) _mm_setcsr(old);
}
#else
static inline unsigned fpenv_default_enter(void) { return 0; }
static inline void fpenv_leave(unsigned old) { (void)old; }
#endif

#endif
