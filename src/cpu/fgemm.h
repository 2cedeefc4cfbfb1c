/* fgemm.h: f32 GEMMs of small and batched products on an AVX-512 (or
 * AVX2) micro-kernel of our own (fgemm.c), for the shapes where a BLAS call
 * costs more than its arithmetic: its threads split one small product,
 * its per-call packing and setup, and the operand scan the BLAS path
 * needs (rval_all_finite) since BLAS may skip zero factors. This kernel
 * multiplies every pair, so inf and NaN propagate as in the plain loops.
 * Internal to src/cpu; free of LLVM so that unit tests can call it. */
#ifndef CXLA_CPU_FGEMM_H
#define CXLA_CPU_FGEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "runtime/threadpool.h"

/* C[b] = A[b] x B[b] for b < batch: A is m x k (stored k x m when
 * trans_a), B is k x n (stored n x k when trans_b), C is m x n, all row
 * major and densely packed batch after batch. ldb and ldc, when not 0,
 * are the row strides of B (not transposed; ignored when trans_b) and of
 * C instead of n: the product of the first n columns of a wider B into
 * the first n columns of a wider C (batch elements k ldb and m ldc
 * apart). lda, when not 0, is the row stride of A instead of k (not
 * transposed; ignored when trans_a): the first k columns of a wider A
 * (batch elements m lda apart), such as a prefix of each row of a
 * chain's block of P. */
typedef struct F32Gemm {
  int64_t batch, m, n, k;
  bool trans_a, trans_b;
  int64_t ldb, ldc, lda;
} F32Gemm;

/* A's row stride in elements: not transposed, lda (when not 0) else k;
 * transposed, its rows are the steps (k), lda ignored. Batch elements
 * are m of it apart. */
static inline int64_t f32_gemm_a_lda(const F32Gemm *g) { return g->lda && !g->trans_a ? g->lda : g->k; }

/* Whether this CPU runs the AVX-512 kernels (AVX-512F): the large
 * products' (f32_gemm_kernel_big) and f64's. */
bool f32_gemm_kernel_available(void);
/* Whether this CPU runs the small products' kernels (f32_gemm_kernel,
 * f32_gemm_pack_b, f32_gemm_kernel_packed): AVX-512F, or AVX2 and FMA
 * (the same results bit for bit; $CXLA_CPU_GEMM_ISA=avx2 takes the AVX2
 * ones where both run). */
bool f32_gemm_small_available(void);

/* Whether the kernel is the faster way for g on this CPU than BLAS:
 * f32_gemm_small_available, and every product (one batch element) small (m, k <= 1024,
 * m n k <= 2^27), or of 128 to 256 rows with k <= 2048 (any n). */
bool f32_gemm_kernel_fits(const F32Gemm *g);

/* Runs g on the kernel, split over at most nthreads of pool's threads
 * (NULL pool: the caller's) by batch element and 64-column panel; each
 * element of C sums its products in contraction order with fused
 * multiply-adds, whatever the split. UNAVAILABLE where
 * f32_gemm_small_available is false. Runs with the caller's FTZ/DAZ
 * mode on every thread. */
cxla_status f32_gemm_kernel(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                            int nthreads);

/* B packed once for many products with the same B (a loop's weights):
 * f32_gemm_kernel packs each 64-column panel of B on every call, which
 * for a product of few rows (an RNN step) costs a quarter of its time.
 * f32_gemm_packed_floats is the size of the packed form of g's B (batch,
 * k, n and trans_b matter, m does not), f32_gemm_pack_b writes it (split
 * over at most nthreads of pool's threads), and f32_gemm_kernel_packed
 * runs g as f32_gemm_kernel does, bit for bit, reading B from its packed
 * form pb. UNAVAILABLE where f32_gemm_small_available is false. */
int64_t f32_gemm_packed_floats(const F32Gemm *g);
cxla_status f32_gemm_pack_b(const F32Gemm *g, const float *b, float *dst, RtPool *pool, int nthreads);
cxla_status f32_gemm_kernel_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                   int nthreads);

/* Whether f32_gemm_kernel_big is the faster way for a product that
 * f32_gemm_kernel_fits rejects: available, m, n, k >= 256, n, k <= 4096. */
bool f32_gemm_big_fits(const F32Gemm *g);
/* Runs g as f32_gemm_kernel does, bit for bit (every F32Gemm field),
 * laid out for products past the caches (m, k beyond
 * f32_gemm_kernel_fits): B packed once (scratch of k x n rounded up to 64
 * columns), rows of C in blocks whose part of A is packed to stay in L2. */
cxla_status f32_gemm_kernel_big(const F32Gemm *g, const float *a, const float *b, float *c, RtPool *pool,
                                int nthreads);
/* f32_gemm_kernel_big with B already packed at pb (f32_gemm_pack_b's
 * form: the same panels), bit for bit the same result. */
cxla_status f32_gemm_kernel_big_packed(const F32Gemm *g, const float *a, const float *pb, float *c, RtPool *pool,
                                       int nthreads);

/* f64 (dgemm.c): the same layout on doubles (F32Gemm describes the
 * shape; every field honoured), B packed once, rows of C in L2-sized
 * blocks, an element's sum the fused multiply-add chain in step order
 * from +0 whatever the thread count; every product taken (inf and NaN
 * propagate, no operand scan needed). f64_gemm_big_fits: available, no
 * transposed or strided operand, m, n, k >= 256, n, k <= 1024.
 * UNAVAILABLE where f32_gemm_kernel_available is false. */
bool f64_gemm_big_fits(const F32Gemm *g);
cxla_status f64_gemm_kernel_big(const F32Gemm *g, const double *a, const double *b, double *c, RtPool *pool,
                                int nthreads);

/* Runs g through BLAS sgemm where finite says both operands hold no
 * infinity or NaN (BLAS may skip a zero factor), split over at most
 * nthreads of pool's threads (cpu_blas_gemm); else in plain loops summing
 * in order on the caller. Any CPU. */
cxla_status f32_gemm_blas(const F32Gemm *g, const float *a, const float *b, float *c, bool finite, RtPool *pool,
                          int nthreads);

#endif
