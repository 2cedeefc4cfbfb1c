/* intdot.h: 8-bit integer GEMMs accumulated in s32 (s8/u8 x s8/u8 -> s32,
 * wrapping on overflow as XLA's s32 accumulation does). Internal to
 * src/cpu; free of LLVM so that unit tests can call the kernels directly. */
#ifndef CXLA_CPU_INTDOT_H
#define CXLA_CPU_INTDOT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"

/* C[b] = A[b] x B[b] for b < batch: A is m x k (stored k x m when
 * trans_a), B is k x n (stored n x k when trans_b), C is m x n, all row
 * major and densely packed batch after batch. */
typedef struct Int8Gemm {
  int64_t batch, m, n, k;
  bool trans_a, trans_b;
  bool a_unsigned, b_unsigned; /* u8 operands (else s8) */
} Int8Gemm;

typedef enum Int8Kernel {
  INT8_AUTO,  /* the fastest this CPU runs */
  INT8_SGEMM, /* f32 BLAS over exact contraction chunks (any CPU) */
  INT8_VNNI,  /* AVX512-VNNI micro-kernel (UNAVAILABLE where the CPU lacks it) */
} Int8Kernel;

cxla_status int8_gemm(const Int8Gemm *g, const void *a, const void *b, int32_t *c, Int8Kernel kernel);

/* Whether this CPU runs INT8_VNNI. */
bool int8_gemm_vnni_available(void);

/* intdot_vnni.c: the VNNI kernel; the caller checked availability. */
cxla_status int8_gemm_vnni(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c);

#endif
