/* blas.h: OpenBLAS inside cxla's threads (blas_threads.c). Internal to
 * src/cpu; free of LLVM so that unit tests and fgemm.c can use it. */
#ifndef CXLA_CPU_BLAS_H
#define CXLA_CPU_BLAS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "ir/ir.h"
#include "runtime/threadpool.h"

/* ---- OpenBLAS inside cxla's threads (blas_threads.c) ----
 * cxla runs OpenBLAS on one of its threads per call and splits GEMMs over
 * the execution's pool itself (cpu_blas_gemm). OpenBLAS's thread count is
 * one process-wide setting: cpu_blas_enter sets it to 1 when the first of
 * the running executions starts (every execution is inside a pair), and
 * the last to leave puts back what the application had set. Thread-safe. */
void cpu_blas_enter(void);
void cpu_blas_leave(void);

/* C[b] = op(A[b]) x op(B[b]) for b < batch, row major: op(A) is m x k
 * (A stored k x m when trans_a), op(B) is k x n (stored n x k when
 * trans_b), with leading dimensions lda, ldb, ldc and batch elements
 * stride_a, stride_b, stride_c elements apart. type: f32, f64, c64, c128.
 * BLAS may skip a zero factor: the caller checks that the operands are
 * finite where inf and NaN must propagate. */
typedef struct CpuBlasGemm {
  ElemType type;
  bool trans_a, trans_b;
  int64_t batch;
  int m, n, k;
  const void *a, *b;
  void *c;
  int lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;
} CpuBlasGemm;
/* Runs g on at most nthreads of pool's threads (NULL pool: the caller's):
 * batch elements spread over them, or, with fewer elements than threads,
 * each product in blocks of rows of C (of columns when n > m), one
 * single-threaded BLAS call each, in the caller's FTZ/DAZ mode. Every
 * element of C is one BLAS call's sum over the whole contraction. */
cxla_status cpu_blas_gemm(const CpuBlasGemm *g, RtPool *pool, int nthreads);

#endif
