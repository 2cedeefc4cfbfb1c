/* amx.h: GEMMs on Intel AMX tiles (amx.c): bf16 x bf16 accumulated in
 * f32 (tdpbf16ps; the result f32, or rounded once to bf16), and 8-bit
 * integers s8/u8 x s8/u8 accumulated in s32 with wraparound (tdpb[su][su]d).
 * Internal to src/cpu; free of LLVM so that unit tests can call the
 * kernels directly. */
#ifndef CXLA_CPU_AMX_H
#define CXLA_CPU_AMX_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "runtime/threadpool.h"

typedef enum AmxElem { AMX_BF16, AMX_S8, AMX_U8 } AmxElem;

/* C[b] = A[b] x B[b] for b < batch: A is m x k (stored k x m when
 * trans_a), B is k x n (stored n x k when trans_b), C is m x n, all row
 * major and densely packed batch after batch. a and b are both AMX_BF16
 * (then out_bf16 says whether C is bf16, rounded to nearest even once,
 * else f32), or each AMX_S8 / AMX_U8 (C is s32). */
typedef struct AmxGemm {
  int64_t batch, m, n, k;
  bool trans_a, trans_b;
  AmxElem a, b;
  bool out_bf16;
} AmxGemm;

/* Whether this CPU runs the AMX kernels (bf16 when !int8, else the 8-bit
 * ones), the kernel asked for the tile data permission once per process
 * (Linux; thread-safe): each thread asks the kernel once, later calls
 * cost a load. */
bool amx_available(bool int8);

/* Runs the GEMM on at most nthreads of pool's threads (NULL pool: the
 * calling thread). UNAVAILABLE where amx_available is false. Inputs with
 * bf16 subnormals are read as zero and subnormal f32 sums flushed to zero,
 * as the tile unit does. */
cxla_status amx_gemm(const AmxGemm *g, const void *a, const void *b, void *c, RtPool *pool, int nthreads);

#endif
